// Replication (docs/operations.md "A standby and a public mirror") on loopback, real processes: a
// follower copies the primary's log — what it missed, then live, under load — verifies every
// link, serves the same standings, takes no writes (503 + Tally-Primary), heals after a cut or a
// restart of either side, and refuses a primary whose log disagrees with its own.
#include "tests/support/catan_result.hpp"
#include "tests/support/http_client.hpp"
#include "tests/support/tallyd_process.hpp"
#include "tests/support/temp_dir.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace tally::testing {
namespace {

namespace json = boost::json;
using namespace std::chrono_literals;

std::string str(const json::value& v) { return std::string(v.as_string()); }

class Replication : public ::testing::Test {
 protected:
  void SetUp() override {
    primary_ = std::make_unique<TallydProcess>(dir_.sub("primary"));
    primary_->start();
    organizer_token_ = primary_->organizer_token();
    auto replica = organizer().post("/v1/replicas", json::object{{"name", "standby"}});
    ASSERT_EQ(replica.status, 201) << replica.body;
    replica_token_ = str(replica.json().at("token"));
    std::ofstream(token_file()) << replica_token_ << "\n";
  }

  std::string token_file() const { return dir_.sub("replica.token"); }
  std::string url(const TallydProcess& p) const {
    return "http://127.0.0.1:" + std::to_string(p.port());
  }
  HttpClient organizer() { return primary_->client(organizer_token_); }
  // The primary's organizer token works on the follower: it is in the copied log.
  HttpClient on_follower(const std::string& token = "") {
    return follower_->client(token.empty() ? organizer_token_ : token);
  }

  void start_follower(const std::string& primary_url) {
    follower_ = std::make_unique<TallydProcess>(
        dir_.sub("follower"),
        std::vector<std::string>{"--follow", primary_url, "--follow-token-file", token_file()});
    follower_->start();
  }

  std::uint64_t seq_of(TallydProcess& p) {
    return p.client("").get("/healthz").json().at("seq").to_number<std::uint64_t>();
  }
  // Waits (at most 20 s) until the follower holds the primary's head.
  bool caught_up() {
    auto deadline = std::chrono::steady_clock::now() + 20s;
    while (std::chrono::steady_clock::now() < deadline) {
      if (seq_of(*follower_) == seq_of(*primary_)) return true;
      std::this_thread::sleep_for(20ms);
    }
    return false;
  }

  // A Catan tournament of 16 players, round 1 seated; a judge's token.
  std::string catan() {
    auto org = organizer();
    EXPECT_EQ(
        org.post("/v1/tournaments", json::object{{"id", "cup"}, {"name", "Cup"}, {"game", "catan"}})
            .status,
        201);
    for (int i = 1; i <= 16; ++i) {
      EXPECT_EQ(org.post("/v1/tournaments/cup/players",
                         json::object{{"id", "p" + std::to_string(i)},
                                      {"name", "Player " + std::to_string(i)}})
                    .status,
                201);
    }
    auto seated = org.post("/v1/tournaments/cup/rounds", json::object{{"method", "random"}});
    EXPECT_EQ(seated.status, 201);
    tables_ = seated.json().at("tables").as_array();
    return str(org.post("/v1/judges", json::object{{"name", "Eva"}}).json().at("token"));
  }

  // Table n's result with (settlements, cities) = (2, 4) for the first player, then (2, c).
  json::object result(int table, int variant) {
    json::array rows;
    int cities = 4;
    for (const auto& p : tables_.at(table - 1).at("players").as_array()) {
      rows.push_back(catan_row(p.as_string(), 2, cities));
      cities = variant % 3;
    }
    return json::object{{"players", std::move(rows)}};
  }

