#include "projections/agot/round_seating.hpp"

#include "projections/agot/byes.hpp"
#include "projections/agot/matching.hpp"
#include "projections/agot/seating_solver.hpp"
#include "projections/agot/standings.hpp"
#include "projections/agot/wording.hpp"
#include "projections/keep_apart.hpp"

#include <algorithm>
#include <map>
#include <random>
#include <set>

namespace tally::projections::agot {

namespace {

using projections::Outcome;
using projections::RuleError;
using projections::RuleErrors;
using projections::SeatedTable;
using projections::Seating;
using schema::SeatingMethod;

// Why a round cannot be seated, as arguments shared by the refusals and the notices: `problem`
// "count" (only `players` to seat, fewer than one table's six) or "houses" (see
// add_house_shortage). More than six never is a count problem: the rest have a bye.
i18n::Message count_problem(std::size_t n) {
  return i18n::Message("agot.seating.count", {{"problem", "count"}, {"players", n}});
}

// The players with a bye, named for the organizer with the seating in the order of the rating
// that seats `round` (as the round sheet lists them; by name in round 1); nothing when there is
// none.
i18n::Message byes_notice(const Ledger& ledger, std::uint32_t round,
                          const std::vector<std::string>& byes) {
  if (byes.empty()) return {};
  return i18n::Message(
      "agot.seating.byes",
      {{"count", byes.size()}, {"players", player_list(rating_order(ledger, round, byes))}});
}

std::vector<std::string> without(const std::vector<std::string>& players,
                                 const std::vector<std::string>& left_out) {
  std::vector<std::string> out;
  for (const auto& p : players) {
    if (std::find(left_out.begin(), left_out.end(), p) == left_out.end()) out.push_back(p);
  }
  return out;
}

// Why no seating gives everyone a house they have not played (Hall's condition, from the solver):
// `short` (the players, `short_count` of them) have already played every house (`why`
// "all_played"), or can only play the houses `can` (`can_count` of them; `why` "only"), which
// `tables` tables seat only `seats` players of.
void add_house_shortage(i18n::Message& message, const std::vector<std::string>& order,
                        const HouseMatch& why, int tables) {
  std::vector<std::string> names;
  for (std::size_t i : why.short_players) names.push_back(order[i]);
  message.with("problem", std::string("houses"));
  message.with("short", player_list(names));
  message.with("short_count", static_cast<std::int64_t>(names.size()));
  message.with("why", std::string(why.short_houses.empty() ? "all_played" : "only"));
  message.with("can", house_list(why.short_houses, i18n::Joiner::or_));
  message.with("can_count", why.short_houses.size());
  message.with("tables", static_cast<std::int64_t>(tables));
  message.with("seats", static_cast<std::int64_t>(tables) * why.short_houses.size());
}

i18n::Message house_problem(const std::vector<std::string>& order, const HouseMatch& why,
                            int tables) {
  i18n::Message message("agot.seating.houses");
  add_house_shortage(message, order, why, tables);
  return message;
}

std::vector<HouseSet> availability(const Ledger& ledger, std::uint32_t round,
                                   const std::vector<std::string>& players) {
  std::vector<HouseSet> out;
  for (const auto& p : players) out.push_back(ledger.history(p, 0, round).available());
  return out;
}

// The players a seating of the next round takes: the active ones, and once check-in has opened
// only those present (registration order).
std::vector<std::string> players_to_seat(const projections::Tournament& t) {
  std::vector<std::string> out;
  for (const auto* p : t.seatable_players()) out.push_back(p->id);
  return out;
}

// The rating's league of each of `players` (rating order over rounds before `round`).
std::map<std::string, std::string> rating_leagues(const Ledger& ledger, std::uint32_t round,
                                                  const std::vector<std::string>& players) {
  std::map<std::string, std::string> out;
  std::vector<std::string> order = rating_order(ledger, round, players);
  for (std::size_t i = 0; i < order.size(); ++i) out[order[i]] = league_name(i / kPlayersPerTable);
  return out;
}

// Records the rating's league per player on each table where one differs from the table's.
void record_rating_leagues(std::vector<SeatedTable>& tables,
                           const std::map<std::string, std::string>& rating) {
  for (auto& t : tables) {
    std::vector<std::string> leagues;
    bool differs = false;
    for (const auto& p : t.players) {
      auto it = rating.find(p);
      leagues.push_back(it == rating.end() ? t.league : it->second);
      differs = differs || leagues.back() != t.league;
    }
    t.rating_leagues = differs ? std::move(leagues) : std::vector<std::string>{};
  }
}

// S-9 after the game's own rules: the tables (players as indices into `order`) with kept-apart
// players parted by swaps that leave every table able to seat six different houses nobody
// there has played (G-1/G-2), the swap of players closest in `order` (the rating, or the draw)
// first. Each table comes back in `order`'s order.
void separate_in_tables(const Ledger& ledger, std::uint32_t round,
                        const std::vector<std::string>& order,
                        std::vector<std::vector<std::size_t>>& tables, std::uint64_t seed) {
  const projections::Tournament& t = ledger.tournament();
  if (!t.any_kept_apart()) return;
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < order.size(); ++i) index[order[i]] = i;
  projections::TableGroups groups;
  for (const auto& table : tables) {
    groups.emplace_back();
    for (std::size_t i : table) groups.back().push_back(order[i]);
  }
  auto seats_six_houses = [&](const std::vector<std::string>& table) {
    return match_houses(availability(ledger, round, table), 1).complete();
  };
  projections::SeparateOptions options;
  options.seed = seed;
  options.allowed = [&](const std::vector<std::string>& a, const std::vector<std::string>& b) {
    return seats_six_houses(a) && seats_six_houses(b);
  };
  options.swap_cost = [&](const std::string& a, const std::string& b) {
    const auto x = static_cast<std::int64_t>(index[a]), y = static_cast<std::int64_t>(index[b]);
    return x > y ? x - y : y - x;
  };
  projections::separate_kept_apart(t, groups, options);
  for (std::size_t k = 0; k < tables.size(); ++k) {
    tables[k].clear();
    for (const auto& p : groups[k]) tables[k].push_back(index[p]);
    std::sort(tables[k].begin(), tables[k].end());
  }
}

Outcome<Seating> random_seating(const Ledger& ledger, std::uint32_t round, std::uint64_t seed) {
  std::vector<std::string> players = players_to_seat(ledger.tournament());
  if (players.size() < kPlayersPerTable) {
    return Outcome<Seating>::refused("seating", count_problem(players.size()), "method");
  }
  const std::size_t k = players.size() % kPlayersPerTable;
  std::vector<std::string> order;
  std::vector<std::string> byes;
  if (round == 1) {
    // Nobody has a rating or a bye yet: the draw takes everyone and the last k drawn sit out.
    for (std::size_t i : seeded_permutation(players.size(), seed)) order.push_back(players[i]);
    byes.assign(order.end() - static_cast<std::ptrdiff_t>(k), order.end());
    order.resize(order.size() - k);
  } else {
    // The byes as the standings would give them; the draw seats the rest.
    if (k != 0) {
      byes = choose_byes(rating_order(ledger, round, players),
                         bye_counts(ledger.tournament(), round), k);
    }
    std::vector<std::string> rest = without(players, byes);
    for (std::size_t i : seeded_permutation(rest.size(), seed)) order.push_back(rest[i]);
  }
  // The draw's order seated by the solver: in round 1 (every house available) simply tables of
  // six in draw order; in a later random round the houses still have to fit (G-2).
  SolvedSeating solved = solve_league_seating(availability(ledger, round, order));
  const int tables = static_cast<int>(order.size() / kPlayersPerTable);
  if (!solved.seating) {
    return Outcome<Seating>::refused("G-2", house_problem(order, solved.why, tables), "method");
  }
  separate_in_tables(ledger, round, order, solved.seating->tables, seed);
  Seating out{SeatingMethod::RANDOM, seed, {}};
  for (std::size_t n = 0; n < solved.seating->tables.size(); ++n) {
    SeatedTable t;
    t.number = static_cast<std::uint32_t>(n + 1);
    for (std::size_t i : solved.seating->tables[n]) t.players.push_back(order[i]);
    out.tables.push_back(std::move(t));  // a random draw has no leagues
  }
  out.notice = byes_notice(ledger, round, byes);
  return Outcome<Seating>::ok(std::move(out));
}

bool same_tables(const std::vector<std::vector<std::string>>& a,
                 const std::vector<SeatedTable>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    std::set<std::string> x(a[i].begin(), a[i].end());
    std::set<std::string> y(b[i].players.begin(), b[i].players.end());
    if (x != y) return false;
  }
  return true;
}

