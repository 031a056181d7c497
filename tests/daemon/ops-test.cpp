// Backups while judges write, restore by starting on the backup, export → import → the same head,
// and an import that refuses a tampered export naming the line.
#include "tests/daemon/api_fixture.hpp"
#include "tests/daemon/cup.hpp"
#include "tests/support/temp_dir.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <thread>

namespace tally::testing {
namespace {

namespace json = boost::json;

constexpr int kTables = 8;

class Ops : public ApiFixture {
 protected:
  void SetUp() override {
    ApiFixture::SetUp();
    judge_ = make_cup(*daemon_, kTables).judge_token;
  }

  // Each of `writers` threads keeps entering and correcting its own tables until `stop`.
  void write_until(std::atomic<bool>& stop, int writers, std::atomic<int>& writes) {
    std::vector<std::thread> threads;
    for (int w = 0; w < writers; ++w) {
      threads.emplace_back([&, w] {
        HttpClient eva("127.0.0.1", daemon_->port(), judge_);
        std::map<int, std::string> etag;
        for (int i = 0; !stop; ++i) {
          int table = w + 1 + (i % (kTables / writers)) * writers;
          std::map<std::string, std::string> headers;
          std::string reason;
          if (etag.count(table)) {
            headers["If-Match"] = etag[table];
            reason = "recount " + std::to_string(i);
          } else {
            headers["If-None-Match"] = "*";
          }
          auto r =
              eva.put(cup_table(table), cup_result(table, i % 50, (i * 7) % 50, reason), headers);
          ASSERT_TRUE(r.status == 200 || r.status == 201) << r.body;
          etag[table] = r.header("ETag");
          ++writes;
        }
      });
    }
    for (auto& t : threads) t.join();
  }

