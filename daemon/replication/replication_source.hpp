// The primary's side of replication (docs/operations.md, "A standby and a public mirror"): a
// follower reads the log with GET /v1/replication/log?from=N&after=HASH&wait=S — export lines
// (events/archive.hpp), so every event arrives with its hash, the previous hash and its exact
// bytes and is verified again on the follower before it is stored. A request names the hash of
// the follower's last event: a follower whose log is not a prefix of this one is refused (409),
// never "caught up" over its own events. A request that finds nothing new waits (a long poll) until
// an event is appended or S seconds pass, so a follower hears of a write at once. Each request
// also says how far the follower is: its `from` − 1 is on its disk (what a synchronous standby's
// confirmation is, StandbyAcks), and the follower's epoch: a server that hears of a newer epoch
// than its own from a standby, with the promotion's proof (promotion_proof.hpp), is a former
// primary (Leadership) and refuses followers from then on; a mirror, or a standby without the
// proof, is refused (409) and fences nothing.
//
// Thread safety: serve() from any I/O thread; appended() from the store's writer thread.
#pragma once

#include "daemon/replication/leadership.hpp"
#include "daemon/http/router.hpp"
#include "daemon/replication/standby_acks.hpp"
#include "events/store.hpp"

#include <boost/asio/steady_timer.hpp>

#include <atomic>
#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace tally::daemon {

class ReplicationSource {
 public:
  ReplicationSource(events::EventStore& store, Leadership& leadership, StandbyAcks& acks)
      : store_(store), leadership_(leadership), acks_(acks) {}

  // GET /v1/replication/log (a replica's token, or the organizer's). `standby`: the replica's copy
  // counts for replicas_ack (a mirror's does not).
  void serve(const ExchangePtr& ex, bool standby);
  // The store's subscriber: wakes the followers waiting for `seq`.
  void appended(std::uint64_t seq);
  // Answers every waiting follower now (at shutdown, before the I/O threads stop).
  void release_all();

  // How far each follower is: the events it has on disk, as its last request said.
  struct Position {
    std::string id;
    std::string name;
    std::uint64_t seq = 0;
    std::int64_t seen_us = 0;  // when it last asked (µs since the epoch)
  };
  std::vector<Position> positions() const;

  static constexpr std::size_t kMaxWaiting = 64;  // followers waiting at once (503 beyond)
  static constexpr std::size_t kMaxBatch = 1000;  // events in one answer
  static constexpr int kMaxWaitSeconds = 30;

 private:
  // Why a follower naming the newer epoch `claimed` may not fence this server (409), or nullopt
  // when it may: it must be a standby and show the promotion's proof (promotion_proof.hpp).
  std::optional<Response> unproven_newer_epoch(const Exchange& ex, std::uint64_t claimed,
                                               bool standby) const;

  struct Waiter {
    ExchangePtr ex;
    std::uint64_t from = 0;
    std::size_t limit = kMaxBatch;
    std::shared_ptr<boost::asio::steady_timer> timer;
    std::shared_ptr<std::atomic<bool>> answered;
  };
  // Answers with the events from `from` (none when the log has not reached it).
  void answer(const Waiter& w);
  void wake(std::list<Waiter> woken);

  events::EventStore& store_;
  Leadership& leadership_;
  StandbyAcks& acks_;
  mutable std::mutex mutex_;
  std::list<Waiter> waiting_;                  // GUARDED_BY(mutex_)
  std::map<std::string, Position> positions_;  // GUARDED_BY(mutex_), by replica id
};

}  // namespace tally::daemon
