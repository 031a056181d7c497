// Command `CloseRound` (POST /v1/tournaments/{t}/rounds/{r}/close): the organizer closes the
// newest round — its standings become the round's, and a final round ends the event.
//
//   - Only the newest round, and only once (conflict `api.round.close_not_last`,
//     `api.round.closed_already`).
//   - Every table has a result, unless forced with a reason (conflict, rule `round.unreported`).
//   - `final` defaults to whether this is the last planned round (`rules.rounds`).
//
// Thread safety: pure function.
#pragma once

#include "deciders/decision.hpp"
#include "deciders/lookup.hpp"
#include "projections/game.hpp"
#include "projections/tournament.hpp"

#include <optional>
#include <string>

namespace tally::deciders {

struct CloseRound {
  RoundAddress round;
  std::optional<bool> final;  // not given: the last planned round is the final one
  bool force = false;         // close although tables have no result …
  std::string reason;         // … saying why (required with force; the body's reader checks)
};

// Appends `round_closed` to the tournament's stream. `game` is t's (null with t).
Decision<> decide(const projections::Tournament* t, const projections::Game* game,
                  const CloseRound& command, const Actor& actor);

}  // namespace tally::deciders
