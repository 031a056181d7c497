// The live feed: GET /v1/tournaments/{t}/live upgrades to a WebSocket that first receives a
// snapshot (standings and the current round), then every event after `since` (catch-up from the
// log, then live), and coalesced standings after each change.
//
// The Hub holds who watches which tournament. Everything it does runs on its strand, in the
// order the store published the events, so joining and publishing never race: a client joins at
// the projection's seq S and drops any published event with seq <= S (those are in its snapshot
// or its catch-up). Events published together are handed to each client as one batch with the
// standings after them, built once and shared by every client — whole, and as a delta from the
// previous batch's standings, which a client gets when it holds exactly those (a 1,000-player
// table is ~190 KB, one result's delta a few hundred bytes); each LiveSession has a bounded
// queue of events and one slot for the newest standings (a newer one replaces it); a client that
// falls too far behind is told so and closed, and comes back with `since`. The catch-up (the
// events after `since` up to the snapshot) is not read here: each session reads it from the log
// itself, a page at a time, so that a join from seq 0 neither holds up the other screens nor holds
// the log in memory.
//
// Screens are counted apart from HTTP connections: at most max_screens are open (a screen more is
// refused 503 before the upgrade), and an upgraded connection gives back its place under
// max_connections, so a full room of screens never keeps a judge out.
//
// Thread safety: publish() may be called from any thread (the store calls it from its writer
// thread); join/leave/close_all hop onto the hub's strand; sessions hop onto their own strands.
#pragma once

#include "daemon/config.hpp"
#include "daemon/http/http.hpp"
#include "daemon/live_state.hpp"
#include "events/store.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace tally::daemon {

using Message = std::shared_ptr<const std::string>;

// What a tournament's watchers are sent at once: the events published since the last batch, in
// seq order, then the standings that include them (none when the projections are already ahead:
// the next batch brings them).
struct LiveBatch {
  struct Sequenced {
    std::uint64_t seq = 0;
    Message message;
    // For a client without a token, when it differs: an event without its `by` and `reason`.
    Message anonymous = nullptr;
  };
  std::vector<Sequenced> events;
  std::optional<Sequenced> standings;
  // The same standings as what changed since a base a screen holds (standings_delta.hpp): one per
  // base the channel keeps (the previous batch's standings, the newest snapshot's), each for the
  // screens that hold exactly that base; none for a base where the delta would not be smaller.
  struct Delta {
    std::uint64_t base_seq = 0;
    Message message;
  };
  std::vector<Delta> standings_deltas;
};

class LiveSession;

class Hub : public std::enable_shared_from_this<Hub> {
 public:
  Hub(boost::asio::io_context& io, const LiveState& state, events::EventStore& store,
      const Config& config);

  // Store subscriber: queues the event for its tournament's watchers.
  void publish(const schema::StoredEvent& event);

  // Takes over an upgraded connection for `tournament`, plain or TLS, keeping its `slot` (open,
  // not under max_connections: the screen counts under max_screens) while it is open. Returns a
  // refusal: 404 when the tournament does not exist, 503 with Retry-After when max_screens screens
  // are open.
  // `holder`: the hash of the valid token the client sent (events then keep their `by` and
  // `reason`); when that token is revoked, or the organizer's rotated, the screen is closed.
  std::optional<Response> accept(boost::asio::ip::tcp::socket& socket, Request& request,
                                 const std::string& tournament, std::optional<std::uint64_t> since,
                                 ConnectionSlot slot, std::optional<schema::Digest> holder);
  std::optional<Response> accept(boost::beast::ssl_stream<boost::beast::tcp_stream>& stream,
                                 Request& request, const std::string& tournament,
                                 std::optional<std::uint64_t> since, ConnectionSlot slot,
                                 std::optional<schema::Digest> holder);

  // Closes every live client with 1001 (going away), for a graceful shutdown.
  void close_all();

  // Live sessions open (joined or joining), what max_screens limits; for /metrics.
  std::size_t sessions() const { return sessions_.load(); }

 private:
  template <typename Next>
  friend class BasicLiveSession;
  std::optional<Response> refuse_unknown(const Request& request, const std::string& tournament);
  // Counts a screen in, unless max_screens are open already.
  bool reserve_screen();
  Response too_many_screens(const Request& request, const std::string& tournament);
  void join(const std::shared_ptr<LiveSession>& session, std::optional<std::uint64_t> since);
  // On strand_: moves the published events to their tournaments' channels.
  void take_published();
  // On strand_: closes the sessions whose token was revoked.
  void close_revoked();
  void flush(const std::string& tournament);

  static constexpr std::size_t kMaxDeltaBases = 2;
  struct Channel {
    std::vector<std::weak_ptr<LiveSession>> sessions;
    std::vector<LiveBatch::Sequenced> unsent;  // published events waiting for the next flush
    bool flush_queued = false;                 // a flush is queued; more events just join it
    // The standings screens may hold, by seq: the last sent in a batch and the newest snapshot a
    // screen joined with when it is not those (contract, third edition: the snapshot is the base
    // of the first delta). The bases of the next delta; at most kMaxDeltaBases.
    std::map<std::uint64_t, std::shared_ptr<const boost::json::object>> bases;
  };

  boost::asio::io_context& io_;
  boost::asio::strand<boost::asio::io_context::executor_type> strand_;
  const LiveState& state_;
  events::EventStore& store_;
  const Config& config_;
  std::map<std::string, Channel> channels_;  // only touched on strand_
  std::atomic<std::size_t> sessions_{0};     // live sessions open, joined or joining
  std::mutex published_mutex_;
  std::vector<schema::StoredEvent> published_;  // GUARDED_BY(published_mutex_), not yet taken
};

}  // namespace tally::daemon
