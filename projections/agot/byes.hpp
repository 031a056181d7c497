// Byes (agot.md "Seating"): with n players to seat and n mod 6 = k ≠ 0, k of them sit the round
// out with a bye — a missed round, 0 points. No event records a bye: a player had one in a round
// when they were in the tournament as it was seated (registered, not dropped) and sat at none of
// its tables.
//
// Thread safety: pure functions.
#pragma once

#include "projections/tournament.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tally::projections::agot {

// Whether the player was in the tournament when `round` was seated: registered before it and
// not dropped before it.
bool in_tournament_at(const projections::Player& player, std::uint32_t round);

// The players in the tournament when `round` was seated who sit at none of its tables
// (registration order).
std::vector<std::string> round_byes(const projections::Tournament& t,
                                    const projections::Round& round);

// Byes per player (every registered player, 0 included) over the rounds before `before_round`
// (0: every round seated so far).
std::map<std::string, int> bye_counts(const projections::Tournament& t, std::uint32_t before_round);

// The `k` of `order` (players in rating order, best first) who sit out: the fewest byes so far
// first (nobody gets a second bye while someone else has none), among those the lowest rated.
// Returned in `order`'s order. A player missing from `byes` has had none.
// REQUIRES: k <= order.size().
std::vector<std::string> choose_byes(const std::vector<std::string>& order,
                                     const std::map<std::string, int>& byes, std::size_t k);

}  // namespace tally::projections::agot
