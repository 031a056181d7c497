// Memory touched ahead of its first use, for the heap to grow into while replay folds the log.
//
// Why: on a paravirtualised guest whose balloon hands free pages back to the host (free page
// reporting; docs/performance.md "Replay at start"), the first touch of a page waits for the host:
// 2-3 ms per MiB. Replay grows the heap by ~540 MiB for 10^6 events, so the folding thread spent
// more time in those first touches than in folding. They run in parallel (one thread touches
// 512 MiB in 1.32-1.39 s, two threads half each in 0.75-0.78 s), so a thread that touches pages
// on the other core while the fold runs takes them off the folder. Where first touches are cheap
// it costs little: the warming thread stays at most `max_ready` pieces ahead.
//
// The pieces go to the allocator through `take()` (daemon/tcmalloc_huge_pages.cpp hands them to
// tcmalloc when its heap grows). `heap_warm_pages()` is that allocator's pool, or null when the
// process has no allocator that takes pieces (the sanitizer builds): warming would be waste there.
//
// Thread safety: start(), stop() and the destructor from one thread; take() and ready() from any.
// take() may run under the allocator's own lock, so it neither allocates nor waits for the
// warming thread's work (which never allocates while holding the pool's lock).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>
#include <vector>

namespace tally::daemon {

class WarmPages {
 public:
  // A piece: a transparent huge page where the machine allows them.
  static constexpr std::size_t kPiece = std::size_t{2} << 20;

  explicit WarmPages(std::size_t max_ready);
  WarmPages(const WarmPages&) = delete;
  WarmPages& operator=(const WarmPages&) = delete;
  ~WarmPages() { stop(); }

  // Starts touching pieces on a thread of its own, keeping up to `max_ready` of them ready.
  void start();
  // Stops warming and unmaps the pieces nobody took (what was taken stays with its taker).
  void stop();

  // A piece of kPiece bytes, aligned to kPiece, every page of it touched (zeroes); null when none
  // is ready. The caller owns it (munmap when done, if ever).
  void* take();
  std::size_t ready() const;

 private:
  void warm();

  const std::size_t max_ready_;
  mutable std::mutex mutex_;
  std::condition_variable room_;  // a piece was taken, or stop() was called
  std::vector<void*> ready_;      // GUARDED_BY(mutex_); capacity max_ready_, reserved up front
  // Written under mutex_ (so the wait above sees it); read without it between pieces.
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

// The process's allocator's pool (null: nothing takes pieces here), and how the allocator
// installs it (before main).
WarmPages* heap_warm_pages();
void install_heap_warm_pages(WarmPages* pool);

// Warms the heap's pool for as long as it lives (nothing when there is none, or when `worth_it` is
// false): replay's scope.
class HeapWarming {
 public:
  explicit HeapWarming(bool worth_it) : pool_(worth_it ? heap_warm_pages() : nullptr) {
    if (pool_ != nullptr) pool_->start();
  }
  HeapWarming(const HeapWarming&) = delete;
  HeapWarming& operator=(const HeapWarming&) = delete;
  ~HeapWarming() {
    if (pool_ != nullptr) pool_->stop();
  }

 private:
  WarmPages* pool_;
};

}  // namespace tally::daemon
