// The events of carcassonne.md §5 (step 3C and the other turn phases): one test per row of the
// table, with the expected points worked out from the spec.
#include "projections/carcassonne/turn_events.hpp"

#include "tests/projections/carcassonne/engine_support.hpp"

#include <gtest/gtest.h>

namespace tally::projections::carcassonne {
namespace {

using namespace testing;
using Points = std::map<std::string, std::int64_t>;

TEST(TurnEvents, CircusAnimalTimesFollowers) {
  // Animal token 4: red 2 followers → 8, blue 1 → 4.
  EXPECT_EQ(points(R"({"event":"circus","animal":4,"followers":{"red":2,"blue":1}})"),
            (Points{{"red", 8}, {"blue", 4}}));
  EXPECT_TRUE(
      has_error(refused(R"({"event":"circus","animal":0,"followers":{"red":2}})"), "circus"));
  EXPECT_TRUE(
      has_error(refused(R"({"event":"circus","animal":2,"followers":{"red":-1}})"), "circus"));
}

TEST(TurnEvents, BettingOfficeTokens) {
  struct Case {
    const char* token;
    int tiles;
    int expected;
  };
  // 2/6: 2 if exactly 2, 6 if exactly 6; 3/5; 3/6; 4/7+: 4 if 4, 7 if ≥ 7; 4: 8 if exactly 4;
  // 5/8+: 5 if 5, 8 if ≥ 8.
  for (const auto& c : {Case{"2/6", 2, 2}, Case{"2/6", 6, 6}, Case{"2/6", 7, 0}, Case{"3/5", 3, 3},
                        Case{"3/5", 5, 5}, Case{"3/5", 4, 0}, Case{"3/6", 6, 6}, Case{"3/6", 3, 3},
                        Case{"4/7+", 4, 4}, Case{"4/7+", 7, 7}, Case{"4/7+", 12, 7},
                        Case{"4/7+", 5, 0}, Case{"4", 4, 8}, Case{"4", 5, 0}, Case{"5/8+", 5, 5},
                        Case{"5/8+", 9, 8}, Case{"5/8+", 6, 0}}) {
    auto s = scored(std::string(R"({"event":"betting_office","tiles":)") + std::to_string(c.tiles) +
                    R"(,"bets":[{"player":"red","token":")" + c.token + R"("}]})");
    EXPECT_EQ(s.points_of("red"), c.expected) << c.token << " with " << c.tiles << " tiles";
  }
  EXPECT_TRUE(has_error(
      refused(R"({"event":"betting_office","tiles":4,"bets":[{"player":"red","token":"9"}]})"),
      "betting_office", "bets[0].token"));
}

TEST(TurnEvents, GingerbreadManFromAnIncompleteCity) {
  // 5 tiles: red 2 followers → 10, blue 1 → 5.
  EXPECT_EQ(points(R"({"event":"gingerbread_man","tiles":5,"followers":{"red":2,"blue":1}})"),
            (Points{{"red", 10}, {"blue", 5}}));
}

TEST(TurnEvents, DispatchPointsOrALetterAction) {
  EXPECT_EQ(points(R"({"event":"dispatch","player":"red","action":"points"})"),
            (Points{{"red", 2}}));
  // 2 per pennant / knight / farmer.
  EXPECT_EQ(points(R"({"event":"dispatch","player":"red","action":"pennants","count":3})"),
            (Points{{"red", 6}}));
  EXPECT_EQ(points(R"({"event":"dispatch","player":"red","action":"knights","count":2})"),
            (Points{{"red", 4}}));
  EXPECT_EQ(points(R"({"event":"dispatch","player":"red","action":"farmers","count":1})"),
            (Points{{"red", 2}}));
  EXPECT_EQ(points(R"({"event":"dispatch","player":"red","action":"extra_tile"})"),
            (Points{{"red", 0}}));
  // Smallest city at final-scoring value without majority: blue holds the majority, red still
  // scores 3 tiles + 1 pennant = 4, and only red.
  EXPECT_EQ(points(R"({"event":"dispatch","player":"red","action":"smallest_city",
      "feature":{"feature":"city","tiles":3,"pennants":1,
                 "figures":[{"player":"red","figure":"follower"},{"player":"blue","figure":"follower"},
                            {"player":"blue","figure":"follower"}]}})"),
            (Points{{"red", 4}}));
  // Smallest monastery: 1 + 4 neighbours = 5.
  EXPECT_EQ(points(R"({"event":"dispatch","player":"red","action":"smallest_monastery",
      "feature":{"feature":"monastery","modifiers":{"neighbour_tiles":4},
                 "figures":[{"player":"red","figure":"monk"}]}})"),
            (Points{{"red", 5}}));
  // Score a follower with majority: red ties blue on a 3-tile road → 3 for red (blue's follower
  // stays). Without majority, nothing.
  EXPECT_EQ(points(R"({"event":"dispatch","player":"red","action":"score_follower",
      "feature":{"feature":"road","tiles":3,
                 "figures":[{"player":"red","figure":"follower"},{"player":"blue","figure":"follower"}]}})"),
            (Points{{"red", 3}}));
  EXPECT_TRUE(scored(R"({"event":"dispatch","player":"red","action":"score_follower",
      "feature":{"feature":"road","tiles":3,
                 "figures":[{"player":"red","figure":"follower"},{"player":"blue","figure":"large"}]}})")
                  .empty());
  // The feature kind must match the letter, the player must be on it, and it is valued at final
  // scoring.
  EXPECT_TRUE(has_error(refused(R"({"event":"dispatch","player":"red","action":"smallest_road",
      "feature":{"feature":"city","tiles":3,"figures":[{"player":"red","figure":"follower"}]}})"),
                        "dispatch"));
  EXPECT_TRUE(has_error(refused(R"({"event":"dispatch","player":"red","action":"smallest_road",
      "feature":{"feature":"road","tiles":3,"figures":[{"player":"blue","figure":"follower"}]}})"),
                        "dispatch"));
  EXPECT_TRUE(has_error(refused(R"({"event":"dispatch","player":"red","action":"smallest_road",
      "feature":{"feature":"road","complete":true,"tiles":3,"figures":[{"player":"red","figure":"follower"}]}})"),
                        "complete"));
}

