// A reader-writer lock for sections that last microseconds: a caller that finds it taken keeps
// trying for up to kSpin before it sleeps in the kernel.
//
// Why: LiveState's lock is taken four times per request by the I/O threads (each for a few to
// some tens of µs) and once per group commit by the store's writer. With std::shared_mutex alone,
// every meeting of the two sent a thread to sleep in futex(2) and woke it with another: about
// one futex call and one context switch per request at 64 connections (perf, issue 26), more
// kernel time than the work it guarded. Held that briefly, the lock is usually free again within
// the spin, on the other core.
//
// Thread safety: as std::shared_mutex (it is one, with patience).
#pragma once

#include <chrono>
#include <shared_mutex>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace tally::daemon {

class BriefSharedMutex {
 public:
  // Longer than a reader's usual section, far shorter than a time slice.
  static constexpr std::chrono::microseconds kSpin{50};

  void lock() {
    if (!spin([this] { return mutex_.try_lock(); })) mutex_.lock();
  }
  bool try_lock() { return mutex_.try_lock(); }
  void unlock() { mutex_.unlock(); }

  void lock_shared() {
    if (!spin([this] { return mutex_.try_lock_shared(); })) mutex_.lock_shared();
  }
  bool try_lock_shared() { return mutex_.try_lock_shared(); }
  void unlock_shared() { mutex_.unlock_shared(); }

 private:
  template <typename Try>
  static bool spin(Try&& attempt) {
    if (attempt()) return true;
    const auto until = std::chrono::steady_clock::now() + kSpin;
    for (;;) {
      for (int i = 0; i < 32; ++i) {  // the clock is read once per 32 pauses
        pause();
        if (attempt()) return true;
      }
      if (std::chrono::steady_clock::now() >= until) return false;
    }
  }

  static void pause() {
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#endif
  }

  std::shared_mutex mutex_;
};

}  // namespace tally::daemon
