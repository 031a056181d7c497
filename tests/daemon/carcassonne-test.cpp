// Carcassonne through the real tallyd over real sockets: the stateless calculator against the
// public conformance vectors, scorings at a table (running totals, results that must agree with
// them, voids and corrections), and whole Swiss events seated by the server and entered by
// concurrent judges — checked against the pairing rule of carcassonne.md §2, against a reckoning
// of our own, and against the library's standings for the same events (exact JSON rows).
#include "projections/carcassonne/carcassonne_game.hpp"
#include "projections/rational.hpp"
#include "tests/daemon/api_fixture.hpp"
#include "tests/support/http_client.hpp"
#include "tests/support/problem.hpp"
#include "tests/support/tallyd_process.hpp"
#include "tests/support/temp_dir.hpp"
#include "tests/support/tournament_builder.hpp"

#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <algorithm>
#include <fstream>
#include <limits>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <thread>
#include <tuple>

namespace tally::testing {
namespace {

namespace json = boost::json;
using Which = schema::Event::Payload::Which;

const std::map<std::string, std::string> kFirstEntry = {{"If-None-Match", "*"}};

const projections::Game& library() {
  static const auto game = projections::carcassonne::make_carcassonne_game();
  return *game;
}

std::uint64_t seq_of(const HttpReply& r) { return r.json().at("seq").to_number<std::uint64_t>(); }

// A value as it comes back over the wire (the library's doubles and integers re-read), so that
// what the daemon sent and what the library computes compare as JSON.
json::value wire(const json::value& v) { return json::parse(json::serialize(v)); }

std::string str(const json::value& v) { return std::string(v.as_string()); }

Rational exact(const json::value& v) { return Rational::parse(str(v.at("exact"))); }

// The errors of a problem answer as (rule, player, field); every entry has a message.
using ErrorKey = std::tuple<std::string, std::string, std::string>;
std::set<ErrorKey> errors_of(const HttpReply& r) {
  std::set<ErrorKey> out;
  auto body = r.json();
  if (!body.is_object() || !body.as_object().contains("errors")) return out;
  for (const auto& e : body.at("errors").as_array()) {
    const auto& o = e.as_object();
    EXPECT_TRUE(o.contains("message") && o.at("message").is_string() &&
                !o.at("message").as_string().empty())
        << json::serialize(e);
    auto member = [&](const char* key) {
      return o.contains(key) ? std::string(o.at(key).as_string()) : std::string();
    };
    out.emplace(member("rule"), member("player"), member("field"));
  }
  return out;
}

bool has_rule(const HttpReply& r, const std::string& rule, const std::string& player = "") {
  for (const auto& [rl, pl, field] : errors_of(r)) {
    if (rl == rule && (player.empty() || pl == player)) return true;
  }
  return false;
}

// What a scoring answer gives a player: `points` may leave out a player who gets nothing.
std::int64_t points_for(const json::value& points, const std::string& player) {
  const json::value* p = points.as_object().if_contains(player);
  return p == nullptr ? 0 : p->to_number<std::int64_t>();
}

// Every line names a player, a rule and its points; the lines add up to `points` per player.
void expect_lines_add_up(const json::value& answer) {
  std::map<std::string, std::int64_t> sums;
  for (const auto& line : answer.at("lines").as_array()) {
    ASSERT_TRUE(line.at("player").is_string()) << json::serialize(line);
    ASSERT_TRUE(line.at("rule").is_string()) << json::serialize(line);
    sums[str(line.at("player"))] += line.at("points").to_number<std::int64_t>();
  }
  for (const auto& [player, value] : answer.at("points").as_object()) {
    EXPECT_EQ(sums[std::string(player)], value.to_number<std::int64_t>()) << player;
  }
  for (const auto& [player, sum] : sums) {
    EXPECT_EQ(points_for(answer.at("points"), player), sum) << player;
  }
}

json::value result_body(const std::vector<std::pair<std::string, std::int64_t>>& scores,
                        const std::string& reason = "") {
  json::array players;
  for (const auto& [p, s] : scores) players.push_back(json::object{{"player", p}, {"score", s}});
  json::object body{{"players", std::move(players)}};
  if (!reason.empty()) body["reason"] = reason;
  return body;
}

json::object follower(const std::string& player) {
  return json::object{{"player", player}, {"figure", "follower"}};
}

class CarcassonneApi : public ApiFixture {
 protected:
  // A fresh organizer's connection (tests that hold two at once take one each).
  HttpClient organizer() { return daemon_->organizer(); }

  std::uint64_t head() {
    return organizer().get("/healthz").json().at("seq").to_number<std::uint64_t>();
  }

  // A Carcassonne tournament "cup" with p1 "Jana", p2 "Petr", p3 "Eva", p4 "Ota", seated by
  // hand: table 1 = p1 v p2, table 2 = p3 v p4.
  void two_tables() {
    create_tournament("cup", "carcassonne",
                      {{"p1", "Jana"}, {"p2", "Petr"}, {"p3", "Eva"}, {"p4", "Ota"}},
                      json::object{{"name", "Cup"}, {"locale", "cs"}});
    auto seated = org().post(
        "/v1/tournaments/cup/rounds",
        json::object{{"method", "manual"},
                     {"tables", json::array{json::array{"p1", "p2"}, json::array{"p3", "p4"}}}});
    ASSERT_EQ(seated.status, 201) << seated.body;
  }

  static std::string at_table(int n, const std::string& what, int round = 1) {
    return "/v1/tournaments/cup/rounds/" + std::to_string(round) + "/tables/" + std::to_string(n) +
           "/" + what;
  }

  json::value table_view(int n, int round = 1) {
    auto r = organizer().get("/v1/tournaments/cup/rounds/" + std::to_string(round));
    EXPECT_EQ(r.status, 200) << r.body;
    auto round_sheet = r.json();
    for (const auto& t : round_sheet.at("tables").as_array()) {
      if (t.at("table") == n) return t;
    }
    ADD_FAILURE() << "no table " << n << " in round " << round;
    return nullptr;
  }

