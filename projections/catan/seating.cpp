#include "projections/catan/seating.hpp"

#include "projections/catan/seating_search.hpp"
#include "projections/catan/standings.hpp"
#include "projections/keep_apart.hpp"

#include <algorithm>
#include <map>
#include <random>
#include <set>

namespace tally::projections::catan {

namespace {

using Method = schema::SeatingMethod;

constexpr std::size_t kMinTable = 3;
constexpr std::size_t kMaxTable = 4;

Outcome<Seating> refused(i18n::Message message, std::string field = "") {
  return Outcome<Seating>::refused("seating", std::move(message), std::move(field));
}

std::vector<std::string> seatable_ids(const Tournament& tournament) {
  std::vector<std::string> out;
  for (const auto* p : tournament.seatable_players()) out.push_back(p->id);
  return out;
}

// Who met whom in the rounds before `round`, for `players` by index.
Meetings meetings_before(const Tournament& tournament, std::uint32_t round,
                         const std::vector<std::string>& players) {
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < players.size(); ++i) index[players[i]] = i;
  Meetings m(players.size(), std::vector<std::uint32_t>(players.size(), 0));
  for (const auto& r : tournament.rounds) {
    if (r.number >= round) continue;
    for (const auto& table : r.tables) {
      for (std::size_t i = 0; i < table.players.size(); ++i) {
        for (std::size_t j = i + 1; j < table.players.size(); ++j) {
          auto a = index.find(table.players[i]), b = index.find(table.players[j]);
          if (a == index.end() || b == index.end()) continue;  // a dropped player
          ++m[a->second][b->second];
          ++m[b->second][a->second];
        }
      }
    }
  }
  return m;
}

// S-9 ahead of repeat opponents: every kept-apart pair weighs more than all repeats together,
// so the search's fewest "repeats" seat no pair together whenever it can. The weight is
// returned (0 when nobody is kept apart).
std::uint64_t weigh_kept_apart(const Tournament& tournament, const std::vector<std::string>& order,
                               Meetings& meetings) {
  auto pairs = tournament.kept_apart_among(order);
  if (pairs.empty()) return 0;
  std::uint64_t all_repeats = 0;
  for (std::size_t i = 0; i < meetings.size(); ++i) {
    for (std::size_t j = i + 1; j < meetings.size(); ++j) all_repeats += meetings[i][j];
  }
  const auto weight = static_cast<std::uint32_t>(all_repeats + 1);
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < order.size(); ++i) index[order[i]] = i;
  for (const auto& [a, b] : pairs) {
    meetings[index[a]][index[b]] += weight;
    meetings[index[b]][index[a]] += weight;
  }
  return weight;
}

// S-9 after the search: the swaps that part what it could not, each at the least rise in repeats.
void separate_after_search(const Tournament& tournament, const std::vector<std::string>& order,
                           const Meetings& met, Tables& tables, std::uint64_t seed) {
  if (!tournament.any_kept_apart()) return;
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < order.size(); ++i) index[order[i]] = i;
  TableGroups groups;
  for (const auto& t : tables) {
    groups.emplace_back();
    for (auto p : t) groups.back().push_back(order[p]);
  }
  SeparateOptions options;
  options.seed = seed;
  auto repeats_at = [&](const std::vector<std::string>& table) {
    std::int64_t n = 0;
    for (const auto& x : table) {
      for (const auto& y : table) n += x < y ? met[index[x]][index[y]] : 0;
    }
    return n;
  };
  options.table_cost = repeats_at;
  // Even when pairs remain, no swap brought one together: the groups are no worse.
  separate_kept_apart(tournament, groups, options);
  for (std::size_t t = 0; t < tables.size(); ++t) {
    for (std::size_t s = 0; s < tables[t].size(); ++s) tables[t][s] = index[groups[t][s]];
  }
}

Outcome<Seating> seat_manual(const Tournament& tournament, const SeatingRequest& request) {
  RuleErrors errors;
  if (request.tables.empty()) {
    errors.push_back({"seating", "", "tables", i18n::Message("catan.seating.no_tables")});
  }
  std::map<std::string, std::size_t> seated_at;  // player → table number
  for (std::size_t t = 0; t < request.tables.size(); ++t) {
    const auto& players = request.tables[t];
    const std::size_t table = t + 1;
    if (players.size() < kMinTable || players.size() > kMaxTable) {
      errors.push_back({"seating", "", "tables",
                        i18n::Message("catan.seating.table_size", {{"table", table},
                                                                   {"count", players.size()},
                                                                   {"min", kMinTable},
                                                                   {"max", kMaxTable}})});
    }
    for (const auto& p : players) {
      const Player* player = tournament.player(p);
      // Not registered: no name to show, so the name is the id as the request gave it.
      const i18n::PlayerRef who{p};
      if (player == nullptr) {
        errors.push_back(
            {"seating", p, "tables",
             i18n::Message("catan.seating.not_registered", {{"player", who}, {"table", table}})});
      } else if (player->dropped) {
        errors.push_back(
            {"seating", p, "tables",
             i18n::Message("catan.seating.dropped", {{"player", who}, {"table", table}})});
      } else if (auto [it, fresh] = seated_at.emplace(p, table); !fresh) {
        errors.push_back(
            {"seating", p, "tables",
             i18n::Message("catan.seating.seated_twice",
                           {{"player", who}, {"first", it->second}, {"second", table}})});
      }
    }
  }
  for (const auto& p : seatable_ids(tournament)) {
    if (!seated_at.contains(p)) {
      errors.push_back(
          {"seating", p, "tables",
           i18n::Message("catan.seating.not_seated", {{"player", i18n::PlayerRef{p}}})});
    }
  }
  if (!errors.empty()) return Outcome<Seating>::refused(std::move(errors));
  Seating seating{Method::MANUAL, 0, {}};
  for (std::size_t t = 0; t < request.tables.size(); ++t) {
    seating.tables.push_back({static_cast<std::uint32_t>(t + 1), request.tables[t], "", {}});
  }
  return Outcome<Seating>::ok(std::move(seating));
}

}  // namespace

