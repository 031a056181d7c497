// Replay at start versus a raw RocksDB scan of the same log, in one run.
//
// Builds a store of N events shaped like real tournaments (Catan: registrations, seatings, table
// results, claims, corrections), then times
//   raw scan — a RocksDB iterator over the log column family touching every key and value;
//   replay   — what tallyd does at start: daemon::replay(), which reads every event and folds
//              it into the projections (daemon::LiveState), reading and folding on two threads.
//
//   build/release/bench/bench-replay [EVENTS=1000000] [--json FILE] [--keep DIR]
#include "bench/options.hpp"
#include "daemon/live_state.hpp"
#include "daemon/replay.hpp"
#include "events/store.hpp"
#include "projections/games.hpp"

#include <rocksdb/db.h>
#include <boost/json.hpp>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>

namespace {

using namespace tally;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Minor page faults of the process so far: each is a page of memory touched for the first time,
// which costs from under a microsecond to several on a virtual machine, so replay/scan moves
// with how much the fold allocates (the reason RSS is reported beside it).
long minor_faults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

// CPU time of the process in the kernel so far, both threads. During the replay it is almost all
// first touches of the heap it grows (the kernel zeroing each new page). On a paravirtualised
// guest whose balloon reports free pages to the host, a page the guest has not used lately is
// backed again by the host inside that zeroing: from 0.1 to 2.5 ms per MiB on the same machine
// minutes apart (docs/performance.md "Replay at start"), which is most of the replay's spread.
double system_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
}

// CPU time of the process in user space so far, every thread. Beside the kernel time and the
// replay's own duration it says whether two cores were the limit (user + kernel ≈ 2 × duration).
double user_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6;
}

long rss_mib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6)) / 1024;
  }
  return -1;
}

events::Draft result_draft(const std::vector<std::string>& players, int variant) {
  events::Draft d;
  auto e = d.event();
  e.setAuthor("j" + std::to_string(variant % 7));
  auto list = e.getPayload().initCatanResult().initPlayers(static_cast<unsigned>(players.size()));
  for (unsigned i = 0; i < players.size(); ++i) {
    list[i].setPlayer(players[i]);
    list[i].setSettlements(2 + static_cast<int>((i + variant) % 3));
    list[i].setCities(1 + static_cast<int>(i % 3));
    list[i].setVpCards(0);
    list[i].setKnights(static_cast<int>(i));
    list[i].setRoads(5 + static_cast<int>(i));
    list[i].setLongestRoad(3 + static_cast<int>(i));
    list[i].setLargestArmy(i == 3);
    list[i].setLongestRoadHolder(i == 3);
  }
  return d;
}

// Appends tournaments of 40 players, 10 rounds of 10 tables, a result per table, a claim at
// every tenth table and a correction at every twentieth, until `target` events exist.
void build_store(events::EventStore& store, std::uint64_t target) {
  int tournament = 0;
  while (store.head().seq < target) {
    std::string id = "t" + std::to_string(++tournament);
    events::AppendRequest setup;
    setup.stream = projections::tournament_stream(id);
    {
      events::Draft d;
      auto c = d.event().getPayload().initTournamentCreated();
      c.setId(id);
      c.setName("Bench " + id);
      c.setGame("catan");
      c.setLocale("cs");
      c.setRules("{}");
      setup.events.push_back(std::move(d));
    }
    for (int p = 1; p <= 40; ++p) {
      events::Draft d;
      auto r = d.event().getPayload().initPlayerRegistered();
      r.setId("p" + std::to_string(p));
      r.setName("Hráč číslo " + std::to_string(p));
      setup.events.push_back(std::move(d));
    }
    for (int round = 1; round <= 10; ++round) {
      events::Draft d;
      auto seated = d.event().getPayload().initRoundSeated();
      seated.setRound(static_cast<std::uint32_t>(round));
      seated.setMethod(schema::SeatingMethod::RANDOM);
      seated.setSeed(static_cast<std::uint64_t>(round) * 7919);
      auto tables = seated.initTables(10);
      for (unsigned t = 0; t < 10; ++t) {
        tables[t].setTable(t + 1);
        auto players = tables[t].initPlayers(4);
        for (unsigned s = 0; s < 4; ++s)
          players.set(s, "p" + std::to_string((t * 4 + s + round) % 40 + 1));
      }
      setup.events.push_back(std::move(d));
    }
    store.append(std::move(setup));
    for (int round = 1; round <= 10; ++round) {
      for (unsigned t = 0; t < 10; ++t) {
        std::vector<std::string> players;
        for (unsigned s = 0; s < 4; ++s)
          players.push_back("p" + std::to_string((t * 4 + s + round) % 40 + 1));
        events::AppendRequest table;
        table.stream = projections::table_stream(id, static_cast<std::uint32_t>(round), t + 1);
        table.events.push_back(result_draft(players, static_cast<int>(t)));
        if (t % 10 == 0) {
          events::Draft claim;
          claim.event().getPayload().initClaimedWin().setPlayer(players[0]);
          table.events.push_back(std::move(claim));
        }
        auto first = store.append(std::move(table));
        if ((t + static_cast<unsigned>(round)) % 20 == 0) {
          events::AppendRequest fix;
          fix.stream = projections::table_stream(id, static_cast<std::uint32_t>(round), t + 1);
          auto d = result_draft(players, static_cast<int>(t) + 1);
          d.event().setSupersedes(first.first_seq);
          d.event().setReason("VP cards miscounted");
          fix.events.push_back(std::move(d));
          store.append(std::move(fix));
        }
      }
    }
  }
}