  std::string void_path(std::uint64_t seq) {
    return "/v1/tournaments/cup/events/" + std::to_string(seq) + "/void";
  }
};

// --- 1. The calculator against the conformance vectors ------------------------------------------

// The rule each rejected conformance event must be refused under (carcassonne.md §4, D-3 …). The
// vectors say only "rejected"; a new rejected vector without an entry here fails the test.
const std::map<std::string, std::string> kRejectedBecause = {
    {"mage and witch on one feature", "D-3"},
};

TEST_F(CarcassonneApi, EveryConformanceEventScoresExactlyThroughTheStatelessCalculator) {
  std::ifstream file(TALLY_CONFORMANCE_DIR "/carcassonne.json");
  ASSERT_TRUE(file) << "conformance/carcassonne.json not found";
  std::stringstream text;
  text << file.rdbuf();
  auto vectors = json::parse(text.str()).at("events").as_array();
  ASSERT_GE(vectors.size(), 20u);

  std::uint64_t before = head();
  HttpClient anyone("127.0.0.1", daemon_->port());  // public: no token needed
  int scored = 0, rejected = 0;
  for (const auto& vector : vectors) {
    std::string name = str(vector.at("name"));
    SCOPED_TRACE(name);
    const auto& expect = vector.at("expect").as_object();
    auto reply = anyone.post("/v1/carcassonne/score", vector.at("event"));
    bool refused = std::any_of(expect.begin(), expect.end(),
                               [](const auto& kv) { return kv.value() == "rejected"; });
    if (refused) {
      ++rejected;
      expect_problem(reply, 422);
      auto because = kRejectedBecause.find(name);
      if (because == kRejectedBecause.end()) {
        ADD_FAILURE() << "no expected rule for this rejected vector: " << reply.body;
        continue;
      }
      EXPECT_TRUE(has_rule(reply, because->second)) << reply.body;
      continue;
    }
    ++scored;
    ASSERT_EQ(reply.status, 200) << reply.body;
    auto answer = reply.json();
    EXPECT_EQ(answer.as_object().size(), 2u) << reply.body;  // {"points","lines"}
    for (const auto& [player, points] : expect) {
      EXPECT_EQ(points_for(answer.at("points"), std::string(player)),
                points.to_number<std::int64_t>())
          << player << " in " << reply.body;
    }
    for (const auto& [player, points] : answer.at("points").as_object()) {
      if (!expect.contains(player)) {
        EXPECT_EQ(points, 0) << player << " scores but the vector says nothing";
      }
    }
    expect_lines_add_up(answer);
  }
  EXPECT_EQ(scored + rejected, static_cast<int>(vectors.size()));
  EXPECT_GE(rejected, 1);
  EXPECT_EQ(head(), before);  // the calculator stores nothing
}

TEST_F(CarcassonneApi, TheCalculatorShowsEveryLineAndEveryProblemAtOnce) {
  HttpClient anyone("127.0.0.1", daemon_->port());
  // §4.1 Highway: the count becomes 5 (10 → 5), the mage adds 1 per actual tile (10), a German
  // castle at the road's end +3: 10 − 5 + 10 + 3 = 18.
  auto highway =
      anyone.post("/v1/carcassonne/score", json::parse(R"({"feature":"road","complete":true,
      "tiles":10,"figures":[{"player":"red","figure":"follower"}],
      "modifiers":{"surveyor":"highway","german_castles":1,"mage":true}})"));
  ASSERT_EQ(highway.status, 200) << highway.body;
  std::map<std::string, std::int64_t> by_rule;
  auto highway_answer = highway.json();
  for (const auto& line : highway_answer.at("lines").as_array()) {
    EXPECT_EQ(line.at("player"), "red");
    by_rule[str(line.at("rule"))] += line.at("points").to_number<std::int64_t>();
  }
  EXPECT_EQ(by_rule,
            (std::map<std::string, std::int64_t>{
                {"road.tile", 10}, {"surveyor.highway", -5}, {"mage", 10}, {"german_castles", 3}}));
  EXPECT_EQ(highway.json().at("points"), json::parse(R"({"red":18})"));

  // §6 a robber takes half of the primary points, rounded up; the robbed player keeps theirs.
  auto robbed =
      anyone.post("/v1/carcassonne/score", json::parse(R"({"feature":"city","complete":true,
      "tiles":3,"pennants":0,"figures":[{"player":"red","figure":"follower"}],
      "robbers":[{"player":"blue","robs":"red"}]})"));
  ASSERT_EQ(robbed.status, 200) << robbed.body;
  EXPECT_EQ(points_for(robbed.json().at("points"), "red"), 6);
  EXPECT_EQ(points_for(robbed.json().at("points"), "blue"), 3);
  expect_lines_add_up(robbed.json());

  // Every problem at once, each with its rule and field.
  auto broken =
      anyone.post("/v1/carcassonne/score", json::parse(R"({"feature":"road","complete":true,
      "tiles":-2,"figures":[{"player":"red","figure":"follower"}],"modifiers":{"cathedral":true}})"));
  expect_problem(broken, 422);
  EXPECT_TRUE(has_rule(broken, "tiles")) << broken.body;
  EXPECT_TRUE(has_rule(broken, "cathedral")) << broken.body;  // a city's modifier on a road
  EXPECT_GE(errors_of(broken).size(), 2u);
  // An unknown feature and an unknown member.
  auto unknown =
      anyone.post("/v1/carcassonne/score", json::parse(R"({"feature":"moat","complete":true})"));
  expect_problem(unknown, 422);
  EXPECT_TRUE(has_rule(unknown, "feature")) << unknown.body;
  auto extra = anyone.post("/v1/carcassonne/score",
                           json::parse(R"({"event":"compass_rose","player":"red","colour":1})"));
  expect_problem(extra, 422);
  EXPECT_TRUE(has_rule(extra, "schema")) << extra.body;
  // Not JSON at all: 400.
  expect_problem(anyone.request(http::verb::post, "/v1/carcassonne/score", "{\"feature\":"), 400);
}

// --- 2. Scorings at a table ----------------------------------------------------------------------

TEST_F(CarcassonneApi, AScoringAnswersItsPointsLinesAndTheRunningTotals) {
  two_tables();
  HttpClient eva = client(new_judge("Eva"));
  // A completed city: 4 tiles × 2 + 1 pennant × 2 = 10 for p1.
  json::value city_event = json::parse(R"({"feature":"city","complete":true,
      "tiles":4,"pennants":1,"figures":[{"player":"p1","figure":"follower"}]})");
  auto city = eva.post(at_table(1, "scorings"), city_event);
  ASSERT_EQ(city.status, 201) << city.body;
  auto a = city.json();
  EXPECT_EQ(a.at("points"), json::parse(R"({"p1":10})"));
  EXPECT_EQ(a.at("lines"), json::parse(R"([{"player":"p1","rule":"city.tile","count":4,"points":8},
                                           {"player":"p1","rule":"city.pennant","count":1,"points":2}])"));
  EXPECT_EQ(a.at("totals"), json::parse(R"({"p1":10,"p2":0})"));
  EXPECT_EQ(city.header("ETag"), "\"1\"");
  EXPECT_EQ(a.at("version"), 1);
  EXPECT_TRUE(a.at("seq").is_number());

  // A road of 3 for p2 with p1's robber next to p2's marker: p2 3, p1 ceil(3/2) = 2.
  auto road =
      eva.post(at_table(1, "scorings"), json::parse(R"({"feature":"road","complete":true,"tiles":3,
      "figures":[{"player":"p2","figure":"follower"}],"robbers":[{"player":"p1","robs":"p2"}]})"));
  ASSERT_EQ(road.status, 201) << road.body;
  EXPECT_EQ(points_for(road.json().at("points"), "p2"), 3);
  EXPECT_EQ(points_for(road.json().at("points"), "p1"), 2);
  expect_lines_add_up(road.json());
  EXPECT_EQ(road.json().at("totals"), json::parse(R"({"p1":12,"p2":3})"));
  EXPECT_GT(seq_of(road), seq_of(city));

  // Final scoring: p2's monastery with 5 neighbours = 6; a field with 2 completed cities shared
  // by both farmers = 6 each.
  auto monastery =
      eva.post(at_table(1, "scorings"), json::parse(R"({"feature":"monastery","complete":false,
      "figures":[{"player":"p2","figure":"follower"}],"modifiers":{"neighbour_tiles":5}})"));
  ASSERT_EQ(monastery.status, 201) << monastery.body;
  EXPECT_EQ(monastery.json().at("totals"), json::parse(R"({"p1":12,"p2":9})"));
  auto field = eva.post(at_table(1, "scorings"), json::parse(R"({"feature":"field","complete":false,
      "figures":[{"player":"p1","figure":"follower"},{"player":"p2","figure":"follower"}],
      "modifiers":{"cities":[{"besieged":false},{"besieged":false}]}})"));
  ASSERT_EQ(field.status, 201) << field.body;
  EXPECT_EQ(field.json().at("points"), json::parse(R"({"p1":6,"p2":6})"));
  EXPECT_EQ(field.json().at("totals"), json::parse(R"({"p1":18,"p2":15})"));
  EXPECT_EQ(field.header("ETag"), "\"4\"");

  // The table shows its scorings and totals and stays open until a result is entered.
  auto table = table_view(1);
  EXPECT_EQ(table.at("status"), "open");
  EXPECT_TRUE(table.at("result").is_null());
  EXPECT_EQ(table.at("scorings"), 4);
  EXPECT_EQ(table.at("totals"), json::parse(R"({"p1":18,"p2":15})"));
  EXPECT_EQ(table.at("version"), 4);
  EXPECT_FALSE(table.as_object().contains("disagree"));
  // The other table is untouched.
  EXPECT_FALSE(table_view(2).as_object().contains("totals"));

