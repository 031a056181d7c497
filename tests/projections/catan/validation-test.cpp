// One test (at least) per rule C-0 … C-12, each showing the exact errors: rule, player, field.
// Results go through the schema codec and Game::check_action, as a request would.
#include "projections/catan/validation.hpp"

#include "tests/projections/catan/fixtures.hpp"
#include "tests/support/messages.hpp"

#include <gtest/gtest.h>

#include <regex>
#include <tuple>

namespace tally::projections::catan {
namespace {

using namespace testing;

// (rule, player, field) of each error, in the order given.
using Found = std::vector<std::tuple<std::string, std::string, std::string>>;

Found found(const RuleErrors& errors) {
  Found out;
  for (const auto& e : errors) {
    // Every message is a key of the catalogs (not a sentence of its own).
    EXPECT_TRUE(i18n::Catalogs::builtin().has(i18n::Lang::en, e.message.key))
        << e.rule << ": " << e.message;
    out.emplace_back(e.rule, e.player, e.field);
  }
  return out;
}

class CatanValidation : public ::testing::Test {
 protected:
  // The result `players` proposed at a table seated a, b, c, d (and e registered, unseated).
  Found result(const std::vector<json::object>& players) {
    return found(check(*game, b, 1, 1, Which::CATAN_RESULT, body(players)));
  }

  static TournamentBuilder make() {
    auto b = seated({{"a", "b", "c", "d"}});
    b.player("e", "e");
    return b;
  }

