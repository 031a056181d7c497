#include "projections/catan/seating_search.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>
#include <random>
#include <tuple>
#include <utility>

namespace tally::projections::catan {

namespace {

// A seating being improved, with where each player sits and both costs kept current.
class State {
 public:
  State(const Meetings& meetings, const std::vector<std::uint64_t>& weight, Tables tables)
      : m_(&meetings), weight_(&weight), tables_(std::move(tables)), table_of_(meetings.size()) {
    for (std::size_t t = 0; t < tables_.size(); ++t) {
      for (auto p : tables_[t]) table_of_[p] = t;
    }
    repeats_ = repeat_cost(meetings, tables_);
    for (std::size_t p = 0; p < table_of_.size(); ++p) placement_ += weight_of(p) * table_of_[p];
  }

  std::tuple<std::uint64_t, std::uint64_t> cost() const { return {repeats_, placement_}; }
  std::uint64_t repeats() const { return repeats_; }
  const Tables& tables() const { return tables_; }
  std::size_t players() const { return table_of_.size(); }
  std::size_t table_of(std::size_t p) const { return table_of_[p]; }

  // The change of both costs if a and b (at different tables) changed places.
  std::tuple<std::int64_t, std::int64_t> swap_delta(std::size_t a, std::size_t b) const {
    std::size_t ta = table_of_[a], tb = table_of_[b];
    auto met = [&](std::size_t p, std::size_t t, std::size_t skip) {
      std::int64_t sum = 0;
      for (auto q : tables_[t]) {
        if (q != p && q != skip) sum += (*m_)[p][q];
      }
      return sum;
    };
    std::int64_t repeats = met(a, tb, b) + met(b, ta, a) - met(a, ta, a) - met(b, tb, b);
    // a moves by tb − ta tables, b by the opposite.
    std::int64_t placement =
        (static_cast<std::int64_t>(weight_of(a)) - static_cast<std::int64_t>(weight_of(b))) *
        (static_cast<std::int64_t>(tb) - static_cast<std::int64_t>(ta));
    return {repeats, placement};
  }

  void swap(std::size_t a, std::size_t b) {
    auto [dr, dd] = swap_delta(a, b);
    std::size_t ta = table_of_[a], tb = table_of_[b];
    *std::find(tables_[ta].begin(), tables_[ta].end(), a) = b;
    *std::find(tables_[tb].begin(), tables_[tb].end(), b) = a;
    table_of_[a] = tb;
    table_of_[b] = ta;
    repeats_ = static_cast<std::uint64_t>(static_cast<std::int64_t>(repeats_) + dr);
    placement_ = static_cast<std::uint64_t>(static_cast<std::int64_t>(placement_) + dd);
  }

  // First-improvement descent over all swaps until none lowers (repeats, placement).
  void descend() {
    bool improved = true;
    while (improved) {
      improved = false;
      for (std::size_t a = 0; a < players(); ++a) {
        for (std::size_t b = a + 1; b < players(); ++b) {
          if (table_of_[a] == table_of_[b]) continue;
          auto [dr, dd] = swap_delta(a, b);
          if (dr < 0 || (dr == 0 && dd < 0)) {
            swap(a, b);
            improved = true;
          }
        }
      }
    }
  }

 private:
  std::uint64_t weight_of(std::size_t p) const { return weight_->empty() ? 0 : (*weight_)[p]; }

  const Meetings* m_;
  const std::vector<std::uint64_t>* weight_;
  Tables tables_;
  std::vector<std::size_t> table_of_;
  std::uint64_t repeats_ = 0;
  std::uint64_t placement_ = 0;  // Σ weight · table index
};

// Branch and bound over all seatings with the given table sizes, for one with fewer repeats
// than `bound`. Players are placed one by one, the tables of a player tried cheapest first; of
// several empty tables of one size only the first is tried (they are alike). A branch is cut
// when its cost plus a lower bound on what the unplaced players must still add reaches the best
// known: each unplaced player will sit at some table with room, and so will add at least its
// meetings with the players already there, at the cheapest such table.
class ExactSearch {
 public:
  ExactSearch(const Meetings& meetings, std::vector<std::size_t> sizes, std::uint64_t bound,
              std::uint64_t budget)
      : m_(meetings),
        sizes_(std::move(sizes)),
        best_(bound),
        budget_(budget),
        tables_(sizes_.size()),
        met_at_(meetings.size(), std::vector<std::uint64_t>(sizes_.size(), 0)),
        placed_(meetings.size(), false) {}

  void run() { place(0, 0); }
  bool finished() const { return !out_of_budget_; }
  const std::optional<Tables>& found() const { return found_; }

