// The scoring events of carcassonne.md §5 (step 3C and the other turn phases): one JSON shape per
// event kind, `{"event":"circus","animal":4,"followers":{"red":2}}` and so on (the shapes are in
// docs/games/carcassonne.md). Each kind is a row of a table: its name, its members and how it
// scores.
//
// Thread safety: pure functions over constant tables.
#pragma once

#include "projections/carcassonne/feature_event.hpp"
#include "projections/carcassonne/json_reader.hpp"
#include "projections/carcassonne/scoring.hpp"

#include <optional>
#include <string_view>
#include <vector>

namespace tally::projections::carcassonne {

// Reads and scores the §5 event in `reader` (whose "event" member names the kind). Errors go to
// the reader's diagnostics; nullopt when refused. The caller finishes the reader.
std::optional<Scoring> score_turn_event(ObjectReader& reader, const EngineRules& rules);

// The event kinds, their members and the values of their choices (for known_names()).
std::vector<std::string_view> turn_event_names();
// The rule names the §5 events produce (for the vocabulary tests).
std::vector<std::string> turn_event_rule_names();

}  // namespace tally::projections::carcassonne
