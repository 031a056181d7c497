// The feature scoring of carcassonne.md §3–§4 and the robbers of §6, through the engine's public
// entry point, with the expected points worked out from the spec in each test.
#include "projections/carcassonne/engine.hpp"

#include "tests/projections/carcassonne/engine_support.hpp"

#include <gtest/gtest.h>
#include <boost/json.hpp>

#include <fstream>
#include <sstream>

namespace tally::projections::carcassonne {
namespace {

using namespace testing;
using Points = std::map<std::string, std::int64_t>;

// --- The public conformance vectors -------------------------------------------------------------

TEST(Conformance, EveryCarcassonneVector) {
  std::ifstream in(TALLY_CONFORMANCE_DIR "/carcassonne.json");
  ASSERT_TRUE(in) << "conformance file missing";
  std::stringstream text;
  text << in.rdbuf();
  auto doc = boost::json::parse(text.str()).as_object();
  const auto& events = doc.at("events").as_array();
  ASSERT_GE(events.size(), 20u);
  for (const auto& c : events) {
    const auto& vector = c.as_object();
    std::string name(vector.at("name").as_string());
    const auto& expect = vector.at("expect").as_object();
    bool rejected = std::any_of(expect.begin(), expect.end(), [](const auto& e) {
      return e.value().is_string() && e.value().as_string() == "rejected";
    });
    auto out = score_event(vector.at("event"), EngineRules{});
    if (rejected) {
      EXPECT_FALSE(out) << name;
      continue;
    }
    ASSERT_TRUE(out) << name << ": " << describe(out.errors);
    Points got;
    for (const auto& [p, n] : out.value->scoring.points()) got[p] = n;
    for (const auto& e : expect) {
      EXPECT_EQ(got[std::string(e.key())], e.value().as_int64()) << name << " / " << e.key();
    }
    for (const auto& [p, n] : got) {
      if (!expect.contains(p)) {
        EXPECT_EQ(n, 0) << name << ": " << p << " should score nothing";
      }
    }
  }
}

TEST(Conformance, MageAndWitchIsRefusedAsD3) {
  auto errors = refused(R"({"feature":"road","complete":true,"tiles":4,
      "figures":[{"player":"red","figure":"follower"}],"modifiers":{"mage":true,"witch":true}})");
  EXPECT_TRUE(has_error(errors, "D-3", "modifiers")) << describe(errors);
}

// --- §3 Counting ---------------------------------------------------------------------------------

TEST(Counting, TileDetailCountsEachKindAsOneTile) {
  // §3: each half of a double tile, each square with triangular tiles and each wonder square
  // counts 1: 1 + 2 + 1 + 2 = 6 road tiles in either edition.
  const char* road =
      R"({"feature":"road","complete":true,"figures":[{"player":"red","figure":"follower"}],
      "tile_detail":{"regular":1,"double_halves":2,"triangular_squares":1,"wonder_squares":2}})";
  EXPECT_EQ(points(road), (Points{{"red", 6}}));
  EXPECT_EQ(points(road, EngineRules{Edition::c2}), (Points{{"red", 6}}));
}

TEST(Counting, RoadSpecialTilesCountOneAndTheLeipzigLongRoadDependsOnTheEdition) {
  // §4.1: bridge, tunnel, labyrinth and ferry tiles count 1 each; the Leipzig long road counts 1
  // in C2 and 2 in C3 (D-1): C3 2+1+1+1+1+2 = 8, C2 7.
  const char* road =
      R"({"feature":"road","complete":true,"figures":[{"player":"red","figure":"follower"}],
      "tile_detail":{"regular":2,"bridge_tiles":1,"tunnel_tiles":1,"labyrinth_tiles":1,
                     "ferry_tiles":1,"leipzig_long_roads":1}})";
  EXPECT_EQ(points(road), (Points{{"red", 8}}));
  EXPECT_EQ(points(road, EngineRules{Edition::c2}), (Points{{"red", 7}}));
  // The long branched road of Notre-Dame / Stonehenge: C2 1, C3 2 → 1+2 = 3 or 1+1 = 2.
  const char* branched =
      R"({"feature":"road","complete":true,"figures":[{"player":"red","figure":"follower"}],
      "tile_detail":{"regular":1,"long_branched_roads":1}})";
  EXPECT_EQ(points(branched), (Points{{"red", 3}}));
  EXPECT_EQ(points(branched, EngineRules{Edition::c2}), (Points{{"red", 2}}));
}

TEST(Counting, WonderCitiesCountByEdition) {
  // D-1: Notre-Dame's big city 2 segments in C3 (1 in C2): complete, 2 + 2 tiles × 2 = 8; C2 3 × 2
  // = 6.
  const char* notre_dame =
      R"({"feature":"city","complete":true,"figures":[{"player":"red","figure":"follower"}],
      "tile_detail":{"regular":2,"notre_dame_cities":1}})";
  EXPECT_EQ(points(notre_dame), (Points{{"red", 8}}));
  EXPECT_EQ(points(notre_dame, EngineRules{Edition::c2}), (Points{{"red", 6}}));
  // Circus Maximus 4 (C3): 1 + 4 = 5 tiles × 2 = 10. Alhambra 3: at final scoring 1 + 3 = 4.
  EXPECT_EQ(
      points(R"({"feature":"city","complete":true,"figures":[{"player":"red","figure":"follower"}],
      "tile_detail":{"regular":1,"circus_maximus_cities":1}})"),
      (Points{{"red", 10}}));
  EXPECT_EQ(
      points(R"({"feature":"city","complete":false,"figures":[{"player":"red","figure":"follower"}],
      "tile_detail":{"regular":1,"alhambra_cities":1}})"),
      (Points{{"red", 4}}));
  auto errors =
      refused(R"({"feature":"city","complete":true,"tile_detail":{"leipzig_long_roads":1}})");
  EXPECT_TRUE(has_error(errors, "tile_detail", "tile_detail.leipzig_long_roads"))
      << describe(errors);
}

// --- §3 Majority ---------------------------------------------------------------------------------

TEST(Majority, TheMayorsStrengthIsTheCitysPennants) {
  // Red's mayor in a 2-pennant city (strength 2) ties blue's large follower (2): 3 tiles, 2
  // pennants complete = 6 + 4 = 10 each.
  EXPECT_EQ(points(R"({"feature":"city","complete":true,"tiles":3,"pennants":2,
      "figures":[{"player":"red","figure":"mayor"},{"player":"blue","figure":"large"}]})"),
            (Points{{"red", 10}, {"blue", 10}}));
  // Without pennants the mayor has no strength: blue's follower alone holds the majority.
  EXPECT_EQ(points(R"({"feature":"city","complete":true,"tiles":3,
      "figures":[{"player":"red","figure":"mayor"},{"player":"red","figure":"mayor"},
                 {"player":"blue","figure":"follower"}]})"),
            (Points{{"blue", 6}}));
}

TEST(Majority, BuildersAndPigsHaveNoStrengthAndNobodyScoresAnUnoccupiedFeature) {
  EXPECT_EQ(points(R"({"feature":"road","complete":true,"tiles":4,
      "figures":[{"player":"red","figure":"builder"},{"player":"blue","figure":"follower"}]})"),
            (Points{{"blue", 4}}));
  EXPECT_TRUE(scored(R"({"feature":"road","complete":true,"tiles":4,
      "figures":[{"player":"red","figure":"builder"}]})")
                  .empty());
  EXPECT_TRUE(scored(R"({"feature":"city","complete":true,"tiles":4})").empty());
  // A pig on a field: blue's single farmer holds the majority alone (3 per city).
  EXPECT_EQ(points(R"({"feature":"field","complete":false,"modifiers":{"cities":[{}]},
      "figures":[{"player":"red","figure":"pig"},{"player":"blue","figure":"follower"}]})"),
            (Points{{"blue", 3}}));
}

