// House picks at one table (agot.md §2): after seating, players pick their houses in rating order.
// A pick is accepted only when the house is available to the player (G-2), not yet taken at the
// table (G-1), and the players still without a house can all be completed (a matching exists).
// A refusal names the houses that would be accepted.
//
// Thread safety: value types and pure functions.
#pragma once

#include "projections/agot/game_result.hpp"
#include "projections/agot/houses.hpp"
#include "projections/game.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tally::projections::agot {

struct PickTable {
  std::vector<std::string> players;          // seated, in rating order (the pick order)
  std::vector<HouseHistory> history;         // per player: houses played in other rounds (G-2)
  std::vector<std::optional<House>> picked;  // per player: the accepted pick

  std::optional<std::size_t> index_of(const std::string& player) const;
  HouseSet taken() const;
};

// The houses the player at `index` could pick now (all three conditions).
HouseSet acceptable_picks(const PickTable& table, std::size_t index);

// Every reason the pick is refused; empty when accepted. (Whether the player already picked or
// the table has a result is the caller's: those are about the actions, not the houses.)
projections::RuleErrors check_pick(const PickTable& table, const std::string& player, House house);

// Houses for the players without one, in pick order, each the first house in board order that
// keeps the rest completable. Refused (G-2, with why) when the table cannot be completed.
projections::Outcome<std::vector<std::pair<std::string, House>>> complete_picks(PickTable table);

}  // namespace tally::projections::agot