  // The audit trail keeps the event as the judge sent it.
  auto audit =
      organizer().get("/v1/tournaments/cup/audit?round=1&table=1").json().at("events").as_array();
  ASSERT_EQ(audit.size(), 5u);  // the seating and the 4 scorings
  EXPECT_EQ(audit[1].at("type"), "carcassonne_scoring");
  EXPECT_EQ(audit[1].at("by"), "j1");
  EXPECT_EQ(audit[1].at("payload").at("event"), city_event);
}

TEST_F(CarcassonneApi, AScoringIsRefusedWithTheRuleAndNothingIsAppended) {
  two_tables();
  HttpClient eva = client(new_judge("Eva"));
  std::uint64_t before = head();
  // A player of another table, and a colour instead of an id (rule "player", where it appears).
  auto strangers =
      eva.post(at_table(1, "scorings"), json::parse(R"({"feature":"road","complete":true,
      "tiles":3,"figures":[{"player":"p3","figure":"follower"}],"bonuses":{"teacher":"red"}})"));
  expect_problem(strangers, 422);
  auto errors = errors_of(strangers);
  EXPECT_TRUE(has_rule(strangers, "player", "p3")) << strangers.body;
  EXPECT_TRUE(errors.contains({"player", "red", "bonuses.teacher"})) << strangers.body;
  // D-3 the mage and the witch on one feature.
  auto d3 =
      eva.post(at_table(1, "scorings"), json::parse(R"({"feature":"city","complete":true,"tiles":3,
      "figures":[{"player":"p1","figure":"follower"}],"modifiers":{"mage":true,"witch":true}})"));
  expect_problem(d3, 422);
  EXPECT_TRUE(has_rule(d3, "D-3")) << d3.body;
  // D-4 the fairy at final scoring.
  auto d4 =
      eva.post(at_table(1, "scorings"), json::parse(R"({"feature":"road","complete":false,"tiles":3,
      "figures":[{"player":"p1","figure":"follower"}],"bonuses":{"fairy":"p1"}})"));
  expect_problem(d4, 422);
  EXPECT_TRUE(has_rule(d4, "D-4")) << d4.body;
  // §5 a tower ransom may not take the payer below 0 (p3 has nothing yet).
  auto ransom = eva.post(at_table(2, "scorings"),
                         json::parse(R"({"event":"tower_ransom","payer":"p3","captor":"p4"})"));
  expect_problem(ransom, 422);
  EXPECT_TRUE(has_rule(ransom, "tower_ransom", "p3")) << ransom.body;
  // An event that is neither a feature nor a turn event.
  auto neither =
      eva.post(at_table(2, "scorings"), json::parse(R"({"event":"earthquake","player":"p3"})"));
  expect_problem(neither, 422);
  EXPECT_TRUE(has_rule(neither, "event")) << neither.body;
  // A correction of nothing in effect.
  auto stray = eva.post(
      at_table(2, "scorings"),
      json::parse(R"({"event":"compass_rose","player":"p3","supersedes":999,"reason":"x"})"));
  expect_problem(stray, 422);
  EXPECT_TRUE(has_rule(stray, "supersedes")) << stray.body;
  // No such table; a Catan claim at a Carcassonne table.
  expect_problem(
      eva.post(at_table(9, "scorings"), json::parse(R"({"event":"compass_rose","player":"p3"})")),
      404);
  expect_problem(eva.post(at_table(1, "claims"), json::object{{"player", "p1"}}), 404);
  // A scoring needs a token.
  expect_problem(
      HttpClient("127.0.0.1", daemon_->port())
          .post(at_table(1, "scorings"), json::parse(R"({"event":"compass_rose","player":"p1"})")),
      401);
  EXPECT_EQ(head(), before);

  // Once p3 has 3 points the ransom is legal: p3 −3, p4 +3.
  ASSERT_EQ(
      eva.post(at_table(2, "scorings"), json::parse(R"({"event":"compass_rose","player":"p3"})"))
          .status,
      201);
  auto paid = eva.post(at_table(2, "scorings"),
                       json::parse(R"({"event":"tower_ransom","payer":"p3","captor":"p4"})"));
  ASSERT_EQ(paid.status, 201) << paid.body;
  EXPECT_EQ(paid.json().at("points"), json::parse(R"({"p3":-3,"p4":3})"));
  EXPECT_EQ(paid.json().at("totals"), json::parse(R"({"p3":0,"p4":3})"));

  // A judge's retry (the same Idempotency-Key) is answered from the first request: the scoring
  // counts once.
  json::value rose = json::parse(R"({"event":"compass_rose","player":"p4"})");
  std::map<std::string, std::string> key = {{"Idempotency-Key", "table2-rose-1"}};
  auto once = eva.post(at_table(2, "scorings"), rose, key);
  ASSERT_EQ(once.status, 201) << once.body;
  auto again = eva.post(at_table(2, "scorings"), rose, key);
  ASSERT_EQ(again.status, 201) << again.body;
  EXPECT_EQ(again.json(), once.json());
  EXPECT_EQ(once.json().at("totals"), json::parse(R"({"p3":0,"p4":6})"));
  auto table = table_view(2);
  EXPECT_EQ(table.at("scorings"), 3);
  EXPECT_EQ(table.at("totals"), json::parse(R"({"p3":0,"p4":6})"));
}

TEST_F(CarcassonneApi, AResultThatAgreesWithTheScoringsIsTakenOneThatDiffersNamesEachPlayer) {
  two_tables();
  HttpClient eva = client(new_judge("Eva"));
  // p1: city 10 + robber 2 = 12; p2: road 3 + monastery 6 = 9.
  for (
      const char* event :
      {R"({"feature":"city","complete":true,"tiles":4,"pennants":1,"figures":[{"player":"p1","figure":"follower"}]})",
       R"({"feature":"road","complete":true,"tiles":3,"figures":[{"player":"p2","figure":"follower"}],"robbers":[{"player":"p1","robs":"p2"}]})",
       R"({"feature":"monastery","complete":false,"figures":[{"player":"p2","figure":"follower"}],"modifiers":{"neighbour_tiles":5}})"}) {
    ASSERT_EQ(eva.post(at_table(1, "scorings"), json::parse(event)).status, 201) << event;
  }
  std::uint64_t before = head();

  // p2 differs: exactly one error, naming p2 and the score's field.
  auto one = eva.put(at_table(1, "result"), result_body({{"p1", 12}, {"p2", 10}}), kFirstEntry);
  expect_problem(one, 422);
  EXPECT_EQ(errors_of(one), (std::set<ErrorKey>{{"totals", "p2", "players[1].score"}})) << one.body;
  auto message = str(one.json().at("errors").at(0).at("message"));
  EXPECT_NE(message.find("9"), std::string::npos) << message;   // the scorings' total
  EXPECT_NE(message.find("10"), std::string::npos) << message;  // what the result says
  // Both differ (listed in the other order): both named, each at its own index.
  auto both = eva.put(at_table(1, "result"), result_body({{"p2", 8}, {"p1", 13}}), kFirstEntry);
  expect_problem(both, 422);
  EXPECT_EQ(errors_of(both), (std::set<ErrorKey>{{"totals", "p2", "players[0].score"},
                                                 {"totals", "p1", "players[1].score"}}))
      << both.body;
  // A player of another table, and a seated player left out (rule "players").
  auto wrong_players =
      eva.put(at_table(1, "result"), result_body({{"p1", 12}, {"p3", 9}}), kFirstEntry);
  expect_problem(wrong_players, 422);
  EXPECT_TRUE(has_rule(wrong_players, "players", "p3")) << wrong_players.body;
  EXPECT_TRUE(has_rule(wrong_players, "players", "p2")) << wrong_players.body;
  EXPECT_EQ(head(), before);

  // The agreeing result: 201, the table reported with win / loss.
  auto agreed = eva.put(at_table(1, "result"), result_body({{"p1", 12}, {"p2", 9}}), kFirstEntry);
  ASSERT_EQ(agreed.status, 201) << agreed.body;
  EXPECT_EQ(agreed.header("ETag"), "\"4\"");
  auto table = agreed.json();
  EXPECT_EQ(table.at("status"), "reported");
  EXPECT_EQ(table.at("version"), 4);
  EXPECT_EQ(table.at("entered_by").at("name"), "Eva");
  EXPECT_EQ(table.at("totals"), json::parse(R"({"p1":12,"p2":9})"));
  EXPECT_EQ(table.at("result"), json::parse(R"({"players":[
      {"player":"p1","score":12,"place":"1","points":{"value":1,"exact":"1"},
       "lines":[{"rule":"win","points":{"value":1,"exact":"1"}}]},
      {"player":"p2","score":9,"place":"2","points":{"value":0,"exact":"0"},
       "lines":[{"rule":"loss","points":{"value":0,"exact":"0"}}]}]})"));
  EXPECT_EQ(table_view(1), [&] {
    json::value v = table;
    v.as_object().erase("seq");
    return v;
  }());

  // A table without scorings takes any final scores; a tie is a draw, ½ each.
  auto draw = eva.put(at_table(2, "result"), result_body({{"p3", 77}, {"p4", 77}}), kFirstEntry);
  ASSERT_EQ(draw.status, 201) << draw.body;
  auto draw_table = draw.json();
  for (const auto& p : draw_table.at("result").at("players").as_array()) {
    EXPECT_EQ(p.at("place"), "1=");
    EXPECT_EQ(p.at("points").at("exact"), "1/2");
    EXPECT_EQ(p.at("lines").at(0).at("rule"), "draw");
  }