  std::unique_ptr<Game> game = make_catan_game();
  TournamentBuilder b = make();
  std::vector<json::object> table = clear_order();
};

TEST_F(CatanValidation, AValidResultHasNoErrors) { EXPECT_EQ(result(table), Found{}); }

TEST_F(CatanValidation, C0_APlayerNotSeatedHereAndTheSeatedPlayerMissing) {
  table[3]["player"] = "e";
  EXPECT_EQ(result(table), (Found{{"C-0", "e", "player"}, {"C-0", "d", "players"}}));
}

TEST_F(CatanValidation, C0_APlayerListedTwice) {
  table[3]["player"] = "a";
  EXPECT_EQ(result(table), (Found{{"C-0", "a", "player"}, {"C-0", "d", "players"}}));
}

TEST_F(CatanValidation, C0_ATableHasThreeOrFourPlayers) {
  table.push_back(sheet("e", 2, 0, 0, 0, 2, 1));
  EXPECT_EQ(result(table), (Found{{"C-0", "", "players"}, {"C-0", "e", "player"}}));
}

TEST_F(CatanValidation, C1_SettlementsZeroToFive) {
  table[1]["settlements"] = 6;
  table[2]["settlements"] = -1;
  EXPECT_EQ(result(table), (Found{{"C-1", "b", "settlements"}, {"C-1", "c", "settlements"}}));
}

TEST_F(CatanValidation, C2_CitiesZeroToFour) {
  table[2]["cities"] = 5;
  EXPECT_EQ(result(table), (Found{{"C-2", "c", "cities"}}));
}

TEST_F(CatanValidation, C3_NoCityMeansAtLeastTwoSettlements) {
  table[3]["settlements"] = 1;
  table[3]["cities"] = 0;
  EXPECT_EQ(result(table), (Found{{"C-3", "d", "settlements"}}));
}

TEST_F(CatanValidation, C4_VpCardsZeroToFivePerPlayer) {
  table[1]["vp_cards"] = 6;  // the table's sum (C-5) is not judged on a count out of range
  table[2]["vp_cards"] = -1;
  EXPECT_EQ(result(table), (Found{{"C-4", "b", "vp_cards"}, {"C-4", "c", "vp_cards"}}));
}

TEST_F(CatanValidation, C5_TheTablesVpCardsSumToAtMostFive) {
  table[1]["vp_cards"] = 3;
  table[3]["vp_cards"] = 3;
  EXPECT_EQ(result(table), (Found{{"C-5", "", "vp_cards"}}));
}

TEST_F(CatanValidation, C6_TheTablesKnightsSumToAtMostFourteen) {
  table[0]["knights"] = 5;
  table[1]["knights"] = 4;
  table[2]["knights"] = 4;
  table[3]["knights"] = 2;
  EXPECT_EQ(result(table), (Found{{"C-6", "", "knights"}}));
}

TEST_F(CatanValidation, C6_KnightsAreNeverNegative) {
  table[2]["knights"] = -1;  // and Largest Army is not judged on it
  EXPECT_EQ(result(table), (Found{{"C-6", "c", "knights"}}));
}

TEST_F(CatanValidation, C7_TheHolderHasTheMostKnights) {
  table[1]["knights"] = 4;  // b has more than the holder a
  EXPECT_EQ(result(table), (Found{{"C-7", "a", "largest_army"}}));
}

TEST_F(CatanValidation, C7_TwoHoldersTiedAtTheTop) {
  table[2]["knights"] = 3;
  table[2]["largest_army"] = true;
  EXPECT_EQ(result(table), (Found{{"C-7", "a", "largest_army"}, {"C-7", "c", "largest_army"}}));
}

TEST_F(CatanValidation, C7_SomebodyHoldsItFromThreeKnights) {
  table[0]["largest_army"] = false;  // a has 3, the most
  table[0]["vp"] = 8;                // (and the written VP agrees with that)
  EXPECT_EQ(result(table), (Found{{"C-7", "a", "largest_army"}}));
  table[2]["knights"] = 3;  // tied: the judge must say who got there first
  EXPECT_EQ(result(table), (Found{{"C-7", "", "largest_army"}}));
}

TEST_F(CatanValidation, C7_NobodyHoldsItBelowThreeKnights) {
  table[0]["knights"] = 2;
  EXPECT_EQ(result(table), (Found{{"C-7", "a", "largest_army"}}));
}

TEST_F(CatanValidation, C8_RoadsTwoToFifteen) {
  table[1]["roads"] = 16;
  table[3]["roads"] = 1;
  table[3]["longest_road"] = 1;
  EXPECT_EQ(result(table), (Found{{"C-8", "b", "roads"}, {"C-8", "d", "roads"}}));
}

TEST_F(CatanValidation, C8_TheLongestRoadIsOneToRoadsBuilt) {
  table[0]["longest_road"] = 7;  // 6 roads built
  table[2]["longest_road"] = 0;
  EXPECT_EQ(result(table), (Found{{"C-8", "a", "longest_road"}, {"C-8", "c", "longest_road"}}));
}

TEST_F(CatanValidation, C9_NobodyHoldsLongestRoadBelowFive) {
  table[1]["longest_road"] = 4;
  EXPECT_EQ(result(table), (Found{{"C-9", "b", "longest_road_holder"}}));
}

TEST_F(CatanValidation, C9_TheHolderHasTheLongestRoad) {
  table[2]["longest_road"] = 7;  // c's road is longer than the holder b's
  EXPECT_EQ(result(table), (Found{{"C-9", "b", "longest_road_holder"}}));
}

TEST_F(CatanValidation, C9_TwoHoldersOrNone) {
  table[3]["longest_road"] = 5;
  table[1]["longest_road"] = 5;
  table[3]["longest_road_holder"] = true;
  EXPECT_EQ(result(table),
            (Found{{"C-9", "b", "longest_road_holder"}, {"C-9", "d", "longest_road_holder"}}));
  table[1]["longest_road_holder"] = false;
  table[3]["longest_road_holder"] = false;
  EXPECT_EQ(result(table), (Found{{"C-9", "", "longest_road_holder"}}));
}

TEST_F(CatanValidation, C10_TheWrittenVpMustBeTheComputedVp) {
  table[0]["vp"] = 11;
  table[1]["vp"] = 8;  // right
  EXPECT_EQ(result(table), (Found{{"C-10", "a", "vp"}}));
}

TEST_F(CatanValidation, C11_TwoPlayersAtTenAndNoClaim) {
  EXPECT_EQ(result(two_at_ten()), (Found{{"C-11", "", "claimed_win"}}));
}

TEST_F(CatanValidation, C11_TwoEligibleClaimants) {
  auto t = two_at_ten();
  t[0]["claimed_win"] = true;
  t[1]["claimed_win"] = true;
  EXPECT_EQ(result(t), (Found{{"C-11", "a", "claimed_win"}, {"C-11", "b", "claimed_win"}}));
}

TEST_F(CatanValidation, C12_AClaimUnderTenVp) {
  table[1]["claimed_win"] = true;  // b has 8
  EXPECT_EQ(result(table), (Found{{"C-12", "b", "claimed_win"}}));
}

TEST_F(CatanValidation, C12_AClaimActionIsJudgedOnTheResult) {
  b.action(1, 1, Which::CATAN_RESULT, body(table));
  auto errors = check(*game, b, 1, 1, Which::CLAIMED_WIN, json::parse(R"({"player":"c"})"));
  EXPECT_EQ(found(errors), (Found{{"C-12", "c", "player"}}));
}

TEST_F(CatanValidation, EveryViolationAtOnceInRuleOrder) {
  table[3]["roads"] = 20;       // C-8 d
  table[2]["cities"] = 7;       // C-2 c
  table[0]["settlements"] = 9;  // C-1 a
  table[1]["vp"] = 3;           // C-10 b
  EXPECT_EQ(result(table), (Found{{"C-1", "a", "settlements"},
                                  {"C-2", "c", "cities"},
                                  {"C-8", "d", "roads"},
                                  {"C-10", "b", "vp"}}));
}

TEST_F(CatanValidation, ClaimsWaitForTheVpToBeCertain) {
  auto t = two_at_ten();  // C-11 would apply …
  t[2]["cities"] = 5;     // … but c's counts are wrong, so the VP are not yet known
  EXPECT_EQ(result(t), (Found{{"C-2", "c", "cities"}}));
}

TEST_F(CatanValidation, MessagesSayWhatIsWrongInTheJudgesTerms) {
  using tally::testing::english;
  table[0]["longest_road"] = 7;
  auto errors = check(*game, b, 1, 1, Which::CATAN_RESULT, body(table));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(english(errors[0].message), "a's longest road (7) is longer than the 6 roads built");
  auto t = two_at_ten();
  errors = check(*game, b, 1, 1, Which::CATAN_RESULT, body(t));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(english(errors[0].message),
            "a and b have 10 VP or more (a 10 and b 12): record which of them claimed the win");
  // C-5, C-6: the counts behind a table-wide sum, zeros left out.
  table = clear_order();
  table[1]["vp_cards"] = 3;
  table[3]["vp_cards"] = 3;
  errors = check(*game, b, 1, 1, Which::CATAN_RESULT, body(table));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(english(errors[0].message),
            "the table's VP cards add up to 6 (b 3 and d 3); the game has only 5");
  table = clear_order();
  table[0]["knights"] = 5;
  table[1]["knights"] = 4;
  table[2]["knights"] = 4;
  table[3]["knights"] = 2;
  errors = check(*game, b, 1, 1, Which::CATAN_RESULT, body(table));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(english(errors[0].message),
            "the table's knights add up to 15 (a 5, b 4, c 4, and d 2); the game has only 14");
  table = clear_order();
  table[0]["vp"] = 11;
  errors = check(*game, b, 1, 1, Which::CATAN_RESULT, body(table));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(english(errors[0].message),
            "the table wrote 11 VP for a, but the result is worth 10 (2 for settlements + 6 for "
            "cities + 2 for Largest Army)");
  table = clear_order();
  table[1]["knights"] = 4;  // b has more than the holder a (3)
  errors = check(*game, b, 1, 1, Which::CATAN_RESULT, body(table));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(english(errors[0].message),
            "a holds Largest Army with 3 knights, but b has 4 knights; the holder has the most at "
            "the table");
  table = clear_order();
  table[3]["settlements"] = 1;
  table[3]["cities"] = 0;
  errors = check(*game, b, 1, 1, Which::CATAN_RESULT, body(table));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(english(errors[0].message),
            "d has no city, so must have at least 2 settlements; the result says 1");
  table = clear_order();
  table[1]["settlements"] = 6;
  table[2]["knights"] = -1;
  errors = check(*game, b, 1, 1, Which::CATAN_RESULT, body(table));
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(english(errors[0].message), "settlements must be between 0 and 5; b has 6");
  EXPECT_EQ(english(errors[1].message), "knights must be 0 or more; c has -1");
}

// The names a person reads, in their language: Jana Nováková (p1) marked for Largest Army with
// 1 knight while Petr Dvořák (p2) has 3 — and the plural forms of each language.
class CatanMessagesInLanguages : public ::testing::Test {
 protected:
  static TournamentBuilder make() {
    TournamentBuilder b("cup", "catan", "", {});
    for (const auto& [id, name] : names) b.player(id, name);
    b.seat({{"p1", "p2", "p3", "p4"}});
    return b;
  }
  // a table where p1 holds Largest Army with `holder` knights and p2 has `most`.
  RuleErrors largest_army(int holder, int most) {
    auto t = clear_order();
    const char* ids[] = {"p1", "p2", "p3", "p4"};
    for (int i = 0; i < 4; ++i) t[i]["player"] = ids[i];
    t[0]["knights"] = holder;
    t[1]["knights"] = most;
    return check(*game, b, 1, 1, Which::CATAN_RESULT, body(t));
  }
  std::string in(i18n::Lang lang, const RuleError& e) {
    return tally::testing::rendered(e.message, lang, names);
  }