TEST(TurnEvents, FairyAtTurnStart) {
  EXPECT_EQ(points(R"({"event":"fairy_turn_start","player":"red"})"), (Points{{"red", 1}}));
  // Next to an acrobat pyramid: 1 for each own acrobat in it.
  EXPECT_EQ(points(R"({"event":"fairy_turn_start","player":"red","pyramid_followers":3})"),
            (Points{{"red", 3}}));
}

TEST(TurnEvents, WheelOfFortune) {
  // Fortuna: the player on turn +3.
  EXPECT_EQ(points(R"({"event":"fortune","effect":"fortuna","player":"red"})"),
            (Points{{"red", 3}}));
  // Taxes: per city, each knight earns 1 per pennant + 1 per knight in the city. City A: 2
  // pennants, red 1 + blue 2 knights → (2 + 3) each: red 5, blue 10. City B: 0 pennants, red 1 →
  // 1. Red 6, blue 10.
  EXPECT_EQ(points(R"({"event":"fortune","effect":"taxes","cities":[
      {"pennants":2,"knights":{"red":1,"blue":2}},{"knights":{"red":1}}]})"),
            (Points{{"red", 6}, {"blue", 10}}));
  // Famine: per own field 1 per city, 2 per castle, +1 per city/castle with a pig and a herd:
  // red's field 2 cities + 1 castle with a pig = 2 + 2 + 3 = 7; blue's 1 city = 1.
  EXPECT_EQ(points(R"({"event":"fortune","effect":"famine","fields":[
      {"player":"red","cities":2,"castles":1,"pig":true},{"player":"blue","cities":1}]})"),
            (Points{{"red", 7}, {"blue", 1}}));
  // Storm: 1 per follower in the supply; Inquisition: 2 per monk; Peasant revolt: 2 per protected
  // follower.
  EXPECT_EQ(points(R"({"event":"fortune","effect":"storm","supply":{"red":4,"blue":2}})"),
            (Points{{"red", 4}, {"blue", 2}}));
  EXPECT_EQ(points(R"({"event":"fortune","effect":"inquisition","monks":{"red":2}})"),
            (Points{{"red", 4}}));
  EXPECT_EQ(points(R"({"event":"fortune","effect":"peasant_revolt","protected":{"blue":3}})"),
            (Points{{"blue", 6}}));
  // Plague: 0 points.
  EXPECT_TRUE(scored(R"({"event":"fortune","effect":"plague"})").empty());
  // Crown fields: alone in a one-crown sector 3; alone in a two-crown sector 6; two in a
  // two-crown sector 3 each.
  EXPECT_EQ(points(R"({"event":"fortune","effect":"crown_fields","crowns":1,"players":["red"]})"),
            (Points{{"red", 3}}));
  EXPECT_EQ(points(R"({"event":"fortune","effect":"crown_fields","crowns":2,"players":["red"]})"),
            (Points{{"red", 6}}));
  EXPECT_EQ(
      points(R"({"event":"fortune","effect":"crown_fields","crowns":2,"players":["red","blue"]})"),
      (Points{{"red", 3}, {"blue", 3}}));
  EXPECT_TRUE(has_error(
      refused(R"({"event":"fortune","effect":"crown_fields","crowns":1,"players":["red","blue"]})"),
      "fortune"));
  // A member of another effect is refused.
  EXPECT_TRUE(has_error(
      refused(R"({"event":"fortune","effect":"storm","supply":{"red":1},"monks":{"red":1}})"),
      "schema", "monks"));
}

