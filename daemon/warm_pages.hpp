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
// Thread safety: start(), stop() and the destructor from one thread; limit(), take(), ready() and
// taken() from any.
// take() may run under the allocator's own lock, so it neither allocates nor waits for the
// warming thread's work (which never allocates while holding the pool's lock).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
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

  // Keeps at most `pieces` ready from now on (never more than `max_ready`; start() sets it back
  // to `max_ready`): the warmer's estimate of what is still needed, so that little is touched for
  // nothing at the end. Pieces already ready stay.
  void limit(std::size_t pieces);

  // A piece of kPiece bytes, aligned to kPiece, every page of it touched (zeroes); null when none
  // is ready. The caller owns it (munmap when done, if ever).
  void* take();
  std::size_t ready() const;
  // Pieces taken since start().
  std::size_t taken() const { return taken_.load(std::memory_order_relaxed); }
  // Whether the warming thread has seen the pool as it is since the last take() or limit() and
  // waits, at the limit, for one of them: ready() stays as it is until then. What a test waits
  // for before it says the pool went no further.
  bool idle() const;
  // Whether the warming thread runs (between start() and stop()); from start()'s thread.
  bool warming() const { return thread_.joinable(); }

 private:
  void warm();
  // Whether the warming thread should touch no more pieces now.
  bool enough() const { return stopping_ || ready_.size() >= limit_; }  // REQUIRES: mutex_ held

  const std::size_t max_ready_;
  mutable std::mutex mutex_;
  std::condition_variable room_;  // a piece was taken, the limit rose, or stop() was called
  std::vector<void*> ready_;      // GUARDED_BY(mutex_); capacity max_ready_, reserved up front
  std::size_t limit_;             // GUARDED_BY(mutex_); <= max_ready_
  bool stopping_ = false;         // GUARDED_BY(mutex_)
  bool idle_ = false;             // GUARDED_BY(mutex_); see idle()
  std::atomic<std::size_t> taken_{0};
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

  // `done` of `total` events are folded: the heap grows about in proportion to the events folded,
  // so what is left needs about as many pieces again per event as were taken so far. Warms no
  // more than that (from an eighth of the way on, when the estimate has something to stand on).
  void progress(std::uint64_t done, std::uint64_t total);

 private:
  WarmPages* pool_;
};

}  // namespace tally::daemon