TEST(Majority, WagonsAbbotsMonksHereticsAndPhantomsCountOne) {
  // Red wagon + phantom (2) beat blue's follower (1) on a 3-tile road.
  EXPECT_EQ(points(R"({"feature":"road","complete":true,"tiles":3,
      "figures":[{"player":"red","figure":"wagon"},{"player":"red","figure":"phantom"},
                 {"player":"blue","figure":"follower"}]})"),
            (Points{{"red", 3}}));
  // A shrine's heretic and a monastery's abbot are followers of strength 1.
  EXPECT_EQ(
      points(
          R"({"feature":"shrine","complete":true,"figures":[{"player":"red","figure":"heretic"}]})"),
      (Points{{"red", 9}}));
  EXPECT_EQ(
      points(
          R"({"feature":"monastery","complete":true,"figures":[{"player":"red","figure":"abbot"}]})"),
      (Points{{"red", 9}}));
}

TEST(Majority, CitizensJuryMakesEveryFollowerInTheCityAMajorityHolder) {
  // Red 2 followers, blue 1: with Citizens' Jury both score 4 tiles × 2 = 8.
  EXPECT_EQ(
      points(
          R"({"feature":"city","complete":true,"tiles":4,"modifiers":{"surveyor":"citizens_jury"},
      "figures":[{"player":"red","figure":"follower"},{"player":"red","figure":"follower"},
                 {"player":"blue","figure":"follower"}]})"),
      (Points{{"red", 8}, {"blue", 8}}));
}

// --- §4 The order of D-2 -------------------------------------------------------------------------

TEST(ValueOrder, WitchHalvesTheModifiedValueBeforeWealthAndAddOns) {
  // D-2: 7 tiles + 2 pennants complete = 18 → witch 9 → Wealth +3 = 12 → a little building +1
  // = 13 (add-ons are never halved).
  auto s = scored(R"({"feature":"city","complete":true,"tiles":7,"pennants":2,
      "figures":[{"player":"red","figure":"follower"}],
      "modifiers":{"witch":true,"surveyor":"wealth","buildings":{"little":1}}})");
  EXPECT_EQ(s.points_of("red"), 13);
  EXPECT_EQ(line(s, "red", "witch").points, -9);
  EXPECT_EQ(line(s, "red", "surveyor.wealth").points, 3);
  EXPECT_EQ(line(s, "red", "buildings.little").points, 1);
  // The lines come in D-2 order.
  std::vector<std::string> rules;
  for (const auto& l : s.lines()) rules.push_back(l.rule);
  EXPECT_EQ(rules, (std::vector<std::string>{"city.tile", "city.pennant", "witch",
                                             "surveyor.wealth", "buildings.little"}));
}

// --- §4.1 Road -----------------------------------------------------------------------------------

TEST(Road, OnePerTileAndCathedralSegmentsSeparately) {
  // 3 tiles + 2 road segments on German cathedral tiles = 5.
  auto s = scored(R"({"feature":"road","complete":true,"tiles":3,
      "figures":[{"player":"red","figure":"follower"}],"modifiers":{"cathedral_segments":2}})");
  EXPECT_EQ(line(s, "red", "road.tile").points, 3);
  EXPECT_EQ(line(s, "red", "road.cathedral_segment").count, 2);
  EXPECT_EQ(s.points_of("red"), 5);
}

TEST(Road, HighwaySetsTheCountToFiveForBaseAndInnButNotTheMage) {
  // 3 tiles: base 3 → Highway 5 (+2) → inn +5 = 10.
  auto s = scored(R"({"feature":"road","complete":true,"tiles":3,
      "figures":[{"player":"red","figure":"follower"}],"modifiers":{"surveyor":"highway","inn":true}})");
  EXPECT_EQ(line(s, "red", "surveyor.highway").points, 2);
  EXPECT_EQ(line(s, "red", "inn").points, 5);
  EXPECT_EQ(s.points_of("red"), 10);
  // 7 tiles + 1 cathedral segment ending at a German cathedral: 8 → 5 (−3) → +5 = 10.
  EXPECT_EQ(points(R"({"feature":"road","complete":true,"tiles":7,
      "figures":[{"player":"red","figure":"follower"}],
      "modifiers":{"surveyor":"highway","cathedral_segments":1,"german_cathedral_end":true}})"),
            (Points{{"red", 10}}));
}

TEST(Road, PeasantUprisingAndStreetFair) {
  // Peasant Uprising: 6 tiles − 1 per tile with a farmhouse or stable (2) = 4.
  EXPECT_EQ(
      points(
          R"({"feature":"road","complete":true,"tiles":6,"figures":[{"player":"red","figure":"follower"}],
      "modifiers":{"surveyor":"peasant_uprising","farmhouse_tiles":2}})"),
      (Points{{"red", 4}}));
  // Street Fair: +1 per tile and per cathedral segment: (4 + 1) × 2 = 10.
  EXPECT_EQ(
      points(
          R"({"feature":"road","complete":true,"tiles":4,"figures":[{"player":"red","figure":"follower"}],
      "modifiers":{"surveyor":"street_fair","cathedral_segments":1}})"),
      (Points{{"red", 10}}));
  // The surveyor inputs belong to their scoring tile.
  auto errors =
      refused(R"({"feature":"road","complete":true,"tiles":6,"modifiers":{"farmhouse_tiles":2}})");
  EXPECT_TRUE(has_error(errors, "farmhouse_tiles")) << describe(errors);
}

TEST(Road, EndingAtAGermanCathedralAddsOnePerTileAndSegment) {
  // 3 tiles + 1 segment = 4, +4 = 8.
  EXPECT_EQ(
      points(
          R"({"feature":"road","complete":true,"tiles":3,"figures":[{"player":"red","figure":"follower"}],
      "modifiers":{"german_cathedral_end":true,"cathedral_segments":1}})"),
      (Points{{"red", 8}}));
}

TEST(Road, TheMageCountsActualTilesWithTheCathedralsAsOne) {
  // 3 tiles + 2 cathedral segments = 5; the mage +1 per actual tile: 3 + 1 (the cathedrals) = 4.
  auto s = scored(
      R"({"feature":"road","complete":true,"tiles":3,"figures":[{"player":"red","figure":"follower"}],
      "modifiers":{"cathedral_segments":2,"mage":true}})");
  EXPECT_EQ(line(s, "red", "mage").count, 4);
  EXPECT_EQ(s.points_of("red"), 9);
}

TEST(Road, TheWitchHalvesRoundingUp) {
  // 5 tiles with an inn: 10 → 5. 3 tiles: 3 → 2 (rounded up).
  EXPECT_EQ(
      points(
          R"({"feature":"road","complete":true,"tiles":5,"figures":[{"player":"red","figure":"follower"}],
      "modifiers":{"inn":true,"witch":true}})"),
      (Points{{"red", 5}}));
  EXPECT_EQ(
      points(
          R"({"feature":"road","complete":true,"tiles":3,"figures":[{"player":"red","figure":"follower"}],
      "modifiers":{"witch":true}})"),
      (Points{{"red", 2}}));
}

TEST(Road, PovertyMayMakeTheValueNegative) {
  // 2 tiles − 3 = −1.
  EXPECT_EQ(
      points(
          R"({"feature":"road","complete":true,"tiles":2,"figures":[{"player":"red","figure":"follower"}],
      "modifiers":{"surveyor":"poverty"}})"),
      (Points{{"red", -1}}));
}