  static inline const std::map<std::string, std::string> names = {
      {"p1", "Jana Nováková"}, {"p2", "Petr Dvořák"}, {"p3", "Eva Malá"}, {"p4", "Ivo Novák"}};
  std::unique_ptr<Game> game = make_catan_game();
  TournamentBuilder b = make();
};

TEST_F(CatanMessagesInLanguages, C7TheHolderWithFewerKnightsByNameWithEachLanguagesPlurals) {
  auto errors = largest_army(1, 3);
  ASSERT_EQ(errors.size(), 1u);
  ASSERT_EQ(errors[0].rule, "C-7");
  EXPECT_EQ(errors[0].player, "p1");  // the machine field keeps the id
  EXPECT_EQ(in(i18n::Lang::en, errors[0]),
            "Jana Nováková holds Largest Army with 1 knight, but Petr Dvořák has 3 knights; the "
            "holder has the most at the table");
  EXPECT_EQ(in(i18n::Lang::cs, errors[0]),
            "Jana Nováková má titul Největší vojsko (1 rytíř), ale Petr Dvořák má 3 rytíře; titul "
            "patří tomu, kdo má u stolu nejvíce rytířů");
  EXPECT_EQ(in(i18n::Lang::it, errors[0]),
            "Jana Nováková ha il titolo Esercito più numeroso con 1 cavaliere, ma Petr Dvořák ha 3 "
            "cavalieri; il titolo spetta a chi ha più cavalieri al tavolo");
  EXPECT_EQ(in(i18n::Lang::ru, errors[0]),
            "у игрока Jana Nováková отмечен титул «Самое большое войско» (1 рыцарь), но у игрока "
            "Petr Dvořák 3 рыцаря; титул получает тот, у кого больше всего рыцарей за столом");

  // Two and five knights: "2 rytíři … 5 rytířů", "2 рыцаря … 5 рыцарей", "2 cavalieri".
  errors = largest_army(2, 5);
  ASSERT_EQ(errors.size(), 1u);
  const std::string cs = in(i18n::Lang::cs, errors[0]);
  EXPECT_NE(cs.find("(2 rytíři)"), std::string::npos) << cs;
  EXPECT_NE(cs.find("Petr Dvořák má 5 rytířů"), std::string::npos) << cs;
  const std::string ru = in(i18n::Lang::ru, errors[0]);
  EXPECT_NE(ru.find("(2 рыцаря)"), std::string::npos) << ru;
  EXPECT_NE(ru.find("Petr Dvořák 5 рыцарей"), std::string::npos) << ru;
  EXPECT_NE(in(i18n::Lang::it, errors[0]).find("con 2 cavalieri"), std::string::npos);
}

// (Czech keeps "a" with the next word: ICU joins with a no-break space.)
TEST_F(CatanMessagesInLanguages, AListOfPlayersIsJoinedTheLanguagesWay) {
  auto t = two_at_ten();
  const char* ids[] = {"p1", "p2", "p3", "p4"};
  for (int i = 0; i < 4; ++i) t[i]["player"] = ids[i];
  auto errors = check(*game, b, 1, 1, Which::CATAN_RESULT, body(t));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].rule, "C-11");
  EXPECT_EQ(in(i18n::Lang::cs, errors[0]),
            "Jana Nováková a\u00a0Petr Dvořák mají 10 VB nebo více (Jana Nováková 10 a\u00a0Petr "
            "Dvořák 12): zapište, kdo z nich ohlásil vítězství");
  EXPECT_EQ(in(i18n::Lang::it, errors[0]),
            "Jana Nováková e Petr Dvořák hanno 10 PV o più (Jana Nováková 10 e Petr Dvořák 12): "
            "registra chi di loro ha dichiarato la vittoria");
  EXPECT_EQ(in(i18n::Lang::ru, errors[0]),
            "у игроков Jana Nováková и Petr Dvořák 10 ПО или больше (Jana Nováková 10 и Petr "
            "Dvořák 12): запишите, кто из них заявил победу");
}

