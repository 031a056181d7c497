// The CLI's offline outbox (docs/cli.md, "Working offline"): the real `tally` binary against a
// real tallyd that is stopped and started again on the same port. Entries made while it is down
// are kept in the outbox (0600); `tally sync` applies them once, in order, answers a resend of
// one that reached the server with the original answer, asks the judge about a table another
// judge entered meanwhile, keeps what the server refuses, and stops on a revoked token.
#include "tests/client/cli_runner.hpp"
#include "tests/support/http_client.hpp"
#include "tests/support/tallyd_process.hpp"
#include "tests/support/temp_dir.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <sys/stat.h>

namespace tally::testing {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;

// The exit codes of docs/cli.md.
constexpr int kOk = 0, kUsage = 1, kInvalid = 2, kConflict = 3, kAuth = 4, kUnavailable = 6;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

// A Catan table of four as --player flags: w 10 VP (Largest Army), x 8 (Longest Road), y and z
// 5 each. `w_knights` below 3 breaks C-7 (Largest Army needs 3).
std::vector<std::string> result_flags(const std::vector<std::string>& seats, int w_knights = 3) {
  return {"--player",
          seats[0] + ":settlements=2,cities=3,vp_cards=0,knights=" + std::to_string(w_knights) +
              ",roads=6,longest_road=4,largest_army",
          "--player",
          seats[1] + ":settlements=3,cities=1,vp_cards=1,knights=1,roads=7,longest_road=5," +
              "longest_road_holder",
          "--player",
          seats[2] + ":settlements=3,cities=1,vp_cards=0,knights=0,roads=5,longest_road=3",
          "--player",
          seats[3] + ":settlements=5,cities=0,vp_cards=0,knights=2,roads=4,longest_road=2"};
}

// Another judge's entry of the same table: y has a fourth settlement, so y is third alone.
json::object other_result(const std::vector<std::string>& seats) {
  auto sheet = [](const std::string& p, int s, int c, int vp, int k, int r, int lr, bool la,
                  bool lrh) {
    return json::object{{"player", p},        {"settlements", s},   {"cities", c},
                        {"vp_cards", vp},     {"knights", k},       {"roads", r},
                        {"longest_road", lr}, {"largest_army", la}, {"longest_road_holder", lrh}};
  };
  return json::object{{"players", json::array{sheet(seats[0], 2, 3, 0, 3, 6, 4, true, false),
                                              sheet(seats[1], 3, 1, 1, 1, 7, 5, false, true),
                                              sheet(seats[2], 4, 1, 0, 0, 5, 3, false, false),
                                              sheet(seats[3], 5, 0, 0, 2, 4, 2, false, false)}}};
}

const std::vector<std::pair<const char*, const char*>> kPlayers = {
    {"a", "Anna Horáková"}, {"b", "Boris Novák"},   {"c", "Cyril Černý"},   {"d", "Dana Veselá"},
    {"e", "Emil Dvořák"},   {"f", "Fanny Malá"},    {"g", "Gustav Krejčí"}, {"h", "Hana Pokorná"},
    {"i", "Ivan Svoboda"},  {"j", "Jana Kučerová"}, {"k", "Karel Zeman"},   {"l", "Lucie Marková"},
    {"m", "Marek Beneš"},   {"n", "Nina Fialová"},  {"o", "Oto Růžička"},   {"p", "Petra Šimková"}};

const std::vector<std::vector<std::string>> kTables = {
    {"a", "b", "c", "d"}, {"e", "f", "g", "h"}, {"i", "j", "k", "l"}, {"m", "n", "o", "p"}};

std::uint32_t mode_of(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
  return st.st_mode & 0777;
}

class CliOffline : public ::testing::Test {
 protected:
  void SetUp() override {
    daemon_ = std::make_unique<TallydProcess>(dir_.sub("data"));
    daemon_->start();
    port_ = daemon_->port();
    fs::create_directories(home());
  }

