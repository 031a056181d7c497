// One test (at least) per rule C-0 … C-12, each showing the exact errors: rule, player, field.
// Results go through the schema codec and Game::check_action, as a request would.
#include "projections/catan/validation.hpp"

#include "tests/projections/catan/fixtures.hpp"

#include <gtest/gtest.h>

#include <tuple>

namespace tally::projections::catan {
namespace {

using namespace testing;

// (rule, player, field) of each error, in the order given.
using Found = std::vector<std::tuple<std::string, std::string, std::string>>;

Found found(const RuleErrors& errors) {
  Found out;
  for (const auto& e : errors) {
    EXPECT_FALSE(e.message.key.empty()) << e.rule;
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
  table[0]["longest_road"] = 7;
  auto errors = check(*game, b, 1, 1, Which::CATAN_RESULT, body(table));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].message.key, "a's longest road (7) is longer than the 6 roads built");
  auto t = two_at_ten();
  errors = check(*game, b, 1, 1, Which::CATAN_RESULT, body(t));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].message.key,
            "a and b have 10 VP or more (a 10, b 12): record which of them claimed the win");
  table = clear_order();
  table[0]["vp"] = 11;
  errors = check(*game, b, 1, 1, Which::CATAN_RESULT, body(table));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].message.key,
            "the table wrote 11 VP for a, but the result is worth 10 (2 for settlements + 6 for "
            "cities + 2 for largest_army)");
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