struct Scan {
  std::uint64_t events = 0;
  std::uint64_t bytes = 0;
  double seconds = 0;
};

Scan raw_scan(const std::string& dir) {
  std::vector<rocksdb::ColumnFamilyDescriptor> families;
  for (const char* name : {"default", "log", "streams", "idempotency", "meta"}) {
    families.emplace_back(name, rocksdb::ColumnFamilyOptions());
  }
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* db = nullptr;
  if (!rocksdb::DB::OpenForReadOnly(rocksdb::DBOptions(), dir, families, &handles, &db).ok()) {
    throw std::runtime_error("cannot open the store read-only");
  }
  Scan out;
  auto start = Clock::now();
  rocksdb::ReadOptions options;
  options.readahead_size = 2 << 20;
  std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(options, handles[1]));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    ++out.events;
    out.bytes += it->key().size() + it->value().size();
  }
  out.seconds = seconds_since(start);
  it.reset();
  for (auto* h : handles) db->DestroyColumnFamilyHandle(h);
  delete db;
  return out;
}

// What the projections keep after the replay, by kind, as bytes the allocator hands out (each
// event's bytes with its 56-byte bookkeeping; the containers' own nodes are left out, so the sum
// is below the RSS they take). Says what the RSS per event is made of.
struct Kept {
  std::uint64_t tournaments = 0, players = 0, seated_tables = 0, tables = 0, actions = 0;
  std::uint64_t action_bytes = 0, seating_bytes = 0;
};

