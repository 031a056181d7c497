// Shared helpers of the Catan tests: result bodies as the API receives them, a tournament with
// tables built through the same codec as the daemon, and a generator of random valid tables.
#pragma once

#include "projections/catan/catan_game.hpp"
#include "projections/catan/sheet.hpp"
#include "tests/support/tournament_builder.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace tally::projections::catan::testing {

namespace json = boost::json;
using Which = schema::Event::Payload::Which;
using tally::testing::TournamentBuilder;

// One player's sheet as JSON, field by field as in catan.md §1.
inline json::object sheet(const std::string& player, int settlements, int cities, int vp_cards,
                          int knights, int roads, int longest_road, bool largest_army = false,
                          bool longest_road_holder = false) {
  return {{"player", player},
          {"settlements", settlements},
          {"cities", cities},
          {"vp_cards", vp_cards},
          {"knights", knights},
          {"roads", roads},
          {"longest_road", longest_road},
          {"largest_army", largest_army},
          {"longest_road_holder", longest_road_holder}};
}

inline json::value body(const std::vector<json::object>& players) {
  json::array list;
  for (const auto& p : players) list.push_back(p);
  return json::object{{"players", std::move(list)}};
}

// The conformance table "clear order": a 10, b 8, c 6, d 5 VP; valid.
inline std::vector<json::object> clear_order() {
  return {sheet("a", 2, 3, 0, 3, 6, 4, true, false), sheet("b", 3, 1, 1, 1, 10, 6, false, true),
          sheet("c", 4, 1, 0, 2, 7, 4), sheet("d", 2, 1, 1, 0, 5, 3)};
}

// A table where a has 10 VP and b 12 (both eligible to claim), c 5, d 2.
inline std::vector<json::object> two_at_ten() {
  return {sheet("a", 2, 3, 0, 3, 6, 4, true, false), sheet("b", 3, 3, 1, 1, 10, 6, false, true),
          sheet("c", 3, 1, 0, 1, 5, 2), sheet("d", 2, 0, 0, 0, 2, 1)};
}

// A tournament "cup" whose players are registered with their ids as names and seated in one
// round at the given tables.
inline TournamentBuilder seated(const std::vector<std::vector<std::string>>& tables,
                                const json::object& rules = {}, const std::string& locale = "") {
  TournamentBuilder b("cup", "catan", locale, rules);
  for (const auto& t : tables) {
    for (const auto& p : t) b.player(p, p);
  }
  b.seat(tables);
  return b;
}

// Checks `kind` with `body` as a proposal at round r, table n, as the daemon would.
inline RuleErrors check(const Game& game, TournamentBuilder& b, std::uint32_t round,
                        std::uint32_t table, Which kind, const json::value& body,
                        std::uint64_t supersedes = 0) {
  auto tournament = b.tournament();
  TableState empty;
  empty.round = round;
  empty.table = table;
  const TableState* state = tournament.table(round, table);
  auto proposed = b.proposed(kind, body, supersedes, supersedes ? "correction" : "");
  return game.check_action(tournament, state ? *state : empty,
                           proposed->getRoot<schema::Event>().asReader());
}

inline std::set<std::string> rules_of(const RuleErrors& errors) {
  std::set<std::string> out;
  for (const auto& e : errors) out.insert(e.rule);
  return out;
}

// A random table that keeps every rule of catan.md §1–§3, with the claims it needs: small
// ranges so that ties and several players at 10+ VP are frequent.
struct RandomTable {
  std::vector<PlayerSheet> sheets;
  std::vector<std::string> claimants;
};

inline RandomTable random_table(std::mt19937_64& rng, std::size_t players) {
  auto pick = [&](int lo, int hi) {  // inclusive; the test's own draw, any algorithm will do
    return lo + static_cast<int>(rng() % static_cast<std::uint64_t>(hi - lo + 1));
  };
  RandomTable t;
  int vp_cards_left = 5, knights_left = 14;
  for (std::size_t i = 0; i < players; ++i) {
    PlayerSheet s;
    s.player = std::string(1, static_cast<char>('a' + i));
    s.cities = pick(0, 4);
    s.settlements = pick(s.cities == 0 ? 2 : 0, 5);
    s.vp_cards = pick(0, std::min(vp_cards_left, 2));
    vp_cards_left -= s.vp_cards;
    s.knights = pick(0, std::min(knights_left, 5));
    knights_left -= s.knights;
    s.roads = pick(2, 15);
    s.longest_road = pick(1, std::min(s.roads, 8));
    t.sheets.push_back(std::move(s));
  }
  // The titles: one holder among those tied at the top, when the top reaches the minimum.
  auto award = [&](std::int32_t PlayerSheet::*count, bool PlayerSheet::*holder, int minimum) {
    std::int32_t top = 0;
    for (const auto& s : t.sheets) top = std::max(top, s.*count);
    if (top < minimum) return;
    std::vector<std::size_t> tied;
    for (std::size_t i = 0; i < t.sheets.size(); ++i) {
      if (t.sheets[i].*count == top) tied.push_back(i);
    }
    t.sheets[tied[rng() % tied.size()]].*holder = true;
  };
  award(&PlayerSheet::knights, &PlayerSheet::largest_army, 3);
  award(&PlayerSheet::longest_road, &PlayerSheet::longest_road_holder, 5);
  std::vector<std::string> eligible;
  for (const auto& s : t.sheets) {
    if (vp_of(s) >= 10) eligible.push_back(s.player);
  }
  if (eligible.size() >= 2 || (eligible.size() == 1 && rng() % 2 == 0)) {
    t.claimants.push_back(eligible[rng() % eligible.size()]);
  }
  return t;
}

inline json::object to_json(const PlayerSheet& s) {
  return sheet(s.player, s.settlements, s.cities, s.vp_cards, s.knights, s.roads, s.longest_road,
               s.largest_army, s.longest_road_holder);
}

}  // namespace tally::projections::catan::testing