// C-5: who holds the VP cards behind the table's total, by name, each with their number.
TEST_F(CatanMessagesInLanguages, TheCountsBehindATablesSumByNameInEachLanguage) {
  auto t = clear_order();
  const char* ids[] = {"p1", "p2", "p3", "p4"};
  for (int i = 0; i < 4; ++i) t[i]["player"] = ids[i];
  t[1]["vp_cards"] = 3;
  t[3]["vp_cards"] = 3;
  auto errors = check(*game, b, 1, 1, Which::CATAN_RESULT, body(t));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].rule, "C-5");
  EXPECT_EQ(
      in(i18n::Lang::en, errors[0]),
      "the table's VP cards add up to 6 (Petr Dvořák 3 and Ivo Novák 3); the game has only 5");
  EXPECT_EQ(
      in(i18n::Lang::cs, errors[0]),
      "akčních karet s vítězným bodem je u stolu celkem 6 (Petr Dvořák 3 a\u00a0Ivo Novák 3); "
      "hra jich má jen 5");
  EXPECT_EQ(in(i18n::Lang::it, errors[0]),
            "al tavolo le carte sviluppo punto vittoria sono 6 in tutto (Petr Dvořák 3 e Ivo Novák "
            "3); il gioco ne ha solo 5");
  EXPECT_EQ(in(i18n::Lang::ru, errors[0]),
            "всего карт победного очка за столом — 6 (Petr Dvořák 3 и Ivo Novák 3); в игре их "
            "только 5");
}