Outcome<Seating> manual_seating(const Ledger& ledger, std::uint32_t round,
                                const projections::SeatingRequest& request) {
  const projections::Tournament& t = ledger.tournament();
  RuleErrors errors;
  if (request.tables.empty()) {
    errors.push_back(RuleError{"seating", "", "tables", "agot.seating.no_tables"});
  }
  std::set<std::string> seen;
  std::vector<std::string> seated;
  for (std::size_t i = 0; i < request.tables.size(); ++i) {
    const auto& table = request.tables[i];
    const std::string field = "tables[" + std::to_string(i) + "]";
    if (table.size() != kPlayersPerTable) {
      errors.push_back(RuleError{
          "G-1", "", field,
          i18n::Message("agot.seating.table_size", {{"table", i + 1}, {"players", table.size()}})});
    }
    bool known = true;
    for (const auto& p : table) {
      const projections::Player* player = t.player(p);
      if (!player) {
        // Not a player: the id as it was sent (there is no name to show).
        errors.push_back(RuleError{"seating", p, field,
                                   i18n::Message("agot.seating.unknown_player", {{"id", p}})});
        known = false;
      } else if (player->dropped) {
        errors.push_back(
            RuleError{"seating", p, field,
                      i18n::Message("agot.seating.dropped", {{"player", i18n::PlayerRef{p}}})});
      } else if (!seen.insert(p).second) {
        errors.push_back(RuleError{
            "seating", p, field,
            i18n::Message("agot.seating.seated_twice", {{"player", i18n::PlayerRef{p}}})});
      } else {
        seated.push_back(p);
      }
    }
    // G-2: the table must be able to seat six different houses nobody there has played.
    if (known && table.size() <= kPlayersPerTable) {
      HouseMatch m = match_houses(availability(ledger, round, table), 1);
      if (!m.complete()) {
        i18n::Message message("agot.seating.table_houses", {{"table", i + 1}});
        add_house_shortage(message, table, m, 1);
        errors.push_back(RuleError{"G-2", "", field, std::move(message)});
      }
    }
  }
  std::vector<SeatedTable> tables;
  for (std::size_t i = 0; i < request.tables.size(); ++i) {
    SeatedTable st;
    st.number = static_cast<std::uint32_t>(i + 1);
    st.players = request.tables[i];
    if (round >= 2) st.league = league_name(i);
    tables.push_back(std::move(st));
  }
  if (round >= 2) record_rating_leagues(tables, rating_leagues(ledger, round, seated));
  // A departure from the solver needs a reason (round 1 has no solver: a draw).
  if (request.reason.empty()) {
    std::optional<i18n::Message> departs;
    if (round == 1) {
      departs = i18n::Message("agot.seating.reason_draw");
    } else {
      StandingsSeating solver = standings_seating(ledger, round, players_to_seat(t));
      if (!solver.tables) {
        departs = solver.why;  // the solver's reason, with its arguments
        departs->key = "agot.seating.reason_unseatable";
      } else if (!same_tables(request.tables, *solver.tables)) {
        departs = i18n::Message("agot.seating.reason_solver");
        add_league_tables(*departs, *solver.tables);
      }
    }
    if (departs) errors.push_back(RuleError{"seating", "", "reason", std::move(*departs)});
  }
  if (!errors.empty()) return Outcome<Seating>::refused(std::move(errors));
  // The players to seat that the organizer left out sit the round out too.
  std::vector<std::string> byes = without(players_to_seat(t), seated);
  return Outcome<Seating>::ok(
      Seating{SeatingMethod::MANUAL, 0, std::move(tables), byes_notice(ledger, round, byes)});
}

}  // namespace