TEST(Road, LittleBuildingsBasicAndVariant) {
  // Basic rules: +1 each: 3 + 2 = 5.
  EXPECT_EQ(
      points(
          R"({"feature":"road","complete":true,"tiles":3,"figures":[{"player":"red","figure":"follower"}],
      "modifiers":{"buildings":{"little":2}}})"),
      (Points{{"red", 5}}));
  // Variant (tournament rule buildings_variant): shed 1 + house 2 + tower 3 = 6: 3 + 6 = 9.
  EngineRules variant;
  variant.buildings_variant = true;
  const char* sized =
      R"({"feature":"road","complete":true,"tiles":3,"figures":[{"player":"red","figure":"follower"}],
      "modifiers":{"buildings":{"shed":1,"house":1,"tower":1}}})";
  EXPECT_EQ(points(sized, variant), (Points{{"red", 9}}));
  // The form must match the tournament's rule.
  auto errors = refused(sized);
  EXPECT_TRUE(has_error(errors, "buildings", "modifiers.buildings.shed")) << describe(errors);
  EXPECT_TRUE(has_error(refused(R"({"feature":"road","complete":true,"tiles":3,
      "modifiers":{"buildings":{"little":1}}})",
                                variant),
                        "buildings"));
  // Little buildings are not halved by the witch: ceil(3 / 2) = 2, + 2 = 4.
  EXPECT_EQ(
      points(
          R"({"feature":"road","complete":true,"tiles":3,"figures":[{"player":"red","figure":"follower"}],
      "modifiers":{"witch":true,"buildings":{"little":2}}})"),
      (Points{{"red", 4}}));
}

TEST(Road, GermanCastlesBathhousesSignpostsAndTheLabyrinth) {
  // Two German castles at the road's ends: 4 + 2 × 3 = 10.
  EXPECT_EQ(
      points(
          R"({"feature":"road","complete":true,"tiles":4,"figures":[{"player":"red","figure":"follower"}],
      "modifiers":{"german_castles":2}})"),
      (Points{{"red", 10}}));
  // Bathhouses numbered 2 and 3: 3 + 5 = 8. Signposts with 2 and 3 correct types: 3 + 5 = 8.
  EXPECT_EQ(
      points(
          R"({"feature":"road","complete":true,"tiles":3,"figures":[{"player":"red","figure":"follower"}],
      "modifiers":{"bathhouses":[2,3]}})"),
      (Points{{"red", 8}}));
  EXPECT_EQ(
      points(
          R"({"feature":"road","complete":true,"tiles":3,"figures":[{"player":"red","figure":"follower"}],
      "modifiers":{"signposts":[2,3]}})"),
      (Points{{"red", 8}}));
  EXPECT_TRUE(has_error(
      refused(R"({"feature":"road","complete":true,"tiles":3,"modifiers":{"signposts":[4]}})"),
      "signposts", "modifiers.signposts[0]"));
  // Labyrinth (advanced rules): +2 per follower on the road network: 4 + 2 × 2 = 8.
  EXPECT_EQ(
      points(
          R"({"feature":"road","complete":true,"tiles":4,"figures":[{"player":"red","figure":"follower"}],
      "modifiers":{"labyrinth_followers":2}})"),
      (Points{{"red", 8}}));
}

TEST(Road, AFollowerSentToLeipzigScoresTimesZeroWithoutRecomputingTheMajority) {
  // Red and blue tie with one follower each on a 4-tile road; red sends theirs to Leipzig: red
  // receives ×0, blue 4, and the teacher copies the feature as blue scored it: 4.
  auto s = scored(R"({"feature":"road","complete":true,"tiles":4,
      "figures":[{"player":"red","figure":"follower"},{"player":"blue","figure":"follower"}],
      "bonuses":{"leipzig_sent":{"player":"red","quarter":"coiners"},"teacher":"green"}})");
  EXPECT_EQ(s.points_of("red"), 0);
  EXPECT_EQ(line(s, "red", "leipzig_sent").points, -4);
  EXPECT_EQ(s.points_of("blue"), 4);
  EXPECT_EQ(s.points_of("green"), 4);
  // Alone with one follower: ×0, and so the teacher gets 0.
  auto alone = scored(R"({"feature":"road","complete":true,"tiles":4,
      "figures":[{"player":"red","figure":"follower"}],
      "bonuses":{"leipzig_sent":{"player":"red","quarter":"coiners"},"teacher":"green"}})");
  EXPECT_EQ(alone.points_of("red"), 0);
  EXPECT_EQ(alone.points_of("green"), 0);
  // With two followers on the road it scores in full.
  EXPECT_EQ(points(R"({"feature":"road","complete":true,"tiles":4,
      "figures":[{"player":"red","figure":"follower"},{"player":"red","figure":"follower"}],
      "bonuses":{"leipzig_sent":{"player":"red","quarter":"coiners"}}})"),
            (Points{{"red", 4}}));
}

// --- §4.2 City -----------------------------------------------------------------------------------

TEST(City, D6ACityGatesOneTileCityScoresFour) {
  auto s = scored(R"({"feature":"city","complete":true,"tiles":1,
      "figures":[{"player":"red","figure":"follower"}],"modifiers":{"city_gates":true}})");
  EXPECT_EQ(line(s, "red", "city.gate").points, 4);
  EXPECT_EQ(line(s, "red", "city.gate").count, 1);
  EXPECT_FALSE(has_line(s, "red", "city.tile"));
  EXPECT_EQ(s.points_of("red"), 4);
  // Counted from tile_detail: still one tile.
  EXPECT_EQ(points(R"({"feature":"city","complete":true,"tile_detail":{"regular":1},
      "figures":[{"player":"red","figure":"follower"}],"modifiers":{"city_gates":true}})"),
            (Points{{"red", 4}}));
}

TEST(City, D6AnyOtherCompletedOneTileCityScoresTwoPerTileAndPennant) {
  // Closed by an abbey tile, no pennant: 1 tile × 2 = 2.
  auto bare = scored(R"({"feature":"city","complete":true,"tiles":1,"pennants":0,
      "figures":[{"player":"red","figure":"follower"}]})");
  EXPECT_EQ(line(bare, "red", "city.tile").points, 2);
  EXPECT_FALSE(has_line(bare, "red", "city.gate"));
  EXPECT_EQ(bare.points_of("red"), 2);
  // With a pennant: 1 × 2 + 1 × 2 = 4, as tile and pennant lines, not as a gate.
  auto pennant = scored(R"({"feature":"city","complete":true,"tiles":1,"pennants":1,
      "figures":[{"player":"red","figure":"follower"}],"modifiers":{"city_gates":false}})");
  EXPECT_EQ(line(pennant, "red", "city.tile").points, 2);
  EXPECT_EQ(line(pennant, "red", "city.pennant").points, 2);
  EXPECT_FALSE(has_line(pennant, "red", "city.gate"));
  EXPECT_EQ(pennant.points_of("red"), 4);
  // At final scoring a 1-tile city with a pennant: 1 + 1 = 2.
  EXPECT_EQ(points(R"({"feature":"city","complete":false,"tiles":1,"pennants":1,
      "figures":[{"player":"red","figure":"follower"}]})"),
            (Points{{"red", 2}}));
}

TEST(City, D6CityGatesMarksOnlyACompletedOneTileCity) {
  for (const char* event :
       {R"({"feature":"city","complete":true,"tiles":2,"modifiers":{"city_gates":true}})",
        R"({"feature":"city","complete":false,"tiles":1,"modifiers":{"city_gates":true}})"}) {
    auto errors = refused(event);
    EXPECT_TRUE(has_error(errors, "city_gates", "modifiers.city_gates")) << describe(errors);
  }
  auto road =
      refused(R"({"feature":"road","complete":true,"tiles":1,"modifiers":{"city_gates":true}})");
  EXPECT_TRUE(has_error(road, "city_gates", "modifiers.city_gates")) << describe(road);
}

