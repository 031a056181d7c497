// No name of the rules may be silently unknown: every name in the vocabulary tables of
// docs/games/carcassonne.md (§4 the scoring event, §6 turn events — the repository's statement of
// the contract's names) is parsed out of the page itself and must be known to the engine; every
// value table follows D-2; every name the engine uses is documented on the same page.
#include "projections/carcassonne/vocabulary.hpp"

#include "projections/carcassonne/feature_event.hpp"
#include "projections/carcassonne/feature_scoring.hpp"
#include "projections/carcassonne/feature_value.hpp"
#include "projections/carcassonne/turn_events.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace tally::projections::carcassonne {
namespace {

std::string read(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in) << path;
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The part of `doc` from the heading that starts with `from` up to the next `## ` heading.
std::string section(const std::string& doc, const std::string& from) {
  auto start = doc.find("\n" + from);
  EXPECT_NE(start, std::string::npos) << from << " is not a heading of the page";
  if (start == std::string::npos) return "";
  auto end = doc.find("\n## ", start + 1);
  return doc.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

// The names in the backtick spans of the table rows: plain names (`inn`, `a|b`), and in
// JSON-like shapes the member names (`{"player":"red"}` and `{"player","symbol"}` alike) and the
// values of "figure". Example values — player colours, JSON literals — are not names of the
// vocabulary.
std::set<std::string> names_in_tables(const std::string& text) {
  static const std::set<std::string> kExamples = {"red",   "blue", "green", "yellow",
                                                  "black", "true", "false", "null"};
  std::set<std::string> names;
  std::istringstream lines(text);
  std::string row;
  const std::regex span("`([^`]+)`");
  const std::regex identifier("^[a-z][a-z_]*(\\|[a-z][a-z_]*)*$");
  const std::regex member("[{,]\\s*\"([a-z_]+)\"\\s*(?=[:,}])");
  const std::regex figure("\"figure\"\\s*:\\s*\"([a-z_|]+)\"");
  while (std::getline(lines, row)) {
    if (!row.starts_with("|")) continue;
    for (auto it = std::sregex_iterator(row.begin(), row.end(), span); it != std::sregex_iterator();
         ++it) {
      std::string text = (*it)[1];
      if (std::regex_match(text, identifier)) {
        std::stringstream parts(text);
        for (std::string part; std::getline(parts, part, '|');) names.insert(part);
        continue;
      }
      for (auto m = std::sregex_iterator(text.begin(), text.end(), member);
           m != std::sregex_iterator(); ++m) {
        names.insert((*m)[1]);
      }
      for (auto m = std::sregex_iterator(text.begin(), text.end(), figure);
           m != std::sregex_iterator(); ++m) {
        std::stringstream parts((*m)[1]);
        for (std::string part; std::getline(parts, part, '|');) names.insert(part);
      }
    }
  }
  for (const auto& example : kExamples) names.erase(example);
  return names;
}

TEST(Vocabulary, EveryNameInTheDocumentedTablesIsKnownToTheEngine) {
  std::string doc = read(TALLY_SOURCE_DIR "/docs/games/carcassonne.md");
  std::set<std::string> names = names_in_tables(section(doc, "## 4. The scoring event"));
  names.merge(names_in_tables(section(doc, "## 6. Turn events")));
  // The tournament rules these tables refer to (`buildings_variant`) are not event names.
  for (const auto& rule : names_in_tables(section(doc, "## 1. Tournament rules"))) {
    names.erase(rule);
  }
  // The parse found the tables: features, figures, tile kinds, modifiers, surveyor tiles,
  // bonuses and their members, §5 events.
  for (auto expected :
       {"road",           "obelisk",         "follower",         "pig",          "inn",
        "challenge_lost", "highway",         "pilgrimage_route", "tower",        "barn",
        "final",          "neighbour_tiles", "teacher",          "circus_tiles", "circus",
        "tower_ransom",   "bazaar",          "city_gates",       "darmstadtium", "vineyards",
        "watchtower",     "regular",         "catcher"}) {
    EXPECT_TRUE(names.contains(expected)) << expected << " was not parsed from the page";
  }
  EXPECT_GT(names.size(), 150u);
  auto known = known_names();
  for (const auto& name : names) {
    EXPECT_TRUE(known.contains(name))
        << "docs/games/carcassonne.md names `" << name << "` but the engine does not know it";
  }
}

TEST(Vocabulary, ModifiersApplyAtLeastWhereTheSpecSaysTheyApply) {
  using F = Feature;
  // The "applies to" column of the contract's §2 (docs/games/carcassonne.md §4, Modifiers).
  const FeatureSet any = FeatureSet::all();
  const std::vector<std::pair<std::string, FeatureSet>> spec = {
      {"inn", {F::road}},
      {"cathedral", {F::city}},
      {"besieged", {F::city}},
      {"mage", {F::road, F::city, F::monastery, F::field, F::garden}},
      {"witch", {F::road, F::city, F::monastery, F::field, F::garden}},
      {"darmstadtium", {F::city}},
      {"city_gates", {F::city}},
      {"challenge_lost", kMonasteryFamily},
      {"german_cathedral_end", {F::road}},
      {"cathedral_segments", {F::road}},
      {"surveyor", any},
      {"farmhouse_tiles", {F::road}},
      {"semicircle_only_tiles", {F::city}},
      {"city_segment_tiles", {F::monastery}},
      {"road_segment_tiles", {F::monastery}},
      {"buildings", any.without({F::castle})},
      {"german_castles", {F::road, F::city}},
      {"vineyards", {F::monastery}},
      {"labyrinth_followers", {F::road}},
      {"bathhouses", {F::road, F::city}},
      {"signposts", {F::road, F::city}},
      {"cities", {F::field}},
      {"castles", {F::field}},
      {"pig_herd", {F::field}},
      {"barn", {F::field}},
      {"ghosts", any},
      {"empty_neighbours", {F::baba_yaga_hut}},
      {"neighbour_tiles", {F::monastery, F::garden, F::german_castle, F::obelisk}},
  };
  for (const auto& [name, features] : spec) {
    auto applies = modifier_applies_to(name);
    ASSERT_TRUE(applies.has_value()) << name;
    for (auto f : feature_names()) {
      Feature feature = *feature_named(f);
      if (features.contains(feature)) {
        EXPECT_TRUE(applies->contains(feature)) << name << " on " << f;
      }
    }
  }
  // And nothing applies where the spec says it does not.
  EXPECT_FALSE(modifier_applies_to("inn")->contains(F::city));
  EXPECT_FALSE(modifier_applies_to("vineyards")->contains(F::garden));
  EXPECT_FALSE(modifier_applies_to("cities")->contains(F::road));
}

TEST(Vocabulary, EveryValueTableFollowsTheOrderOfD2) {
  auto tables = value_tables();
  EXPECT_EQ(tables.size(), 12u);
  for (const auto& [name, stages] : tables) {
    ASSERT_FALSE(stages.empty()) << name;
    EXPECT_EQ(stages.front(), Stage::base) << name;
    EXPECT_TRUE(std::is_sorted(stages.begin(), stages.end())) << name << " is out of D-2's order";
  }
}

TEST(Vocabulary, EveryNameTheEngineUsesIsDocumented) {
  std::string doc = read(TALLY_SOURCE_DIR "/docs/games/carcassonne.md");
  std::set<std::string> names;
  for (const auto& n : known_names()) names.insert(n);
  for (const auto& n : value_rule_names()) names.insert(n);
  for (const auto& n : feature_scoring_rule_names()) names.insert(n);
  for (const auto& n : turn_event_rule_names()) names.insert(n);
  names.insert("robber");
  // Documented as a name (`inn`) or inside a JSON shape ("animal").
  for (const auto& name : names) {
    bool documented = doc.find("`" + name + "`") != std::string::npos ||
                      doc.find("\"" + name + "\"") != std::string::npos;
    EXPECT_TRUE(documented) << "`" << name << "` is not in the docs";
  }
}

TEST(Vocabulary, FiguresHaveTheStrengthOfSection3) {
  EXPECT_EQ(figure_named("follower")->strength, 1);
  EXPECT_EQ(figure_named("large")->strength, 2);
  EXPECT_EQ(figure_named("mayor")->strength, kPennantStrength);
  for (auto one : {"wagon", "abbot", "monk", "heretic", "phantom"}) {
    EXPECT_EQ(figure_named(one)->strength, 1) << one;
  }
  for (auto none : {"builder", "pig", "barn"}) {
    EXPECT_EQ(figure_named(none)->strength, 0) << none;
    EXPECT_FALSE(figure_named(none)->follower) << none;
  }
}

}  // namespace
}  // namespace tally::projections::carcassonne
