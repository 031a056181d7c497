// Judges' results are the event's truth: crashes under load, a full disk and a read-only data
// directory must never lose or half-apply an acknowledged write, and the projections must be
// the same however they were reached (incrementally, by a fold up to a seq, by a replay, by any
// interleaving of judges on different tables).
//
// TALLY_CRASH_CYCLES=N runs the crash test with N SIGKILLs instead of 20 (the long version).
#include "tests/daemon/cup.hpp"
#include "tests/support/json_settled.hpp"
#include "tests/support/temp_dir.hpp"

#include <gtest/gtest.h>

#include <sys/mount.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <random>
#include <set>
#include <thread>

namespace tally::testing {
namespace {

namespace json = boost::json;

std::uint64_t seq_of(const HttpReply& r) { return r.json().at("seq").to_number<std::uint64_t>(); }

std::uint64_t events_of(const TallydProcess& daemon) {
  auto verify = daemon.organizer().get("/v1/verify").json();
  EXPECT_EQ(verify.at("ok"), true) << verify;
  return verify.at("events").to_number<std::uint64_t>();
}

// The version a table answer or a 412's `table` reports.
std::uint64_t version_in(const json::value& table) {
  return table.at("version").to_number<std::uint64_t>();
}

// Everything a reader can see of the cup: the round sheet, the standings, the audit.
json::object state_of(const TallydProcess& daemon) {
  auto org = daemon.organizer();
  return json::object{{"round", settled(org.get("/v1/tournaments/cup/rounds/1").json())},
                      {"standings", org.get("/v1/tournaments/cup/standings").json()},
                      {"audit", org.get("/v1/tournaments/cup/audit").json()}};
}

const std::vector<std::string> kUnlimited{"--rate-limit", "1000000", "--rate-burst", "1000000"};

// --- crashes under load ----------------------------------------------------------------------

// One write a judge attempted: enough to send it again, and what tallyd answered, if it did.
struct Attempt {
  std::string key;
  std::string target;
  json::object body;
  std::map<std::string, std::string> headers;
  std::optional<std::uint64_t> acknowledged_seq;
};

TEST(Reliability, SigkillUnderLoadLosesNoAcknowledgedWriteAndHalfAppliesNothing) {
  const int cycles =
      std::getenv("TALLY_CRASH_CYCLES") ? std::atoi(std::getenv("TALLY_CRASH_CYCLES")) : 20;
  const unsigned seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937 random(seed);
  constexpr int kJudges = 4, kTables = 8;

  TempDir dir;
  TallydProcess daemon(dir.sub("data"), kUnlimited);
  daemon.start();
  Cup cup = make_cup(daemon, kTables);
  const std::uint64_t setup_events = events_of(daemon);

  std::mutex mutex;
  std::vector<Attempt> attempts;
  int acknowledged = 0;
  for (int cycle = 0; cycle < cycles; ++cycle) {
    if (cycle > 0) {
      daemon.start();
      ASSERT_EQ(daemon.organizer().get("/v1/verify").json().at("ok"), true)
          << "after crash " << cycle;
    }
    // Each judge keeps entering and correcting its own two tables until tallyd dies under it.
    std::vector<std::thread> judges;
    for (int j = 0; j < kJudges; ++j) {
      judges.emplace_back([&, j, cycle] {
        try {
          HttpClient eva = daemon.client(cup.judge_token);
          std::map<int, std::uint64_t> version;
          auto sheet = daemon.organizer().get("/v1/tournaments/cup/rounds/1").json();
          for (const auto& t : sheet.at("tables").as_array()) {
            version[static_cast<int>(t.at("table").to_number<int>())] = version_in(t);
          }
          for (int i = 0;; ++i) {
            int table = j + 1 + (i % 2) * kJudges;
            Attempt a{
                "c" + std::to_string(cycle) + "-j" + std::to_string(j) + "-" + std::to_string(i),
                cup_table(table),
                cup_result(table, i % 40, (i * 7 + cycle) % 40, version[table] ? "recount" : ""),
                cup_precondition(version[table]), std::nullopt};
            a.headers["Idempotency-Key"] = a.key;
            std::size_t index;
            {
              std::lock_guard lock(mutex);
              attempts.push_back(a);
              index = attempts.size() - 1;
            }
            auto r = eva.put(a.target, a.body, a.headers);  // throws once tallyd is gone
            if (r.status == 200 || r.status == 201) {
              std::lock_guard lock(mutex);
              attempts[index].acknowledged_seq = seq_of(r);
              ++acknowledged;
              version[table] = std::stoull(r.header("ETag").substr(1));
            } else if (r.status == 412) {
              version[table] = version_in(r.json().at("table"));
            } else {
              ADD_FAILURE() << r.status << " " << r.body;
              return;
            }
          }
        } catch (const std::exception&) {
          // tallyd was killed: this judge's last write is unacknowledged.
        }
      });
    }
    std::this_thread::sleep_for(
        std::chrono::milliseconds(std::uniform_int_distribution(30, 300)(random)));
    daemon.kill();
    for (auto& j : judges) j.join();
  }

  daemon.start();
  const std::uint64_t events_after_crashes = events_of(daemon);
  EXPECT_GT(acknowledged, cycles) << "the judges hardly wrote: the test would prove nothing";

  // Every write sent again with its key: an acknowledged one answers its original seq and appends
  // nothing; an unacknowledged one was either applied whole before the crash (its seq is old) or
  // not at all (now it appends, or is refused as stale). No two writes share a seq.
  std::set<std::uint64_t> applied_before;
  std::set<std::uint64_t> seqs;
  HttpClient eva = daemon.client(cup.judge_token);
  for (const auto& a : attempts) {
    auto r = eva.put(a.target, a.body, a.headers);
    if (a.acknowledged_seq) {
      ASSERT_TRUE(r.status == 200 || r.status == 201) << a.key << ": " << r.body;
      EXPECT_EQ(seq_of(r), *a.acknowledged_seq)
          << a.key << " was acknowledged and is lost or moved";
    }
    if (r.status == 200 || r.status == 201) {
      std::uint64_t seq = seq_of(r);
      EXPECT_TRUE(seqs.insert(seq).second) << "two writes at seq " << seq;
      if (seq <= events_after_crashes) applied_before.insert(seq);
    } else {
      EXPECT_EQ(r.status, 412) << a.key << ": " << r.body;
    }
  }
  // Nothing but those writes was appended: no duplicate, no half of anything.
  EXPECT_EQ(events_after_crashes, setup_events + applied_before.size());
  std::printf(
      "%d SIGKILLs: %zu writes sent, %d acknowledged, %zu applied before a crash "
      "(acknowledged or not), %zu unacknowledged and not applied\n",
      cycles, attempts.size(), acknowledged, applied_before.size(),
      attempts.size() - applied_before.size());

  // The projections after these incremental writes equal a replay from scratch.
  auto incremental = state_of(daemon);
  EXPECT_EQ(daemon.stop(), 0);
  daemon.start();
  EXPECT_EQ(state_of(daemon), incremental);
  EXPECT_EQ(daemon.organizer().get("/v1/verify").json().at("ok"), true);
}

// --- a full disk and a read-only data directory ----------------------------------------------

// A tmpfs of `megabytes` at `path`, unmounted when this goes away.
class SmallDisk {
 public:
  SmallDisk(std::string path, int megabytes) : path_(std::move(path)) {
    std::filesystem::create_directories(path_);
    std::string options = "size=" + std::to_string(megabytes) + "m,mode=0700";
    mounted_ = ::mount("tmpfs", path_.c_str(), "tmpfs", 0, options.c_str()) == 0;
  }
  ~SmallDisk() {
    if (mounted_) ::umount2(path_.c_str(), MNT_DETACH);
  }
  bool mounted() const { return mounted_; }
  bool remount(bool read_only) {
    return ::mount("tmpfs", path_.c_str(), "tmpfs", MS_REMOUNT | (read_only ? MS_RDONLY : 0),
                   nullptr) == 0;
  }
  // Fills the disk to the last byte with a ballast file.
  void fill() {
    std::ofstream ballast(path_ + "/ballast", std::ios::binary);
    std::string block(1 << 16, 'x');
    while (ballast.write(block.data(), block.size())) {
    }
    ballast.close();
    std::ofstream small(path_ + "/ballast2", std::ios::binary);
    while (small.put('x')) small.flush();
  }
  void free_space() {
    std::filesystem::remove(path_ + "/ballast");
    std::filesystem::remove(path_ + "/ballast2");
  }