TEST(City, BadNeighbourhoodLeavesOutSemicircleTilesButNotForTheMage) {
  // 5 tiles, 1 pennant, 2 semicircle-only tiles, cathedral, mage: base 10 + 2 = 12; Bad
  // Neighbourhood −2 × 2 = 8; cathedral +1 × (3 counted tiles + 1 pennant) = 12; mage +5 = 17.
  auto s = scored(R"({"feature":"city","complete":true,"tiles":5,"pennants":1,
      "figures":[{"player":"red","figure":"follower"}],
      "modifiers":{"surveyor":"bad_neighbourhood","semicircle_only_tiles":2,"cathedral":true,"mage":true}})");
  EXPECT_EQ(line(s, "red", "surveyor.bad_neighbourhood").points, -4);
  EXPECT_EQ(line(s, "red", "cathedral").count, 4);
  EXPECT_EQ(line(s, "red", "mage").count, 5);
  EXPECT_EQ(s.points_of("red"), 17);
}

TEST(City, TheSiegeTileAddsOnePerPennant) {
  // 4 tiles, 2 pennants complete: 8 + 4 + 2 = 14.
  EXPECT_EQ(points(R"({"feature":"city","complete":true,"tiles":4,"pennants":2,
      "figures":[{"player":"red","figure":"follower"}],"modifiers":{"surveyor":"siege"}})"),
            (Points{{"red", 14}}));
}

TEST(City, AnIncompleteCathedralCityScoresOnlyTheMage) {
  // 5 tiles, 2 pennants at final scoring with a cathedral: 0; the mage still +5.
  EXPECT_EQ(points(R"({"feature":"city","complete":false,"tiles":5,"pennants":2,
      "figures":[{"player":"red","figure":"follower"}],"modifiers":{"cathedral":true,"mage":true}})"),
            (Points{{"red", 5}}));
}

TEST(City, WealthPovertyGermanCastlesBathhousesAndDarmstadtium) {
  // Poverty at final scoring: 3 tiles = 3 − 3 = 0.
  EXPECT_EQ(
      scored(
          R"({"feature":"city","complete":false,"tiles":3,"figures":[{"player":"red","figure":"follower"}],
      "modifiers":{"surveyor":"poverty"}})")
          .points_of("red"),
      0);
  // A German castle closing the city: 4 tiles × 2 + 3 = 11; a bathhouse numbered 4: 6 + 4 = 10.
  EXPECT_EQ(
      points(
          R"({"feature":"city","complete":true,"tiles":4,"figures":[{"player":"red","figure":"follower"}],
      "modifiers":{"german_castles":1}})"),
      (Points{{"red", 11}}));
  EXPECT_EQ(
      points(
          R"({"feature":"city","complete":true,"tiles":3,"figures":[{"player":"red","figure":"follower"}],
      "modifiers":{"bathhouses":[4]}})"),
      (Points{{"red", 10}}));
  // Darmstadtium: +3 to each majority holder: 3 tiles × 2 + 3 = 9 each.
  EXPECT_EQ(points(R"({"feature":"city","complete":true,"tiles":3,"modifiers":{"darmstadtium":true},
      "figures":[{"player":"red","figure":"follower"},{"player":"blue","figure":"follower"}]})"),
            (Points{{"red", 9}, {"blue", 9}}));
}

TEST(City, D7DarmstadtiumGivesThreeOnlyWhenTheCityIsCompleted) {
  // Completed: 3 tiles and 1 pennant × 2 = 8, + 3 = 11.
  auto complete = scored(R"({"feature":"city","complete":true,"tiles":3,"pennants":1,
      "figures":[{"player":"red","figure":"follower"}],"modifiers":{"darmstadtium":true}})");
  EXPECT_EQ(line(complete, "red", "darmstadtium").points, 3);
  EXPECT_EQ(complete.points_of("red"), 11);
  // Never halved: the witch takes 8 to 4, then + 3 = 7.
  EXPECT_EQ(points(R"({"feature":"city","complete":true,"tiles":3,"pennants":1,
      "figures":[{"player":"red","figure":"follower"}],"modifiers":{"darmstadtium":true,"witch":true}})"),
            (Points{{"red", 7}}));
  // At final scoring it gives nothing: 3 + 1 = 4, and no line.
  auto final_scoring = scored(R"({"feature":"city","complete":false,"tiles":3,"pennants":1,
      "figures":[{"player":"red","figure":"follower"},{"player":"blue","figure":"follower"}],
      "modifiers":{"darmstadtium":true}})");
  EXPECT_FALSE(has_line(final_scoring, "red", "darmstadtium"));
  EXPECT_FALSE(has_line(final_scoring, "blue", "darmstadtium"));
  EXPECT_EQ(final_scoring.points_of("red"), 4);
  EXPECT_EQ(final_scoring.points_of("blue"), 4);
}

// --- §4.3 Monastery family -----------------------------------------------------------------------

TEST(Monastery, EveryMemberOfTheFamilyScoresNineWhenComplete) {
  for (std::string feature : {"monastery", "abbey", "german_monastery", "dutch_belgian_monastery",
                              "japanese_building", "darmstadt_church"}) {
    auto s = scored(R"({"feature":")" + feature +
                    R"(","complete":true,"figures":[{"player":"red","figure":"monk"}]})");
    EXPECT_EQ(line(s, "red", feature + ".tile").points, 9) << feature;
  }
  auto shrine = scored(
      R"({"feature":"shrine","complete":true,"figures":[{"player":"red","figure":"heretic"}]})");
  EXPECT_EQ(line(shrine, "red", "shrine.tile").points, 9);
}

TEST(Monastery, HermitMonasteryPilgrimageRouteAndWealth) {
  // Hermit Monastery: 9 − 1 per tile with a city segment (3) = 6.
  EXPECT_EQ(
      points(R"({"feature":"monastery","complete":true,"figures":[{"player":"red","figure":"monk"}],
      "modifiers":{"surveyor":"hermit_monastery","city_segment_tiles":3}})"),
      (Points{{"red", 6}}));
  // Pilgrimage Route at final scoring: 1 + 5 neighbours = 6, + 2 tiles with a road = 8.
  EXPECT_EQ(
      points(
          R"({"feature":"monastery","complete":false,"figures":[{"player":"red","figure":"monk"}],
      "modifiers":{"neighbour_tiles":5,"surveyor":"pilgrimage_route","road_segment_tiles":2}})"),
      (Points{{"red", 8}}));
  // Wealth: 9 + 3 = 12.
  EXPECT_EQ(
      points(R"({"feature":"abbey","complete":true,"figures":[{"player":"red","figure":"monk"}],
      "modifiers":{"surveyor":"wealth"}})"),
      (Points{{"red", 12}}));
}

TEST(Monastery, VineyardsAndLittleBuildingsAreNotHalved) {
  // 9 + 2 vineyards × 3 + 1 little building = 16.
  EXPECT_EQ(
      points(R"({"feature":"monastery","complete":true,"figures":[{"player":"red","figure":"monk"}],
      "modifiers":{"vineyards":2,"buildings":{"little":1}}})"),
      (Points{{"red", 16}}));
  // Witch: 9 → 5, the vineyard's 3 after: 8.
  EXPECT_EQ(
      points(R"({"feature":"monastery","complete":true,"figures":[{"player":"red","figure":"monk"}],
      "modifiers":{"witch":true,"vineyards":1}})"),
      (Points{{"red", 8}}));
}

