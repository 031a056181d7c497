// The one fixture of the daemon tests that drive a tournament over HTTP: a real tallyd on
// loopback (rate limits out of the way: the tests are the only callers), the organizer's client,
// judges, and a tournament with players. Game-specific helpers live beside each game's tests.
#pragma once

#include "tests/support/http_client.hpp"
#include "tests/support/tallyd_process.hpp"
#include "tests/support/temp_dir.hpp"

#include <gtest/gtest.h>
#include <boost/json.hpp>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace tally::testing {

class ApiFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    daemon_ = std::make_unique<TallydProcess>(
        dir_.sub("data"),
        std::vector<std::string>{"--rate-limit", "100000", "--rate-burst", "100000"});
    daemon_->start();
    org_ = std::make_unique<HttpClient>("127.0.0.1", daemon_->port(), daemon_->organizer_token());
  }

  // The organizer's client (one connection, kept).
  HttpClient& org() { return *org_; }
  // A client with `token` (a judge's, a table's).
  HttpClient client(const std::string& token) { return daemon_->client(token); }

  // A new judge's token.
  std::string new_judge(const std::string& name) {
    auto reply = org().post("/v1/judges", boost::json::object{{"name", name}});
    EXPECT_EQ(reply.status, 201) << reply.body;
    return reply.status == 201 ? std::string(reply.json().at("token").as_string()) : "";
  }

  // Tournament `t` of `game` with these players (id, name); `body` adds members to the
  // creation's body (locale, rules …).
  void create_tournament(const std::string& t, const std::string& game,
                         const std::vector<std::pair<std::string, std::string>>& players,
                         boost::json::object body = {}) {
    body["id"] = t;
    if (!body.contains("name")) body["name"] = t;
    body["game"] = game;
    auto r = org().post("/v1/tournaments", body);
    ASSERT_EQ(r.status, 201) << r.body;
    for (const auto& [id, name] : players) {
      auto p = org().post("/v1/tournaments/" + t + "/players",
                          boost::json::object{{"id", id}, {"name", name}});
      ASSERT_EQ(p.status, 201) << p.body;
    }
  }

  TempDir dir_;
  std::unique_ptr<TallydProcess> daemon_;
  std::unique_ptr<HttpClient> org_;
};

}  // namespace tally::testing
