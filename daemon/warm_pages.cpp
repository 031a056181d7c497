#include "daemon/warm_pages.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>

namespace tally::daemon {

namespace {

// Pieces mapped by one mmap: fewer system calls, and the alignment slop is paid once per batch.
constexpr std::size_t kBatchPieces = 8;

std::atomic<WarmPages*> installed_pool{nullptr};

// `count` pieces, aligned to kPiece, advised to be huge pages; null when the system refuses.
char* map_pieces(std::size_t count) {
  const std::size_t size = count * WarmPages::kPiece;
  const std::size_t mapped = size + WarmPages::kPiece;  // room to align
  void* raw = ::mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  auto start = reinterpret_cast<std::uintptr_t>(raw);
  auto aligned = (start + WarmPages::kPiece - 1) & ~(WarmPages::kPiece - 1);
  if (aligned > start) ::munmap(raw, aligned - start);
  auto end = start + mapped;
  if (end > aligned + size) ::munmap(reinterpret_cast<void*>(aligned + size), end - aligned - size);
  auto* pieces = reinterpret_cast<char*>(aligned);
  ::madvise(pieces, size, MADV_HUGEPAGE);  // advice only: a refusal leaves small pages
  return pieces;
}

// Writes one byte per page, so that the kernel backs every page now (one fault per huge page
// where it gives them). The bytes written are the zeroes already there.
void touch(char* p, std::size_t size) {
  static const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  volatile char* bytes = p;
  for (std::size_t i = 0; i < size; i += page) bytes[i] = 0;
}

}  // namespace

WarmPages::WarmPages(std::size_t max_ready) : max_ready_(max_ready), limit_(max_ready) {
  ready_.reserve(max_ready);
}

void WarmPages::start() {
  stop();
  {
    std::lock_guard lock(mutex_);
    stopping_ = false;
    idle_ = false;
    limit_ = max_ready_;
  }
  taken_ = 0;
  thread_ = std::thread([this] { warm(); });
}

void WarmPages::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  room_.notify_all();
  if (thread_.joinable()) thread_.join();
  std::lock_guard lock(mutex_);
  for (void* piece : ready_) ::munmap(piece, kPiece);
  ready_.clear();
}

void WarmPages::limit(std::size_t pieces) {
  {
    std::lock_guard lock(mutex_);
    limit_ = std::min(pieces, max_ready_);
    idle_ = false;  // the warming thread has a new limit to see
  }
  room_.notify_all();
}

void* WarmPages::take() {
  void* piece = nullptr;
  {
    std::lock_guard lock(mutex_);
    if (ready_.empty()) return nullptr;
    piece = ready_.back();
    ready_.pop_back();
    idle_ = false;  // the warming thread has room to see
  }
  taken_.fetch_add(1, std::memory_order_relaxed);
  room_.notify_one();
  return piece;
}

std::size_t WarmPages::ready() const {
  std::lock_guard lock(mutex_);
  return ready_.size();
}

bool WarmPages::idle() const {
  std::lock_guard lock(mutex_);
  return idle_;
}

void WarmPages::warm() {
  for (;;) {
    std::size_t batch = 0;
    {
      std::unique_lock lock(mutex_);
      room_.wait(lock, [&] {
        if (stopping_ || ready_.size() < limit_) return true;
        idle_ = true;  // at the limit, as the pool is now
        return false;
      });
      if (stopping_) return;
      batch = std::min(kBatchPieces, limit_ - ready_.size());
    }
    char* pieces = map_pieces(batch);
    if (pieces == nullptr) return;  // out of address space or memory: the heap grows as before
    for (std::size_t i = 0; i < batch; ++i) {
      char* piece = pieces + i * kPiece;
      {
        std::lock_guard lock(mutex_);
        if (enough()) {  // replay ends, or needs less than thought: not worth touching
          ::munmap(piece, (batch - i) * kPiece);
          break;
        }
      }
      touch(piece, kPiece);  // outside the lock: take() never waits for this
      std::lock_guard lock(mutex_);
      // Only this thread adds, and there was room under the limit (<= the capacity) above; take()
      // only makes more: ready_ never outgrows its reserved capacity, so this never allocates.
      ready_.push_back(piece);
    }
  }
}

void HeapWarming::progress(std::uint64_t done, std::uint64_t total) {
  if (pool_ == nullptr || done < total / 8 || done == 0) return;
  std::uint64_t needed = (pool_->taken() * (total - done) + done - 1) / done;
  pool_->limit(static_cast<std::size_t>(needed));
}

WarmPages* heap_warm_pages() { return installed_pool.load(std::memory_order_acquire); }

void install_heap_warm_pages(WarmPages* pool) {
  installed_pool.store(pool, std::memory_order_release);
}

}  // namespace tally::daemon
