// Replication (docs/operations.md "A standby and a public mirror") on loopback, real processes: a
// follower copies the primary's log — what it missed, then live, under load — verifies every
// link, serves the same standings, takes no writes (503 + Tally-Primary), heals after a cut or a
// restart of either side, and refuses a primary whose log disagrees with its own. A synchronous
// standby (replicas_ack) has every answered write; promoted after the primary is killed under
// load, it holds every one of them, and the old primary, back, is fenced. A follower
// whose primary holds its request unanswered still stops at once (issue 39, F7).
#include "tests/support/catan_result.hpp"
#include "tests/support/http_client.hpp"
#include "tests/support/tallyd_process.hpp"
#include "tests/support/temp_dir.hpp"

#include <gtest/gtest.h>

#include <boost/asio.hpp>

#include <array>
#include <atomic>
#include <chrono>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
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
    auto replica =
        organizer().post("/v1/replicas", json::object{{"name", "standby"}, {"standby", true}});
    ASSERT_EQ(replica.status, 201) << replica.body;
    EXPECT_EQ(replica.json().at("standby"), true);
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

  // The primary again, on the same address (so that its followers find it), with `flags`.
  void restart_primary(std::vector<std::string> flags) {
    std::uint16_t port = primary_->port();
    if (primary_->running()) primary_->stop();
    flags.insert(flags.end(), {"--listen", "127.0.0.1:" + std::to_string(port)});
    primary_ = std::make_unique<TallydProcess>(dir_.sub("primary"), flags);
    primary_->start();
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

// Table n's version in round 1 as `p` has it.
std::uint64_t table_version(TallydProcess& p, int n) {
  auto sheet = p.client("").get("/v1/tournaments/cup/rounds/1").json();
  for (const auto& t : sheet.at("tables").as_array()) {
    if (t.at("table") == n) return t.at("version").to_number<std::uint64_t>();
  }
  return 0;
}

// The figure a /metrics line gives (-1 when the line is not there).
double metric(TallydProcess& p, const std::string& name) {
  std::string text = p.client("").get("/metrics").body;
  auto at = text.find("\n" + name + " ");
  return at == std::string::npos ? -1 : std::stod(text.substr(at + name.size() + 2));
}

TEST_F(Replication, ASynchronousStandbyHasEveryAnsweredWriteAndAGoneOneIsSaidPlainly) {
  std::string judge = catan();
  restart_primary({"--replicas-ack", "1", "--replicas-ack-timeout", "2"});
  start_follower(url(*primary_));
  ASSERT_TRUE(caught_up());
  HttpClient eva = primary_->client(judge);
  std::string table = "/v1/tournaments/cup/rounds/1/tables/";
  for (int n = 1; n <= 4; ++n) {
    auto entered =
        eva.put(table + std::to_string(n) + "/result", result(n, n), {{"If-None-Match", "*"}});
    ASSERT_EQ(entered.status, 201) << entered.body;
    // Answered only once the standby has it on its disk.
    EXPECT_GE(seq_of(*follower_), entered.json().at("seq").to_number<std::uint64_t>());
  }
  auto health = primary_->client("").get("/healthz").json();
  EXPECT_EQ(health.at("ok"), true);
  EXPECT_EQ(health.at("standby").at("required"), 1);
  EXPECT_EQ(health.at("standby").at("present"), 1);
  EXPECT_EQ(health.at("standby").at("missing"), false);

  // The standby goes: a write is kept on the primary but not answered as done.
  follower_->stop();
  auto started = std::chrono::steady_clock::now();
  std::map<std::string, std::string> key{{"If-Match", "\"1\""}, {"Idempotency-Key", "k-standby-1"}};
  json::object correction = result(1, 2);
  correction["reason"] = "recount";
  auto held = eva.put(table + "1/result", correction, key);
  EXPECT_EQ(held.status, 503) << held.body;
  EXPECT_EQ(held.header("Retry-After"), "5");
  EXPECT_NE(held.body.find("Idempotency-Key"), std::string::npos) << held.body;
  EXPECT_GE(std::chrono::steady_clock::now() - started, 2s);  // replicas_ack_timeout
  EXPECT_EQ(table_version(*primary_, 1), 2u);                 // in the log
  std::this_thread::sleep_for(3500ms);  // the standby is gone after 5 s without a request
  health = primary_->client("").get("/healthz").json();
  EXPECT_EQ(health.at("ok"), false);
  EXPECT_EQ(health.at("standby").at("missing"), true);
  EXPECT_EQ(health.at("standby").at("when_missing"), "wait");
  EXPECT_EQ(metric(*primary_, "tallyd_standbys_present"), 0);
  EXPECT_EQ(metric(*primary_, "tallyd_writes_standby_timeout_total"), 1);
  auto status = organizer().get("/v1/replication").json();
  EXPECT_EQ(status.at("standby").at("missing"), true);
  // A new token is shown once: its answer never waits for a standby (nor is lost to a 503).
  started = std::chrono::steady_clock::now();
  auto petr = organizer().post("/v1/judges", json::object{{"name", "Petr"}});
  EXPECT_EQ(petr.status, 201) << petr.body;
  EXPECT_TRUE(petr.json().at("token").is_string());
  EXPECT_LT(std::chrono::steady_clock::now() - started, 1s);

  // It comes back: the same request is answered as the original, applied once.
  follower_->start();
  auto retried = eva.put(table + "1/result", correction, key);
  EXPECT_EQ(retried.status, 200) << retried.body;
  EXPECT_EQ(retried.header("ETag"), "\"2\"");
  EXPECT_GE(seq_of(*follower_), retried.json().at("seq").to_number<std::uint64_t>());
  EXPECT_EQ(table_version(*primary_, 1), 2u);
  ASSERT_TRUE(caught_up());
  EXPECT_EQ(primary_->client("").get("/healthz").json().at("ok"), true);
  expect_same_state();
}

TEST_F(Replication, WithReplicasAckMissingAloneAGoneStandbyDoesNotStopTheJudges) {
  std::string judge = catan();
  restart_primary({"--replicas-ack", "1", "--replicas-ack-missing", "alone"});
  HttpClient eva = primary_->client(judge);
  auto started = std::chrono::steady_clock::now();
  auto alone = eva.put("/v1/tournaments/cup/rounds/1/tables/1/result", result(1, 1),
                       {{"If-None-Match", "*"}});
  EXPECT_EQ(alone.status, 201) << alone.body;
  EXPECT_LT(std::chrono::steady_clock::now() - started, 1s);  // no wait for a standby not there
  auto health = primary_->client("").get("/healthz").json();
  EXPECT_EQ(health.at("ok"), true);
  EXPECT_EQ(health.at("standby").at("missing"), true);
  EXPECT_EQ(health.at("standby").at("when_missing"), "alone");
  EXPECT_EQ(metric(*primary_, "tallyd_writes_answered_alone_total"), 1);

  // A mirror's copy does not count: only a standby's does.
  auto mirror = organizer().post("/v1/replicas", json::object{{"name", "mirror"}});
  ASSERT_EQ(mirror.status, 201);
  EXPECT_EQ(mirror.json().at("standby"), false);
  std::ofstream(dir_.sub("mirror.token")) << str(mirror.json().at("token")) << "\n";
  TallydProcess mirror_server(
      dir_.sub("mirror"),
      {"--follow", url(*primary_), "--follow-token-file", dir_.sub("mirror.token")});
  mirror_server.start();
  mirror_server.log_once_it_has("\"state\":\"following\"");
  const double alone_before = metric(*primary_, "tallyd_writes_answered_alone_total");
  auto mirrored = eva.put("/v1/tournaments/cup/rounds/1/tables/3/result", result(3, 1),
                          {{"If-None-Match", "*"}});
  EXPECT_EQ(mirrored.status, 201) << mirrored.body;
  EXPECT_EQ(metric(*primary_, "tallyd_writes_answered_alone_total"), alone_before + 1);
  EXPECT_EQ(primary_->client("").get("/healthz").json().at("standby").at("missing"), true);

  start_follower(url(*primary_));
  ASSERT_TRUE(caught_up());
  auto together = eva.put("/v1/tournaments/cup/rounds/1/tables/2/result", result(2, 1),
                          {{"If-None-Match", "*"}});
  ASSERT_EQ(together.status, 201) << together.body;
  EXPECT_GE(seq_of(*follower_), together.json().at("seq").to_number<std::uint64_t>());
  EXPECT_EQ(metric(*primary_, "tallyd_writes_answered_alone_total"), alone_before + 1);
  EXPECT_EQ(primary_->client("").get("/healthz").json().at("standby").at("missing"), false);
}

TEST_F(Replication, KilledUnderLoadThePromotedStandbyHasEveryAnsweredWriteAndTheOldOneIsFenced) {
  std::string judge = catan();
  restart_primary({"--replicas-ack", "1"});
  start_follower(url(*primary_));
  ASSERT_TRUE(caught_up());
  const std::string primary_url = url(*primary_);
  // A mirror's token, made before the failover: both logs know it.
  auto mirror = organizer().post("/v1/replicas", json::object{{"name", "mirror"}});
  ASSERT_EQ(mirror.status, 201);
  const std::string mirror_token = str(mirror.json().at("token"));
  // Table 4's QR code, printed on the primary.
  ASSERT_EQ(organizer()
                .request(boost::beast::http::verb::patch, "/v1/tournaments/cup",
                         json::serialize(json::object{{"self_reporting", true}}))
                .status,
            200);
  const std::string table_4 = "/v1/tournaments/cup/rounds/1/tables/4";
  const std::string qr_token = str(organizer().get(table_4 + "/key").json().at("token"));

  // Two judges' worth of writes, each answered write remembered by its seq and its reason.
  std::mutex mutex;
  std::map<std::uint64_t, std::string> answered;
  auto judge_writes = [&](int first_table) {
    HttpClient eva = primary_->client(judge);
    std::string etags[2];
    for (int i = 0; i < 5000; ++i) {
      int slot = i % 2, n = first_table + slot;
      json::object body = result(n, i);
      std::string reason = "entry " + std::to_string(first_table) + "-" + std::to_string(i);
      body["reason"] = reason;
      std::map<std::string, std::string> precondition{{"If-None-Match", "*"}};
      if (!etags[slot].empty()) precondition = {{"If-Match", etags[slot]}};
      HttpReply r;
      try {
        r = eva.put("/v1/tournaments/cup/rounds/1/tables/" + std::to_string(n) + "/result", body,
                    precondition);
      } catch (const std::exception&) {
        return;  // the primary is gone
      }
      if (r.status != 200 && r.status != 201) continue;
      etags[slot] = r.header("ETag");
      std::lock_guard lock(mutex);
      answered[r.json().at("seq").to_number<std::uint64_t>()] = reason;
    }
  };
  std::thread first(judge_writes, 1), second(judge_writes, 3);
  std::this_thread::sleep_for(1500ms);
  primary_->kill();
  first.join();
  second.join();
  ASSERT_GE(answered.size(), 20u) << "too few writes were answered before the kill";

  // The standby, stopped, will not start as a primary until it is promoted.
  follower_->stop();
  TallydRun unpromoted = run_tallyd("--data " + follower_->data() + " --listen 127.0.0.1:0");
  EXPECT_EQ(unpromoted.status, 2) << unpromoted.output;
  EXPECT_NE(unpromoted.output.find("tallyd promote"), std::string::npos) << unpromoted.output;
  TallydRun promoted = run_tallyd("promote --data " + follower_->data());
  ASSERT_EQ(promoted.status, 0) << promoted.output;
  EXPECT_NE(promoted.output.find("epoch 1"), std::string::npos) << promoted.output;
  EXPECT_NE(run_tallyd("promote --data " + follower_->data()).status, 0);  // once is enough

  TallydProcess standby(follower_->data());
  standby.start();
  HttpClient org = standby.client(organizer_token_);
  auto verified = org.get("/v1/verify").json();
  EXPECT_EQ(verified.at("ok"), true);
  // Every write a judge was told is done is there, as it was answered.
  auto events = org.get("/v1/tournaments/cup/events?limit=10000").json().at("events").as_array();
  std::map<std::uint64_t, std::string> held;
  for (const auto& e : events) {
    if (e.as_object().contains("reason") && e.at("reason").is_string()) {
      held[e.at("seq").to_number<std::uint64_t>()] = str(e.at("reason"));
    }
  }
  for (const auto& [seq, reason] : answered) {
    auto it = held.find(seq);
    ASSERT_NE(it, held.end()) << "answered write " << seq << " (" << reason << ") is missing";
    EXPECT_EQ(it->second, reason) << "at seq " << seq;
  }
  // The judges' tokens work on the new primary.
  json::object body = result(1, 7);
  body["reason"] = "after the failover";
  auto after = standby.client(judge).put(
      "/v1/tournaments/cup/rounds/1/tables/1/result", body,
      {{"If-Match", "\"" + std::to_string(table_version(standby, 1)) + "\""}});
  EXPECT_EQ(after.status, 200) << after.body;
  EXPECT_EQ(org.get("/v1/replication").json().at("epoch"), 1);
  // The QR codes printed on the old primary work on the new one.
  EXPECT_EQ(str(org.get(table_4 + "/key").json().at("token")), qr_token);
  auto proposed = standby.client(qr_token).post(table_4 + "/proposals", result(4, 1));
  EXPECT_EQ(proposed.status, 201) << proposed.body;

  auto corrected = [&](int table, int i) {
    json::object body = result(table, i);
    body["reason"] = "after the old primary came back";
    return body;
  };
  // A follower with `token` copies the new primary, then is pointed at the old one: what it
  // logged once it refused the old one.
  auto refused_after_following = [&](const std::string& dir, const std::string& token) {
    std::ofstream(token_file(), std::ios::trunc) << token << "\n";
    follower_ = std::make_unique<TallydProcess>(
        dir,
        std::vector<std::string>{"--follow", url(standby), "--follow-token-file", token_file()});
    follower_->start();
    follower_->log_once_it_has("\"state\":\"following\"");
    follower_->stop();
    follower_ = std::make_unique<TallydProcess>(
        dir,
        std::vector<std::string>{"--follow", primary_url, "--follow-token-file", token_file()});
    follower_->start();
    return follower_->log_once_it_has("\"state\":\"refused\"");
  };
  // The old primary comes back. A mirror that has followed the new primary, pointed at it,
  // refuses it, but cannot fence it (F2): the primary keeps taking writes.
  restart_primary({});
  EXPECT_EQ(url(*primary_), primary_url);
  std::string mirror_refused = refused_after_following(dir_.sub("mirror"), mirror_token);
  EXPECT_NE(mirror_refused.find("cannot fence"), std::string::npos) << mirror_refused;
  primary_->log_once_it_has("cannot fence this server");
  follower_->stop();
  EXPECT_EQ(primary_->client(judge)
                .put("/v1/tournaments/cup/rounds/1/tables/2/result", corrected(2, 5),
                     {{"If-Match", "\"" + std::to_string(table_version(*primary_, 2)) + "\""}})
                .status,
            200);
  // A standby's token naming a newer epoch without the promotion's proof fences nothing either.
  auto bare = primary_->client(replica_token_).get("/v1/replication/log?from=1&limit=1&epoch=7");
  EXPECT_EQ(bare.status, 409) << bare.body;
  EXPECT_NE(bare.body.find("Tally-Promotion"), std::string::npos) << bare.body;
  EXPECT_EQ(primary_->client("").get("/healthz").json().at("ok"), true);

  // A standby that has followed the new primary shows the promotion, linked after what the old
  // primary holds: from then on the old one takes no write, across restarts.
  std::string refused = refused_after_following(dir_.sub("second-standby"), replica_token_);
  EXPECT_NE(refused.find("former primary"), std::string::npos) << refused;
  primary_->log_once_it_has("takes no write from now on");
  follower_->stop();
  auto write = primary_->client(judge).put(
      "/v1/tournaments/cup/rounds/1/tables/2/result", corrected(2, 6),
      {{"If-Match", "\"" + std::to_string(table_version(*primary_, 2)) + "\""}});
  EXPECT_EQ(write.status, 503) << write.body;
  EXPECT_NE(write.body.find("former primary"), std::string::npos) << write.body;
  auto fenced = primary_->client("").get("/healthz").json();
  EXPECT_EQ(fenced.at("ok"), false);
  EXPECT_EQ(fenced.at("fenced").at("epoch"), 1);
  restart_primary({});
  EXPECT_EQ(primary_->client(judge)
                .put("/v1/tournaments/cup/rounds/1/tables/2/result", corrected(2, 6),
                     {{"If-Match", "\"" + std::to_string(table_version(*primary_, 2)) + "\""}})
                .status,
            503);
  EXPECT_EQ(metric(*primary_, "tallyd_fenced"), 1);
  // The organizer sees the fence and lifts it, with a reason; writes are taken again.
  EXPECT_EQ(organizer().get("/v1/replication").json().at("fenced").at("epoch"), 1);
  auto no_reason =
      organizer().request(boost::beast::http::verb::delete_, "/v1/replication/fence", "{}");
  EXPECT_EQ(no_reason.status, 422) << no_reason.body;
  auto lifted = organizer().request(boost::beast::http::verb::delete_, "/v1/replication/fence",
                                    R"({"reason":"failover drill, the standby is retired"})");
  EXPECT_EQ(lifted.status, 200) << lifted.body;
  EXPECT_EQ(lifted.json().at("lifted").at("epoch"), 1);
  EXPECT_EQ(primary_->client(judge)
                .put("/v1/tournaments/cup/rounds/1/tables/2/result", corrected(2, 6),
                     {{"If-Match", "\"" + std::to_string(table_version(*primary_, 2)) + "\""}})
                .status,
            200);
  EXPECT_EQ(organizer().get("/v1/replication").json().at("fenced"), nullptr);
  EXPECT_EQ(organizer()
                .request(boost::beast::http::verb::delete_, "/v1/replication/fence",
                         R"({"reason":"again"})")
                .status,
            409);
  EXPECT_EQ(metric(*primary_, "tallyd_fenced"), 0);
}

// A "primary" that accepts, reads the request and never answers (issue 39, F7): every connection
// is held open until the test ends. `asked_for_log` turns true once a request for the log came.
class SilentPrimary {
 public:
  SilentPrimary() : acceptor_(io_, {boost::asio::ip::make_address("127.0.0.1"), 0}) {
    accept();
    thread_ = std::thread([this] { io_.run(); });
  }
  ~SilentPrimary() {
    io_.stop();
    thread_.join();
  }
  std::string url() const {
    return "http://127.0.0.1:" + std::to_string(acceptor_.local_endpoint().port());
  }
  bool asked_for_log() const { return asked_for_log_; }

 private:
  struct Held {
    explicit Held(boost::asio::io_context& io) : socket(io) {}
    boost::asio::ip::tcp::socket socket;
    std::string request;
    std::array<char, 4096> chunk{};
  };

  void accept() {
    auto held = std::make_shared<Held>(io_);
    acceptor_.async_accept(held->socket, [this, held](boost::system::error_code ec) {
      if (ec) return;
      read(held);
      accept();
    });
  }
  // Reads whatever comes and keeps `held` alive: the connection is never answered nor closed.
  void read(const std::shared_ptr<Held>& held) {
    held->socket.async_read_some(
        boost::asio::buffer(held->chunk),
        [this, held](boost::system::error_code ec, std::size_t n) {
          if (ec) return;
          held->request.append(held->chunk.data(), n);
          if (held->request.find("GET /v1/replication/log") != std::string::npos) {
            asked_for_log_ = true;
          }
          read(held);
        });
  }

  boost::asio::io_context io_;
  boost::asio::ip::tcp::acceptor acceptor_;
  std::atomic<bool> asked_for_log_{false};
  std::thread thread_;
};

// F7: the follower's long poll is in flight to a primary that will never answer; SIGTERM must
// still stop it promptly (docs/reliability.md: within the 10 s graceful stop; it took 28.7 s when
// stopping waited for the request's own timeout).
TEST_F(Replication, AFollowerStopsPromptlyWhileItsPrimaryHoldsTheRequestUnanswered) {
  SilentPrimary silent;
  start_follower(silent.url());
  auto deadline = std::chrono::steady_clock::now() + 20s;
  while (!silent.asked_for_log() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(20ms);
  }
  ASSERT_TRUE(silent.asked_for_log()) << "the follower never asked the silent primary for the log";

  auto began = std::chrono::steady_clock::now();
  int wait_status = follower_->stop();
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  EXPECT_EQ(wait_status, 0);  // exited, with 0
  EXPECT_LT(took, 5.0) << "stopping waited for the unanswered request";
}

}  // namespace
}  // namespace tally::testing
