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

// The steps the whole search may take (see SearchOptions::budget); deterministic: a count of
// work done, not a clock.
class Budget {
 public:
  explicit Budget(std::uint64_t limit) : limit_(limit) {}
  // Counts `steps` more; false once the limit is passed (and from then on).
  bool spend(std::uint64_t steps) {
    used_ += steps;
    if (limit_ != 0 && used_ > limit_) exhausted_ = true;
    return !exhausted_;
  }
  bool exhausted() const { return exhausted_; }
  std::uint64_t used() const { return used_; }

 private:
  std::uint64_t limit_;
  std::uint64_t used_ = 0;
  bool exhausted_ = false;
};

// The meetings in one block, row after row: a row is read along its length in the descent.
class FlatMeetings {
 public:
  explicit FlatMeetings(const Meetings& m) : n_(m.size()), cells_(n_ * n_) {
    for (std::size_t i = 0; i < n_; ++i) std::copy(m[i].begin(), m[i].end(), row(i));
  }
  std::size_t size() const { return n_; }
  const std::uint32_t* row(std::size_t p) const { return cells_.data() + p * n_; }

 private:
  std::uint32_t* row(std::size_t p) { return cells_.data() + p * n_; }
  std::size_t n_;
  std::vector<std::uint32_t> cells_;
};

// The steps of a swap tried in full (see State::improves), against 1 for one dismissed at once.
constexpr std::uint64_t kFullTry = 4;

// A seating being improved, with where each player sits and both costs kept current.
class State {
 public:
  State(const FlatMeetings& meetings, const std::vector<std::uint64_t>& weight, Tables tables)
      : m_(&meetings),
        weight_(&weight),
        tables_(std::move(tables)),
        table_of_(meetings.size()),
        own_(meetings.size()),
        dirty_(tables_.size(), true),
        dirty_players_(meetings.size()) {
    std::iota(dirty_players_.begin(), dirty_players_.end(), 0);
    for (std::size_t t = 0; t < tables_.size(); ++t) {
      for (auto p : tables_[t]) table_of_[p] = t;
    }
    for (std::size_t t = 0; t < tables_.size(); ++t) update_own(t);
    for (std::size_t p = 0; p < table_of_.size(); ++p) repeats_ += own_[p];
    repeats_ /= 2;  // each co-seated pair counted from both ends
    for (std::size_t p = 0; p < table_of_.size(); ++p) placement_ += weight_of(p) * table_of_[p];
  }

  std::tuple<std::uint64_t, std::uint64_t> cost() const { return {repeats_, placement_}; }
  std::uint64_t repeats() const { return repeats_; }
  const Tables& tables() const { return tables_; }
  std::size_t players() const { return table_of_.size(); }
  std::size_t table_of(std::size_t p) const { return table_of_[p]; }

  // The change of both costs if a and b (at different tables) changed places. Reads row a,
  // and column b of the rows of a's table-mates (the same rows for every b: the descent reads
  // them along), so that trying every b for one a walks memory in order.
  std::tuple<std::int64_t, std::int64_t> swap_delta(std::size_t a, std::size_t b) const {
    const std::size_t ta = table_of_[a], tb = table_of_[b];
    const std::uint32_t* row_a = m_->row(a);
    std::int64_t a_at_tb = 0;  // a's meetings with b's table-mates
    for (auto q : tables_[tb]) {
      if (q != b) a_at_tb += row_a[q];
    }
    std::int64_t b_at_ta = 0;  // b's meetings with a's table-mates
    for (auto q : tables_[ta]) {
      if (q != a) b_at_ta += m_->row(q)[b];
    }
    std::int64_t repeats =
        a_at_tb + b_at_ta - static_cast<std::int64_t>(own_[a]) - static_cast<std::int64_t>(own_[b]);
    // a moves by tb − ta tables, b by the opposite.
    std::int64_t placement =
        (static_cast<std::int64_t>(weight_of(a)) - static_cast<std::int64_t>(weight_of(b))) *
        (static_cast<std::int64_t>(tb) - static_cast<std::int64_t>(ta));
    return {repeats, placement};
  }

  // Whether a and b (at different tables) changing places lowers (repeats, placement). When
  // neither meets anyone at its table the repeats cannot fall, so only a placement gain without
  // new repeats can: that is checked first, as it costs nothing.
  // Counts the steps: 1 for the free check, kFullTry for a full one (about its cost).
  bool improves(std::size_t a, std::size_t b, std::uint64_t& steps) const {
    if (own_[a] == 0 && own_[b] == 0) {
      ++steps;
      const std::int64_t moves =
          static_cast<std::int64_t>(table_of_[b]) - static_cast<std::int64_t>(table_of_[a]);
      if (weight_of(a) == weight_of(b) || (weight_of(a) > weight_of(b)) == (moves > 0)) {
        return false;  // placement not lowered
      }
    }
    steps += kFullTry;
    auto [dr, dd] = swap_delta(a, b);
    return dr < 0 || (dr == 0 && dd < 0);
  }

  void swap(std::size_t a, std::size_t b) {
    auto [dr, dd] = swap_delta(a, b);
    std::size_t ta = table_of_[a], tb = table_of_[b];
    mark_dirty(ta);  // before the swap: a and b are among the players it records
    mark_dirty(tb);
    *std::find(tables_[ta].begin(), tables_[ta].end(), a) = b;
    *std::find(tables_[tb].begin(), tables_[tb].end(), b) = a;
    table_of_[a] = tb;
    table_of_[b] = ta;
    update_own(ta);
    update_own(tb);
    repeats_ = static_cast<std::uint64_t>(static_cast<std::int64_t>(repeats_) + dr);
    placement_ = static_cast<std::uint64_t>(static_cast<std::int64_t>(placement_) + dd);
  }

