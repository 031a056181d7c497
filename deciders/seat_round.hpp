// Command `SeatRound` (POST /v1/tournaments/{t}/rounds; its preview POST …/rounds/check):
// seat the next round by the game's seating (random, by standings, manual).
//
//   - A round is seated only once the previous one is fully reported, unless forced with a
//     reason (conflict, rule `round.unreported`, naming the tables).
//   - The game seats it, or refuses with its rules (unprocessable `api.seating.refused`).
//   - S-9: a seating that puts two kept-apart players at one table (the game found none
//     without, or a manual seating did) is refused, unprocessable `seating.kept_apart.refused`,
//     one error per pair (rule `S-9`, field `tables`, the pair in `players`), unless forced with
//     a reason; forced, each pair is said in the seating's notes.
//   - S-10: the tables are then renumbered for the players' fixed tables
//     (projections/keep_apart.hpp); what could not be honoured is in the notes.
//
// Seating a big field takes seconds: the daemon decides it on a copy of the tournament, outside
// the state's lock, and keeps the decision only while the tournament is still as copied.
//
// Thread safety: pure function.
#pragma once

#include "deciders/decision.hpp"
#include "projections/game.hpp"
#include "projections/tournament.hpp"

#include <string>

namespace tally::deciders {

struct SeatRound {
  // The method, seed (the caller draws one when none is given, kept across retries), manual
  // tables and reason; its round is the tournament's next.
  projections::SeatingRequest request;
  bool force = false;  // seat although the last round has unreported tables …
  std::string reason;  // … saying why (required with force: the body's reader checks)
};

// The seating the game made (the preview shows it; the answer reads the event).
struct SeatingFacts {
  projections::Seating seating;
};

// A seating's tables into its event (the stages' seatings write theirs the same way).
void write_tables(schema::RoundSeated::Builder seated,
                  const std::vector<projections::SeatedTable>& tables);

// Appends `round_seated` to the tournament's stream.
Decision<SeatingFacts> decide(const projections::Tournament& t, const projections::Game& game,
                              const SeatRound& command, const Actor& actor);

}  // namespace tally::deciders