TEST(TurnEvents, SweeperScoresAnIncompleteRoadWithMajority) {
  // 4 tiles at final-scoring value, red 2 followers vs blue 1: red 4.
  EXPECT_EQ(points(R"({"event":"sweeper","feature":{"feature":"road","tiles":4,
      "figures":[{"player":"red","figure":"follower"},{"player":"red","figure":"follower"},
                 {"player":"blue","figure":"follower"}]}})"),
            (Points{{"red", 4}}));
  EXPECT_TRUE(has_error(refused(R"({"event":"sweeper","feature":{"feature":"city","tiles":4}})"),
                        "sweeper"));
}

TEST(TurnEvents, PaydayCompassRoseSpielDochJubileeArrow) {
  EXPECT_EQ(points(R"({"event":"payday","player":"red","followers":3})"), (Points{{"red", 6}}));
  EXPECT_EQ(points(R"({"event":"compass_rose","player":"red"})"), (Points{{"red", 3}}));
  EXPECT_EQ(points(R"({"event":"spiel_doch","player":"red"})"), (Points{{"red", 0}}));
  EngineRules variant;
  variant.spiel_doch_variant = true;
  EXPECT_EQ(points(R"({"event":"spiel_doch","player":"red"})", variant), (Points{{"red", 5}}));
  EXPECT_EQ(points(R"({"event":"jubilee_arrow","player":"red"})"), (Points{{"red", 2}}));
}

TEST(TurnEvents, BathhouseRedeemMayGoNegative) {
  EXPECT_EQ(points(R"({"event":"bathhouse_redeem","player":"red","number":4})"),
            (Points{{"red", -4}}));
}

TEST(TurnEvents, AbbotReturnCountsTheSquare) {
  // 1 for the abbot's tile + 5 around = 6; a surrounded abbot cannot be returned.
  EXPECT_EQ(points(R"({"event":"abbot_return","player":"red","neighbour_tiles":5})"),
            (Points{{"red", 6}}));
  EXPECT_TRUE(has_error(refused(R"({"event":"abbot_return","player":"red","neighbour_tiles":8})"),
                        "abbot_return"));
}

