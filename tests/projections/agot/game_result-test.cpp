#include "projections/agot/game_result.hpp"
#include "tests/support/messages.hpp"

#include <gtest/gtest.h>
#include <boost/json.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace tally::projections::agot {
namespace {

using tally::testing::english;

using H = House;

// The conformance "league A game" as plain values.
std::vector<PlayerResult> league_a_game() {
  return {
      {"p1", H::STARK, 1, 7, {H::LANNISTER}, 2, 3, true},
      {"p2", H::LANNISTER, 2, 4, {}, 0, 1, false},
      {"p3", H::BARATHEON, 3, 4, {}, 1, 0, false},
      {"p4", H::GREYJOY, 4, 2, {H::TYRELL}, 2, 2, false},
      {"p5", H::TYRELL, 5, 2, {}, 0, 0, false},
      {"p6", H::MARTELL, 6, 1, {}, 1, 0, false},
  };
}

TableFacts facts_for(const std::vector<PlayerResult>& result) {
  TableFacts f;
  for (const auto& p : result) f.seated.push_back(p.player);
  return f;
}

// (rule, player, field) of each error, sorted.
using Found = std::vector<std::tuple<std::string, std::string, std::string>>;
Found found(const projections::RuleErrors& errors) {
  Found out;
  for (const auto& e : errors) out.emplace_back(e.rule, e.player, e.field);
  std::sort(out.begin(), out.end());
  return out;
}

TEST(AgotGamePoints, ConformanceLeagueAGame) {
  Rules rules;
  auto game = league_a_game();
  std::vector<int> expected = {20, 11, 9, 8, 3, 2};
  for (std::size_t i = 0; i < game.size(); ++i) {
    EXPECT_EQ(game_points(rules, game[i], 2, "A").total(), expected[i]) << game[i].player;
  }
  GamePoints p1 = game_points(rules, game[0], 2, "A");
  EXPECT_EQ(p1.place, 12);
  EXPECT_EQ(p1.league_bonus, 1);
  EXPECT_EQ(p1.castles, 4);
  EXPECT_EQ(p1.capitals, 3);  // 1 capture + 2 held
  GamePoints p4 = game_points(rules, game[3], 2, "A");
  EXPECT_EQ(p4.league_bonus, 0);
  EXPECT_EQ(p4.castles, 1);
  EXPECT_EQ(p4.capitals, 3);
  EXPECT_EQ(boost::json::serialize(p1.lines()),
            R"([{"rule":"place","points":12},{"rule":"league_bonus","points":1},)"
            R"({"rule":"castles","points":4},{"rule":"capitals","points":3}])");
}

TEST(AgotGamePoints, LeagueBonusOnlyForPlacesOneAndTwoOfLeagueAFromRoundTwo) {
  Rules rules;
  auto game = league_a_game();
  EXPECT_EQ(game_points(rules, game[0], 2, "B").league_bonus, 0);
  EXPECT_EQ(game_points(rules, game[0], 1, "A").league_bonus, 0);  // round 1: a draw, no leagues
  EXPECT_EQ(game_points(rules, game[1], 6, "A").league_bonus, 1);
  EXPECT_EQ(game_points(rules, game[2], 6, "A").league_bonus, 0);
  EXPECT_EQ(game_points(rules, game[0], 3, "").league_bonus, 0);
  rules.league_bonus_from_round = 1;
  EXPECT_EQ(game_points(rules, game[0], 1, "A").league_bonus, 1);
}

TEST(AgotGamePoints, CastleTable) {
  Rules rules;
  PlayerResult p{"p", H::STARK, 6, 0, {}, 0, 0, false};
  std::vector<int> expected = {0, 0, 1, 1, 2, 2, 3, 4};
  for (int castles = 0; castles <= 7; ++castles) {
    p.castles = castles;
    EXPECT_EQ(game_points(rules, p, 2, "").castles, expected[castles]) << castles;
  }
}

TEST(AgotGamePoints, CapitalsCountFirstCapturesOnceAndAreCapped) {
  Rules rules;
  PlayerResult p{"p", H::STARK, 6, 0, {H::LANNISTER}, 1, 0, false};
  EXPECT_EQ(game_points(rules, p, 2, "").capitals, 2);
  p.capitals_captured = {H::LANNISTER, H::LANNISTER};  // a recapture does not count again
  EXPECT_EQ(game_points(rules, p, 2, "").capitals, 2);
  p.capitals_captured = {H::LANNISTER, H::GREYJOY, H::TYRELL};
  p.capitals_held = 2;  // 5 before the cap
  EXPECT_EQ(game_points(rules, p, 2, "").capitals, 3);
  rules.capitals_cap = 4;
  EXPECT_EQ(game_points(rules, p, 2, "").capitals, 4);
}

TEST(AgotResultValidation, TheConformanceGameIsValid) {
  auto game = league_a_game();
  EXPECT_TRUE(validate_result(game, facts_for(game)).empty());
}

TEST(AgotResultValidation, G1TheResultNamesExactlyTheSeatedPlayers) {
  auto game = league_a_game();
  TableFacts f = facts_for(game);
  f.seated[5] = "p7";     // p6 is not seated here, p7 is missing
  game[2].player = "p2";  // p2 twice, p3 missing
  EXPECT_EQ(found(validate_result(game, f)), (Found{{"G-1", "p2", "player"},
                                                    {"G-1", "p3", "players"},
                                                    {"G-1", "p6", "player"},
                                                    {"G-1", "p7", "players"}}));
}

TEST(AgotResultValidation, G1SixDifferentHouses) {
  auto game = league_a_game();
  game[2].house = H::STARK;  // conformance "two players with one house"
  auto errors = validate_result(game, facts_for(game));
  EXPECT_EQ(found(errors), (Found{{"G-1", "p3", "house"}}));
  EXPECT_NE(english(errors[0].message).find("also played by p1"), std::string::npos);
}

TEST(AgotResultValidation, G2AHousePlayedInAnotherRound) {
  auto game = league_a_game();
  TableFacts f = facts_for(game);
  f.history["p2"].games = {{1, H::BARATHEON}, {3, H::LANNISTER}};
  auto errors = validate_result(game, f);
  ASSERT_EQ(found(errors), (Found{{"G-2", "p2", "house"}}));
  EXPECT_NE(english(errors[0].message).find("already played Lannister in round 3"),
            std::string::npos);
  EXPECT_NE(english(errors[0].message).find("Stark, Greyjoy, Tyrell, or Martell"),
            std::string::npos);
}

TEST(AgotResultValidation, HousesAgreeWithAcceptedPicks) {
  auto game = league_a_game();
  TableFacts f = facts_for(game);
  f.picks["p1"] = H::STARK;
  f.picks["p2"] = H::GREYJOY;
  EXPECT_EQ(found(validate_result(game, f)), (Found{{"pick", "p2", "house"}}));
}

TEST(AgotResultValidation, G3PlacesOnceEachAndTheWinnerFirst) {
  auto game = league_a_game();
  game[2].place = 2;  // conformance "two players in place 2"
  EXPECT_EQ(found(validate_result(game, facts_for(game))), (Found{{"G-3", "p3", "place"}}));

  game = league_a_game();
  game[5].place = 7;
  game[0].winner = false;
  game[1].winner = true;
  EXPECT_EQ(found(validate_result(game, facts_for(game))),
            (Found{{"G-3", "p1", "winner"}, {"G-3", "p2", "winner"}, {"G-3", "p6", "place"}}));
}

TEST(AgotResultValidation, G3MoreCastlesNeverRankBelowFewer) {
  auto game = league_a_game();
  game[4].castles = 5;  // conformance "more castles ranked below fewer"
  auto errors = validate_result(game, facts_for(game));
  ASSERT_EQ(found(errors), (Found{{"G-3", "p5", "place"}}));
  EXPECT_NE(
      english(errors[0].message)
          .find("p5 holds 5 castles but is placed 5th, below players with fewer castles (p2 4, "
                "p3 4, and p4 2)"),
      std::string::npos)
      << english(errors[0].message);
  // Equal castles may go either way.
  game = league_a_game();
  game[4].castles = 2;
  game[3].castles = 2;
  std::swap(game[3].place, game[4].place);
  game[3].capitals_captured = {};
  EXPECT_TRUE(validate_result(game, facts_for(game)).empty());
}

// G-3 says who is placed above with fewer castles, and their castles, in the language.
TEST(AgotResultValidation, G3NamesTheCastlesOfThosePlacedAbove) {
  auto five = league_a_game();
  five[4].castles = 5;  // p5, 5th, below p2 and p3 (4 castles) and p4 (2)
  auto errors = validate_result(five, facts_for(five));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(english(errors[0].message),
            "p5 holds 5 castles but is placed 5th, below players with fewer castles (p2 4, p3 4, "
            "and p4 2): more castles never rank below fewer");
  EXPECT_EQ(tally::testing::rendered(errors[0].message, i18n::Lang::cs,
                                     {{"p2", "Eva"}, {"p3", "Petr"}, {"p4", "Jana"}}),
            "p5 drží 5 hradů, ale je na 5. místě, níž než hráči s menším počtem hradů (Eva 4, "
            "Petr 4 a\u00A0Jana 2): víc hradů se nikdy neumísťuje níž než méně hradů");

  auto one = league_a_game();
  one[4].castles = 0;  // p6 (1 castle, 6th) below p5 alone (0 castles, 5th)
  errors = validate_result(one, facts_for(one));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(english(errors[0].message),
            "p6 holds 1 castle but is placed 6th, below a player with fewer castles (p5 0): more "
            "castles never rank below fewer");
  EXPECT_EQ(tally::testing::rendered(errors[0].message, i18n::Lang::ru, {{"p5", "Анна"}}),
            "у игрока p6 1 замок, но место — 6-е, ниже игрока с меньшим числом замков (Анна 0): "
            "больше замков никогда не ставится ниже меньшего числа");
}

TEST(AgotResultValidation, G4RangesSevenCastlesAndCapitals) {
  auto game = league_a_game();
  game[0].capitals_captured = {H::STARK};  // conformance "own capital listed as captured"
  EXPECT_EQ(found(validate_result(game, facts_for(game))),
            (Found{{"G-4", "p1", "capitals_captured"}}));

  game = league_a_game();
  game[0].castles = 8;
  game[1].castles = -1;
  game[3].capitals_captured = {H::TYRELL, H::TYRELL};
  game[4].capitals_held = 7;
  game[5].lands_captured = -2;
  EXPECT_EQ(found(validate_result(game, facts_for(game))),
            (Found{{"G-4", "p1", "castles"},
                   {"G-4", "p2", "castles"},
                   {"G-4", "p4", "capitals_captured"},
                   {"G-4", "p5", "capitals_held"},
                   {"G-4", "p6", "lands_captured"}}));

  game = league_a_game();
  game[1].castles = 7;  // 7 castles wins the game, and outranks p1's 7? both 7: only place 1 may
  EXPECT_EQ(found(validate_result(game, facts_for(game))), (Found{{"G-4", "p2", "place"}}));

  game = league_a_game();
  game[1].capitals_held = 3;  // 6 + 3 capitals held on a map with 6
  EXPECT_EQ(found(validate_result(game, facts_for(game))), (Found{{"G-4", "", "capitals_held"}}));
}

TEST(AgotResultValidation, CapturedCapitalMustBeAtTheTable) {
  auto game = league_a_game();
  game[5].house = H::STARK;  // two Starks (G-1): Martell is not at the table
  game[5].capitals_captured = {H::MARTELL};
  game[0].capitals_captured = {};
  EXPECT_EQ(found(validate_result(game, facts_for(game))),
            (Found{{"G-1", "p6", "house"}, {"G-4", "p6", "capitals_captured"}}));
}

TEST(AgotResultValidation, EveryViolationAtOnce) {
  auto game = league_a_game();
  game[2].house = H::STARK;
  game[3].place = 5;
  game[0].capitals_captured = {H::STARK};
  auto f = found(validate_result(game, facts_for(game)));
  std::set<std::string> rules;
  for (const auto& [rule, player, field] : f) rules.insert(rule);
  EXPECT_EQ(rules, (std::set<std::string>{"G-1", "G-3", "G-4"}));
}

// Places read as English ordinals ("2nd place"), from the catalog's selectordinal.
TEST(AgotOrdinal, English) {
  for (int place = 1; place <= 4; ++place) {
    auto game = league_a_game();
    game[5].place = place;  // p6 shares the place of the player already in it
    auto errors = validate_result(game, facts_for(game));
    const char* expected[] = {"1st", "2nd", "3rd", "4th"};
    bool found = false;
    for (const auto& e : errors) {
      found =
          found || english(e.message).rfind(std::string(expected[place - 1]) +
                                                " place is also given to p" + std::to_string(place),
                                            0) == 0;
    }
    EXPECT_TRUE(found) << place;
  }
}

// Castles counted in each language's plural forms (1 hrad, 2 hrady, 5 hradů; 1 замок, 2 замка,
// 5 замков; 1 castello, 2 castelli).
TEST(AgotResultValidation, CastlesAreCountedInEachLanguagesPlurals) {
  auto said = [](std::vector<PlayerResult> game, const std::string& player, i18n::Lang lang) {
    for (const auto& e : validate_result(game, facts_for(game))) {
      if (e.rule == "G-3" && e.player == player) return tally::testing::rendered(e.message, lang);
    }
    return std::string("no G-3 error for ") + player;
  };
  auto five = league_a_game();
  five[4].castles = 5;  // p5, 5th, below players with 4 and 2
  auto two = league_a_game();
  two[3].place = 6;  // p4 (2 castles) below p6 (1 castle)
  two[5].place = 4;
  auto one = league_a_game();
  one[4].castles = 0;  // p6 (1 castle) below p5 (0 castles)
  struct Case {
    std::vector<PlayerResult> game;
    std::string player;
    i18n::Lang lang;
    std::string words;
  };
  for (const auto& c : std::vector<Case>{{five, "p5", i18n::Lang::cs, "p5 drží 5 hradů"},
                                         {two, "p4", i18n::Lang::cs, "p4 drží 2 hrady"},
                                         {one, "p6", i18n::Lang::cs, "p6 drží 1 hrad,"},
                                         {five, "p5", i18n::Lang::ru, "у игрока p5 5 замков"},
                                         {two, "p4", i18n::Lang::ru, "у игрока p4 2 замка"},
                                         {one, "p6", i18n::Lang::ru, "у игрока p6 1 замок,"},
                                         {five, "p5", i18n::Lang::it, "p5 ha 5 castelli"},
                                         {one, "p6", i18n::Lang::it, "p6 ha 1 castello"},
                                         {two, "p4", i18n::Lang::en, "p4 holds 2 castles"},
                                         {one, "p6", i18n::Lang::en, "p6 holds 1 castle "}}) {
    const std::string text = said(c.game, c.player, c.lang);
    EXPECT_EQ(text.rfind(c.words, 0), 0u) << text;
  }
}

// The houses left to a player, in the language: "Старк, Грейджой, Тирелл или Мартелл".
TEST(AgotResultValidation, HousesLeftInTheLanguage) {
  auto game = league_a_game();
  TableFacts f = facts_for(game);
  f.history["p2"].games = {{1, H::BARATHEON}, {3, H::LANNISTER}};
  auto errors = validate_result(game, f);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(tally::testing::rendered(errors[0].message, i18n::Lang::ru, {{"p2", "Анна"}}),
            "у игрока Анна дом Ланнистер уже был в туре 3; оставшиеся дома: Старк, Грейджой, "
            "Тирелл или Мартелл");
}

}  // namespace
}  // namespace tally::projections::agot
