// Keep-apart, fixed tables and penalties over HTTP (issue 42, S-9 … S-11): the routes, their
// statuses and who may use them. The rules themselves are the deciders' and the projections'
// tests (tests/deciders/constraints-test.cpp, tests/projections/seating_constraints-test.cpp).
#include "tests/daemon/api_fixture.hpp"

namespace tally::testing {
namespace {

namespace json = boost::json;
using http::verb;

class Constraints : public ApiFixture {
 protected:
  void SetUp() override {
    ApiFixture::SetUp();
    create_tournament("cup", "catan",
                      {{"p1", "Jana Nováková"},
                       {"p2", "Petr Novák"},
                       {"p3", "Eva Dvořáková"},
                       {"p4", "Karel Svoboda"},
                       {"p5", "Lenka Malá"},
                       {"p6", "Tomáš Černý"},
                       {"p7", "Anna Veselá"},
                       {"p8", "Jan Horák"}},
                      json::object{{"locale", "en"}});
    judge_ = new_judge("Eva");
  }
  HttpReply patch(HttpClient& c, const std::string& player, const json::object& body) {
    return c.request(verb::patch, "/v1/tournaments/cup/players/" + player, json::serialize(body));
  }
  std::string judge_;
};

TEST_F(Constraints, KeepApartIsTheOrganizersAndAnswersItsIdAndSeq) {
  auto judge = client(judge_);
  const json::object body{{"players", json::array{"p1", "p2"}}, {"reason", "family"}};
  EXPECT_EQ(judge.post("/v1/tournaments/cup/keep-apart", body).status, 403);
  auto created = org().post("/v1/tournaments/cup/keep-apart", body);
  ASSERT_EQ(created.status, 201) << created.body;
  EXPECT_EQ(created.json().at("id"), created.json().at("seq"));

  auto one = org().post("/v1/tournaments/cup/keep-apart",
                        json::object{{"players", json::array{"p1"}}, {"reason", "family"}});
  ASSERT_EQ(one.status, 422) << one.body;
  EXPECT_EQ(one.json().at("errors").at(0).at("rule"), "S-9");
  EXPECT_EQ(one.json().at("errors").at(0).at("field"), "players");
  EXPECT_EQ(org().post("/v1/tournaments/gone/keep-apart", body).status, 404);

  // Voided by the organizer only; then seated together freely.
  const auto seq = std::to_string(created.json().at("id").as_int64());
  const json::object why{{"reason", "entered by mistake"}};
  EXPECT_EQ(judge.post("/v1/tournaments/cup/events/" + seq + "/void", why).status, 403);
  auto voided = org().post("/v1/tournaments/cup/events/" + seq + "/void", why);
  EXPECT_LT(voided.status, 300) << voided.body;
}

TEST_F(Constraints, ASeatingThatCannotKeepAGroupApartIsRefusedNamingThePairUnlessForced) {
  ASSERT_EQ(org()
                .post("/v1/tournaments/cup/keep-apart",
                      json::object{{"players", json::array{"p1", "p2", "p3"}}, {"reason", "club"}})
                .status,
            201);
  auto refused = org().post("/v1/tournaments/cup/rounds", json::object{{"method", "random"}});
  ASSERT_EQ(refused.status, 422) << refused.body;
  const json::value answer = refused.json();
  const auto& error = answer.at("errors").at(0).as_object();
  EXPECT_EQ(error.at("rule"), "S-9");
  EXPECT_EQ(error.at("field"), "tables");
  EXPECT_EQ(error.at("players").as_array().size(), 2u);
  const std::string message(error.at("message").as_string());
  EXPECT_NE(message.find(" and "), std::string::npos) << message;
  EXPECT_NE(message.find("kept apart"), std::string::npos) << message;

  auto forced = org().post("/v1/tournaments/cup/rounds",
                           json::object{{"method", "random"}, {"force", true}, {"reason", "club"}});
  ASSERT_EQ(forced.status, 201) << forced.body;
  EXPECT_EQ(forced.json().at("notes").as_array().size(), 1u);
}

TEST_F(Constraints, AFixedTableIsSetAndTakenBackByPatch) {
  auto fixed = patch(org(), "p3", json::object{{"fixed_table", 2}});
  ASSERT_EQ(fixed.status, 200) << fixed.body;
  EXPECT_EQ(fixed.json().at("fixed_table"), 2);
  EXPECT_EQ(fixed.json().at("name"), "Eva Dvořáková");
  auto seated = org().post("/v1/tournaments/cup/rounds", json::object{{"method", "random"}});
  ASSERT_EQ(seated.status, 201) << seated.body;
  const json::value round = seated.json();
  for (const auto& table : round.at("tables").as_array()) {
    const auto& players = table.at("players").as_array();
    if (std::find(players.begin(), players.end(), json::value("p3")) != players.end()) {
      EXPECT_EQ(table.at("table"), 2);
    }
  }
  auto none = patch(org(), "p3", json::object{{"fixed_table", nullptr}});
  ASSERT_EQ(none.status, 200) << none.body;
  EXPECT_TRUE(none.json().at("fixed_table").is_null());

  auto zero = patch(org(), "p3", json::object{{"fixed_table", 0}});
  ASSERT_EQ(zero.status, 422) << zero.body;
  EXPECT_EQ(zero.json().at("errors").at(0).at("rule"), "S-10");
  EXPECT_EQ(patch(org(), "p3", json::object{{"fixed_table", "two"}}).status, 422);
  auto judge = client(judge_);
  EXPECT_EQ(patch(judge, "p3", json::object{{"fixed_table", 1}}).status, 403);
  EXPECT_EQ(patch(org(), "zz", json::object{{"fixed_table", 1}}).status, 404);
}

TEST_F(Constraints, APenaltyIsGivenByAJudgeOrTheOrganizerAndShownInTheStandings) {
  const std::string url = "/v1/tournaments/cup/players/p4/penalties";
  auto judge = client(judge_);
  auto given = judge.post(url, json::object{{"points", "-1/2"}, {"reason", "late result slip"}});
  ASSERT_EQ(given.status, 201) << given.body;
  EXPECT_EQ(given.json().at("id"), given.json().at("seq"));
  EXPECT_EQ(org().post(url, json::object{{"points", 1}, {"reason", "fair play"}}).status, 201);

  auto standings = org().get("/v1/tournaments/cup/standings").json();
  for (const auto& row : standings.at("rows").as_array()) {
    if (row.at("player") == "p4") {
      EXPECT_EQ(row.at("penalties").at("exact"), "1/2");
    }
  }

  auto wrong = org().post(url, json::object{{"points", 1.5}, {"round", 3}, {"reason", "x"}});
  ASSERT_EQ(wrong.status, 422) << wrong.body;
  EXPECT_EQ(wrong.json().at("errors").at(0).at("field"), "points");
  auto no_round = org().post(url, json::object{{"points", -1}, {"round", 3}, {"reason", "x"}});
  ASSERT_EQ(no_round.status, 422) << no_round.body;
  EXPECT_EQ(no_round.json().at("errors").at(0).at("rule"), "S-11");
  EXPECT_EQ(no_round.json().at("errors").at(0).at("field"), "round");
  EXPECT_EQ(org().post(url, json::object{{"points", -1}}).status, 422);  // no reason
  EXPECT_EQ(org()
                .post("/v1/tournaments/cup/players/zz/penalties",
                      json::object{{"points", -1}, {"reason", "x"}})
                .status,
            404);
  EXPECT_EQ(client("").post(url, json::object{{"points", -1}, {"reason", "x"}}).status, 401);

  // A judge voids a penalty.
  const auto seq = std::to_string(given.json().at("id").as_int64());
  auto voided = judge.post("/v1/tournaments/cup/events/" + seq + "/void",
                           json::object{{"reason", "given by mistake"}});
  EXPECT_LT(voided.status, 300) << voided.body;
}

}  // namespace
}  // namespace tally::testing
