// S-9 and S-10 for every game's seating (docs/games/seating-constraints.md):
//
//   - `not_kept_apart`: the kept-apart pairs (Tournament::kept_apart) a seating puts at one
//     table — what the seating decider refuses (rule S-9) unless the organizer forces it.
//   - `separate_kept_apart`: moves players between tables by swaps until no kept-apart pair
//     shares a table, as far as swaps the game allows can: the repair each game's own seating
//     ends with, after its own search (which already weighs keep-apart where it can). A swap is
//     taken only when it lowers the number of pairs not kept apart and the game's hard rules
//     accept both tables after it (AGoT houses); among those, the one the game prefers (the
//     least rise in repeat opponents, the least move in the rating). When no such swap exists,
//     a seeded sideways swap (no more pairs together, the game's rules kept) is tried, a
//     bounded number of times.
//   - `renumber_fixed_tables`: S-10 — after the tables are formed, the table of a player with a
//     fixed table is given that number; who sits with whom is unchanged. A number above the
//     round's table count, or a second fixed number at one table, or a number another table
//     took already, is said in the notes; the player registered earlier keeps theirs.
//
// Thread safety: pure functions.
#pragma once

#include "i18n/message.hpp"
#include "projections/tournament.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tally::projections {

// A kept-apart pair seated together.
struct NotKeptApart {
  std::uint32_t table = 0;  // the table's number
  std::string first;        // in the table's seat order
  std::string second;
};

// The kept-apart pairs at each table of `tables`, table by table.
std::vector<NotKeptApart> not_kept_apart(const Tournament& tournament,
                                         const std::vector<SeatedTable>& tables);

// Tables as lists of player ids (a seating before it is numbered).
using TableGroups = std::vector<std::vector<std::string>>;

struct SeparateOptions {
  // Whether the game's hard rules take these two tables (after a swap). Default: always.
  std::function<bool(const std::vector<std::string>&, const std::vector<std::string>&)> allowed;
  // The game's preferences, lower better; the cheapest improving swap is taken. `table_cost`:
  // what one table costs (repeat opponents), counted as the change at the two tables a swap
  // touches; `swap_cost`: what moving `a` and `b` (each to the other's table) costs (how far
  // apart they are in the rating). Default: nothing.
  std::function<std::int64_t(const std::vector<std::string>& table)> table_cost;
  std::function<std::int64_t(const std::string& a, const std::string& b)> swap_cost;
  std::uint64_t seed = 0;               // the sideways swaps' draw
  std::uint32_t sideways_tries = 2000;  // sideways swaps before it gives up
};

// Swaps players between `tables` until no kept-apart pair shares a table, or no swap the game
// allows helps. Returns the pairs still together (0 when it succeeded). Table sizes never change.
std::size_t separate_kept_apart(const Tournament& tournament, TableGroups& tables,
                                const SeparateOptions& options = {});

// S-10: renumbers `tables` (numbered 1…N in any order) so that a player's fixed table has that
// number, the other tables keeping their order in the numbers left; sorted by the new numbers.
// What could not be honoured is appended to `notes`.
void renumber_fixed_tables(const Tournament& tournament, std::vector<SeatedTable>& tables,
                           std::vector<i18n::Message>& notes);

}  // namespace tally::projections
