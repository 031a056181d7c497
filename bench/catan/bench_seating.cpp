// The Catan seating search (projections/catan/seating_search.hpp) seating a round by standings
// with repeat-opponent minimisation, for 100, 300, 1,000 and 3,000 players, after 3 and after 9
// earlier rounds. The requirement: 1,000 players within one second.
//
// The histories are deterministic (seed 2026), hard and cheap to build: round 1 is a random draw,
// later rounds seat the standings order in chunks (1–4 at table 1 …) without avoiding repeats,
// so neighbours in the standings have met often; results are a random order at each table (3, 2,
// 1, 0 points) with a random tie-break per player. The round being seated is by standings: the
// standings order with weights falling with the rank, as seat_catan_round passes them.
//
// Counters: repeats (the repeat cost of the seating found), start_repeats (that of the plain
// standings seating), placement (the secondary cost, Σ weight · table index, as the search counts
// it), proven (1 when the minimum is proven), budget (1 when the search stopped at its budget),
// Msteps (the steps it took, in millions). One iteration: before the change, 3,000 players took
// over a minute.
//
//   build/bench/bench/bench-catan-seating --benchmark_counters_tabular=true
#include "projections/catan/seating.hpp"
#include "projections/catan/seating_search.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

namespace {

namespace catan = tally::projections::catan;

struct Problem {
  catan::Meetings meetings;  // by standings rank
  catan::Tables start;       // the standings order in chunks
  std::vector<std::uint64_t> weight;
};

catan::Tables chunks(const std::vector<std::size_t>& order, const std::vector<std::size_t>& sizes) {
  catan::Tables out;
  std::size_t next = 0;
  for (auto s : sizes) {
    out.emplace_back(order.begin() + static_cast<std::ptrdiff_t>(next),
                     order.begin() + static_cast<std::ptrdiff_t>(next + s));
    next += s;
  }
  return out;
}

// The players by score (points, then the tie-break), best first.
std::vector<std::size_t> standings(const std::vector<std::uint64_t>& points,
                                   const std::vector<std::uint64_t>& tiebreak) {
  std::vector<std::size_t> order(points.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return points[a] != points[b] ? points[a] > points[b] : tiebreak[a] > tiebreak[b];
  });
  return order;
}

// The problem of seating round `earlier + 1` of `n` players by standings.
Problem make_problem(std::size_t n, int earlier) {
  std::mt19937_64 rng(2026);
  const auto sizes = *catan::table_sizes(n);
  catan::Meetings met(n, std::vector<std::uint32_t>(n, 0));
  std::vector<std::uint64_t> points(n, 0), tiebreak(n, 0);
  for (int round = 1; round <= earlier; ++round) {
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    if (round == 1) {
      for (std::size_t i = n; i > 1; --i)
        std::swap(order[i - 1], order[catan::uniform_below(rng, i)]);
    } else {
      order = standings(points, tiebreak);
    }
    for (auto& table : chunks(order, sizes)) {
      for (auto a : table) {
        for (auto b : table) {
          if (a != b) ++met[a][b];
        }
      }
      for (std::size_t i = table.size(); i > 1; --i) {
        std::swap(table[i - 1], table[catan::uniform_below(rng, i)]);
      }
      for (std::size_t place = 0; place < table.size(); ++place) {
        points[table[place]] += 3 - std::min<std::size_t>(place, 3);
        tiebreak[table[place]] += rng() % 10;
      }
    }
  }
  // Renumber the players by rank, as seat_catan_round does.
  const auto order = standings(points, tiebreak);
  Problem p;
  p.meetings.assign(n, std::vector<std::uint32_t>(n, 0));
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) p.meetings[i][j] = met[order[i]][order[j]];
  }
  std::vector<std::size_t> ranks(n);
  std::iota(ranks.begin(), ranks.end(), 0);
  p.start = chunks(ranks, sizes);
  for (std::size_t rank = 0; rank < n; ++rank) p.weight.push_back(n - rank);
  return p;
}

// args: players, earlier rounds
void by_standings(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto problem = make_problem(n, static_cast<int>(state.range(1)));
  catan::SearchOptions options;
  options.weight = problem.weight;
  catan::SearchResult found;
  for (auto _ : state) {
    found = catan::minimise_repeats(problem.meetings, problem.start, options);
    benchmark::DoNotOptimize(found);
  }
  std::uint64_t placement = 0;
  for (std::size_t t = 0; t < found.tables.size(); ++t) {
    for (auto p : found.tables[t]) placement += problem.weight[p] * t;
  }
  state.counters["repeats"] = static_cast<double>(found.repeats);
  state.counters["start_repeats"] =
      static_cast<double>(catan::repeat_cost(problem.meetings, problem.start));
  state.counters["placement"] = static_cast<double>(placement);
  state.counters["proven"] = found.proven_minimum ? 1 : 0;
  state.counters["budget"] = found.stopped_at_budget ? 1 : 0;
  state.counters["Msteps"] = static_cast<double>(found.steps) / 1e6;
}
BENCHMARK(by_standings)
    ->ArgsProduct({{100, 300, 1000, 3000}, {3, 9}})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->Repetitions(1);

}  // namespace

BENCHMARK_MAIN();