  std::string judge_;
};

TEST_F(Ops, ABackupTakenWhileJudgesWriteRestoresToTheStandingsOfItsSeq) {
  std::atomic<bool> stop{false};
  std::atomic<int> writes{0};
  json::value backup;
  std::thread organizer([&] {
    while (writes < 40) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    auto r = daemon_->organizer().post("/v1/backup", json::object{});
    EXPECT_EQ(r.status, 201) << r.body;
    backup = r.json();
    while (writes < 120) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    stop = true;
  });
  write_until(stop, 4, writes);
  organizer.join();
  ASSERT_TRUE(backup.is_object());
  std::uint64_t seq = backup.at("seq").to_number<std::uint64_t>();
  std::uint64_t head =
      daemon_->organizer().get("/healthz").json().at("seq").to_number<std::uint64_t>();
  EXPECT_GT(head, seq);  // the judges went on writing after the backup
  auto then =
      daemon_->organizer().get("/v1/tournaments/cup/standings?as_of=" + std::to_string(seq)).json();

  // Restore = start tallyd on the backup.
  std::string path(backup.at("path").as_string());
  EXPECT_EQ(std::filesystem::status(path + "/organizer.token").permissions() &
                std::filesystem::perms::all,
            std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  // The table tokens' secret too: the slips' QR codes still work on the restored server.
  std::ifstream original_secret(daemon_->data() + "/table-keys.secret");
  std::ifstream backed_up_secret(path + "/table-keys.secret");
  std::string original_text, backed_up_text;
  std::getline(original_secret, original_text);
  std::getline(backed_up_secret, backed_up_text);
  EXPECT_EQ(backed_up_text.size(), 64u);
  EXPECT_EQ(backed_up_text, original_text);
  EXPECT_EQ(std::filesystem::status(path + "/table-keys.secret").permissions() &
                std::filesystem::perms::all,
            std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  TallydProcess restored(path);
  restored.start();
  auto org = restored.organizer();  // the same organizer token works there
  auto verify = org.get("/v1/verify").json();
  EXPECT_EQ(verify.at("ok"), true);
  EXPECT_EQ(verify.at("events"), seq);
  EXPECT_EQ(verify.at("head"), backup.at("head"));
  EXPECT_EQ(org.get("/v1/tournaments/cup/standings").json().at("rows"), then.at("rows"));
  // And it takes new writes.
  HttpClient eva("127.0.0.1", restored.port(), judge_);
  auto round = org.get("/v1/tournaments/cup/rounds/1").json();
  const json::object* table = nullptr;
  for (const auto& t : round.at("tables").as_array()) {
    if (t.at("table") == 1) table = &t.as_object();
  }
  ASSERT_NE(table, nullptr) << round;
  std::uint64_t version = table->at("version").to_number<std::uint64_t>();
  auto write = eva.put(cup_table(1), cup_result(1, 3, 4, version ? "after the restore" : ""),
                       cup_precondition(version));
  EXPECT_TRUE(write.status == 200 || write.status == 201) << write.body;
  EXPECT_EQ(org.get("/v1/verify").json().at("events").to_number<std::uint64_t>(), seq + 1);
}

TEST_F(Ops, ExportThenImportGivesTheSameHeadAndTheSameStandings) {
  std::atomic<bool> stop{false};
  std::atomic<int> writes{0};
  std::thread stopper([&] {
    while (writes < 30) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    stop = true;
  });
  write_until(stop, 2, writes);
  stopper.join();
  // A write with an Idempotency-Key: after the import its retry must still be recognised.
  HttpClient eva("127.0.0.1", daemon_->port(), judge_);
  auto keyed = eva.post("/v1/tournaments/cup/rounds/1/tables/1/claims",
                        json::object{{"player", "p1"}}, {{"Idempotency-Key", "claim-once"}});
  ASSERT_EQ(keyed.status, 201) << keyed.body;

  auto org = daemon_->organizer();
  auto exported = org.get("/v1/export");
  ASSERT_EQ(exported.status, 200);
  EXPECT_EQ(exported.header("Content-Type"), "application/x-ndjson");
  std::string file = dir_.sub("export.jsonl");
  std::ofstream(file) << exported.body;
  auto original = org.get("/v1/verify").json();
  auto standings = org.get("/v1/tournaments/cup/standings").json();

  auto imported = run_tallyd("import --data " + dir_.sub("copy") + " --in " + file);
  ASSERT_EQ(imported.status, 0) << imported.output;
  EXPECT_NE(imported.output.find(std::string(original.at("head").as_string())), std::string::npos);

  TallydProcess copy(dir_.sub("copy"));
  copy.start();
  HttpClient copy_org = copy.client(daemon_->organizer_token());  // tokens live in the log
  auto verify = copy_org.get("/v1/verify").json();
  EXPECT_EQ(verify.at("ok"), true);
  EXPECT_EQ(verify.at("head"), original.at("head"));
  EXPECT_EQ(verify.at("events"), original.at("events"));
  EXPECT_EQ(copy_org.get("/v1/tournaments/cup/standings").json(), standings);
  HttpClient copy_eva("127.0.0.1", copy.port(), judge_);
  auto retry = copy_eva.post("/v1/tournaments/cup/rounds/1/tables/1/claims",
                             json::object{{"player", "p1"}}, {{"Idempotency-Key", "claim-once"}});
  EXPECT_EQ(retry.status, 201);
  EXPECT_EQ(retry.json().at("seq"), keyed.json().at("seq"));
  EXPECT_EQ(copy_org.get("/v1/verify").json().at("events"),
            original.at("events"));  // nothing appended
}

// The export of this fixture's tournament, with line `n` (1-based) changed by `edit`.
std::string tampered(const std::string& exported, std::size_t n,
                     const std::function<void(json::object&)>& edit) {
  std::istringstream in(exported);
  std::string line, out;
  for (std::size_t i = 1; std::getline(in, line); ++i) {
    if (i == n) {
      json::object o = json::parse(line).as_object();
      edit(o);
      line = json::serialize(o);
    }
    out += line + "\n";
  }
  return out;
}

TEST_F(Ops, AnImportRefusesATamperedExportNamingTheLineAndLeavesNothing) {
  std::string exported = daemon_->organizer().get("/v1/export").body;
  struct Case {
    const char* what;
    std::size_t line;
    std::function<void(json::object&)> edit;
    const char* problem;
  };
  std::vector<Case> cases = {
      {"the readable event", 5,
       [](json::object& o) { o["event"].as_object()["author"] = "mallory"; },
       "the readable event differs from the event's bytes"},
      {"the bytes", 7,
       [](json::object& o) {
         std::string b(o["bytes"].as_string());
         b[40] = b[40] == 'A' ? 'B' : 'A';
         o["bytes"] = b;
       },
       "the hash does not match the event's bytes"},
      {"the hash", 3, [](json::object& o) { o["hash"] = std::string(64, '0'); },
       "the hash does not match"},
      {"the order", 6, [](json::object& o) { o["seq"] = 60; }, "seq 60 where 6 was expected"},
      {"the shape", 2, [](json::object& o) { o.erase("prev_hash"); }, "a member is missing"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.what);
    std::string file = dir_.sub(std::string("bad-") + std::to_string(c.line) + ".jsonl");
    std::ofstream(file) << tampered(exported, c.line, c.edit);
    std::string target = dir_.sub(std::string("target-") + std::to_string(c.line));
    auto r = run_tallyd("import --data " + target + " --in " + file);
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.output.find("at line " + std::to_string(c.line) + ":"), std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find(c.problem), std::string::npos) << r.output;
    EXPECT_FALSE(std::filesystem::exists(target + "/store/CURRENT"));
  }
  // A deleted line is a gap in the seqs, found at the line after it.
  std::istringstream in(exported);
  std::string line, gapped;
  for (int i = 1; std::getline(in, line); ++i) {
    if (i != 4) gapped += line + "\n";
  }
  std::ofstream(dir_.sub("gap.jsonl")) << gapped;
  auto r = run_tallyd("import --data " + dir_.sub("gap") + " --in " + dir_.sub("gap.jsonl"));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.output.find("at line 4: seq 5 where 4 was expected"), std::string::npos) << r.output;
}

TEST_F(Ops, ExportingAStoreInUseSaysToUseTheApi) {
  auto r = run_tallyd("export --data " + dir_.sub("data") + " --out " + dir_.sub("x.jsonl"));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.output.find("is tallyd running? then use GET /v1/export"), std::string::npos)
      << r.output;
  daemon_->stop();
  r = run_tallyd("export --data " + dir_.sub("data") + " --out " + dir_.sub("x.jsonl"));
  EXPECT_EQ(r.status, 0) << r.output;
  std::ifstream in(dir_.sub("x.jsonl"));
  std::string first;
  std::getline(in, first);
  EXPECT_EQ(json::parse(first).at("seq"), 1);
}

TEST_F(Ops, TwoBackupsAtTheSameSeqInOneSecondGetTwoNames) {
  auto first = daemon_->organizer().post("/v1/backup", json::object{});
  auto second = daemon_->organizer().post("/v1/backup", json::object{});
  ASSERT_EQ(first.status, 201) << first.body;
  ASSERT_EQ(second.status, 201) << second.body;
  EXPECT_EQ(first.json().at("seq"), second.json().at("seq"));
  EXPECT_NE(first.json().at("path"), second.json().at("path"));
  for (const auto& r : {first, second}) {
    EXPECT_TRUE(std::filesystem::exists(std::string(r.json().at("path").as_string()) + "/store"));
  }
}

TEST_F(Ops, BackupsAndExportsAreForTheOrganizerOnly) {
  HttpClient eva("127.0.0.1", daemon_->port(), judge_);
  EXPECT_EQ(eva.post("/v1/backup", json::object{}).status, 403);
  EXPECT_EQ(eva.get("/v1/export").status, 403);
  EXPECT_EQ(HttpClient("127.0.0.1", daemon_->port()).get("/v1/export").status, 401);
}

}  // namespace
}  // namespace tally::testing
