// A season over HTTP (docs/series.md): three Catan qualifiers of 12, 25 and 41 players by Q-2 —
// each with players who played only one of its four rounds — the second played on another
// tallyd (a venue's laptop) and imported from its export, people linked across them, and every
// player's status checked against values worked out by hand below (Q-3's passing-over included).
// A tampered export is refused three ways with nothing written; a later, longer export of the
// same tournament replaces the first; one that does not extend it is refused.
#include "tests/support/catan_result.hpp"
#include "tests/support/http_client.hpp"
#include "tests/support/tallyd_process.hpp"
#include "tests/support/temp_dir.hpp"

#include <gtest/gtest.h>
#include <boost/json.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace tally::testing {
namespace {

namespace json = boost::json;

const std::map<std::string, std::string> kFirstEntry = {{"If-None-Match", "*"}};

std::string str(const json::value& v) { return std::string(v.as_string()); }

// A Catan qualifier of 4 rounds whose final order is known before it is played.
//
// `order` lists the regular players in the final order they must reach (ids). They sit at the
// same table every round: with t tables (the first m of them of three), table k seats the k-th
// of each quarter of the order — seat 1 always makes 10 VP, seat 2 8, seat 3 6, seat 4 4 — so
// the standings (round points, VP, VP share, name: catan.md §5) put the first quarter first, in
// order (a 3-player table's share is higher, and those tables come first; names are numbered in
// the order), then the second … `extras` play round 1 only, three to a table, and are dropped:
// with 5, 3 or 2 round points from one game they end among the last.
class Qualifier {
 public:
  Qualifier(HttpClient& org, std::string id, std::vector<std::string> order,
            std::vector<std::string> extras, std::uint32_t three_player_tables)
      : org_(org),
        id_(std::move(id)),
        order_(std::move(order)),
        extras_(std::move(extras)),
        m_(three_player_tables) {}

  void play() {
    auto created =
        org_.post("/v1/tournaments", json::object{{"id", id_},
                                                  {"name", "Qualifier " + id_},
                                                  {"game", "catan"},
                                                  {"rules", json::object{{"rounds", 4}}}});
    ASSERT_EQ(created.status, 201) << created.body;
    auto add = [&](const std::string& player, const std::string& name) {
      auto r = org_.post(t() + "/players", json::object{{"id", player}, {"name", name}});
      ASSERT_EQ(r.status, 201) << r.body;
    };
    char name[64];
    for (std::size_t i = 0; i < order_.size(); ++i) {
      std::snprintf(name, sizeof name, "Player %03zu", i + 1);
      add(order_[i], name);
    }
    for (std::size_t i = 0; i < extras_.size(); ++i) {
      std::snprintf(name, sizeof name, "Visitor %03zu", i + 1);
      add(extras_[i], name);
    }
    const std::size_t n = order_.size();
    const std::size_t tables = (n + m_) / 4;  // 3m + 4(t − m) = n
    ASSERT_EQ(3 * m_ + 4 * (tables - m_), n);
    std::vector<std::vector<std::string>> seating(tables);
    for (std::size_t k = 0; k < tables; ++k) {
      for (std::size_t seat = 0; seat < 3; ++seat) seating[k].push_back(order_[seat * tables + k]);
      if (k >= m_) seating[k].push_back(order_[3 * tables + (k - m_)]);
    }
    for (std::uint32_t round = 1; round <= 4; ++round) {
      auto tables_now = seating;
      if (round == 1) {
        for (std::size_t i = 0; i < extras_.size(); i += 3)
          tables_now.push_back({extras_[i], extras_[i + 1], extras_[i + 2]});
      }
      json::array list;
      for (const auto& table : tables_now) list.push_back(json::value_from(table));
      auto seated = org_.post(t() + "/rounds", json::object{{"method", "manual"},
                                                            {"tables", std::move(list)},
                                                            {"reason", "the qualifier's plan"}});
      ASSERT_EQ(seated.status, 201) << seated.body;
      for (std::size_t k = 0; k < tables_now.size(); ++k) {
        json::array rows;
        const int cities[] = {4, 3, 2, 1};  // with 2 settlements: 10, 8, 6, 4 VP
        for (std::size_t seat = 0; seat < tables_now[k].size(); ++seat)
          rows.push_back(catan_row(tables_now[k][seat], 2, cities[seat]));
        auto r = org_.put(t() + "/rounds/" + std::to_string(round) + "/tables/" +
                              std::to_string(k + 1) + "/result",
                          json::object{{"players", std::move(rows)}}, kFirstEntry);
        ASSERT_EQ(r.status, 201) << r.body;
      }
      auto closed = org_.post(t() + "/rounds/" + std::to_string(round) + "/close", json::object{});
      ASSERT_EQ(closed.status, 201) << closed.body;
      if (round == 1) {
        for (const auto& extra : extras_) {
          auto d = org_.post(t() + "/players/" + extra + "/drop",
                             json::object{{"reason", "came for one round"}});
          ASSERT_EQ(d.status, 200) << d.body;
        }
      }
    }
    // The order it was built for is the order it has (a visitor's 5 round points from one game
    // put the visitor between the third and the fourth quarter: the places that qualify are all
    // in the first two).
    auto standings = org_.get(t() + "/standings").json();
    std::vector<std::string> regular;
    for (const auto& row : standings.at("rows").as_array()) {
      std::string player = str(row.at("player"));
      if (std::find(extras_.begin(), extras_.end(), player) == extras_.end())
        regular.push_back(player);
    }
    ASSERT_EQ(regular, order_) << id_;
    for (std::size_t i = 0; i < 2 * order_.size() / 4; ++i)
      ASSERT_EQ(str(standings.at("rows").at(i).at("player")), order_[i])
          << id_ << " place " << i + 1;
  }

