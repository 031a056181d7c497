// Prometheus metrics (text exposition format 0.0.4) for GET /metrics: requests by route, method
// and status; append latency as a histogram; events total; live WebSocket clients (what
// max_screens counts); open connections, all of them and HTTP ones (what max_connections
// counts); projection lag.
//
// Thread safety: every method may be called from any thread (one mutex; updates are tiny).
#pragma once

#include "daemon/replication/standby_acks.hpp"

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace tally::daemon {

class Metrics {
 public:
  void count_request(const std::string& route, const std::string& method, int status,
                     double seconds);
  // From the moment a write is handed to the store until it is acknowledged durable.
  void observe_append(double seconds);
  // Gauges whose owners keep the count, read when /metrics is rendered: open connections, HTTP
  // and live, and the HTTP ones as max_connections counts them (the server), and live screens as
  // max_screens counts them (the hub).
  struct Gauges {
    std::function<std::size_t()> open_connections;
    std::function<std::size_t()> http_connections;
    std::function<std::size_t()> live_clients;
    // Connections refused at accept, by reason (Admission::Refusal), as counters.
    std::function<std::vector<std::pair<std::string, std::uint64_t>>()> refused_connections;
    // Synchronous standbys (replicas_ack), when set: the figures of StandbyAcks::State, and
    // whether this server is a former primary.
    std::function<StandbyAcks::State()> standby;
    std::function<bool()> fenced;
  };
  // Set once the server and the hub exist.
  void read_gauges_from(Gauges gauges) {
    std::lock_guard lock(mutex_);
    gauges_ = std::move(gauges);
  }

  std::string render(std::uint64_t events_total, std::uint64_t projection_lag) const;

 private:
  static constexpr std::array<double, 12> kBuckets = {0.0005, 0.001, 0.002, 0.005, 0.01, 0.02,
                                                      0.05,   0.1,   0.25,  0.5,   1.0,  2.5};
  struct Histogram {
    std::array<std::uint64_t, kBuckets.size()> counts{};  // cumulative when rendered
    std::uint64_t count = 0;
    double sum = 0;
    void observe(double seconds);
  };

  mutable std::mutex mutex_;
  std::map<std::tuple<std::string, std::string, int>, std::uint64_t>
      requests_;                                      // GUARDED_BY(mutex_)
  std::map<std::string, Histogram> request_seconds_;  // GUARDED_BY(mutex_)
  Histogram append_seconds_;                          // GUARDED_BY(mutex_)
  Gauges gauges_;                                     // GUARDED_BY(mutex_)
};

}  // namespace tally::daemon
