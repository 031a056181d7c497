// The pool of pages touched ahead for the heap (daemon/warm_pages.hpp): pieces come aligned and
// already backed by memory, the pool stays within its limit, and stopping gives back what nobody
// took. Real mmap, real pages (mincore tells which are backed).
#include "daemon/warm_pages.hpp"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <set>
#include <thread>
#include <vector>

namespace tally::daemon {
namespace {

using namespace std::chrono_literals;

constexpr std::size_t kPiece = WarmPages::kPiece;

// Waits (up to 20 s, a sanitized build on a busy machine) until `pool` has `n` pieces ready.
bool ready_within(const WarmPages& pool, std::size_t n) {
  auto deadline = std::chrono::steady_clock::now() + 20s;
  while (pool.ready() != n) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(1ms);
  }
  return true;
}

// Waits (up to 20 s) until the warming thread has seen the pool as it is and waits at its limit
// (WarmPages::idle): the positive signal before a test says that no more pieces came.
bool idle_within(const WarmPages& pool) {
  auto deadline = std::chrono::steady_clock::now() + 20s;
  while (!pool.idle()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(1ms);
  }
  return true;
}

// How many of the piece's pages the kernel has backed with memory.
std::size_t resident_pages(void* piece) {
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> in_core(kPiece / page);
  EXPECT_EQ(::mincore(piece, kPiece, in_core.data()), 0);
  std::size_t n = 0;
  for (unsigned char c : in_core) n += c & 1;
  return n;
}

TEST(WarmPages, PiecesComeAlignedZeroedAndAlreadyBacked) {
  WarmPages pool(4);
  pool.start();
  ASSERT_TRUE(ready_within(pool, 4));

  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  std::set<void*> taken;
  for (int i = 0; i < 4; ++i) {
    void* piece = pool.take();
    ASSERT_NE(piece, nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(piece) % kPiece, 0u) << "aligned to a huge page";
    // Touched before it was handed out: the taker's first write faults nothing in.
    EXPECT_EQ(resident_pages(piece), kPiece / page);
    const auto* bytes = static_cast<const unsigned char*>(piece);
    EXPECT_EQ(bytes[0], 0);
    EXPECT_EQ(bytes[kPiece - 1], 0);
    std::memset(piece, 0xab, kPiece);  // writable, all of it
    taken.insert(piece);
  }
  EXPECT_EQ(taken.size(), 4u) << "no piece handed out twice";
  pool.stop();
  for (void* piece : taken) {  // the taker owns what it took: stop() left them mapped
    EXPECT_EQ(static_cast<unsigned char*>(piece)[kPiece / 2], 0xab);
    ::munmap(piece, kPiece);
  }
}

TEST(WarmPages, KeepsNoMoreThanItsLimitAndRefillsWhatIsTaken) {
  WarmPages pool(3);
  pool.start();
  ASSERT_TRUE(ready_within(pool, 3));
  ASSERT_TRUE(idle_within(pool));
  EXPECT_EQ(pool.ready(), 3u) << "the warming thread waits at the limit";

  void* piece = pool.take();
  ASSERT_NE(piece, nullptr);
  EXPECT_TRUE(ready_within(pool, 3)) << "a taken piece is replaced";
  pool.stop();
  ::munmap(piece, kPiece);
}

TEST(WarmPages, StopGivesBackWhatNobodyTookAndTakeThenFindsNothing) {
  WarmPages pool(2);
  EXPECT_EQ(pool.take(), nullptr) << "not warming: nothing ready";
  pool.start();
  ASSERT_TRUE(ready_within(pool, 2));
  pool.stop();
  EXPECT_EQ(pool.ready(), 0u);
  EXPECT_EQ(pool.take(), nullptr);

  pool.start();  // warms again after a stop
  EXPECT_TRUE(ready_within(pool, 2));
}

// Takes every piece ready (the warming thread may add some meanwhile), to be unmapped later.
void take_all(WarmPages& pool, std::vector<void*>& taken) {
  while (void* piece = pool.take()) taken.push_back(piece);
}

void unmap(const std::vector<void*>& pieces) {
  for (void* piece : pieces) ::munmap(piece, kPiece);
}

TEST(WarmPages, ALowerLimitKeepsFewerReady) {
  WarmPages pool(4);
  pool.start();
  ASSERT_TRUE(ready_within(pool, 4));
  std::vector<void*> taken;

  pool.limit(1);
  take_all(pool, taken);
  EXPECT_TRUE(ready_within(pool, 1));
  ASSERT_TRUE(idle_within(pool));
  EXPECT_EQ(pool.ready(), 1u) << "refilled to the limit, not to max_ready";

  pool.limit(0);
  take_all(pool, taken);
  ASSERT_TRUE(idle_within(pool));
  EXPECT_EQ(pool.ready(), 0u) << "nothing more is touched";
  EXPECT_EQ(pool.taken(), taken.size());

  pool.limit(100);  // never above max_ready
  EXPECT_TRUE(ready_within(pool, 4));
  ASSERT_TRUE(idle_within(pool));
  EXPECT_EQ(pool.ready(), 4u);
  pool.stop();
  unmap(taken);
}

TEST(WarmPages, ReplaysProgressWarmsOnlyWhatTheRestOfTheLogNeeds) {
  WarmPages pool(8);
  install_heap_warm_pages(&pool);
  std::vector<void*> taken;
  {
    HeapWarming warming(true);
    ASSERT_TRUE(ready_within(pool, 8));
    for (int i = 0; i < 3; ++i) taken.push_back(pool.take());
    warming.progress(100, 1000);  // before an eighth of the log: too early to estimate
    EXPECT_TRUE(ready_within(pool, 8));

    // 3 pieces for the first 600 events: the last 400 need ceil(3 * 400 / 600) = 2.
    warming.progress(600, 1000);
    take_all(pool, taken);
    EXPECT_TRUE(ready_within(pool, 2));
    ASSERT_TRUE(idle_within(pool));
    EXPECT_EQ(pool.ready(), 2u);

    warming.progress(1000, 1000);  // all folded: nothing more is needed
    take_all(pool, taken);
    ASSERT_TRUE(idle_within(pool));
    EXPECT_EQ(pool.ready(), 0u);
  }
  install_heap_warm_pages(nullptr);
  unmap(taken);
}

TEST(WarmPages, HeapWarmingWarmsTheInstalledPoolForItsScopeOnlyWhenWorthIt) {
  WarmPages pool(2);
  install_heap_warm_pages(&pool);
  {
    HeapWarming warming(true);
    EXPECT_TRUE(pool.warming());
    EXPECT_TRUE(ready_within(pool, 2));
  }
  EXPECT_FALSE(pool.warming()) << "stopped at the end of the scope";
  EXPECT_EQ(pool.ready(), 0u) << "stopped at the end of the scope";
  {
    HeapWarming short_log(false);
    EXPECT_FALSE(pool.warming()) << "a short replay starts no warming";
    EXPECT_EQ(pool.ready(), 0u) << "a short replay warms nothing";
  }
  install_heap_warm_pages(nullptr);
  {
    HeapWarming no_pool(true);  // a process whose allocator takes no pieces: nothing to do
  }
}

}  // namespace
}  // namespace tally::daemon