  // The standings follow: p1 one win, p3 and p4 a half each, p2 none.
  auto rows = organizer().get("/v1/tournaments/cup/standings").json().at("rows").as_array();
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].at("player"), "p1");
  EXPECT_EQ(rows[0].at("wins").at("exact"), "1");
  EXPECT_EQ(rows[0].at("score_diff"), 3);
  EXPECT_EQ(rows[0].at("score"), 12);
  EXPECT_EQ(rows[3].at("player"), "p2");
  EXPECT_EQ(rows[3].at("score_diff"), -3);
}

TEST_F(CarcassonneApi, VoidingOrCorrectingAScoringChangesTheTotalsTheResultMustMatch) {
  two_tables();
  HttpClient eva = client(new_judge("Eva"));
  HttpClient petr = client(new_judge("Petr"));
  auto city =
      eva.post(at_table(1, "scorings"), json::parse(R"({"feature":"city","complete":true,"tiles":4,
      "pennants":1,"figures":[{"player":"p1","figure":"follower"}]})"));
  auto road =
      eva.post(at_table(1, "scorings"), json::parse(R"({"feature":"road","complete":true,"tiles":3,
      "figures":[{"player":"p2","figure":"follower"}],"robbers":[{"player":"p1","robs":"p2"}]})"));
  ASSERT_EQ(road.status, 201);
  EXPECT_EQ(road.json().at("totals"), json::parse(R"({"p1":12,"p2":3})"));

  // The road was entered at the wrong table: void it (a reason is required).
  expect_problem(petr.post(void_path(seq_of(road)), json::object{}), 422);
  auto voided = petr.post(void_path(seq_of(road)), json::object{{"reason", "wrong table"}});
  ASSERT_EQ(voided.status, 200) << voided.body;
  EXPECT_EQ(voided.json().at("voided"), seq_of(road));
  // Like every table write (API.md conventions), the void answers with the table's new version,
  // also as the ETag: a judge replaces the result next with If-Match.
  auto void_answer = voided.json();
  const json::value* void_version = void_answer.as_object().if_contains("version");
  EXPECT_TRUE(void_version != nullptr && *void_version == 3) << voided.body;
  EXPECT_EQ(voided.header("ETag"), "\"3\"");
  EXPECT_EQ(table_view(1).at("version"), 3);
  expect_problem(petr.post(void_path(seq_of(road)), json::object{{"reason", "again"}}), 422);
  auto table = table_view(1);
  EXPECT_EQ(table.at("totals"), json::parse(R"({"p1":10,"p2":0})"));
  EXPECT_EQ(table.at("scorings"), 1);

  // The old totals no longer agree; the new ones do.
  auto stale = eva.put(at_table(1, "result"), result_body({{"p1", 12}, {"p2", 3}}), kFirstEntry);
  expect_problem(stale, 422);
  EXPECT_EQ(errors_of(stale), (std::set<ErrorKey>{{"totals", "p1", "players[0].score"},
                                                  {"totals", "p2", "players[1].score"}}));

  // A correction (supersedes + reason) replaces the city where it stood: 5 tiles, 2 pennants = 14.
  expect_problem(eva.post(at_table(1, "scorings"),
                          json::parse(R"({"feature":"city","complete":true,"tiles":5,"pennants":2,
                              "figures":[{"player":"p1","figure":"follower"}],"supersedes":)" +
                                      std::to_string(seq_of(city)) + "}")),
                 422);  // no reason
  auto corrected = eva.post(at_table(1, "scorings"),
                            json::parse(R"({"feature":"city","complete":true,"tiles":5,"pennants":2,
                                "figures":[{"player":"p1","figure":"follower"}],"reason":"miscounted","supersedes":)" +
                                        std::to_string(seq_of(city)) + "}"));
  ASSERT_EQ(corrected.status, 201) << corrected.body;
  EXPECT_EQ(corrected.json().at("points"), json::parse(R"({"p1":14})"));
  EXPECT_EQ(corrected.json().at("totals"), json::parse(R"({"p1":14,"p2":0})"));
  auto audit =
      organizer().get("/v1/tournaments/cup/audit?round=1&table=1").json().at("events").as_array();
  EXPECT_EQ(audit.back().at("supersedes"), seq_of(city));
  EXPECT_EQ(audit.back().at("reason"), "miscounted");

  auto agreed = eva.put(at_table(1, "result"), result_body({{"p1", 14}, {"p2", 0}}), kFirstEntry);
  ASSERT_EQ(agreed.status, 201) << agreed.body;
  std::string version = agreed.header("ETag");

  // A scoring recorded after the result (carcassonne.md §3, decision): accepted, but the table
  // and the organizer's notices then say that p2's result no longer agrees.
  auto late =
      petr.post(at_table(1, "scorings"), json::parse(R"({"event":"jubilee_arrow","player":"p2"})"));
  ASSERT_EQ(late.status, 201) << late.body;
  EXPECT_EQ(late.json().at("totals"), json::parse(R"({"p1":14,"p2":2})"));
  table = table_view(1);
  EXPECT_EQ(table.at("disagree"), json::parse(R"(["p2"])"));
  EXPECT_EQ(table.at("status"), "reported");
  auto notices = organizer().get("/v1/tournaments/cup").json().at("notices").as_array();
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_NE(str(notices[0]).find("Petr"), std::string::npos) << notices[0];  // p2, by name
  // The result is corrected with the table's current version and a reason.
  std::string now = "\"" + std::to_string(table.at("version").to_number<int>()) + "\"";
  EXPECT_NE(now, version);
  expect_problem(eva.put(at_table(1, "result"), result_body({{"p1", 14}, {"p2", 2}}, "late arrow"),
                         {{"If-Match", version}}),
                 412);
  auto fixed = eva.put(at_table(1, "result"), result_body({{"p1", 14}, {"p2", 2}}, "late arrow"),
                       {{"If-Match", now}});
  ASSERT_EQ(fixed.status, 200) << fixed.body;
  EXPECT_FALSE(fixed.json().as_object().contains("disagree"));
  EXPECT_TRUE(organizer().get("/v1/tournaments/cup").json().at("notices").as_array().empty());

  // Voiding the late arrow again: now the corrected result disagrees for p2.
  ASSERT_EQ(petr.post(void_path(seq_of(late)), json::object{{"reason", "not activated"}}).status,
            200);
  EXPECT_EQ(table_view(1).at("disagree"), json::parse(R"(["p2"])"));
  // A result cannot be voided (it is corrected with PUT and a reason).
  auto no_void = petr.post(void_path(seq_of(fixed)), json::object{{"reason", "x"}});
  expect_problem(no_void, 422);
}

TEST_F(CarcassonneApi, ConcurrentScoringsAtOneTableAreSerialisedWithConsistentTotals) {
  two_tables();
  constexpr int kEach = 12;
  std::vector<std::string> tokens = {new_judge("Eva"), new_judge("Petr")};
  std::vector<std::vector<HttpReply>> replies(2);
  std::vector<std::thread> judges;
  for (int j = 0; j < 2; ++j) {
    judges.emplace_back([&, j] {
      HttpClient c = client(tokens[j]);
      for (int i = 0; i < kEach; ++i) {
        // Eva: p3's payday, 2 per follower (1–3); Petr: p4's shepherd, 1 per sheep (1–12).
        json::value event =
            j == 0 ? json::value{{"event", "payday"}, {"player", "p3"}, {"followers", 1 + i % 3}}
                   : json::value{{"event", "shepherd"}, {"player", "p4"}, {"sheep", 1 + i}};
        HttpReply r = c.post(at_table(2, "scorings"), event);
        // 409 is the daemon's answer when the table kept changing through its retries; try again.
        for (int retry = 0; r.status == 409 && retry < 5; ++retry)
          r = c.post(at_table(2, "scorings"), event);
        replies[j].push_back(std::move(r));
      }
    });
  }
  for (auto& t : judges) t.join();

  std::vector<json::value> answers;
  for (const auto& list : replies) {
    for (const auto& r : list) {
      ASSERT_EQ(r.status, 201) << r.body;
      answers.push_back(r.json());
    }
  }
  std::sort(answers.begin(), answers.end(), [](const json::value& a, const json::value& b) {
    return a.at("seq").to_number<std::uint64_t>() < b.at("seq").to_number<std::uint64_t>();
  });
  // In seq order, each answer's totals are the sum of all the points so far; versions 1…24.
  std::int64_t p3 = 0, p4 = 0;
  for (std::size_t i = 0; i < answers.size(); ++i) {
    p3 += points_for(answers[i].at("points"), "p3");
    p4 += points_for(answers[i].at("points"), "p4");
    EXPECT_EQ(answers[i].at("totals"), (json::value{{"p3", p3}, {"p4", p4}})) << "answer " << i;
    EXPECT_EQ(answers[i].at("version"), i + 1);
  }
  // Eva: 2 × (1+2+3) × 4 = 48; Petr: 1+…+12 = 78.
  EXPECT_EQ(p3, 48);
  EXPECT_EQ(p4, 78);
  auto table = table_view(2);
  EXPECT_EQ(table.at("scorings"), 2 * kEach);
  EXPECT_EQ(table.at("totals"), json::parse(R"({"p3":48,"p4":78})"));
}

