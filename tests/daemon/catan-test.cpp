// Catan through the real tallyd over HTTP: every case of the public conformance vectors, a whole
// tournament entered by concurrent judges and checked against the library fed with the same
// events, and claims, voids and corrections with their effect on the standings (also `as_of`).
#include "projections/catan/catan_game.hpp"
#include "projections/rational.hpp"
#include "schema/json_codec.hpp"
#include "tests/daemon/api_fixture.hpp"
#include "tests/daemon/server_replay.hpp"
#include "tests/support/http_client.hpp"
#include "tests/support/problem.hpp"
#include "tests/support/tallyd_process.hpp"
#include "tests/support/temp_dir.hpp"
#include "tests/support/tournament_builder.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <thread>

namespace tally::testing {
namespace {

namespace json = boost::json;
using Which = schema::Event::Payload::Which;

const std::map<std::string, std::string> kFirstEntry = {{"If-None-Match", "*"}};

std::string str(const json::value& v) { return std::string(v.as_string()); }
// The rows of the computed result in a table answer (a copy: the reply's JSON is a temporary).
json::array result_rows(const HttpReply& r) {
  return r.json().at("result").at("players").as_array();
}
std::uint64_t seq_of(const HttpReply& r) { return r.json().at("seq").to_number<std::uint64_t>(); }

json::object conformance() {
  std::ifstream in(TALLY_CONFORMANCE_DIR "/catan.json");
  std::stringstream text;
  text << in.rdbuf();
  return json::parse(text.str()).as_object();
}

std::vector<std::string> ids_of(const json::array& sheets) {
  std::vector<std::string> out;
  for (const auto& s : sheets) out.push_back(str(s.at("player")));
  return out;
}

// The errors of a problem answer as (rule, player, field), without the messages.
using ErrorKey = std::tuple<std::string, std::string, std::string>;
std::vector<ErrorKey> error_keys(const HttpReply& r) {
  std::vector<ErrorKey> out;
  const json::value body = r.json();
  for (const auto& e : body.at("errors").as_array()) {
    const auto& o = e.as_object();
    out.emplace_back(str(o.at("rule")), o.contains("player") ? str(o.at("player")) : "",
                     o.contains("field") ? str(o.at("field")) : "");
    EXPECT_FALSE(str(o.at("message")).empty());
  }
  return out;
}

// --- an independent reading of catan.md, for checking what the server computes -------------

struct Sheet {
  std::string player;
  int settlements = 0, cities = 0, vp_cards = 0, knights = 0, roads = 2, longest_road = 1;
  bool largest_army = false, longest_road_holder = false;
};

int vp_of(const Sheet& s) {  // catan.md §2
  return s.settlements + 2 * s.cities + s.vp_cards + 2 * s.largest_army + 2 * s.longest_road_holder;
}

json::object to_json(const Sheet& s) {
  return {{"player", s.player},
          {"settlements", s.settlements},
          {"cities", s.cities},
          {"vp_cards", s.vp_cards},
          {"knights", s.knights},
          {"roads", s.roads},
          {"longest_road", s.longest_road},
          {"largest_army", s.largest_army},
          {"longest_road_holder", s.longest_road_holder}};
}

struct Placed {
  int vp = 0;
  std::string place;
  Rational points;
  bool by_claim = false;
};

// catan.md §3–§4: the claimant first alone when two or more have 10+ VP, everyone else by VP,
// equal VP sharing the round points of the places they occupy.
std::map<std::string, Placed> expected_placing(const std::vector<Sheet>& sheets,
                                               const std::set<std::string>& claimants) {
  const std::vector<int> by_place =
      sheets.size() == 4 ? std::vector<int>{5, 3, 2, 1} : std::vector<int>{5, 3, 2};
  std::vector<std::string> eligible, eligible_claimants;
  for (const auto& s : sheets) {
    if (vp_of(s) < 10) continue;
    eligible.push_back(s.player);
    if (claimants.count(s.player)) eligible_claimants.push_back(s.player);
  }
  std::map<std::string, Placed> out;
  std::vector<Sheet> rest;
  std::size_t next = 1;
  for (const auto& s : sheets) {
    if (eligible.size() >= 2 && eligible_claimants.size() == 1 &&
        s.player == eligible_claimants[0]) {
      out[s.player] = {vp_of(s), "1", Rational(by_place[0]), true};
      next = 2;
    } else {
      rest.push_back(s);
    }
  }
  std::stable_sort(rest.begin(), rest.end(),
                   [](const Sheet& x, const Sheet& y) { return vp_of(x) > vp_of(y); });
  for (std::size_t i = 0; i < rest.size();) {
    std::size_t j = i;
    Rational sum;
    while (j < rest.size() && vp_of(rest[j]) == vp_of(rest[i])) {
      sum += by_place[next + (j - i) - 1];
      ++j;
    }
    const auto shared = static_cast<std::int64_t>(j - i);
    for (std::size_t k = i; k < j; ++k) {
      out[rest[k].player] = {vp_of(rest[k]), std::to_string(next) + (shared > 1 ? "=" : ""),
                             sum / Rational(shared), false};
    }
    next += j - i;
    i = j;
  }
  return out;
}

// A random table that keeps C-1 … C-12, with small ranges so that ties and several players at
// 10+ VP are frequent. The claimant (if any) is recorded as a claim action or in the body.
struct RandomTable {
  std::vector<Sheet> sheets;
  std::set<std::string> written_vp;  // players whose sheet carries `vp` (C-10 must accept it)
  std::string claimant;              // empty: nobody claims
  bool claim_in_body = false;
};

RandomTable random_table(std::mt19937_64& rng, const std::vector<std::string>& players) {
  auto pick = [&](int lo, int hi) {  // inclusive; the test's own draw
    return lo + static_cast<int>(rng() % static_cast<std::uint64_t>(hi - lo + 1));
  };
  RandomTable t;
  int vp_cards_left = 5, knights_left = 14;
  for (const auto& p : players) {
    Sheet s;
    s.player = p;
    s.cities = pick(0, 4);
    s.settlements = pick(s.cities == 0 ? 2 : 1, 5);
    s.vp_cards = pick(0, std::min(vp_cards_left, 2));
    vp_cards_left -= s.vp_cards;
    s.knights = pick(0, std::min(knights_left, 5));
    knights_left -= s.knights;
    s.roads = pick(2, 15);
    s.longest_road = pick(1, std::min(s.roads, 8));
    t.sheets.push_back(s);
  }
  // C-7, C-9: one holder among those tied at the top, when the top reaches the minimum.
  auto award = [&](int Sheet::*count, bool Sheet::*holder, int minimum) {
    int top = 0;
    for (const auto& s : t.sheets) top = std::max(top, s.*count);
    if (top < minimum) return;
    std::vector<std::size_t> tied;
    for (std::size_t i = 0; i < t.sheets.size(); ++i) {
      if (t.sheets[i].*count == top) tied.push_back(i);
    }
    t.sheets[tied[rng() % tied.size()]].*holder = true;
  };
  award(&Sheet::knights, &Sheet::largest_army, 3);
  award(&Sheet::longest_road, &Sheet::longest_road_holder, 5);
  for (const auto& s : t.sheets) {
    if (rng() % 3 == 0) t.written_vp.insert(s.player);
  }
  // C-11, C-12: one eligible claimant when two or more have 10+; sometimes the only one.
  std::vector<std::string> eligible;
  for (const auto& s : t.sheets) {
    if (vp_of(s) >= 10) eligible.push_back(s.player);
  }
  if (eligible.size() >= 2 || (eligible.size() == 1 && rng() % 2 == 0)) {
    t.claimant = eligible[rng() % eligible.size()];
    t.claim_in_body = rng() % 2 == 0;
  }
  return t;
}

json::object result_body(const RandomTable& t, bool claims_in_body,
                         const std::string& reason = "") {
  json::array players;
  for (const auto& s : t.sheets) {
    json::object o = to_json(s);
    if (t.written_vp.count(s.player)) o["vp"] = vp_of(s);
    if (claims_in_body && s.player == t.claimant) o["claimed_win"] = true;
    players.push_back(std::move(o));
  }
  json::object body{{"players", std::move(players)}};
  if (!reason.empty()) body["reason"] = reason;
  return body;
}

// Checks a table's computed result against the independent reading above. Returns a message
// naming the first difference, empty when everything matches.
std::string compare_result(const json::value& result, const RandomTable& t) {
  std::set<std::string> claimants;
  if (!t.claimant.empty()) claimants.insert(t.claimant);
  auto expected = expected_placing(t.sheets, claimants);
  const auto& rows = result.at("players").as_array();
  if (rows.size() != t.sheets.size()) return "wrong number of players: " + json::serialize(result);
  int previous_place = 0;
  for (const auto& row : rows) {
    const std::string p = str(row.at("player"));
    const auto& e = expected.at(p);
    if (row.at("score") != e.vp || str(row.at("place")) != e.place ||
        str(row.at("points").at("exact")) != e.points.str()) {
      return p + " should have " + std::to_string(e.vp) + " VP, place " + e.place + ", " +
             e.points.str() + " points: " + json::serialize(result);
    }
    if (row.at("claimed_win") != (claimants.count(p) > 0)) return p + ": claimed_win is wrong";
    // The breakdown: first by the exception, a shared place, or a place alone.
    const bool shared = e.place.ends_with("=");
    const char* rule = e.by_claim ? "claimed_win" : shared ? "shared_place" : "place";
    if (row.at("lines").as_array().size() != 1 || row.at("lines").at(0).at("rule") != rule ||
        row.at("lines").at(0).at("points") != row.at("points")) {
      return p + ": the line should be " + rule + ": " + json::serialize(result);
    }
    int place = std::stoi(e.place);
    if (place < previous_place) return "not best first: " + json::serialize(result);
    previous_place = place;
  }
  return "";
}

// --- replaying the server's events into the library ------------------------------------------

// A JSON value as a client receives it: serialized and parsed again. Boost.JSON 1.81 parses
// doubles imprecisely (the last bit may differ), so a computed `value` is compared with the
// server's in the form both went through; the `exact` fields decide anyway.
json::value as_received(const json::value& v) { return json::parse(json::serialize(v)); }

// --- repeat opponents ------------------------------------------------------------------------

// How often each pair of players has shared a table so far.
using Meetings = std::map<std::pair<std::string, std::string>, int>;

int repeats_at(const std::vector<std::string>& seats, const Meetings& met) {
  int cost = 0;
  for (std::size_t x = 0; x < seats.size(); ++x) {
    for (std::size_t y = x + 1; y < seats.size(); ++y) {
      auto it = met.find(std::minmax(seats[x], seats[y]));
      if (it != met.end()) cost += it->second;
    }
  }
  return cost;
}

// Whether `players` (a multiple of 4) can sit at tables of four with at most `budget` repeat
// meetings, counted as catan.md's seating counts them (a pair's earlier meetings, summed). An
// exhaustive search, fast for the small budgets it is asked about.
bool seatable_within(const std::vector<std::string>& players, const Meetings& met, int budget) {
  if (budget < 0) return false;
  if (players.empty()) return true;
  const std::string& first = players[0];
  const std::size_t n = players.size();
  for (std::size_t a = 1; a < n; ++a) {
    for (std::size_t b = a + 1; b < n; ++b) {
      for (std::size_t c = b + 1; c < n; ++c) {
        const std::vector<std::string> table = {first, players[a], players[b], players[c]};
        const int cost = repeats_at(table, met);
        if (cost > budget) continue;
        std::vector<std::string> rest;
        for (std::size_t k = 1; k < n; ++k) {
          if (k != a && k != b && k != c) rest.push_back(players[k]);
        }
        if (seatable_within(rest, met, budget - cost)) return true;
      }
    }
  }
  return false;
}

// --- the fixture --------------------------------------------------------------------------

class CatanApi : public ApiFixture {
 protected:
  HttpClient judge_client(const std::string& token) { return client(token); }

