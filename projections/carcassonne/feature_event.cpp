#include "projections/carcassonne/feature_event.hpp"

#include <algorithm>
#include <array>

namespace tally::projections::carcassonne {

namespace json = boost::json;

namespace {

using F = Feature;

// --- Reading modifier values ---------------------------------------------------------------------

struct ModifierInput {
  std::string_view name;
  const json::value& value;
  std::string path;
  Modifiers& mods;
  Diagnostics& d;
  const EngineRules& rules;
};
using ModifierRead = void (*)(ModifierInput&);

template <bool Modifiers::*Member>
void read_flag(ModifierInput& in) {
  if (!in.value.is_bool()) {
    in.d.error("schema", in.path, wrong_kind("json.expected.boolean", in.value));
    return;
  }
  in.mods.*Member = in.value.get_bool();
}

template <std::int64_t Modifiers::*Member>
void read_number(ModifierInput& in) {
  if (auto n = read_count(in.value, in.path, in.name, in.d)) in.mods.*Member = *n;
}

template <std::optional<std::int64_t> Modifiers::*Member>
void read_optional_number(ModifierInput& in) {
  if (auto n = read_count(in.value, in.path, in.name, in.d)) in.mods.*Member = *n;
}

// A list of non-negative integers, each within [0, max].
template <std::vector<std::int64_t> Modifiers::*Member, std::int64_t Max>
void read_numbers(ModifierInput& in) {
  if (!in.value.is_array()) {
    in.d.error("schema", in.path, "json.expected.integer_array");
    return;
  }
  const auto& list = in.value.get_array();
  for (std::size_t i = 0; i < list.size(); ++i) {
    auto n = read_count(list[i], in.path + "[" + std::to_string(i) + "]", in.name, in.d, 0, Max);
    if (n) (in.mods.*Member).push_back(*n);
  }
}

void read_surveyor(ModifierInput& in) {
  if (!in.value.is_string() || !surveyor_named(in.value.get_string())) {
    in.d.error("surveyor", in.path, not_one_of(name_list(surveyor_names()), in.value));
    return;
  }
  in.mods.surveyor = surveyor_named(in.value.get_string());
}

void read_barn(ModifierInput& in) {
  if (!in.value.is_string() || !barn_named(in.value.get_string())) {
    in.d.error("barn", in.path, not_one_of(name_list(barn_names()), in.value));
    return;
  }
  in.mods.barn = *barn_named(in.value.get_string());
}

// `buildings`: {"little": n} under the basic rules, {"shed","house","tower"} under the variant.
void read_buildings(ModifierInput& in) {
  if (!in.value.is_object()) {
    in.d.error("schema", in.path,
               i18n::Message("json.expected.object_shaped", {{"shape", R"({"little":1})"}}));
    return;
  }
  ObjectReader r(in.value.get_object(), in.path, in.d);
  auto specs = building_specs();
  for (std::size_t i = 0; i < specs.size(); ++i) {
    if (!r.has(specs[i].name)) continue;
    if (specs[i].variant != in.rules.buildings_variant) {
      in.d.error("buildings", r.path_of(specs[i].name),
                 in.rules.buildings_variant ? "carcassonne.buildings.variant"
                                            : "carcassonne.buildings.basic");
      continue;
    }
    in.mods.buildings[i] = r.count_or(specs[i].name, 0, 0, kMaxCount, "buildings");
  }
  r.finish_vocabulary("buildings", "building");
}

// Field `cities`: [{"besieged": bool}, …], one entry per completed city next to the field.
void read_field_cities(ModifierInput& in) {
  if (!in.value.is_array()) {
    in.d.error("schema", in.path,
               i18n::Message("json.expected.array_shaped", {{"shape", R"({"besieged": bool})"}}));
    return;
  }
  const auto& list = in.value.get_array();
  for (std::size_t i = 0; i < list.size(); ++i) {
    std::string path = in.path + "[" + std::to_string(i) + "]";
    if (!list[i].is_object()) {
      in.d.error(
          "schema", path,
          i18n::Message("json.expected.object_shaped", {{"shape", R"({"besieged": bool})"}}));
      continue;
    }
    ObjectReader r(list[i].get_object(), path, in.d);
    in.mods.cities.push_back(r.flag("besieged"));
    r.finish("schema");
  }
}

// `ghosts`: {"red": 2} — ghosts standing next to that player's followers.
void read_player_counts(const json::value& value, const std::string& path, std::string_view rule,
                        PlayerCounts& out, Diagnostics& d) {
  if (!value.is_object()) {
    d.error("schema", path,
            i18n::Message("json.expected.object_shaped", {{"shape", R"({"player": count})"}}));
    return;
  }
  for (const auto& member : value.get_object()) {
    std::string member_path = path + "." + std::string(member.key());
    if (member.key().empty()) {
      d.error("schema", member_path, "json.expected.player_name");
      continue;
    }
    d.players.push_back({std::string(member.key()), member_path});
    if (auto n = read_count(member.value(), member_path, rule, d)) {
      out.emplace_back(std::string(member.key()), *n);
    }
  }
}

void read_ghosts(ModifierInput& in) {
  read_player_counts(in.value, in.path, "ghosts", in.mods.ghosts, in.d);
}

struct ModifierSpec {
  std::string_view name;
  FeatureSet applies_to;
  ModifierRead read;
};

// §4.5: the mage's +1 per tile needs a tile count, which castles, graveyards and fortune tellers
// do not have (see docs/games/carcassonne.md).
constexpr FeatureSet kHasTileCount =
    FeatureSet::all().without({F::castle, F::graveyard, F::fortune_teller});
constexpr FeatureSet kAnyButCastle = FeatureSet::all().without({F::castle});

// The `modifiers` table of §2: name, the features it applies to, how its value is read.
const ModifierSpec kModifiers[] = {
    {"inn", {F::road, F::german_cathedral}, read_flag<&Modifiers::inn>},
    {"cathedral", {F::city}, read_flag<&Modifiers::cathedral>},
    {"besieged", {F::city}, read_flag<&Modifiers::besieged>},
    {"mage", kHasTileCount, read_flag<&Modifiers::mage>},
    {"witch", kHasTileCount, read_flag<&Modifiers::witch>},
    {"darmstadtium", {F::city}, read_flag<&Modifiers::darmstadtium>},
    {"city_gates", {F::city}, read_flag<&Modifiers::city_gates>},
    {"challenge_lost", kMonasteryFamily, read_flag<&Modifiers::challenge_lost>},
    {"german_cathedral_end", {F::road}, read_flag<&Modifiers::german_cathedral_end>},
    {"cathedral_segments",
     {F::road, F::german_cathedral},
     read_number<&Modifiers::cathedral_segments>},
    {"surveyor", FeatureSet::all(), read_surveyor},
    {"farmhouse_tiles", {F::road}, read_number<&Modifiers::farmhouse_tiles>},
    {"semicircle_only_tiles", {F::city}, read_number<&Modifiers::semicircle_only_tiles>},
    {"city_segment_tiles", kMonasteryFamily, read_number<&Modifiers::city_segment_tiles>},
    {"road_segment_tiles", kMonasteryFamily, read_number<&Modifiers::road_segment_tiles>},
    {"buildings", kAnyButCastle, read_buildings},
    {"german_castles", kRoadAndCity, read_number<&Modifiers::german_castles>},
    {"vineyards", kMonasteryFamily, read_number<&Modifiers::vineyards>},
    {"labyrinth_followers", {F::road}, read_number<&Modifiers::labyrinth_followers>},
    {"bathhouses", kRoadAndCity, read_numbers<&Modifiers::bathhouses, kMaxCount>},
    {"signposts", kRoadAndCity, read_numbers<&Modifiers::signposts, 3>},
    {"cities", {F::field}, read_field_cities},
    {"castles", {F::field}, read_number<&Modifiers::castles>},
    {"pig_herd", {F::field}, read_flag<&Modifiers::pig_herd>},
    {"barn", {F::field}, read_barn},
    {"ghosts", FeatureSet::all(), read_ghosts},
    {"empty_neighbours", {F::baba_yaga_hut}, read_optional_number<&Modifiers::empty_neighbours>},
    {"neighbour_tiles", kMonasteryFamily | FeatureSet{F::garden, F::german_castle, F::obelisk},
     read_optional_number<&Modifiers::neighbour_tiles>},
};

const ModifierSpec* modifier_spec(std::string_view name) {
  for (const auto& m : kModifiers) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

// --- Reading bonuses -----------------------------------------------------------------------------

struct BonusInput {
  std::string_view name;
  const json::value& value;
  std::string path;
  Bonuses& bonuses;
  Diagnostics& d;
};
using BonusRead = void (*)(BonusInput&);

// Calls `each` for the value, or for each element when it is an array.
template <typename Each>
void one_or_many(const json::value& value, const std::string& path, Each each) {
  if (value.is_array()) {
    const auto& list = value.get_array();
    for (std::size_t i = 0; i < list.size(); ++i)
      each(list[i], path + "[" + std::to_string(i) + "]");
  } else {
    each(value, path);
  }
}

template <std::optional<std::string> Bonuses::*Member>
void read_bonus_player(BonusInput& in) {
  if (auto p = read_player(in.value, in.path, in.d)) in.bonuses.*Member = *p;
}

template <std::vector<std::string> Bonuses::*Member>
void read_bonus_players(BonusInput& in) {
  one_or_many(in.value, in.path, [&](const json::value& v, const std::string& path) {
    if (auto p = read_player(v, path, in.d)) (in.bonuses.*Member).push_back(*p);
  });
}

void read_gingerbread(BonusInput& in) {
  if (!in.value.is_bool()) {
    in.d.error("schema", in.path, "carcassonne.gingerbread_man.not_boolean");
    return;
  }
  in.bonuses.gingerbread_man = in.value.get_bool();
}

constexpr std::array<std::string_view, 5> kWatchtowerSymbols = {"meeple", "road", "monastery",
                                                                "pennant", "city"};

// A watchtower is known by its `tower` label when the judge gives one (two watchtowers of one
// symbol next to the feature), otherwise by its symbol.
std::string watchtower_key(const Watchtower& w) {
  return w.tower.empty() ? "symbol " + w.symbol : "tower " + w.tower;
}

void read_watchtower(BonusInput& in) {
  std::vector<std::string> paths;  // of the entries read, in the order of in.bonuses.watchtowers
  one_or_many(in.value, in.path, [&](const json::value& v, const std::string& path) {
    if (!v.is_object()) {
      in.d.error("schema", path,
                 i18n::Message("json.expected.object_shaped",
                               {{"shape", R"({"player","symbol","count"})"}}));
      return;
    }
    ObjectReader r(v.get_object(), path, in.d);
    auto player = r.required_player("player");
    auto symbol = r.required_choice("symbol", kWatchtowerSymbols, "watchtower");
    auto count = r.required_count("count", 0, kMaxCount, "watchtower");
    std::string tower;
    if (const json::value* label = r.value("tower")) {
      if (!label->is_string() || label->get_string().empty()) {
        in.d.error("schema", r.path_of("tower"), "carcassonne.watchtower.label");
      } else {
        tower = std::string(label->get_string());
      }
    }
    r.finish("schema");
    if (!player || !symbol || !count) return;
    Watchtower entry{*player, *symbol, *count, std::move(tower)};
    // D-8: one entry per player per watchtower.
    for (std::size_t i = 0; i < in.bonuses.watchtowers.size(); ++i) {
      const Watchtower& earlier = in.bonuses.watchtowers[i];
      if (earlier.player == entry.player && watchtower_key(earlier) == watchtower_key(entry)) {
        in.d.error(
            "D-8", path,
            i18n::Message("carcassonne.D-8.twice",
                          {{"player", i18n::PlayerRef{entry.player}}, {"earlier", paths[i]}}),
            entry.player);
        return;
      }
    }
    in.bonuses.watchtowers.push_back(std::move(entry));
    paths.push_back(path);
  });
}

void read_tollkeeper(BonusInput& in) {
  one_or_many(in.value, in.path, [&](const json::value& v, const std::string& path) {
    if (!v.is_object()) {
      in.d.error("schema", path,
                 i18n::Message("json.expected.object_shaped",
                               {{"shape", R"({"player","toll","roadside","travellers"})"}}));
      return;
    }
    ObjectReader r(v.get_object(), path, in.d);
    auto player = r.required_player("player");
    auto toll = r.required_count("toll", 1, 2, "tollkeeper");
    auto roadside = r.count_or("roadside", 0, 0, kMaxCount, "tollkeeper");
    auto travellers = r.count_or("travellers", 0, 0, kMaxCount, "tollkeeper");
    r.finish("schema");
    if (player && toll) in.bonuses.tollkeepers.push_back({*player, *toll, roadside, travellers});
  });
}

void read_ringmaster(BonusInput& in) {
  one_or_many(in.value, in.path, [&](const json::value& v, const std::string& path) {
    if (!v.is_object()) {
      in.d.error("schema", path,
                 i18n::Message("json.expected.object_shaped",
                               {{"shape", R"({"player","circus_tiles"})"}}));
      return;
    }
    ObjectReader r(v.get_object(), path, in.d);
    auto player = r.required_player("player");
    auto tiles = r.required_count("circus_tiles", 0, 9, "ringmaster");
    r.finish("schema");
    if (player && tiles) in.bonuses.ringmasters.push_back({*player, *tiles});
  });
}

void read_darmstadt_church(BonusInput& in) {
  read_player_counts(in.value, in.path, "darmstadt_church", in.bonuses.darmstadt_church, in.d);
}

constexpr std::array<std::string_view, 3> kLeipzigQuarters = {"wainwrights", "coiners",
                                                              "bookbinders"};

void read_leipzig_sent(BonusInput& in) {
  if (!in.value.is_object()) {
    in.d.error(
        "schema", in.path,
        i18n::Message("json.expected.object_shaped", {{"shape", R"({"player","quarter"})"}}));
    return;
  }
  ObjectReader r(in.value.get_object(), in.path, in.d);
  auto player = r.required_player("player");
  auto quarter = r.required_choice("quarter", kLeipzigQuarters, "leipzig_sent");
  r.finish("schema");
  if (player && quarter) in.bonuses.leipzig_sent = LeipzigSent{*player, *quarter};
}

struct BonusSpec {
  std::string_view name;
  FeatureSet applies_to;
  bool during_play_only;  // not at final scoring (`complete` false)
  BonusRead read;
};

// §4.6 (and §4.3, §4.5): prolog and epilog figures, the features they apply to, and whether they
// exist only when a feature is completed during play.
constexpr FeatureSet kRingmasterFeatures =
    FeatureSet::all().without(kMonasteryFamily.without({F::monastery}) | FeatureSet{F::garden});

const BonusSpec kBonuses[] = {
    {"watchtower", kRoadAndCity, true, read_watchtower},
    {"tollkeeper", {F::road}, true, read_tollkeeper},
    {"gingerbread_man", {F::city}, true, read_gingerbread},
    {"teacher", FeatureSet::all(), false, read_bonus_player<&Bonuses::teacher>},
    {"wainwrights", {F::road}, false, read_bonus_players<&Bonuses::wainwrights>},
    {"coiners", {F::city}, false, read_bonus_players<&Bonuses::coiners>},
    {"bookbinders", kMonasteryFamily, false, read_bonus_players<&Bonuses::bookbinders>},
    {"leipzig_sent", {F::road}, false, read_leipzig_sent},
    {"darmstadt_church", {F::darmstadt_church}, false, read_darmstadt_church},
    {"ringmaster", kRingmasterFeatures, true, read_ringmaster},
    {"fairy", FeatureSet::all(), true, read_bonus_player<&Bonuses::fairy>},
    {"completer", {F::fortune_teller}, true, read_bonus_player<&Bonuses::completer>},
};

const BonusSpec* bonus_spec(std::string_view name) {
  for (const auto& b : kBonuses) {
    if (b.name == name) return &b;
  }
  return nullptr;
}

// --- tile_detail (§3) ---------------------------------------------------------------------------

struct TileDetailSpec {
  std::string_view name;
  std::int64_t c2;  // what one counts in the C2 edition
  std::int64_t c3;  // … and in C3 (D-1)
  FeatureSet applies_to;
};

constexpr FeatureSet kTiled{F::road, F::city, F::german_cathedral, F::field};
constexpr FeatureSet kRoads{F::road, F::german_cathedral};

// §3: what each kind of tile counts. Edition-dependent rows differ in the two columns.
constexpr std::array<TileDetailSpec, 13> kTileDetail = {{
    {"regular", 1, 1, kTiled},
    {"double_halves", 1, 1, kTiled},       // each half of a double tile: a regular tile
    {"triangular_squares", 1, 1, kTiled},  // a square with one or two triangular tiles
    {"wonder_squares", 1, 1, kTiled},      // each grid square of a wonder tile
    {"bridge_tiles", 1, 1, kRoads},        // a wooden bridge not on a counted tile
    {"tunnel_tiles", 1, 1, kRoads},
    {"labyrinth_tiles", 1, 1, kRoads},
    {"ferry_tiles", 1, 1, kRoads},
    {"leipzig_long_roads", 1, 2, kRoads},   // the long road on a Leipzig quarter tile
    {"long_branched_roads", 1, 2, kRoads},  // Notre-Dame / Stonehenge
    {"notre_dame_cities", 1, 2, {F::city}},
    {"circus_maximus_cities", 1, 4, {F::city}},
    {"alhambra_cities", 1, 3, {F::city}},
}};

std::int64_t count_tile_detail(const json::object& detail, const std::string& path, Feature feature,
                               const EngineRules& rules, Diagnostics& d) {
  ObjectReader r(detail, path, d);
  std::int64_t total = 0;
  for (const auto& row : kTileDetail) {
    if (!r.has(row.name)) continue;
    if (!row.applies_to.contains(feature)) {
      d.error("tile_detail", r.path_of(row.name),
              i18n::Message("carcassonne.not_for_feature",
                            {{"name", std::string(row.name)},
                             {"feature", std::string(name(feature))},
                             {"applies_to", row.applies_to.describe()}}));
      continue;
    }
    std::int64_t n = r.count_or(row.name, 0, 0, kMaxCount, "tile_detail");
    total += n * (rules.edition == Edition::c2 ? row.c2 : row.c3);
  }
  r.finish_vocabulary("tile_detail", "tile_kind");
  return total;
}

// --- The event's members ------------------------------------------------------------------------

constexpr std::array<std::string_view, 9> kFields = {"feature",     "complete", "tiles",
                                                     "tile_detail", "pennants", "figures",
                                                     "modifiers",   "bonuses",  "adjacent_feature"};

constexpr FeatureSet kTilesRequired{F::road, F::city, F::german_cathedral};

void read_tiles(ObjectReader& r, FeatureEvent& ev, const EngineRules& rules) {
  Diagnostics& d = r.diagnostics();
  bool has_tiles = r.has("tiles");
  bool has_detail = r.has("tile_detail");
  if ((has_tiles || has_detail) && !ev.in(kTiled)) {
    const bool squares =
        ev.in(kMonasteryFamily | FeatureSet{F::garden, F::german_castle, F::obelisk});
    d.error("tiles", r.path_of(has_tiles ? "tiles" : "tile_detail"),
            i18n::Message("carcassonne.tiles.not_counted",
                          {{"feature", std::string(name(ev.feature))},
                           {"hint", squares ? "neighbour_tiles" : "none"}}));
    return;
  }
  if (has_tiles && has_detail) {
    d.error("tiles", r.path_of("tile_detail"), "carcassonne.tiles.both");
    return;
  }
  if (has_tiles) {
    if (auto n = r.count("tiles")) {
      ev.tiles = *n;
      ev.has_tiles = true;
    }
  } else if (has_detail) {
    if (const auto* detail = r.object("tile_detail")) {
      ev.tiles = count_tile_detail(*detail, r.path_of("tile_detail"), ev.feature, rules, d);
      ev.has_tiles = true;
    }
  } else if (ev.in(kTilesRequired)) {
    d.error(
        "schema", r.path_of("tiles"),
        i18n::Message("carcassonne.tiles.required", {{"feature", std::string(name(ev.feature))}}));
  }
}

void read_figures(ObjectReader& r, FeatureEvent& ev) {
  Diagnostics& d = r.diagnostics();
  const json::array* list = r.array("figures");
  if (list == nullptr) return;
  std::vector<std::string_view> names;
  for (const auto& f : figure_specs()) names.push_back(f.name);
  for (std::size_t i = 0; i < list->size(); ++i) {
    std::string path = r.path_of("figures") + "[" + std::to_string(i) + "]";
    if (!(*list)[i].is_object()) {
      d.error("schema", path,
              i18n::Message("json.expected.object_shaped", {{"shape", R"({"player","figure"})"}}));
      continue;
    }
    ObjectReader fr((*list)[i].get_object(), path, d);
    auto player = fr.required_player("player");
    auto figure = fr.required_choice("figure", names, "figure");
    fr.finish("schema");
    if (!player || !figure) continue;
    const FigureSpec* spec = figure_named(*figure);
    if (!spec->stands_on.contains(ev.feature)) {
      d.error(
          "figure", path + ".figure",
          i18n::Message("carcassonne.figure.not_on", {{"figure", std::string(spec->name)},
                                                      {"feature", std::string(name(ev.feature))},
                                                      {"stands_on", spec->stands_on.describe()}}),
          *player);
      continue;
    }
    ev.figures.push_back({*player, spec});
  }
}

void read_modifiers(ObjectReader& r, FeatureEvent& ev, const EngineRules& rules) {
  Diagnostics& d = r.diagnostics();
  const json::object* mods = r.object("modifiers");
  if (mods == nullptr) return;
  for (const auto& member : *mods) {
    std::string path = r.path_of("modifiers") + "." + std::string(member.key());
    const ModifierSpec* spec = modifier_spec(member.key());
    if (spec == nullptr) {
      d.error("modifier", path,
              i18n::Message("carcassonne.modifier.unknown", {{"name", std::string(member.key())}}));
      continue;
    }
    if (member.value().is_null()) continue;  // absent
    if (!spec->applies_to.contains(ev.feature)) {
      d.error(std::string(spec->name), path,
              i18n::Message("carcassonne.not_for_feature",
                            {{"name", std::string(spec->name)},
                             {"feature", std::string(name(ev.feature))},
                             {"applies_to", spec->applies_to.describe()}}));
      continue;
    }
    ev.modifiers.given.emplace(spec->name);
    ModifierInput in{spec->name, member.value(), path, ev.modifiers, d, rules};
    spec->read(in);
  }
}

void read_bonuses(ObjectReader& r, FeatureEvent& ev) {
  Diagnostics& d = r.diagnostics();
  const json::object* bonuses = r.object("bonuses");
  if (bonuses == nullptr) return;
  for (const auto& member : *bonuses) {
    std::string path = r.path_of("bonuses") + "." + std::string(member.key());
    const BonusSpec* spec = bonus_spec(member.key());
    if (spec == nullptr) {
      d.error("bonus", path,
              i18n::Message("carcassonne.bonus.unknown", {{"name", std::string(member.key())}}));
      continue;
    }
    if (member.value().is_null()) continue;
    if (!spec->applies_to.contains(ev.feature)) {
      d.error(std::string(spec->name), path,
              i18n::Message("carcassonne.not_for_feature",
                            {{"name", std::string(spec->name)},
                             {"feature", std::string(name(ev.feature))},
                             {"applies_to", spec->applies_to.describe()}}));
      continue;
    }
    if (spec->during_play_only && !ev.complete) {
      // D-4 for the fairy; the others exist only when a feature is completed during play.
      d.error(spec->name == "fairy" ? "D-4" : std::string(spec->name), path,
              i18n::Message("carcassonne.bonus.during_play", {{"name", std::string(spec->name)}}));
      continue;
    }
    BonusInput in{spec->name, member.value(), path, ev.bonuses, d};
    spec->read(in);
  }
}

// The squares of a 3×3 (monastery family, garden): 9 when complete, else 1 + the neighbours.
std::int64_t square_tiles(const FeatureEvent& ev) {
  return ev.complete ? 9 : 1 + ev.modifiers.neighbour_tiles.value_or(0);
}

// The checks that need the whole event: legality (D-3) and coherence of the inputs.
void check_coherence(ObjectReader& r, const FeatureEvent& ev, FeatureRole role) {
  Diagnostics& d = r.diagnostics();
  const Modifiers& m = ev.modifiers;
  std::string mods = r.path_of("modifiers");

  // D-3: the mage and the witch on one feature is an illegal position.
  if (m.mage && m.witch) {
    d.error("D-3", mods, "carcassonne.D-3.mage_and_witch");
  }
  if (m.mage && ev.feature == F::field && !ev.has_tiles) {
    d.error("mage", mods + ".mage", "carcassonne.mage.field_tiles");
  }

  // Surveyor inputs belong to their scoring tile.
  struct SurveyorInput {
    std::string_view name;
    Surveyor tile;
  };
  constexpr std::array<SurveyorInput, 4> kSurveyorInputs = {{
      {"farmhouse_tiles", Surveyor::peasant_uprising},
      {"semicircle_only_tiles", Surveyor::bad_neighbourhood},
      {"city_segment_tiles", Surveyor::hermit_monastery},
      {"road_segment_tiles", Surveyor::pilgrimage_route},
  }};
  for (const auto& input : kSurveyorInputs) {
    if (m.given.contains(input.name) && !m.surveyor_is(input.tile)) {
      d.error(std::string(input.name), mods + "." + std::string(input.name),
              i18n::Message(
                  "carcassonne.surveyor.inactive",
                  {{"name", std::string(input.name)}, {"tile", std::string(name(input.tile))}}));
    }
  }
  if (m.farmhouse_tiles > ev.tiles && ev.feature == F::road) {
    d.error("farmhouse_tiles", mods + ".farmhouse_tiles", "carcassonne.surveyor.farmhouses");
  }
  if (m.semicircle_only_tiles > ev.tiles) {
    d.error("semicircle_only_tiles", mods + ".semicircle_only_tiles",
            "carcassonne.surveyor.semicircles");
  }
  if (ev.in(kMonasteryFamily)) {
    for (auto [input, value] : {std::pair{"city_segment_tiles", m.city_segment_tiles},
                                std::pair{"road_segment_tiles", m.road_segment_tiles}}) {
      if (value > square_tiles(ev)) {
        d.error(input, mods + "." + input, "carcassonne.surveyor.square");
      }
    }
  }

  // Tile counts a road or city must have.
  if (ev.feature == F::road && ev.has_tiles && ev.tiles + m.cathedral_segments == 0) {
    d.error("tiles", r.path_of("tiles"), "carcassonne.tiles.empty_road");
  }
  if (ev.feature == F::city && ev.has_tiles && ev.tiles == 0) {
    d.error("tiles", r.path_of("tiles"), "carcassonne.tiles.empty_city");
  }
  // D-6: City Gates marks a completed 1-tile city (the only 1-tile city that scores 4).
  if (m.city_gates && !(ev.complete && ev.tiles == 1)) {
    d.error("city_gates", mods + ".city_gates", "carcassonne.D-6.city_gates");
  }

  // neighbour_tiles / empty_neighbours: the squares around (§4.3, §4.5).
  struct Surround {
    FeatureSet features;
    std::int64_t around;  // squares around when complete
  };
  const std::array<Surround, 3> kSurrounds = {{
      {kMonasteryFamily | FeatureSet{F::garden}, 8},
      {{F::german_castle}, 10},
      {{F::obelisk}, 12},
  }};
  for (const auto& s : kSurrounds) {
    if (!s.features.contains(ev.feature) || !m.neighbour_tiles) continue;
    if (ev.complete && *m.neighbour_tiles != s.around) {
      d.error("neighbour_tiles", mods + ".neighbour_tiles",
              i18n::Message("carcassonne.neighbours.complete",
                            {{"feature", std::string(name(ev.feature))}, {"around", s.around}}));
    } else if (!ev.complete && *m.neighbour_tiles >= s.around) {
      d.error("neighbour_tiles", mods + ".neighbour_tiles",
              i18n::Message("carcassonne.neighbours.incomplete",
                            {{"most", s.around - 1}, {"around", s.around}}));
    }
  }
  if (ev.feature == F::baba_yaga_hut) {
    std::int64_t empty = m.empty_neighbours.value_or(0);
    if (ev.complete && empty != 0) {
      d.error("empty_neighbours", mods + ".empty_neighbours", "carcassonne.hut.surrounded");
    } else if (!ev.complete && !m.empty_neighbours) {
      d.error("schema", mods + ".empty_neighbours", "carcassonne.hut.required");
    } else if (!ev.complete && (empty < 1 || empty > 8)) {
      d.error("empty_neighbours", mods + ".empty_neighbours", "carcassonne.hut.range");
    }
  }

  // §4.4: the barn's scenario fixes when the field scores and who scores.
  if (ev.feature == F::field) {
    bool barn_figure = std::any_of(ev.figures.begin(), ev.figures.end(), [](const PlacedFigure& f) {
      return f.spec->figure == Figure::barn;
    });
    bool farmers = std::any_of(ev.figures.begin(), ev.figures.end(),
                               [](const PlacedFigure& f) { return f.spec->follower; });
    bool during_play = m.barn == Barn::placed || m.barn == Barn::connected;
    if (ev.complete != during_play) {
      d.error("barn", r.path_of("complete"),
              during_play ? "carcassonne.barn.during_play" : "carcassonne.barn.final_scoring");
    }
    if (m.barn == Barn::none && barn_figure && role == FeatureRole::scored) {
      d.error("barn", mods + ".barn", "carcassonne.barn.scenario");
    }
    if (m.barn == Barn::final && role == FeatureRole::scored) {
      if (!barn_figure) {
        d.error("barn", r.path_of("figures"), "carcassonne.barn.list_barns");
      }
      if (farmers) {
        d.error("barn", r.path_of("figures"), "carcassonne.barn.no_farmers");
      }
    }
  }

  // §4.5 castle: scored when the first feature in its area is completed during play.
  if (ev.feature == F::castle) {
    if (!ev.complete) {
      d.error("castle", r.path_of("complete"), "carcassonne.castle.complete");
    }
  }

  // §4.6 Markets of Leipzig: no quarter bonus on the turn the follower was sent.
  if (const auto& sent = ev.bonuses.leipzig_sent) {
    const std::vector<std::string>* quarter =
        sent->quarter == "wainwrights" ? &ev.bonuses.wainwrights
        : sent->quarter == "coiners"   ? &ev.bonuses.coiners
                                       : &ev.bonuses.bookbinders;
    if (std::find(quarter->begin(), quarter->end(), sent->player) != quarter->end()) {
      d.error(sent->quarter, r.path_of("bonuses") + "." + sent->quarter,
              i18n::Message("carcassonne.leipzig.sent", {{"player", i18n::PlayerRef{sent->player}},
                                                         {"quarter", sent->quarter}}),
              sent->player);
    }
  }
}

}  // namespace

std::optional<FeatureEvent> read_feature_event(ObjectReader& r, const EngineRules& rules,
                                               FeatureRole role) {
  Diagnostics& d = r.diagnostics();
  std::size_t errors_before = d.errors.size();
  auto feature_name = r.required_choice("feature", feature_names(), "feature");
  if (!feature_name) {
    for (auto field : kFields) r.has(field);  // one error about the feature is enough
    return std::nullopt;
  }
  FeatureEvent ev;
  ev.feature = *feature_named(*feature_name);

  if (role == FeatureRole::scored) {
    ev.complete = r.required_boolean("complete").value_or(false);
  } else {
    // Nested: the role fixes it (a castle's area feature was just completed; a dispatch or
    // sweeper values a feature as at final scoring). Giving it is allowed when it agrees.
    bool fixed = role == FeatureRole::castle_area;
    ev.complete = fixed;
    if (auto given = r.boolean("complete"); given && *given != fixed) {
      d.error("complete", r.path_of("complete"),
              fixed ? "carcassonne.complete.castle_area" : "carcassonne.complete.final_value");
    }
  }

  read_tiles(r, ev, rules);
  if (r.has("pennants")) {
    if (ev.feature != F::city) {
      d.error("pennants", r.path_of("pennants"), "carcassonne.pennants.cities_only");
    } else {
      ev.pennants = r.count_or("pennants", 0);
    }
  }
  if (role == FeatureRole::castle_area) {
    for (auto field : {"figures", "bonuses"}) {
      if (r.has(field)) {
        d.error("castle", r.path_of(field), "carcassonne.castle.area_figures");
      }
    }
  } else {
    read_figures(r, ev);
    if (role == FeatureRole::scored) {
      read_bonuses(r, ev);
    } else if (r.has("bonuses")) {
      d.error("bonus", r.path_of("bonuses"), "carcassonne.bonus.not_here");
    }
  }
  read_modifiers(r, ev, rules);

  if (ev.feature == F::castle) {
    if (role != FeatureRole::scored) {
      d.error("castle", r.path(), "carcassonne.castle.nested");
    } else if (const json::object* adjacent = r.object("adjacent_feature")) {
      ObjectReader ar(*adjacent, r.path_of("adjacent_feature"), d);
      auto inner = read_feature_event(ar, rules, FeatureRole::castle_area);
      ar.finish("schema");
      if (inner) {
        if (inner->feature == F::castle) {
          d.error("castle", ar.path_of("feature"), "carcassonne.castle.area_castle");
        } else {
          ev.adjacent = std::make_shared<FeatureEvent>(std::move(*inner));
        }
      }
    } else if (!r.has("adjacent_feature")) {
      d.error("schema", r.path_of("adjacent_feature"), "carcassonne.castle.adjacent_required");
    }
  } else if (r.has("adjacent_feature")) {
    d.error("castle", r.path_of("adjacent_feature"), "carcassonne.castle.adjacent_only");
  }

  check_coherence(r, ev, role);
  if (d.errors.size() != errors_before) return std::nullopt;
  return ev;
}

std::vector<std::string_view> feature_event_field_names() {
  std::vector<std::string_view> out(kFields.begin(), kFields.end());
  out.push_back("player");  // the members of a `figures` entry
  out.push_back("figure");
  return out;
}

std::vector<std::string_view> modifier_names() {
  std::vector<std::string_view> out;
  for (const auto& m : kModifiers) out.push_back(m.name);
  return out;
}

std::vector<std::string_view> bonus_names() {
  std::vector<std::string_view> out;
  for (const auto& b : kBonuses) out.push_back(b.name);
  // The members of the bonus objects.
  for (auto n : {"player", "symbol", "count", "tower", "toll", "roadside", "travellers",
                 "circus_tiles", "quarter"}) {
    out.push_back(n);
  }
  for (auto s : kWatchtowerSymbols) out.push_back(s);
  for (auto q : kLeipzigQuarters) out.push_back(q);
  return out;
}

std::vector<std::string_view> tile_detail_names() {
  std::vector<std::string_view> out;
  for (const auto& t : kTileDetail) out.push_back(t.name);
  out.push_back("besieged");  // the member of a field's `cities` entries
  return out;
}

std::optional<FeatureSet> modifier_applies_to(std::string_view name) {
  if (const auto* m = modifier_spec(name)) return m->applies_to;
  return std::nullopt;
}

std::optional<FeatureSet> bonus_applies_to(std::string_view name) {
  if (const auto* b = bonus_spec(name)) return b->applies_to;
  return std::nullopt;
}

}  // namespace tally::projections::carcassonne
