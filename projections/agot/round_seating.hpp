// Seating an AGoT round (agot.md §1, §2): round 1 is a seeded random draw without leagues;
// rounds 2..N are seated by the league solver over the rating (method `standings`); a manual
// seating is validated (6 per table, known active players once each, every table able to seat
// six different houses) and needs a reason when it departs from the solver. Players beyond a
// multiple of six sit out with a bye (byes.hpp): in round 1 the last drawn, later the lowest
// rated of those with the fewest byes; the seating's notice names them.
//
// Thread safety: pure functions.
#pragma once

#include "projections/agot/ledger.hpp"
#include "projections/game.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tally::projections::agot {

projections::Outcome<projections::Seating> seat_round(const Ledger& ledger,
                                                      const projections::SeatingRequest& request);

// The league solver's seating of `players` for `round` (rating over rounds 1..round−1), those
// beyond a multiple of six left out with a bye, or why there is none (a message for the
// organizer; its arguments also tell a notice why: `problem` "count" or "houses").
struct StandingsSeating {
  std::optional<std::vector<projections::SeatedTable>> tables;
  std::vector<std::string> byes;  // in rating order; chosen even when the rest cannot be seated
  std::string rule;               // "seating" (the player count) or "G-2" (the houses)
  i18n::Message why;
};
StandingsSeating standings_seating(const Ledger& ledger, std::uint32_t round,
                                   const std::vector<std::string>& players);

// 0..n−1 shuffled by a seeded std::mt19937_64 with our own unbiased Fisher–Yates, so that a
// stored seed replays the same draw on every standard library.
std::vector<std::size_t> seeded_permutation(std::size_t n, std::uint64_t seed);

}  // namespace tally::projections::agot
