// Which new HTTP connections tallyd takes (docs/reliability.md, "Hostile clients"). A phone on
// the venue's Wi-Fi must never be able to lock the judges out by opening connections it never
// uses, so a connection is a *stranger* until one of its requests shows a judge's, the
// organizer's or a replica's token, and strangers are held to two limits:
//
//   - at most `per_address` of them from one remote address;
//   - together at most `max_connections - reserved`: the last `reserved` slots are kept for
//     tokens. A stranger that finds only those is taken *on probation*: its first request must
//     show such a token, or it is answered 503 and closed.
//
// Every refusal is counted (for /metrics) and logged, at most one line per interval, with the
// counts since the last line: a flood of connections cannot become a flood of log lines.
//
// Thread safety: every method from any thread (one mutex; each call is a few map operations).
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace tally::daemon {

class Admission : public std::enable_shared_from_this<Admission> {
 public:
  struct Limits {
    std::size_t max_connections = 10000;  // every open HTTP connection
    std::size_t reserved = 100;           // of those, the slots kept for tokens
    std::size_t per_address = 64;         // strangers from one address
  };
  // Why a connection was refused (the label of tallyd_connections_refused_total).
  enum class Refusal { max_connections, per_address, reserved, count };
  static std::string_view name(Refusal r);

  static std::shared_ptr<Admission> make(Limits limits) {
    return std::shared_ptr<Admission>(new Admission(limits));
  }

  // A stranger's place, held by its connection until it shows a token (proven()) or closes.
  class Ticket {
   public:
    Ticket() = default;
    Ticket(Ticket&& other) noexcept { *this = std::move(other); }
    Ticket& operator=(Ticket&& other) noexcept;
    Ticket(const Ticket&) = delete;
    Ticket& operator=(const Ticket&) = delete;
    ~Ticket() { release(); }
    // Taken in a reserved slot: the first request must show a token.
    bool on_probation() const { return probation_; }
    // The connection showed a token: it is no stranger now, and frees its stranger's place.
    void proven() { release(); }
    bool held() const { return owner_ != nullptr; }

   private:
    friend class Admission;
    void release();
    std::shared_ptr<Admission> owner_;
    std::string address_;
    bool probation_ = false;
  };

  struct Verdict {
    bool admitted = false;
    Refusal refusal = Refusal::max_connections;  // when not admitted
    Ticket ticket;                               // when admitted
  };
  // A new connection from `address`, with `http_open` HTTP connections open before it.
  Verdict admit(const std::string& address, std::size_t http_open);

  // A refusal decided elsewhere (a stranger on probation that showed no token), counted and
  // logged like the others.
  void note(Refusal refusal, const std::string& address);

  std::uint64_t refused(Refusal r) const { return refused_[static_cast<std::size_t>(r)].load(); }
  // Strangers holding a connection now.
  std::size_t strangers() const;

 private:
  explicit Admission(Limits limits) : limits_(limits) {}
  void forget(const std::string& address);

  static constexpr std::chrono::seconds kLogInterval{10};
  const Limits limits_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::size_t> strangers_by_address_;  // GUARDED_BY(mutex_)
  std::size_t strangers_ = 0;                                          // GUARDED_BY(mutex_)
  std::array<std::uint64_t, static_cast<std::size_t>(Refusal::count)>
      unlogged_{};                                    // GUARDED_BY(mutex_)
  std::chrono::steady_clock::time_point last_log_{};  // GUARDED_BY(mutex_)
  std::array<std::atomic<std::uint64_t>, static_cast<std::size_t>(Refusal::count)> refused_{};
};

}  // namespace tally::daemon