std::optional<std::vector<std::size_t>> table_sizes(std::size_t players) {
  if (players < kMinTable) return std::nullopt;
  const std::size_t tables = (players + kMaxTable - 1) / kMaxTable;
  const std::size_t threes = tables * kMaxTable - players;  // seats left empty, one per table of 3
  if (threes > tables) return std::nullopt;                 // only 5: 4+1 or 3+2
  std::vector<std::size_t> sizes(tables - threes, kMaxTable);
  sizes.resize(tables, kMinTable);
  return sizes;
}

std::vector<std::string> draw(std::vector<std::string> players, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (std::size_t i = players.size(); i > 1; --i) {
    std::swap(players[i - 1], players[uniform_below(rng, i)]);
  }
  return players;
}

Outcome<Seating> seat_catan_round(const Tournament& tournament, const SeatingRequest& request,
                                  const CatanRules& rules) {
  return seat_catan_round(tournament, request, rules, nullptr);
}

Outcome<Seating> seat_catan_round(const Tournament& tournament, const SeatingRequest& request,
                                  const CatanRules& rules, SearchNote* note, std::uint64_t budget) {
  if (note != nullptr) *note = {};
  if (rules.rounds && request.round > *rules.rounds) {
    return refused(i18n::Message("catan.seating.beyond_rounds",
                                 {{"round", request.round}, {"rounds", *rules.rounds}}));
  }
  const Method method =
      request.method.value_or(request.round <= 1 ? Method::RANDOM : Method::STANDINGS);
  if (method == Method::MANUAL) return seat_manual(tournament, request);
  if (!request.tables.empty()) {
    return refused(i18n::Message("catan.seating.tables_only_manual"), "tables");
  }

  const std::vector<std::string> active = seatable_ids(tournament);
  const auto sizes = table_sizes(active.size());
  if (!sizes) {
    return refused(i18n::Message("catan.seating.cannot_seat", {{"count", active.size()}}));
  }

  // The players in the order that fills the tables: the draw, or the standings so far.
  std::vector<std::string> order;
  if (method == Method::RANDOM) {
    order = draw(active, request.seed);
  } else {
    const std::set<std::string> is_active(active.begin(), active.end());
    for (const auto& row : compute_standings(tournament, rules, request.round - 1)) {
      if (is_active.contains(row.player)) order.push_back(row.player);
    }
  }

  Tables start;
  std::size_t next = 0;
  for (auto size : *sizes) {
    start.emplace_back();
    for (std::size_t s = 0; s < size; ++s) start.back().push_back(next++);
  }
  SearchOptions options;
  if (method == Method::STANDINGS) {
    // Better ranks weigh more, so they keep the lower tables (see seating_search.hpp).
    for (std::size_t rank = 0; rank < order.size(); ++rank)
      options.weight.push_back(order.size() - rank);
  }
  options.seed = method == Method::RANDOM ? request.seed : 0;
  options.budget = budget;
  const Meetings met = meetings_before(tournament, request.round, order);
  Meetings weighed = met;
  const bool apart = weigh_kept_apart(tournament, order, weighed) != 0;
  auto found = minimise_repeats(weighed, start, options);
  Tables tables = std::move(found.tables);
  if (apart) {
    separate_after_search(tournament, order, met, tables, request.seed);
    found.repeats = repeat_cost(met, tables);  // the repeats alone, without the pairs' weight
  }
  if (note != nullptr) {
    *note = {true, found.repeats, found.proven_minimum, found.stopped_at_budget, found.steps, {}};
    if (found.stopped_at_budget) {
      note->notice = i18n::Message("catan.seating.search_stopped",
                                   {{"steps", budget}, {"repeats", found.repeats}});
    }
  }

  if (method == Method::STANDINGS) {
    // Seat order by rank, and among tables of one size the better ranks at lower numbers.
    for (auto& t : tables) std::sort(t.begin(), t.end());
    std::stable_sort(tables.begin(), tables.end(), [](const auto& a, const auto& b) {
      return a.size() != b.size() ? a.size() > b.size() : a.front() < b.front();
    });
  }
  Seating seating{method, method == Method::RANDOM ? request.seed : 0, {}};
  for (std::size_t t = 0; t < tables.size(); ++t) {
    SeatedTable table{static_cast<std::uint32_t>(t + 1), {}, "", {}};
    for (auto p : tables[t]) table.players.push_back(order[p]);
    seating.tables.push_back(std::move(table));
  }
  return Outcome<Seating>::ok(std::move(seating));
}

}  // namespace tally::projections::catan
