// "cup": a testgame tournament for the daemon's tests — 2·tables players p1…, round 1 seated by
// hand (table n: p(2n-1) against p(2n)), and a judge, Eva. Throws when tallyd refuses a step.
#pragma once

#include "tests/support/http_client.hpp"
#include "tests/support/tallyd_process.hpp"

#include <boost/json.hpp>

#include <map>
#include <stdexcept>
#include <string>

namespace tally::testing {

struct Cup {
  int tables = 0;
  std::string judge_token;
  std::string judge_id;
};

inline void expect_status(const HttpReply& r, int status, const std::string& what) {
  if (r.status != status) {
    throw std::runtime_error(what + ": " + std::to_string(r.status) + " " + r.body);
  }
}

inline Cup make_cup(const TallydProcess& daemon, int tables) {
  namespace json = boost::json;
  auto org = daemon.organizer();
  expect_status(org.post("/v1/tournaments",
                         json::object{{"id", "cup"}, {"name", "Cup"}, {"game", "testgame"}}),
                201, "create cup");
  json::array seating;
  for (int i = 1; i <= 2 * tables; ++i) {
    expect_status(
        org.post("/v1/tournaments/cup/players",
                 json::object{{"id", "p" + std::to_string(i)}, {"name", "P" + std::to_string(i)}}),
        201, "add a player");
  }
  for (int t = 1; t <= tables; ++t) {
    seating.push_back(json::array{"p" + std::to_string(2 * t - 1), "p" + std::to_string(2 * t)});
  }
  expect_status(org.post("/v1/tournaments/cup/rounds",
                         json::object{{"method", "manual"}, {"tables", seating}}),
                201, "seat round 1");
  auto judge = org.post("/v1/judges", json::object{{"name", "Eva"}});
  expect_status(judge, 201, "add a judge");
  return Cup{tables, std::string(judge.json().at("token").as_string()),
             std::string(judge.json().at("id").as_string())};
}

// The path of a table of round 1.
inline std::string cup_table(int table) {
  return "/v1/tournaments/cup/rounds/1/tables/" + std::to_string(table) + "/result";
}

// A result for `table`: its first player scores `a`, its second `b`.
inline boost::json::object cup_result(int table, int a, int b, const std::string& reason = "") {
  namespace json = boost::json;
  json::object body{
      {"players",
       json::array{json::object{{"player", "p" + std::to_string(2 * table - 1)}, {"score", a}},
                   json::object{{"player", "p" + std::to_string(2 * table)}, {"score", b}}}}};
  if (!reason.empty()) body["reason"] = reason;
  return body;
}

// The precondition for entering `table` at `version` (0: no result yet).
inline std::map<std::string, std::string> cup_precondition(std::uint64_t version) {
  if (version == 0) return {{"If-None-Match", "*"}};
  return {{"If-Match", "\"" + std::to_string(version) + "\""}};
}

}  // namespace tally::testing
