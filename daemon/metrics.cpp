#include "daemon/metrics.hpp"

#include <sstream>

namespace tally::daemon {

namespace {

// Label values escape backslash, quote and newline.
std::string label(const std::string& value) {
  std::string out;
  for (char c : value) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

}  // namespace

void Metrics::Histogram::observe(double seconds) {
  for (std::size_t i = 0; i < kBuckets.size(); ++i) {
    if (seconds <= kBuckets[i]) {
      ++counts[i];
      break;
    }
  }
  ++count;
  sum += seconds;
}

void Metrics::count_request(const std::string& route, const std::string& method, int status,
                            double seconds) {
  std::lock_guard lock(mutex_);
  ++requests_[{route, method, status}];
  request_seconds_[route].observe(seconds);
}

void Metrics::observe_append(double seconds) {
  std::lock_guard lock(mutex_);
  append_seconds_.observe(seconds);
}

std::string Metrics::render(std::uint64_t events_total, std::uint64_t projection_lag) const {
  std::ostringstream out;
  auto histogram = [&](const std::string& name, const std::string& labels, const Histogram& h) {
    std::uint64_t cumulative = 0;
    std::string sep = labels.empty() ? "" : ",";
    for (std::size_t i = 0; i < kBuckets.size(); ++i) {
      cumulative += h.counts[i];
      out << name << "_bucket{" << labels << sep << "le=\"" << kBuckets[i] << "\"} " << cumulative
          << "\n";
    }
    out << name << "_bucket{" << labels << sep << "le=\"+Inf\"} " << h.count << "\n";
    std::string braces = labels.empty() ? "" : "{" + labels + "}";
    out << name << "_sum" << braces << " " << h.sum << "\n";
    out << name << "_count" << braces << " " << h.count << "\n";
  };

  std::lock_guard lock(mutex_);
  out << "# HELP tallyd_http_requests_total HTTP requests by route pattern, method and status.\n"
      << "# TYPE tallyd_http_requests_total counter\n";
  for (const auto& [key, n] : requests_) {
    const auto& [route, method, status] = key;
    out << "tallyd_http_requests_total{route=\"" << label(route) << "\",method=\"" << method
        << "\",status=\"" << status << "\"} " << n << "\n";
  }
  out << "# HELP tallyd_http_request_duration_seconds Time from a request read to its answer.\n"
      << "# TYPE tallyd_http_request_duration_seconds histogram\n";
  for (const auto& [route, h] : request_seconds_) {
    histogram("tallyd_http_request_duration_seconds", "route=\"" + label(route) + "\"", h);
  }
  out << "# HELP tallyd_append_duration_seconds From handing events to the store to their durable "
         "ack.\n"
      << "# TYPE tallyd_append_duration_seconds histogram\n";
  histogram("tallyd_append_duration_seconds", "", append_seconds_);
  out << "# HELP tallyd_events_total Events in the log.\n"
      << "# TYPE tallyd_events_total counter\n"
      << "tallyd_events_total " << events_total << "\n";
  out << "# HELP tallyd_live_clients Connected live (WebSocket) clients, as max_screens counts "
         "them.\n"
      << "# TYPE tallyd_live_clients gauge\n"
      << "tallyd_live_clients " << (gauges_.live_clients ? gauges_.live_clients() : 0) << "\n";
  if (gauges_.open_connections) {
    out << "# HELP tallyd_open_connections Open connections, HTTP and live.\n"
        << "# TYPE tallyd_open_connections gauge\n"
        << "tallyd_open_connections " << gauges_.open_connections() << "\n";
  }
  if (gauges_.http_connections) {
    out << "# HELP tallyd_http_connections Open HTTP connections (live screens not included), as "
           "max_connections counts them.\n"
        << "# TYPE tallyd_http_connections gauge\n"
        << "tallyd_http_connections " << gauges_.http_connections() << "\n";
  }
  if (gauges_.refused_connections) {
    out << "# HELP tallyd_connections_refused_total Connections refused when they opened: "
           "max_connections, per_address (max_connections_per_address) or reserved (a stranger "
           "in a slot kept for tokens that showed none).\n"
        << "# TYPE tallyd_connections_refused_total counter\n";
    for (const auto& [reason, count] : gauges_.refused_connections()) {
      out << "tallyd_connections_refused_total{reason=\"" << reason << "\"} " << count << "\n";
    }
  }
  if (gauges_.standby) {
    auto s = gauges_.standby();
    out << "# HELP tallyd_standbys_required Followers that must have a write before it is "
           "answered (replicas_ack).\n"
        << "# TYPE tallyd_standbys_required gauge\n"
        << "tallyd_standbys_required " << s.required << "\n"
        << "# HELP tallyd_standbys_present Followers that asked for the log in the last 5 s.\n"
        << "# TYPE tallyd_standbys_present gauge\n"
        << "tallyd_standbys_present " << s.present << "\n"
        << "# HELP tallyd_writes_waiting_for_standby Write answers held for the standbys now.\n"
        << "# TYPE tallyd_writes_waiting_for_standby gauge\n"
        << "tallyd_writes_waiting_for_standby " << s.waiting << "\n"
        << "# HELP tallyd_writes_answered_alone_total Writes answered without a standby's copy "
           "(replicas_ack_missing = alone).\n"
        << "# TYPE tallyd_writes_answered_alone_total counter\n"
        << "tallyd_writes_answered_alone_total " << s.answered_alone << "\n"
        << "# HELP tallyd_writes_standby_timeout_total Writes answered 503: no standby confirmed "
           "them in time.\n"
        << "# TYPE tallyd_writes_standby_timeout_total counter\n"
        << "tallyd_writes_standby_timeout_total " << s.timed_out << "\n";
  }
  if (gauges_.fenced) {
    out << "# HELP tallyd_fenced 1 when this server is a former primary (it takes no write).\n"
        << "# TYPE tallyd_fenced gauge\n"
        << "tallyd_fenced " << (gauges_.fenced() ? 1 : 0) << "\n";
  }
  out << "# HELP tallyd_projection_lag_events Events durable in the log but not yet in the "
         "projections.\n"
      << "# TYPE tallyd_projection_lag_events gauge\n"
      << "tallyd_projection_lag_events " << projection_lag << "\n";
  return out.str();
}

}  // namespace tally::daemon
