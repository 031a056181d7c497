#include "projections/catan/rules.hpp"

#include "projections/catan/catan_game.hpp"

#include <gtest/gtest.h>
#include <boost/json.hpp>

namespace tally::projections::catan {
namespace {

namespace json = boost::json;

TEST(CatanRules, DefaultsAreTheSpecsPointsAndAnOpenEndedTournament) {
  auto game = make_catan_game();
  auto rules = game->normalize_rules({});
  ASSERT_TRUE(rules);
  EXPECT_EQ(*rules.value, json::parse(R"({"round_points_4":[5,3,2,1],"round_points_3":[5,3,2],
                                          "rounds":null})"));
}

TEST(CatanRules, OverridesReplaceTheDefaultsTheyName) {
  auto parsed = parse_rules(json::parse(R"({"round_points_4":[6,4,2,0],"rounds":5})").as_object());
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed.value->round_points_4, (std::vector<std::int64_t>{6, 4, 2, 0}));
  EXPECT_EQ(parsed.value->round_points_3, (std::vector<std::int64_t>{5, 3, 2}));
  EXPECT_EQ(parsed.value->rounds, 5u);
  EXPECT_EQ(*parsed.value->points_for(4), (std::vector<std::int64_t>{6, 4, 2, 0}));
  EXPECT_EQ(parsed.value->points_for(5), nullptr);
  // Normalising twice changes nothing.
  auto again = parse_rules(parsed.value->to_json());
  ASSERT_TRUE(again);
  EXPECT_EQ(again.value->to_json(), parsed.value->to_json());
}

TEST(CatanRules, EveryUnknownKeyAndBadValueIsRefusedByName) {
  auto game = make_catan_game();
  auto rules = game->normalize_rules(json::parse(R"({
      "round_points_4":[5,3,2],
      "round_points_3":[2,3,5],
      "rounds":0,
      "knights_cap":20})")
                                         .as_object());
  ASSERT_FALSE(rules);
  ASSERT_EQ(rules.errors.size(), 4u);
  std::vector<std::string> fields;
  for (const auto& e : rules.errors) {
    EXPECT_EQ(e.rule, "rules");
    fields.push_back(e.field);
  }
  std::sort(fields.begin(), fields.end());
  EXPECT_EQ(fields, (std::vector<std::string>{"knights_cap", "round_points_3", "round_points_4",
                                              "rounds"}));
}

TEST(CatanRules, PointsMustBeWholeNonNegativeAndNeverRising) {
  for (const char* bad : {R"([5,3,2,1.5])", R"([5,3,2,-1])", R"(["5",3,2,1])", R"([1,2,3,4])",
                          R"({"a":1})", R"([5,3,2,1,0])"}) {
    SCOPED_TRACE(bad);
    json::object o;
    o["round_points_4"] = json::parse(bad);
    auto parsed = parse_rules(o);
    ASSERT_FALSE(parsed);
    EXPECT_EQ(parsed.errors.at(0).field, "round_points_4");
  }
  // Equal points for two places are fine (a flat table).
  json::object flat;
  flat["round_points_3"] = json::parse("[3,3,0]");
  EXPECT_TRUE(parse_rules(flat));
}

TEST(CatanRules, RoundsIsAPositiveCountOrNull) {
  EXPECT_TRUE(parse_rules(json::parse(R"({"rounds":null})").as_object()));
  EXPECT_FALSE(parse_rules(json::parse(R"({"rounds":-2})").as_object()));
  EXPECT_FALSE(parse_rules(json::parse(R"({"rounds":2.5})").as_object()));
  EXPECT_FALSE(parse_rules(json::parse(R"({"rounds":"3"})").as_object()));
}

}  // namespace
}  // namespace tally::projections::catan