  // Judges write while `body` runs: each table entered, then corrected again and again.
  void under_load(const std::string& judge, const std::function<void()>& body) {
    std::atomic<bool> stop{false};
    std::atomic<int> writes{0};
    std::thread writer([&] {
      HttpClient eva = primary_->client(judge);
      // Each table's version as it stands: a table entered earlier is corrected.
      std::vector<std::string> etags(5);
      auto sheet = eva.get("/v1/tournaments/cup/rounds/1").json();
      for (const auto& t : sheet.at("tables").as_array()) {
        auto version = t.at("version").to_number<std::uint64_t>();
        auto n = t.at("table").to_number<std::size_t>();
        if (version > 0 && n < etags.size()) etags[n] = "\"" + std::to_string(version) + "\"";
      }
      for (int i = 0; !stop && i < 2000; ++i) {
        int table = i % 4 + 1;
        std::string path = "/v1/tournaments/cup/rounds/1/tables/" + std::to_string(table);
        json::object body = result(table, i);
        if (!etags[table].empty()) body["reason"] = "recount " + std::to_string(i);
        auto r = eva.put(path + "/result", body,
                         etags[table].empty()
                             ? std::map<std::string, std::string>{{"If-None-Match", "*"}}
                             : std::map<std::string, std::string>{{"If-Match", etags[table]}});
        if (r.status == 200 || r.status == 201) {
          etags[table] = r.header("ETag");
          ++writes;
        }
      }
    });
    body();
    auto deadline = std::chrono::steady_clock::now() + 30s;
    while (writes < 20 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(10ms);
    }
    EXPECT_GE(writes, 20) << "the judges' writes did not go through";
    stop = true;
    writer.join();
  }

  void expect_same_state() {
    auto standings = [](HttpClient c) {
      return c.get("/v1/tournaments/cup/standings").json().at("rows");
    };
    EXPECT_EQ(standings(on_follower()), standings(organizer()));
    auto verify_follower = on_follower().get("/v1/verify").json();
    auto verify_primary = organizer().get("/v1/verify").json();
    EXPECT_EQ(verify_follower.at("ok"), true);
    EXPECT_EQ(verify_follower.at("head"), verify_primary.at("head"));
    EXPECT_EQ(verify_follower.at("events"), verify_primary.at("events"));
  }