  // A Catan tournament with these players (id, name).
  void create(const std::string& t, const std::vector<std::pair<std::string, std::string>>& players,
              const std::string& locale = "") {
    json::object body;
    if (!locale.empty()) body["locale"] = locale;
    create_tournament(t, "catan", players, std::move(body));
  }

  void seat_manual(const std::string& t, const std::vector<std::vector<std::string>>& tables) {
    json::array list;
    for (const auto& table : tables) {
      json::array players;
      for (const auto& p : table) players.emplace_back(p);
      list.push_back(std::move(players));
    }
    auto r = org().post("/v1/tournaments/" + t + "/rounds",
                        json::object{{"method", "manual"}, {"tables", std::move(list)}});
    ASSERT_EQ(r.status, 201) << r.body;
  }

  json::value standings(const std::string& t, std::optional<std::uint64_t> as_of = {}) {
    auto r = org().get("/v1/tournaments/" + t + "/standings" +
                       (as_of ? "?as_of=" + std::to_string(*as_of) : ""));
    EXPECT_EQ(r.status, 200) << r.body;
    return r.json();
  }

  static std::string table_path(const std::string& t, int round, int table,
                                const std::string& what = "result") {
    return "/v1/tournaments/" + t + "/rounds/" + std::to_string(round) + "/tables/" +
           std::to_string(table) + "/" + what;
  }
};

// --- 1. the conformance vectors ------------------------------------------------------------

// What the rejected cases must name beyond the rule ids of the vectors: the player and the
// field a judge has to fix (catan.md §2–§3; empty player for a rule about the whole table).
const std::map<std::string, std::vector<ErrorKey>> kRejectedAt = {
    {"two with 10+ and no claim", {{"C-11", "", "claimed_win"}}},
    {"claim by a player under 10 VP", {{"C-12", "b", "claimed_win"}}},
    {"no cities and one settlement", {{"C-3", "d", "settlements"}}},
    {"six VP cards at the table", {{"C-5", "", "vp_cards"}}},
    {"army holder is not the top knight count", {{"C-7", "a", "largest_army"}}},
    {"fifteen knights at the table", {{"C-6", "", "knights"}}},
    {"longest road longer than roads built", {{"C-8", "a", "longest_road"}}},
    {"road holder below length 5", {{"C-9", "b", "longest_road_holder"}}},
    {"written VP disagrees", {{"C-10", "a", "vp"}}},
};

TEST_F(CatanApi, EveryConformanceTableThroughTheApiWithClaimsAsActionsOrInTheResult) {
  const auto doc = conformance();
  const auto& cases = doc.at("tables").as_array();
  ASSERT_EQ(cases.size(), 13u);  // every case of the file is run
  HttpClient eva = judge_client(new_judge("Eva"));
  int n = 0;
  for (const auto& cv : cases) {
    const auto& c = cv.as_object();
    ++n;
    for (bool claims_in_body : {false, true}) {
      const std::string name = str(c.at("name"));
      SCOPED_TRACE(name + (claims_in_body ? " (claimed_win in the result)" : " (claims posted)"));
      const std::string t = "case-" + std::to_string(n) + (claims_in_body ? "-body" : "-posted");
      json::array sheets = c.at("players").as_array();
      std::vector<std::pair<std::string, std::string>> players;
      for (const auto& id : ids_of(sheets)) players.emplace_back(id, "Player " + id);
      create(t, players);
      seat_manual(t, {ids_of(sheets)});

      std::set<std::string> claimants;
      std::uint64_t version = 0;
      if (c.contains("claims")) {
        for (const auto& p : c.at("claims").as_array()) claimants.insert(str(p));
      }
      for (const auto& claimant : claimants) {
        if (claims_in_body) {
          for (auto& s : sheets) {
            if (str(s.at("player")) == claimant) s.as_object()["claimed_win"] = true;
          }
        } else {
          auto claim = eva.post(table_path(t, 1, 1, "claims"), json::object{{"player", claimant}});
          ASSERT_EQ(claim.status, 201) << claim.body;
          EXPECT_EQ(claim.header("ETag"), "\"" + std::to_string(++version) + "\"");
        }
      }
      // The check first: it answers what the write will, and writes nothing.
      const auto seq_before = org().get("/healthz").json().at("seq");
      auto check = eva.post(table_path(t, 1, 1, "result/check"), json::object{{"players", sheets}});
      EXPECT_EQ(org().get("/healthz").json().at("seq"), seq_before) << "a check appended";
      auto put = eva.put(table_path(t, 1, 1), json::object{{"players", sheets}}, kFirstEntry);
      EXPECT_EQ(check.status == 200 ? 201 : check.status, put.status) << check.body;
      if (put.status == 422) {
        EXPECT_EQ(check.json().at("errors"), put.json().at("errors"));
      } else if (check.status == 200) {
        EXPECT_EQ(check.json().at("ok"), true);
        EXPECT_EQ(check.json().at("seq"), seq_before);
        EXPECT_EQ(check.json().at("result"), put.json().at("result")) << check.body;
      }
      const auto& expect = c.at("expect").as_object();
      auto round = org().get("/v1/tournaments/" + t + "/rounds/1").json();
      const auto& shown = round.at("tables").at(0);

      if (!expect.at("valid").as_bool()) {
        expect_problem(put, 422);
        std::set<std::string> rules, expected_rules;
        for (const auto& [rule, player, field] : error_keys(put)) rules.insert(rule);
        for (const auto& r : expect.at("rules").as_array()) expected_rules.insert(str(r));
        EXPECT_EQ(rules, expected_rules) << put.body;
        EXPECT_EQ(error_keys(put), kRejectedAt.at(name)) << put.body;
        // Nothing was recorded: the table is open, at the version its claims made.
        EXPECT_EQ(shown.at("status"), "open");
        EXPECT_TRUE(shown.at("result").is_null());
        EXPECT_EQ(shown.at("version"), version);
        continue;
      }
      ASSERT_EQ(put.status, 201) << put.body;
      EXPECT_EQ(put.header("ETag"), "\"" + std::to_string(version + 1) + "\"");
      const json::value reply = put.json();
      const auto& result = reply.at("result");
      ASSERT_TRUE(result.is_object()) << put.body;
      const auto& rows = result.at("players").as_array();
      ASSERT_EQ(rows.size(), sheets.size());
      std::vector<std::string> order;
      for (const auto& row : rows) {
        const std::string p = str(row.at("player"));
        SCOPED_TRACE(p);
        order.push_back(p);
        EXPECT_EQ(row.at("score"), expect.at("vp").at(p));
        EXPECT_EQ(row.at("place"), expect.at("place").at(p));
        EXPECT_EQ(row.at("points").at("exact"), expect.at("points").at(p));
        EXPECT_DOUBLE_EQ(row.at("points").at("value").to_number<double>(),
                         Rational::parse(str(expect.at("points").at(p))).approx());
        EXPECT_EQ(row.at("claimed_win"), claimants.count(p) > 0);
        // The breakdown of the round points: one line, and it adds up.
        ASSERT_EQ(row.at("lines").as_array().size(), 1u);
        EXPECT_EQ(row.at("lines").at(0).at("points"), row.at("points"));
      }
      // Best first: the places never go down the list.
      for (std::size_t i = 1; i < rows.size(); ++i) {
        EXPECT_LE(std::stoi(str(rows[i - 1].at("place"))), std::stoi(str(rows[i].at("place"))));
      }
      EXPECT_EQ(put.json().at("status"), "reported");
      EXPECT_EQ(shown.at("status"), "reported");
      EXPECT_EQ(shown.at("result"), result);
    }
  }
}

TEST_F(CatanApi, TheConformanceTournamentGivesTheExpectedStandings) {
  const auto doc = conformance();
  const auto& cases = doc.at("tournaments").as_array();
  ASSERT_EQ(cases.size(), 1u);
  HttpClient eva = judge_client(new_judge("Eva"));
  int n = 0;
  for (const auto& cv : cases) {
    const auto& c = cv.as_object();
    SCOPED_TRACE(str(c.at("name")));
    const std::string t = "conf-" + std::to_string(++n);
    std::vector<std::pair<std::string, std::string>> players;
    for (const auto& p : c.at("players").as_array()) {
      players.emplace_back(str(p.at("id")), str(p.at("name")));
    }
    create(t, players);
    // The VP share each player should have, from the sheets: per game VP / table VP, averaged.
    std::map<std::string, Rational> share_sum;
    std::map<std::string, int> games;
    int round = 0;
    for (const auto& r : c.at("rounds").as_array()) {
      ++round;
      std::vector<std::vector<std::string>> tables;
      for (const auto& table : r.as_array()) tables.push_back(ids_of(table.as_array()));
      seat_manual(t, tables);
      int number = 0;
      for (const auto& table : r.as_array()) {
        auto put =
            eva.put(table_path(t, round, ++number), json::object{{"players", table}}, kFirstEntry);
        ASSERT_EQ(put.status, 201) << put.body;
        std::int64_t total = 0;
        for (const auto& row : result_rows(put)) {
          total += row.at("score").to_number<std::int64_t>();
        }
        for (const auto& row : result_rows(put)) {
          const std::string p = str(row.at("player"));
          share_sum[p] += Rational(row.at("score").to_number<std::int64_t>(), total);
          ++games[p];
        }
      }
    }
    const auto& expect = c.at("expect").as_object();
    auto body = standings(t);
    const auto& rows = body.at("rows").as_array();
    std::vector<std::string> order;
    for (const auto& row : rows) {
      const std::string p = str(row.at("player"));
      SCOPED_TRACE(p);
      order.push_back(p);
      EXPECT_EQ(row.at("rank"), order.size());
      EXPECT_EQ(row.at("games"), games.at(p));
      EXPECT_EQ(row.at("round_points").at("exact"), expect.at("round_points").at(p));
      EXPECT_EQ(row.at("vp"), expect.at("vp").at(p));
      const Rational share = share_sum.at(p) / Rational(games.at(p));
      EXPECT_EQ(str(row.at("vp_share").at("exact")), share.str());
      EXPECT_DOUBLE_EQ(row.at("vp_share").at("value").to_number<double>(), share.approx());
      auto named =
          std::find_if(players.begin(), players.end(), [&](const auto& x) { return x.first == p; });
      EXPECT_EQ(str(row.at("name")), named->second);
    }
    std::vector<std::string> expected_order;
    for (const auto& p : expect.at("order").as_array()) expected_order.push_back(str(p));
    EXPECT_EQ(order, expected_order);
    EXPECT_EQ(body.at("seq"), org().get("/v1/tournaments/" + t).json().at("seq"));
  }
}

// --- 2. a whole tournament by concurrent judges, against the library -----------------------

TEST_F(CatanApi, AWholeTournamentByFourJudgesAtOnceHasTheStandingsOfTheLibrary) {
  constexpr int kPlayers = 24, kRounds = 5, kJudges = 4;
  constexpr std::uint64_t kSeed = 20260418;
  const std::string t = "brno";
  const std::vector<std::string> names = {
      "Adéla", "Bohumil", "Čeněk",    "Dana",     "Eliška", "František", "Hana",   "Chrudoš",
      "Ivana", "Jiří",    "Kateřina", "Ladislav", "Marie",  "Nikola",    "Ondřej", "Pavla",
      "Radek", "Řehoř",   "Šárka",    "Tomáš",    "Ursula", "Věra",      "Zbyněk", "Žofie"};
  std::vector<std::pair<std::string, std::string>> players;
  for (int i = 0; i < kPlayers; ++i) {
    players.emplace_back("p" + std::to_string(i + 1), names[static_cast<std::size_t>(i)]);
  }
  create(t, players, "cs");
  std::vector<std::string> tokens;
  for (int j = 0; j < kJudges; ++j) tokens.push_back(new_judge("Judge " + std::to_string(j + 1)));

  Meetings met;  // who has met whom in the rounds so far
  int forced_repeats = 0;
  std::atomic<int> ties = 0, claims_posted = 0, claims_in_body = 0, exceptions = 0, corrections = 0,
                   voids = 0, stale = 0;
  for (int round = 1; round <= kRounds; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    json::object seat_body = round == 1 ? json::object{{"method", "random"}, {"seed", 4242}}
                                        : json::object{{"method", "standings"}};
    auto seated = org().post("/v1/tournaments/" + t + "/rounds", seat_body);
    ASSERT_EQ(seated.status, 201) << seated.body;
    EXPECT_EQ(seated.json().at("round"), round);
    EXPECT_EQ(seated.json().at("method"), round == 1 ? "random" : "standings");
    if (round == 1) {
      EXPECT_EQ(seated.json().at("seed"), 4242);
    }
    std::vector<std::vector<std::string>> tables;
    std::set<std::string> everyone;
    const json::value seating = seated.json();
    for (const auto& table : seating.at("tables").as_array()) {
      std::vector<std::string> seats;
      for (const auto& p : table.at("players").as_array()) seats.push_back(str(p));
      EXPECT_EQ(seats.size(), 4u);
      EXPECT_EQ(table.at("table"), tables.size() + 1);
      everyone.insert(seats.begin(), seats.end());
      tables.push_back(seats);
    }
    ASSERT_EQ(tables.size(), 6u);
    EXPECT_EQ(everyone.size(), std::size_t(kPlayers));
    // Repeat opponents kept to the minimum the history allows: no seating has fewer.
    int repeats = 0;
    for (const auto& seats : tables) repeats += repeats_at(seats, met);
    EXPECT_FALSE(seatable_within(std::vector<std::string>(everyone.begin(), everyone.end()), met,
                                 repeats - 1))
        << repeats << " repeat meetings where fewer were possible";
    forced_repeats += repeats;
    for (const auto& seats : tables) {
      for (std::size_t x = 0; x < seats.size(); ++x) {
        for (std::size_t y = x + 1; y < seats.size(); ++y) ++met[std::minmax(seats[x], seats[y])];
      }
    }

    // Judge j enters tables j+1, j+1+kJudges, …, all judges at once.
    auto judge = [&](int j) {
      HttpClient client = judge_client(tokens[static_cast<std::size_t>(j)]);
      for (std::size_t i = static_cast<std::size_t>(j); i < tables.size(); i += kJudges) {
        const int number = static_cast<int>(i) + 1;
        const std::string where =
            "round " + std::to_string(round) + " table " + std::to_string(number);
        std::mt19937_64 rng(kSeed + static_cast<std::uint64_t>(round * 100 + number));
        RandomTable table = random_table(rng, tables[i]);
        std::vector<std::uint64_t> claim_seqs;
        if (!table.claimant.empty() && !table.claim_in_body) {
          auto claim = client.post(table_path(t, round, number, "claims"),
                                   json::object{{"player", table.claimant}});
          EXPECT_EQ(claim.status, 201) << where << ": " << claim.body;
          if (claim.status != 201) return;
          claim_seqs.push_back(seq_of(claim));
          ++claims_posted;
        }
        if (!table.claimant.empty() && table.claim_in_body) ++claims_in_body;
        auto put = client.put(table_path(t, round, number), result_body(table, table.claim_in_body),
                              kFirstEntry);
        EXPECT_EQ(put.status, 201) << where << ": " << put.body;
        if (put.status != 201) return;
        EXPECT_EQ(compare_result(put.json().at("result"), table), "") << where;
        for (const auto& row : result_rows(put)) {
          if (str(row.at("place")).ends_with("=")) {
            ++ties;
            break;
          }
        }
        // The exception decided the order: the claimant first with no more VP than another.
        const auto rows = result_rows(put);
        std::int64_t others_top = 0;
        for (std::size_t k = 1; k < rows.size(); ++k) {
          others_top = std::max(others_top, rows[k].at("score").to_number<std::int64_t>());
        }
        if (rows[0].at("lines").at(0).at("rule") == "claimed_win" &&
            rows[0].at("score").to_number<std::int64_t>() <= others_top) {
          ++exceptions;
        }

        // Some tables are corrected after the fact: a claim posted before is voided first
        // (which moves the table on, so the judge's version is stale once), then the whole
        // result is replaced, the claim, if any, now in the body.
        if ((round * 7 + number) % 4 != 0) continue;
        std::string version = put.header("ETag");
        for (std::uint64_t seq : claim_seqs) {
          auto voided =
              client.post("/v1/tournaments/" + t + "/events/" + std::to_string(seq) + "/void",
                          json::object{{"reason", "claim entered for the wrong game"}});
          EXPECT_EQ(voided.status, 200) << where << ": " << voided.body;
          EXPECT_EQ(voided.json().at("voided"), seq);
          ++voids;
        }
        RandomTable fixed = random_table(rng, tables[i]);
        json::object body = result_body(fixed, true, "recounted the cities");
        auto replaced = client.put(table_path(t, round, number), body, {{"If-Match", version}});
        if (!claim_seqs.empty()) {
          EXPECT_EQ(replaced.status, 412) << where << ": " << replaced.body;
          EXPECT_EQ(replaced.json().at("table").at("version"),
                    std::stoi(version.substr(1)) + static_cast<int>(claim_seqs.size()));
          ++stale;
          replaced = client.put(table_path(t, round, number), body,
                                {{"If-Match", replaced.header("ETag")}});
        }
        EXPECT_EQ(replaced.status, 200) << where << ": " << replaced.body;
        if (replaced.status != 200) return;
        EXPECT_EQ(str(replaced.json().at("entered_by").at("name")),
                  "Judge " + std::to_string(j + 1));
        if (!fixed.claimant.empty()) ++claims_in_body;
        EXPECT_EQ(compare_result(replaced.json().at("result"), fixed), "") << where;
        ++corrections;
      }
    };
    std::vector<std::thread> judges;
    for (int j = 0; j < kJudges; ++j) judges.emplace_back(judge, j);
    for (auto& th : judges) th.join();
    if (HasFailure()) return;
  }
  // The draw covered what it should: shared places, both ways of claiming, the exception,
  // corrections, voids and a stale version.
  EXPECT_GT(ties, 0);
  EXPECT_GT(claims_posted, 0);
  EXPECT_GT(claims_in_body, 0);
  EXPECT_GT(exceptions, 0);
  EXPECT_GT(corrections, 0);
  EXPECT_GT(voids, 0);
  EXPECT_GT(stale, 0);
  std::cout << "[ drawn    ] " << ties << " tables with shared places, " << claims_posted
            << " claims posted, " << claims_in_body << " in results, " << exceptions
            << " claimants first only by the exception, " << corrections << " corrections, "
            << voids << " voids; " << forced_repeats << " repeat meetings, none avoidable\n";

  // The library, fed with the server's own events in order, must agree on everything: each
  // seating (the stored seed replays the draw; standings seating from the standings before),
  // the standings before each round, every table's result, and the final standings.
  auto game = projections::catan::make_catan_game();
  auto events = all_events(org(), t, 50);
  ASSERT_FALSE(events.empty());
  ASSERT_EQ(events.front().at("type"), "tournament_created");
  ServerReplay replay(events.front(),
                      {Which::PLAYER_REGISTERED, Which::PLAYER_DROPPED, Which::ROUND_SEATED,
                       Which::CATAN_RESULT, Which::CLAIMED_WIN, Which::VOID});
  std::uint64_t previous_seq = events.front().at("seq").to_number<std::uint64_t>();
  int seatings = 0;
  for (std::size_t i = 1; i < events.size(); ++i) {
    replay.apply(events[i], [&](const projections::Tournament& before,
                                const json::object& seating) {
      ++seatings;
      SCOPED_TRACE("seating of round " + std::to_string(seatings));
      EXPECT_EQ(standings(t, previous_seq).at("rows"),
                as_received(game->standings(before).at("rows")));
      projections::SeatingRequest request;
      request.round = static_cast<std::uint32_t>(seating.at("round").to_number<std::uint64_t>());
      request.method = seating.at("method") == "random" ? schema::SeatingMethod::RANDOM
                                                        : schema::SeatingMethod::STANDINGS;
      request.seed = seating.at("seed").to_number<std::uint64_t>();
      if (seatings == 1) {
        EXPECT_EQ(request.seed, 4242u);  // the client's seed, stored with the draw
      }
      auto drawn = game->seat_round(before, request);
      ASSERT_TRUE(drawn) << drawn.errors.at(0).message;
      const auto& stored = seating.at("tables").as_array();
      ASSERT_EQ(stored.size(), drawn.value->tables.size());
      for (std::size_t k = 0; k < stored.size(); ++k) {
        std::vector<std::string> seats;
        for (const auto& p : stored[k].at("players").as_array()) seats.push_back(str(p));
        EXPECT_EQ(seats, drawn.value->tables[k].players) << "table " << k + 1;
      }
    });
    previous_seq = events[i].at("seq").to_number<std::uint64_t>();
  }
  EXPECT_EQ(seatings, kRounds);
  const auto library = replay.tournament();
  for (int round = 1; round <= kRounds; ++round) {
    auto sheet = org().get("/v1/tournaments/" + t + "/rounds/" + std::to_string(round)).json();
    for (const auto& table : sheet.at("tables").as_array()) {
      const auto number = static_cast<std::uint32_t>(table.at("table").to_number<std::uint64_t>());
      const auto* state = library.table(static_cast<std::uint32_t>(round), number);
      ASSERT_NE(state, nullptr);
      auto expected = game->table_result(library, *state);
      ASSERT_TRUE(expected);
      EXPECT_EQ(table.at("result"), as_received(*expected))
          << "round " << round << " table " << number;
    }
  }
  auto final_standings = standings(t);
  const auto& rows = final_standings.at("rows").as_array();
  ASSERT_EQ(rows.size(), std::size_t(kPlayers));
  EXPECT_EQ(final_standings.at("rows"), as_received(game->standings(library).at("rows")));
  // Every player played every round; the round points handed out add up to 11 per table.
  Rational total;
  for (const auto& row : rows) {
    EXPECT_EQ(row.at("games"), kRounds);
    total += Rational::parse(str(row.at("round_points").at("exact")));
  }
  EXPECT_EQ(total, Rational(11 * 6 * kRounds));
  EXPECT_EQ(org().get("/v1/tournaments/" + t).json().at("notices").as_array().size(), 0u);
}

// --- 3. claims and corrections --------------------------------------------------------------

std::vector<Sheet> two_at_ten() {  // a 10 VP, b 12, c 5, d 2 (conformance "claimed win …")
  return {{"a", 2, 3, 0, 3, 6, 4, true, false},
          {"b", 3, 3, 1, 1, 10, 6, false, true},
          {"c", 3, 1, 0, 1, 5, 2},
          {"d", 2, 0, 0, 0, 2, 1}};
}

json::object body_of(const std::vector<Sheet>& sheets, const std::string& reason = "") {
  json::array players;
  for (const auto& s : sheets) players.push_back(to_json(s));
  json::object body{{"players", std::move(players)}};
  if (!reason.empty()) body["reason"] = reason;
  return body;
}

// round points per player, as "exact" strings, from a standings answer.
std::map<std::string, std::string> points_of(const json::value& standings) {
  std::map<std::string, std::string> out;
  for (const auto& row : standings.at("rows").as_array()) {
    out[str(row.at("player"))] = str(row.at("round_points").at("exact"));
  }
  return out;
}
std::vector<std::string> order_of(const json::value& standings) {
  std::vector<std::string> out;
  for (const auto& row : standings.at("rows").as_array()) out.push_back(str(row.at("player")));
  return out;
}

TEST_F(CatanApi, AVoidedClaimNoLongerPutsTheClaimantFirstAndTheOrganizerIsTold) {
  create("cup", {{"a", "Alena"}, {"b", "Bedřich"}, {"c", "Cecílie"}, {"d", "David"}});
  seat_manual("cup", {{"a", "b", "c", "d"}});
  HttpClient eva = judge_client(new_judge("Eva"));

  auto claim = eva.post(table_path("cup", 1, 1, "claims"), json::object{{"player", "a"}});
  ASSERT_EQ(claim.status, 201) << claim.body;
  EXPECT_EQ(claim.header("ETag"), "\"1\"");
  // One claimant per table: a second is refused at once, as is a player from elsewhere.
  auto second = eva.post(table_path("cup", 1, 1, "claims"), json::object{{"player", "b"}});
  expect_problem(second, 422);
  EXPECT_EQ(error_keys(second), (std::vector<ErrorKey>{{"C-11", "b", "player"}}));
  auto stranger = eva.post(table_path("cup", 1, 1, "claims"), json::object{{"player", "zed"}});
  expect_problem(stranger, 422);
  EXPECT_EQ(error_keys(stranger), (std::vector<ErrorKey>{{"C-0", "zed", "player"}}));
  auto again = eva.post(table_path("cup", 1, 1, "claims"), json::object{{"player", "a"}});
  expect_problem(again, 422);
  EXPECT_EQ(error_keys(again), (std::vector<ErrorKey>{{"C-11", "a", "player"}}));

  auto put = eva.put(table_path("cup", 1, 1), body_of(two_at_ten()), kFirstEntry);
  ASSERT_EQ(put.status, 201) << put.body;
  const json::value first = result_rows(put).at(0);
  EXPECT_EQ(first.at("player"), "a");  // 10 VP, placed before b's 12 by the claim
  EXPECT_EQ(first.at("lines").at(0).at("rule"), "claimed_win");
  EXPECT_EQ(first.at("claimed_win"), true);
  const std::uint64_t before_void = seq_of(put);
  EXPECT_EQ(order_of(standings("cup")), (std::vector<std::string>{"a", "b", "c", "d"}));
  EXPECT_EQ(points_of(standings("cup"))["a"], "5");

  // A claim cannot withdraw the result: its correction must replace a claim.
  auto sneaky = eva.post(
      table_path("cup", 1, 1, "claims"),
      json::object{
          {"player", "b"}, {"supersedes", put.json().at("result_seq")}, {"reason", "b claimed"}});
  expect_problem(sneaky, 422);
  EXPECT_EQ(std::get<2>(error_keys(sneaky).at(0)), "supersedes");

  const std::string void_path =
      "/v1/tournaments/cup/events/" + std::to_string(seq_of(claim)) + "/void";
  expect_problem(eva.post(void_path, json::object{}), 422);  // a void needs a reason
  auto voided = eva.post(void_path, json::object{{"reason", "a never announced it"}});
  ASSERT_EQ(voided.status, 200) << voided.body;
  EXPECT_EQ(voided.json().at("voided"), seq_of(claim));
  expect_problem(eva.post(void_path, json::object{{"reason", "twice"}}), 422);

  // The result stays, placed by VP alone, and the organizer is told what is missing.
  auto table = org().get("/v1/tournaments/cup/rounds/1").json().at("tables").at(0);
  EXPECT_EQ(table.at("status"), "reported");
  EXPECT_EQ(table.at("version"), 3);
  EXPECT_EQ(table.at("result").at("players").at(0).at("player"), "b");
  EXPECT_EQ(table.at("result").at("players").at(0).at("claimed_win"), false);
  EXPECT_EQ(table.at("result").at("players").at(1).at("player"), "a");
  EXPECT_EQ(table.at("result").at("players").at(1).at("claimed_win"), false);
  auto notices = org().get("/v1/tournaments/cup").json().at("notices").as_array();
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_NE(str(notices[0]).find("(C-11)"), std::string::npos) << notices[0];
  EXPECT_NE(str(notices[0]).find("round 1, table 1"), std::string::npos) << notices[0];
  auto now = standings("cup");
  EXPECT_EQ(order_of(now), (std::vector<std::string>{"b", "a", "c", "d"}));
  EXPECT_EQ(points_of(now)["b"], "5");
  EXPECT_EQ(points_of(now)["a"], "3");
  // As of the result, before the void: the claim still counted.
  auto then = standings("cup", before_void);
  EXPECT_EQ(order_of(then), (std::vector<std::string>{"a", "b", "c", "d"}));
  EXPECT_EQ(then.at("as_of"), before_void);

  // Recording b's claim now (b is eligible, 12 VP) settles the table; b stays first.
  auto b_claims = eva.post(table_path("cup", 1, 1, "claims"), json::object{{"player", "b"}});
  ASSERT_EQ(b_claims.status, 201) << b_claims.body;
  EXPECT_TRUE(org().get("/v1/tournaments/cup").json().at("notices").as_array().empty());
  auto settled = org().get("/v1/tournaments/cup/rounds/1").json().at("tables").at(0).at("result");
  EXPECT_EQ(settled.at("players").at(0).at("player"), "b");
  EXPECT_EQ(settled.at("players").at(0).at("lines").at(0).at("rule"), "claimed_win");
  EXPECT_EQ(settled.at("players").at(0).at("claimed_win"), true);
  // A claim by c (5 VP) once the result is there: C-12 (b stays the one eligible claimant).
  auto late = eva.post(table_path("cup", 1, 1, "claims"), json::object{{"player", "c"}});
  expect_problem(late, 422);
  EXPECT_EQ(error_keys(late), (std::vector<ErrorKey>{{"C-12", "c", "player"}}));
}

TEST_F(CatanApi, ACorrectionRecomputesEverythingAndAsOfShowsTheStandingsBeforeIt) {
  // Czech collation: "Ch" sorts after "H" (root would put Chrudoš first).
  create("open", {{"a", "Adam"}, {"b", "Chrudoš"}, {"c", "Hana"}, {"d", "Dita"}}, "cs");
  seat_manual("open", {{"a", "b", "c", "d"}});
  HttpClient eva = judge_client(new_judge("Eva"));
  HttpClient petr = judge_client(new_judge("Petr"));

  // The conformance "clear order": a 10, b 8, c 6, d 5.
  const std::vector<Sheet> clear = {{"a", 2, 3, 0, 3, 6, 4, true, false},
                                    {"b", 3, 1, 1, 1, 10, 6, false, true},
                                    {"c", 4, 1, 0, 2, 7, 4},
                                    {"d", 2, 1, 1, 0, 5, 3}};
  auto first = eva.put(table_path("open", 1, 1), body_of(clear), kFirstEntry);
  ASSERT_EQ(first.status, 201) << first.body;
  EXPECT_EQ(first.header("ETag"), "\"1\"");
  const std::uint64_t before_correction = seq_of(first);
  EXPECT_EQ(points_of(standings("open")),
            (std::map<std::string, std::string>{{"a", "5"}, {"b", "3"}, {"c", "2"}, {"d", "1"}}));

  // b's road was 4 long, not 6: b loses Longest Road and ties c at 6 VP.
  std::vector<Sheet> corrected = clear;
  corrected[1].longest_road = 4;
  corrected[1].longest_road_holder = false;
  // Petr enters his own sheet at the same time: he is told Eva was first, and what she entered.
  auto late = petr.put(table_path("open", 1, 1), body_of(corrected), kFirstEntry);
  expect_problem(late, 412);
  EXPECT_EQ(late.json().at("table").at("entered_by").at("name"), "Eva");
  EXPECT_EQ(late.json().at("table").at("result"), first.json().at("result"));
  EXPECT_EQ(late.header("ETag"), "\"1\"");
  // A replacement needs a reason and the current version.
  auto no_reason = petr.put(table_path("open", 1, 1), body_of(corrected), {{"If-Match", "\"1\""}});
  expect_problem(no_reason, 422);
  EXPECT_EQ(std::get<2>(error_keys(no_reason).at(0)), "reason");
  // A correction is validated like a first entry.
  std::vector<Sheet> broken = corrected;
  broken[3].settlements = 1;
  broken[3].cities = 0;   // C-3
  broken[0].knights = 2;  // C-7: a holds Largest Army with 2 knights
  auto refused =
      petr.put(table_path("open", 1, 1), body_of(broken, "recount"), {{"If-Match", "\"1\""}});
  expect_problem(refused, 422);
  EXPECT_EQ(error_keys(refused),
            (std::vector<ErrorKey>{{"C-3", "d", "settlements"}, {"C-7", "a", "largest_army"}}));

  // Checking the correction: the same refusals, then what it will compute — and nothing written.
  auto check_no_reason = petr.post(table_path("open", 1, 1, "result/check"), body_of(corrected));
  expect_problem(check_no_reason, 422);
  EXPECT_EQ(error_keys(check_no_reason), error_keys(no_reason));
  auto check_broken =
      petr.post(table_path("open", 1, 1, "result/check"), body_of(broken, "recount"));
  EXPECT_EQ(error_keys(check_broken), error_keys(refused));
  auto check = petr.post(table_path("open", 1, 1, "result/check"),
                         body_of(corrected, "b's road was 4 long"));
  ASSERT_EQ(check.status, 200) << check.body;
  std::map<std::string, std::string> checked;
  const json::value checked_body = check.json();
  for (const auto& row : checked_body.at("result").at("players").as_array()) {
    checked[str(row.at("player"))] = str(row.at("place")) + " " + str(row.at("points").at("exact"));
  }
  EXPECT_EQ(checked, (std::map<std::string, std::string>{
                         {"a", "1 5"}, {"b", "2= 5/2"}, {"c", "2= 5/2"}, {"d", "4 1"}}));
  EXPECT_EQ(check.json().at("seq"), before_correction);  // the table is still at Eva's entry
  EXPECT_EQ(points_of(standings("open")),
            (std::map<std::string, std::string>{{"a", "5"}, {"b", "3"}, {"c", "2"}, {"d", "1"}}));

  auto fixed = petr.put(table_path("open", 1, 1), body_of(corrected, "b's road was 4 long"),
                        {{"If-Match", "\"1\""}});
  ASSERT_EQ(fixed.status, 200) << fixed.body;
  EXPECT_EQ(fixed.header("ETag"), "\"2\"");
  EXPECT_EQ(fixed.json().at("entered_by").at("name"), "Petr");
  std::map<std::string, std::string> places;
  for (const auto& row : result_rows(fixed)) {
    places[str(row.at("player"))] = str(row.at("place")) + " " + str(row.at("points").at("exact"));
  }
  EXPECT_EQ(places, (std::map<std::string, std::string>{
                        {"a", "1 5"}, {"b", "2= 5/2"}, {"c", "2= 5/2"}, {"d", "4 1"}}));

  // b and c: the same round points, VP and VP share (6/27); the name decides, by cs collation.
  auto now = standings("open");
  EXPECT_EQ(order_of(now), (std::vector<std::string>{"a", "c", "b", "d"}));
  EXPECT_EQ(now.at("rows").at(1).at("vp_share").at("exact"), "2/9");
  EXPECT_EQ(now.at("rows").at(2).at("vp_share").at("exact"), "2/9");
  EXPECT_EQ(now.at("rows").at(1).at("round_points").at("value").to_number<double>(), 2.5);

  auto then = standings("open", before_correction);
  EXPECT_EQ(order_of(then), (std::vector<std::string>{"a", "b", "c", "d"}));
  EXPECT_EQ(points_of(then),
            (std::map<std::string, std::string>{{"a", "5"}, {"b", "3"}, {"c", "2"}, {"d", "1"}}));
  EXPECT_EQ(then.at("rows").at(1).at("vp"), 8);
  EXPECT_EQ(then.at("seq"), before_correction);
  auto seated_only = standings("open", before_correction - 1);
  for (const auto& row : seated_only.at("rows").as_array()) EXPECT_EQ(row.at("games"), 0);

  // The audit shows the chain, and a result cannot be voided (only corrected).
  auto audit = eva.get("/v1/tournaments/open/audit?round=1&table=1").json().at("events").as_array();
  ASSERT_EQ(audit.size(), 3u);  // the seating and both entries
  EXPECT_EQ(audit[1].at("superseded_by"), audit[2].at("seq"));
  EXPECT_EQ(audit[2].at("reason"), "b's road was 4 long");
  auto void_result =
      eva.post("/v1/tournaments/open/events/" + std::to_string(before_correction) + "/void",
               json::object{{"reason", "oops"}});
  expect_problem(void_result, 422);
}

TEST_F(CatanApi, EveryBrokenRuleOfAResultIsReportedAtOnceWithPlayerAndField) {
  create("many", {{"a", "A"}, {"b", "B"}, {"c", "C"}, {"d", "D"}, {"e", "E"}, {"f", "F"}});
  seat_manual("many", {{"a", "b", "c"}, {"d", "e", "f"}});
  HttpClient eva = judge_client(new_judge("Eva"));

  Sheet a{"a", 6, 1, 0, 0, 5, 3};    // C-1: six settlements
  Sheet b{"b", 2, 5, 6, -1, 16, 3};  // C-2 cities, C-4 vp_cards, C-6 knights, C-8 roads
  Sheet d{"d", 2, 1, 0, 0, 5, 3};    // seated at table 2, not here (C-0); 4 VP, not 5 (C-10)
  json::object body = body_of({a, b, d});
  body["players"].as_array()[2].as_object()["vp"] = 5;
  auto r = eva.put(table_path("many", 1, 1), body, kFirstEntry);
  expect_problem(r, 422);
  // Every violation, by rule id, then in the order of the players in the body; c, seated here
  // but missing, is named too. Rules that read a value already out of range stay quiet
  // (C-3, C-5, the knights sum of C-6, C-7, C-9).
  EXPECT_EQ(error_keys(r), (std::vector<ErrorKey>{{"C-0", "d", "player"},
                                                  {"C-0", "c", "players"},
                                                  {"C-1", "a", "settlements"},
                                                  {"C-2", "b", "cities"},
                                                  {"C-4", "b", "vp_cards"},
                                                  {"C-6", "b", "knights"},
                                                  {"C-8", "b", "roads"},
                                                  {"C-10", "d", "vp"}}))
      << r.body;

  // Structure is checked before the rules: an unknown field, a wrong type, a missing field.
  json::object odd =
      body_of({{"a", 2, 1, 0, 0, 5, 3}, {"b", 2, 1, 0, 0, 5, 3}, {"c", 2, 1, 0, 0, 5, 3}});
  auto& rows = odd["players"].as_array();
  rows[0].as_object()["colour"] = "red";
  rows[1].as_object()["cities"] = "two";
  rows[2].as_object().erase("roads");
  auto structural = eva.put(table_path("many", 1, 1), odd, kFirstEntry);
  expect_problem(structural, 422);
  std::set<ErrorKey> keys;
  for (const auto& k : error_keys(structural)) keys.insert(k);
  EXPECT_EQ(keys,
            (std::set<ErrorKey>{
                {"schema", "a", "colour"}, {"schema", "b", "cities"}, {"schema", "c", "roads"}}))
      << structural.body;

  // Three players with three cities and a settlement each: a three-way tie at 7 VP.
  auto tied =
      eva.put(table_path("many", 1, 1),
              body_of({{"a", 1, 3, 0, 0, 5, 3}, {"b", 1, 3, 0, 0, 5, 3}, {"c", 1, 3, 0, 0, 5, 3}}),
              kFirstEntry);
  ASSERT_EQ(tied.status, 201) << tied.body;
  for (const auto& row : result_rows(tied)) {
    EXPECT_EQ(row.at("place"), "1=");
    EXPECT_EQ(row.at("points").at("exact"), "10/3");
    EXPECT_EQ(row.at("lines").at(0).at("rule"), "shared_place");
    EXPECT_EQ(row.at("lines").at(0).at("shared_by"), 3);
  }
  EXPECT_EQ(org().get("/v1/tournaments/many/rounds/1").json().at("reported"), 1);
}

TEST_F(CatanApi, TheTournamentsRulesChangeTheRoundPointsAndTheNumberOfRounds) {
  auto unknown =
      org().post("/v1/tournaments", json::object{{"id", "odd"},
                                                 {"name", "Odd"},
                                                 {"game", "catan"},
                                                 {"rules", json::object{{"colour", 1}}}});
  expect_problem(unknown, 422);
  EXPECT_EQ(error_keys(unknown), (std::vector<ErrorKey>{{"rules", "", "colour"}}));
  auto rising =
      org().post("/v1/tournaments",
                 json::object{{"id", "odd"},
                              {"name", "Odd"},
                              {"game", "catan"},
                              {"rules", json::object{{"round_points_3", json::array{1, 2, 3}}}}});
  expect_problem(rising, 422);
  EXPECT_EQ(error_keys(rising), (std::vector<ErrorKey>{{"rules", "", "round_points_3"}}));

  auto created = org().post(
      "/v1/tournaments",
      json::object{
          {"id", "final"},
          {"name", "Final"},
          {"game", "catan"},
          {"rules", json::object{{"round_points_4", json::array{6, 4, 2, 0}}, {"rounds", 1}}}});
  ASSERT_EQ(created.status, 201) << created.body;
  EXPECT_EQ(created.json().at("rules"),
            json::parse(R"({"round_points_4":[6,4,2,0],"round_points_3":[5,3,2],"rounds":1})"));
  for (const std::string p : {"a", "b", "c", "d"}) {
    ASSERT_EQ(
        org().post("/v1/tournaments/final/players", json::object{{"id", p}, {"name", p}}).status,
        201);
  }
  seat_manual("final", {{"a", "b", "c", "d"}});
  HttpClient eva = judge_client(new_judge("Eva"));
  // a 10, b 6, c 6, d 5: b and c share 2nd and 3rd, (4 + 2) / 2 each.
  const std::vector<Sheet> sheets = {{"a", 2, 3, 0, 3, 6, 4, true, false},
                                     {"b", 3, 1, 1, 1, 8, 4},
                                     {"c", 4, 1, 0, 2, 7, 4},
                                     {"d", 2, 1, 1, 0, 5, 3}};
  auto put = eva.put(table_path("final", 1, 1), body_of(sheets), kFirstEntry);
  ASSERT_EQ(put.status, 201) << put.body;
  EXPECT_EQ(points_of(standings("final")),
            (std::map<std::string, std::string>{{"a", "6"}, {"b", "3"}, {"c", "3"}, {"d", "0"}}));
  // One round planned: a second is refused by the rules, whatever the method.
  auto more = org().post("/v1/tournaments/final/rounds", json::object{{"method", "random"}});
  expect_problem(more, 422);
  EXPECT_EQ(std::get<0>(error_keys(more).at(0)), "seating");
}

}  // namespace
}  // namespace tally::testing
