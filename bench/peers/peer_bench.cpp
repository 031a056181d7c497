// tally-peer-bench: tally-loadgen's judges, pointed at a peer instead of tallyd.
//
// --clients connections (one thread each, like tally-loadgen's writers) append the same result
// bodies tally-loadgen sends to tallyd (result_body.hpp), each to the peer's log with its table's
// stream, as fast as they are acknowledged; one subscriber is told of every event. Reports
// throughput, write latency and write → subscriber delivery (p50/p99/p99.9), and the server's
// memory, as a table and as JSON with tally-loadgen's keys.
//
//   tally-peer-bench --peer redis --server 127.0.0.1:6379 --clients 64 --writes 30000
//   tally-peer-bench --peer postgres --conninfo "host=127.0.0.1 port=5432 dbname=postgres"
//                    --clients 64 --writes 30000 [--pid PID] [--json out.json]
//
// --peer postgres-insert: PostgreSQL's INSERT without NOTIFY and without a subscriber (see
// postgres_peer.cpp) — a reference point, not a peer.
#include "peer.hpp"
#include "process_memory.hpp"
#include "result_body.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

namespace {

namespace json = boost::json;
using Clock = std::chrono::steady_clock;
using namespace tally::bench;

struct Options {
  std::string peer;
  std::string host = "127.0.0.1";
  int port = 0;
  std::string conninfo;
  int clients = 64;
  int writes = 30000;
  int tables_per_client = 8;
  long pid = 0;
  std::string json_path;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string k = argv[i], v = argv[i + 1];
    if (k == "--peer") {
      o.peer = v;
    } else if (k == "--server") {
      o.host = v.substr(0, v.rfind(':'));
      o.port = std::stoi(v.substr(v.rfind(':') + 1));
    } else if (k == "--conninfo") {
      o.conninfo = v;
    } else if (k == "--clients") {
      o.clients = std::stoi(v);
    } else if (k == "--writes") {
      o.writes = std::stoi(v);
    } else if (k == "--tables-per-client") {
      o.tables_per_client = std::stoi(v);
    } else if (k == "--pid") {
      o.pid = std::stol(v);
    } else if (k == "--json") {
      o.json_path = v;
    } else {
      throw std::invalid_argument("unknown option " + k);
    }
  }
  if (o.peer != "redis" && o.peer != "postgres" && o.peer != "postgres-insert")
    throw std::invalid_argument("--peer must be redis, postgres or postgres-insert");
  return o;
}

// As tally-loadgen computes them.
double percentile(std::vector<double>& values, double p) {
  if (values.empty()) return 0;
  std::size_t i = std::min(values.size() - 1, static_cast<std::size_t>(p / 100.0 * values.size()));
  std::nth_element(values.begin(), values.begin() + static_cast<long>(i), values.end());
  return values[i];
}

json::object percentiles(std::vector<double>& values) {
  return {{"p50", percentile(values, 50)},
          {"p99", percentile(values, 99)},
          {"p999", percentile(values, 99.9)}};
}

struct Write {
  std::string id;
  Clock::time_point sent;
  Clock::time_point acked;
};

// Records when each event reached the subscriber, on a thread of its own. Without a subscriber,
// records nothing.
class Arrivals {
 public:
  explicit Arrivals(std::unique_ptr<Subscriber> subscriber)
      : subscriber_(std::move(subscriber)), thread_([this] { run(); }) {}

  bool measuring() const { return subscriber_ != nullptr; }

  // Waits until `count` events arrived or `patience` passed, then stops reading.
  void finish(std::size_t count, std::chrono::seconds patience) {
    if (!measuring()) count = 0;
    auto until = Clock::now() + patience;
    while (seen_ < count && Clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    stop_ = true;
    thread_.join();
  }

  // Only after finish().
  const std::unordered_map<std::string, Clock::time_point>& at() const { return at_; }
  const std::string& error() const { return error_; }

 private:
  void run() {
    try {
      while (subscriber_ && !stop_) {
        subscriber_->poll(std::chrono::milliseconds(100), [&](std::string_view id) {
          at_.emplace(std::string(id), Clock::now());
          ++seen_;
        });
      }
    } catch (const std::exception& e) {
      error_ = e.what();
    }
  }

  std::unique_ptr<Subscriber> subscriber_;
  std::unordered_map<std::string, Clock::time_point> at_;
  std::atomic<std::size_t> seen_{0};
  std::atomic<bool> stop_{false};
  std::string error_;
  std::thread thread_;  // last: starts once the members above exist
};

}  // namespace

