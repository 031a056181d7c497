// Command `RoundClock` (POST /v1/tournaments/{t}/rounds/{r}/clock): start, pause, resume,
// extend or stop a round's clock. Whether the action is allowed now is the clock's own rule
// (projections/round_clock.hpp); a refusal is a conflict naming the round, at field `action`.
//
// Thread safety: pure function.
#pragma once

#include "deciders/decision.hpp"
#include "deciders/lookup.hpp"
#include "projections/tournament.hpp"

#include <cstdint>
#include <string>

namespace tally::deciders {

struct RoundClock {
  RoundAddress round;
  schema::ClockAction action = schema::ClockAction::START;
  std::uint32_t minutes = 0;  // start and extend (the body's reader checks the range)
  std::string reason;         // required to extend (the body's reader checks)
  std::int64_t now_us = 0;    // the server's time when the command came
};

// Appends `round_clock` to the tournament's stream.
Decision<> decide(const projections::Tournament* t, const RoundClock& command, const Actor& actor);

}  // namespace tally::deciders