  // First-improvement descent over all swaps until none lowers (repeats, placement), or until
  // the budget runs out (then false; the seating is valid, only not a local minimum).
  //
  // Pairs are tried in the order (a, b), a < b, pass after pass. A pair whose two tables are both
  // clean — unchanged since the seating was last a local minimum — cannot lower the cost (it did
  // not then, and its delta depends only on those two tables), so it is skipped: the descent
  // makes exactly the swaps of the plain scan over every pair, in the same order, at the cost
  // of the pairs that touch a changed table.
  bool descend(Budget& budget) {
    bool improved = true;
    while (improved) {
      improved = false;
      for (std::size_t a = 0; a < players(); ++a) {
        std::uint64_t tried = 0;
        std::size_t from = a + 1;  // the full scan over b ≥ from, once a's table is dirty
        if (!dirty_[table_of_[a]]) {
          from = players();
          // Only players at dirty tables, in increasing order (sorted, and unchanged until a swap).
          auto it = std::upper_bound(dirty_players_.begin(), dirty_players_.end(), a);
          for (; it != dirty_players_.end(); ++it) {
            const std::size_t b = *it;
            if (improves(a, b, tried)) {
              swap(a, b);  // a's table is dirty now: go on with every b after this one
              improved = true;
              from = b + 1;
              break;
            }
          }
        }
        for (std::size_t b = from; b < players(); ++b) {
          if (table_of_[a] == table_of_[b]) continue;
          if (improves(a, b, tried)) {
            swap(a, b);
            improved = true;
          }
        }
        if (!budget.spend(tried)) return false;
      }
    }
    // A local minimum: every table is clean.
    std::fill(dirty_.begin(), dirty_.end(), false);
    dirty_players_.clear();
    return true;
  }

 private:
  std::uint64_t weight_of(std::size_t p) const { return weight_->empty() ? 0 : (*weight_)[p]; }

  void mark_dirty(std::size_t t) {
    if (dirty_[t]) return;
    dirty_[t] = true;
    for (auto p : tables_[t]) {
      dirty_players_.insert(std::upper_bound(dirty_players_.begin(), dirty_players_.end(), p), p);
    }
  }

  // Each player's meetings with its table-mates, for the players at table t.
  void update_own(std::size_t t) {
    for (auto p : tables_[t]) {
      const std::uint32_t* row = m_->row(p);
      std::uint64_t sum = 0;
      for (auto q : tables_[t]) sum += row[q];  // row[p] is 0
      own_[p] = sum;
    }
  }

  const FlatMeetings* m_;
  const std::vector<std::uint64_t>* weight_;
  Tables tables_;
  std::vector<std::size_t> table_of_;
  std::vector<std::uint64_t> own_;  // [player]: meetings with its table-mates
  std::uint64_t repeats_ = 0;
  std::uint64_t placement_ = 0;  // Σ weight · table index
  // Tables changed since the seating was last a local minimum, and the players at them (sorted).
  std::vector<bool> dirty_;
  std::vector<std::size_t> dirty_players_;
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
              std::uint64_t node_budget, Budget& budget)
      : m_(meetings),
        sizes_(std::move(sizes)),
        best_(bound),
        node_budget_(node_budget),
        budget_(&budget),
        tables_(sizes_.size()),
        met_at_(meetings.size(), std::vector<std::uint64_t>(sizes_.size(), 0)),
        placed_(meetings.size(), false) {}

  void run() { place(0, 0); }
  bool finished() const { return !out_of_budget_; }
  const std::optional<Tables>& found() const { return found_; }

 private:
  void place(std::size_t placed, std::uint64_t cost) {
    if (out_of_budget_ || best_ == 0) return;
    // A node's work: the bound over the unplaced players and the tables, and seating one.
    if (++nodes_ > node_budget_ ||
        !budget_->spend((m_.size() - placed) * tables_.size() + m_.size())) {
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
  std::uint64_t node_budget_;
  Budget* budget_;
  std::uint64_t nodes_ = 0;
  bool out_of_budget_ = false;
  Tables tables_;
  std::vector<std::vector<std::uint64_t>> met_at_;  // [player][table]: meetings with those seated
  std::vector<bool> placed_;
  std::optional<Tables> found_;
};

// Repeated descents from seeded perturbations of the best seating so far, while the budget
// lasts.
State local_search(const FlatMeetings& meetings, const std::vector<std::uint64_t>& weight,
                   Tables start, const SearchOptions& options, Budget& budget) {
  State best(meetings, weight, std::move(start));
  if (!best.descend(budget)) return best;
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
    const bool finished = trial.descend(budget);
    if (trial.cost() < best.cost()) best = std::move(trial);
    if (!finished) break;
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
  Budget budget(options.budget);
  const FlatMeetings flat(meetings);
  State best = local_search(flat, options.weight, start, options, budget);
  bool proven = best.repeats() == 0;
  if (!proven && !budget.exhausted()) {
    std::vector<std::size_t> sizes;
    for (const auto& t : start) sizes.push_back(t.size());
    ExactSearch exact(meetings, sizes, best.repeats(), options.exact_budget, budget);
    exact.run();
    proven = exact.finished();
    if (exact.found()) {
      // Fewer repeats than the local search found; then improve the placement without giving
      // any back (the descent never raises the repeats). Past the budget, the placement is
      // left as the exact search found it: the repeats are what count.
      State improved(flat, options.weight, *exact.found());
      if (!budget.exhausted()) improved.descend(budget);
      best = std::move(improved);
    }
  }
  return {best.tables(), best.repeats(), proven, budget.exhausted(), budget.used()};
}

}  // namespace tally::projections::catan