TEST(TurnEvents, AcrobatPyramidFivePerFollower) {
  EXPECT_EQ(points(R"({"event":"acrobat_pyramid","followers":{"red":2,"blue":1}})"),
            (Points{{"red", 10}, {"blue", 5}}));
}

TEST(TurnEvents, PeasantRevoltProtection) {
  EXPECT_EQ(points(R"({"event":"peasant_revolt_protect","player":"red","when":"placement"})"),
            (Points{{"red", -4}}));
  EXPECT_EQ(points(R"({"event":"peasant_revolt_protect","player":"red","when":"placed"})"),
            (Points{{"red", -2}}));
}

TEST(TurnEvents, ShepherdAndFruit) {
  EXPECT_EQ(points(R"({"event":"shepherd","player":"red","sheep":7})"), (Points{{"red", 7}}));
  EXPECT_EQ(points(R"({"event":"fruit","player":"red","action":"harvest","token":3})"),
            (Points{{"red", 3}}));
  // Selling 1/2/3/4 tokens: 3/6/10/15.
  for (auto [tokens, expected] :
       {std::pair{1, 3}, std::pair{2, 6}, std::pair{3, 10}, std::pair{4, 15}}) {
    EXPECT_EQ(scored(R"({"event":"fruit","player":"red","action":"sell","tokens":)" +
                     std::to_string(tokens) + "}")
                  .points_of("red"),
              expected);
  }
  EXPECT_TRUE(has_error(refused(R"({"event":"fruit","player":"red","action":"sell","tokens":5})"),
                        "fruit"));
}

TEST(TurnEvents, Catapult) {
  EXPECT_EQ(points(R"({"event":"catapult","token":"archery","hurler":"red","closest":true})"),
            (Points{{"red", 5}}));
  // Catch: caught or not far enough → the catcher 5; far enough or touched → the hurler 5.
  EXPECT_EQ(
      points(
          R"({"event":"catapult","token":"catch","hurler":"red","catcher":"blue","outcome":"caught"})"),
      (Points{{"blue", 5}}));
  EXPECT_EQ(
      points(
          R"({"event":"catapult","token":"catch","hurler":"red","catcher":"blue","outcome":"not_far_enough"})"),
      (Points{{"blue", 5}}));
  EXPECT_EQ(
      points(
          R"({"event":"catapult","token":"catch","hurler":"red","catcher":"blue","outcome":"far_enough"})"),
      (Points{{"red", 5}}));
  EXPECT_EQ(
      points(
          R"({"event":"catapult","token":"catch","hurler":"red","catcher":"blue","outcome":"touched"})"),
      (Points{{"red", 5}}));
}

TEST(TurnEvents, BazaarSellerGainsBuyerPays) {
  EXPECT_EQ(points(R"({"event":"bazaar","seller":"red","buyer":"blue","bid":4})"),
            (Points{{"red", 4}, {"blue", -4}}));
  EXPECT_EQ(points(R"({"event":"bazaar","buyer":"blue","bid":2})"), (Points{{"blue", -2}}));
  EXPECT_TRUE(
      has_error(refused(R"({"event":"bazaar","seller":"red","buyer":"red","bid":2})"), "bazaar"));
}

TEST(TurnEvents, TowerRansom) {
  auto s = scored(R"({"event":"tower_ransom","payer":"red","captor":"blue"})");
  EXPECT_EQ(line(s, "red", "tower_ransom.payer").points, -3);
  EXPECT_EQ(line(s, "blue", "tower_ransom.captor").points, 3);
}

TEST(TurnEvents, UnknownKindsAndMembersAreRefused) {
  EXPECT_TRUE(has_error(refused(R"({"event":"dragon","player":"red"})"), "event", "event"));
  EXPECT_TRUE(has_error(refused(R"({"event":"compass_rose","player":"red","extra":1})"), "schema",
                        "extra"));
  EXPECT_TRUE(has_error(refused(R"({"event":"compass_rose"})"), "schema", "player"));
}

}  // namespace
}  // namespace tally::projections::carcassonne
