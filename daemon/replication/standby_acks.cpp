#include "daemon/replication/standby_acks.hpp"

#include <boost/asio/post.hpp>

#include <algorithm>
#include <vector>

namespace tally::daemon {

std::uint64_t StandbyAcks::confirmed_seq() const {
  if (followers_.size() < settings_.required) return 0;
  std::vector<std::uint64_t> seqs;
  for (const auto& [id, f] : followers_) seqs.push_back(f.seq);
  // The required-th highest position: that many followers have everything up to it.
  std::nth_element(seqs.begin(), seqs.begin() + (settings_.required - 1), seqs.end(),
                   std::greater<>());
  return seqs[settings_.required - 1];
}

unsigned StandbyAcks::present(std::chrono::steady_clock::time_point now) const {
  unsigned n = 0;
  for (const auto& [id, f] : followers_) n += now - f.seen < kGoneAfter ? 1 : 0;
  return n;
}

void StandbyAcks::finish(const std::shared_ptr<Waiter>& w, Outcome outcome) {
  if (w->timer) w->timer->cancel();
  boost::asio::post(w->executor, [done = std::move(w->done), outcome] { done(outcome); });
}

void StandbyAcks::confirmed(const std::string& id, std::uint64_t seq) {
  std::vector<std::shared_ptr<Waiter>> ready;
  {
    std::lock_guard lock(mutex_);
    // Its head as it says now, not the most it ever had: a standby started again on an empty
    // data directory has nothing until it has copied it again.
    auto& f = followers_[id];
    f.seq = seq;
    f.seen = std::chrono::steady_clock::now();
    if (!enabled()) return;
    auto end = waiting_.upper_bound(confirmed_seq());
    for (auto it = waiting_.begin(); it != end; ++it) ready.push_back(it->second);
    waiting_.erase(waiting_.begin(), end);
  }
  for (auto& w : ready) finish(w, Outcome::replicated);
}

void StandbyAcks::await(std::uint64_t seq, const boost::asio::any_io_executor& executor,
                        std::function<void(Outcome)> done) {
  auto w = std::make_shared<Waiter>(Waiter{std::move(done), executor, nullptr});
  {
    std::lock_guard lock(mutex_);
    Outcome now = Outcome::replicated;
    bool hold = enabled() && confirmed_seq() < seq;
    if (hold && settings_.continue_alone &&
        present(std::chrono::steady_clock::now()) < settings_.required) {
      hold = false;
      now = Outcome::alone;
      ++answered_alone_;
    }
    if (hold && waiting_.size() >= kMaxWaiting) {
      hold = false;
      now = Outcome::timed_out;
      ++timed_out_;
    }
    if (!hold) return finish(w, now);
    // The timeout is waited for before the write is listed: once it is, confirmed() (or
    // release_all()) may take it on another thread at once and cancel the timer, which must not
    // meet async_wait() on the same timer (a data race the ThreadSanitizer stage found; a cancel
    // that came first also left the wait running for the whole timeout).
    w->timer = std::make_shared<boost::asio::steady_timer>(executor, settings_.timeout);
    w->timer->async_wait([this, seq, w](const boost::system::error_code& ec) {
      if (!ec) expire(seq, w);
    });
    waiting_.emplace(seq, w);
  }
}

void StandbyAcks::expire(std::uint64_t seq, const std::shared_ptr<Waiter>& w) {
  Outcome outcome;
  {
    std::lock_guard lock(mutex_);
    auto [first, last] = waiting_.equal_range(seq);
    auto it = std::find_if(first, last, [&](const auto& entry) { return entry.second == w; });
    if (it == last) return;  // confirmed meanwhile
    waiting_.erase(it);
    outcome = settings_.continue_alone ? Outcome::alone : Outcome::timed_out;
    ++(settings_.continue_alone ? answered_alone_ : timed_out_);
  }
  finish(w, outcome);
}

void StandbyAcks::release_all() {
  Waiters all;
  {
    std::lock_guard lock(mutex_);
    all.swap(waiting_);
    timed_out_ += all.size();
  }
  for (auto& [seq, w] : all) finish(w, Outcome::timed_out);
}

StandbyAcks::State StandbyAcks::state() const {
  std::lock_guard lock(mutex_);
  State s;
  s.required = settings_.required;
  s.present = present(std::chrono::steady_clock::now());
  s.standby_missing = s.present < s.required;
  s.continue_alone = settings_.continue_alone;
  s.waiting = waiting_.size();
  s.answered_alone = answered_alone_;
  s.timed_out = timed_out_;
  return s;
}

}  // namespace tally::daemon
