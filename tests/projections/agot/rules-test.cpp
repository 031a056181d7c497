#include "projections/agot/rules.hpp"
#include "tests/support/messages.hpp"

#include <gtest/gtest.h>
#include <boost/json.hpp>

namespace tally::projections::agot {
namespace {

using tally::testing::english;

std::vector<std::string> fields(const projections::RuleErrors& errors) {
  std::vector<std::string> out;
  for (const auto& e : errors) {
    EXPECT_EQ(e.rule, "rules");
    out.push_back(e.field);
  }
  return out;
}

TEST(AgotRules, DefaultsAreTheSpecs) {
  auto r = normalize_rules({});
  ASSERT_TRUE(r);
  EXPECT_EQ(boost::json::serialize(*r.value),
            R"({"rounds":6,"counted_results":5,"place_points":[12,8,6,4,2,1],)"
            R"("castle_points":[0,0,1,1,2,2,3,4],"league_bonus":{"A":[1,1]},"capitals_cap":3,)"
            R"("league_bonus_from_round":2})");
  Rules rules = rules_of(*r.value);
  EXPECT_EQ(rules.league_bonus_points("A", 1), 1);
  EXPECT_EQ(rules.league_bonus_points("A", 2), 1);
  EXPECT_EQ(rules.league_bonus_points("A", 3), 0);
  EXPECT_EQ(rules.league_bonus_points("B", 1), 0);
  EXPECT_EQ(rules.league_bonus_points("", 1), 0);
}

TEST(AgotRules, OverridesReplaceDefaultsAndRoundTrip) {
  auto r = normalize_rules(boost::json::parse(R"({"rounds":5,"capitals_cap":2,
      "place_points":[10,7,5,3,2,0],"league_bonus":{"A":[2,1],"B":[1]},"league_bonus_from_round":1,
      "counted_results":4,"castle_points":[0,1,1,2,2,3,3,5]})")
                               .as_object());
  ASSERT_TRUE(r) << english(r.errors[0].message);
  Rules rules = rules_of(*r.value);
  EXPECT_EQ(rules.rounds, 5);
  EXPECT_EQ(rules.capitals_cap, 2);
  EXPECT_EQ(rules.counted_results, 4);
  EXPECT_EQ(rules.place_points[0], 10);
  EXPECT_EQ(rules.castle_points[7], 5);
  EXPECT_EQ(rules.league_bonus_points("A", 1), 2);
  EXPECT_EQ(rules.league_bonus_points("B", 1), 1);
  EXPECT_EQ(rules.league_bonus_points("B", 2), 0);
  EXPECT_EQ(rules.league_bonus_from_round, 1);
  // Normalised rules read back as themselves.
  EXPECT_EQ(boost::json::serialize(rules_of(*r.value).to_json()), boost::json::serialize(*r.value));
}

TEST(AgotRules, EveryBadKeyIsRefusedAtOnce) {
  auto r = normalize_rules(boost::json::parse(R"({"rounds":7,"capitals_cap":-1,"colour":"red",
      "place_points":[12,8,6],"castle_points":[0,0,1,1,2,2,3,"4"],"league_bonus":{"a":[1]},
      "players_per_table":4,"counted_results":2.5,"league_bonus_from_round":0})")
                               .as_object());
  ASSERT_FALSE(r);
  auto f = fields(r.errors);
  std::sort(f.begin(), f.end());
  EXPECT_EQ(f, (std::vector<std::string>{
                   "capitals_cap", "castle_points", "colour", "counted_results", "league_bonus",
                   "league_bonus_from_round", "place_points", "players_per_table", "rounds"}));
}

TEST(AgotRules, TablesOfSixAreNotConfigurable) {
  auto r = normalize_rules(boost::json::parse(R"({"players_per_league":5})").as_object());
  ASSERT_FALSE(r);
  EXPECT_NE(english(r.errors[0].message).find("every table seats 6"), std::string::npos);
}

TEST(AgotRules, LeagueNames) {
  EXPECT_EQ(league_name(0), "A");
  EXPECT_EQ(league_name(1), "B");
  EXPECT_EQ(league_name(9), "J");
  EXPECT_EQ(league_name(25), "Z");
  EXPECT_EQ(league_name(26), "AA");
  EXPECT_EQ(league_name(27), "AB");
}

}  // namespace
}  // namespace tally::projections::agot