  std::string server() const { return "http://127.0.0.1:" + std::to_string(port_); }
  std::string home() const { return dir_.sub("home"); }
  std::string outbox() const { return home() + "/.config/tally/outbox.json"; }

  // A judge at this computer: an isolated HOME, this server, `token` and the tournament brno.
  CliResult tally(const std::string& token, const std::vector<std::string>& args,
                  const std::string& input = "") {
    return run_cli(args,
                   {{"HOME", home()},
                    {"USER", "petr"},
                    {"TALLY_SERVER", server()},
                    {"TALLY_TOURNAMENT", "brno"},
                    {"TALLY_TOKEN", token}},
                   input);
  }
  // `tally result enter 1 TABLE EXTRA… --player …` with the table's result as flags.
  CliResult enter(const std::string& token, int table, const std::vector<std::string>& extra,
                  const std::string& input = "", int w_knights = 3) {
    std::vector<std::string> args = {"result", "enter", "1", std::to_string(table)};
    args.insert(args.end(), extra.begin(), extra.end());
    auto flags = result_flags(kTables[table - 1], w_knights);
    args.insert(args.end(), flags.begin(), flags.end());
    return tally(token, args, input);
  }

  std::string new_judge(const std::string& name) {
    auto r = daemon_->organizer().post("/v1/judges", json::object{{"name", name}});
    EXPECT_EQ(r.status, 201) << r.body;
    return std::string(r.json().at("token").as_string());
  }
  std::string judge_id(const std::string& name) {
    json::value judges = daemon_->organizer().get("/v1/judges").json();
    for (const auto& j : judges.as_array()) {
      if (j.at("name") == name.c_str()) return std::string(j.at("id").as_string());
    }
    ADD_FAILURE() << "no judge " << name;
    return "";
  }

  // The Catan tournament brno, `tables` tables of four seated in round 1.
  void tournament(std::size_t tables) {
    auto org = daemon_->organizer();
    auto r = org.post("/v1/tournaments",
                      json::object{{"id", "brno"}, {"name", "Brno Open"}, {"game", "catan"}});
    ASSERT_EQ(r.status, 201) << r.body;
    json::array seating;
    for (std::size_t t = 0; t < tables; ++t) {
      json::array seats;
      for (const auto& p : kTables[t]) seats.emplace_back(p);
      seating.push_back(seats);
    }
    for (std::size_t i = 0; i < tables * 4; ++i) {
      r = org.post("/v1/tournaments/brno/players",
                   json::object{{"id", kPlayers[i].first}, {"name", kPlayers[i].second}});
      ASSERT_EQ(r.status, 201) << r.body;
    }
    r = org.post("/v1/tournaments/brno/rounds",
                 json::object{{"method", "manual"}, {"tables", seating}});
    ASSERT_EQ(r.status, 201) << r.body;
  }

  void stop_server() { ASSERT_EQ(daemon_->stop(), 0); }
  // tallyd again, on the port the CLI knows.
  void start_server() {
    daemon_ = std::make_unique<TallydProcess>(
        dir_.sub("data"),
        std::vector<std::string>{"--listen", "127.0.0.1:" + std::to_string(port_)});
    daemon_->start();
    ASSERT_EQ(daemon_->port(), port_);
  }

  std::uint64_t head_seq() {
    return daemon_->organizer().get("/healthz").json().at("seq").to_number<std::uint64_t>();
  }

  // The tournament's result events, oldest first: "table N by ID[ (reason)]".
  std::vector<std::string> result_events() {
    auto audit = daemon_->organizer().get("/v1/tournaments/brno/audit");
    EXPECT_EQ(audit.status, 200) << audit.body;
    std::vector<std::string> out;
    json::value answer = audit.json();
    for (const auto& e : answer.at("events").as_array()) {
      if (e.at("type") != "catan_result") continue;
      std::string stream(e.at("stream").as_string());
      std::string line = "table " + stream.substr(stream.rfind('/') + 1) + " by " +
                         std::string(e.at("by").as_string());
      if (!e.at("reason").as_string().empty()) {
        line += " (" + std::string(e.at("reason").as_string()) + ")";
      }
      out.push_back(line);
    }
    return out;
  }
  std::uint64_t result_seq(int table) {
    auto round = daemon_->organizer().get("/v1/tournaments/brno/rounds/1").json();
    return round.at("tables").at(table - 1).at("result_seq").to_number<std::uint64_t>();
  }

