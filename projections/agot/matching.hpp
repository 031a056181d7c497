// Bipartite matching of players to houses (G-1/G-2 feasibility): each player takes one of the
// houses it may still play, each house seats a given number of players. When no complete
// assignment exists, the answer carries a witness of why (Hall's condition): a group of players
// whose houses, all taken, seat fewer of them than there are.
//
// Thread safety: pure functions.
#pragma once

#include "projections/agot/houses.hpp"

#include <cstddef>
#include <optional>
#include <vector>

namespace tally::projections::agot {

// A capacitated bipartite matching: `options[p]` lists the slots player p may take, `capacity[s]`
// how many players slot s seats. Augmenting paths (Kuhn), players tried in order. `start` (per
// player, -1 for none) is kept where it is still one of the player's options and fits, and only
// the other players are placed: a solver that changes one player's options re-places little.
struct Assignment {
  std::vector<int> slot_of;  // per player; -1 when unassigned
  // Empty exactly when every player has a slot. Otherwise a Hall witness: every slot that any of
  // `blocked_players` may take is in `blocked_slots`, and those slots together seat fewer players
  // than `blocked_players` holds.
  std::vector<std::size_t> blocked_players;
  std::vector<int> blocked_slots;

  bool complete() const { return blocked_players.empty(); }
};
Assignment assign(const std::vector<std::vector<int>>& options, const std::vector<int>& capacity,
                  const std::vector<int>& start = {});

// Houses for players who sit at `tables` tables of six (each house seated `tables` times), each
// player among `available[p]`. With tables == 1: six different houses at one table (≤ 6 players;
// with fewer, the houses left over stay free).
struct HouseMatch {
  std::vector<House> houses;  // per player, when complete
  // When not complete: these players can only play `short_houses`, which seat only
  // `tables * short_houses.size()` players.
  std::vector<std::size_t> short_players;
  HouseSet short_houses;

  bool complete() const { return short_players.empty(); }
};
HouseMatch match_houses(const std::vector<HouseSet>& available, int tables = 1);

}  // namespace tally::projections::agot
