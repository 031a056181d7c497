// Who receives what for a scored feature (carcassonne.md §3, §4.6): prolog bonuses → the feature's
// value (feature_value.hpp) for each majority holder → per-player adjustments (pig, ghosts, the
// Leipzig ×0) → epilog bonuses (teacher, Markets of Leipzig, Darmstadt church, ringmaster, fairy,
// fortune teller).
//
// Thread safety: pure functions.
#pragma once

#include "projections/carcassonne/feature_event.hpp"
#include "projections/carcassonne/feature_value.hpp"
#include "projections/carcassonne/scoring.hpp"

#include <string>
#include <vector>

namespace tally::projections::carcassonne {

// The players holding the majority (§3): the highest strength, at least 1; Citizens' Jury: every
// player with a follower in the city; a field with barns at final scoring: the barns' owners.
// In the order the players first appear among the figures.
std::vector<std::string> majority_holders(const FeatureEvent& event);

Scoring score_feature(const FeatureEvent& event);

// The rule names score_feature() can add beyond the value's (for the vocabulary tests).
std::vector<std::string> feature_scoring_rule_names();

}  // namespace tally::projections::carcassonne
