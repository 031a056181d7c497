// The score track of carcassonne.md §7: running totals, and the floor at 0 for the rules that say
// the score may not drop below it (ghosts, tower ransom) — and only for those.
#include "projections/carcassonne/score_track.hpp"

#include "tests/projections/carcassonne/engine_support.hpp"

#include <gtest/gtest.h>

namespace tally::projections::carcassonne {
namespace {

using namespace testing;

TEST(ScoreTrack, SumsEventsInOrderAndListsSeatedPlayersFromTheStart) {
  ScoreTrack track({"red", "blue"});
  EXPECT_EQ(track.totals().size(), 2u);
  track.apply(scored(
      R"({"feature":"road","complete":true,"tiles":4,"figures":[{"player":"red","figure":"follower"}]})"));
  track.apply(scored(R"({"event":"compass_rose","player":"red"})"));
  track.apply(scored(R"({"event":"jubilee_arrow","player":"blue"})"));
  EXPECT_EQ(track.total("red"), 7);
  EXPECT_EQ(track.total("blue"), 2);
  EXPECT_EQ(track.totals()[0].first, "red");
}

TEST(ScoreTrack, GhostPenaltiesAreFlooredAtZero) {
  // Red has 1 point; a 2-tile road with 3 ghosts next to red: 2 − 6 = −4 for the feature, but
  // the total may not drop below 0.
  ScoreTrack track({"red"});
  track.apply(scored(R"({"event":"fairy_turn_start","player":"red"})"));
  track.apply(scored(R"({"feature":"road","complete":true,"tiles":2,
      "figures":[{"player":"red","figure":"follower"}],"modifiers":{"ghosts":{"red":3}}})"));
  EXPECT_EQ(track.total("red"), 0);
  // A ghost penalty that stays above 0 is taken in full: 10 + (3 − 2) = 11.
  ScoreTrack rich({"red"});
  rich.apply(scored(R"({"event":"payday","player":"red","followers":5})"));
  rich.apply(scored(R"({"feature":"road","complete":true,"tiles":3,
      "figures":[{"player":"red","figure":"follower"}],"modifiers":{"ghosts":{"red":1}}})"));
  EXPECT_EQ(rich.total("red"), 11);
}

TEST(ScoreTrack, PovertyBathhousesPeasantRevoltAndTheBazaarMayGoNegative) {
  ScoreTrack track({"red", "blue"});
  track.apply(scored(R"({"feature":"road","complete":true,"tiles":1,
      "figures":[{"player":"red","figure":"follower"}],"modifiers":{"surveyor":"poverty"}})"));
  EXPECT_EQ(track.total("red"), -2);
  track.apply(scored(R"({"event":"bathhouse_redeem","player":"red","number":3})"));
  EXPECT_EQ(track.total("red"), -5);
  track.apply(scored(R"({"event":"peasant_revolt_protect","player":"blue","when":"placement"})"));
  track.apply(scored(R"({"event":"bazaar","seller":"red","buyer":"blue","bid":2})"));
  EXPECT_EQ(track.total("red"), -3);
  EXPECT_EQ(track.total("blue"), -6);
}

TEST(ScoreTrack, AFloorNeverRaisesAScoreAlreadyBelowZeroNorUndoesTheFreePart) {
  // Red at −2 (a 1-segment road with Poverty); ghosts cannot take the score lower but do not lift
  // it to 0 either.
  ScoreTrack track({"red"});
  track.apply(
      scored(R"({"feature":"road","complete":false,"tiles":0,"modifiers":{"cathedral_segments":1,
      "surveyor":"poverty"},"figures":[{"player":"red","figure":"follower"}]})"));
  ASSERT_EQ(track.total("red"), -2);
  track.apply(scored(R"({"feature":"road","complete":true,"tiles":1,
      "figures":[{"player":"red","figure":"follower"}],"modifiers":{"ghosts":{"red":1}}})"));
  // The road's +1 takes red to −1; the ghost's −2 may not take it lower than that.
  EXPECT_EQ(track.total("red"), -1);
  // Poverty (free) and ghosts (floored) in one event: the Poverty part may go negative, the
  // ghost part not further: 0 + (1 − 3) = −2, ghosts −2 floored there → −2.
  ScoreTrack both({"red"});
  both.apply(scored(R"({"feature":"road","complete":true,"tiles":1,
      "figures":[{"player":"red","figure":"follower"}],"modifiers":{"surveyor":"poverty","ghosts":{"red":1}}})"));
  EXPECT_EQ(both.total("red"), -2);
}

TEST(ScoreTrack, TowerRansomReportsAPayerBelowThreeAndFloorsIt) {
  ScoreTrack track({"red", "blue"});
  track.apply(scored(R"({"event":"jubilee_arrow","player":"red"})"));  // red 2
  auto shortfall = track.apply(scored(R"({"event":"tower_ransom","payer":"red","captor":"blue"})"));
  EXPECT_EQ(shortfall, (std::vector<std::string>{"red"}));
  EXPECT_EQ(track.total("red"), 0);
  EXPECT_EQ(track.total("blue"), 3);
  // With 3 points the ransom is paid in full.
  auto none = track.apply(scored(R"({"event":"tower_ransom","payer":"blue","captor":"red"})"));
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(track.total("blue"), 0);
  EXPECT_EQ(track.total("red"), 3);
}

TEST(ScoreTrack, WhichRulesAreFloored) {
  EXPECT_TRUE(floored_at_zero("ghosts"));
  EXPECT_TRUE(floored_at_zero("tower_ransom.payer"));
  for (auto free :
       {"surveyor.poverty", "bathhouse_redeem", "peasant_revolt_protect", "bazaar.bought"}) {
    EXPECT_FALSE(floored_at_zero(free)) << free;
  }
}

}  // namespace
}  // namespace tally::projections::carcassonne