TEST(Monastery, D7VineyardsGiveThreeEachOnlyWhenTheMonasteryIsCompleted) {
  // Completed: 9 + 2 vineyards × 3 = 15.
  auto complete = scored(R"({"feature":"monastery","complete":true,
      "figures":[{"player":"red","figure":"monk"}],"modifiers":{"vineyards":2}})");
  EXPECT_EQ(line(complete, "red", "vineyards").count, 2);
  EXPECT_EQ(line(complete, "red", "vineyards").points, 6);
  EXPECT_EQ(complete.points_of("red"), 15);
  // At final scoring: 1 + 5 neighbours = 6, the vineyards nothing (no line); a teacher copies 6.
  auto final_scoring = scored(R"({"feature":"abbey","complete":false,
      "figures":[{"player":"red","figure":"monk"}],"modifiers":{"neighbour_tiles":5,"vineyards":2},
      "bonuses":{"teacher":"blue"}})");
  EXPECT_FALSE(has_line(final_scoring, "red", "vineyards"));
  EXPECT_EQ(final_scoring.points_of("red"), 6);
  EXPECT_EQ(final_scoring.points_of("blue"), 6);
  // A dispatch letter values the smallest monastery as at final scoring: 1 + 3 = 4.
  EXPECT_EQ(points(R"({"event":"dispatch","player":"red","action":"smallest_monastery",
      "feature":{"feature":"monastery","figures":[{"player":"red","figure":"monk"}],
                 "modifiers":{"neighbour_tiles":3,"vineyards":1}}})"),
            (Points{{"red", 4}}));
}

TEST(Monastery, TheLoserOfAChallengeScoresNothing) {
  auto s =
      scored(R"({"feature":"shrine","complete":true,"figures":[{"player":"red","figure":"heretic"}],
      "modifiers":{"challenge_lost":true,"vineyards":1},"bonuses":{"teacher":"blue"}})");
  EXPECT_EQ(s.points_of("red"), 0);
  EXPECT_EQ(line(s, "red", "challenge_lost").points, -12);
  EXPECT_EQ(s.points_of("blue"), 0);  // the teacher copies what the feature scored
}

TEST(Monastery, DarmstadtChurchGivesThreeToTheMajorityAroundTheChurch) {
  // Red's monk scores the church (9); red and blue tie with 2 followers each on the church tile
  // and the 8 around: +3 each.
  auto s = scored(
      R"({"feature":"darmstadt_church","complete":true,"figures":[{"player":"red","figure":"monk"}],
      "bonuses":{"darmstadt_church":{"red":2,"blue":2,"green":1}}})");
  EXPECT_EQ(s.points_of("red"), 12);
  EXPECT_EQ(s.points_of("blue"), 3);
  EXPECT_EQ(s.points_of("green"), 0);
}

TEST(Monastery, NeighbourTilesMustFitCompleteness) {
  EXPECT_TRUE(has_error(
      refused(R"({"feature":"monastery","complete":false,"modifiers":{"neighbour_tiles":8}})"),
      "neighbour_tiles"));
  EXPECT_TRUE(has_error(
      refused(R"({"feature":"monastery","complete":true,"modifiers":{"neighbour_tiles":5}})"),
      "neighbour_tiles"));
  EXPECT_TRUE(has_error(refused(R"({"feature":"monastery","complete":true,"tiles":9})"), "tiles"));
}

// --- §4.4 Field ----------------------------------------------------------------------------------

TEST(Field, FarmersPigHerdPigAndBesiegedCities) {
  // Red and blue tie (one farmer each) next to 2 completed cities (one besieged) and a castle,
  // with a pig herd and red's pig. Value: cities 2 × 3 = 6, castle 4, herd +3 (2 cities + 1
  // castle), besieged city once more (3 + 1 herd) = 4 → 17 each. Red's pig: +1 per city and
  // castle, the besieged city doubled: 2 + 1 + 1 = 4 → red 21.
  auto s = scored(R"({"feature":"field","complete":false,
      "figures":[{"player":"red","figure":"follower"},{"player":"red","figure":"pig"},
                 {"player":"blue","figure":"follower"}],
      "modifiers":{"cities":[{"besieged":true},{"besieged":false}],"castles":1,"pig_herd":true}})");
  EXPECT_EQ(line(s, "red", "field.city").points, 6);
  EXPECT_EQ(line(s, "red", "field.castle").points, 4);
  EXPECT_EQ(line(s, "red", "pig_herd").points, 3);
  EXPECT_EQ(line(s, "red", "field.besieged").points, 4);
  EXPECT_EQ(line(s, "red", "field.pig").points, 4);
  EXPECT_EQ(s.points_of("red"), 21);
  EXPECT_EQ(s.points_of("blue"), 17);
  EXPECT_FALSE(has_line(s, "blue", "field.pig"));
}

TEST(Field, BarnScenarios) {
  // Barn at final scoring: 4 per city, 5 per castle, for the barn's owner: 2 × 4 + 5 = 13;
  // a besieged city counts double: + 4.
  EXPECT_EQ(
      points(R"({"feature":"field","complete":false,"figures":[{"player":"red","figure":"barn"}],
      "modifiers":{"barn":"final","cities":[{},{"besieged":true}],"castles":1}})"),
      (Points{{"red", 17}}));
  // Scenario 1, a barn placed on a field with farmers: 3 per city, 4 per castle: 6 + 4 = 10.
  EXPECT_EQ(
      points(R"({"feature":"field","complete":true,"figures":[{"player":"blue","figure":"follower"},
      {"player":"red","figure":"barn"}],"modifiers":{"barn":"placed","cities":[{},{}],"castles":1}})"),
      (Points{{"blue", 10}}));
  // Scenario 2, farmers connected to a field with a barn: 1 per city, 2 per castle: 2 + 2 = 4.
  EXPECT_EQ(
      points(
          R"({"feature":"field","complete":true,"figures":[{"player":"blue","figure":"follower"}],
      "modifiers":{"barn":"connected","cities":[{},{}],"castles":1}})"),
      (Points{{"blue", 4}}));
  // Incoherent: farmers left on a barn's field at final scoring; a field scored during play
  // without a barn.
  EXPECT_TRUE(has_error(refused(R"({"feature":"field","complete":false,
      "figures":[{"player":"red","figure":"barn"},{"player":"blue","figure":"follower"}],
      "modifiers":{"barn":"final","cities":[{}]}})"),
                        "barn"));
  EXPECT_TRUE(has_error(refused(R"({"feature":"field","complete":true,
      "figures":[{"player":"blue","figure":"follower"}],"modifiers":{"cities":[{}]}})"),
                        "barn"));
}

TEST(Field, LittleBuildings) {
  // 1 city × 3 + 2 little buildings = 5.
  EXPECT_EQ(
      points(
          R"({"feature":"field","complete":false,"figures":[{"player":"red","figure":"follower"}],
      "modifiers":{"cities":[{}],"buildings":{"little":2}}})"),
      (Points{{"red", 5}}));
}

// --- §4.5 Other features -------------------------------------------------------------------------

TEST(Castle, TheOccupierScoresTheAdjacentFeatureEvenUnoccupied) {
  // The first feature completed in the castle's area: an unoccupied 4-tile road with an inn = 8.
  auto s = scored(
      R"({"feature":"castle","complete":true,"figures":[{"player":"red","figure":"follower"}],
      "adjacent_feature":{"feature":"road","tiles":4,"modifiers":{"inn":true}}})");
  EXPECT_EQ(s.points_of("red"), 8);
  EXPECT_EQ(line(s, "red", "inn").points, 4);
  // A mayor in the castle scores 0 (a castle has no pennants).
  EXPECT_TRUE(
      scored(R"({"feature":"castle","complete":true,"figures":[{"player":"red","figure":"mayor"}],
      "adjacent_feature":{"feature":"city","tiles":4}})")
          .empty());
  // The area feature's own figures belong to its own scoring.
  EXPECT_TRUE(has_error(refused(R"({"feature":"castle","complete":true,
      "adjacent_feature":{"feature":"road","tiles":4,"figures":[{"player":"red","figure":"follower"}]}})"),
                        "castle"));
}