Kept kept_by_kind(const daemon::LiveState& state) {
  Kept k;
  for (const auto& [id, t] : state.tournaments()) {
    ++k.tournaments;
    k.players += t.players.size();
    for (const auto& round : t.rounds) {
      k.seated_tables += round.tables.size();
      for (const auto& table : round.tables) {
        k.seating_bytes += sizeof table + table.players.capacity() * sizeof(std::string) +
                           table.rating_leagues.capacity() * sizeof(std::string);
      }
    }
    for (const auto& [key, table] : t.tables) {
      ++k.tables;
      for (const auto& action : table.actions) {
        ++k.actions;
        k.action_bytes += 56 + action.event.bytes().size();
      }
    }
  }
  return k;
}

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t target = 1000000;
  std::string json_path, keep;
  tally::bench::BenchOptions options("bench-replay",
                                     "replay of a store of N events, against a raw scan of it");
  options.positional("events", target, "events in the store (also the one word without a flag)")
      .add("json", json_path, "write the figures there as JSON")
      .add("keep", keep, "build the store in DIR once and reuse it (for profiling)");
  options.parse(argc, argv);
  auto dir = keep.empty() ? std::filesystem::temp_directory_path() /
                                ("tally-bench-replay-" + std::to_string(std::random_device{}()))
                          : std::filesystem::path(keep);
  bool reuse = !keep.empty() && std::filesystem::exists(dir / "store");
  std::filesystem::create_directories(dir);
  std::string store_dir = (dir / "store").string();

  auto build_start = Clock::now();
  if (!reuse) {
    events::StoreOptions options;
    options.sync = false;  // building the fixture only; durability is measured elsewhere
    events::EventStore store(store_dir, options);
    build_store(store, target);
  }
  // Reopen once: RocksDB moves what the build left in its write-ahead log into table files, as
  // any restart of tallyd does. Without this the raw scan (a read-only open) would iterate a
  // memtable rebuilt from the log, while the replay reads compressed table files: not the same
  // log on disk.
  { events::EventStore settle(store_dir); }
  double build_seconds = seconds_since(build_start);

  // Warm the page cache the same way for both: one untimed pass.
  raw_scan(store_dir);
  Scan scan = raw_scan(store_dir);

  // The store's own scan, decoding every event but folding nothing: what replay costs beyond it
  // is the projections' share.
  Scan decode;
  {
    events::EventStore store(store_dir);
    auto start = Clock::now();
    store.read_view().scan(1, [&](const schema::StoredEvent& e) {
      ++decode.events;
      decode.bytes += e.event().getSeq() != 0;
      return true;
    });
    decode.seconds = seconds_since(start);
  }

  auto games = projections::standard_games();
  Scan replay;
  long rss_before = rss_mib(), rss_after = 0, faults = 0;
  double system = 0, user = 0;
  {
    events::EventStore store(store_dir);
    daemon::LiveState state(*games);
    long faults_before = minor_faults();
    double system_before = system_seconds(), user_before = user_seconds();
    auto start = Clock::now();
    replay.events = daemon::replay(store, state);
    replay.seconds = seconds_since(start);
    faults = minor_faults() - faults_before;
    system = system_seconds() - system_before;
    user = user_seconds() - user_before;
    rss_after = rss_mib();  // with the projections alive, as a started tallyd holds them
    Kept k = state.read([](const daemon::LiveState& s) { return kept_by_kind(s); });
    std::printf(
        "replayed into %llu tournaments: %llu players, %llu seated tables (%.0f MiB), "
        "%llu tables with %llu actions in effect (%.0f MiB, %.0f bytes each)\n",
        static_cast<unsigned long long>(k.tournaments), static_cast<unsigned long long>(k.players),
        static_cast<unsigned long long>(k.seated_tables), k.seating_bytes / 1048576.0,
        static_cast<unsigned long long>(k.tables), static_cast<unsigned long long>(k.actions),
        k.action_bytes / 1048576.0,
        k.actions ? static_cast<double>(k.action_bytes) / k.actions : 0.0);
  }

  double scan_rate = scan.events / scan.seconds, replay_rate = replay.events / replay.seconds;
  std::printf("events %llu (built in %.1f s)\n", static_cast<unsigned long long>(scan.events),
              build_seconds);
  std::printf("raw RocksDB scan: %8.3f s  %10.0f events/s  %6.1f MiB\n", scan.seconds, scan_rate,
              scan.bytes / 1048576.0);
  std::printf("store scan+decode:%8.3f s  %10.0f events/s\n", decode.seconds,
              decode.events / decode.seconds);
  std::printf("replay (fold):    %8.3f s  %10.0f events/s\n", replay.seconds, replay_rate);
  std::printf("replay / scan speed: %.2f  (target >= 0.50)\n", replay_rate / scan_rate);
  std::printf("RSS: %ld MiB before replay, %ld MiB after (%.0f bytes per event)\n", rss_before,
              rss_after, (rss_after - rss_before) * 1048576.0 / replay.events);
  std::printf(
      "minor page faults during replay: %ld (%.1f per 1,000 events); kernel time %.2f s "
      "(%.2f ms per MiB of RSS growth)\n",
      faults, faults * 1000.0 / replay.events, system,
      system * 1000 / std::max(1L, rss_after - rss_before));
  std::printf("CPU during replay: %.2f s user + %.2f s kernel = %.2f of its %.3f s on %u cores\n",
              user, system, (user + system) / replay.seconds, replay.seconds,
              std::thread::hardware_concurrency());
  if (!json_path.empty()) {
    boost::json::object out{{"events", scan.events},
                            {"scan_seconds", scan.seconds},
                            {"replay_seconds", replay.seconds},
                            {"scan_events_per_second", scan_rate},
                            {"replay_events_per_second", replay_rate},
                            {"replay_to_scan", replay_rate / scan_rate},
                            {"rss_mib_before_replay", rss_before},
                            {"rss_mib_after_replay", rss_after},
                            {"minor_faults_during_replay", faults},
                            {"kernel_seconds_during_replay", system},
                            {"user_seconds_during_replay", user}};
    std::ofstream(json_path) << boost::json::serialize(out) << "\n";
  }
  if (keep.empty()) std::filesystem::remove_all(dir);
  return 0;
}
