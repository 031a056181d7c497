// Every case of the public conformance vectors (conformance/catan.json) through the library,
// the JSON going through the same codec as the API: tables (VP, places, round points, or the
// rules that reject them) and whole tournaments (the standings order, round points and VP).
#include "projections/catan/catan_game.hpp"

#include "tests/projections/catan/fixtures.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace tally::projections::catan {
namespace {

using namespace testing;

json::object conformance() {
  std::ifstream in(TALLY_CONFORMANCE_DIR "/catan.json");
  std::stringstream text;
  text << in.rdbuf();
  return json::parse(text.str()).as_object();
}

std::string str(const json::value& v) { return std::string(v.as_string()); }

std::vector<std::string> ids_of(const json::array& players) {
  std::vector<std::string> out;
  for (const auto& p : players) out.push_back(str(p.at("player")));
  return out;
}

// The table's outcome for a case: its claims entered as separate actions first
// (`claims_in_result` false) or as `claimed_win` in the result body (true).
void run_table_case(const json::object& c, bool claims_in_result) {
  auto game = make_catan_game();
  json::array players = c.at("players").as_array();
  auto b = seated({ids_of(players)});
  std::vector<std::string> claims;
  if (c.contains("claims")) {
    for (const auto& p : c.at("claims").as_array()) claims.push_back(str(p));
  }
  for (const auto& claimant : claims) {
    if (claims_in_result) {
      for (auto& p : players) {
        if (str(p.at("player")) == claimant) p.as_object()["claimed_win"] = true;
      }
    } else {
      json::object claim{{"player", claimant}};
      ASSERT_TRUE(check(*game, b, 1, 1, Which::CLAIMED_WIN, claim).empty());
      b.action(1, 1, Which::CLAIMED_WIN, claim);
    }
  }
  const json::value result = json::object{{"players", players}};
  const auto errors = check(*game, b, 1, 1, Which::CATAN_RESULT, result);
  const auto& expect = c.at("expect").as_object();

  if (!expect.at("valid").as_bool()) {
    std::set<std::string> expected;
    for (const auto& r : expect.at("rules").as_array()) expected.insert(str(r));
    EXPECT_EQ(rules_of(errors), expected);
    return;
  }
  ASSERT_EQ(errors.size(), 0u) << errors[0].rule << ": " << errors[0].message;
  b.action(1, 1, Which::CATAN_RESULT, result);
  auto tournament = b.tournament();
  auto computed = game->table_result(tournament, *tournament.table(1, 1));
  ASSERT_TRUE(computed);
  const auto& rows = computed->at("players").as_array();
  ASSERT_EQ(rows.size(), players.size());
  for (const auto& row : rows) {
    const std::string p = str(row.at("player"));
    SCOPED_TRACE(p);
    EXPECT_EQ(row.at("score"), expect.at("vp").at(p));
    EXPECT_EQ(row.at("place"), expect.at("place").at(p));
    EXPECT_EQ(row.at("points").at("exact"), expect.at("points").at(p));
  }
}

TEST(CatanConformance, Tables) {
  const auto doc = conformance();
  const auto& cases = doc.at("tables").as_array();
  ASSERT_EQ(cases.size(), 13u);  // every case of the file is run
  for (const auto& c : cases) {
    for (bool claims_in_result : {false, true}) {
      SCOPED_TRACE(str(c.at("name")) + (claims_in_result ? " (claims in the result)" : ""));
      run_table_case(c.as_object(), claims_in_result);
    }
  }
}

TEST(CatanConformance, Tournaments) {
  const auto doc = conformance();
  const auto& cases = doc.at("tournaments").as_array();
  ASSERT_EQ(cases.size(), 1u);
  auto game = make_catan_game();
  for (const auto& cv : cases) {
    const auto& c = cv.as_object();
    SCOPED_TRACE(str(c.at("name")));
    TournamentBuilder b("conf", "catan");
    for (const auto& p : c.at("players").as_array()) b.player(str(p.at("id")), str(p.at("name")));
    std::uint32_t round = 0;
    for (const auto& r : c.at("rounds").as_array()) {
      ++round;
      std::vector<std::vector<std::string>> tables;
      for (const auto& t : r.as_array()) tables.push_back(ids_of(t.as_array()));
      b.seat(tables);
      std::uint32_t table = 0;
      for (const auto& t : r.as_array()) {
        json::value body = json::object{{"players", t}};
        ++table;
        ASSERT_TRUE(check(*game, b, round, table, Which::CATAN_RESULT, body).empty());
        b.action(round, table, Which::CATAN_RESULT, body);
      }
    }
    const auto standings = game->standings(b.tournament());
    const auto& expect = c.at("expect").as_object();
    std::vector<std::string> order;
    for (const auto& row : standings.at("rows").as_array()) {
      const std::string p = str(row.at("player"));
      order.push_back(p);
      EXPECT_EQ(row.at("round_points").at("exact"), expect.at("round_points").at(p)) << p;
      EXPECT_EQ(row.at("vp"), expect.at("vp").at(p)) << p;
    }
    std::vector<std::string> expected_order;
    for (const auto& p : expect.at("order").as_array()) expected_order.push_back(str(p));
    EXPECT_EQ(order, expected_order);
  }
}

}  // namespace
}  // namespace tally::projections::catan
