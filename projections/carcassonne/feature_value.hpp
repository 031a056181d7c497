// The value of a feature (carcassonne.md §4): what each majority holder receives before the
// per-player adjustments. Each feature's value is a table of terms that reads like the spec, in
// the order of D-2: base → modifiers that change counts or per-tile values → mage → witch →
// surveyor Wealth / Poverty → add-ons that are never halved.
//
// Thread safety: pure functions over constant tables.
#pragma once

#include "projections/carcassonne/feature_event.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tally::projections::carcassonne {

// D-2's steps, in order. `outcome` is what comes after (a lost challenge scores 0).
enum class Stage : std::uint8_t { base = 1, counts, mage, witch, surveyor, addons, outcome };

struct ValueItem {
  Stage stage = Stage::base;
  std::string rule;
  std::optional<std::int64_t> count;
  std::int64_t points = 0;
};

struct FeatureValue {
  std::vector<ValueItem> items;
  std::int64_t total() const;
};

FeatureValue feature_value(const FeatureEvent& event);

// The feature's actual number of tiles (the mage, the Wainwrights): no Highway, no Bad
// Neighbourhood; the German cathedrals on a road count one tile together.
std::int64_t actual_tiles(const FeatureEvent& event);

// Every line name a feature's value can produce, and each value table's stages in table order
// (tests check that every table follows D-2).
std::vector<std::string> value_rule_names();
std::vector<std::pair<std::string, std::vector<Stage>>> value_tables();

}  // namespace tally::projections::carcassonne
