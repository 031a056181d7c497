#include "projections/agot/picks.hpp"
#include "tests/support/messages.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

namespace tally::projections::agot {
namespace {

using tally::testing::english;

using H = House;

// Six players in pick order; each history lists the houses played before (round 1, 2, …).
PickTable table_with(const std::vector<std::vector<House>>& played) {
  PickTable t;
  for (std::size_t i = 0; i < played.size(); ++i) {
    t.players.push_back("p" + std::to_string(i + 1));
    HouseHistory h;
    for (std::size_t r = 0; r < played[i].size(); ++r) h.games.emplace_back(r + 1, played[i][r]);
    t.history.push_back(h);
    t.picked.emplace_back();
  }
  return t;
}

HouseSet set(std::initializer_list<House> houses) {
  HouseSet s;
  for (House h : houses) s = s.with(h);
  return s;
}

// Round 6: p1 has only Stark left, p2 Lannister or Stark, the others one house each.
PickTable round_six() {
  return table_with({
      {H::LANNISTER, H::BARATHEON, H::GREYJOY, H::TYRELL, H::MARTELL},  // Stark
      {H::BARATHEON, H::GREYJOY, H::TYRELL, H::MARTELL},                // Stark, Lannister
      {H::STARK, H::LANNISTER, H::GREYJOY, H::TYRELL, H::MARTELL},      // Baratheon
      {H::STARK, H::LANNISTER, H::BARATHEON, H::TYRELL, H::MARTELL},    // Greyjoy
      {H::STARK, H::LANNISTER, H::BARATHEON, H::GREYJOY, H::MARTELL},   // Tyrell
      {H::STARK, H::LANNISTER, H::BARATHEON, H::GREYJOY},               // Tyrell, Martell
  });
}

TEST(AgotPicks, AcceptedOnlyWhenAvailableFreeAndTheTableCanBeCompleted) {
  PickTable t = round_six();
  // p2 could play Stark, but then p1 has nothing: only Lannister is accepted.
  EXPECT_EQ(acceptable_picks(t, 1), set({H::LANNISTER}));
  // p6 could play Tyrell or Martell, but p5 needs Tyrell.
  EXPECT_EQ(acceptable_picks(t, 5), set({H::MARTELL}));
  EXPECT_EQ(acceptable_picks(t, 0), set({H::STARK}));
  EXPECT_TRUE(check_pick(t, "p1", H::STARK).empty());
}

TEST(AgotPicks, RefusalsNameTheRuleAndTheAcceptedHouses) {
  PickTable t = round_six();
  // G-2 completion: Stark for p2 leaves p1 without a house.
  auto e = check_pick(t, "p2", H::STARK);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].rule, "G-2");
  EXPECT_EQ(e[0].player, "p2");
  EXPECT_EQ(e[0].field, "house");
  EXPECT_EQ(e[0].alternatives, (std::vector<std::string>{"lannister"}));
  EXPECT_NE(english(e[0].message).find("p1 can only play Stark"), std::string::npos)
      << english(e[0].message);

  // G-2 history: p3 played Stark in round 1.
  e = check_pick(t, "p3", H::STARK);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].rule, "G-2");
  EXPECT_NE(english(e[0].message).find("already played Stark in round 1"), std::string::npos);
  EXPECT_EQ(e[0].alternatives, (std::vector<std::string>{"baratheon"}));

  // G-1: taken at the table (and G-2 at once when both apply).
  t.picked[0] = H::STARK;
  e = check_pick(t, "p2", H::STARK);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].rule, "G-1");
  EXPECT_NE(english(e[0].message).find("already taken at this table by p1"), std::string::npos);
  e = check_pick(t, "p3", H::STARK);
  std::vector<std::string> rules;
  for (const auto& x : e) rules.push_back(x.rule);
  EXPECT_EQ(rules, (std::vector<std::string>{"G-2", "G-1"}));

  // Not at this table.
  e = check_pick(t, "p9", H::MARTELL);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].rule, "G-1");
  EXPECT_EQ(e[0].field, "player");
}

TEST(AgotPicks, APlayersOwnEarlierPickDoesNotBlockTheirNewOne) {
  PickTable t = round_six();
  t.picked[5] = H::MARTELL;
  EXPECT_TRUE(check_pick(t, "p6", H::MARTELL).empty());
}

TEST(AgotPicks, CompletionInPickOrderTakesTheFirstHouseThatKeepsTheTableComplete) {
  PickTable t =
      table_with({{}, {}, {}, {}, {}, {H::STARK, H::LANNISTER, H::BARATHEON, H::GREYJOY}});
  t.picked[1] = H::TYRELL;  // p2 picked already
  auto done = complete_picks(t);
  ASSERT_TRUE(done);
  // p6 can only have Martell (Tyrell is taken), so p1…p5 leave it; board order otherwise.
  std::vector<std::pair<std::string, House>> want = {{"p1", H::STARK},
                                                     {"p3", H::LANNISTER},
                                                     {"p4", H::BARATHEON},
                                                     {"p5", H::GREYJOY},
                                                     {"p6", H::MARTELL}};
  EXPECT_EQ(*done.value, want);
}

TEST(AgotPicks, CompletionRefusedWhenTheTableCannotBeCompleted) {
  PickTable t = round_six();
  t.picked[5] = H::TYRELL;  // taken before the checks existed: p5 is now stuck
  auto done = complete_picks(t);
  ASSERT_FALSE(done);
  EXPECT_EQ(done.errors[0].rule, "G-2");
  EXPECT_NE(english(done.errors[0].message).find("p5"), std::string::npos)
      << english(done.errors[0].message);
}

