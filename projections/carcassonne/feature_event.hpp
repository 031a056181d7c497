// A feature scoring event (carcassonne.md §2, §4): the JSON a judge records, checked and read into
// a typed value. Which modifier and which bonus applies to which feature is a table in
// feature_event.cpp (the "applies to" column of §2); a name that does not apply to the feature is
// refused under its own name as the rule id, an unknown one under "modifier" / "bonus".
//
// Thread safety: pure functions over their arguments.
#pragma once

#include "projections/carcassonne/json_reader.hpp"
#include "projections/carcassonne/vocabulary.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace tally::projections::carcassonne {

// The tournament rules the engine reads (rules.hpp normalises them).
enum class Edition : std::uint8_t { c2, c3 };
struct EngineRules {
  Edition edition = Edition::c3;    // `edition` (§3, D-1)
  bool buildings_variant = false;   // `buildings_variant` (§4.1 little buildings)
  bool spiel_doch_variant = false;  // `spiel_doch_variant` (§5 spiel_doch)
};

struct PlacedFigure {
  std::string player;
  const FigureSpec* spec = nullptr;
};

// Per player counts as they appear in the event (`ghosts`, `darmstadt_church`, …), in order.
using PlayerCounts = std::vector<std::pair<std::string, std::int64_t>>;

struct Modifiers {
  std::set<std::string, std::less<>> given;  // the names present in the event
  bool inn = false;
  bool cathedral = false;
  bool besieged = false;
  bool mage = false;
  bool witch = false;
  bool darmstadtium = false;
  bool city_gates = false;  // D-6: a City Gates 1-tile city (4 points when completed)
  bool challenge_lost = false;
  bool german_cathedral_end = false;
  std::int64_t cathedral_segments = 0;
  std::optional<Surveyor> surveyor;
  std::int64_t farmhouse_tiles = 0;
  std::int64_t semicircle_only_tiles = 0;
  std::int64_t city_segment_tiles = 0;
  std::int64_t road_segment_tiles = 0;
  std::array<std::int64_t, 4> buildings{};  // by building_specs() index
  std::int64_t german_castles = 0;
  std::int64_t vineyards = 0;
  std::int64_t labyrinth_followers = 0;
  std::vector<std::int64_t> bathhouses;
  std::vector<std::int64_t> signposts;
  std::vector<bool> cities;  // field: one entry per completed city, true when besieged
  std::int64_t castles = 0;
  bool pig_herd = false;
  Barn barn = Barn::none;
  PlayerCounts ghosts;
  std::optional<std::int64_t> empty_neighbours;
  std::optional<std::int64_t> neighbour_tiles;

  bool surveyor_is(Surveyor s) const { return surveyor == s; }
};

struct Watchtower {
  std::string player;
  std::string symbol;  // meeple, road, monastery, pennant, city
  std::int64_t count = 0;
  std::string tower;  // the judge's label for the watchtower (`tower`), empty when not given
};
struct Tollkeeper {
  std::string player;
  std::int64_t toll = 1;        // the number on the tollhouse: 1 or 2
  std::int64_t roadside = 0;    // farmhouses, stables, gardens and highwaymen on the road
  std::int64_t travellers = 0;  // groups of travellers on the road
};
struct Ringmaster {
  std::string player;
  std::int64_t circus_tiles = 0;
};
struct LeipzigSent {
  std::string player;
  std::string quarter;  // wainwrights, coiners, bookbinders
};

struct Bonuses {
  std::vector<Watchtower> watchtowers;
  std::vector<Tollkeeper> tollkeepers;
  bool gingerbread_man = false;
  std::optional<std::string> teacher;
  std::optional<std::string> fairy;
  std::optional<std::string> completer;
  std::vector<std::string> wainwrights;
  std::vector<std::string> coiners;
  std::vector<std::string> bookbinders;
  PlayerCounts darmstadt_church;
  std::vector<Ringmaster> ringmasters;
  std::optional<LeipzigSent> leipzig_sent;
};

struct FeatureEvent {
  Feature feature = Feature::road;
  bool complete = false;
  std::int64_t tiles = 0;  // §3 tile count (from `tiles` or counted from `tile_detail`)
  bool has_tiles = false;
  std::int64_t pennants = 0;
  std::vector<PlacedFigure> figures;
  Modifiers modifiers;
  Bonuses bonuses;
  std::shared_ptr<const FeatureEvent> adjacent;  // castle (§4.5): the completed feature nearby

  bool in(FeatureSet set) const { return set.contains(feature); }
};

// Where a feature event stands: on its own, or inside another event.
enum class FeatureRole : std::uint8_t {
  scored,       // a scoring event of its own (figures, modifiers, bonuses)
  castle_area,  // §4.5: the completed feature next to a castle (no figures or bonuses)
  final_value,  // §5 dispatch / sweeper: a feature valued as at final scoring
};

// Reads the feature members of `reader` (which the caller finishes). Errors go to the reader's
// diagnostics; nullopt when the event cannot be read far enough to be scored.
std::optional<FeatureEvent> read_feature_event(ObjectReader& reader, const EngineRules& rules,
                                               FeatureRole role = FeatureRole::scored);

// The names of the vocabulary, for known_names().
std::vector<std::string_view> feature_event_field_names();
std::vector<std::string_view> modifier_names();
std::vector<std::string_view> bonus_names();
std::vector<std::string_view> tile_detail_names();

// Which features a modifier / bonus applies to (nullopt for an unknown name).
std::optional<FeatureSet> modifier_applies_to(std::string_view name);
std::optional<FeatureSet> bonus_applies_to(std::string_view name);

}  // namespace tally::projections::carcassonne
