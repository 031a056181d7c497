// The search behind Catan seating (catan.md §6): given who met whom in earlier rounds, seat
// players at tables of fixed sizes with the fewest repeat opponents.
//
// "Fewest" is exact: the repeat cost of a seating is the sum, over every pair of players at the
// same table, of the number of earlier rounds in which that pair already shared a table; the
// search returns a seating whose cost is the least that any seating with these table sizes
// allows, and says so (`proven_minimum`), whenever
//   - it finds a seating without repeats (0 is a lower bound), or
//   - its exact branch-and-bound search finishes within its node budget (always, in practice,
//     up to about 16 players; repeats are rarely forced with more).
// Otherwise it returns the best seating found, proven_minimum false.
//
// How: a local search (swap two players at different tables when that lowers the cost),
// restarted from seeded random perturbations of the best seating; then, if repeats remain, the
// exact search, which starts from that bound. Among seatings of equal cost a secondary cost,
// Σ weight(player) · table index, is lowered by the same local search: with weights falling
// with the standings rank it keeps better-ranked players at lower tables (the natural
// standings seating is its minimum), so that a repeat is avoided by moving up the best-ranked
// player who can take the place. It is a preference, not a guarantee.
//
// Budget: the whole search is given `SearchOptions::budget` steps (swaps tried, and the exact
// search's work), counted, not timed; it checks after each player's swaps and each exact node,
// and once past the budget stops with the best seating found so far, valid and with the
// repeats it claims, and says so (`stopped_at_budget`).
//
// Speed: a descent tries only the swaps that touch a table changed since the seating was last a
// local minimum (the others cannot lower the cost), so a restart costs about players × changed
// tables instead of players², with exactly the same swaps as trying every pair; a swap of two
// players who meet no one at their tables is dismissed at once unless it lowers the placement.
//
// Deterministic: the same input, seed and budget give the same seating (no clock).
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

namespace tally::projections::catan {

// meetings[i][j]: how many earlier rounds players i and j shared a table (symmetric, 0 on the
// diagonal).
using Meetings = std::vector<std::vector<std::uint32_t>>;
// tables[t]: the players (indices) at table t, in seat order.
using Tables = std::vector<std::vector<std::size_t>>;

// A uniform index below `n` (> 0) from the generator, by rejection, so that it is the same with
// every standard library (uniform_int_distribution's algorithm is unspecified).
std::size_t uniform_below(std::mt19937_64& rng, std::size_t n);

// The repeat cost: Σ over co-seated pairs of their earlier meetings.
std::uint64_t repeat_cost(const Meetings& meetings, const Tables& tables);

struct SearchOptions {
  // Per player, the weight of sitting one table further down; empty: no preference.
  std::vector<std::uint64_t> weight;
  // Seeds the perturbations of the local search.
  std::uint64_t seed = 0;
  // Restarts of the local search from a perturbed best seating. Default: 200.
  std::uint32_t restarts = 200;
  // Nodes the exact search may visit before it gives up proving. Default: 3,000,000.
  std::uint64_t exact_budget = 3'000'000;
  // Steps the whole search may take (0: no limit): 1 per swap the local search dismisses at
  // once, 4 per swap whose repeats it works out (about the time each takes), and per node of the
  // exact search the work of its bound (unplaced players × tables, + players). Past it the
  // search stops and returns the best seating found so far. Default: 400,000,000, about 0.5–0.8 s
  // on the development machine (docs/performance.md); 1,000 players by standings in round 10
  // take about 300,000,000.
  static constexpr std::uint64_t kDefaultBudget = 400'000'000;
  std::uint64_t budget = kDefaultBudget;
};

struct SearchResult {
  Tables tables;  // the sizes of `start`, table by table
  std::uint64_t repeats = 0;
  bool proven_minimum = false;
  bool stopped_at_budget = false;  // the budget ran out: the best found, not a finished search
  std::uint64_t steps = 0;         // the steps taken (see SearchOptions::budget)
};

// REQUIRES: `start` seats every player 0..meetings.size()-1 exactly once; weight, when given,
// has one entry per player.
SearchResult minimise_repeats(const Meetings& meetings, const Tables& start,
                              const SearchOptions& options);

}  // namespace tally::projections::catan
