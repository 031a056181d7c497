// Rule `round.unreported`: a round counts as played once every table of it has a result in the
// game's terms. Seating the next round and closing a round both need it, unless forced with a
// reason.
//
// Thread safety: pure functions.
#pragma once

#include "deciders/decision.hpp"
#include "projections/game.hpp"
#include "projections/tournament.hpp"

#include <cstdint>
#include <vector>

namespace tally::deciders {

// The tables of `round` that have no result yet, by number.
std::vector<std::uint32_t> unreported_tables(const projections::Tournament& t,
                                             const projections::Game& game,
                                             const projections::Round& round);

// The conflict refusal naming `open`, the unreported tables of `round`, at the field `force`
// (rule `round.unreported`, with "tables"); `detail_key` says what could not be done.
Refusal unreported_refusal(std::uint32_t round, const std::vector<std::uint32_t>& open,
                           const char* detail_key);

}  // namespace tally::deciders
