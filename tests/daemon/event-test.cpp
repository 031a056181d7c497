// Running an event through the API (docs/api.md "Running the event"), against the real tallyd over
// HTTP and WebSocket: the organizer's token rotated and reset, the round clock across a restart,
// check-in feeding the seating and its preview, closing a round, importing a CSV twice.
#include "encoding/base64.hpp"
#include "tests/support/http_client.hpp"
#include "tests/support/tallyd_process.hpp"
#include "tests/support/temp_dir.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <set>
#include <string>

namespace tally::testing {
namespace {

namespace json = boost::json;

std::string str(const json::value& v) { return std::string(v.as_string()); }

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

class Event : public ::testing::Test {
 protected:
  void SetUp() override {
    daemon_ = std::make_unique<TallydProcess>(dir_.sub("data"));
    daemon_->start();
  }

  HttpClient organizer() { return daemon_->organizer(); }

  // A Catan tournament of `rounds` planned rounds with players p1..pN.
  void catan(int players, int rounds = 3) {
    auto org = organizer();
    ASSERT_EQ(org.post("/v1/tournaments", json::object{{"id", "cup"},
                                                       {"name", "Cup"},
                                                       {"game", "catan"},
                                                       {"rules", {{"rounds", rounds}}}})
                  .status,
              201);
    for (int i = 1; i <= players; ++i) {
      std::string id = "p" + std::to_string(i);
      ASSERT_EQ(org.post("/v1/tournaments/cup/players",
                         json::object{{"id", id}, {"name", "Player " + std::to_string(i)}})
                    .status,
                201);
    }
  }

  HttpReply clock(const json::object& body) {
    return organizer().post("/v1/tournaments/cup/rounds/1/clock", body);
  }