  std::string t() const { return "/v1/tournaments/" + id_; }

 private:
  HttpClient& org_;
  std::string id_;
  std::vector<std::string> order_;
  std::vector<std::string> extras_;
  std::size_t m_;
};

// n ids "{prefix}01"…
std::vector<std::string> ids(const std::string& prefix, int from, int to) {
  std::vector<std::string> out;
  char id[32];
  for (int i = from; i <= to; ++i) {
    std::snprintf(id, sizeof id, "%s%02d", prefix.c_str(), i);
    out.push_back(id);
  }
  return out;
}

std::vector<std::string> operator+(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

class Season : public ::testing::Test {
 protected:
  void SetUp() override {
    for (auto* server : {&federation_, &venue_}) {
      *server = std::make_unique<TallydProcess>(
          dir_.sub(server == &federation_ ? "federation" : "venue"),
          std::vector<std::string>{"--rate-limit", "100000", "--rate-burst", "100000"});
      (*server)->start();
    }
    fed_ = std::make_unique<HttpClient>("127.0.0.1", federation_->port(),
                                        federation_->organizer_token());
    venue_org_ =
        std::make_unique<HttpClient>("127.0.0.1", venue_->port(), venue_->organizer_token());
  }

  std::string export_of(const std::string& tournament) {
    auto r = venue_org_->get("/v1/export?tournament=" + tournament);
    EXPECT_EQ(r.status, 200) << r.body;
    return r.body;
  }

  HttpReply import(const std::string& body) {
    return fed_->request(http::verb::post, "/v1/series/ctt-2027/imports", body,
                         {{"Content-Type", "application/x-ndjson"}});
  }

  TempDir dir_;
  std::unique_ptr<TallydProcess> federation_, venue_;
  std::unique_ptr<HttpClient> fed_, venue_org_;
};

struct Status {
  std::string status;  // "" = not qualified
  std::string at;
  int points;
};

TEST_F(Season, ThreeQualifiersOneImportedGiveEveryPlayerTheStatusWorkedOutByHand) {
  // The people of the season and where they finish (the rest are each tournament's own).
  // A (12 + 3 visitors by Q-2: 12 → places 1–2 direct, 3–4 a point):
  //   1 Anna, 2 Bohdan, 3 Cyril, 4 Dana.
  // B (25 + 6 visitors: 25 → 4 direct, 4 points; 31 would have been 6 and 6):
  //   1 Anna (qualified: passed over), 2 Cyril, 3 Eva, 4 Bohdan (passed over), 5 Filip, 6 Gita
  //   → direct: Cyril, Eva, Filip, Gita; points: 7 Dana (her 2nd: qualified), 8 Hana, 9 Ivan,
  //   10 Jana.
  // C (41 + 3 visitors: 41 → 8 direct, 8 points):
  //   1 Eva (passed over), 2 Hana, 3 Anna (passed over), 4 Ivan, 5–10 six of C's own → direct:
  //   Hana, Ivan and those six; 11 Dana (qualified: passed over), 12 Jana (her 2nd point:
  //   qualified), 13–19 seven of C's own a point each.
  using Ids = std::vector<std::string>;
  Qualifier a(*fed_, "a-brno", Ids{"anna", "bohdan", "cyril", "dana"} + ids("a", 5, 12),
              ids("av", 1, 3), 0);
  Qualifier b(*venue_org_, "b-plzen",
              Ids{"b-anna", "b-cyril", "b-eva", "b-bohdan", "b-filip", "b-gita", "b-dana", "b-hana",
                  "b-ivan", "b-jana"} +
                  ids("b", 11, 25),
              ids("bv", 1, 6), 3);
  Qualifier c(*fed_, "c-praha",
              Ids{"c-eva", "c-hana", "c-anna", "c-ivan"} + ids("c", 5, 10) +
                  Ids{"c-dana", "c-jana"} + ids("c", 13, 41),
              ids("cv", 1, 3), 3);
  ASSERT_NO_FATAL_FAILURE(a.play());
  ASSERT_NO_FATAL_FAILURE(b.play());
  ASSERT_NO_FATAL_FAILURE(c.play());

  ASSERT_EQ(
      fed_->post("/v1/series", json::object{{"id", "ctt-2027"},
                                            {"name", "Czech Catan Tour 2027"},
                                            {"game", "catan"},
                                            {"locale", "cs"},
                                            {"scoring", json::object{{"kind", "qualification"}}}})
          .status,
      201);
  ASSERT_EQ(
      fed_->post("/v1/series/ctt-2027/tournaments", json::object{{"tournament", "a-brno"}}).status,
      201);

  // The venue's export, tampered three ways: each refused naming its line, nothing written.
  const std::string exported = export_of("b-plzen");
  std::vector<std::string> lines;
  {
    std::istringstream in(exported);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
  }
  ASSERT_GT(lines.size(), 70u);  // the venue's whole log: ~31 players, 30 results …
  auto joined = [](const std::vector<std::string>& l) {
    std::string out;
    for (const auto& line : l) out += line + "\n";
    return out;
  };
  const std::uint64_t seq_before =
      fed_->get("/v1/series/ctt-2027").json().at("seq").to_number<std::uint64_t>();
  {
    auto changed = lines;
    auto at = changed[40].find("\"bytes\":\"") + 20;
    changed[40][at] = changed[40][at] == 'A' ? 'B' : 'A';  // one byte
    auto r = import(joined(changed));
    ASSERT_EQ(r.status, 422) << r.body;
    EXPECT_EQ(r.json().at("line"), 41);
    EXPECT_EQ(r.json().at("errors").at(0).at("rule"), "Q-1");
  }
  {
    auto removed = lines;
    removed.erase(removed.begin() + 30);
    auto r = import(joined(removed));
    ASSERT_EQ(r.status, 422) << r.body;
    EXPECT_EQ(r.json().at("line"), 31);
  }
  {
    auto swapped = lines;
    std::swap(swapped[50], swapped[51]);
    auto r = import(joined(swapped));
    ASSERT_EQ(r.status, 422) << r.body;
    EXPECT_EQ(r.json().at("line"), 51);
  }
  auto series = fed_->get("/v1/series/ctt-2027").json();
  EXPECT_EQ(series.at("seq").to_number<std::uint64_t>(), seq_before);  // nothing written
  EXPECT_EQ(series.at("tournaments").as_array().size(), 1u);

  auto imported = import(exported);
  ASSERT_EQ(imported.status, 201) << imported.body;
  EXPECT_EQ(imported.json().at("imported"), true);
  EXPECT_EQ(imported.json().at("size"), 25);  // the six visitors played 1 of 4
  EXPECT_TRUE(imported.json().at("differences").as_array().empty());  // the same engine
  EXPECT_EQ(imported.json().at("origin").at("events").to_number<std::uint64_t>(), lines.size() - 1);
  // The same export again changes nothing.
  auto again = import(exported);
  EXPECT_EQ(again.status, 200) << again.body;
  EXPECT_EQ(again.json().at("unchanged"), true);

  ASSERT_EQ(
      fed_->post("/v1/series/ctt-2027/tournaments", json::object{{"tournament", "c-praha"}}).status,
      201);

  // The people: made from their first tournament's player, then linked in the others.
  const std::map<std::string, std::vector<std::pair<std::string, std::string>>> people{
      {"Anna", {{"a-brno", "anna"}, {"b-plzen", "b-anna"}, {"c-praha", "c-anna"}}},
      {"Bohdan", {{"a-brno", "bohdan"}, {"b-plzen", "b-bohdan"}}},
      {"Cyril", {{"a-brno", "cyril"}, {"b-plzen", "b-cyril"}}},
      {"Dana", {{"a-brno", "dana"}, {"b-plzen", "b-dana"}, {"c-praha", "c-dana"}}},
      {"Eva", {{"b-plzen", "b-eva"}, {"c-praha", "c-eva"}}},
      {"Filip", {{"b-plzen", "b-filip"}}},
      {"Gita", {{"b-plzen", "b-gita"}}},
      {"Hana", {{"b-plzen", "b-hana"}, {"c-praha", "c-hana"}}},
      {"Ivan", {{"b-plzen", "b-ivan"}, {"c-praha", "c-ivan"}}},
      {"Jana", {{"b-plzen", "b-jana"}, {"c-praha", "c-jana"}}},
  };
  for (const auto& [name, players] : people) {
    auto added = fed_->post("/v1/series/ctt-2027/people",
                            json::object{{"id", name},
                                         {"name", name},
                                         {"from", json::object{{"tournament", players[0].first},
                                                               {"player", players[0].second}}}});
    ASSERT_EQ(added.status, 201) << added.body;
    for (std::size_t i = 1; i < players.size(); ++i) {
      auto linked =
          fed_->post("/v1/series/ctt-2027/links", json::object{{"tournament", players[i].first},
                                                               {"player", players[i].second},
                                                               {"person", name},
                                                               {"decision", "confirm"}});
      ASSERT_EQ(linked.status, 201) << linked.body;
    }
  }
  // a person is one player of a tournament.
  auto twice = fed_->post("/v1/series/ctt-2027/links", json::object{{"tournament", "c-praha"},
                                                                    {"player", "c05"},
                                                                    {"person", "Anna"},
                                                                    {"decision", "confirm"}});
  EXPECT_EQ(twice.status, 409) << twice.body;
  EXPECT_EQ(twice.json().at("errors").at(0).at("rule"), "Q-5");

  // Worked out by hand from the places above.
  std::map<std::string, Status> expected{
      {"Anna", {"direct", "a-brno", 0}},   {"Bohdan", {"direct", "a-brno", 0}},
      {"Cyril", {"direct", "b-plzen", 1}}, {"Dana", {"points", "b-plzen", 2}},
      {"Eva", {"direct", "b-plzen", 0}},   {"Filip", {"direct", "b-plzen", 0}},
      {"Gita", {"direct", "b-plzen", 0}},  {"Hana", {"direct", "c-praha", 1}},
      {"Ivan", {"direct", "c-praha", 1}},  {"Jana", {"points", "c-praha", 2}},
  };
  for (const auto& id : ids("c", 5, 10)) expected["c-praha/" + id] = {"direct", "c-praha", 0};
  for (const auto& id : ids("c", 13, 19)) expected["c-praha/" + id] = {"", "", 1};
  const std::map<std::string, std::vector<std::string>> passed_over{
      {"Anna", {"b-plzen", "c-praha"}},
      {"Bohdan", {"b-plzen"}},
      {"Dana", {"c-praha"}},
      {"Eva", {"c-praha"}}};

  auto standings = fed_->get("/v1/series/ctt-2027/standings");
  ASSERT_EQ(standings.status, 200) << standings.body;
  auto body = standings.json();
  // Everyone: 10 people, the 12 + 25 + 41 − 23 linked players of their own, and the 12 visitors.
  const auto& rows = body.at("rows").as_array();
  EXPECT_EQ(rows.size(), 10u + (12 - 4) + (25 - 10) + (41 - 6) + 12);
  for (const auto& row : rows) {
    const std::string key = str(row.at("key"));
    Status want = expected.count(key) ? expected.at(key) : Status{"", "", 0};
    EXPECT_EQ(row.at("status").is_null() ? "" : str(row.at("status")), want.status) << key;
    EXPECT_EQ(row.at("qualified_at").is_null() ? "" : str(row.at("qualified_at")), want.at) << key;
    EXPECT_EQ(row.at("points").at("value"), want.points) << key;
    std::vector<std::string> passed;
    for (const auto& r : row.at("results").as_array()) {
      if (r.at("passed_over").as_bool()) passed.push_back(str(r.at("tournament")));
    }
    auto it = passed_over.find(key);
    EXPECT_EQ(passed, it == passed_over.end() ? std::vector<std::string>{} : it->second) << key;
  }
  // The tournaments in the order they ended, with their Q-2 sizes.
  const auto& tournaments = body.at("tournaments").as_array();
  ASSERT_EQ(tournaments.size(), 3u);
  EXPECT_EQ(str(tournaments[0].at("id")), "a-brno");
  EXPECT_EQ(str(tournaments[1].at("id")), "b-plzen");
  EXPECT_EQ(str(tournaments[2].at("id")), "c-praha");
  EXPECT_EQ(tournaments[0].at("size"), 12);
  EXPECT_EQ(tournaments[1].at("size"), 25);
  EXPECT_EQ(tournaments[2].at("size"), 41);
  EXPECT_EQ(tournaments[1].at("imported"), true);

  // A person's page: the points still missing, in the reader's language.
  auto jana = fed_->request(http::verb::get, "/v1/series/ctt-2027/people/Jana", "",
                            {{"Accept-Language", "cs"}});
  ASSERT_EQ(jana.status, 200) << jana.body;
  EXPECT_EQ(jana.json().at("points_missing"), 0);
  auto c13 = fed_->post(
      "/v1/series/ctt-2027/people",
      json::object{{"id", "c13"},
                   {"name", "Player 013"},
                   {"from", json::object{{"tournament", "c-praha"}, {"player", "c13"}}}});
  ASSERT_EQ(c13.status, 201) << c13.body;
  EXPECT_EQ(c13.json().at("points_missing"), 1);
  auto in_czech = fed_->request(http::verb::get, "/v1/series/ctt-2027/people/c13", "",
                                {{"Accept-Language", "cs"}});
  EXPECT_EQ(str(in_czech.json().at("missing")), "ještě jeden kvalifikační bod");
  auto in_english = fed_->request(http::verb::get, "/v1/series/ctt-2027/people/c13", "",
                                  {{"Accept-Language", "en"}});
  EXPECT_EQ(str(in_english.json().at("missing")), "one more qualification point");

  // a linked player is rated as the person, over this server's tournaments and the import:
  // Anna played all three qualifiers, four rounds each.
  auto ratings = fed_->get("/v1/ratings/catan");
  ASSERT_EQ(ratings.status, 200) << ratings.body;
  const json::value rated = ratings.json();
  const json::object* anna = nullptr;
  for (const auto& row : rated.as_array()) {
    if (row.at("person") == "Anna") anna = &row.as_object();
  }
  ASSERT_NE(anna, nullptr);
  EXPECT_EQ(anna->at("games"), 12);
  EXPECT_EQ(str(anna->at("series")), "ctt-2027");
  auto anna_page = fed_->get("/v1/series/ctt-2027/people/Anna").json();
  EXPECT_EQ(anna_page.at("rating").at("mu"), anna->at("mu"));
  EXPECT_EQ(anna_page.at("rating").at("games"), 12);

  // As it was before the last tournament joined: C's results count for nothing yet.
  auto earlier = fed_->get("/v1/series/ctt-2027/standings?as_of=" + std::to_string(seq_before));
  ASSERT_EQ(earlier.status, 200) << earlier.body;
  EXPECT_EQ(earlier.json().at("tournaments").as_array().size(), 1u);

  // The federation restarts: the series, its import and its links come back from the log.
  auto before = fed_->get("/v1/series/ctt-2027/standings").json();
  federation_->stop();
  federation_->start();
  HttpClient after("127.0.0.1", federation_->port(), federation_->organizer_token());
  auto replayed = after.get("/v1/series/ctt-2027/standings").json();
  EXPECT_EQ(replayed, before);
  EXPECT_EQ(replayed.at("rows").as_array().size(), rows.size());  // c13 a person: as many rows
}

}  // namespace
}  // namespace tally::testing