TEST(BabaYagasHut, OnePlusOnePerEmptySquare) {
  // Final scoring with 3 empty squares around: 1 + 3 = 4; surrounded (complete): 1.
  EXPECT_EQ(
      points(
          R"({"feature":"baba_yaga_hut","complete":false,"figures":[{"player":"red","figure":"follower"}],
      "modifiers":{"empty_neighbours":3}})"),
      (Points{{"red", 4}}));
  EXPECT_EQ(
      points(
          R"({"feature":"baba_yaga_hut","complete":true,"figures":[{"player":"red","figure":"follower"}]})"),
      (Points{{"red", 1}}));
  EXPECT_TRUE(has_error(
      refused(R"({"feature":"baba_yaga_hut","complete":true,"modifiers":{"empty_neighbours":2}})"),
      "empty_neighbours"));
}

TEST(Garden, NineWhenCompleteOnlyTheAbbotAndNoVineyards) {
  EXPECT_EQ(
      points(
          R"({"feature":"garden","complete":true,"figures":[{"player":"red","figure":"abbot"}]})"),
      (Points{{"red", 9}}));
  EXPECT_EQ(
      points(R"({"feature":"garden","complete":false,"figures":[{"player":"red","figure":"abbot"}],
      "modifiers":{"neighbour_tiles":3}})"),
      (Points{{"red", 4}}));
  auto errors = refused(
      R"({"feature":"garden","complete":true,"figures":[{"player":"red","figure":"follower"}],
      "modifiers":{"vineyards":1}})");
  EXPECT_TRUE(has_error(errors, "figure", "figures[0].figure")) << describe(errors);
  EXPECT_TRUE(has_error(errors, "vineyards", "modifiers.vineyards")) << describe(errors);
}

TEST(GermanCastle, TwoPlusOnePerTileAround) {
  EXPECT_EQ(
      points(
          R"({"feature":"german_castle","complete":true,"figures":[{"player":"red","figure":"follower"}]})"),
      (Points{{"red", 12}}));
  // Final scoring: 2 + 4 tiles around = 6.
  EXPECT_EQ(
      points(
          R"({"feature":"german_castle","complete":false,"figures":[{"player":"red","figure":"follower"}],
      "modifiers":{"neighbour_tiles":4}})"),
      (Points{{"red", 6}}));
}

TEST(GermanCathedral, RoadSegmentsRoadTilesInnAndBuildings) {
  // 3 segments on the cathedral + 5 road tiles = 8; inn +8; one little building +1 = 17.
  auto s = scored(R"({"feature":"german_cathedral","complete":true,"tiles":5,
      "figures":[{"player":"red","figure":"follower"}],
      "modifiers":{"cathedral_segments":3,"inn":true,"buildings":{"little":1}}})");
  EXPECT_EQ(line(s, "red", "german_cathedral.segment").points, 3);
  EXPECT_EQ(line(s, "red", "german_cathedral.road_tile").points, 5);
  EXPECT_EQ(s.points_of("red"), 17);
}

TEST(Graveyard, ZeroPointsAndTheMajorityTakesAGuard) {
  auto s = scored(
      R"({"feature":"graveyard","complete":true,"figures":[{"player":"red","figure":"follower"}],
      "modifiers":{"buildings":{"little":2}}})");
  EXPECT_EQ(line(s, "red", "graveyard.guard").points, 0);
  EXPECT_EQ(line(s, "red", "graveyard.guard").count, 1);
  EXPECT_EQ(s.points_of("red"), 2);  // only the little buildings
}

TEST(FortuneTeller, ZeroPointsBuildingsAndThreeForTheCompleter) {
  auto s = scored(
      R"({"feature":"fortune_teller","complete":true,"figures":[{"player":"red","figure":"follower"}],
      "modifiers":{"buildings":{"little":1}},"bonuses":{"completer":"blue"}})");
  EXPECT_EQ(s.points_of("red"), 1);
  EXPECT_EQ(line(s, "blue", "fortune_teller.completer").points, 3);
}

TEST(Obelisk, SixteenAndBuildings) {
  EXPECT_EQ(
      points(
          R"({"feature":"obelisk","complete":true,"figures":[{"player":"red","figure":"follower"}],
      "modifiers":{"buildings":{"little":1}}})"),
      (Points{{"red", 17}}));
  // Final scoring: its 4 squares + 7 tiles around = 11.
  EXPECT_EQ(
      points(
          R"({"feature":"obelisk","complete":false,"figures":[{"player":"red","figure":"follower"}],
      "modifiers":{"neighbour_tiles":7}})"),
      (Points{{"red", 11}}));
}

// --- §4.6 Per-player adjustments and bonuses -----------------------------------------------------

TEST(Bonuses, WatchtowerByItsSymbol) {
  struct Case {
    const char* symbol;
    std::int64_t count;
    std::int64_t expected;
  };
  // meeple 2 per follower, road 1 per road tile, monastery 3 per building, pennant 2 per pennant,
  // city 1 per city tile.
  for (const auto& c : {Case{"meeple", 3, 6}, Case{"road", 4, 4}, Case{"monastery", 2, 6},
                        Case{"pennant", 2, 4}, Case{"city", 5, 5}}) {
    auto s = scored(std::string(R"({"feature":"city","complete":true,"tiles":2,
        "figures":[{"player":"red","figure":"follower"}],
        "bonuses":{"watchtower":{"player":"red","symbol":")") +
                    c.symbol + R"(","count":)" + std::to_string(c.count) + "}}}");
    EXPECT_EQ(line(s, "red", std::string("watchtower.") + c.symbol).points, c.expected) << c.symbol;
    EXPECT_EQ(s.points_of("red"), 4 + c.expected) << c.symbol;
  }
  // Only for a player with a follower on the feature.
  EXPECT_FALSE(has_line(scored(R"({"feature":"road","complete":true,"tiles":2,
      "figures":[{"player":"red","figure":"follower"}],
      "bonuses":{"watchtower":[{"player":"blue","symbol":"road","count":3}]}})"),
                        "blue", "watchtower.road"));
}