// --- 3. Whole events over HTTP -------------------------------------------------------------------

// Everything the test wrote to the daemon, with the seq the daemon gave it, so that the same
// events can be folded by the library (TournamentBuilder) in the daemon's order.
class Ledger {
 public:
  enum class Kind { player, drop, seating, action, void_event };
  struct Entry {
    Kind kind;
    std::uint64_t seq = 0;
    std::string player, name;                      // player, drop
    std::vector<projections::SeatedTable> tables;  // seating
    schema::SeatingMethod method = schema::SeatingMethod::MANUAL;
    std::uint64_t seed = 0;
    std::uint32_t round = 0, table = 0;  // action, void
    Which payload = Which::VOID;         // action
    json::value body;                    // action: the payload as JSON
    std::uint64_t supersedes = 0;        // correction, void
    std::string reason;
  };

  void add(Entry e) {
    std::lock_guard lock(mutex_);
    entries_.push_back(std::move(e));
  }

  // The events with seq ≤ upto, as the library folds them.
  TournamentBuilder replay(const std::string& id, const std::string& locale,
                           const json::object& rules,
                           std::uint64_t upto = std::numeric_limits<std::uint64_t>::max()) const {
    std::vector<Entry> entries;
    {
      std::lock_guard lock(mutex_);
      entries = entries_;
    }
    std::sort(entries.begin(), entries.end(),
              [](const Entry& a, const Entry& b) { return a.seq < b.seq; });
    TournamentBuilder b(id, "carcassonne", locale, rules);
    std::map<std::uint64_t, std::uint64_t> local;  // daemon seq → builder seq
    for (const auto& e : entries) {
      if (e.seq > upto) break;
      switch (e.kind) {
        case Kind::player:
          b.player(e.player, e.name);
          break;
        case Kind::drop:
          b.drop(e.player);
          break;
        case Kind::seating:
          b.seat(e.tables, e.method, e.seed);
          break;
        case Kind::action:
          b.action(e.round, e.table, e.payload, e.body, e.supersedes ? local.at(e.supersedes) : 0,
                   e.reason);
          break;
        case Kind::void_event:
          b.void_event(e.round, e.table, local.at(e.supersedes), e.reason);
          break;
      }
      local[e.seq] = b.last_seq();
    }
    return b;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<Entry> entries_;
};

// One scoring event with what it must give each player (carcassonne.md §4, §5).
struct Scoring {
  json::value event;
  std::map<std::string, std::int64_t> gains;
};

Scoring random_scoring(const std::vector<std::string>& players, std::mt19937_64& rng) {
  std::size_t at = rng() % players.size();
  const std::string& owner = players[at];
  const std::string& other = players[(at + 1) % players.size()];
  std::int64_t tiles = 2 + static_cast<std::int64_t>(rng() % 5);
  std::int64_t pennants = static_cast<std::int64_t>(rng() % 3);
  switch (rng() % 7) {
    case 0:  // a completed city: 2 per tile and pennant
      return Scoring{json::object{{"feature", "city"},
                                  {"complete", true},
                                  {"tiles", tiles},
                                  {"pennants", pennants},
                                  {"figures", json::array{follower(owner)}}},
                     {{owner, 2 * (tiles + pennants)}}};
    case 1:  // a completed road: 1 per tile
      return Scoring{json::object{{"feature", "road"},
                                  {"complete", true},
                                  {"tiles", tiles},
                                  {"figures", json::array{follower(owner)}}},
                     {{owner, tiles}}};
    case 2:  // a completed monastery: 9
      return Scoring{json::object{{"feature", "monastery"},
                                  {"complete", true},
                                  {"figures", json::array{follower(owner)}}},
                     {{owner, 9}}};
    case 3:  // a shared city: both majority holders score in full
      return Scoring{json::object{{"feature", "city"},
                                  {"complete", true},
                                  {"tiles", tiles},
                                  {"pennants", pennants},
                                  {"figures", json::array{follower(owner), follower(other)}}},
                     {{owner, 2 * (tiles + pennants)}, {other, 2 * (tiles + pennants)}}};
    case 4: {  // farmers at final scoring: 3 per completed city
      json::array cities;
      for (std::int64_t i = 0; i < pennants + 1; ++i)
        cities.push_back(json::object{{"besieged", false}});
      return Scoring{json::object{{"feature", "field"},
                                  {"complete", false},
                                  {"figures", json::array{follower(owner)}},
                                  {"modifiers", json::object{{"cities", cities}}}},
                     {{owner, 3 * (pennants + 1)}}};
    }
    case 5:
      return Scoring{json::object{{"event", "jubilee_arrow"}, {"player", owner}}, {{owner, 2}}};
    default:
      return Scoring{json::object{{"event", "compass_rose"}, {"player", owner}}, {{owner, 3}}};
  }
}

// The pairing carcassonne.md §2 prescribes for 2-player tables, worked out here from the
// standings order: the highest unpaired player meets the next one they have not met (depth-first,
// no rematch); for an odd count the bye goes to the lowest-ranked player with the fewest byes
// among the choices that leave a pairing without rematches. Tables as sorted pairs.
struct Pairing {
  std::set<std::pair<std::string, std::string>> tables;
  std::string bye;
};

bool pair_down(std::vector<std::string> rest,
               const std::set<std::pair<std::string, std::string>>& met,
               std::set<std::pair<std::string, std::string>>& out) {
  if (rest.empty()) return true;
  std::string first = rest.front();
  for (std::size_t j = 1; j < rest.size(); ++j) {
    auto pair = std::minmax(first, rest[j]);
    if (met.contains(pair)) continue;
    std::vector<std::string> remaining;
    for (std::size_t k = 1; k < rest.size(); ++k) {
      if (k != j) remaining.push_back(rest[k]);
    }
    out.insert(pair);
    if (pair_down(remaining, met, out)) return true;
    out.erase(pair);
  }
  return false;
}

std::optional<Pairing> expected_pairing(const std::vector<std::string>& ranked,
                                        const std::set<std::pair<std::string, std::string>>& met,
                                        const std::map<std::string, int>& byes) {
  Pairing out;
  if (ranked.size() % 2 == 0) {
    if (!pair_down(ranked, met, out.tables)) return std::nullopt;
    return out;
  }
  std::vector<std::string> candidates(ranked.rbegin(), ranked.rend());
  std::stable_sort(
      candidates.begin(), candidates.end(), [&](const std::string& a, const std::string& b) {
        return (byes.contains(a) ? byes.at(a) : 0) < (byes.contains(b) ? byes.at(b) : 0);
      });
  for (const auto& candidate : candidates) {
    std::vector<std::string> rest;
    for (const auto& p : ranked) {
      if (p != candidate) rest.push_back(p);
    }
    out.tables.clear();
    if (pair_down(rest, met, out.tables)) {
      out.bye = candidate;
      return out;
    }
  }
  return std::nullopt;
}

// Places and points of one table (carcassonne.md §1): equal scores share their places and split
// their points.
std::map<std::string, Rational> place_points(
    const std::vector<std::pair<std::string, std::int64_t>>& scores,
    const std::vector<Rational>& by_place) {
  std::vector<std::pair<std::string, std::int64_t>> sorted = scores;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::map<std::string, Rational> out;
  for (std::size_t i = 0; i < sorted.size();) {
    std::size_t j = i;
    Rational shared(0);
    while (j < sorted.size() && sorted[j].second == sorted[i].second) shared += by_place[j++];
    for (std::size_t k = i; k < j; ++k)
      out[sorted[k].first] = shared / Rational(static_cast<std::int64_t>(j - i));
    i = j;
  }
  return out;
}

// A tournament run over HTTP: seated by the server, entered by concurrent judges, everything
// written kept in the ledger, the final scores of every table kept for our own reckoning.
class Event {
 public:
  Event(TallydProcess& daemon, std::string id, json::object rules, int players,
        std::string locale = "cs")
      : daemon_(daemon), id_(std::move(id)), locale_(std::move(locale)) {
    auto normalized = library().normalize_rules(rules);
    if (!normalized) throw std::invalid_argument("bad rules");
    rules_ = *normalized.value;
    table_size_ = static_cast<std::size_t>(rules_.at("table_size").to_number<int>());
    for (const auto& p : rules_.at("round_points").as_array()) {
      by_place_.push_back(p.is_string() ? Rational::parse(str(p))
                                        : Rational(p.to_number<std::int64_t>()));
    }
    auto org = daemon_.organizer();
    auto created = org.post("/v1/tournaments", json::object{{"id", id_},
                                                            {"name", "Open " + id_},
                                                            {"game", "carcassonne"},
                                                            {"locale", locale_},
                                                            {"rules", rules}});
    EXPECT_EQ(created.status, 201) << created.body;
    EXPECT_EQ(created.json().at("rules"), wire(rules_));
    // Czech names: the standings' last tie-break is the name by the tournament's collation.
    const char* names[] = {"Čapek",  "Cibulka", "Chalupa", "Horák",  "Šimek", "Svoboda",
                           "Žák",    "Zeman",   "Dvořák",  "Ďurica", "Novák", "Němec",
                           "Řezník", "Růžička", "Ošmera",  "Adámek"};
    for (int i = 1; i <= players; ++i) {
      std::string pid = "p" + std::to_string(i);
      std::string name = std::string(names[(i - 1) % 16]) + (i > 16 ? " ml." : "");
      auto r = org.post(path("/players"), json::object{{"id", pid}, {"name", name}});
      EXPECT_EQ(r.status, 201) << r.body;
      ledger_.add({.kind = Ledger::Kind::player, .seq = seq_of(r), .player = pid, .name = name});
      active_.push_back(pid);
    }
  }

