// Self-reporting (docs/api.md "Self-reporting") against the real tallyd over HTTP: a table's token
// proposes and checks at its own table only; the others at the table flag; a newer proposal
// supersedes; a judge approves under PUT …/result's preconditions or rejects with a reason; the
// whole chain is in the log and survives a restart; tokens are never stored and die with their
// round; the setting turns it all off (409).
#include "tests/support/catan_result.hpp"
#include "tests/support/http_client.hpp"
#include "tests/support/tallyd_process.hpp"
#include "tests/support/temp_dir.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace tally::testing {
namespace {

namespace json = boost::json;

std::string str(const json::value& v) { return std::string(v.as_string()); }

constexpr const char* kRound = "/v1/tournaments/cup/rounds/1";

class Proposals : public ::testing::Test {
 protected:
  void SetUp() override {
    std::vector<std::string> flags{"--table-rate-burst", "40", "--table-rate-limit", "0.5"};
    for (auto& flag : extra_flags()) flags.push_back(std::move(flag));
    daemon_ = std::make_unique<TallydProcess>(dir_.sub("data"), std::move(flags));
    daemon_->start();
    auto org = daemon_->organizer();
    ASSERT_EQ(
        org.post("/v1/tournaments",
                 json::object{
                     {"id", "cup"}, {"name", "Cup"}, {"game", "catan"}, {"self_reporting", true}})
            .status,
        201);
    for (int i = 1; i <= 12; ++i) {
      ASSERT_EQ(org.post("/v1/tournaments/cup/players",
                         json::object{{"id", "p" + std::to_string(i)},
                                      {"name", "Player " + std::to_string(i)}})
                    .status,
                201);
    }
    ASSERT_EQ(org.post("/v1/tournaments/cup/rounds", json::object{{"method", "random"}}).status,
              201);
    auto judge = org.post("/v1/judges", json::object{{"name", "Eva Judge"}});
    ASSERT_EQ(judge.status, 201);
    judge_token_ = str(judge.json().at("token"));
  }

  virtual std::vector<std::string> extra_flags() { return {}; }

  HttpClient organizer() { return daemon_->organizer(); }
  HttpClient judge() { return daemon_->client(judge_token_); }
  HttpClient table_client(int table) { return daemon_->client(key(table)); }

  std::string key(int table) {
    auto reply = organizer().get(std::string(kRound) + "/tables/" + std::to_string(table) + "/key");
    EXPECT_EQ(reply.status, 200) << reply.body;
    return str(reply.json().at("token"));
  }

  std::vector<std::string> players_at(int table) {
    auto round = organizer().get(kRound).json();
    std::vector<std::string> out;
    for (const auto& p : round.at("tables").at(table - 1).at("players").as_array())
      out.push_back(str(p));
    return out;
  }

  // A Catan result for table 3: each player's (settlements, cities); no Longest Road, no army.
  json::object result(const std::vector<std::pair<int, int>>& counts) {
    auto players = players_at(3);
    json::array rows;
    for (std::size_t i = 0; i < players.size(); ++i) {
      rows.push_back(catan_row(players[i], counts[i].first, counts[i].second));
    }
    return json::object{{"players", std::move(rows)}};
  }

  static std::string table(int n) { return std::string(kRound) + "/tables/" + std::to_string(n); }

