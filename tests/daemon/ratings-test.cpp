// GET /v1/ratings/{game} through the real tallyd over HTTP: results entered, one claim
// voided and one result corrected, and the endpoint's μ, σ and order checked against the
// ratings library fed the places those tables have — in the order their results were first
// entered.
#include "projections/ratings.hpp"
#include "tests/daemon/api_fixture.hpp"
#include "tests/support/problem.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace tally::testing {
namespace {

namespace json = boost::json;
using projections::RatedGame;
using projections::RatedIdentity;

const std::map<std::string, std::string> kFirstEntry = {{"If-None-Match", "*"}};

std::string str(const json::value& v) { return std::string(v.as_string()); }
std::uint64_t seq_of(const HttpReply& r) { return r.json().at("seq").to_number<std::uint64_t>(); }

// One Catan sheet without titles: settlements + 2 × cities VP.
json::object sheet(const std::string& player, int settlements, int cities) {
  return {{"player", player},
          {"settlements", settlements},
          {"cities", cities},
          {"vp_cards", 0},
          {"knights", 0},
          {"roads", 6},
          {"longest_road", 3},
          {"largest_army", false},
          {"longest_road_holder", false}};
}
json::object result(std::vector<json::object> sheets, const std::string& reason = "") {
  json::array players;
  for (auto& s : sheets) players.emplace_back(std::move(s));
  json::object body{{"players", std::move(players)}};
  if (!reason.empty()) body["reason"] = reason;
  return body;
}

class RatingsApi : public ApiFixture {
 protected:
  static std::string table(const std::string& t, int round, int n,
                           const std::string& what = "result") {
    return "/v1/tournaments/" + t + "/rounds/" + std::to_string(round) + "/tables/" +
           std::to_string(n) + "/" + what;
  }
  void seat(const std::string& t, const std::vector<std::vector<std::string>>& tables) {
    json::array list;
    for (const auto& players : tables) {
      json::array seats;
      for (const auto& p : players) seats.emplace_back(p);
      list.emplace_back(std::move(seats));
    }
    auto r = org().post("/v1/tournaments/" + t + "/rounds",
                        json::object{{"method", "manual"}, {"tables", std::move(list)}});
    ASSERT_EQ(r.status, 201) << r.body;
  }
  // The game the server should have rated: the players of tournament t in these places.
  static RatedGame game(const std::string& t, const std::map<std::string, std::uint32_t>& places,
                        const std::map<std::string, std::string>& names) {
    RatedGame g{t, 0, 0, 0, 0, {}};
    for (const auto& [player, place] : places) {
      g.seats.push_back({RatedIdentity{t + "/" + player, names.at(player), "", t, player}, place});
    }
    return g;
  }
};

TEST_F(RatingsApi, RebuiltFromTheResultsInEffectInTheOrderFirstEntered) {
  const std::map<std::string, std::string> names = {
      {"a", "Alena"},  {"b", "Bedřich"},   {"c", "Cecílie"}, {"d", "David"},
      {"e", "Eliška"}, {"f", "František"}, {"g", "Gustav"},  {"h", "Hana"}};
  create_tournament("cup", "catan", {names.begin(), names.end()});
  // Another game's tournament is no part of Catan's ratings.
  create_tournament("other", "carcassonne", {{"x", "Xaver"}, {"y", "Yvona"}});

  auto empty = org().get("/v1/ratings/catan");
  ASSERT_EQ(empty.status, 200) << empty.body;
  EXPECT_EQ(empty.json(), json::array());

  // Round 1: table 2's result first, then table 1's (with a claim that is voided afterwards).
  seat("cup", {{"a", "b", "c", "d"}, {"e", "f", "g", "h"}});
  auto t2 =
      org().put(table("cup", 1, 2),
                result({sheet("e", 3, 2), sheet("f", 3, 1), sheet("g", 1, 2), sheet("h", 3, 0)}),
                kFirstEntry);  // 7, 5, 5, 3 VP: places 1, 2=, 2=, 4
  ASSERT_EQ(t2.status, 201) << t2.body;
  auto claim = org().post(table("cup", 1, 1, "claims"), json::object{{"player", "a"}});
  ASSERT_EQ(claim.status, 201) << claim.body;
  auto t1 =
      org().put(table("cup", 1, 1),
                result({sheet("a", 2, 4), sheet("b", 4, 4), sheet("c", 3, 1), sheet("d", 2, 0)}),
                kFirstEntry);  // a 10 claims over b 12: a first
  ASSERT_EQ(t1.status, 201) << t1.body;
  EXPECT_EQ(str(t1.json().at("result").at("players").at(0).at("player")), "a");
  auto voided = org().post("/v1/tournaments/cup/events/" + std::to_string(seq_of(claim)) + "/void",
                           json::object{{"reason", "claimed at the wrong table"}});
  ASSERT_EQ(voided.status, 200) << voided.body;  // b first now

  // Round 2: table 1 entered, then table 2.
  seat("cup", {{"a", "e", "b", "f"}, {"c", "g", "d", "h"}});
  auto r2t1 =
      org().put(table("cup", 2, 1),
                result({sheet("a", 3, 0), sheet("e", 4, 0), sheet("b", 2, 2), sheet("f", 5, 0)}),
                kFirstEntry);  // b 6, f 5, e 4, a 3
  ASSERT_EQ(r2t1.status, 201) << r2t1.body;
  auto r2t2 =
      org().put(table("cup", 2, 2),
                result({sheet("c", 2, 1), sheet("g", 3, 1), sheet("d", 4, 1), sheet("h", 5, 1)}),
                kFirstEntry);  // h 7, d 6, g 5, c 4
  ASSERT_EQ(r2t2.status, 201) << r2t2.body;
  // Round 3, and only then round 2's table 1 corrected: its game stays before round 3's, which
  // its players played after it (rated at the correction's seq, a and b would differ).
  seat("cup", {{"a", "c", "e", "g"}, {"b", "d", "f", "h"}});
  auto r3t1 =
      org().put(table("cup", 3, 1),
                result({sheet("a", 2, 1), sheet("c", 4, 1), sheet("e", 3, 0), sheet("g", 2, 2)}),
                kFirstEntry);  // c 6, g 6, a 4, e 3
  ASSERT_EQ(r3t1.status, 201) << r3t1.body;
  auto r3t2 =
      org().put(table("cup", 3, 2),
                result({sheet("b", 5, 2), sheet("d", 2, 0), sheet("f", 3, 1), sheet("h", 2, 1)}),
                kFirstEntry);  // b 9, f 5, h 4, d 2
  ASSERT_EQ(r3t2.status, 201) << r3t2.body;
  auto fixed =
      org().put(table("cup", 2, 1),
                result({sheet("a", 5, 2), sheet("e", 4, 0), sheet("b", 2, 2), sheet("f", 5, 0)},
                       "recounted a's cities"),  // a 9, b 6, f 5, e 4
                {{"If-Match", r2t1.header("ETag")}});
  ASSERT_EQ(fixed.status, 200) << fixed.body;

  const std::vector<RatedGame> games = {
      game("cup", {{"e", 1}, {"f", 2}, {"g", 2}, {"h", 4}}, names),
      game("cup", {{"a", 2}, {"b", 1}, {"c", 3}, {"d", 4}}, names),  // the claim voided
      game("cup", {{"a", 1}, {"b", 2}, {"e", 4}, {"f", 3}}, names),  // corrected, where first
      game("cup", {{"c", 4}, {"d", 2}, {"g", 3}, {"h", 1}}, names),
      game("cup", {{"a", 3}, {"c", 1}, {"e", 4}, {"g", 1}}, names),
      game("cup", {{"b", 1}, {"d", 4}, {"f", 2}, {"h", 3}}, names),
  };
  const auto expected = projections::ranked(projections::rate_games(games), text::Collation());

  auto reply = org().get("/v1/ratings/catan");
  ASSERT_EQ(reply.status, 200) << reply.body;
  const json::value rows = reply.json();
  ASSERT_EQ(rows.as_array().size(), expected.size()) << reply.body;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const json::object& row = rows.at(i).as_object();
    const auto& want = expected[i];
    SCOPED_TRACE("row " + std::to_string(i) + ": " + json::serialize(row));
    EXPECT_EQ(row.at("rank").to_number<std::uint32_t>(), want.rank);
    EXPECT_TRUE(row.at("person").is_null());
    EXPECT_EQ(str(row.at("tournament")), "cup");
    EXPECT_EQ(str(row.at("player")), want.player.identity.player);
    EXPECT_EQ(str(row.at("name")), want.player.identity.name);
    EXPECT_EQ(row.at("games").to_number<std::uint32_t>(), want.player.rating.games);
    EXPECT_NEAR(row.at("mu").to_number<double>(), want.player.rating.mu, 1e-12);
    EXPECT_NEAR(row.at("sigma").to_number<double>(), want.player.rating.sigma, 1e-12);
    EXPECT_NEAR(row.at("rating").to_number<double>(), want.player.rating.display(), 1e-12);
    if (i > 0) {
      EXPECT_LE(row.at("rating").to_number<double>(),
                rows.at(i - 1).at("rating").to_number<double>());
    }
  }
  // Everyone played three games: one per round, a correction replacing one, not adding one.
  for (const auto& row : rows.as_array()) EXPECT_EQ(row.at("games"), 3);

  // Public: no token needed.
  HttpClient anonymous = client("");
  EXPECT_EQ(anonymous.get("/v1/ratings/catan").status, 200);
}

TEST_F(RatingsApi, AnUnknownGameIsNotFoundByName) {
  auto reply = org().get("/v1/ratings/chess");
  expect_problem(reply, 404);
  EXPECT_NE(str(reply.json().at("detail")).find("chess"), std::string::npos) << reply.body;
}

}  // namespace
}  // namespace tally::testing