  TempDir dir_;
  std::unique_ptr<TallydProcess> daemon_;
};

TEST_F(Event, RotatingTheOrganizerTokenRevokesTheOldOneAtOnce) {
  std::string old_token = daemon_->organizer_token();
  auto rotated =
      organizer().post("/v1/organizer/token", json::object{}, {{"Idempotency-Key", "rot-1"}});
  ASSERT_EQ(rotated.status, 201) << rotated.body;
  std::string fresh = str(rotated.json().at("token"));
  EXPECT_NE(fresh, old_token);
  EXPECT_EQ(daemon_->client(old_token).get("/v1/judges").status, 401);
  EXPECT_EQ(daemon_->client(fresh).get("/v1/judges").status, 200);
  // The file in the data directory holds the token that works, still 0600.
  EXPECT_EQ(read_file(dir_.sub("data") + "/organizer.token"), fresh);
  struct stat st {};
  ASSERT_EQ(::stat((dir_.sub("data") + "/organizer.token").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  // A retry of the same request is answered, not applied again, and never shows a token twice.
  auto retry = daemon_->client(fresh).post("/v1/organizer/token", json::object{},
                                           {{"Idempotency-Key", "rot-1"}});
  EXPECT_EQ(retry.status, 201);
  EXPECT_TRUE(retry.json().at("token").is_null());
  EXPECT_EQ(daemon_->client(fresh).get("/v1/judges").status, 200);
  // A judge cannot rotate it.
  auto judge = daemon_->client(fresh).post("/v1/judges", json::object{{"name", "Eva"}});
  EXPECT_EQ(daemon_->client(str(judge.json().at("token")))
                .post("/v1/organizer/token", json::object{})
                .status,
            403);
  // The rotation survives a restart: the old token stays refused.
  ASSERT_EQ(daemon_->stop(), 0);
  daemon_->start();
  EXPECT_EQ(daemon_->client(old_token).get("/v1/judges").status, 401);
  EXPECT_EQ(daemon_->client(fresh).get("/v1/judges").status, 200);
}

TEST_F(Event, ResetOrganizerWritesANewTokenAndRevokesEveryEarlierOne) {
  std::string old_token = daemon_->organizer_token();
  std::string data = dir_.sub("data");
  // With the server running the store is locked: refused, nothing changes.
  auto busy = run_tallyd("reset-organizer --data " + data);
  EXPECT_EQ(busy.status, 1) << busy.output;
  EXPECT_NE(busy.output.find("stop tallyd first"), std::string::npos) << busy.output;
  EXPECT_EQ(read_file(data + "/organizer.token"), old_token);

  ASSERT_EQ(daemon_->stop(), 0);
  auto reset = run_tallyd("reset-organizer --data " + data);
  ASSERT_EQ(reset.status, 0) << reset.output;
  EXPECT_NE(reset.output.find(data + "/organizer.token"), std::string::npos) << reset.output;
  std::string fresh = read_file(data + "/organizer.token");
  EXPECT_NE(fresh, old_token);
  EXPECT_EQ(fresh.rfind("tly_", 0), 0u);
  daemon_->start();
  EXPECT_EQ(daemon_->client(old_token).get("/v1/judges").status, 401);
  EXPECT_EQ(daemon_->client(fresh).get("/v1/judges").status, 200);
  // The audit of the judges' stream shows who did it and why: one event.
  auto verify = daemon_->client(fresh).get("/v1/verify");
  EXPECT_EQ(verify.status, 200);
  EXPECT_TRUE(verify.json().at("ok").as_bool());
  EXPECT_EQ(run_tallyd("reset-organizer").status, 2);  // usage
}

TEST_F(Event, TheRoundClockFollowsItsStatesAndSurvivesARestart) {
  catan(4);
  ASSERT_EQ(
      organizer().post("/v1/tournaments/cup/rounds", json::object{{"method", "random"}}).status,
      201);
  auto idle = organizer().get("/v1/tournaments/cup/rounds/1").json().at("clock");
  EXPECT_EQ(idle.at("state"), "idle");
  EXPECT_TRUE(idle.at("ends_at").is_null());
  EXPECT_EQ(clock({{"action", "pause"}}).status, 409);  // nothing to pause

  auto started = clock({{"action", "start"}, {"minutes", 60}});
  ASSERT_EQ(started.status, 201) << started.body;
  auto c = started.json().at("clock");
  EXPECT_EQ(c.at("state"), "running");
  EXPECT_EQ(c.at("duration_s"), 3600);
  EXPECT_GE(c.at("remaining_s").as_int64(), 3599);
  EXPECT_FALSE(c.at("ends_at").is_null());
  EXPECT_FALSE(c.at("server_time").is_null());

  auto twice = clock({{"action", "start"}, {"minutes", 60}});
  EXPECT_EQ(twice.status, 409);
  EXPECT_EQ(str(twice.json().at("errors").at(0).at("field")), "action");
  EXPECT_EQ(clock({{"action", "start"}, {"minutes", 0}}).status, 422);
  EXPECT_EQ(clock({{"action", "resume"}}).status, 409);  // not paused

  auto paused = clock({{"action", "pause"}});
  ASSERT_EQ(paused.status, 201);
  EXPECT_EQ(paused.json().at("clock").at("state"), "paused");
  EXPECT_TRUE(paused.json().at("clock").at("ends_at").is_null());
  EXPECT_EQ(clock({{"action", "pause"}}).status, 409);  // paused already

  auto no_reason = clock({{"action", "extend"}, {"minutes", 5}});
  EXPECT_EQ(no_reason.status, 422);
  EXPECT_EQ(str(no_reason.json().at("errors").at(0).at("field")), "reason");
  auto extended = clock({{"action", "extend"}, {"minutes", 5}, {"reason", "late start"}});
  ASSERT_EQ(extended.status, 201);
  EXPECT_EQ(extended.json().at("clock").at("duration_s"), 3900);
  EXPECT_EQ(extended.json().at("clock").at("extended_s"), 300);
  std::int64_t left = extended.json().at("clock").at("remaining_s").as_int64();
  EXPECT_GE(left, 3895);  // paused: the extension is all there
  EXPECT_LE(left, 3900);

  // A restart shows the same clock: paused, the same time left.
  ASSERT_EQ(daemon_->stop(), 0);
  daemon_->start();
  auto after = organizer().get("/v1/tournaments/cup/rounds/1").json().at("clock");
  EXPECT_EQ(after.at("state"), "paused");
  EXPECT_EQ(after.at("remaining_s"), left);
  ASSERT_EQ(clock({{"action", "resume"}}).status, 201);

  // The live feed's round carries the clock.
  WsClient live("127.0.0.1", daemon_->port(), "/v1/tournaments/cup/live");
  auto snapshot = live.read();
  ASSERT_TRUE(snapshot);
  EXPECT_EQ(snapshot->at("type"), "snapshot");
  EXPECT_EQ(snapshot->at("round").at("clock").at("state"), "running");
  EXPECT_EQ(snapshot->at("round").at("clock").at("extended_s"), 300);

  ASSERT_EQ(clock({{"action", "stop"}}).status, 201);
  EXPECT_EQ(clock({{"action", "extend"}, {"minutes", 5}, {"reason", "x"}}).status, 409);
  // Every change is in the audit, the extension with its reason.
  auto audit = organizer().get("/v1/tournaments/cup/audit").json().at("events").as_array();
  std::vector<std::string> actions;
  for (const auto& e : audit) {
    if (e.at("type") != "round_clock") continue;
    actions.push_back(str(e.at("payload").at("action")));
    if (actions.back() == "extend") {
      EXPECT_EQ(e.at("reason"), "late start");
    }
  }
  EXPECT_EQ(actions, (std::vector<std::string>{"start", "pause", "extend", "resume", "stop"}));
}

TEST_F(Event, CheckInDecidesWhoIsSeatedAndThePreviewIsWhatIsSeated) {
  catan(10);
  auto org = organizer();
  auto judge_token = str(org.post("/v1/judges", json::object{{"name", "Eva"}}).json().at("token"));
  auto judge = daemon_->client(judge_token);
  // A judge checks players in; the two not checked in are left out of the seating.
  auto checked = judge.post(
      "/v1/tournaments/cup/checkin",
      json::object{{"players", {"p1", "p2", "p3", "p4", "p5", "p6", "p7"}}, {"present", true}});
  ASSERT_EQ(checked.status, 201) << checked.body;
  EXPECT_EQ(checked.json().at("round"), 1);
  ASSERT_EQ(
      org.post("/v1/tournaments/cup/checkin", json::object{{"players", {"p8"}}, {"present", true}})
          .status,
      201);
  EXPECT_EQ(org.post("/v1/tournaments/cup/checkin",
                     json::object{{"players", {"nobody"}}, {"present", true}})
                .status,
            422);
  auto t = org.get("/v1/tournaments/cup").json();
  EXPECT_EQ(t.at("checkin").at("absent"), (json::array{"p9", "p10"}));
  EXPECT_EQ(t.at("players").at(0).at("present"), true);
  EXPECT_EQ(t.at("players").at(8).at("present"), false);

  auto preview = org.post("/v1/tournaments/cup/rounds/check", json::object{});
  ASSERT_EQ(preview.status, 200) << preview.body;
  EXPECT_EQ(preview.json().at("left_out"), (json::array{"p9", "p10"}));
  std::set<std::string> seated;
  json::value previewed = preview.json();
  for (const auto& table : previewed.at("tables").as_array()) {
    for (const auto& p : table.at("players").as_array()) seated.insert(str(p));
  }
  EXPECT_EQ(seated, (std::set<std::string>{"p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8"}));
  // The preview wrote nothing.
  EXPECT_EQ(org.get("/v1/tournaments/cup").json().at("rounds").as_array().size(), 0u);

  // The absent are dropped in one step, with the reason on each.
  EXPECT_EQ(org.post("/v1/tournaments/cup/checkin/drop-absent", json::object{}).status, 422);
  auto dropped =
      org.post("/v1/tournaments/cup/checkin/drop-absent", json::object{{"reason", "no-show"}});
  ASSERT_EQ(dropped.status, 200) << dropped.body;
  EXPECT_EQ(dropped.json().at("dropped"), (json::array{"p9", "p10"}));

  // The preview's seed seats exactly the previewed tables.
  json::value again = org.post("/v1/tournaments/cup/rounds/check", json::object{}).json();
  auto seed = again.at("seed");
  EXPECT_LT(seed.to_number<double>(), 9007199254740992.0);  // a page reads it exactly
  auto seated_round =
      org.post("/v1/tournaments/cup/rounds", json::object{{"method", "random"}, {"seed", seed}});
  ASSERT_EQ(seated_round.status, 201) << seated_round.body;
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(seated_round.json().at("tables").at(i).at("players"),
              again.at("tables").at(i).at("players"));
  }
  EXPECT_EQ(seated_round.json().at("left_out"), json::array{});
  // The seating closed check-in: round 2's starts empty.
  auto next = org.get("/v1/tournaments/cup").json().at("checkin");
  EXPECT_EQ(next.at("round"), 2);
  EXPECT_EQ(next.at("open"), false);
}

// Issue 38, item 2: round 2's check-in starts empty, so seating seats everyone not dropped —
// round 1's no-shows included. The preview says so in words, naming them; it always says who is
// not seated and why; and a dropped player can be reinstated (contract, third edition).
TEST_F(Event, AnEmptyCheckInAfterNoShowsWarnsAndADroppedPlayerCanBeReinstated) {
  catan(10);
  auto org = organizer();
  ASSERT_EQ(org.post("/v1/tournaments/cup/checkin",
                     json::object{{"players", {"p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8"}},
                                  {"present", true}})
                .status,
            201);
  auto first = org.post("/v1/tournaments/cup/rounds/check", json::object{}).json();
  EXPECT_EQ(first.at("warnings"), json::array{});  // nobody missed a round yet
  EXPECT_EQ(first.at("not_seated"), json::parse(R"([
    {"player":"p9","name":"Player 9","reason":"absent","message":"Player 9 is not checked in"},
    {"player":"p10","name":"Player 10","reason":"absent","message":"Player 10 is not checked in"}])"));
  ASSERT_EQ(org.post("/v1/tournaments/cup/rounds", json::object{{"method", "random"}}).status, 201);

  // Round 2, nobody checked in yet: the two no-shows would be seated.
  json::object forced{{"method", "random"}, {"force", true}, {"reason", "results come later"}};
  auto second = org.post("/v1/tournaments/cup/rounds/check", forced);
  ASSERT_EQ(second.status, 200) << second.body;
  auto warnings = second.json().at("warnings").as_array();
  ASSERT_EQ(warnings.size(), 1u) << second.body;
  EXPECT_EQ(warnings[0].at("rule"), "checkin.empty");
  EXPECT_EQ(warnings[0].at("players"), (json::array{"p9", "p10"}));
  EXPECT_EQ(warnings[0].at("message"),
            "Nobody is checked in for round 2, and Player 9 and Player 10 did not play round 1: "
            "seating now seats everyone not dropped, these players included. Check players in "
            "first, or seat everyone on purpose.");
  EXPECT_EQ(second.json().at("not_seated"), json::array{});  // 10 players: tables of 4, 3, 3
  auto czech = org.post("/v1/tournaments/cup/rounds/check", forced, {{"Accept-Language", "cs"}});
  EXPECT_EQ(
      czech.json().at("warnings").at(0).at("message"),
      "Na kolo 2 není nikdo prezentován a Player 9 a\u00A0Player 10 nehráli kolo 1: nasazení teď "
      "nasadí všechny, kdo se neodhlásili, i tyto hráče. Nejdřív prezentujte hráče, nebo "
      "nasaďte všechny záměrně.");

  // Dropped, p9 is not seated, and the preview says why; the warning names only p10.
  ASSERT_EQ(
      org.post("/v1/tournaments/cup/players/p9/drop", json::object{{"reason", "no-show"}}).status,
      200);
  auto without = org.post("/v1/tournaments/cup/rounds/check", forced).json();
  EXPECT_EQ(without.at("warnings").at(0).at("players"), (json::array{"p10"}));
  EXPECT_EQ(without.at("not_seated").at(0).at("player"), "p9");
  EXPECT_EQ(without.at("not_seated").at(0).at("reason"), "dropped");

  // Reinstated with a reason: seated again from this round on.
  auto reinstate = [&](const json::object& body) {
    return org.post("/v1/tournaments/cup/players/p9/reinstate", body);
  };
  auto no_reason = reinstate(json::object{});
  EXPECT_EQ(no_reason.status, 422) << no_reason.body;
  EXPECT_EQ(no_reason.json().at("errors").at(0).at("field"), "reason");
  auto back = reinstate({{"reason", "arrived late"}});
  ASSERT_EQ(back.status, 200) << back.body;
  EXPECT_EQ(back.json().at("dropped"), false);
  auto twice = reinstate({{"reason", "again"}});
  EXPECT_EQ(twice.status, 409) << twice.body;
  EXPECT_EQ(twice.json().at("detail"), "Player 9 is not dropped");
  EXPECT_EQ(
      daemon_->client(str(org.post("/v1/judges", json::object{{"name", "Eva"}}).json().at("token")))
          .post("/v1/tournaments/cup/players/p9/reinstate", json::object{{"reason", "x"}})
          .status,
      403);  // the organizer's decision
  auto with = org.post("/v1/tournaments/cup/rounds/check", forced).json();
  EXPECT_EQ(with.at("not_seated"), json::array{});
  EXPECT_EQ(org.get("/v1/tournaments/cup").json().at("players").at(8).at("dropped"), false);
  // Across a restart, from the log.
  daemon_->stop();
  daemon_->start();
  EXPECT_EQ(organizer().get("/v1/tournaments/cup").json().at("players").at(8).at("dropped"), false);
}

// Issue 38, item 4: Czech Excel's CSV (Windows-1250) was read as UTF-8 — "�en�k ��astn�",
// planned as a rename of "Čeněk Šťastný". Sent as bytes, its encoding is detected and shown.
TEST_F(Event, AWindows1250CsvIsDetectedAndImportedWithItsDiacritics) {
  catan(0);
  auto org = organizer();
  ASSERT_EQ(org.post("/v1/tournaments/cup/players/import",
                     json::object{{"csv", "id;name\np1;Čeněk Šťastný\n"}})
                .status,
            201);
  const std::string excel =
      "id;name\r\np1;\xC8\x65n\xECk \x8A\x9D\x61stn\xFD\r\np2;Ji\xF8\xED \x8E\xEF\xE1rsk\xFD\r\n";
  auto check = org.post("/v1/tournaments/cup/players/import/check",
                        json::object{{"csv_base64", encoding::base64_encode(excel)}});
  ASSERT_EQ(check.status, 200) << check.body;
  EXPECT_EQ(check.json().at("encoding"), "windows-1250");
  EXPECT_EQ(check.json().at("encoding_detected"), true);
  EXPECT_EQ(check.json().at("rows").at(0).at("status"), "unchanged");  // not a rename
  EXPECT_EQ(check.json().at("rows").at(1).at("name"), "Jiří Žďárský");
  // Read as UTF-8 on purpose, it is refused naming the line; nothing is written.
  auto as_utf8 =
      org.post("/v1/tournaments/cup/players/import",
               json::object{{"csv_base64", encoding::base64_encode(excel)}, {"encoding", "utf-8"}});
  EXPECT_EQ(as_utf8.status, 422) << as_utf8.body;
  EXPECT_EQ(as_utf8.json().at("errors").at(0).at("field"), "csv_base64");
  EXPECT_EQ(as_utf8.json().at("errors").at(0).at("message"),
            "line 2 is not valid utf-8 text: choose the encoding the file was saved in");
  // The file once, as text or as bytes; a known encoding.
  EXPECT_EQ(org.post("/v1/tournaments/cup/players/import/check",
                     json::object{{"csv", "name\nEva\n"}, {"csv_base64", "bmFtZQo="}})
                .status,
            422);
  EXPECT_EQ(org.post("/v1/tournaments/cup/players/import/check",
                     json::object{{"csv_base64", "bmFtZQo="}, {"encoding", "latin-9"}})
                .status,
            422);
  auto imported = org.post("/v1/tournaments/cup/players/import",
                           json::object{{"csv_base64", encoding::base64_encode(excel)}});
  ASSERT_EQ(imported.status, 201) << imported.body;
  EXPECT_EQ(org.get("/v1/tournaments/cup").json().at("players").at(1).at("name"), "Jiří Žďárský");
}

TEST_F(Event, ClosingTheLastRoundMakesTheStandingsFinal) {
  catan(4, 1);
  auto org = organizer();
  ASSERT_EQ(org.post("/v1/tournaments/cup/rounds", json::object{{"method", "random"}}).status, 201);
  ASSERT_EQ(clock({{"action", "start"}, {"minutes", 30}}).status, 201);
  auto open = org.post("/v1/tournaments/cup/rounds/1/close", json::object{});
  ASSERT_EQ(open.status, 409) << open.body;
  EXPECT_EQ(open.json().at("errors").at(0).at("rule"), "round.unreported");
  EXPECT_EQ(open.json().at("errors").at(0).at("tables"), (json::array{1}));
  EXPECT_EQ(org.post("/v1/tournaments/cup/rounds/1/close", json::object{{"force", true}}).status,
            422);  // forcing needs a reason
  auto closed = org.post("/v1/tournaments/cup/rounds/1/close",
                         json::object{{"force", true}, {"reason", "table 1 left early"}});
  ASSERT_EQ(closed.status, 201) << closed.body;
  EXPECT_EQ(closed.json().at("final"), true);  // the last of the 1 planned round
  auto round = org.get("/v1/tournaments/cup/rounds/1").json();
  EXPECT_EQ(round.at("closed"), true);
  EXPECT_EQ(round.at("clock").at("state"), "stopped");
  EXPECT_EQ(org.get("/v1/tournaments/cup").json().at("final"), true);
  EXPECT_EQ(org.post("/v1/tournaments/cup/rounds/1/close", json::object{}).status, 409);
  EXPECT_EQ(org.post("/v1/tournaments/cup/rounds/2/close", json::object{}).status, 404);
}

TEST_F(Event, ImportingAnUpdatedFileNeverRegistersAnyoneTwice) {
  auto org = organizer();
  ASSERT_EQ(
      org.post("/v1/tournaments", json::object{{"id", "cup"}, {"name", "Cup"}, {"game", "catan"}})
          .status,
      201);
  std::string first = "name\nJana Nováková\nPetr Svoboda\nEva Dvořáková\n";
  auto check = org.post("/v1/tournaments/cup/players/import/check", json::object{{"csv", first}});
  ASSERT_EQ(check.status, 200) << check.body;
  EXPECT_EQ(check.json().at("added"), 3);
  EXPECT_EQ(org.get("/v1/tournaments/cup").json().at("players").as_array().size(), 0u);
  auto imported = org.post("/v1/tournaments/cup/players/import", json::object{{"csv", first}});
  ASSERT_EQ(imported.status, 201) << imported.body;
  EXPECT_EQ(imported.json().at("rows").at(0).at("id"), "p1");

  // The same file again: nothing written.
  auto same = org.post("/v1/tournaments/cup/players/import", json::object{{"csv", first}});
  EXPECT_EQ(same.status, 200);
  EXPECT_EQ(same.json().at("unchanged"), 3);

  // An updated file with ids: p2 renamed, a new player, a name without its accents.
  std::string updated =
      "id;name\np1;Jana Nováková\np2;Petr Svoboda ml.\n;Ota Král\n;Eva Dvorakova\n";
  auto plan = org.post("/v1/tournaments/cup/players/import/check", json::object{{"csv", updated}});
  ASSERT_EQ(plan.status, 200) << plan.body;
  json::value planned = plan.json();
  const auto& rows = planned.at("rows").as_array();
  EXPECT_EQ(rows.at(0).at("status"), "unchanged");
  EXPECT_EQ(rows.at(1).at("status"), "changed");
  EXPECT_EQ(rows.at(1).at("previous_name"), "Petr Svoboda");
  EXPECT_EQ(rows.at(2).at("status"), "added");
  EXPECT_EQ(rows.at(3).at("status"), "possible_duplicate");
  EXPECT_EQ(rows.at(3).at("matches").at(0).at("id"), "p3");
  auto applied = org.post("/v1/tournaments/cup/players/import", json::object{{"csv", updated}});
  ASSERT_EQ(applied.status, 201) << applied.body;
  auto players = org.get("/v1/tournaments/cup").json().at("players").as_array();
  ASSERT_EQ(players.size(), 4u);
  EXPECT_EQ(players.at(1).at("name"), "Petr Svoboda ml.");
  EXPECT_EQ(players.at(3).at("name"), "Ota Král");

  // A broken file names its lines and writes nothing.
  auto broken =
      org.post("/v1/tournaments/cup/players/import", json::object{{"csv", "name,club\nA,x\n,\n"}});
  ASSERT_EQ(broken.status, 422);
  EXPECT_EQ(broken.json().at("errors").at(0).at("rule"), "csv");
  EXPECT_EQ(broken.json().at("errors").at(0).at("field"), "csv");
  EXPECT_EQ(org.get("/v1/tournaments/cup").json().at("players").as_array().size(), 4u);

  // Adding or renaming to a name like another's warns.
  auto twin = org.post("/v1/tournaments/cup/players", json::object{{"name", "jana novakova"}});
  ASSERT_EQ(twin.status, 201);
  EXPECT_EQ(twin.json().at("warnings").at(0).at("player"), "p1");
  EXPECT_EQ(twin.json().at("warnings").at(0).at("rule"), "same_name");
  auto renamed = org.request(http::verb::patch, "/v1/tournaments/cup/players/p4",
                             json::serialize(json::object{{"name", "Petr  Svoboda ML."}}));
  ASSERT_EQ(renamed.status, 200) << renamed.body;
  EXPECT_EQ(renamed.json().at("warnings").at(0).at("player"), "p2");
}

}  // namespace
}  // namespace tally::testing
