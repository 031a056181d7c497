#include "projections/catan/seating_search.hpp"

#include "projections/catan/seating.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <random>

namespace tally::projections::catan {
namespace {

// The least repeat cost over every seating at tables of `sizes`, by plain enumeration (no
// pruning): the reference the search is held to.
std::uint64_t exhaustive_minimum(const Meetings& m, const std::vector<std::size_t>& sizes) {
  Tables tables(sizes.size());
  std::uint64_t best = UINT64_MAX;
  std::function<void(std::size_t)> seat = [&](std::size_t p) {
    if (p == m.size()) {
      best = std::min(best, repeat_cost(m, tables));
      return;
    }
    for (std::size_t t = 0; t < tables.size(); ++t) {
      if (tables[t].size() == sizes[t]) continue;
      bool alike_earlier = false;  // an earlier empty table of this size is the same choice
      for (std::size_t u = 0; u < t && tables[t].empty(); ++u) {
        alike_earlier = alike_earlier || (tables[u].empty() && sizes[u] == sizes[t]);
      }
      if (alike_earlier) continue;
      tables[t].push_back(p);
      seat(p + 1);
      tables[t].pop_back();
    }
  };
  seat(0);
  return best;
}

Tables chunk(std::vector<std::size_t> players, const std::vector<std::size_t>& sizes) {
  Tables out;
  std::size_t next = 0;
  for (auto s : sizes) {
    out.emplace_back(players.begin() + next, players.begin() + next + s);
    next += s;
  }
  return out;
}

std::vector<std::size_t> shuffled(std::size_t n, std::mt19937_64& rng) {
  std::vector<std::size_t> v(n);
  std::iota(v.begin(), v.end(), 0);
  for (std::size_t i = n; i > 1; --i) std::swap(v[i - 1], v[uniform_below(rng, i)]);
  return v;
}

void add_round(Meetings& m, const Tables& tables) {
  for (const auto& t : tables) {
    for (auto a : t) {
      for (auto b : t) {
        if (a != b) ++m[a][b];
      }
    }
  }
}

// Every player exactly once, the sizes of `sizes`, and the cost it claims.
void expect_valid(const SearchResult& r, const Meetings& m, const std::vector<std::size_t>& sizes) {
  ASSERT_EQ(r.tables.size(), sizes.size());
  std::vector<int> seen(m.size(), 0);
  for (std::size_t t = 0; t < sizes.size(); ++t) {
    EXPECT_EQ(r.tables[t].size(), sizes[t]);
    for (auto p : r.tables[t]) ++seen[p];
  }
  EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
  EXPECT_EQ(r.repeats, repeat_cost(m, r.tables));
}

TEST(CatanSeatingSearch, RepeatCostCountsEveryEarlierMeetingOfCoSeatedPairs) {
  Meetings m(4, std::vector<std::uint32_t>(4, 0));
  m[0][1] = m[1][0] = 2;
  m[2][3] = m[3][2] = 1;
  EXPECT_EQ(repeat_cost(m, {{0, 1, 2, 3}}), 3u);
  EXPECT_EQ(repeat_cost(m, {{0, 2}, {1, 3}}), 0u);
}

// The search reaches the exhaustive minimum, and says it is proven, on random histories of
// every small size, with and without standings weights.
TEST(CatanSeatingSearch, ReachesTheExhaustiveMinimumOnSmallTournaments) {
  std::mt19937_64 rng(31337);
  int forced_repeats = 0;
  for (std::size_t n : {6, 7, 8, 9, 10, 11, 12, 13}) {
    const auto sizes = *table_sizes(n);
    const int histories = n == 13 ? 6 : 20;
    for (int h = 0; h < histories; ++h) {
      Meetings m(n, std::vector<std::uint32_t>(n, 0));
      const std::size_t rounds = 1 + rng() % 7;
      for (std::size_t r = 0; r < rounds; ++r) add_round(m, chunk(shuffled(n, rng), sizes));
      const std::uint64_t minimum = exhaustive_minimum(m, sizes);
      if (minimum > 0) ++forced_repeats;

      SearchOptions options;
      options.seed = rng();
      if (h % 2 == 1) {
        for (std::size_t p = 0; p < n; ++p) options.weight.push_back(n - p);
      }
      auto found = minimise_repeats(m, chunk(shuffled(n, rng), sizes), options);
      SCOPED_TRACE("n=" + std::to_string(n) + " history " + std::to_string(h));
      expect_valid(found, m, sizes);
      EXPECT_EQ(found.repeats, minimum);
      EXPECT_TRUE(found.proven_minimum);
    }
  }
  EXPECT_GT(forced_repeats, 40);  // the hard case (repeats that cannot be avoided) is covered
}

TEST(CatanSeatingSearch, WithoutRestartsTheExactSearchStillReachesTheMinimum) {
  // No restarts: only the first descent and then the exact search.
  std::mt19937_64 rng(99);
  for (int h = 0; h < 30; ++h) {
    const std::size_t n = 9 + h % 4;
    const auto sizes = *table_sizes(n);
    Meetings m(n, std::vector<std::uint32_t>(n, 0));
    for (int r = 0; r < 4; ++r) add_round(m, chunk(shuffled(n, rng), sizes));
    SearchOptions options;
    options.restarts = 0;
    auto found = minimise_repeats(m, chunk(shuffled(n, rng), sizes), options);
    expect_valid(found, m, sizes);
    EXPECT_EQ(found.repeats, exhaustive_minimum(m, sizes));
    EXPECT_TRUE(found.proven_minimum);
  }
}

// Larger tournaments: a seating without repeats is planted (earlier rounds never seat two
// players of the hidden seating together), so 0 is known to be reachable; the search finds
// such a seating from a random start.
TEST(CatanSeatingSearch, LargeTournamentsFindASeatingWithoutRepeatsWhenOneExists) {
  for (std::size_t n : {17, 24, 31, 40}) {
    std::mt19937_64 rng(n);
    const auto sizes = *table_sizes(n);
    const Tables hidden = chunk(shuffled(n, rng), sizes);
    std::vector<std::size_t> hidden_table(n);
    for (std::size_t t = 0; t < hidden.size(); ++t) {
      for (auto p : hidden[t]) hidden_table[p] = t;
    }
    Meetings m(n, std::vector<std::uint32_t>(n, 0));
    for (int round = 0; round < 4; ++round) {
      // A random earlier round that never seats two players of one hidden table together:
      // each player goes to the first table with room and no hidden table-mate.
      Tables earlier(sizes.size());
      bool seated_all = false;
      while (!seated_all) {
        for (auto& t : earlier) t.clear();
        seated_all = true;
        for (auto p : shuffled(n, rng)) {
          bool placed = false;
          for (std::size_t t = 0; t < sizes.size() && !placed; ++t) {
            if (earlier[t].size() == sizes[t]) continue;
            bool mate = std::any_of(earlier[t].begin(), earlier[t].end(), [&](std::size_t q) {
              return hidden_table[q] == hidden_table[p];
            });
            if (!mate) {
              earlier[t].push_back(p);
              placed = true;
            }
          }
          seated_all = seated_all && placed;
        }
      }
      add_round(m, earlier);
    }
    ASSERT_EQ(repeat_cost(m, hidden), 0u);
    SearchOptions options;
    options.seed = rng();
    auto found = minimise_repeats(m, chunk(shuffled(n, rng), sizes), options);
    SCOPED_TRACE("n=" + std::to_string(n));
    expect_valid(found, m, sizes);
    EXPECT_EQ(found.repeats, 0u);
    EXPECT_TRUE(found.proven_minimum);
  }
}

// Round after round of a mid-size tournament, each seating is proven to be the minimum (by a
// seating without repeats or by the exact search finishing within its budget).
TEST(CatanSeatingSearch, EveryRoundOfAMidSizeTournamentIsProvenMinimal) {
  for (std::size_t n : {14, 17, 20}) {
    std::mt19937_64 rng(n * 7);
    const auto sizes = *table_sizes(n);
    Meetings m(n, std::vector<std::uint32_t>(n, 0));
    add_round(m, chunk(shuffled(n, rng), sizes));
    for (int round = 2; round <= 7; ++round) {
      SearchOptions options;
      options.seed = rng();
      auto found = minimise_repeats(m, chunk(shuffled(n, rng), sizes), options);
      SCOPED_TRACE("n=" + std::to_string(n) + " round " + std::to_string(round));
      expect_valid(found, m, sizes);
      EXPECT_TRUE(found.proven_minimum);
      add_round(m, found.tables);
    }
  }
}

TEST(CatanSeatingSearch, DeterministicForOneSeed) {
  std::mt19937_64 rng(5);
  const std::size_t n = 13;
  const auto sizes = *table_sizes(n);
  Meetings m(n, std::vector<std::uint32_t>(n, 0));
  for (int r = 0; r < 5; ++r) add_round(m, chunk(shuffled(n, rng), sizes));
  const auto start = chunk(shuffled(n, rng), sizes);
  SearchOptions options;
  options.seed = 12345;
  auto first = minimise_repeats(m, start, options);
  auto again = minimise_repeats(m, start, options);
  EXPECT_EQ(first.tables, again.tables);
}

// A large by-standings problem: `n` players after `rounds` earlier rounds seated in the
// standings order (so that neighbours have met), and weights falling with the rank.
struct ByStandings {
  Meetings m;
  Tables start;
  std::vector<std::uint64_t> weight;
};
ByStandings by_standings(std::size_t n, int rounds, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const auto sizes = *table_sizes(n);
  ByStandings out{Meetings(n, std::vector<std::uint32_t>(n, 0)), {}, {}};
  add_round(out.m, chunk(shuffled(n, rng), sizes));
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  for (int r = 1; r < rounds; ++r) {
    // Standings that move a little: neighbours swap places at random.
    for (std::size_t i = 0; i + 1 < n; ++i) {
      if (rng() % 3 == 0) std::swap(order[i], order[i + 1]);
    }
    add_round(out.m, chunk(order, sizes));
  }
  out.start = chunk(order, sizes);
  for (std::size_t p = 0; p < n; ++p) out.weight.push_back(n - p);
  return out;
}

TEST(CatanSeatingSearch, ATinyBudgetStopsEarlySaysSoAndStillSeatsEveryone) {
  const auto problem = by_standings(200, 6, 17);
  const auto sizes = *table_sizes(200);
  SearchOptions options;
  options.weight = problem.weight;
  options.budget = 1'000;  // not even the first descent's first pass
  auto stopped = minimise_repeats(problem.m, problem.start, options);
  expect_valid(stopped, problem.m, sizes);
  EXPECT_TRUE(stopped.stopped_at_budget);
  EXPECT_GT(stopped.steps, options.budget);  // it stops at the first check past the budget …
  EXPECT_LT(stopped.steps, options.budget + 4 * 200);  // … which comes after each player's swaps
  EXPECT_LE(stopped.repeats, repeat_cost(problem.m, problem.start));  // never worse than the start
  if (stopped.repeats > 0) {
    EXPECT_FALSE(stopped.proven_minimum);
  }

  // With the default budget it finishes, and does at least as well.
  options.budget = SearchOptions::kDefaultBudget;
  auto finished = minimise_repeats(problem.m, problem.start, options);
  expect_valid(finished, problem.m, sizes);
  EXPECT_FALSE(finished.stopped_at_budget);
  EXPECT_LE(finished.steps, options.budget);
  EXPECT_LE(finished.repeats, stopped.repeats);
  // No limit: the same search.
  options.budget = 0;
  auto unlimited = minimise_repeats(problem.m, problem.start, options);
  EXPECT_EQ(unlimited.tables, finished.tables);
  EXPECT_EQ(unlimited.steps, finished.steps);
}

// The budget also stops the exact search: repeats forced (12 players after one round of three
// tables of 4 need 3), a budget that lets the local search finish but not the proof.
TEST(CatanSeatingSearch, TheBudgetAlsoStopsTheExactSearch) {
  const std::size_t n = 12;
  const auto sizes = *table_sizes(n);
  Meetings m(n, std::vector<std::uint32_t>(n, 0));
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  add_round(m, chunk(order, sizes));
  SearchOptions options;
  options.restarts = 0;
  auto full = minimise_repeats(m, chunk(order, sizes), options);
  ASSERT_EQ(full.repeats, 3u);
  ASSERT_TRUE(full.proven_minimum);
  ASSERT_FALSE(full.stopped_at_budget);
  // The first descent alone takes a few hundred steps; the proof takes more.
  options.budget = full.steps - 1;
  auto cut = minimise_repeats(m, chunk(order, sizes), options);
  expect_valid(cut, m, sizes);
  EXPECT_TRUE(cut.stopped_at_budget);
  EXPECT_FALSE(cut.proven_minimum);
  EXPECT_GE(cut.repeats, 3u);
}

// Same seed, same seating, at the size of a large event, with the budget reached (where it
// stops is a count of steps, not a clock) and with a different seed something else.
TEST(CatanSeatingSearch, DeterministicAtALargeSizeAlsoAtTheBudget) {
  const std::size_t n = 1000;
  const auto problem = by_standings(n, 9, 2026);
  const auto sizes = *table_sizes(n);
  SearchOptions options;
  options.weight = problem.weight;
  options.seed = 7;
  options.budget = 20'000'000;
  auto first = minimise_repeats(problem.m, problem.start, options);
  auto again = minimise_repeats(problem.m, problem.start, options);
  expect_valid(first, problem.m, sizes);
  EXPECT_EQ(first.tables, again.tables);
  EXPECT_EQ(first.steps, again.steps);
  EXPECT_EQ(first.stopped_at_budget, again.stopped_at_budget);
  EXPECT_EQ(first.repeats, 0u);  // the standings repeat many meetings; none is forced
}

TEST(CatanSeatingSearch, WithoutRepeatsToAvoidTheStartStands) {
  const std::size_t n = 11;
  Meetings m(n, std::vector<std::uint32_t>(n, 0));
  const Tables start = {{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10}};
  SearchOptions options;
  for (std::size_t p = 0; p < n; ++p) options.weight.push_back(n - p);
  EXPECT_EQ(minimise_repeats(m, start, options).tables, start);
  EXPECT_EQ(minimise_repeats(m, start, SearchOptions{}).tables, start);
}

}  // namespace
}  // namespace tally::projections::catan
