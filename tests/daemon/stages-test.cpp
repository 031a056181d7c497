// Stages over HTTP (docs/games/stages.md; the rules themselves are decided and tested without a
// process in tests/deciders/stages-test.cpp): the statuses and rule ids of the refusals, the
// preview that writes nothing, the knockout's next round seated before the result that completed
// the round is answered, the standings' `stages` and `final`, and all of it again after a restart.
#include "tests/daemon/api_fixture.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>

namespace tally::testing {
namespace {

namespace json = boost::json;

const std::map<std::string, std::string> kFirstEntry = {{"If-None-Match", "*"}};

std::string str(const json::value& v) { return std::string(v.as_string()); }

json::object result_body(const std::string& a, std::int64_t score_a, const std::string& b,
                         std::int64_t score_b, const std::string& reason = "") {
  json::object body{{"players", json::array{json::object{{"player", a}, {"score", score_a}},
                                            json::object{{"player", b}, {"score", score_b}}}}};
  if (!reason.empty()) body["reason"] = reason;
  return body;
}

std::vector<std::string> players_of(const json::value& table) {
  std::vector<std::string> out;
  for (const auto& p : table.at("players").as_array()) out.push_back(str(p));
  return out;
}

class Stages : public ApiFixture {
 protected:
  const std::string t_ = "/v1/tournaments/cwc";

  void SetUp() override {
    ApiFixture::SetUp();
    std::vector<std::pair<std::string, std::string>> players;
    for (int i = 1; i <= 8; ++i)
      players.emplace_back("p" + std::to_string(i), "Player " + std::to_string(i));
    json::object rules{{"table_size", 2},
                       {"stages", json::array{json::object{{"kind", "rounds"}, {"rounds", 2}},
                                              json::object{{"kind", "cut"}, {"top", 4}},
                                              json::object{{"kind", "knockout"}}}}};
    create_tournament("cwc", "carcassonne", players, {{"rules", rules}});
    judge_ = new_judge("Eva");
  }

  // Seats a round by the game (the API's own), enters results: the lower id wins by 10.
  void play_round(std::uint32_t round) {
    auto seated = org().post(t_ + "/rounds", json::object{});
    ASSERT_EQ(seated.status, 201) << seated.body;
    HttpClient eva = client(judge_);
    const json::value round_answer = seated.json();
    for (const auto& table : round_answer.at("tables").as_array()) {
      auto players = players_of(table);
      if (players.size() < 2) continue;
      std::sort(players.begin(), players.end());
      auto r = eva.put(at(round, table.at("table").as_int64()),
                       result_body(players[0], 90, players[1], 80), kFirstEntry);
      ASSERT_EQ(r.status, 201) << r.body;
    }
  }

  std::string at(std::uint32_t round, std::int64_t table) {
    return t_ + "/rounds/" + std::to_string(round) + "/tables/" + std::to_string(table) + "/result";
  }

