#include "projections/carcassonne/feature_value.hpp"

#include <functional>
#include <map>

namespace tally::projections::carcassonne {

namespace {

using F = Feature;
using Ev = FeatureEvent;
using Count = std::function<std::int64_t(const Ev&)>;
using When = std::function<bool(const Ev&)>;

// One row of a feature's table. `kind` says how its points come about:
//   per_unit — count × per (no line when nothing is counted);
//   flat     — `per` points once;
//   becomes  — the total so far becomes `per` (the Highway tile: the count is 5);
//   halve    — the witch: the total so far halved, rounded up;
//   cancel   — the total so far is lost (an inn or cathedral left incomplete, a lost challenge).
enum class Kind : std::uint8_t { per_unit, flat, becomes, halve, cancel };

struct Term {
  Stage stage;
  std::string rule;  // a leading "." is prefixed with the feature's name: ".tile" → "abbey.tile"
  Kind kind;
  When when;
  Count count;
  Count per;
};

Count constant(std::int64_t n) {
  return [n](const Ev&) { return n; };
}
const When always = [](const Ev&) { return true; };

Term per(Stage stage, std::string rule, Count count, Count per_unit, When when = always) {
  return {stage,           std::move(rule),  Kind::per_unit,
          std::move(when), std::move(count), std::move(per_unit)};
}
Term per(Stage stage, std::string rule, Count count, std::int64_t per_unit, When when = always) {
  return per(stage, std::move(rule), std::move(count), constant(per_unit), std::move(when));
}
Term flat(Stage stage, std::string rule, std::int64_t points, When when = always,
          Count count = nullptr) {
  return {stage, std::move(rule), Kind::flat, std::move(when), std::move(count), constant(points)};
}
Term cancel(Stage stage, std::string rule, When when) {
  return {stage, std::move(rule), Kind::cancel, std::move(when), nullptr, nullptr};
}

// --- What the terms count and when they apply -------------------------------------------------

std::int64_t ceil_half(std::int64_t n) { return n >= 0 ? (n + 1) / 2 : -((-n) / 2); }

When surveyor(Surveyor s) {
  return [s](const Ev& e) { return e.modifiers.surveyor_is(s); };
}
When modifier(bool Modifiers::*flag) {
  return [flag](const Ev& e) { return e.modifiers.*flag; };
}
Count number(std::int64_t Modifiers::*member) {
  return [member](const Ev& e) { return e.modifiers.*member; };
}
// Complete during play / at final scoring (§4.2: 2 per tile and pennant, 1 at final scoring).
Count complete_or(std::int64_t complete, std::int64_t final_scoring) {
  return [=](const Ev& e) { return e.complete ? complete : final_scoring; };
}

const Count tiles = [](const Ev& e) { return e.tiles; };
const Count pennants = [](const Ev& e) { return e.pennants; };
const Count cathedral_segments = number(&Modifiers::cathedral_segments);
const Count actual = [](const Ev& e) { return actual_tiles(e); };
const When mage = modifier(&Modifiers::mage);
const When inn_left_incomplete = [](const Ev& e) { return e.modifiers.inn && !e.complete; };

// §4.1: the road's count for per-tile modifiers — tiles and cathedral segments, or 5 with the
// Highway tile (for the base, the German cathedral end and the inn; not for the mage).
const Count road_count = [](const Ev& e) {
  return e.modifiers.surveyor_is(Surveyor::highway) ? 5 : e.tiles + e.modifiers.cathedral_segments;
};

// §4.2, D-6: a completed 1-tile city marked `city_gates` scores 4 instead of its tiles; any other
// completed 1-tile city (one closed by an abbey tile) scores 2 per tile and pennant as usual.
const When city_gate = [](const Ev& e) {
  return e.modifiers.city_gates && e.complete && e.tiles == 1;
};
const When not_city_gate = [](const Ev& e) { return !city_gate(e); };
// D-7: Darmstadtium and vineyards score only when the feature is completed during play; at final
// scoring they give nothing.
const When completed = [](const Ev& e) { return e.complete; };
// The city's counted tiles: Bad Neighbourhood leaves out the semicircle-only tiles (base,
// besiegers, cathedral; not the mage).
const Count city_counted_tiles = [](const Ev& e) {
  return e.tiles - (e.modifiers.surveyor_is(Surveyor::bad_neighbourhood)
                        ? e.modifiers.semicircle_only_tiles
                        : 0);
};
const Count city_counted_units = [](const Ev& e) { return city_counted_tiles(e) + e.pennants; };

// §4.3: the 3×3 square — 9 when complete, else 1 + the neighbouring tiles.
const Count squares = [](const Ev& e) {
  return e.complete ? 9 : 1 + e.modifiers.neighbour_tiles.value_or(0);
};

// §4.4: the field's cities and castles.
const Count field_cities = [](const Ev& e) {
  return static_cast<std::int64_t>(e.modifiers.cities.size());
};
const Count field_besieged = [](const Ev& e) {
  std::int64_t n = 0;
  for (bool besieged : e.modifiers.cities) n += besieged ? 1 : 0;
  return n;
};
const Count field_castles = number(&Modifiers::castles);
const Count field_cities_and_castles = [](const Ev& e) {
  return field_cities(e) + field_castles(e);
};
// Farmers: 3 per city and 4 per castle, without a barn or when a barn is placed (scenario 1);
// 1 and 2 when connected to a field with a barn (scenario 2).
const Count farmer_city_points = [](const Ev& e) {
  return e.modifiers.barn == Barn::connected ? 1 : 3;
};
const Count farmer_castle_points = [](const Ev& e) {
  return e.modifiers.barn == Barn::connected ? 2 : 4;
};
// A besieged city counts double: once more its value, the pig herd's +1 included.
const Count farmer_besieged_points = [](const Ev& e) {
  return farmer_city_points(e) + (e.modifiers.pig_herd ? 1 : 0);
};

// --- Rows shared by several features ------------------------------------------------------------

Term mage_term() { return per(Stage::mage, "mage", actual, 1, mage); }
Term witch_term() {
  return {Stage::witch, "witch", Kind::halve, modifier(&Modifiers::witch), nullptr, nullptr};
}
Term poverty_term() {
  return flat(Stage::surveyor, "surveyor.poverty", -3, surveyor(Surveyor::poverty));
}
Term wealth_term() {
  return flat(Stage::surveyor, "surveyor.wealth", 3, surveyor(Surveyor::wealth));
}

// Little buildings: basic rules +1 each; variant shed +1, house +2, tower +3.
std::vector<Term> building_terms() {
  std::vector<Term> out;
  auto specs = building_specs();
  for (std::size_t i = 0; i < specs.size(); ++i) {
    out.push_back(per(
        Stage::addons, "buildings." + std::string(specs[i].name),
        [i](const Ev& e) { return e.modifiers.buildings[i]; }, specs[i].points));
  }
  return out;
}

Term german_castles_term() {
  return per(Stage::addons, "german_castles", number(&Modifiers::german_castles), 3);
}

// A list of numbers summed (bathhouses: + the number on each; signposts: + the correct types).
Term sum_term(std::string rule, std::vector<std::int64_t> Modifiers::*list) {
  Count count = [list](const Ev& e) {
    return static_cast<std::int64_t>((e.modifiers.*list).size());
  };
  Term t = flat(
      Stage::addons, std::move(rule), 0,
      [list](const Ev& e) { return !(e.modifiers.*list).empty(); }, count);
  t.per = [list](const Ev& e) {
    std::int64_t sum = 0;
    for (auto n : e.modifiers.*list) sum += n;
    return sum;
  };
  return t;
}

std::vector<Term> concat(std::initializer_list<std::vector<Term>> parts) {
  std::vector<Term> out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

// --- The features --------------------------------------------------------------------------------

// §4.1 Road.
const std::vector<Term>& road_terms() {
  static const std::vector<Term> terms = concat({
      {
          per(Stage::base, "road.tile", tiles, 1),
          per(Stage::base, "road.cathedral_segment", cathedral_segments, 1),
          // Highway: the count is 5 whatever the length — the difference to the base.
          {Stage::counts, "surveyor.highway", Kind::becomes, surveyor(Surveyor::highway),
           constant(5), constant(5)},
          per(Stage::counts, "surveyor.peasant_uprising", number(&Modifiers::farmhouse_tiles), -1,
              surveyor(Surveyor::peasant_uprising)),
          per(Stage::counts, "surveyor.street_fair", road_count, 1,
              surveyor(Surveyor::street_fair)),
          per(Stage::counts, "german_cathedral_end", road_count, 1,
              modifier(&Modifiers::german_cathedral_end)),
          per(Stage::counts, "inn", road_count, 1, modifier(&Modifiers::inn)),
          // An inn on a road left incomplete at final scoring: the road scores 0.
          cancel(Stage::counts, "inn.incomplete", inn_left_incomplete),
          mage_term(),
          witch_term(),
          poverty_term(),
      },
      building_terms(),
      {
          german_castles_term(),
          sum_term("bathhouses", &Modifiers::bathhouses),
          sum_term("signposts", &Modifiers::signposts),
          // Labyrinth (advanced rules): +2 per follower on the road network.
          per(Stage::addons, "labyrinth_followers", number(&Modifiers::labyrinth_followers), 2),
      },
  });
  return terms;
}

// §4.2 City.
const std::vector<Term>& city_terms() {
  static const std::vector<Term> terms = concat({
      {
          per(Stage::base, "city.tile", tiles, complete_or(2, 1), not_city_gate),
          flat(Stage::base, "city.gate", 4, city_gate, constant(1)),
          per(Stage::base, "city.pennant", pennants, complete_or(2, 1)),
          // Bad Neighbourhood: the semicircle-only tiles are not counted.
          per(
              Stage::counts, "surveyor.bad_neighbourhood",
              number(&Modifiers::semicircle_only_tiles),
              [](const Ev& e) { return e.complete ? -2 : -1; },
              surveyor(Surveyor::bad_neighbourhood)),
          // Siege tile: +0 per tile, +1 per pennant.
          per(Stage::counts, "surveyor.siege", pennants, 1, surveyor(Surveyor::siege)),
          // Besiegers / Cathars: −1 per tile and per pennant.
          per(Stage::counts, "besieged", city_counted_units, -1, modifier(&Modifiers::besieged)),
          // Cathedral: +1 per tile and per pennant; left incomplete, the city scores 0.
          per(Stage::counts, "cathedral", city_counted_units, 1, modifier(&Modifiers::cathedral)),
          cancel(Stage::counts, "cathedral.incomplete",
                 [](const Ev& e) { return e.modifiers.cathedral && !e.complete; }),
          mage_term(),
          witch_term(),
          wealth_term(),
          poverty_term(),
      },
      building_terms(),
      {
          german_castles_term(),
          sum_term("bathhouses", &Modifiers::bathhouses),
          sum_term("signposts", &Modifiers::signposts),
          flat(Stage::addons, "darmstadtium", 3,
               [](const Ev& e) { return e.modifiers.darmstadtium && completed(e); }),
      },
  });
  return terms;
}

// §4.3 The monastery family.
const std::vector<Term>& monastery_terms() {
  static const std::vector<Term> terms = concat({
      {
          per(Stage::base, ".tile", squares, 1),
          per(Stage::counts, "surveyor.hermit_monastery", number(&Modifiers::city_segment_tiles),
              -1, surveyor(Surveyor::hermit_monastery)),
          per(Stage::counts, "surveyor.pilgrimage_route", number(&Modifiers::road_segment_tiles), 1,
              surveyor(Surveyor::pilgrimage_route)),
          mage_term(),
          witch_term(),
          wealth_term(),
          per(Stage::addons, "vineyards", number(&Modifiers::vineyards), 3, completed),
      },
      building_terms(),
      {
          // Challenge: the one completed second scores 0.
          cancel(Stage::outcome, "challenge_lost", modifier(&Modifiers::challenge_lost)),
      },
  });
  return terms;
}

// §4.4 Field: farmers (no barn, scenario 1 and 2).
const std::vector<Term>& field_terms() {
  static const std::vector<Term> terms = concat({
      {
          per(Stage::base, "field.city", field_cities, farmer_city_points),
          per(Stage::base, "field.castle", field_castles, farmer_castle_points),
          per(Stage::counts, "pig_herd", field_cities_and_castles, 1,
              modifier(&Modifiers::pig_herd)),
          per(Stage::counts, "field.besieged", field_besieged, farmer_besieged_points),
          mage_term(),
          witch_term(),
      },
      building_terms(),
  });
  return terms;
}

// §4.4 Field: the barns at final scoring.
const std::vector<Term>& barn_terms() {
  static const std::vector<Term> terms = concat({
      {
          per(Stage::base, "barn.city", field_cities, 4),
          per(Stage::base, "barn.castle", field_castles, 5),
          per(Stage::counts, "field.besieged", field_besieged, 4),
          mage_term(),
          witch_term(),
      },
      building_terms(),
  });
  return terms;
}

// §4.5 Baba Yaga's hut: 1 for the tile + 1 per empty square around it.
const std::vector<Term>& baba_yaga_terms() {
  static const std::vector<Term> terms = concat({
      {
          flat(Stage::base, "baba_yaga_hut.tile", 1, always, constant(1)),
          per(
              Stage::base, "baba_yaga_hut.empty_square",
              [](const Ev& e) { return e.modifiers.empty_neighbours.value_or(0); }, 1),
          mage_term(),
          witch_term(),
      },
      building_terms(),
  });
  return terms;
}

// §4.5 Garden: 1 per tile in the 3×3 (vineyards do not count).
const std::vector<Term>& garden_terms() {
  static const std::vector<Term> terms = concat(
      {{per(Stage::base, "garden.tile", squares, 1), mage_term(), witch_term()}, building_terms()});
  return terms;
}

// §4.5 German castle: 2 + 1 per tile in the 10 squares around.
const std::vector<Term>& german_castle_terms() {
  static const std::vector<Term> terms = concat({
      {
          flat(Stage::base, "german_castle.square", 2, always, constant(2)),
          per(
              Stage::base, "german_castle.tile",
              [](const Ev& e) { return e.complete ? 10 : e.modifiers.neighbour_tiles.value_or(0); },
              1),
          mage_term(),
          witch_term(),
      },
      building_terms(),
  });
  return terms;
}

// §4.5 German cathedral: 1 per road segment on cathedral tiles + 1 per road tile; inn.
const std::vector<Term>& german_cathedral_terms() {
  static const std::vector<Term> terms = concat({
      {
          per(Stage::base, "german_cathedral.segment", cathedral_segments, 1),
          per(Stage::base, "german_cathedral.road_tile", tiles, 1),
          per(
              Stage::counts, "inn",
              [](const Ev& e) { return e.tiles + e.modifiers.cathedral_segments; }, 1,
              modifier(&Modifiers::inn)),
          cancel(Stage::counts, "inn.incomplete", inn_left_incomplete),
          mage_term(),
          witch_term(),
      },
      building_terms(),
  });
  return terms;
}

// §4.5 Graveyard: 0 points; the majority holder takes a guard.
const std::vector<Term>& graveyard_terms() {
  static const std::vector<Term> terms =
      concat({{flat(Stage::base, "graveyard.guard", 0, always, constant(1))}, building_terms()});
  return terms;
}

// §4.5 Fortune teller: 0 points (little buildings on it and its 4 neighbours).
const std::vector<Term>& fortune_teller_terms() {
  static const std::vector<Term> terms = concat(
      {{flat(Stage::base, "fortune_teller.tent", 0, always, constant(1))}, building_terms()});
  return terms;
}

// §4.5 Obelisk: 16 — its 4 squares and the 12 around.
const std::vector<Term>& obelisk_terms() {
  static const std::vector<Term> terms = concat({
      {
          flat(Stage::base, "obelisk.square", 4, always, constant(4)),
          per(
              Stage::base, "obelisk.tile",
              [](const Ev& e) { return e.complete ? 12 : e.modifiers.neighbour_tiles.value_or(0); },
              1),
          mage_term(),
          witch_term(),
      },
      building_terms(),
  });
  return terms;
}

const std::vector<Term>& no_terms() {
  static const std::vector<Term> terms;
  return terms;
}

const std::vector<Term>& terms_for(const Ev& e) {
  if (kMonasteryFamily.contains(e.feature)) return monastery_terms();
  switch (e.feature) {
    case F::road:
      return road_terms();
    case F::city:
      return city_terms();
    case F::field:
      return e.modifiers.barn == Barn::final ? barn_terms() : field_terms();
    case F::baba_yaga_hut:
      return baba_yaga_terms();
    case F::garden:
      return garden_terms();
    case F::german_castle:
      return german_castle_terms();
    case F::german_cathedral:
      return german_cathedral_terms();
    case F::graveyard:
      return graveyard_terms();
    case F::fortune_teller:
      return fortune_teller_terms();
    case F::obelisk:
      return obelisk_terms();
    default:
      return no_terms();  // the castle: its area feature's value (below)
  }
}

void evaluate(const std::vector<Term>& terms, const Ev& e, FeatureValue& value) {
  std::int64_t so_far = value.total();
  for (const auto& t : terms) {
    if (!t.when(e)) continue;
    std::string rule = t.rule.starts_with(".") ? std::string(name(e.feature)) + t.rule : t.rule;
    ValueItem item{t.stage, std::move(rule), std::nullopt, 0};
    switch (t.kind) {
      case Kind::per_unit: {
        std::int64_t n = t.count(e);
        if (n == 0) continue;
        item.count = n;
        item.points = n * t.per(e);
        break;
      }
      case Kind::flat:
        if (t.count) item.count = t.count(e);
        item.points = t.per(e);
        break;
      case Kind::becomes:
        item.count = t.count(e);
        item.points = t.per(e) - so_far;
        break;
      case Kind::halve:
        item.points = ceil_half(so_far) - so_far;
        break;
      case Kind::cancel:
        item.points = -so_far;
        break;
    }
    so_far += item.points;
    value.items.push_back(std::move(item));
  }
}

}  // namespace

std::int64_t FeatureValue::total() const {
  std::int64_t sum = 0;
  for (const auto& i : items) sum += i.points;
  return sum;
}

std::int64_t actual_tiles(const FeatureEvent& e) {
  if (kMonasteryFamily.contains(e.feature)) return squares(e);
  std::int64_t around = e.modifiers.neighbour_tiles.value_or(0);
  switch (e.feature) {
    case F::road:
      return e.tiles + (e.modifiers.cathedral_segments > 0 ? 1 : 0);
    case F::city:
      return e.tiles;
    case F::field:
      return e.tiles;
    case F::garden:
      return squares(e);
    case F::german_castle:
      return e.complete ? 12 : 2 + around;
    case F::obelisk:
      return e.complete ? 16 : 4 + around;
    case F::baba_yaga_hut:
      return 1 + 8 - e.modifiers.empty_neighbours.value_or(0);
    case F::german_cathedral:
      return e.tiles + 1;
    default:
      return 0;
  }
}

FeatureValue feature_value(const FeatureEvent& e) {
  FeatureValue value;
  if (e.feature == F::castle) {
    // §4.5: the castle's occupier scores the full value of the feature completed in its area.
    if (e.adjacent) value = feature_value(*e.adjacent);
    return value;
  }
  evaluate(terms_for(e), e, value);
  return value;
}

std::vector<std::string> value_rule_names() {
  std::vector<std::string> out;
  for (const auto* table :
       {&road_terms(), &city_terms(), &monastery_terms(), &field_terms(), &barn_terms(),
        &baba_yaga_terms(), &garden_terms(), &german_castle_terms(), &german_cathedral_terms(),
        &graveyard_terms(), &fortune_teller_terms(), &obelisk_terms()}) {
    for (const auto& t : *table) {
      if (t.rule.starts_with(".")) {
        for (auto f : feature_names()) {
          if (kMonasteryFamily.contains(*feature_named(f))) out.push_back(std::string(f) + t.rule);
        }
      } else {
        out.push_back(t.rule);
      }
    }
  }
  return out;
}

std::vector<std::pair<std::string, std::vector<Stage>>> value_tables() {
  std::vector<std::pair<std::string, std::vector<Stage>>> out;
  auto add = [&](std::string name, const std::vector<Term>& terms) {
    std::vector<Stage> stages;
    for (const auto& t : terms) stages.push_back(t.stage);
    out.emplace_back(std::move(name), std::move(stages));
  };
  add("road", road_terms());
  add("city", city_terms());
  add("monastery family", monastery_terms());
  add("field", field_terms());
  add("field with barns", barn_terms());
  add("baba_yaga_hut", baba_yaga_terms());
  add("garden", garden_terms());
  add("german_castle", german_castle_terms());
  add("german_cathedral", german_cathedral_terms());
  add("graveyard", graveyard_terms());
  add("fortune_teller", fortune_teller_terms());
  add("obelisk", obelisk_terms());
  return out;
}

}  // namespace tally::projections::carcassonne
