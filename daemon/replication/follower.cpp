#include "daemon/replication/follower.hpp"

#include "daemon/replication/promotion_proof.hpp"

#include "net/http_client.hpp"
#include "daemon/log.hpp"
#include "daemon/http/table_token.hpp"
#include "events/archive.hpp"

#include <chrono>
#include <sstream>

namespace tally::daemon {

using namespace std::chrono_literals;

namespace {

std::int64_t now_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// The `detail` of a problem answer, or the body as it is.
std::string detail_of(const tally::net::HttpReply& reply) {
  try {
    auto v = reply.json();
    if (v.is_object() && v.as_object().contains("detail") && v.at("detail").is_string()) {
      return std::string(v.at("detail").as_string());
    }
  } catch (const std::exception&) {
  }
  return reply.body.substr(0, 200);
}

}  // namespace

Follower::Follower(events::EventStore& store, const Leadership& leadership,
                   std::filesystem::path data, tally::net::ServerAddress primary, std::string token,
                   std::shared_ptr<boost::asio::ssl::context> tls)
    : store_(store),
      leadership_(leadership),
      data_(std::move(data)),
      primary_(std::move(primary)),
      token_(std::move(token)),
      tls_(std::move(tls)) {}

Follower::~Follower() { stop(); }

void Follower::start() {
  thread_ = std::thread([this] { run(); });
}

void Follower::stop() {
  stopping_ = true;
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

Follower::Status Follower::status() const {
  std::lock_guard lock(mutex_);
  return status_;
}

void Follower::set_state(std::string state, std::string problem) {
  std::lock_guard lock(mutex_);
  if (state != status_.state || problem != status_.problem) {
    // Said once per change, not once per attempt.
    boost::json::object fields{{"primary", primary_.url}, {"state", state}};
    if (!problem.empty()) fields["problem"] = problem;
    if (state == "refused" || state == "unauthorized") {
      log::error("replication: the primary is refused; nothing of ours is overwritten", fields);
    } else if (state == "disconnected") {
      log::warn("replication: the primary cannot be reached; trying again", fields);
    } else {
      log::info("replication", fields);
    }
  }
  status_.state = std::move(state);
  status_.problem = std::move(problem);
}

void Follower::pause(std::chrono::milliseconds how_long) {
  std::unique_lock lock(mutex_);
  wake_.wait_for(lock, how_long, [this] { return stopping_.load(); });
}

void Follower::keep_table_keys(tally::net::HttpClient& http) {
  tally::net::HttpReply reply = http.get("/v1/replication/table-keys");
  if (reply.status != 200) return;  // asked again with the next batch
  try {
    auto secret = boost::json::value_to<std::string>(reply.json().at("secret"));
    if (TableKeys::keep_primary_secret(data_, secret)) {
      log::info(
          "kept the primary's table-key secret: once promoted, this server accepts the QR "
          "codes printed on the primary",
          {{"primary", primary_.url}});
    }
    table_keys_kept_ = true;
  } catch (const std::exception& e) {
    log::warn("the primary's table-key secret could not be kept", {{"error", e.what()}});
    table_keys_kept_ = true;  // said once; the log still copies
  }
}

void Follower::run() {
  tally::net::HttpClient http(primary_.host, primary_.port, token_, tls_);
  http.cancel_on(&stopping_);  // stopping gives up the long poll in flight (TimeoutStopSec)
  while (!stopping_) {
    std::chrono::milliseconds wait = 0ms;
    try {
      wait = copy_once(http);
    } catch (const tally::net::RequestCancelled&) {
      break;
    } catch (const std::exception& e) {
      set_state("disconnected", e.what());
      wait = 1s;
    }
    if (wait > 0ms) pause(wait);
  }
}

std::chrono::milliseconds Follower::copy_once(tally::net::HttpClient& http) {
  events::Head head = store_.head();
  const std::uint64_t our_epoch = leadership_.epoch();
  std::string target = "/v1/replication/log?from=" + std::to_string(head.seq + 1) +
                       "&wait=" + std::to_string(kWaitSeconds) +
                       "&epoch=" + std::to_string(our_epoch);
  if (head.seq > 0) target += "&after=" + events::hex(head.hash);
  // A promoted log shows its promotion: a primary of an older epoch is fenced only by that proof.
  std::map<std::string, std::string> headers;
  if (our_epoch > 0) {
    if (proof_epoch_ != our_epoch) {
      proof_ = promotion_proof(store_.read_view()).value_or("");
      proof_epoch_ = our_epoch;
    }
    if (!proof_.empty()) headers[std::string(kPromotionHeader)] = proof_;
  }
  tally::net::HttpReply reply = http.request(boost::beast::http::verb::get, target, "", headers);
  {
    std::lock_guard lock(mutex_);
    status_.last_contact_us = now_us();
    if (auto h = reply.header("Tally-Head"); !h.empty()) {
      status_.primary_seq = std::stoull(h);
    }
  }
  if (reply.status == 401 || reply.status == 403) {
    set_state("unauthorized", detail_of(reply));
    return 10s;
  }
  if (reply.status == 409) {
    set_state("refused", detail_of(reply));
    return 10s;
  }
  if (reply.status != 200) {
    set_state("disconnected", "HTTP " + std::to_string(reply.status) + ": " + detail_of(reply));
    return 1s;
  }
  // A primary of an older epoch than ours is a former primary, whatever its log holds.
  if (auto e = reply.header("Tally-Epoch"); e.empty() || std::stoull(e) < our_epoch) {
    set_state("refused", "a former primary (epoch " + (e.empty() ? std::string("?") : e) +
                             ", this log's is " + std::to_string(our_epoch) + ")");
    return 10s;
  }

  if (!table_keys_kept_) keep_table_keys(http);

  std::vector<events::EventStore::RestoredEvent> batch;
  std::uint64_t expected = head.seq + 1;
  events::Digest previous = head.hash;
  std::istringstream lines(reply.body);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    auto verified = events::verify_line(line, expected, previous);
    if (auto* problem = std::get_if<std::string>(&verified)) {
      set_state("refused", "event " + std::to_string(expected) + ": " + *problem);
      return 10s;
    }
    auto& event = std::get<events::EventStore::RestoredEvent>(verified);
    previous = event.hash;
    ++expected;
    batch.push_back(std::move(event));
  }
  if (!batch.empty()) {
    if (auto error = store_.replicate(batch)) {
      set_state("disconnected", "the store could not write: " + *error);
      return 1s;
    }
  }
  std::uint64_t primary_seq = status().primary_seq;
  set_state(store_.head().seq < primary_seq ? "catching_up" : "following", "");
  return 0ms;
}

}  // namespace tally::daemon
