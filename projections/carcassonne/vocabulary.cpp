#include "projections/carcassonne/vocabulary.hpp"

#include "projections/carcassonne/feature_event.hpp"
#include "projections/carcassonne/turn_events.hpp"

#include <algorithm>

namespace tally::projections::carcassonne {

namespace {

constexpr std::array<std::string_view, kFeatureCount> kFeatureNames = {
    "road",
    "city",
    "monastery",
    "shrine",
    "abbey",
    "german_monastery",
    "dutch_belgian_monastery",
    "japanese_building",
    "darmstadt_church",
    "field",
    "castle",
    "baba_yaga_hut",
    "garden",
    "german_castle",
    "german_cathedral",
    "graveyard",
    "fortune_teller",
    "obelisk",
};

// Only the abbot stands in a garden (§4.5 "Garden (abbot)").
constexpr FeatureSet kAnyButGarden = FeatureSet::all().without({Feature::garden});

// §3. The columns: name, figure, strength, follower in the wide sense, features it stands on.
constexpr std::array<FigureSpec, 11> kFigures = {{
    {"follower", Figure::follower, 1, true, kAnyButGarden},
    {"large", Figure::large, 2, true, kAnyButGarden},
    {"mayor", Figure::mayor, kPennantStrength, true, {Feature::city, Feature::castle}},
    {"wagon", Figure::wagon, 1, true, kRoadAndCity | kMonasteryFamily},
    {"abbot", Figure::abbot, 1, true, kMonasteryFamily | FeatureSet{Feature::garden}},
    {"phantom", Figure::phantom, 1, true, kAnyButGarden},
    {"heretic", Figure::heretic, 1, true, {Feature::shrine}},
    {"monk", Figure::monk, 1, true, kMonasteryFamily.without({Feature::shrine})},
    {"builder", Figure::builder, 0, false, kRoadAndCity},
    {"pig", Figure::pig, 0, false, {Feature::field}},
    {"barn", Figure::barn, 0, false, {Feature::field}},
}};

constexpr std::array<std::string_view, 10> kSurveyorNames = {
    "highway",          "peasant_uprising",  "street_fair", "wealth",
    "poverty",          "bad_neighbourhood", "siege",       "citizens_jury",
    "hermit_monastery", "pilgrimage_route"};

constexpr std::array<std::string_view, 4> kBarnNames = {"none", "placed", "connected", "final"};

// §4.1: basic rules +1 per little building; variant: shed +1, house +2, tower +3.
constexpr std::array<BuildingSpec, 4> kBuildings = {{
    {"little", 1, false},
    {"shed", 1, true},
    {"house", 2, true},
    {"tower", 3, true},
}};

}  // namespace

std::string_view name(Feature feature) { return kFeatureNames[static_cast<std::size_t>(feature)]; }

std::optional<Feature> feature_named(std::string_view feature_name) {
  for (std::size_t i = 0; i < kFeatureNames.size(); ++i) {
    if (kFeatureNames[i] == feature_name) return static_cast<Feature>(i);
  }
  return std::nullopt;
}

const std::array<std::string_view, kFeatureCount>& feature_names() { return kFeatureNames; }

std::string FeatureSet::describe() const {
  std::string out;
  for (std::size_t i = 0; i < kFeatureCount; ++i) {
    if (!contains(static_cast<Feature>(i))) continue;
    if (!out.empty()) out += ", ";
    out += kFeatureNames[i];
  }
  return out;
}

const FigureSpec* figure_named(std::string_view figure_name) {
  for (const auto& f : kFigures) {
    if (f.name == figure_name) return &f;
  }
  return nullptr;
}

const FigureSpec& spec(Figure figure) { return kFigures[static_cast<std::size_t>(figure)]; }

std::span<const FigureSpec> figure_specs() { return kFigures; }

std::span<const std::string_view> surveyor_names() { return kSurveyorNames; }

std::optional<Surveyor> surveyor_named(std::string_view surveyor_name) {
  for (std::size_t i = 0; i < kSurveyorNames.size(); ++i) {
    if (kSurveyorNames[i] == surveyor_name) return static_cast<Surveyor>(i);
  }
  return std::nullopt;
}

std::string_view name(Surveyor surveyor) {
  return kSurveyorNames[static_cast<std::size_t>(surveyor)];
}

std::span<const std::string_view> barn_names() { return kBarnNames; }

std::optional<Barn> barn_named(std::string_view barn_name) {
  for (std::size_t i = 0; i < kBarnNames.size(); ++i) {
    if (kBarnNames[i] == barn_name) return static_cast<Barn>(i);
  }
  return std::nullopt;
}

std::span<const BuildingSpec> building_specs() { return kBuildings; }

std::set<std::string, std::less<>> known_names() {
  std::set<std::string, std::less<>> names;
  auto add = [&](auto&& list) {
    for (const auto& n : list) names.emplace(n);
  };
  add(kFeatureNames);
  for (const auto& f : kFigures) names.emplace(f.name);
  add(kSurveyorNames);
  add(kBarnNames);
  for (const auto& b : kBuildings) names.emplace(b.name);
  add(feature_event_field_names());
  add(modifier_names());
  add(bonus_names());
  add(tile_detail_names());
  add(turn_event_names());
  // §6: the robbers any event may carry, `"robbers":[{"player","robs"}]`.
  names.emplace("robbers");
  names.emplace("robs");
  return names;
}

}  // namespace tally::projections::carcassonne
