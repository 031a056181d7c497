#include "projections/agot/round_seating.hpp"

#include "projections/agot/matching.hpp"
#include "projections/agot/seating_solver.hpp"
#include "projections/agot/standings.hpp"
#include "projections/agot/wording.hpp"

#include <algorithm>
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

const char* const kManualAdvice =
    " Seat the round manually with a reason (players not seated miss the round and score 0).";

std::string count_problem(std::size_t n) {
  std::size_t below = n / kPlayersPerTable * kPlayersPerTable;
  std::size_t above = below + kPlayersPerTable;
  std::string options =
      below == 0 ? std::to_string(above) : std::to_string(below) + " or " + std::to_string(above);
  return std::to_string(n) + " active player" + (n == 1 ? " is" : "s are") +
         " to be seated, but every table seats 6 (one per house), so a round needs a multiple of 6 "
         "(" +
         options + ")." + kManualAdvice;
}

// Why no seating gives everyone a house they have not played (Hall's condition, from the solver).
std::string shortage_text(const std::vector<std::string>& order, const HouseMatch& why,
                          int tables) {
  std::vector<std::string> names;
  for (std::size_t i : why.short_players) names.push_back(order[i]);
  std::string who = join(names);
  if (why.short_houses.empty()) {
    return who + (names.size() == 1 ? " has" : " have") + " already played every house (G-2).";
  }
  int seats = tables * why.short_houses.size();
  return who + " can only play " + why.short_houses.names() +
         (names.size() > 1 ? " between them" : "") + " (G-2), and " + std::to_string(tables) +
         (tables == 1 ? " table seats " : " tables seat ") + "only " + std::to_string(seats) +
         " player" + (seats == 1 ? "" : "s") + " on " +
         (why.short_houses.size() == 1 ? "that house." : "those houses.");
}

std::vector<HouseSet> availability(const Ledger& ledger, std::uint32_t round,
                                   const std::vector<std::string>& players) {
  std::vector<HouseSet> out;
  for (const auto& p : players) out.push_back(ledger.history(p, 0, round).available());
  return out;
}

std::vector<std::string> active_ids(const projections::Tournament& t) {
  std::vector<std::string> out;
  for (const auto* p : t.active_players()) out.push_back(p->id);
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

Outcome<Seating> random_seating(const Ledger& ledger, std::uint32_t round, std::uint64_t seed) {
  std::vector<std::string> active = active_ids(ledger.tournament());
  if (active.empty() || active.size() % kPlayersPerTable != 0) {
    return Outcome<Seating>::refused("seating", count_problem(active.size()), "method");
  }
  std::vector<std::string> order;
  for (std::size_t i : seeded_permutation(active.size(), seed)) order.push_back(active[i]);
  // The draw's order seated by the solver: in round 1 (every house available) simply tables of
  // six in draw order; in a later random round the houses still have to fit (G-2).
  SolvedSeating solved = solve_league_seating(availability(ledger, round, order));
  const int tables = static_cast<int>(order.size() / kPlayersPerTable);
  if (!solved.seating) {
    return Outcome<Seating>::refused(
        "G-2",
        "No seating gives every player a house they have not played: " +
            shortage_text(order, solved.why, tables) + kManualAdvice,
        "method");
  }
  Seating out{SeatingMethod::RANDOM, seed, {}};
  for (std::size_t k = 0; k < solved.seating->tables.size(); ++k) {
    SeatedTable t;
    t.number = static_cast<std::uint32_t>(k + 1);
    for (std::size_t i : solved.seating->tables[k]) t.players.push_back(order[i]);
    out.tables.push_back(std::move(t));  // a random draw has no leagues
  }
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
    errors.push_back(
        RuleError{"seating", "", "tables", "a manual seating needs at least one table"});
  }
  std::set<std::string> seen;
  std::vector<std::string> seated;
  for (std::size_t i = 0; i < request.tables.size(); ++i) {
    const auto& table = request.tables[i];
    const std::string field = "tables[" + std::to_string(i) + "]";
    if (table.size() != kPlayersPerTable) {
      errors.push_back(RuleError{"G-1", "", field,
                                 "table " + std::to_string(i + 1) + " seats " +
                                     std::to_string(table.size()) +
                                     " players; every table seats 6 (one per house)"});
    }
    bool known = true;
    for (const auto& p : table) {
      const projections::Player* player = t.player(p);
      if (!player) {
        errors.push_back(RuleError{"seating", p, field, p + " is not a registered player"});
        known = false;
      } else if (player->dropped) {
        errors.push_back(RuleError{"seating", p, field, p + " has dropped out of the tournament"});
      } else if (!seen.insert(p).second) {
        errors.push_back(RuleError{"seating", p, field, p + " is seated more than once"});
      } else {
        seated.push_back(p);
      }
    }
    // G-2: the table must be able to seat six different houses nobody there has played.
    if (known && table.size() <= kPlayersPerTable) {
      HouseMatch m = match_houses(availability(ledger, round, table), 1);
      if (!m.complete()) {
        errors.push_back(
            RuleError{"G-2", "", field,
                      "table " + std::to_string(i + 1) +
                          " cannot give everyone a different house they have not played: " +
                          shortage_text(table, m, 1)});
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
    std::string departs;
    if (round == 1) {
      departs = "round 1 is a random draw";
    } else {
      StandingsSeating solver = standings_seating(ledger, round, active_ids(t));
      if (!solver.tables)
        departs = "the league solver cannot seat this round. " + solver.why;
      else if (!same_tables(request.tables, *solver.tables)) {
        departs = "the league solver seats " + describe_tables(*solver.tables);
      }
    }
    if (!departs.empty()) {
      errors.push_back(RuleError{
          "seating", "", "reason",
          "a manual seating that departs from the solver needs a reason (" + departs + ")"});
    }
  }
  if (!errors.empty()) return Outcome<Seating>::refused(std::move(errors));
  return Outcome<Seating>::ok(Seating{SeatingMethod::MANUAL, 0, std::move(tables)});
}

}  // namespace

std::string describe_tables(const std::vector<SeatedTable>& tables) {
  std::string out;
  for (const auto& t : tables) {
    if (!out.empty()) out += "; ";
    out += (t.league.empty() ? "table " + std::to_string(t.number) : t.league) + ": " +
           join(t.players);
  }
  return out;
}

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
  if (order.empty() || order.size() % kPlayersPerTable != 0) {
    out.rule = "seating";
    out.why = count_problem(order.size());
    return out;
  }
  SolvedSeating solved = solve_league_seating(availability(ledger, round, order));
  const int leagues = static_cast<int>(order.size() / kPlayersPerTable);
  if (!solved.seating) {
    out.rule = "G-2";
    out.why = "No seating gives every player a house they have not played: " +
              shortage_text(order, solved.why, leagues) + kManualAdvice;
    return out;
  }
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
        "rounds", "the tournament has " + std::to_string(ledger.rules().rounds) + " rounds",
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
        return Outcome<Seating>::refused(
            "seating", "round 1 is a random draw: there is no rating to seat by yet", "method");
      }
      StandingsSeating s = standings_seating(ledger, round, active_ids(t));
      if (!s.tables) return Outcome<Seating>::refused(s.rule, s.why, "method");
      return Outcome<Seating>::ok(Seating{SeatingMethod::STANDINGS, 0, std::move(*s.tables)});
    }
  }
  return Outcome<Seating>::refused("seating", "unknown seating method", "method");
}

}  // namespace tally::projections::agot