 private:
  std::string path_;
  bool mounted_ = false;
};

// Writes fail with 503 and say why, reads go on, nothing acknowledged is lost, and writes work
// again once the disk does. The data directory is the small disk itself.
class Unwritable : public ::testing::Test {
 protected:
  void SetUp() override {
    disk_ = std::make_unique<SmallDisk>(dir_.sub("data"), 16);
    if (!disk_->mounted()) GTEST_SKIP() << "mounting a tmpfs needs root (CI runs as root)";
    auto flags = kUnlimited;
    flags.insert(flags.end(), {"--min-free-space", "4"});  // MiB, of the 16
    daemon_ = std::make_unique<TallydProcess>(dir_.sub("data"), flags);
    daemon_->start();
    cup_ = make_cup(*daemon_, 6);
    HttpClient eva = daemon_->client(cup_.judge_token);
    for (int t = 1; t <= 3; ++t) {
      expect_status(eva.put(cup_table(t), cup_result(t, t, 10), cup_precondition(0)), 201,
                    "a result");
    }
    version_ = 1;
  }
  void TearDown() override {
    if (HasFailure() && daemon_)
      std::fprintf(stderr, "tallyd's log:\n%s\n", daemon_->log().c_str());
    if (daemon_ && daemon_->running()) daemon_->stop();
    daemon_.reset();
    disk_.reset();
  }

