// The event store's own append API: durable (synced) appends per second with 1, 8 and 64
// concurrent writers, each writer on its own table stream as judges are at a venue. Group commit
// is what makes many writers faster than the disk's sync rate.
//
// Two ways in: append() from one OS thread per writer (BM_StoreAppendSynced: each append blocks
// its thread, as the peers' benchmark clients block theirs), and append_async() with one append
// in flight per writer (BM_StoreAppendAsync: the call tallyd's HTTP layer makes, its next append
// issued from the completion), which measures the store without the cost of waking 64 threads.
//
//   build/release/bench/bench-store --benchmark_counters_tabular=true
#include "events/store.hpp"

#include <benchmark/benchmark.h>

#include <filesystem>
#include <functional>
#include <future>
#include <memory>
#include <random>

namespace {

using namespace tally::events;

std::string bench_dir() {
  auto dir = std::filesystem::temp_directory_path() /
             ("tally-bench-" + std::to_string(std::random_device{}()));
  std::filesystem::create_directories(dir);
  return dir.string();
}

std::unique_ptr<EventStore> store;
std::string store_dir;

// A Catan result for a 4-player table: the payload judges append most.
Draft result_draft() {
  Draft d;
  auto e = d.event();
  e.setAuthor("judge-7");
  auto players = e.getPayload().initCatanResult().initPlayers(4);
  for (unsigned i = 0; i < 4; ++i) {
    players[i].setPlayer("player-" + std::to_string(i));
    players[i].setSettlements(3);
    players[i].setCities(2);
    players[i].setRoads(9);
    players[i].setLongestRoad(5);
    players[i].setKnights(1);
  }
  return d;
}

void durable_appends(benchmark::State& state, bool sync) {
  if (state.thread_index() == 0) {
    store_dir = bench_dir();
    StoreOptions options;
    options.sync = sync;
    store = std::make_unique<EventStore>(store_dir, options);
  }
  std::string stream = "t/bench/r/1/table/" + std::to_string(state.thread_index() + 1);
  std::uint64_t version = 0;
  for (auto _ : state) {
    AppendRequest r;
    r.stream = stream;
    r.expected = ExpectedVersion::exactly(version);
    r.events.push_back(result_draft());
    auto result = store->append(std::move(r));
    if (result.status != AppendStatus::appended) state.SkipWithError("append refused");
    version = result.stream_version;
  }
  state.SetItemsProcessed(state.iterations());
  if (state.thread_index() == 0) {
    // Google Benchmark waits for every thread at the end of the loop, so nobody appends now.
    store.reset();
    std::filesystem::remove_all(store_dir);
    store_dir.clear();
  }
}

// `state.range(0)` writers, each with one append in flight; an iteration is kAppendsPerRound
// synced appends over all of them.
void BM_StoreAppendAsync(benchmark::State& state) {
  constexpr int kAppendsPerRound = 20000;
  const int writers = static_cast<int>(state.range(0));
  std::string dir = bench_dir();
  auto async_store = std::make_unique<EventStore>(dir);
  struct Writer {
    std::string stream;
    std::uint64_t version = 0;
  };
  std::vector<Writer> all(writers);
  for (int w = 0; w < writers; ++w) all[w].stream = "t/bench/r/1/table/" + std::to_string(w + 1);

  for (auto _ : state) {
    // Touched by completions only, which run one at a time on the store's writer thread.
    int to_issue = kAppendsPerRound, to_finish = kAppendsPerRound;
    bool refused = false;
    std::promise<void> round_done;
    std::function<void(Writer&)> issue = [&](Writer& writer) {
      --to_issue;
      AppendRequest r;
      r.stream = writer.stream;
      r.expected = ExpectedVersion::exactly(writer.version);
      r.events.push_back(result_draft());
      async_store->append_async(std::move(r), [&](AppendResult result) {
        if (result.status != AppendStatus::appended) refused = true;
        writer.version = result.stream_version;
        if (to_issue > 0) issue(writer);
        if (--to_finish == 0) round_done.set_value();
      });
    };
    auto finished = round_done.get_future();
    for (int w = 0; w < writers && to_issue > 0; ++w) issue(all[w]);
    finished.wait();
    if (refused) state.SkipWithError("append refused");
  }
  state.SetItemsProcessed(state.iterations() * kAppendsPerRound);
  async_store.reset();
  std::filesystem::remove_all(dir);
}

void BM_StoreAppendSynced(benchmark::State& state) { durable_appends(state, true); }
void BM_StoreAppendUnsynced(benchmark::State& state) { durable_appends(state, false); }

BENCHMARK(BM_StoreAppendSynced)->Threads(1)->Threads(8)->Threads(64)->UseRealTime()->MinTime(2.0);
BENCHMARK(BM_StoreAppendAsync)
    ->Arg(8)
    ->Arg(64)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond)
    ->MinTime(2.0);
BENCHMARK(BM_StoreAppendUnsynced)->Threads(1)->Threads(64)->UseRealTime()->MinTime(1.0);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
}
