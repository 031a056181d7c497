// A follower (tallyd --follow URL --follow-token-file F; docs/operations.md): copies its primary's
// log — what it misses first, then each event as it is appended — through
// GET /v1/replication/log (daemon/replication/replication_source.hpp), verifies every line's hash and its link
// to the event before it, and stores the events exactly as they were (same seq, bytes and hash),
// so the projections, pages and live feed it serves are built from the same log. It never writes
// an event of its own. A network cut or a restart of either side is healed by asking again from
// its own head; a primary whose log disagrees with what it holds is refused (logged, state
// `refused`) and nothing is overwritten; so is a former primary, one of an older epoch than ours
// (daemon/replication/leadership.hpp): each request names our epoch, so that a former primary hears of it.
//
// Thread safety: one thread of its own does the copying; status() from any thread.
#pragma once

#include "net/server_address.hpp"
#include "daemon/replication/leadership.hpp"
#include "events/store.hpp"

#include <boost/asio/ssl/context.hpp>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace tally::net {
class HttpClient;
}  // namespace tally::net

namespace tally::daemon {

class Follower {
 public:
  // `data`: the data directory, where the primary's table-key secret is kept for a promotion.
  Follower(events::EventStore& store, const Leadership& leadership, std::filesystem::path data,
           tally::net::ServerAddress primary, std::string token,
           std::shared_ptr<boost::asio::ssl::context> tls);
  ~Follower();  // stops

  void start();
  // Stops copying (waits for the request under way: at most kWaitSeconds and a little).
  void stop();

  struct Status {
    // "connecting", "catching_up", "following", "disconnected" (the primary cannot be reached;
    // it tries again), "refused" (the primary's log disagrees with ours, or its events do not
    // verify: nothing is written; it tries again slowly), "unauthorized" (the token).
    std::string state = "connecting";
    std::uint64_t primary_seq = 0;  // the primary's head as its last answer said
    std::string problem;            // why, for the last three states
    std::int64_t last_contact_us = 0;
  };
  Status status() const;
  const std::string& primary_url() const { return primary_.url; }

  static constexpr int kWaitSeconds = 2;  // the long poll: at most this long idle per request

 private:
  void run();
  // One request: copies what the primary answers. Returns how long to wait before the next.
  std::chrono::milliseconds copy_once(tally::net::HttpClient& http);
  void set_state(std::string state, std::string problem);
  // Keeps the primary's table-key secret in DATA (once per start; see TableKeys).
  void keep_table_keys(tally::net::HttpClient& http);
  void pause(std::chrono::milliseconds how_long);

  events::EventStore& store_;
  const Leadership& leadership_;
  // The Tally-Promotion header of this log's epoch (run()'s thread only), made once per epoch.
  std::string proof_;
  std::uint64_t proof_epoch_ = 0;
  const std::filesystem::path data_;
  bool table_keys_kept_ = false;  // only the follower's thread
  tally::net::ServerAddress primary_;
  std::string token_;
  std::shared_ptr<boost::asio::ssl::context> tls_;
  std::thread thread_;
  std::atomic<bool> stopping_{false};
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  Status status_;  // GUARDED_BY(mutex_)
};

}  // namespace tally::daemon