  TempDir dir_;
  std::unique_ptr<TallydProcess> daemon_;
  std::string judge_token_;
};

TEST_F(Proposals, TheTableProposesAnotherPhoneFlagsAJudgeApprovesTheNewerOne) {
  auto phone_a = table_client(3), phone_b = table_client(3);
  auto first = phone_a.post(table(3) + "/proposals", result({{2, 4}, {3, 1}, {2, 1}, {2, 0}}));
  ASSERT_EQ(first.status, 201) << first.body;
  std::uint64_t first_id = first.json().at("proposal").at("id").to_number<std::uint64_t>();
  EXPECT_EQ(str(first.json().at("proposal").at("status")), "pending");
  EXPECT_TRUE(first.json().at("proposal").at("from_table").as_bool());
  // Its result as approving it would make it: 10 VP for the first player, first place.
  EXPECT_EQ(first.json().at("proposal").at("result").at("players").at(0).at("score").as_int64(),
            10);

  // Nothing changed for the board: no result, the table's version untouched.
  auto sheet = organizer().get(kRound).json();
  EXPECT_TRUE(sheet.at("tables").at(2).at("result").is_null());
  EXPECT_EQ(sheet.at("tables").at(2).at("version").as_int64(), 0);
  auto standings_rows = [&] {
    return organizer().get("/v1/tournaments/cup/standings").json().at("rows");
  };
  auto standings_before = standings_rows();

  auto flag = phone_b.post(table(3) + "/proposals/" + std::to_string(first_id) + "/flag",
                           json::object{{"note", "Player 12 had two cities"}});
  ASSERT_EQ(flag.status, 201) << flag.body;
  auto flags = flag.json().at("proposal").at("flags").as_array();
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_EQ(str(flags[0].at("note")), "Player 12 had two cities");

  auto second = phone_a.post(table(3) + "/proposals", result({{2, 4}, {3, 1}, {2, 2}, {2, 0}}));
  ASSERT_EQ(second.status, 201) << second.body;
  std::uint64_t second_id = second.json().at("proposal").at("id").to_number<std::uint64_t>();

  // The judge sees one proposal waiting at the table: the newer one.
  auto waiting = judge().get(std::string(kRound) + "/proposals");
  ASSERT_EQ(waiting.status, 200);
  auto pending = waiting.json().at("proposals").as_array();
  ASSERT_EQ(pending.size(), 1u);
  EXPECT_EQ(pending[0].at("id").to_number<std::uint64_t>(), second_id);
  EXPECT_EQ(standings_rows(), standings_before);

  // The superseded one cannot be approved; the newer one can, as a first entry.
  auto stale = judge().post(table(3) + "/proposals/" + std::to_string(first_id) + "/approve",
                            json::object{}, {{"If-None-Match", "*"}});
  EXPECT_EQ(stale.status, 409);
  EXPECT_EQ(str(stale.json().at("errors").at(0).at("rule")), "proposal.not_pending");
  auto approved = judge().post(table(3) + "/proposals/" + std::to_string(second_id) + "/approve",
                               json::object{}, {{"If-None-Match", "*"}, {"Idempotency-Key", "a1"}});
  ASSERT_EQ(approved.status, 201) << approved.body;
  EXPECT_EQ(str(approved.json().at("status")), "reported");
  EXPECT_EQ(approved.json().at("proposal").to_number<std::uint64_t>(), second_id);
  EXPECT_EQ(approved.header("ETag"), "\"2\"");  // the result and the approval
  EXPECT_EQ(str(approved.json().at("entered_by").at("name")), "Eva Judge");
  // A retry is answered, not applied again.
  auto again = judge().post(table(3) + "/proposals/" + std::to_string(second_id) + "/approve",
                            json::object{}, {{"If-None-Match", "*"}, {"Idempotency-Key", "a1"}});
  EXPECT_EQ(again.status, 201);
  EXPECT_EQ(again.json().at("seq"), approved.json().at("seq"));
  EXPECT_NE(standings_rows(), standings_before);

  // The whole chain, in order, with who did what.
  auto audit = organizer().get("/v1/tournaments/cup/audit?table=3").json().at("events").as_array();
  std::vector<std::string> chain;
  for (const auto& e : audit) chain.push_back(str(e.at("type")) + " by " + str(e.at("by")));
  EXPECT_EQ(chain,
            (std::vector<std::string>{"round_seated by organizer", "result_proposed by table",
                                      "proposal_flagged by table", "result_proposed by table",
                                      "catan_result by j1", "proposal_approved by j1"}));
  EXPECT_EQ(str(audit[2].at("reason")), "Player 12 had two cities");

  // All of it after a restart: statuses, the flag, and the table token still good.
  daemon_->stop();
  daemon_->start();
  auto list = table_client(3).get(table(3) + "/proposals");
  ASSERT_EQ(list.status, 200) << list.body;
  auto proposals = list.json().at("proposals").as_array();
  ASSERT_EQ(proposals.size(), 2u);
  EXPECT_EQ(str(proposals[0].at("status")), "approved");
  // The table reads the decision as the public would: not which judge took it (F9).
  EXPECT_TRUE(proposals[0].at("decision").at("by").is_null());
  auto judges_list = judge().get(table(3) + "/proposals").json().at("proposals").as_array();
  EXPECT_EQ(str(judges_list.at(0).at("decision").at("by")), "Eva Judge");
  EXPECT_EQ(str(proposals[1].at("status")), "superseded");
  EXPECT_EQ(proposals[1].at("superseded_by").to_number<std::uint64_t>(), second_id);
  EXPECT_EQ(proposals[1].at("flags").as_array().size(), 1u);
}

TEST_F(Proposals, AProposalOverAnEnteredResultShowsItsDifferencesAndNeedsAReasonToApprove) {
  auto entered = judge().put(table(3) + "/result", result({{2, 4}, {3, 1}, {2, 1}, {2, 0}}),
                             {{"If-None-Match", "*"}});
  ASSERT_EQ(entered.status, 201) << entered.body;
  std::string etag = entered.header("ETag");

  auto proposed =
      table_client(3).post(table(3) + "/proposals", result({{2, 4}, {3, 1}, {2, 2}, {2, 0}}));
  ASSERT_EQ(proposed.status, 201) << proposed.body;
  auto proposal = proposed.json().at("proposal");
  EXPECT_TRUE(proposal.at("replaces_result").as_bool());
  auto differences = proposal.at("differences").as_array();
  ASSERT_EQ(differences.size(), 1u);
  EXPECT_EQ(str(differences[0].at("field")), "cities");
  EXPECT_EQ(str(differences[0].at("player")), players_at(3)[2]);
  EXPECT_EQ(differences[0].at("entered").as_int64(), 1);
  EXPECT_EQ(differences[0].at("proposed").as_int64(), 2);
  // A proposal leaves the table's version alone: the judge's If-Match still holds.
  EXPECT_EQ(organizer().get(kRound).json().at("tables").at(2).at("version").as_int64(), 1);

  std::string approve = table(3) + "/proposals/" +
                        std::to_string(proposal.at("id").to_number<std::uint64_t>()) + "/approve";
  auto first_entry = judge().post(approve, json::object{}, {{"If-None-Match", "*"}});
  EXPECT_EQ(first_entry.status, 412);
  auto no_reason = judge().post(approve, json::object{}, {{"If-Match", etag}});
  ASSERT_EQ(no_reason.status, 422);
  EXPECT_EQ(str(no_reason.json().at("errors").at(0).at("field")), "reason");
  auto other_member =
      judge().post(approve, json::object{{"players", json::array{}}}, {{"If-Match", etag}});
  EXPECT_EQ(other_member.status, 422);
  auto corrected = judge().post(approve, json::object{{"reason", "recounted with the table"}},
                                {{"If-Match", etag}});
  ASSERT_EQ(corrected.status, 200) << corrected.body;
  EXPECT_TRUE(corrected.json().at("corrected").as_bool());
  EXPECT_EQ(str(corrected.json().at("correction_reason")), "recounted with the table");
}

TEST_F(Proposals, ARejectionNeedsAReasonAndAProposalThatBreaksTheRulesIsRefusedAtItsField) {
  auto phone = table_client(3);
  // Two players at 10 VP or more and nobody claimed the win: catan.md C-11, at `claimed_win`.
  auto broken = phone.post(table(3) + "/proposals", result({{2, 4}, {3, 4}, {2, 1}, {2, 0}}));
  ASSERT_EQ(broken.status, 422) << broken.body;
  EXPECT_EQ(str(broken.json().at("errors").at(0).at("rule")), "C-11");
  EXPECT_EQ(str(broken.json().at("errors").at(0).at("field")), "claimed_win");
  // The same answer as the result itself would get.
  auto as_result = judge().put(table(3) + "/result", result({{2, 4}, {3, 4}, {2, 1}, {2, 0}}),
                               {{"If-None-Match", "*"}});
  EXPECT_EQ(as_result.status, 422);
  EXPECT_EQ(as_result.json().at("errors"), broken.json().at("errors"));

  auto proposed = phone.post(table(3) + "/proposals", result({{2, 4}, {3, 1}, {2, 1}, {2, 0}}));
  ASSERT_EQ(proposed.status, 201);
  std::string reject =
      table(3) + "/proposals/" +
      std::to_string(proposed.json().at("proposal").at("id").to_number<std::uint64_t>()) +
      "/reject";
  EXPECT_EQ(judge().post(reject, json::object{}).status, 422);
  EXPECT_EQ(phone.post(reject, json::object{{"reason", "mine"}}).status, 403);
  auto rejected = judge().post(reject, json::object{{"reason", "Player 5 had 3 cities"}});
  ASSERT_EQ(rejected.status, 200) << rejected.body;
  EXPECT_EQ(str(rejected.json().at("proposal").at("status")), "rejected");
  EXPECT_EQ(str(rejected.json().at("proposal").at("decision").at("reason")),
            "Player 5 had 3 cities");
  EXPECT_EQ(judge().post(reject, json::object{{"reason", "again"}}).status, 409);
}

TEST_F(Proposals, ATableTokenWritesNothingElseAndDiesWithItsRoundAndItsSeating) {
  auto phone = table_client(3);
  auto body = result({{2, 4}, {3, 1}, {2, 1}, {2, 0}});
  EXPECT_EQ(phone.post(table(4) + "/proposals", body).status, 403);
  EXPECT_EQ(phone.post(table(2) + "/proposals", body).status, 403);
  EXPECT_EQ(phone.put(table(3) + "/result", body, {{"If-None-Match", "*"}}).status, 403);
  EXPECT_EQ(phone.post(table(3) + "/claims", json::object{{"player", "p1"}}).status, 403);
  EXPECT_EQ(phone.post(table(3) + "/claims/check", json::object{{"player", "p1"}}).status, 403);
  EXPECT_EQ(phone.get("/v1/tournaments/cup/audit").status, 403);
  EXPECT_EQ(phone.get(table(3) + "/key").status, 403);
  EXPECT_EQ(phone.get(std::string(kRound) + "/proposals").status, 403);
  EXPECT_EQ(phone.post("/v1/tournaments/cup/players", json::object{{"name", "X"}}).status, 403);
  auto check = phone.post(table(3) + "/result/check", body);
  EXPECT_EQ(check.status, 200) << check.body;
  // Public reads are open to it.
  EXPECT_EQ(phone.get(kRound).status, 200);
  EXPECT_EQ(phone.get("/v1/games").status, 200);
  // A forged MAC is an unknown token.
  std::string forged = key(3);
  forged.back() = forged.back() == 'A' ? 'B' : 'A';
  EXPECT_EQ(daemon_->client(forged).post(table(3) + "/proposals", body).status, 401);

  // Nothing of a token is in the store: not the token, not its hash's hex (there is none).
  std::string token = key(3);
  std::string mac = token.substr(token.rfind('.') + 1);
  for (const auto& file :
       std::filesystem::recursive_directory_iterator(dir_.sub("data") + "/store")) {
    if (!file.is_regular_file()) continue;
    std::ifstream in(file.path(), std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(bytes.find(mac), std::string::npos) << file.path();
  }

  // Closing the round ends its tokens (403, and no key is handed out).
  for (int n = 1; n <= 3; ++n) {
    auto players = players_at(n);
    json::array rows;
    int cities = 4;
    for (const auto& p : players) {
      rows.push_back(catan_row(p, 2, cities));
      cities = 1;
    }
    ASSERT_EQ(
        judge()
            .put(table(n) + "/result", json::object{{"players", rows}}, {{"If-None-Match", "*"}})
            .status,
        201);
  }
  ASSERT_EQ(organizer().post(std::string(kRound) + "/close", json::object{}).status, 201);
  auto closed = phone.post(table(3) + "/proposals", body);
  EXPECT_EQ(closed.status, 403);
  EXPECT_EQ(str(closed.json().at("errors").at(0).at("rule")), "auth.table_round_closed");
  EXPECT_EQ(organizer().get(table(3) + "/key").status, 409);
}

TEST_F(Proposals, ASeatingVoidedAndMadeAgainGivesTheTablesNewTokens) {
  std::string old_token = key(3);
  auto round = organizer().get(kRound).json();
  auto voided =
      organizer().post("/v1/tournaments/cup/events/" +
                           std::to_string(round.at("seq").to_number<std::uint64_t>()) + "/void",
                       json::object{{"reason", "wrong players"}});
  ASSERT_EQ(voided.status, 200) << voided.body;
  ASSERT_EQ(
      organizer().post("/v1/tournaments/cup/rounds", json::object{{"method", "random"}}).status,
      201);
  EXPECT_NE(key(3), old_token);
  EXPECT_EQ(daemon_->client(old_token).get(table(3) + "/proposals").status, 401);
}

TEST_F(Proposals, ATableTokenIsRateLimited) {
  auto phone = table_client(3);
  int limited = 0, answered = 0;
  std::string retry_after;
  for (int i = 0; i < 45; ++i) {
    auto reply = phone.get(table(3) + "/proposals");
    if (reply.status == 429) {
      ++limited;
      retry_after = reply.header("Retry-After");
    } else {
      ++answered;
    }
  }
  // A burst of 40 (this test's config), then one request per 2 s.
  EXPECT_GE(answered, 40);
  EXPECT_LE(answered, 41);
  EXPECT_GE(limited, 4);
  EXPECT_FALSE(retry_after.empty());
  // A judge's token is not held back by the table's bucket.
  EXPECT_EQ(judge().get(table(3) + "/proposals").status, 200);
}

TEST_F(Proposals, WhileSelfReportingIsOffEveryProposalEndpointIs409) {
  auto phone = table_client(3);
  auto org = organizer();
  auto off = org.request(boost::beast::http::verb::patch, "/v1/tournaments/cup",
                         R"({"self_reporting":false})");
  ASSERT_EQ(off.status, 200) << off.body;
  EXPECT_FALSE(off.json().at("self_reporting").as_bool());
  EXPECT_FALSE(org.get("/v1/tournaments/cup").json().at("self_reporting").as_bool());
  auto body = result({{2, 4}, {3, 1}, {2, 1}, {2, 0}});
  auto refused = phone.post(table(3) + "/proposals", body);
  EXPECT_EQ(refused.status, 409);
  EXPECT_EQ(str(refused.json().at("errors").at(0).at("rule")), "self_reporting.off");
  // Off whatever the body: not the 422 a broken result would get.
  EXPECT_EQ(phone.post(table(3) + "/proposals", json::object{{"players", json::array{}}}).status,
            409);
  EXPECT_EQ(phone.get(table(3) + "/proposals").status, 409);
  EXPECT_EQ(org.get(table(3) + "/key").status, 409);
  EXPECT_EQ(org.get(std::string(kRound) + "/keys").status, 409);
  EXPECT_EQ(judge().get(std::string(kRound) + "/proposals").status, 409);
  // Only the organizer turns it on; a judge may not.
  EXPECT_EQ(judge()
                .request(boost::beast::http::verb::patch, "/v1/tournaments/cup",
                         R"({"self_reporting":true})")
                .status,
            403);
  auto on = org.request(boost::beast::http::verb::patch, "/v1/tournaments/cup",
                        R"({"self_reporting":true})");
  ASSERT_EQ(on.status, 200);
  EXPECT_EQ(phone.post(table(3) + "/proposals", body).status, 201);
  EXPECT_EQ(org.request(boost::beast::http::verb::patch, "/v1/tournaments/cup",
                        R"({"self_reporting":"yes"})")
                .status,
            422);
}

// F9: what a table token reads of its proposals is what the public reads — the table's own notes,
// not a judge's name, note or rejection reason; a judge reads all of it.
TEST_F(Proposals, ATableReadsItsProposalsWithoutJudgesNamesOrReasons) {
  auto phone = table_client(3);
  auto proposed =
      phone.post(table(3) + "/proposals",
                 json::object{{"players", result({{2, 4}, {3, 1}, {2, 1}, {2, 0}}).at("players")},
                              {"reason", "we counted twice"}});
  ASSERT_EQ(proposed.status, 201) << proposed.body;
  auto id = std::to_string(proposed.json().at("proposal").at("id").to_number<std::uint64_t>());
  ASSERT_EQ(judge()
                .post(table(3) + "/proposals/" + id + "/flag",
                      json::object{{"note", "internal: judge Petr suspects p5 cheating"}})
                .status,
            201);
  auto rejected =
      judge().post(table(3) + "/proposals/" + id + "/reject",
                   json::object{{"reason", "internal: judge Petr suspects p5 cheating"}});
  ASSERT_EQ(rejected.status, 200) << rejected.body;

  auto as_table = phone.get(table(3) + "/proposals");
  ASSERT_EQ(as_table.status, 200) << as_table.body;
  EXPECT_EQ(as_table.body.find("Petr"), std::string::npos) << as_table.body;
  EXPECT_EQ(as_table.body.find("Eva Judge"), std::string::npos) << as_table.body;
  auto seen = as_table.json().at("proposals").at(0);
  EXPECT_EQ(str(seen.at("status")), "rejected");
  EXPECT_EQ(str(seen.at("note")), "we counted twice");  // the table's own words
  EXPECT_TRUE(seen.at("decision").at("reason").is_null());
  EXPECT_TRUE(seen.at("decision").at("by").is_null());
  EXPECT_FALSE(seen.at("decision").at("from_table").as_bool());
  EXPECT_TRUE(seen.at("flags").at(0).at("note").is_null());
  EXPECT_TRUE(seen.at("flags").at(0).at("by").is_null());

  auto as_judge = judge().get(table(3) + "/proposals").json().at("proposals").at(0);
  EXPECT_EQ(str(as_judge.at("decision").at("reason")), "internal: judge Petr suspects p5 cheating");
  EXPECT_EQ(str(as_judge.at("decision").at("by")), "Eva Judge");
  EXPECT_EQ(str(as_judge.at("flags").at(0).at("by")), "Eva Judge");
}

// F5: with public reads off, a table token is a key to its own tournament while its round is
// open, and to nothing else.
class ProposalsWithPrivateReads : public Proposals {
 protected:
  std::vector<std::string> extra_flags() override { return {"--public-reads", "false"}; }
};

TEST_F(ProposalsWithPrivateReads, ATableTokenReadsOnlyItsTournamentAndNothingOnceItsRoundCloses) {
  auto org = organizer();
  ASSERT_EQ(org.post("/v1/tournaments",
                     json::object{{"id", "secret-b"}, {"name", "Secret B"}, {"game", "catan"}})
                .status,
            201);
  auto phone = table_client(3);
  auto upgrade = [&](const std::string& target) {
    return phone.request(http::verb::get, target, "",
                         {{"Upgrade", "websocket"},
                          {"Connection", "Upgrade"},
                          {"Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="},
                          {"Sec-WebSocket-Version", "13"}});
  };
  auto refused_as_table_token = [&](const HttpReply& reply, const char* rule) {
    EXPECT_EQ(reply.status, 403) << reply.body;
    if (reply.status != 403) return;
    EXPECT_EQ(str(reply.json().at("errors").at(0).at("rule")), rule) << reply.body;
    EXPECT_EQ(str(reply.json().at("errors").at(0).at("field")), "Authorization");
  };
  // Its own tournament, while the round is open: yes, the live feed too.
  EXPECT_EQ(phone.get("/v1/tournaments/cup").status, 200);
  EXPECT_EQ(phone.get(kRound).status, 200);
  EXPECT_EQ(phone.get("/v1/tournaments/cup/standings").status, 200);
  WsClient live("127.0.0.1", daemon_->port(), "/v1/tournaments/cup/live", key(3));
  EXPECT_EQ(live.read()->at("type"), "snapshot");
  // Anything else: no.
  refused_as_table_token(phone.get("/v1/tournaments"), "auth.table_token");
  refused_as_table_token(phone.get("/v1/tournaments/secret-b"), "auth.table_token");
  refused_as_table_token(phone.get("/v1/tournaments/secret-b/standings"), "auth.table_token");
  refused_as_table_token(phone.get("/v1/tournaments/secret-b/events"), "auth.table_token");
  refused_as_table_token(upgrade("/v1/tournaments/secret-b/live"), "auth.table_token");
  // Anonymous readers still get nothing at all.
  EXPECT_EQ(daemon_->client("").get("/v1/tournaments/cup").status, 401);

  // The round closes: nothing private any more, not even its own tournament.
  for (int n = 1; n <= 3; ++n) {
    json::array rows;
    int cities = 4;
    for (const auto& p : players_at(n)) {
      rows.push_back(catan_row(p, 2, cities));
      cities = 1;
    }
    ASSERT_EQ(
        judge()
            .put(table(n) + "/result", json::object{{"players", rows}}, {{"If-None-Match", "*"}})
            .status,
        201);
  }
  ASSERT_EQ(org.post(std::string(kRound) + "/close", json::object{}).status, 201);
  refused_as_table_token(phone.get("/v1/tournaments/cup/standings"), "auth.table_round_closed");
  refused_as_table_token(phone.get(kRound), "auth.table_round_closed");
  refused_as_table_token(phone.get("/v1/tournaments/cup/events"), "auth.table_round_closed");
  refused_as_table_token(upgrade("/v1/tournaments/cup/live"), "auth.table_round_closed");
}

}  // namespace
}  // namespace tally::testing
