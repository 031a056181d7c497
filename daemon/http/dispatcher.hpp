// From a parsed request to an answer: route it, identify the caller by bearer token, enforce the
// route's access and the per-token rate limit, call the handler, and on the way back add the
// common headers, log one line and count the request.
//
// Thread safety: dispatch() may be called from any thread; the rate limiter has its own lock.
#pragma once

#include "daemon/config.hpp"
#include "daemon/http/authorization.hpp"
#include "daemon/http/http.hpp"
#include "daemon/http/router.hpp"
#include "daemon/http/table_token.hpp"
#include "daemon/live_state.hpp"
#include "daemon/metrics.hpp"

#include <atomic>
#include <chrono>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace tally::daemon {

// A token bucket per key: `rate` requests per second, up to `burst` at once.
class RateLimiter {
 public:
  RateLimiter(double rate, double burst) : rate_(rate), burst_(burst) {}
  // Takes one request from the key's bucket. Returns how long to wait when the bucket is empty.
  std::optional<std::chrono::milliseconds> take(const std::string& key);

 private:
  struct Bucket {
    double tokens;
    std::chrono::steady_clock::time_point last;
  };
  double rate_;
  double burst_;
  std::mutex mutex_;
  std::unordered_map<std::string, Bucket> buckets_;  // GUARDED_BY(mutex_)
};

// The caller of a request, or why it cannot be told.
struct Caller {
  Identity identity;
  bool bad_token = false;   // a token was sent but is unknown or revoked
  std::string limiter_key;  // the token's hash, or the remote address when anonymous
  std::optional<schema::Digest> token_hash;  // a bearer token's SHA-256 (not a table token's)
};

// A handler threw: the error is logged with the request's id, the caller gets a plain 500.
// Also for handlers that run later on another thread (Api's background work).
void answer_handler_failure(const ExchangePtr& ex, const std::exception& e);

class Dispatcher {
 public:
  Dispatcher(const Router& router, const LiveState& state, Metrics& metrics, const Config& config,
             const TableKeys& table_keys);

  // Answers `request`; `respond` is called exactly once, from any thread. `executor` is the
  // connection's (see Exchange::executor).
  void dispatch(Request request, const std::string& remote, boost::asio::any_io_executor executor,
                std::function<void(Response)> respond);

  // A new request id (X-Request-Id), also for answers refused before they reach dispatch().
  std::string next_request_id() { return std::to_string(next_request_++); }

  // Who sent the request (also used to admit live WebSocket clients).
  Caller identify(const Request& request, const std::string& remote) const;
  // Whether a caller may read public resources under the current config (a table token may, within
  // the bounds of table_token_refusal: the organizer gave it to the players at that table).
  bool may_read(const Caller& caller) const {
    return config_.public_reads || caller.identity.authenticated() ||
           caller.identity.table.has_value();
  }
  bool public_reads() const { return config_.public_reads; }

 private:
  const Router& router_;
  const LiveState& state_;
  Metrics& metrics_;
  const Config& config_;
  const TableKeys& table_keys_;
  RateLimiter limiter_;
  RateLimiter table_limiter_;         // table tokens: a bucket each, smaller than a judge's
  RateLimiter registration_limiter_;  // anonymous registrations, a bucket per address
  std::atomic<std::uint64_t> next_request_{1};
};

}  // namespace tally::daemon