// The houses a stuck player could play, all taken at the table: one list, and the words around
// it agree with how many there are.
TEST(AgotPicks, TheHousesAStuckPlayerCouldPlayAreOneList) {
  PickTable t =
      table_with({{}, {}, {}, {}, {H::STARK, H::LANNISTER, H::BARATHEON, H::GREYJOY}, {}});
  t.picked[0] = H::TYRELL;  // taken before the checks existed: p5 is now stuck
  t.picked[1] = H::MARTELL;
  auto done = complete_picks(t);
  ASSERT_FALSE(done);
  const i18n::Message& m = done.errors[0].message;
  EXPECT_EQ(english(m),
            "the table cannot be completed with six different houses: p5 can only play Tyrell or "
            "Martell, both already taken at this table (correct the picks, or re-seat the round)");
  EXPECT_EQ(tally::testing::rendered(m, i18n::Lang::cs),
            "stůl nelze doplnit šesti různými rody: p5 může hrát už jen za rody Tyrell nebo "
            "Martell, a u tohoto stolu je to obsazené (opravte volby rodů, nebo kolo nasaďte "
            "znovu)");
  EXPECT_EQ(tally::testing::rendered(m, i18n::Lang::it),
            "il tavolo non può essere completato con sei casate diverse: p5 può giocare solo "
            "Tyrell o Martell, già prese a questo tavolo (correggi le scelte, o abbina di nuovo il "
            "turno)");
  EXPECT_EQ(tally::testing::rendered(m, i18n::Lang::ru),
            "стол нельзя укомплектовать шестью разными домами: игрок p5 может играть только за "
            "дома Тирелл или Мартелл, а за этим столом они уже заняты (исправьте выбор домов или "
            "рассадите тур заново)");
}

// Issue 21: a refusal says the accepted houses once, at the end of its first reason; every entry
// still carries them for machines.
TEST(AgotPicks, ARefusalSaysTheAcceptedHousesOnce) {
  PickTable t = round_six();
  t.picked[0] = H::STARK;
  auto e = check_pick(t, "p3", H::STARK);  // played in round 1 (G-2), and taken by p1 (G-1)
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(english(e[0].message), "p3 already played Stark in round 1 (accepted: Baratheon)");
  EXPECT_EQ(english(e[1].message), "Stark is already taken at this table by p1");
  for (const auto& x : e) EXPECT_EQ(x.alternatives, (std::vector<std::string>{"baratheon"}));

  // Several houses: one list in the language's words; none: said so.
  PickTable open = table_with({{}, {}, {}, {}, {}, {}});
  open.picked[0] = H::STARK;
  e = check_pick(open, "p2", H::STARK);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(english(e[0].message),
            "Stark is already taken at this table by p1 (accepted: Lannister, Baratheon, Greyjoy, "
            "Tyrell, or Martell)");
  EXPECT_EQ(tally::testing::rendered(e[0].message, i18n::Lang::cs),
            "rod Stark už u tohoto stolu má p1 (lze přijmout: Lannister, Baratheon, Greyjoy, "
            "Tyrell nebo Martell)");
}

// A refusal as a judge reads it in each language: players by name, houses in the language.
TEST(AgotPicks, RefusalsInEveryLanguage) {
  PickTable t = round_six();
  t.picked[0] = H::STARK;
  auto e = check_pick(t, "p3", H::STARK);
  ASSERT_EQ(e.size(), 2u);
  const std::map<std::string, std::string> names = {{"p1", "Jana Nováková"}, {"p3", "Иван Петров"}};
  auto in = [&](i18n::Lang lang, const i18n::Message& m) {
    return tally::testing::rendered(m, lang, names);
  };
  EXPECT_EQ(in(i18n::Lang::ru, e[0].message),
            "у игрока Иван Петров дом Старк уже был в туре 1 (можно выбрать: Баратеон)");
  EXPECT_EQ(in(i18n::Lang::ru, e[1].message),
            "дом Старк за этим столом уже занят игроком Jana Nováková");
  EXPECT_EQ(in(i18n::Lang::cs, e[0].message),
            "Иван Петров má rod Stark odehraný už v 1. kole (lze přijmout: Baratheon)");
  EXPECT_EQ(in(i18n::Lang::cs, e[1].message), "rod Stark už u tohoto stolu má Jana Nováková");
  EXPECT_EQ(in(i18n::Lang::it, e[0].message),
            "Иван Петров ha già giocato Stark nel turno 1 (casate accettabili: Baratheon)");
  EXPECT_EQ(in(i18n::Lang::it, e[1].message), "Stark è già presa a questo tavolo da Jana Nováková");

  // The completion refusal: who would be left short, and with which houses.
  e = check_pick(round_six(), "p2", H::STARK);
  ASSERT_EQ(e.size(), 1u);
  const std::map<std::string, std::string> more = {{"p1", "Jana"}, {"p2", "Petr"}};
  EXPECT_EQ(english(e[0].message),
            "if p2 takes Stark, p1 can only play Stark: the table could not be completed "
            "(accepted: Lannister)");
  EXPECT_EQ(tally::testing::rendered(e[0].message, i18n::Lang::ru, more),
            "если игрок Petr выберет дом Старк, игрок Jana может играть только за дом Старк: стол "
            "нельзя будет укомплектовать (можно выбрать: Ланнистер)");
  EXPECT_EQ(tally::testing::rendered(e[0].message, i18n::Lang::cs, more),
            "pokud si Petr vezme rod Stark, Jana může hrát už jen za rod Stark: stůl by nešlo "
            "doplnit (lze přijmout: Lannister)");
  EXPECT_EQ(tally::testing::rendered(e[0].message, i18n::Lang::it, more),
            "se Petr prende Stark, Jana può giocare solo Stark: il tavolo non potrebbe essere "
            "completato (casate accettabili: Lannister)");
}

}  // namespace
}  // namespace tally::projections::agot