  std::string path(const std::string& rest) const { return "/v1/tournaments/" + id_ + rest; }
  std::string table_path(std::uint32_t round, std::uint32_t table, const std::string& what) const {
    return path("/rounds/" + std::to_string(round) + "/tables/" + std::to_string(table) + "/" +
                what);
  }

  TournamentBuilder library_view(
      std::uint64_t upto = std::numeric_limits<std::uint64_t>::max()) const {
    return ledger_.replay(id_, locale_, rules_, upto);
  }

  void drop(const std::string& player) {
    auto r = daemon_.organizer().post(path("/players/" + player + "/drop"),
                                      json::object{{"reason", "went home"}});
    ASSERT_EQ(r.status, 200) << r.body;
    ledger_.add({.kind = Ledger::Kind::drop, .seq = seq_of(r), .player = player});
    std::erase(active_, player);
  }

  // Seats the next round (round 1: random with `seed`; later: by standings) and checks the
  // seating: every active player once, sizes, no rematch, the starting player, byes, the pairing
  // rule, and that the library seats the same events exactly the same way.
  void seat(std::uint64_t seed = 0) {
    std::uint32_t round = static_cast<std::uint32_t>(rounds_.size() + 1);
    SCOPED_TRACE("seating round " + std::to_string(round));
    auto org = daemon_.organizer();
    std::vector<std::string> ranked;
    if (round > 1) {
      auto standings = org.get(path("/standings")).json();
      for (const auto& row : standings.at("rows").as_array()) {
        if (row.at("dropped") == false) ranked.push_back(str(row.at("player")));
      }
    }
    TournamentBuilder before = library_view();
    json::object body{{"method", round == 1 ? "random" : "standings"}};
    if (round == 1) body["seed"] = seed;
    auto r = org.post(path("/rounds"), body);
    ASSERT_EQ(r.status, 201) << r.body;
    auto sheet = r.json();
    EXPECT_EQ(sheet.at("round"), round);
    EXPECT_EQ(sheet.at("method"), round == 1 ? "random" : "standings");
    if (round == 1) {
      EXPECT_EQ(sheet.at("seed"), seed);
    }

    std::vector<projections::SeatedTable> tables;
    for (const auto& t : sheet.at("tables").as_array()) {
      projections::SeatedTable seated;
      seated.number = t.at("table").to_number<std::uint32_t>();
      for (const auto& p : t.at("players").as_array()) seated.players.push_back(str(p));
      tables.push_back(std::move(seated));
    }
    ledger_.add(
        {.kind = Ledger::Kind::seating,
         .seq = seq_of(r),
         .tables = tables,
         .method = round == 1 ? schema::SeatingMethod::RANDOM : schema::SeatingMethod::STANDINGS,
         .seed = round == 1 ? seed : 0});

    // Every active player exactly once, tables numbered 1…n, sizes as the rules say.
    std::multiset<std::string> seated_players;
    std::size_t smallest = 99, largest = 0;
    for (std::size_t i = 0; i < tables.size(); ++i) {
      EXPECT_EQ(tables[i].number, i + 1);
      seated_players.insert(tables[i].players.begin(), tables[i].players.end());
      if (tables[i].players.size() > 1) {
        smallest = std::min(smallest, tables[i].players.size());
        largest = std::max(largest, tables[i].players.size());
      }
    }
    EXPECT_EQ(seated_players, std::multiset<std::string>(active_.begin(), active_.end()));
    if (table_size_ == 2) {
      EXPECT_EQ(smallest, 2u);
      EXPECT_EQ(largest, 2u);
      std::size_t byes = std::count_if(tables.begin(), tables.end(),
                                       [](const auto& t) { return t.players.size() == 1; });
      EXPECT_EQ(byes, active_.size() % 2);
      if (byes == 1) {
        EXPECT_EQ(tables.back().players.size(), 1u) << "the bye table is numbered last";
      }
    } else {
      EXPECT_LE(largest, table_size_);
      EXPECT_LE(largest - smallest, 1u);
      EXPECT_EQ(tables.size(), (active_.size() + table_size_ - 1) / table_size_);
    }

    std::set<std::pair<std::string, std::string>> met_before = met_;
    std::map<std::string, int> starts_before = starts_;
    Pairing pairing;
    for (const auto& t : tables) {
      if (t.players.size() == 1) {
        pairing.bye = t.players[0];
        EXPECT_EQ(byes_[t.players[0]], 0) << t.players[0] << " gets a second bye";
        ++byes_[t.players[0]];
        continue;
      }
      // The starting player (seated first) has started no more games than anyone at the table.
      for (const auto& p : t.players) EXPECT_LE(starts_before[t.players[0]], starts_before[p]) << p;
      ++starts_[t.players[0]];
      for (std::size_t i = 0; i < t.players.size(); ++i) {
        for (std::size_t j = i + 1; j < t.players.size(); ++j) {
          auto pair = std::minmax(t.players[i], t.players[j]);
          if (table_size_ == 2) {
            EXPECT_FALSE(met_before.contains(pair))
                << "rematch " << pair.first << " v " << pair.second;
          }
          met_.insert(pair);
          if (table_size_ == 2) pairing.tables.insert(pair);
        }
      }
    }
    if (table_size_ == 2 && round > 1) {
      // Swiss by the standings as GET …/standings showed them just before.
      auto expected = expected_pairing(ranked, met_before, byes_before_);
      ASSERT_TRUE(expected.has_value()) << "the test expects a pairing without rematches to exist";
      EXPECT_EQ(pairing.tables, expected->tables);
      EXPECT_EQ(pairing.bye, expected->bye);
    }
    if (table_size_ > 2 && round > 1) {
      const auto& first = tables.front().players;
      EXPECT_NE(std::find(first.begin(), first.end(), ranked.front()), first.end())
          << "the leader sits at table 1";
    }
    byes_before_ = byes_;

    // The library, given the same events, seats exactly the same tables in the same seat order.
    projections::SeatingRequest request;
    request.round = round;
    request.method = round == 1 ? schema::SeatingMethod::RANDOM : schema::SeatingMethod::STANDINGS;
    request.seed = round == 1 ? seed : 0;
    auto own = library().seat_round(before.tournament(), request);
    ASSERT_TRUE(own) << own.errors.front().message;
    ASSERT_EQ(own.value->tables.size(), tables.size());
    for (std::size_t i = 0; i < tables.size(); ++i)
      EXPECT_EQ(own.value->tables[i].players, tables[i].players);
    rounds_.push_back(tables);
  }