 private:
  void place(std::size_t placed, std::uint64_t cost) {
    if (out_of_budget_ || best_ == 0) return;
    if (++nodes_ > budget_) {
      out_of_budget_ = true;
      return;
    }
    if (placed == m_.size()) {
      best_ = cost;
      found_ = tables_;
      return;
    }
    // The bound, and the next player: the one whose cheapest table costs most (fail first).
    std::uint64_t bound = cost;
    std::size_t next = m_.size();
    std::uint64_t next_cheapest = 0;
    for (std::size_t p = 0; p < m_.size(); ++p) {
      if (placed_[p]) continue;
      std::uint64_t cheapest = UINT64_MAX;
      for (std::size_t t = 0; t < tables_.size(); ++t) {
        if (tables_[t].size() < sizes_[t]) cheapest = std::min(cheapest, met_at_[p][t]);
      }
      bound += cheapest;
      if (bound >= best_) return;
      if (next == m_.size() || cheapest > next_cheapest) {
        next = p;
        next_cheapest = cheapest;
      }
    }
    std::vector<std::pair<std::uint64_t, std::size_t>> choices;  // (added cost, table)
    for (std::size_t t = 0; t < tables_.size(); ++t) {
      if (tables_[t].size() == sizes_[t]) continue;
      if (tables_[t].empty() && alike_empty_table_before(t)) continue;
      choices.emplace_back(met_at_[next][t], t);
    }
    std::stable_sort(choices.begin(), choices.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [added, t] : choices) {
      // Sorted: no later choice can do better. (The bound counted `next` at its cheapest.)
      if (bound - next_cheapest + added >= best_) break;
      seat(next, t, true);
      place(placed + 1, cost + added);
      seat(next, t, false);
      if (out_of_budget_ || best_ == 0) return;
    }
  }

  void seat(std::size_t p, std::size_t t, bool in) {
    if (in) {
      tables_[t].push_back(p);
    } else {
      tables_[t].pop_back();
    }
    placed_[p] = in;
    for (std::size_t q = 0; q < m_.size(); ++q) {
      if (in) {
        met_at_[q][t] += m_[q][p];
      } else {
        met_at_[q][t] -= m_[q][p];
      }
    }
  }

  // Whether an earlier table of the same size is also still empty.
  bool alike_empty_table_before(std::size_t t) const {
    for (std::size_t u = 0; u < t; ++u) {
      if (tables_[u].empty() && sizes_[u] == sizes_[t]) return true;
    }
    return false;
  }

  const Meetings& m_;
  std::vector<std::size_t> sizes_;
  std::uint64_t best_;
  std::uint64_t budget_;
  std::uint64_t nodes_ = 0;
  bool out_of_budget_ = false;
  Tables tables_;
  std::vector<std::vector<std::uint64_t>> met_at_;  // [player][table]: meetings with those seated
  std::vector<bool> placed_;
  std::optional<Tables> found_;
};

// Repeated descents from seeded perturbations of the best seating so far.
State local_search(const Meetings& meetings, const std::vector<std::uint64_t>& weight, Tables start,
                   const SearchOptions& options) {
  State best(meetings, weight, std::move(start));
  best.descend();
  if (best.tables().size() < 2) return best;
  std::mt19937_64 rng(options.seed ^ 0x9e3779b97f4a7c15ULL);
  const std::size_t n = best.players();
  for (std::uint32_t r = 0; r < options.restarts; ++r) {
    if (best.repeats() == 0 && weight.empty()) break;  // nothing left to improve
    State trial = best;
    const std::size_t kicks = 2 + uniform_below(rng, 3);  // 2–4 random swaps
    for (std::size_t k = 0; k < kicks; ++k) {
      std::size_t a = uniform_below(rng, n), b = uniform_below(rng, n);
      if (trial.table_of(a) != trial.table_of(b)) trial.swap(a, b);
    }
    trial.descend();
    if (trial.cost() < best.cost()) best = std::move(trial);
  }
  return best;
}

}  // namespace

std::size_t uniform_below(std::mt19937_64& rng, std::size_t n) {
  const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  std::uint64_t r = rng();
  while (r >= limit) r = rng();
  return static_cast<std::size_t>(r % n);
}

std::uint64_t repeat_cost(const Meetings& meetings, const Tables& tables) {
  std::uint64_t cost = 0;
  for (const auto& table : tables) {
    for (std::size_t i = 0; i < table.size(); ++i) {
      for (std::size_t j = i + 1; j < table.size(); ++j) cost += meetings[table[i]][table[j]];
    }
  }
  return cost;
}

SearchResult minimise_repeats(const Meetings& meetings, const Tables& start,
                              const SearchOptions& options) {
  State best = local_search(meetings, options.weight, start, options);
  bool proven = best.repeats() == 0;
  if (!proven) {
    std::vector<std::size_t> sizes;
    for (const auto& t : start) sizes.push_back(t.size());
    ExactSearch exact(meetings, sizes, best.repeats(), options.exact_budget);
    exact.run();
    proven = exact.finished();
    if (exact.found()) {
      // Fewer repeats than the local search found; then improve the placement without giving
      // any back (the descent never raises the repeats).
      State improved(meetings, options.weight, *exact.found());
      improved.descend();
      best = std::move(improved);
    }
  }
  return {best.tables(), best.repeats(), proven};
}

}  // namespace tally::projections::catan