TEST_F(CatanMessagesInLanguages, TheWrittenVpWithTheBreakdownInEachLanguage) {
  auto t = clear_order();
  const char* ids[] = {"p1", "p2", "p3", "p4"};
  for (int i = 0; i < 4; ++i) t[i]["player"] = ids[i];
  t[1]["vp"] = 9;  // p2 is worth 8: 3 + 2 for one city + 1 VP card + 2 for Longest Road
  auto errors = check(*game, b, 1, 1, Which::CATAN_RESULT, body(t));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(in(i18n::Lang::cs, errors[0]),
            "stůl zapsal hráči Petr Dvořák 9 VB, výsledek ale dává 8 (3 za vesnice + 2 za města + "
            "1 za akční karty + 2 za Nejdelší cestu)");
  EXPECT_EQ(in(i18n::Lang::it, errors[0]),
            "il tavolo ha scritto 9 PV per Petr Dvořák, ma il risultato vale 8 (3 per gli "
            "insediamenti + 2 per le città + 1 per le carte punto vittoria + 2 per la Strada più "
            "lunga)");
  EXPECT_EQ(in(i18n::Lang::ru, errors[0]),
            "стол записал игроку Petr Dvořák 9 ПО, но результат даёт 8 (3 за поселения + 2 за "
            "города + 1 за карты победного очка + 2 за «Самый длинный тракт»)");
}