  // Enters every table of the newest round with `judges` concurrent judges. Tables where
  // (round + table) % 3 == 0 go through scorings (one of them voided again) and a result that
  // agrees; table 1 (when played without scorings) is first entered wrong and corrected; some
  // tables end in a draw. Byes are checked to refuse any entry.
  void play(const std::vector<std::string>& judge_tokens, std::uint64_t luck) {
    std::uint32_t round = static_cast<std::uint32_t>(rounds_.size());
    SCOPED_TRACE("playing round " + std::to_string(round));
    const auto& tables = rounds_.back();
    std::vector<std::thread> threads;
    for (std::size_t j = 0; j < judge_tokens.size(); ++j) {
      threads.emplace_back([&, j] {
        HttpClient judge = daemon_.client(judge_tokens[j]);
        for (std::size_t i = j; i < tables.size(); i += judge_tokens.size()) {
          enter_table(judge, round, tables[i], luck);
        }
      });
    }
    for (auto& t : threads) t.join();

    // The round as GET shows it: every table reported with the scores entered.
    auto sheet = daemon_.organizer().get(path("/rounds/" + std::to_string(round))).json();
    EXPECT_EQ(sheet.at("reported"), tables.size());
    for (const auto& t : sheet.at("tables").as_array()) {
      std::uint32_t n = t.at("table").to_number<std::uint32_t>();
      EXPECT_EQ(t.at("status"), "reported") << "table " << n;
      if (t.at("result").is_null()) continue;
      const auto& players = t.at("result").at("players").as_array();
      std::vector<std::pair<std::string, std::int64_t>> scores;
      for (const auto& p : players)
        scores.emplace_back(str(p.at("player")), p.at("score").to_number<std::int64_t>());
      std::lock_guard lock(mutex_);
      EXPECT_EQ(scores, finals_.at({round, n})) << "table " << n;
      EXPECT_FALSE(t.as_object().contains("disagree")) << "table " << n;
    }
  }

  // Our own reckoning of the standings (carcassonne.md §1) from the final scores entered:
  // per player games, byes, points, Buchholz without the weakest opponent, score difference
  // and score.
  struct Reckoned {
    int games = 0, byes = 0;
    Rational points, buchholz;
    std::int64_t score_diff = 0, score = 0;
    std::vector<std::string> opponents;
  };
  std::map<std::string, Reckoned> reckon() const {
    std::map<std::string, Reckoned> rows;
    std::lock_guard lock(mutex_);
    for (const auto& [key, scores] : finals_) {
      if (scores.size() == 1) {
        auto& r = rows[scores[0].first];
        ++r.games;
        ++r.byes;
        r.points += Rational(1);
        continue;
      }
      std::vector<Rational> by_place = scores.size() == 2 ? std::vector<Rational>{1, 0} : by_place_;
      auto points = place_points(scores, by_place);
      for (const auto& [player, own] : scores) {
        auto& r = rows[player];
        ++r.games;
        r.points += points.at(player);
        r.score += own;
        for (const auto& [other, theirs] : scores) {
          if (other == player) continue;
          r.score_diff += own - theirs;
          r.opponents.push_back(other);
        }
      }
    }
    for (auto& [player, r] : rows) {
      if (r.opponents.size() < 2) continue;
      std::vector<Rational> theirs;
      for (const auto& o : r.opponents) theirs.push_back(rows.at(o).points);
      std::sort(theirs.begin(), theirs.end());
      for (std::size_t i = 1; i < theirs.size(); ++i) r.buchholz += theirs[i];
    }
    return rows;
  }

  // GET …/standings against our reckoning, the order of the tie-breaks, and the library's
  // standings for the same events (exact rows).
  void check_standings(const std::set<std::string>& dropped = {}) {
    auto got = daemon_.organizer().get(path("/standings"));
    ASSERT_EQ(got.status, 200) << got.body;
    auto rows = got.json().at("rows").as_array();
    auto reckoned = reckon();
    std::string points_key = table_size_ == 2 ? "wins" : "round_points";
    ASSERT_EQ(rows.size(), active_.size() + dropped.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const auto& row = rows[i].as_object();
      std::string player = str(row.at("player"));
      SCOPED_TRACE("row " + std::to_string(i + 1) + " " + player);
      // Competition ranking: a row equal to the one above on every sporting criterion shares
      // its rank ("1, 2, 2, 4"); any difference gives the row its position.
      const Reckoned& mine = reckoned[player];
      bool tied = false;
      if (i > 0) {
        const Reckoned& above = reckoned[str(rows[i - 1].at("player"))];
        tied = std::tie(mine.points, mine.buchholz, mine.score_diff, mine.score) ==
               std::tie(above.points, above.buchholz, above.score_diff, above.score);
      }
      EXPECT_EQ(row.at("rank"), tied ? rows[i - 1].at("rank") : json::value(i + 1));
      EXPECT_FALSE(row.contains(table_size_ == 2 ? "round_points" : "wins"));
      const Reckoned& r = reckoned[player];
      EXPECT_EQ(row.at("games"), r.games);
      EXPECT_EQ(row.at("byes"), r.byes);
      EXPECT_EQ(exact(row.at(points_key)), r.points);
      EXPECT_EQ(row.at(points_key), wire(r.points.to_json()));
      EXPECT_EQ(exact(row.at("buchholz")), r.buchholz);
      EXPECT_EQ(row.at("score_diff"), r.score_diff);
      EXPECT_EQ(row.at("score"), r.score);
      EXPECT_EQ(row.at("dropped"), dropped.contains(player));
      if (i == 0) continue;
      const auto& prev = rows[i - 1].as_object();
      auto key = [&](const json::object& o) {
        return std::make_tuple(exact(o.at(points_key)), exact(o.at("buchholz")),
                               o.at("score_diff").as_int64(), o.at("score").as_int64());
      };
      EXPECT_GE(key(prev), key(row)) << "best first: points, Buchholz, score difference, score";
    }
    auto own = library().standings(library_view().tournament());
    EXPECT_EQ(got.json().at("rows"), wire(own.at("rows")));
    EXPECT_EQ(got.json().at("seq"), head_seq());

    // Every table's result as GET shows it equals the library's for the same events.
    auto t = library_view().tournament();
    for (std::uint32_t round = 1; round <= rounds_.size(); ++round) {
      auto sheet = daemon_.organizer().get(path("/rounds/" + std::to_string(round))).json();
      for (const auto& table : sheet.at("tables").as_array()) {
        std::uint32_t n = table.at("table").to_number<std::uint32_t>();
        const auto* state = t.table(round, n);
        projections::TableState empty{round, n, 0, {}};
        auto result = library().table_result(t, state ? *state : empty);
        ASSERT_TRUE(result.has_value()) << round << "/" << n;
        EXPECT_EQ(table.at("result"), wire(*result)) << round << "/" << n;
      }
    }
  }

  std::uint64_t head_seq() const {
    return daemon_.organizer().get(path("")).json().at("seq").to_number<std::uint64_t>();
  }

 private:
  void enter_table(HttpClient& judge, std::uint32_t round, const projections::SeatedTable& table,
                   std::uint64_t luck) {
    SCOPED_TRACE("table " + std::to_string(table.number));
    std::uint32_t n = table.number;
    const auto& players = table.players;
    if (players.size() == 1) {
      // A bye: reported at once as a win with score 0; results and scorings are refused.
      auto refused =
          judge.put(table_path(round, n, "result"), result_body({{players[0], 50}}), kFirstEntry);
      expect_problem(refused, 422);
      EXPECT_TRUE(has_rule(refused, "bye", players[0])) << refused.body;
      auto no_scoring = judge.post(table_path(round, n, "scorings"),
                                   json::value{{"event", "compass_rose"}, {"player", players[0]}});
      expect_problem(no_scoring, 422);
      EXPECT_TRUE(has_rule(no_scoring, "bye")) << no_scoring.body;
      auto sheet = daemon_.organizer().get(path("/rounds/" + std::to_string(round))).json();
      const auto& shown = sheet.at("tables").at(n - 1);
      EXPECT_EQ(shown.at("status"), "reported");
      EXPECT_EQ(shown.at("bye"), true);
      EXPECT_EQ(shown.at("result"),
                json::parse(R"({"players":[{"player":")" + players[0] + R"(","score":0,"place":"1",
                    "points":{"value":1,"exact":"1"},"lines":[{"rule":"bye","points":{"value":1,"exact":"1"}}]}],
                    "bye":true})"));
      record_final(round, n, {{players[0], 0}});
      return;
    }
    std::mt19937_64 rng(luck * 1000003 + round * 101 + n);
    std::vector<std::pair<std::string, std::int64_t>> scores;
    if ((round + n) % 3 == 0) {
      // The audit trail: scorings, one of them voided again; the result agrees with the totals.
      std::map<std::string, std::int64_t> totals;
      for (const auto& p : players) totals[p] = 0;
      int count = 3 + static_cast<int>(rng() % 4);
      for (int i = 0; i < count; ++i) {
        Scoring s = random_scoring(players, rng);
        auto r = judge.post(table_path(round, n, "scorings"), s.event);
        ASSERT_EQ(r.status, 201) << r.body << " for " << json::serialize(s.event);
        auto answer = r.json();
        for (const auto& p : players) {
          EXPECT_EQ(points_for(answer.at("points"), p), s.gains[p])
              << p << " " << json::serialize(s.event);
          totals[p] += s.gains[p];
        }
        EXPECT_EQ(answer.at("totals"), wire(json::value_from(totals))) << json::serialize(s.event);
        ledger_.add({.kind = Ledger::Kind::action,
                     .seq = seq_of(r),
                     .round = round,
                     .table = n,
                     .payload = Which::CARCASSONNE_SCORING,
                     .body = json::object{{"event", s.event}}});
        if (i == 1) {
          auto v = judge.post(path("/events/" + std::to_string(seq_of(r)) + "/void"),
                              json::object{{"reason", "scored twice"}});
          ASSERT_EQ(v.status, 200) << v.body;
          ledger_.add({.kind = Ledger::Kind::void_event,
                       .seq = seq_of(v),
                       .round = round,
                       .table = n,
                       .supersedes = seq_of(r),
                       .reason = "scored twice"});
          for (const auto& p : players) totals[p] -= s.gains[p];
        }
      }
      for (const auto& p : players) scores.emplace_back(p, totals[p]);
    } else {
      for (const auto& p : players)
        scores.emplace_back(p, 40 + static_cast<std::int64_t>(rng() % 100));
      if ((round * 7 + n) % 5 == 0)
        scores[1].second = scores[0].second;  // a draw (a tie for first)
    }