TEST(Bonuses, D8OneWatchtowerEntryPerPlayerPerWatchtower) {
  // Red listed twice for the road watchtower: refused, naming the second entry.
  auto errors = refused(R"({"feature":"road","complete":true,"tiles":3,
      "figures":[{"player":"red","figure":"follower"},{"player":"red","figure":"follower"}],
      "bonuses":{"watchtower":[{"player":"red","symbol":"road","count":4},
                               {"player":"red","symbol":"road","count":4}]}})");
  ASSERT_EQ(errors.size(), 1u) << describe(errors);
  EXPECT_EQ(errors[0].rule, "D-8");
  EXPECT_EQ(errors[0].field, "bonuses.watchtower[1]");
  EXPECT_EQ(errors[0].player, "red");
  // The same label twice is one watchtower, whatever the symbols say.
  EXPECT_TRUE(has_error(refused(R"({"feature":"city","complete":true,"tiles":2,
      "figures":[{"player":"red","figure":"follower"}],
      "bonuses":{"watchtower":[{"player":"red","symbol":"city","count":3,"tower":"E4"},
                               {"player":"red","symbol":"meeple","count":1,"tower":"E4"}]}})"),
                        "D-8", "bonuses.watchtower[1]"));

  // Two players at one watchtower each score it: a city of 2 tiles (4 each) and a meeple
  // watchtower counting 2 followers (2 × 2 = 4 each) = 8 each.
  EXPECT_EQ(points(R"({"feature":"city","complete":true,"tiles":2,
      "figures":[{"player":"red","figure":"follower"},{"player":"blue","figure":"follower"}],
      "bonuses":{"watchtower":[{"player":"red","symbol":"meeple","count":2},
                               {"player":"blue","symbol":"meeple","count":2}]}})"),
            (Points{{"red", 8}, {"blue", 8}}));
  // One player at two watchtowers of different symbols: 4 + meeple 2 × 1 + city 1 × 3 = 9.
  EXPECT_EQ(points(R"({"feature":"city","complete":true,"tiles":2,
      "figures":[{"player":"red","figure":"follower"}],
      "bonuses":{"watchtower":[{"player":"red","symbol":"meeple","count":1},
                               {"player":"red","symbol":"city","count":3}]}})"),
            (Points{{"red", 9}}));
  // Two watchtowers of one symbol, told apart by their labels: 4 + 2 × 2 + 2 × 3 = 14.
  EXPECT_EQ(points(R"({"feature":"city","complete":true,"tiles":2,
      "figures":[{"player":"red","figure":"follower"}],
      "bonuses":{"watchtower":[{"player":"red","symbol":"meeple","count":2,"tower":"B2"},
                               {"player":"red","symbol":"meeple","count":3,"tower":"F6"}]}})"),
            (Points{{"red", 14}}));
  // A label is a non-empty string.
  EXPECT_TRUE(has_error(refused(R"({"feature":"city","complete":true,"tiles":2,
      "figures":[{"player":"red","figure":"follower"}],
      "bonuses":{"watchtower":{"player":"red","symbol":"city","count":3,"tower":""}}})"),
                        "schema", "bonuses.watchtower.tower"));
}

TEST(Bonuses, Tollkeepers) {
  // Toll 2: 2 per farmhouse/stable/garden/highwayman (2) and 6 per group of travellers (1) = 10.
  auto s = scored(
      R"({"feature":"road","complete":true,"tiles":3,"figures":[{"player":"red","figure":"follower"}],
      "bonuses":{"tollkeeper":{"player":"blue","toll":2,"roadside":2,"travellers":1}}})");
  EXPECT_EQ(s.points_of("blue"), 10);
  // Toll 1: 2 + 3 = 5.
  EXPECT_EQ(
      scored(
          R"({"feature":"road","complete":true,"tiles":3,"figures":[{"player":"red","figure":"follower"}],
      "bonuses":{"tollkeeper":{"player":"blue","toll":1,"roadside":2,"travellers":1}}})")
          .points_of("blue"),
      5);
  EXPECT_TRUE(has_error(refused(R"({"feature":"road","complete":true,"tiles":3,
      "bonuses":{"tollkeeper":{"player":"blue","toll":3}}})"),
                        "tollkeeper"));
}

TEST(Bonuses, GingerbreadManLeavingACompletedCity) {
  // 4-tile city: red 2 followers (majority: 8 + 2 × 4 = 16), blue 1 follower (4).
  auto s = scored(R"({"feature":"city","complete":true,"tiles":4,
      "figures":[{"player":"red","figure":"follower"},{"player":"red","figure":"follower"},
                 {"player":"blue","figure":"follower"}],"bonuses":{"gingerbread_man":true}})");
  EXPECT_EQ(s.points_of("red"), 16);
  EXPECT_EQ(s.points_of("blue"), 4);
}

TEST(Bonuses, GhostsReduceWhatAMajorityHolderReceivesNotTheValue) {
  // 5-tile road, red and blue tie. Red has 2 ghosts: 5 − 4 = 1. Green's ghost does nothing (not
  // a majority holder). The teacher copies the feature's value: 5.
  auto s = scored(R"({"feature":"road","complete":true,"tiles":5,
      "figures":[{"player":"red","figure":"follower"},{"player":"blue","figure":"follower"},
                 {"player":"green","figure":"builder"}],
      "modifiers":{"ghosts":{"red":2,"green":1}},"bonuses":{"teacher":"yellow"}})");
  EXPECT_EQ(line(s, "red", "ghosts").points, -4);
  EXPECT_EQ(s.points_of("red"), 1);
  EXPECT_EQ(s.points_of("blue"), 5);
  EXPECT_EQ(s.points_of("green"), 0);
  EXPECT_EQ(s.points_of("yellow"), 5);
}

TEST(Bonuses, MarketsOfLeipzig) {
  // Wainwrights: +1 per actual tile with the road's majority — not the Highway's 5: 5 + 10 = 15.
  auto w = scored(R"({"feature":"road","complete":true,"tiles":10,
      "figures":[{"player":"red","figure":"follower"}],"modifiers":{"surveyor":"highway"},
      "bonuses":{"wainwrights":["red","blue"]}})");
  EXPECT_EQ(w.points_of("red"), 15);
  EXPECT_FALSE(has_line(w, "blue", "wainwrights"));  // no majority
  // Coiners: +3 per pennant with presence in the city (no majority): blue 3 × 2 = 6.
  auto c = scored(R"({"feature":"city","complete":true,"tiles":3,"pennants":2,
      "figures":[{"player":"red","figure":"follower"},{"player":"red","figure":"follower"},
                 {"player":"blue","figure":"follower"}],"bonuses":{"coiners":"blue"}})");
  EXPECT_EQ(c.points_of("blue"), 6);
  // Bookbinders: +4 per scored monastery, which must be occupied.
  EXPECT_EQ(
      scored(R"({"feature":"monastery","complete":true,"figures":[{"player":"red","figure":"monk"}],
      "bonuses":{"bookbinders":"blue"}})")
          .points_of("blue"),
      4);
  EXPECT_TRUE(scored(R"({"feature":"monastery","complete":true,"bonuses":{"bookbinders":"blue"}})")
                  .empty());
  // Not on the turn the follower was sent to that quarter.
  EXPECT_TRUE(has_error(refused(R"({"feature":"road","complete":true,"tiles":4,
      "figures":[{"player":"red","figure":"follower"},{"player":"red","figure":"follower"}],
      "bonuses":{"leipzig_sent":{"player":"red","quarter":"wainwrights"},"wainwrights":"red"}})"),
                        "wainwrights"));
}

TEST(Bonuses, RingmasterScoresEvenWhenTheFeatureScoresNothing) {
  // An unoccupied completed road; the ringmaster is next to 2 circus tiles: 2 × 2 = 4.
  EXPECT_EQ(points(R"({"feature":"road","complete":true,"tiles":3,
      "bonuses":{"ringmaster":{"player":"green","circus_tiles":2}}})"),
            (Points{{"green", 4}}));
  // Among the monastery family only monasteries; never gardens; never at final scoring.
  EXPECT_TRUE(has_error(refused(R"({"feature":"abbey","complete":true,
      "bonuses":{"ringmaster":{"player":"green","circus_tiles":1}}})"),
                        "ringmaster"));
  EXPECT_TRUE(has_error(refused(R"({"feature":"garden","complete":true,
      "bonuses":{"ringmaster":{"player":"green","circus_tiles":1}}})"),
                        "ringmaster"));
  EXPECT_TRUE(has_error(refused(R"({"feature":"road","complete":false,"tiles":3,
      "bonuses":{"ringmaster":{"player":"green","circus_tiles":1}}})"),
                        "ringmaster"));
}