std::vector<std::size_t> seeded_permutation(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  // Unbiased draw from [0, bound): reject the top remainder of the generator's range.
  auto below = [&rng](std::uint64_t bound) {
    const std::uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
    std::uint64_t x = 0;
    do x = rng();
    while (x >= limit);
    return x % bound;
  };
  std::vector<std::size_t> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = i;
  for (std::size_t i = n; i > 1; --i) std::swap(out[i - 1], out[below(i)]);
  return out;
}

StandingsSeating standings_seating(const Ledger& ledger, std::uint32_t round,
                                   const std::vector<std::string>& players) {
  StandingsSeating out;
  std::vector<std::string> order = rating_order(ledger, round, players);
  if (order.size() < kPlayersPerTable) {
    out.rule = "seating";
    out.why = count_problem(order.size());
    return out;
  }
  if (const std::size_t k = order.size() % kPlayersPerTable; k != 0) {
    out.byes = choose_byes(order, bye_counts(ledger.tournament(), round), k);
    order = without(order, out.byes);  // the rating's leagues are those of the players who play
  }
  SolvedSeating solved = solve_league_seating(availability(ledger, round, order));
  const int leagues = static_cast<int>(order.size() / kPlayersPerTable);
  if (!solved.seating) {
    out.rule = "G-2";
    out.why = house_problem(order, solved.why, leagues);
    return out;
  }
  separate_in_tables(ledger, round, order, solved.seating->tables, round);
  std::vector<SeatedTable> tables;
  std::map<std::string, std::string> rating;
  for (std::size_t i = 0; i < order.size(); ++i)
    rating[order[i]] = league_name(i / kPlayersPerTable);
  for (std::size_t k = 0; k < solved.seating->tables.size(); ++k) {
    SeatedTable t;
    t.number = static_cast<std::uint32_t>(k + 1);
    t.league = league_name(k);
    for (std::size_t i : solved.seating->tables[k]) t.players.push_back(order[i]);
    tables.push_back(std::move(t));
  }
  record_rating_leagues(tables, rating);
  out.tables = std::move(tables);
  return out;
}

