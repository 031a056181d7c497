#include "projections/keep_apart.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <random>

namespace tally::projections {

namespace {

// Pairs kept apart at one table.
std::size_t pairs_together(const Tournament& t, const std::vector<std::string>& table) {
  return t.kept_apart_among(table).size();
}

std::size_t pairs_together(const Tournament& t, const TableGroups& tables) {
  std::size_t n = 0;
  for (const auto& table : tables) n += pairs_together(t, table);
  return n;
}

// One swap: the player at tables[table_a][seat_a] with the one at tables[table_b][seat_b].
struct Swap {
  std::size_t table_a = 0, seat_a = 0, table_b = 0, seat_b = 0;
};

void apply_swap(TableGroups& tables, const Swap& s) {
  std::swap(tables[s.table_a][s.seat_a], tables[s.table_b][s.seat_b]);
}

// The kept-apart pairs at the two tables of `s` after it, less those before it (negative: fewer
// together), and whether the game takes the two tables after it.
struct SwapEffect {
  std::int64_t change = 0;
  bool allowed = false;
  std::int64_t cost = 0;
};

SwapEffect effect_of(const Tournament& t, TableGroups& tables, const Swap& s,
                     const SeparateOptions& options) {
  auto table_cost = [&](std::size_t i) {
    return options.table_cost ? options.table_cost(tables[i]) : std::int64_t{0};
  };
  const auto before = static_cast<std::int64_t>(pairs_together(t, tables[s.table_a]) +
                                                pairs_together(t, tables[s.table_b]));
  const std::int64_t cost_before = table_cost(s.table_a) + table_cost(s.table_b);
  apply_swap(tables, s);
  SwapEffect out;
  out.change = static_cast<std::int64_t>(pairs_together(t, tables[s.table_a]) +
                                         pairs_together(t, tables[s.table_b])) -
               before;
  out.allowed = !options.allowed || options.allowed(tables[s.table_a], tables[s.table_b]);
  if (out.change < 0 && out.allowed) {
    out.cost = table_cost(s.table_a) + table_cost(s.table_b) - cost_before;
    if (options.swap_cost)
      out.cost += options.swap_cost(tables[s.table_b][s.seat_b], tables[s.table_a][s.seat_a]);
  }
  apply_swap(tables, s);  // undone: the caller decides
  return out;
}

// The cheapest swap of a player of a pair together at `table` with anyone at another table that
// lowers the pairs together and that the game allows.
std::optional<Swap> best_improving_swap(const Tournament& t, TableGroups& tables, std::size_t table,
                                        const SeparateOptions& options) {
  std::optional<Swap> best;
  std::int64_t best_cost = 0;
  for (const auto& [first, second] : t.kept_apart_among(tables[table])) {
    for (const std::string* moving : {&second, &first}) {
      const auto seat = static_cast<std::size_t>(
          std::find(tables[table].begin(), tables[table].end(), *moving) - tables[table].begin());
      for (std::size_t other = 0; other < tables.size(); ++other) {
        if (other == table) continue;
        for (std::size_t j = 0; j < tables[other].size(); ++j) {
          Swap s{table, seat, other, j};
          SwapEffect e = effect_of(t, tables, s, options);
          if (e.change >= 0 || !e.allowed) continue;
          if (!best || e.cost < best_cost) {
            best = s;
            best_cost = e.cost;
          }
        }
      }
    }
  }
  return best;
}

std::size_t draw_below(std::mt19937_64& rng, std::size_t n) {
  const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  std::uint64_t x = 0;
  do x = rng();
  while (x >= limit);
  return static_cast<std::size_t>(x % n);
}

// A seeded swap of a player of a pair together at a table with anyone elsewhere that brings no
// more pairs together and that the game allows: a step out of a corner the improving swaps
// cannot leave.
bool sideways_swap(const Tournament& t, TableGroups& tables, std::mt19937_64& rng,
                   const SeparateOptions& options) {
  std::vector<std::size_t> crowded;
  for (std::size_t i = 0; i < tables.size(); ++i) {
    if (pairs_together(t, tables[i]) > 0) crowded.push_back(i);
  }
  if (crowded.empty() || tables.size() < 2) return false;
  const std::size_t table = crowded[draw_below(rng, crowded.size())];
  const auto pairs = t.kept_apart_among(tables[table]);
  const auto& pair = pairs[draw_below(rng, pairs.size())];
  const std::string& moving = draw_below(rng, 2) == 0 ? pair.first : pair.second;
  const auto seat = static_cast<std::size_t>(
      std::find(tables[table].begin(), tables[table].end(), moving) - tables[table].begin());
  std::size_t other = draw_below(rng, tables.size() - 1);
  if (other >= table) ++other;
  if (tables[other].empty()) return false;
  Swap s{table, seat, other, draw_below(rng, tables[other].size())};
  SwapEffect e = effect_of(t, tables, s, options);
  if (e.change > 0 || !e.allowed) return false;
  apply_swap(tables, s);
  return true;
}

}  // namespace

std::vector<NotKeptApart> not_kept_apart(const Tournament& tournament,
                                         const std::vector<SeatedTable>& tables) {
  std::vector<NotKeptApart> out;
  for (const auto& table : tables) {
    for (auto& [a, b] : tournament.kept_apart_among(table.players))
      out.push_back({table.number, std::move(a), std::move(b)});
  }
  return out;
}

std::size_t separate_kept_apart(const Tournament& tournament, TableGroups& tables,
                                const SeparateOptions& options) {
  if (!tournament.any_kept_apart()) return 0;  // the seating stays exactly the game's
  std::mt19937_64 rng(options.seed);
  std::uint32_t sideways_left = options.sideways_tries;
  for (;;) {
    std::size_t together = pairs_together(tournament, tables);
    if (together == 0) return 0;
    bool improved = false;
    for (std::size_t i = 0; i < tables.size() && !improved; ++i) {
      if (auto swap = best_improving_swap(tournament, tables, i, options)) {
        apply_swap(tables, *swap);
        improved = true;
      }
    }
    if (improved) continue;
    // Stuck: sideways until an improving swap appears, or the tries run out.
    while (sideways_left > 0 && !sideways_swap(tournament, tables, rng, options)) --sideways_left;
    if (sideways_left == 0) return together;
    --sideways_left;
  }
}

void renumber_fixed_tables(const Tournament& tournament, std::vector<SeatedTable>& tables,
                           std::vector<i18n::Message>& notes) {
  const auto count = static_cast<std::uint32_t>(tables.size());
  std::map<std::string, std::size_t> table_of;  // player → index in `tables`
  for (std::size_t i = 0; i < tables.size(); ++i) {
    for (const auto& p : tables[i].players) table_of[p] = i;
  }
  std::vector<std::uint32_t> given(tables.size(), 0);  // index → fixed number, 0: none yet
  std::map<std::uint32_t, std::string> taken_by;       // number → the player it was fixed for
  std::vector<std::string> holder(tables.size());      // index → the player whose number it has
  for (const auto& p : tournament.players) {           // registration order: the lower player first
    auto seated = table_of.find(p.id);
    if (p.fixed_table == 0 || seated == table_of.end()) continue;
    const std::size_t index = seated->second;
    const i18n::PlayerRef who{p.id};
    if (p.fixed_table > count) {
      notes.push_back(
          i18n::Message("api.seating.fixed_table_beyond",
                        {{"player", who}, {"table", p.fixed_table}, {"tables", count}}));
    } else if (given[index] != 0 && given[index] != p.fixed_table) {
      notes.push_back(i18n::Message("api.seating.fixed_table_shared",
                                    {{"player", who},
                                     {"table", p.fixed_table},
                                     {"other", i18n::PlayerRef{holder[index]}},
                                     {"kept", given[index]}}));
    } else if (auto it = taken_by.find(p.fixed_table);
               it != taken_by.end() && table_of[it->second] != index) {
      notes.push_back(i18n::Message(
          "api.seating.fixed_table_taken",
          {{"player", who}, {"table", p.fixed_table}, {"other", i18n::PlayerRef{it->second}}}));
    } else if (given[index] == 0) {
      given[index] = p.fixed_table;
      holder[index] = p.id;
      taken_by.emplace(p.fixed_table, p.id);
    }
  }
  if (taken_by.empty()) return;
  // The other tables keep their order in the numbers nobody is fixed to.
  std::vector<std::size_t> by_number(tables.size());
  for (std::size_t i = 0; i < tables.size(); ++i) by_number[i] = i;
  std::stable_sort(by_number.begin(), by_number.end(), [&](std::size_t a, std::size_t b) {
    return tables[a].number < tables[b].number;
  });
  std::uint32_t next = 1;
  for (std::size_t i : by_number) {
    if (given[i] != 0) continue;
    while (taken_by.contains(next)) ++next;
    given[i] = next++;
  }
  for (std::size_t i = 0; i < tables.size(); ++i) tables[i].number = given[i];
  std::sort(tables.begin(), tables.end(),
            [](const SeatedTable& a, const SeatedTable& b) { return a.number < b.number; });
}

}  // namespace tally::projections
