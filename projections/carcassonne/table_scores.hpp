// A table's game score from its recorded scoring events (carcassonne.md §2, §7): the scorings in
// effect, replayed in table order through the engine and the score track. A correction takes the
// place of the scoring it supersedes.
//
// Thread safety: pure functions.
#pragma once

#include "projections/carcassonne/engine.hpp"
#include "projections/carcassonne/rules.hpp"
#include "projections/carcassonne/score_track.hpp"
#include "projections/tournament.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tally::projections::carcassonne {

// The scoring actions in effect in table order: a correction stands where the action it
// supersedes stood (by the superseded seq), anything else by its own seq.
std::vector<const projections::Action*> scorings_in_order(const projections::TableState& table);

// Where a scoring stands in table order.
std::uint64_t table_position(std::uint64_t seq, std::uint64_t supersedes);

// The JSON of a stored scoring event (CarcassonneScoring.event).
std::optional<boost::json::value> scoring_json(const projections::Action& action);

struct ReplayStep {
  std::uint64_t seq = 0;  // the action (0: a proposal not yet stored)
  Scoring scoring;        // empty when the stored event no longer scores (see `errors`)
  projections::RuleErrors errors;
  std::vector<std::string> ransom_shortfalls;
  ScoreTrack after;  // the totals after this event
};

struct Replay {
  std::vector<ReplayStep> steps;
  ScoreTrack totals;
};

// Replays the table's scorings. `proposal` (with its position) is inserted as if stored, replacing
// the action at that position when it is a correction.
struct Proposal {
  const boost::json::value* event = nullptr;
  std::uint64_t position = 0;    // table_position of the proposal
  std::uint64_t supersedes = 0;  // the seq it replaces, if any
};
Replay replay_scorings(const std::vector<std::string>& players,
                       const projections::TableState* table, const EngineRules& rules,
                       std::optional<Proposal> proposal = std::nullopt);

}  // namespace tally::projections::carcassonne