  TempDir dir_;
  std::unique_ptr<TallydProcess> primary_, follower_;
  std::string organizer_token_, replica_token_;
  json::array tables_;  // round 1 as seated
};

TEST_F(Replication, AFollowerCatchesUpThenFollowsUnderLoadAndServesTheSameStandings) {
  std::string judge = catan();
  under_load(judge, [&] {
    std::this_thread::sleep_for(100ms);  // some writes before the follower exists
    start_follower(url(*primary_));
  });
  ASSERT_TRUE(caught_up());
  expect_same_state();
  // The same round sheet, entries and all, from the follower's own projections.
  EXPECT_EQ(on_follower().get("/v1/tournaments/cup/rounds/1").json().at("tables"),
            organizer().get("/v1/tournaments/cup/rounds/1").json().at("tables"));

  // Where each stands.
  auto status = on_follower().get("/v1/replication").json();
  EXPECT_EQ(str(status.at("role")), "follower");
  EXPECT_EQ(str(status.at("state")), "following");
  EXPECT_EQ(str(status.at("primary")), url(*primary_));
  EXPECT_EQ(status.at("lag_events").to_number<std::uint64_t>(), 0u);
  auto primary_status = organizer().get("/v1/replication").json();
  EXPECT_EQ(str(primary_status.at("role")), "primary");
  ASSERT_EQ(primary_status.at("followers").as_array().size(), 1u);
  const auto& standby = primary_status.at("followers").at(0);
  EXPECT_EQ(str(standby.at("name")), "standby");
  EXPECT_EQ(standby.at("seq").to_number<std::uint64_t>(), seq_of(*primary_));
}

TEST_F(Replication, AFollowerTakesNoWritesAndAReplicaTokenReadsOnlyTheLog) {
  std::string judge = catan();
  start_follower(url(*primary_));
  ASSERT_TRUE(caught_up());
  auto refused = on_follower(judge).put("/v1/tournaments/cup/rounds/1/tables/1/result",
                                        result(1, 1), {{"If-None-Match", "*"}});
  EXPECT_EQ(refused.status, 503);
  EXPECT_EQ(refused.header("Tally-Primary"), url(*primary_));
  EXPECT_EQ(on_follower().post("/v1/judges", json::object{{"name", "Petr"}}).status, 503);
  // Reads and pages are the follower's own.
  EXPECT_EQ(follower_->client("").get("/t/cup/board").status, 200);
  EXPECT_EQ(follower_->client("").get("/v1/tournaments/cup").status, 200);

  HttpClient replica = primary_->client(replica_token_);
  EXPECT_EQ(replica.get("/v1/replication/log?from=1").status, 200);
  EXPECT_EQ(replica.get("/v1/tournaments").status, 403);
  EXPECT_EQ(replica.get("/v1/tournaments/cup/audit").status, 403);
  EXPECT_EQ(replica.post("/v1/tournaments/cup/players", json::object{{"name", "X"}}).status, 403);
  EXPECT_EQ(primary_->client(judge).get("/v1/replication/log?from=1").status, 403);
  EXPECT_EQ(primary_->client("").get("/v1/replication/log?from=1").status, 401);
  // Replicas are not judges.
  EXPECT_EQ(organizer().get("/v1/judges").json().as_array().size(), 1u);

  // A revoked replica token is refused at once; the follower says so.
  std::string id = str(organizer().get("/v1/replication").json().at("followers").at(0).at("id"));
  auto revoked = organizer().request(boost::beast::http::verb::delete_, "/v1/replicas/" + id);
  ASSERT_EQ(revoked.status, 200) << revoked.body;
  EXPECT_EQ(replica.get("/v1/replication/log?from=1").status, 401);
  follower_->log_once_it_has("\"state\":\"unauthorized\"");
}

TEST_F(Replication, ACutAndARestartOfEitherSideAreHealed) {
  std::string judge = catan();
  start_follower(url(*primary_));
  ASSERT_TRUE(caught_up());

  // The follower stops; the primary goes on; the follower comes back and catches up.
  follower_->stop();
  under_load(judge, [] {});
  follower_->start();
  ASSERT_TRUE(caught_up());
  expect_same_state();

  // The primary stops and comes back on the same address; the follower waits, then follows.
  std::uint16_t port = primary_->port();
  primary_->stop();
  follower_->log_once_it_has("\"state\":\"disconnected\"");
  EXPECT_EQ(str(on_follower().get("/v1/replication").json().at("state")), "disconnected");
  EXPECT_EQ(follower_->client("").get("/v1/tournaments/cup/standings").status,
            200);  // still serves
  primary_ = std::make_unique<TallydProcess>(
      dir_.sub("primary"),
      std::vector<std::string>{"--listen", "127.0.0.1:" + std::to_string(port)});
  primary_->start();
  under_load(judge, [] {});
  ASSERT_TRUE(caught_up());
  expect_same_state();
}

TEST_F(Replication, APrimaryWhoseLogDisagreesIsRefusedAndNothingIsOverwritten) {
  catan();
  start_follower(url(*primary_));
  ASSERT_TRUE(caught_up());
  auto before = on_follower().get("/v1/verify").json();
  follower_->stop();

  // Another server with a log of its own (its own organizer, its own events).
  TallydProcess other(dir_.sub("other"));
  other.start();
  HttpClient other_org = other.client(other.organizer_token());
  ASSERT_EQ(other_org
                .post("/v1/tournaments",
                      json::object{{"id", "elsewhere"}, {"name", "Elsewhere"}, {"game", "catan"}})
                .status,
            201);
  for (int i = 0; i < 40; ++i) {
    other_org.post("/v1/tournaments/elsewhere/players",
                   json::object{{"name", "P" + std::to_string(i)}});
  }
  auto replica = other_org.post("/v1/replicas", json::object{{"name", "standby"}});
  std::ofstream(token_file(), std::ios::trunc) << str(replica.json().at("token")) << "\n";

  start_follower(url(other));
  std::string log = follower_->log_once_it_has("\"state\":\"refused\"");
  EXPECT_NE(log.find("\"level\":\"error\""), std::string::npos);
  auto status = on_follower().get("/v1/replication").json();
  EXPECT_EQ(str(status.at("state")), "refused");
  EXPECT_FALSE(status.at("problem").is_null());
  // Nothing of the follower's log changed, and it still serves it.
  auto after = on_follower().get("/v1/verify").json();
  EXPECT_EQ(after.at("head"), before.at("head"));
  EXPECT_EQ(after.at("events"), before.at("events"));
  EXPECT_EQ(follower_->client("").get("/v1/tournaments/cup/standings").status, 200);
  EXPECT_EQ(follower_->client("").get("/v1/tournaments/elsewhere").status, 404);
}

}  // namespace
}  // namespace tally::testing