  // Corrects table 1 (the next version); returns the status.
  int correct_table_1() {
    HttpClient eva = daemon_->client(cup_.judge_token);
    auto r = eva.put(cup_table(1), cup_result(1, static_cast<int>(version_), 3, "recount"),
                     cup_precondition(version_));
    if (r.status == 200) ++version_;
    if (r.status == 503) {
      EXPECT_EQ(r.header("Content-Type"), "application/problem+json");
      EXPECT_NE(r.json().at("detail").as_string().find("cannot write"), std::string::npos)
          << r.body;
      EXPECT_FALSE(r.header("Retry-After").empty());
      refusal_ = std::string(r.json().at("detail").as_string());
    } else {
      EXPECT_EQ(r.status, 200) << r.body;
    }
    return r.status;
  }

  // While writes are refused: they stay refused, reads work and show exactly `expected`.
  void expect_refused_and_readable(const json::object& expected) {
    for (int i = 0; i < 3; ++i) EXPECT_EQ(correct_table_1(), 503);
    EXPECT_EQ(state_of(*daemon_), expected);
    EXPECT_EQ(daemon_->organizer().get("/healthz").status, 200);
  }

  // Writes work again; everything acknowledged is there, also after a restart.
  void expect_writes_resume(std::uint64_t events_before) {
    EXPECT_EQ(correct_table_1(), 200);
    EXPECT_EQ(events_of(*daemon_), events_before + 1);
    auto now = state_of(*daemon_);
    EXPECT_EQ(daemon_->stop(), 0);
    daemon_->start();
    EXPECT_EQ(state_of(*daemon_), now);
    EXPECT_EQ(events_of(*daemon_), events_before + 1);
  }