TEST(Bonuses, FairyThreeDuringPlayOnly) {
  EXPECT_EQ(
      points(
          R"({"feature":"road","complete":true,"tiles":3,"figures":[{"player":"red","figure":"follower"}],
      "bonuses":{"fairy":"red"}})"),
      (Points{{"red", 6}}));
  EXPECT_TRUE(has_error(refused(R"({"feature":"road","complete":false,"tiles":3,
      "figures":[{"player":"red","figure":"follower"}],"bonuses":{"fairy":"red"}})"),
                        "D-4", "bonuses.fairy"));
}

// --- Refusals ------------------------------------------------------------------------------------

TEST(Refusals, UnknownNamesAreRefusedByKind) {
  EXPECT_TRUE(has_error(refused(R"({"feature":"bridge","complete":true})"), "feature", "feature"));
  EXPECT_TRUE(has_error(
      refused(R"({"feature":"road","complete":true,"tiles":2,"modifiers":{"dragon":true}})"),
      "modifier", "modifiers.dragon"));
  EXPECT_TRUE(has_error(
      refused(R"({"feature":"road","complete":true,"tiles":2,"bonuses":{"princess":"red"}})"),
      "bonus", "bonuses.princess"));
  EXPECT_TRUE(has_error(refused(R"({"feature":"road","complete":true,"tiles":2,"colour":"red"})"),
                        "schema", "colour"));
  EXPECT_TRUE(has_error(refused(R"({"feature":"road","complete":true,"tiles":2,
      "figures":[{"player":"red","figure":"dragon"}]})"),
                        "figure", "figures[0].figure"));
  EXPECT_TRUE(has_error(refused(R"({"complete":true})"), "event"));
  EXPECT_TRUE(has_error(refused(R"({"feature":"road","event":"circus"})"), "event"));
}

TEST(Refusals, NegativeCountsAreRefusedUnderTheirName) {
  EXPECT_TRUE(
      has_error(refused(R"({"feature":"road","complete":true,"tiles":-2})"), "tiles", "tiles"));
  EXPECT_TRUE(
      has_error(refused(R"({"feature":"monastery","complete":true,"modifiers":{"vineyards":-1}})"),
                "vineyards", "modifiers.vineyards"));
  EXPECT_TRUE(has_error(refused(R"({"feature":"city","complete":true,"tiles":2,"pennants":-1})"),
                        "pennants", "pennants"));
}

TEST(Refusals, AModifierThatDoesNotApplyIsRefusedUnderItsName) {
  auto errors = refused(R"({"feature":"city","complete":true,"tiles":3,"modifiers":{"inn":true}})");
  ASSERT_TRUE(has_error(errors, "inn", "modifiers.inn")) << describe(errors);
  EXPECT_NE(english(errors[0].message).find("road"), std::string::npos)
      << english(errors[0].message);
  EXPECT_TRUE(has_error(
      refused(R"({"feature":"road","complete":true,"tiles":3,"modifiers":{"cathedral":true}})"),
      "cathedral"));
  EXPECT_TRUE(has_error(refused(R"({"feature":"road","complete":true,"tiles":3,
      "figures":[{"player":"red","figure":"pig"}]})"),
                        "figure"));
  EXPECT_TRUE(has_error(
      refused(R"({"feature":"graveyard","complete":true,"modifiers":{"mage":true}})"), "mage"));
}

TEST(Refusals, WrongTypesAreSchemaErrorsAndEveryProblemIsReportedAtOnce) {
  auto errors = refused(R"({"feature":"road","complete":"yes","tiles":2.5,
      "modifiers":{"inn":1,"dragon":true,"vineyards":2},"figures":[{"player":"","figure":"follower"}]})");
  EXPECT_TRUE(has_error(errors, "schema", "complete")) << describe(errors);
  EXPECT_TRUE(has_error(errors, "schema", "tiles")) << describe(errors);
  EXPECT_TRUE(has_error(errors, "schema", "modifiers.inn")) << describe(errors);
  EXPECT_TRUE(has_error(errors, "modifier", "modifiers.dragon")) << describe(errors);
  EXPECT_TRUE(has_error(errors, "vineyards", "modifiers.vineyards")) << describe(errors);
  EXPECT_TRUE(has_error(errors, "schema", "figures[0].player")) << describe(errors);
  EXPECT_GE(errors.size(), 6u);
}

// --- §6 Robbers ----------------------------------------------------------------------------------

TEST(Robbers, TakeHalfRoundedUpAndTheRobbedKeepsTheirPoints) {
  // Red scores a 5-tile road; blue's robber takes ceil(5 / 2) = 3.
  auto s = scored(
      R"({"feature":"road","complete":true,"tiles":5,"figures":[{"player":"red","figure":"follower"}],
      "robbers":[{"player":"blue","robs":"red"}]})");
  EXPECT_EQ(s.points_of("red"), 5);
  EXPECT_EQ(line(s, "blue", "robber").points, 3);
  EXPECT_EQ(line(s, "blue", "robber").count, 5);
}

TEST(Robbers, NegativePointsAreNotRobbed) {
  // 2 tiles with Poverty: −1 for red; the robber takes nothing.
  auto s = scored(
      R"({"feature":"road","complete":true,"tiles":2,"figures":[{"player":"red","figure":"follower"}],
      "modifiers":{"surveyor":"poverty"},"robbers":[{"player":"blue","robs":"red"}]})");
  EXPECT_EQ(s.points_of("red"), -1);
  EXPECT_EQ(line(s, "blue", "robber").points, 0);
}

TEST(Robbers, TheTeachersCopyIsALaterEvent) {
  // D-5: red holds the road (4) and the teacher (4): the robber takes half the primary 4 = 2.
  auto s = scored(
      R"({"feature":"road","complete":true,"tiles":4,"figures":[{"player":"red","figure":"follower"}],
      "bonuses":{"teacher":"red"},"robbers":[{"player":"blue","robs":"red"}]})");
  EXPECT_EQ(s.points_of("red"), 8);
  EXPECT_EQ(line(s, "blue", "robber").points, 2);
  // When the teacher's copy is all that moves the marker, it is the first move: 3 of 5.
  auto only_teacher = scored(R"({"feature":"road","complete":true,"tiles":5,
      "figures":[{"player":"green","figure":"follower"}],
      "bonuses":{"teacher":"red"},"robbers":[{"player":"blue","robs":"red"}]})");
  EXPECT_EQ(line(only_teacher, "blue", "robber").points, 3);
}

TEST(Robbers, PointsGainedByRobbingAreNeverRobbedAndAnUnmovedMarkerIsRefused) {
  // Green's robber next to blue's marker: blue's only points here are robbed ones.
  auto errors = refused(R"({"feature":"road","complete":true,"tiles":5,
      "figures":[{"player":"red","figure":"follower"}],
      "robbers":[{"player":"blue","robs":"red"},{"player":"green","robs":"blue"}]})");
  EXPECT_TRUE(has_error(errors, "robbers", "robbers[1]")) << describe(errors);
  EXPECT_TRUE(has_error(refused(R"({"feature":"road","complete":true,"tiles":5,
      "robbers":[{"player":"blue","robs":"blue"}]})"),
                        "robbers"));
}

TEST(Robbers, RobATurnEventToo) {
  // A circus: animal 3 × red's 3 followers = 9; blue's robber takes 5.
  auto s = scored(R"({"event":"circus","animal":3,"followers":{"red":3},
      "robbers":[{"player":"blue","robs":"red"}]})");
  EXPECT_EQ(s.points_of("red"), 9);
  EXPECT_EQ(s.points_of("blue"), 5);
}

}  // namespace
}  // namespace tally::projections::carcassonne