    std::uint64_t supersedes = 0;
    if (n == 1 && (round + n) % 3 != 0) {
      // Entered wrong first (the scores of the first two players swapped), then corrected.
      auto wrong = scores;
      std::swap(wrong[0].second, wrong[1].second);
      auto first = judge.put(table_path(round, n, "result"), result_body(wrong), kFirstEntry);
      ASSERT_EQ(first.status, 201) << first.body;
      ledger_.add({.kind = Ledger::Kind::action,
                   .seq = seq_of(first),
                   .round = round,
                   .table = n,
                   .payload = Which::CARCASSONNE_RESULT,
                   .body = result_body(wrong)});
      supersedes = seq_of(first);
      auto fixed = judge.put(table_path(round, n, "result"), result_body(scores, "scores swapped"),
                             {{"If-Match", first.header("ETag")}});
      ASSERT_EQ(fixed.status, 200) << fixed.body;
      EXPECT_EQ(fixed.json().at("result_seq"), seq_of(fixed));
      ledger_.add({.kind = Ledger::Kind::action,
                   .seq = seq_of(fixed),
                   .round = round,
                   .table = n,
                   .payload = Which::CARCASSONNE_RESULT,
                   .body = result_body(scores),
                   .supersedes = supersedes,
                   .reason = "scores swapped"});
    } else {
      auto r = judge.put(table_path(round, n, "result"), result_body(scores), kFirstEntry);
      ASSERT_EQ(r.status, 201) << r.body;
      ledger_.add({.kind = Ledger::Kind::action,
                   .seq = seq_of(r),
                   .round = round,
                   .table = n,
                   .payload = Which::CARCASSONNE_RESULT,
                   .body = result_body(scores)});
      // The answer's result: places and points as §1 says.
      std::vector<Rational> by_place =
          players.size() == 2 ? std::vector<Rational>{1, 0} : by_place_;
      auto points = place_points(scores, by_place);
      auto entered = r.json();
      for (const auto& p : entered.at("result").at("players").as_array()) {
        EXPECT_EQ(exact(p.at("points")), points.at(str(p.at("player"))));
      }
    }
    record_final(round, n, scores);
  }

  void record_final(std::uint32_t round, std::uint32_t n,
                    std::vector<std::pair<std::string, std::int64_t>> scores) {
    std::lock_guard lock(mutex_);
    finals_[{round, n}] = std::move(scores);
  }

  TallydProcess& daemon_;
  std::string id_, locale_;
  json::object rules_;
  std::size_t table_size_ = 2;
  std::vector<Rational> by_place_;
  Ledger ledger_;
  std::vector<std::string> active_;
  std::vector<std::vector<projections::SeatedTable>> rounds_;
  std::set<std::pair<std::string, std::string>> met_;
  std::map<std::string, int> starts_, byes_, byes_before_;
  mutable std::mutex mutex_;
  std::map<std::pair<std::uint32_t, std::uint32_t>,
           std::vector<std::pair<std::string, std::int64_t>>>
      finals_;
};

TEST_F(CarcassonneApi, SixteenPlayersFiveSwissRoundsEnteredByConcurrentJudges) {
  Event open(*daemon_, "open", {}, 16);
  std::vector<std::string> judges = {new_judge("Eva"), new_judge("Petr"), new_judge("Ida"),
                                     new_judge("Max")};
  std::uint64_t round3_seating = 0;
  for (int round = 1; round <= 5; ++round) {
    open.seat(2026);
    if (HasFatalFailure()) return;
    if (round == 3) round3_seating = open.head_seq();
    // 2, 3, 4, 2, 3 judges at once.
    std::vector<std::string> now(judges.begin(), judges.begin() + 2 + (round - 1) % 3);
    open.play(now, 7);
    if (HasFatalFailure()) return;
    open.check_standings();
    if (HasFatalFailure()) return;
  }
  // The standings as they were when round 3 was seated, from the past events alone.
  auto then =
      organizer().get(open.path("/standings?as_of=" + std::to_string(round3_seating))).json();
  auto own = library().standings(open.library_view(round3_seating).tournament());
  EXPECT_EQ(then.at("rows"), wire(own.at("rows")));
  EXPECT_EQ(then.at("rows").at(0).at("games"), 2);
  // The stored log is intact.
  EXPECT_EQ(organizer().get("/v1/verify").json().at("ok"), true);
}

TEST_F(CarcassonneApi, NinePlayersGetOneByeARoundNeverTwiceAndADropEndsTheByes) {
  Event odd(*daemon_, "odd", {}, 9);
  std::vector<std::string> judges = {new_judge("Eva"), new_judge("Petr"), new_judge("Ida")};
  for (int round = 1; round <= 4; ++round) {
    odd.seat(99);
    if (HasFatalFailure()) return;
    odd.play(judges, 11);
    if (HasFatalFailure()) return;
    odd.check_standings();
    if (HasFatalFailure()) return;
  }
  // p9 leaves: 8 players, no bye; p9 keeps a row with the games played.
  odd.drop("p9");
  odd.seat();
  if (HasFatalFailure()) return;
  odd.play(judges, 11);
  if (HasFatalFailure()) return;
  odd.check_standings({"p9"});
}

TEST_F(CarcassonneApi, TablesOfFourGiveRoundPointsWithSplitTies) {
  // 10 players at tables of 4: 4 + 3 + 3, round points 5/3/2/1 truncated to the table, ties split.
  Event big(*daemon_, "big", {{"table_size", 4}}, 10);
  std::vector<std::string> judges = {new_judge("Eva"), new_judge("Petr")};
  for (int round = 1; round <= 3; ++round) {
    big.seat(5);
    if (HasFatalFailure()) return;
    big.play(judges, 3);
    if (HasFatalFailure()) return;
    if (round == 1) {
      // Round 1, table 3 (3 players) ends with a tie for first: 1st and 2nd place split,
      // (5 + 3) / 2 = 4 each, and the third gets 2.
      auto sheet = organizer().get(big.path("/rounds/1")).json();
      const auto& players = sheet.at("tables").at(2).at("result").at("players").as_array();
      ASSERT_EQ(players.size(), 3u);
      EXPECT_EQ(players[0].at("place"), "1=");
      EXPECT_EQ(players[1].at("place"), "1=");
      EXPECT_EQ(players[0].at("points").at("exact"), "4");
      EXPECT_EQ(players[1].at("lines"),
                json::parse(R"([{"rule":"place","points":{"value":4,"exact":"4"}}])"));
      EXPECT_EQ(players[2].at("place"), "3");
      EXPECT_EQ(players[2].at("points").at("exact"), "2");
    }
    big.check_standings();
    if (HasFatalFailure()) return;
  }
}

}  // namespace
}  // namespace tally::testing