int main(int argc, char** argv) try {
  Options o = parse(argc, argv);
  const std::string tournament = "load-peer";
  auto peer = o.peer == "redis" ? make_redis_peer(o.host, o.port, "t/" + tournament)
                                : make_postgres_peer(o.conninfo, o.peer == "postgres");
  auto settings = peer->prepare();

  Arrivals arrivals(peer->subscriber());
  // Every connection is open before the clock starts, as tally-loadgen's are (its judges connect
  // on their first request, which is a cost tallyd pays inside the timed part).
  std::vector<std::unique_ptr<Writer>> writers;
  for (int c = 0; c < o.clients; ++c) writers.push_back(peer->writer());

  std::mutex writes_mutex;
  std::vector<Write> writes;
  writes.reserve(o.writes);
  std::atomic<int> next_write{0}, failed{0};
  auto run_start = Clock::now();
  auto client = [&](int w) {
    std::vector<bool> entered(o.tables_per_client, false);
    std::mt19937 rng(w);
    for (;;) {
      int n = next_write++;
      if (n >= o.writes) return;
      int table = table_of_write(n, w, o.clients, o.tables_per_client);
      int local = table - w * o.tables_per_client - 1;
      std::string body = result_body(table, rng, entered[local]);
      auto sent = Clock::now();
      try {
        std::string id = writers[w]->append(table_stream(tournament, table), body);
        auto acked = Clock::now();
        entered[local] = true;
        std::lock_guard lock(writes_mutex);
        writes.push_back({std::move(id), sent, acked});
      } catch (const std::exception& e) {
        if (failed++ == 0) std::fprintf(stderr, "%s\n", e.what());
      }
    }
  };
  std::vector<std::thread> threads;
  for (int w = 0; w < o.clients; ++w) threads.emplace_back(client, w);
  for (auto& t : threads) t.join();
  double run_seconds = std::chrono::duration<double>(Clock::now() - run_start).count();
  // Sampled while every connection is still open (PostgreSQL has a process per connection).
  double memory = o.pid ? server_memory_mib(o.pid) : -1;

  arrivals.finish(writes.size(), std::chrono::seconds(10));
  writers.clear();

  std::vector<double> write_ms, event_ms;
  std::size_t missing = 0;
  for (const auto& w : writes) {
    write_ms.push_back(std::chrono::duration<double, std::milli>(w.acked - w.sent).count());
    if (!arrivals.measuring()) continue;
    auto a = arrivals.at().find(w.id);
    if (a == arrivals.at().end()) {
      ++missing;
    } else {
      event_ms.push_back(
          std::max(0.0, std::chrono::duration<double, std::milli>(a->second - w.acked).count()));
    }
  }

  json::object server;
  for (const auto& [k, v] : settings) server[k] = v;
  json::object out{{"peer", o.peer},
                   {"settings", server},
                   {"writers", o.clients},
                   {"screens", arrivals.measuring() ? 1 : 0},
                   {"writes", writes.size()},
                   {"refused", failed.load()},
                   {"seconds", run_seconds},
                   {"writes_per_second", writes.size() / run_seconds},
                   {"write_ms", percentiles(write_ms)},
                   {"event_delivery_ms", percentiles(event_ms)},
                   {"deliveries", event_ms.size()},
                   {"missing_events", missing},
                   {"server_rss_mib_loaded", memory}};
  if (!arrivals.measuring()) out["event_delivery_ms"] = nullptr;
  std::printf("%s: clients %d  writes %zu (failed %d) in %.2f s = %.0f/s\n", o.peer.c_str(),
              o.clients, writes.size(), failed.load(), run_seconds, writes.size() / run_seconds);
  std::printf("%-28s %9s %9s %9s\n", "ms", "p50", "p99", "p99.9");
  for (const char* key : {"write_ms", "event_delivery_ms"}) {
    if (!arrivals.measuring() && key == std::string("event_delivery_ms")) continue;
    const auto& p = out.at(key).as_object();
    std::printf("%-28s %9.2f %9.2f %9.2f\n", key, p.at("p50").as_double(), p.at("p99").as_double(),
                p.at("p999").as_double());
  }
  std::printf("deliveries %zu, missing %zu", event_ms.size(), missing);
  if (o.pid) std::printf(", server memory %.1f MiB", memory);
  std::printf("\n");
  if (!arrivals.error().empty()) std::fprintf(stderr, "subscriber: %s\n", arrivals.error().c_str());
  if (!o.json_path.empty()) std::ofstream(o.json_path) << json::serialize(out) << "\n";
  return failed == 0 && missing == 0 && arrivals.error().empty() ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "tally-peer-bench: %s\n", e.what());
  return 2;
}