  std::string judge_;
};

TEST_F(Stages, S1_ABadListIsRefusedWith422NamingEachField) {
  auto r = org().post(
      "/v1/tournaments",
      json::object{
          {"id", "bad"},
          {"name", "Bad"},
          {"game", "carcassonne"},
          {"rules",
           json::object{{"stages", json::array{json::object{{"kind", "rounds"}, {"rounds", 2}},
                                               json::object{{"kind", "cut"}, {"top", 6}},
                                               json::object{{"kind", "knockout"}}}}}}});
  ASSERT_EQ(r.status, 422) << r.body;
  const json::value body = r.json();
  const auto& errors = body.at("errors").as_array();
  ASSERT_EQ(errors.size(), 1u) << r.body;
  EXPECT_EQ(str(errors[0].at("rule")), "S-1");
  EXPECT_EQ(str(errors[0].at("field")), "stages[2].kind");
  EXPECT_NE(str(errors[0].at("message")).find("6"), std::string::npos) << r.body;
}

TEST_F(Stages, AKnockoutPlayedOverHttpAdvancesByItselfAndEndsInFinalPlaces) {
  play_round(1);
  play_round(2);
  // S-2: the rounds stage's rounds are seated; the next is a stage.
  auto third = org().post(t_ + "/rounds", json::object{});
  ASSERT_EQ(third.status, 409) << third.body;
  EXPECT_EQ(str(third.json().at("errors").at(0).at("rule")), "S-2");

  // The preview writes nothing: the standings' seq stays.
  const auto before = org().get(t_ + "/standings").json().at("seq");
  auto check = org().post(t_ + "/stages/check", json::object{});
  ASSERT_EQ(check.status, 200) << check.body;
  EXPECT_EQ(check.json().at("ok"), json::value(true));
  EXPECT_EQ(str(check.json().at("kind")), "cut");
  ASSERT_EQ(check.json().at("cut").at("in").as_array().size(), 4u);
  EXPECT_TRUE(check.json().at("cut").at("first_out").is_string()) << check.body;
  EXPECT_EQ(org().get(t_ + "/standings").json().at("seq"), before);

  // The cut, as previewed.
  auto cut = org().post(t_ + "/stages", json::object{});
  ASSERT_EQ(cut.status, 201) << cut.body;
  EXPECT_EQ(cut.json().at("players"), check.json().at("players"));
  std::vector<std::string> seeds;
  const json::value cut_answer = cut.json();
  for (const auto& p : cut_answer.at("players").as_array()) seeds.push_back(str(p));

  // A judge may not start a stage.
  HttpClient eva = client(judge_);
  EXPECT_EQ(eva.post(t_ + "/stages", json::object{}).status, 403);

  // The knockout: semi-finals 1–4 and 2–3 in round 3, the better seed first (S-6, S-7).
  auto ko = org().post(t_ + "/stages", json::object{});
  ASSERT_EQ(ko.status, 201) << ko.body;
  EXPECT_EQ(ko.json().at("round"), json::value(3));
  ASSERT_EQ(ko.json().at("tables").as_array().size(), 2u);
  EXPECT_EQ(players_of(ko.json().at("tables").at(0)),
            (std::vector<std::string>{seeds[0], seeds[3]}));
  EXPECT_EQ(players_of(ko.json().at("tables").at(1)),
            (std::vector<std::string>{seeds[1], seeds[2]}));
  auto all_started = org().post(t_ + "/stages", json::object{});
  EXPECT_EQ(all_started.status, 409) << all_started.body;

  // SF1: seed 4 upsets seed 1. SF2 level: seed 2 goes through (S-7).
  ASSERT_EQ(eva.put(at(3, 1), result_body(seeds[0], 70, seeds[3], 75), kFirstEntry).status, 201);
  EXPECT_EQ(org().get(t_ + "/rounds/4").status, 404);  // one semi-final to go
  ASSERT_EQ(eva.put(at(3, 2), result_body(seeds[1], 80, seeds[2], 80), kFirstEntry).status, 201);
  // Answered after the final and the game for 3rd were seated.
  auto round4 = org().get(t_ + "/rounds/4");
  ASSERT_EQ(round4.status, 200) << round4.body;
  EXPECT_EQ(str(round4.json().at("method")), "knockout");
  EXPECT_EQ(players_of(round4.json().at("tables").at(0)),
            (std::vector<std::string>{seeds[1], seeds[3]}));
  EXPECT_EQ(players_of(round4.json().at("tables").at(1)),
            (std::vector<std::string>{seeds[0], seeds[2]}));

  // The final and the game for 3rd.
  ASSERT_EQ(eva.put(at(4, 1), result_body(seeds[1], 60, seeds[3], 90), kFirstEntry).status, 201);
  // S-7: a semi-final whose winner has played the final (which has a result) is not corrected.
  auto late = eva.put(at(3, 1), result_body(seeds[0], 99, seeds[3], 75, "misread"),
                      {{"If-Match", "\"1\""}});
  ASSERT_EQ(late.status, 409) << late.body;
  EXPECT_EQ(str(late.json().at("errors").at(0).at("rule")), "S-7");
  ASSERT_EQ(eva.put(at(4, 2), result_body(seeds[0], 85, seeds[2], 84), kFirstEntry).status, 201);

  auto reply = org().get(t_ + "/standings");
  ASSERT_EQ(reply.status, 200);
  const json::value standings = reply.json();
  const auto& final = standings.at("final").as_array();
  ASSERT_EQ(final.size(), 8u) << reply.body;
  const std::vector<std::string> podium{seeds[3], seeds[1], seeds[0], seeds[2]};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(str(final[i].at("player")), podium[i]) << i;
    EXPECT_EQ(final[i].at("place"), json::value(i + 1));
    EXPECT_EQ(str(final[i].at("stage_kind")), "knockout");
  }
  EXPECT_EQ(str(final[4].at("stage_kind")), "rounds");
  EXPECT_EQ(str(standings.at("stages").at(2).at("state")), "complete");

  // The same after a restart: every stage is folded from the log again.
  daemon_->stop();
  daemon_->start();
  auto again = daemon_->organizer().get(t_ + "/standings");
  ASSERT_EQ(again.status, 200);
  EXPECT_EQ(again.json().at("final"), standings.at("final"));
  EXPECT_EQ(again.json().at("stages"), standings.at("stages"));
}

}  // namespace
}  // namespace tally::testing