  TempDir dir_;
  std::unique_ptr<TallydProcess> daemon_;
  std::uint16_t port_ = 0;
};

TEST_F(CliOffline, EntriesKeptWhileTheServerIsDownAreAppliedOnceInOrderAndConflictsAsked) {
  tournament(4);
  std::string petr = new_judge("Petr");
  std::string eva = new_judge("Eva");
  // A look at the round while the server answers keeps the copy the entries are made from.
  ASSERT_EQ(tally(petr, {"round", "show", "1"}).exit_code, kOk);

  stop_server();
  const std::string kept_1 =
      "Round 1, table 1: kept in the outbox on this computer as #1 (1 entry waits); `tally sync` "
      "sends it once the server is back.\n";
  CliResult first = enter(petr, 1, {"--keep-offline"});
  ASSERT_EQ(first.exit_code, kOk) << first.err;
  EXPECT_EQ(first.out, kept_1);
  EXPECT_TRUE(contains(first.err, "tally: cannot reach tallyd at " + server() + ": ")) << first.err;
  EXPECT_TRUE(contains(first.err, "working from this computer's copy of ")) << first.err;
  EXPECT_EQ(mode_of(outbox()), 0600u);
  EXPECT_EQ(mode_of(home() + "/.config/tally"), 0700u);

  // Without --keep-offline the judge is asked; no answer keeps nothing.
  const std::string ask_keep =
      "Keep it in the outbox on this computer, for `tally sync` to send once the server is "
      "back? [Y/n]: ";
  CliResult unanswered = enter(petr, 2, {});
  EXPECT_EQ(unanswered.exit_code, kUnavailable);
  EXPECT_EQ(unanswered.out, "");
  EXPECT_TRUE(contains(unanswered.err, ask_keep)) << unanswered.err;
  EXPECT_TRUE(contains(unanswered.err, "tally: nothing was sent and nothing kept"))
      << unanswered.err;
  CliResult second = enter(petr, 2, {}, "y\n");
  ASSERT_EQ(second.exit_code, kOk) << second.err;
  EXPECT_TRUE(contains(second.out, "as #2 (2 entries wait)")) << second.out;
  // A copy of the outbox as it is now: the state of a sync whose answers were lost.
  fs::copy_file(outbox(), dir_.sub("outbox-of-1-and-2.json"));

  // Prompts work from the copy too: the seating and the game's fields of the last look.
  std::string answers =
      "2\n3\n0\n3\n6\n4\n\n\n"
      "3\n1\n1\n1\n7\n5\n\n8\n"
      "3\n1\n0\n0\n5\n3\n\n\n"
      "5\n0\n0\n2\n4\n2\n\n\n"
      "i\nj\n";
  CliResult third = tally(petr, {"result", "enter", "1", "3"}, answers + "y\n");
  ASSERT_EQ(third.exit_code, kOk) << third.err;
  EXPECT_TRUE(contains(third.err, "Brno Open: round 1, table 3 (catan)")) << third.err;
  EXPECT_TRUE(contains(third.err, "Your entry:\n  Ivan Svoboda (i): settlements 2, cities 3, "))
      << third.err;
  EXPECT_TRUE(contains(third.err, ask_keep)) << third.err;
  EXPECT_TRUE(contains(third.out, "as #3 (3 entries wait)")) << third.out;
  ASSERT_EQ(enter(petr, 4, {"--keep-offline"}).exit_code, kOk);

  CliResult listed = tally(petr, {"sync", "--list"});
  ASSERT_EQ(listed.exit_code, kOk) << listed.err;
  EXPECT_TRUE(contains(listed.out, "4 entries wait in " + outbox() + ".\n")) << listed.out;
  std::istringstream rows(listed.out);
  std::string line;
  std::getline(rows, line);
  EXPECT_TRUE(contains(line, "Entered") && contains(line, "Sent as")) << line;
  std::getline(rows, line);  // the rule
  for (int n = 1; n <= 4; ++n) {
    std::getline(rows, line);
    EXPECT_EQ(line.rfind(std::to_string(n) + "  ", 0), 0u) << line;
    EXPECT_TRUE(contains(line, "  petr  brno  ")) << line;
    EXPECT_TRUE(contains(line, "      1      " + std::to_string(n) + "  first entry  " + server()))
        << line;
  }
  CliResult down = tally(petr, {"sync"});
  EXPECT_EQ(down.exit_code, kUnavailable);
  EXPECT_EQ(down.out, "Sent: 0. Dropped by your choice: 0. Still in the outbox: 4.\n");
  EXPECT_TRUE(contains(down.err, "nothing was dropped")) << down.err;

  // Back, and Eva entered tables 3 and 4 from another device meanwhile.
  start_server();
  for (int table : {3, 4}) {
    auto r = daemon_->client(eva).put(
        "/v1/tournaments/brno/rounds/1/tables/" + std::to_string(table) + "/result",
        other_result(kTables[table - 1]), {{"If-None-Match", "*"}});
    ASSERT_EQ(r.status, 201) << r.body;
  }
  std::uint64_t before = head_seq();
  // Table 3: hers stands. Table 4: his, as a correction with a reason.
  CliResult synced = tally(petr, {"sync"}, "1\n2\nk had 3 settlements\n");
  ASSERT_EQ(synced.exit_code, kOk) << synced.err;
  std::string s1 = std::to_string(before + 1), s2 = std::to_string(before + 2),
              s3 = std::to_string(before + 3);
  EXPECT_TRUE(contains(synced.out, "Round 1, table 1: result entered (version 1, event #" + s1 +
                                       ").\n  Place  Name"))
      << synced.out;
  EXPECT_TRUE(
      contains(synced.out, "Round 1, table 2: result entered (version 1, event #" + s2 + ").\n"))
      << synced.out;
  EXPECT_TRUE(contains(synced.out, "Round 1, table 3: your entry #3 is dropped; theirs stands.\n"))
      << synced.out;
  EXPECT_TRUE(
      contains(synced.out, "Round 1, table 4: result replaced (version 2, event #" + s3 + ").\n"))
      << synced.out;
  EXPECT_TRUE(contains(synced.out, "  3=     Oto Růžička    o    5       1.50\n")) << synced.out;
  EXPECT_TRUE(contains(synced.out, "Sent: 3. Dropped by your choice: 1. Still in the outbox: 0.\n"))
      << synced.out;
  // Both entries of a conflict, by player name: hers as the server computed it, his as entered
  // and as it would be computed.
  std::string eva_id = judge_id("Eva");
  std::string conflict = synced.err.substr(0, synced.err.find("tally: round 1, table 4"));
  EXPECT_TRUE(contains(conflict, "tally: round 1, table 3: already entered by Eva at "))
      << conflict;
  EXPECT_TRUE(contains(conflict, "Theirs: entered by Eva (" + eva_id + ") at ")) << conflict;
  EXPECT_TRUE(contains(conflict, "  3      Karel Zeman    k    6       2.00\n")) << conflict;
  EXPECT_TRUE(contains(conflict, "Yours (#3), entered on this computer by petr at ")) << conflict;
  EXPECT_TRUE(contains(conflict, "  Karel Zeman (k): settlements 3, cities 1, vp_cards 0"))
      << conflict;
  EXPECT_TRUE(contains(conflict, "As a correction, yours would give:\n")) << conflict;
  EXPECT_TRUE(contains(conflict, "  3=     Karel Zeman    k    5       1.50\n")) << conflict;
  EXPECT_TRUE(contains(conflict,
                       "Which entry stands?\n"
                       "  1  theirs: yours is dropped\n"
                       "  2  yours: sent as a correction of their version 1 (it needs a reason)\n"
                       "  3  later: yours stays in the outbox\n"
                       "Your choice (1/2/3): "))
      << conflict;
  EXPECT_TRUE(contains(synced.err, "Reason for the correction (kept in the audit trail): "))
      << synced.err;

  // Applied once each, in the order entered; table 4 is Eva's, corrected by Petr.
  std::string petr_id = judge_id("Petr");
  std::vector<std::string> expected = {"table 3 by " + eva_id, "table 4 by " + eva_id,
                                       "table 1 by " + petr_id, "table 2 by " + petr_id,
                                       "table 4 by " + petr_id + " (k had 3 settlements)"};
  EXPECT_EQ(result_events(), expected);
  EXPECT_EQ(head_seq(), before + 3);
  EXPECT_EQ(tally(petr, {"sync", "--list"}).out,
            "The outbox is empty: nothing waits to be sent.\n");

  // The outbox as it was before the sync — as if its answers for tables 1 and 2 had been lost:
  // sent again with the same keys, answered with the original answers, applied no second time.
  fs::copy_file(dir_.sub("outbox-of-1-and-2.json"), outbox(), fs::copy_options::overwrite_existing);
  CliResult again = tally(petr, {"sync"});
  ASSERT_EQ(again.exit_code, kOk) << again.err;
  EXPECT_TRUE(
      contains(again.out, "Round 1, table 1: result entered (version 1, event #" + s1 + ").\n"))
      << again.out;
  EXPECT_TRUE(
      contains(again.out, "Round 1, table 2: result entered (version 1, event #" + s2 + ").\n"))
      << again.out;
  EXPECT_EQ(head_seq(), before + 3);
  EXPECT_EQ(result_events(), expected);
  EXPECT_EQ(result_seq(1), before + 1);
  EXPECT_EQ(result_seq(2), before + 2);
}

TEST_F(CliOffline, WhatTheServerRefusesStaysUntilDiscardedAndARevokedTokenKeepsEverything) {
  tournament(2);
  std::string petr = new_judge("Petr");
  ASSERT_EQ(tally(petr, {"round", "show", "1"}).exit_code, kOk);

  stop_server();
  // Table 1 with Largest Army on 1 knight (C-7), then again right; table 2.
  ASSERT_EQ(enter(petr, 1, {"--keep-offline"}, "", 1).exit_code, kOk);
  CliResult again = enter(petr, 1, {"--keep-offline"});
  ASSERT_EQ(again.exit_code, kOk) << again.err;
  EXPECT_TRUE(contains(again.err,
                       "tally: round 1, table 1: the outbox already holds #1 for this "
                       "table; `tally sync` sends this one after it\n"))
      << again.err;
  ASSERT_EQ(enter(petr, 2, {"--keep-offline"}).exit_code, kOk);
  start_server();

  // Petr's token is revoked meanwhile: said plainly, nothing sent, nothing dropped.
  auto revoke = daemon_->organizer().request(http::verb::delete_, "/v1/judges/" + judge_id("Petr"));
  ASSERT_LT(revoke.status, 300) << revoke.body;
  std::uint64_t before = head_seq();
  CliResult revoked = tally(petr, {"sync"});
  EXPECT_EQ(revoked.exit_code, kAuth);
  EXPECT_TRUE(contains(revoked.err,
                       "tally: the server refused the token (HTTP 401): it was revoked, or it is "
                       "not this server's. Nothing was dropped: log in with a valid token (`tally "
                       "login`) and run `tally sync` again.\n"))
      << revoked.err;
  EXPECT_EQ(revoked.out, "Sent: 0. Dropped by your choice: 0. Still in the outbox: 3.\n");
  EXPECT_EQ(head_seq(), before);

  // With a new token: the refused entry is shown by rule, player (by name) and field and stays;
  // the next entry of its table waits behind it; table 2 goes.
  std::string petr2 = new_judge("Petr Nový");
  CliResult refused = tally(petr2, {"sync"});
  EXPECT_EQ(refused.exit_code, kInvalid);
  EXPECT_TRUE(contains(refused.err, "tally: round 1, table 1: #1 was entered with another token"))
      << refused.err;
  EXPECT_TRUE(contains(refused.err,
                       "tally: round 1, table 1: the result breaks the rules (HTTP "
                       "422)\n  C-7 (player Anna Horáková (a), field largest_army): "))
      << refused.err;
  EXPECT_TRUE(contains(refused.err,
                       "  Anna Horáková (a): settlements 2, cities 3, vp_cards 0, "
                       "knights 1, "))
      << refused.err;
  EXPECT_TRUE(contains(refused.err,
                       "It stays in the outbox. To drop it: `tally sync --discard 1` "
                       "(then enter the table anew: `tally result enter 1 1`).\n"))
      << refused.err;
  EXPECT_TRUE(contains(refused.err,
                       "tally: round 1, table 1: #2 waits behind an earlier entry for "
                       "this table that stays in the outbox\n"))
      << refused.err;
  EXPECT_TRUE(contains(refused.out, "Round 1, table 2: result entered (version 1, event #"))
      << refused.out;
  EXPECT_TRUE(
      contains(refused.out, "Sent: 1. Dropped by your choice: 0. Still in the outbox: 2.\n"))
      << refused.out;

  // Only the judge's explicit choice drops it; then the right entry goes.
  EXPECT_EQ(tally(petr2, {"sync", "--discard", "7"}).exit_code, kUsage);
  CliResult discarded = tally(petr2, {"sync", "--discard", "1"});
  ASSERT_EQ(discarded.exit_code, kOk) << discarded.err;
  EXPECT_EQ(discarded.out, "Discarded #1 (brno, round 1, table 1): it will not be sent.\n");
  CliResult rest = tally(petr2, {"sync"}, "");
  ASSERT_EQ(rest.exit_code, kOk) << rest.err;
  EXPECT_TRUE(contains(rest.out, "Round 1, table 1: result entered (version 1, event #"))
      << rest.out;
  std::string id = judge_id("Petr Nový");
  EXPECT_EQ(result_events(), (std::vector<std::string>{"table 2 by " + id, "table 1 by " + id}));
  EXPECT_EQ(count_of(tally(petr2, {"sync", "--list"}).out, "\n"), 1u);  // "The outbox is empty"
}

TEST_F(CliOffline, TheOutboxSpeaksTheJudgesLanguage) {
  tournament(1);
  std::string petr = new_judge("Petr");
  ASSERT_EQ(tally(petr, {"round", "show", "1"}).exit_code, kOk);
  stop_server();
  CliResult cs = enter(petr, 1, {"--lang", "cs", "--keep-offline"});
  ASSERT_EQ(cs.exit_code, kOk) << cs.err;
  EXPECT_EQ(cs.out,
            "Kolo 1, stůl 1: uloženo do fronty na tomto počítači jako #1 (čeká 1 zápis); `tally "
            "sync` ho odešle, až bude server zase dostupný.\n");
  CliResult ru = tally(petr, {"sync", "--list", "--lang", "ru"});
  EXPECT_TRUE(contains(ru.out, "Ждёт 1 запись в " + outbox() + ".\n")) << ru.out;
  CliResult it = tally(petr, {"sync", "--lang", "it"});
  EXPECT_EQ(it.exit_code, kUnavailable);
  EXPECT_EQ(it.out, "Inviati: 0. Tolti per tua scelta: 0. Ancora nella coda: 1.\n");
}

}  // namespace
}  // namespace tally::testing