// Every pattern of the catan and rules catalogs is one ICU compiles: rendered with every argument
// it names (numbers will do), nothing of the pattern's syntax is left.
TEST(CatanCatalogs, EveryPatternRendersInEveryLanguage) {
  const auto& catalogs = i18n::Catalogs::builtin();
  const std::regex argument(R"(\{(\w+)\s*[,}])");
  std::size_t checked = 0;
  for (auto lang : i18n::kLanguages) {
    for (const auto& key : catalogs.keys(lang)) {
      const std::string area = catalogs.area_of(key);
      if (area != "catan" && area != "rules") continue;
      const std::string& pattern = *catalogs.pattern(lang, key);
      i18n::Message m(key);
      for (std::sregex_iterator it(pattern.begin(), pattern.end(), argument), end; it != end;
           ++it) {
        m.with((*it)[1].str(), std::int64_t{3});
      }
      const std::string text = catalogs.render(lang, m);
      EXPECT_EQ(text.find_first_of("{}"), std::string::npos)
          << i18n::code(lang) << " " << key << ": " << text;
      ++checked;
    }
  }
  // 4 languages × (58 catan + 41 rules and schema keys); the notices' 9 copies of rule messages
  // became one key that nests the rule's message.
  EXPECT_GE(checked, 4u * (58 + 41));
}

TEST(CatanFieldLabels, EveryLabelIsInTheCatalogsAndTheEnglishIsTheFieldsText) {
  const auto& catalogs = i18n::Catalogs::builtin();
  auto game = make_catan_game();
  for (const auto& action : game->describe().actions) {
    for (const auto& f : action.fields) {
      for (auto lang : i18n::kLanguages) {
        EXPECT_TRUE(catalogs.has(lang, f.label)) << f.label << " " << i18n::code(lang);
      }
      EXPECT_EQ(catalogs.text(i18n::Lang::en, f.label), f.text) << f.label;
    }
  }
}

// Property: corrupting one field of a random valid table is caught by that field's rule.
TEST(CatanValidationProperty, EachCorruptionIsCaughtByItsRule) {
  std::mt19937_64 rng(20260);
  struct Corruption {
    std::string rule, field;
    void (*apply)(PlayerSheet&);
  };
  const Corruption corruptions[] = {
      {"C-1", "settlements", [](PlayerSheet& s) { s.settlements = 6; }},
      {"C-1", "settlements", [](PlayerSheet& s) { s.settlements = -1; }},
      {"C-2", "cities", [](PlayerSheet& s) { s.cities = 5; }},
      {"C-4", "vp_cards", [](PlayerSheet& s) { s.vp_cards = 6; }},
      {"C-6", "knights", [](PlayerSheet& s) { s.knights = -3; }},
      {"C-8", "roads", [](PlayerSheet& s) { s.roads = 16; }},
      {"C-8", "longest_road", [](PlayerSheet& s) { s.longest_road = s.roads + 1; }},
      {"C-10", "vp", [](PlayerSheet& s) { s.written_vp = static_cast<int>(vp_of(s)) + 1; }},
  };
  for (int i = 0; i < 2000; ++i) {
    auto t = random_table(rng, 3 + rng() % 2);
    TableRecord record;
    record.seated = true;
    for (const auto& s : t.sheets) record.players.push_back(s.player);
    record.result = t.sheets;
    for (auto& s : *record.result)
      s.claimed_win = !t.claimants.empty() && s.player == t.claimants[0];
    ASSERT_EQ(check_result_entry(record).size(), 0u) << "generator made an invalid table";

    const auto& c = corruptions[rng() % std::size(corruptions)];
    auto& victim = (*record.result)[rng() % record.result->size()];
    c.apply(victim);
    auto errors = check_result_entry(record);
    bool caught = std::any_of(errors.begin(), errors.end(), [&](const RuleError& e) {
      return e.rule == c.rule && e.player == victim.player && e.field == c.field;
    });
    EXPECT_TRUE(caught) << c.rule << " " << c.field << " on " << victim.player;
  }
}

}  // namespace
}  // namespace tally::projections::catan
