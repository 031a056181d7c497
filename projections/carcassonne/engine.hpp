// The Carcassonne scoring engine: one scoring event (carcassonne.md §2) in, the points per player
// and the breakdown out. A feature event (§4) has a `feature`; any other event (§5) an `event`
// kind; either may carry `robbers` (§6).
//
// Thread safety: pure functions.
#pragma once

#include "projections/carcassonne/feature_event.hpp"
#include "projections/carcassonne/json_reader.hpp"
#include "projections/carcassonne/scoring.hpp"
#include "projections/game.hpp"

#include <boost/json/value.hpp>

#include <vector>

namespace tally::projections::carcassonne {

struct ScoredEvent {
  Scoring scoring;
  // Every player name the event mentions, with its field (a tournament checks they are seated).
  std::vector<PlayerMention> players;
};

// Refused with every problem at once: unknown names ("feature", "modifier", "bonus", "event"),
// wrong types ("schema"), negative counts and modifiers that do not apply (the name as the rule),
// illegal positions (D-3, D-4).
projections::Outcome<ScoredEvent> score_event(const boost::json::value& event,
                                              const EngineRules& rules);

}  // namespace tally::projections::carcassonne
