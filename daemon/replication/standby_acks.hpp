// A synchronous standby (`replicas_ack = N`, docs/operations.md "A synchronous standby"): a
// write's answer waits until N followers have its events on disk. A follower's every request for
// the log says how far it is (its `from` − 1, ReplicationSource), and it asks again as soon as it
// has stored an answer, so a write is confirmed one round trip and one fsync after it is appended.
//
// A standby that has not asked for 5 s is gone. With `replicas_ack_missing = wait` (the default)
// a write then waits for it — at most `replicas_ack_timeout`, after which the answer is 503 saying
// the write is kept on the primary but not yet on a standby (the same Idempotency-Key sent again
// is answered once a standby has it). With `replicas_ack_missing = alone` the primary answers on
// its own fsync while the standby is gone, and says so in /healthz, /metrics and the console.
//
// Thread safety: every method from any thread; `done` runs on the executor it was given.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace tally::daemon {

class StandbyAcks {
 public:
  struct Settings {
    unsigned required = 0;  // replicas_ack: 0 answers on the primary's own fsync
    std::chrono::milliseconds timeout{10000};
    bool continue_alone = false;  // replicas_ack_missing = alone
  };
  static constexpr std::chrono::seconds kGoneAfter{5};
  static constexpr std::size_t kMaxWaiting = 4096;  // answers held at once (beyond: not held)

  explicit StandbyAcks(Settings settings) : settings_(settings) {}

  bool enabled() const { return settings_.required > 0; }

  // Follower `id` has every event up to `seq` on its disk.
  void confirmed(const std::string& id, std::uint64_t seq);

  enum class Outcome {
    replicated,  // `required` followers have it (or replicas_ack is 0)
    alone,       // the standbys are gone and the settings say to go on without them
    timed_out,   // they did not confirm within the timeout: the write is on the primary only
  };
  // Calls `done` on `executor` once the write that ended at `seq` is confirmed, or it times out.
  void await(std::uint64_t seq, const boost::asio::any_io_executor& executor,
             std::function<void(Outcome)> done);
  // Answers every held write now (at shutdown): timed_out.
  void release_all();

  // For /healthz, /metrics and GET /v1/replication.
  struct State {
    unsigned required = 0;
    unsigned present = 0;          // followers that asked within kGoneAfter
    bool standby_missing = false;  // fewer present than required
    bool continue_alone = false;
    std::size_t waiting = 0;           // answers held now
    std::uint64_t answered_alone = 0;  // writes answered without a standby, since the start
    std::uint64_t timed_out = 0;       // writes answered 503 for want of a standby
  };
  State state() const;

 private:
  struct Waiter {
    std::function<void(Outcome)> done;
    boost::asio::any_io_executor executor;
    std::shared_ptr<boost::asio::steady_timer> timer;
  };
  using Waiters = std::multimap<std::uint64_t, std::shared_ptr<Waiter>>;  // by seq

  // The highest seq `required` followers all have. REQUIRES: mutex_ held.
  std::uint64_t confirmed_seq() const;
  unsigned present(std::chrono::steady_clock::time_point now) const;  // REQUIRES: mutex_ held
  static void finish(const std::shared_ptr<Waiter>& w, Outcome outcome);
  void expire(std::uint64_t seq, const std::shared_ptr<Waiter>& w);

  const Settings settings_;
  mutable std::mutex mutex_;
  struct Follower {
    std::uint64_t seq = 0;
    std::chrono::steady_clock::time_point seen;
  };
  std::map<std::string, Follower> followers_;  // GUARDED_BY(mutex_)
  Waiters waiting_;                            // GUARDED_BY(mutex_)
  std::uint64_t answered_alone_ = 0;           // GUARDED_BY(mutex_)
  std::uint64_t timed_out_ = 0;                // GUARDED_BY(mutex_)
};

}  // namespace tally::daemon