  TempDir dir_;
  std::unique_ptr<SmallDisk> disk_;
  std::unique_ptr<TallydProcess> daemon_;
  Cup cup_;
  std::uint64_t version_ = 0;
  std::string refusal_;
};

TEST_F(Unwritable, AFullDiskRefusesWritesWith503KeepsReadsAndResumesWhenSpaceReturns) {
  disk_->fill();
  // tallyd refuses before RocksDB meets the full disk (it keeps --min-free-space in reserve).
  EXPECT_EQ(correct_table_1(), 503);
  EXPECT_NE(refusal_.find("not enough free disk space: 0 MiB free, 4 MiB kept in reserve"),
            std::string::npos)
      << refusal_;
  auto state = state_of(*daemon_);
  std::uint64_t events = events_of(*daemon_);
  EXPECT_EQ(version_in(state.at("round").at("tables").at(0)), version_);  // every acknowledged one
  expect_refused_and_readable(state);
  disk_->free_space();
  expect_writes_resume(events);
}

TEST_F(Unwritable, AReadOnlyDataDirectoryServesReadsAndRefusesWritesWith503) {
  auto state = state_of(*daemon_);
  std::uint64_t events = events_of(*daemon_);
  ASSERT_EQ(daemon_->stop(), 0);
  ASSERT_TRUE(disk_->remount(true));
  daemon_->start();
  expect_refused_and_readable(state);
  EXPECT_NE(refusal_.find("read-only"), std::string::npos) << refusal_;
  EXPECT_NE(daemon_->log().find("serving reads only"), std::string::npos);
  ASSERT_EQ(daemon_->stop(), 0);
  ASSERT_TRUE(disk_->remount(false));
  daemon_->start();
  expect_writes_resume(events);
}

// --- the projections are the same however they are reached ----------------------------------

TEST(Projections, TheStandingsAfterEachWriteEqualAFoldOfTheLogUpToItsSeq) {
  TempDir dir;
  TallydProcess daemon(dir.sub("data"), kUnlimited);
  daemon.start();
  Cup cup = make_cup(daemon, 5);
  HttpClient eva = daemon.client(cup.judge_token);
  std::mt19937 random(7);
  std::map<int, std::uint64_t> version;
  std::vector<std::pair<std::uint64_t, json::value>> seen;  // seq → the live standings then
  for (int i = 0; i < 30; ++i) {
    int table = 1 + static_cast<int>(random() % 5);
    auto r = eva.put(cup_table(table),
                     cup_result(table, static_cast<int>(random() % 30),
                                static_cast<int>(random() % 30), version[table] ? "corrected" : ""),
                     cup_precondition(version[table]));
    ASSERT_TRUE(r.status == 200 || r.status == 201) << r.body;
    version[table] = std::stoull(r.header("ETag").substr(1));
    seen.emplace_back(seq_of(r),
                      daemon.organizer().get("/v1/tournaments/cup/standings").json().at("rows"));
  }
  for (const auto& [seq, rows] : seen) {
    auto folded =
        daemon.organizer().get("/v1/tournaments/cup/standings?as_of=" + std::to_string(seq)).json();
    EXPECT_EQ(folded.at("rows"), rows) << "as_of=" << seq;
  }
}

TEST(Projections, ReplayingTheLogTwiceGivesIdenticalState) {
  TempDir dir;
  TallydProcess daemon(dir.sub("data"), kUnlimited);
  daemon.start();
  Cup cup = make_cup(daemon, 4);
  HttpClient eva = daemon.client(cup.judge_token);
  for (int t = 1; t <= 4; ++t)
    expect_status(eva.put(cup_table(t), cup_result(t, t, 5), cup_precondition(0)), 201, "a result");
  expect_status(eva.put(cup_table(2), cup_result(2, 9, 1, "swapped"), cup_precondition(1)), 200,
                "a correction");
  auto live = state_of(daemon);
  ASSERT_EQ(daemon.stop(), 0);
  daemon.start();
  auto first = state_of(daemon);
  ASSERT_EQ(daemon.stop(), 0);
  daemon.start();
  EXPECT_EQ(state_of(daemon), first);
  EXPECT_EQ(first, live);
}

TEST(Projections, AnyInterleavingOfJudgesOnDifferentTablesGivesTheSameStandings) {
  constexpr int kTables = 8;
  // The same results (with one correction per table), entered in three different ways.
  auto enter = [](const TallydProcess& daemon, const Cup& cup, int table) {
    HttpClient judge = daemon.client(cup.judge_token);
    expect_status(judge.put(cup_table(table), cup_result(table, table * 3 % 11, table * 5 % 13),
                            cup_precondition(0)),
                  201, "a result");
    expect_status(
        judge.put(cup_table(table), cup_result(table, table * 7 % 11, table * 2 % 13, "recount"),
                  cup_precondition(1)),
        200, "a correction");
  };
  std::vector<json::value> standings;
  for (int way = 0; way < 3; ++way) {
    TempDir dir;
    TallydProcess daemon(dir.sub("data"), kUnlimited);
    daemon.start();
    Cup cup = make_cup(daemon, kTables);
    std::vector<int> order(kTables);
    for (int t = 0; t < kTables; ++t) order[t] = t + 1;
    if (way == 0) {
      for (int t : order) enter(daemon, cup, t);  // one judge, table 1 to 8
    } else if (way == 1) {
      std::reverse(order.begin(), order.end());
      for (int t : order) enter(daemon, cup, t);  // one judge, table 8 to 1
    } else {
      std::vector<std::thread> judges;  // eight judges at once
      for (int t : order) judges.emplace_back([&, t] { enter(daemon, cup, t); });
      for (auto& j : judges) j.join();
    }
    standings.push_back(daemon.organizer().get("/v1/tournaments/cup/standings").json().at("rows"));
  }
  EXPECT_EQ(standings[1], standings[0]);
  EXPECT_EQ(standings[2], standings[0]);
  EXPECT_FALSE(standings[0].as_array().empty());
}

}  // namespace
}  // namespace tally::testing