Outcome<Seating> seat_round(const Ledger& ledger, const projections::SeatingRequest& request) {
  const projections::Tournament& t = ledger.tournament();
  const std::uint32_t round =
      request.round != 0 ? request.round : static_cast<std::uint32_t>(t.rounds.size() + 1);
  if (round > static_cast<std::uint32_t>(ledger.rules().rounds)) {
    return Outcome<Seating>::refused(
        "rounds", i18n::Message("agot.seating.rounds", {{"rounds", ledger.rules().rounds}}),
        "round");
  }
  const SeatingMethod method =
      request.method.value_or(round == 1 ? SeatingMethod::RANDOM : SeatingMethod::STANDINGS);
  switch (method) {
    case SeatingMethod::RANDOM:
      return random_seating(ledger, round, request.seed);
    case SeatingMethod::MANUAL:
      return manual_seating(ledger, round, request);
    case SeatingMethod::STANDINGS: {
      if (round == 1) {
        return Outcome<Seating>::refused("seating", "agot.seating.draw_first", "method");
      }
      StandingsSeating s = standings_seating(ledger, round, players_to_seat(t));
      if (!s.tables) return Outcome<Seating>::refused(s.rule, s.why, "method");
      return Outcome<Seating>::ok(Seating{SeatingMethod::STANDINGS, 0, std::move(*s.tables),
                                          byes_notice(ledger, round, s.byes)});
    }
  }
  return Outcome<Seating>::refused("seating", "agot.seating.unknown_method", "method");
}

}  // namespace tally::projections::agot
