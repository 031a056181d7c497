// Robbers (carcassonne.md §6): a robber next to a scoring marker takes half of the primary points
// of the first scoring event that moves that marker, rounded up. The robbed player keeps their
// points; points gained by robbing are never robbed; negative points are not robbed; the teacher's
// copied points are a separate, later event (D-5).
//
// Recorded on the event that moves the marker: "robbers": [{"player":"blue","robs":"red"}].
//
// Thread safety: pure functions.
#pragma once

#include "projections/carcassonne/json_reader.hpp"
#include "projections/carcassonne/scoring.hpp"

#include <string>
#include <vector>

namespace tally::projections::carcassonne {

struct Robbery {
  std::string robber;  // the robber's owner, who takes the points
  std::string robbed;  // the player whose marker the robber stands next to
  std::string field;   // where it was given, for errors
};

// Reads the optional top-level `robbers` member.
std::vector<Robbery> read_robbers(ObjectReader& reader);

// Adds each robber's line to `scoring`; refuses a robbery of a player the event does not score.
void apply_robbers(const std::vector<Robbery>& robberies, Scoring& scoring, Diagnostics& d);

}  // namespace tally::projections::carcassonne
