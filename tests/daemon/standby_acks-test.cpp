// StandbyAcks (replicas_ack) on its own: which write answers are released, when, and how — by the
// standbys' positions as their requests say them, the N-th highest counting, a standby started
// again on an empty directory holding nothing, the timeout, and "alone" with the standbys gone.
#include "daemon/replication/standby_acks.hpp"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <optional>
#include <thread>
#include <vector>

namespace tally::daemon {
namespace {

using namespace std::chrono_literals;
using Outcome = StandbyAcks::Outcome;

class StandbyAcksTest : public ::testing::Test {
 protected:
  // Waits for the write ending at `seq`; the outcome lands in the returned slot once run.
  std::shared_ptr<std::optional<Outcome>> await(StandbyAcks& acks, std::uint64_t seq) {
    auto slot = std::make_shared<std::optional<Outcome>>();
    acks.await(seq, io_.get_executor(), [slot](Outcome o) { *slot = o; });
    return slot;
  }
  void run_for(std::chrono::milliseconds how_long) {
    io_.restart();
    io_.run_for(how_long);
  }
  boost::asio::io_context io_;
};

TEST_F(StandbyAcksTest, AWriteIsReleasedOnceTheStandbyHasItAndAWipedStandbyHasNothing) {
  StandbyAcks acks({.required = 1, .timeout = 10s});
  acks.confirmed("r1", 10);
  auto had = await(acks, 5);
  auto waits = await(acks, 11);
  run_for(20ms);
  EXPECT_EQ(*had, Outcome::replicated);
  EXPECT_FALSE(waits->has_value());
  EXPECT_EQ(acks.state().waiting, 1u);

  acks.confirmed("r1", 0);  // started again on an empty data directory
  auto after_wipe = await(acks, 3);
  run_for(20ms);
  EXPECT_FALSE(after_wipe->has_value());
  EXPECT_FALSE(waits->has_value());

  acks.confirmed("r1", 11);
  run_for(20ms);
  EXPECT_EQ(*waits, Outcome::replicated);
  EXPECT_EQ(*after_wipe, Outcome::replicated);
  EXPECT_EQ(acks.state().waiting, 0u);
}

TEST_F(StandbyAcksTest, WithTwoRequiredTheSecondHighestPositionCounts) {
  StandbyAcks acks({.required = 2, .timeout = 10s});
  acks.confirmed("r1", 20);
  auto write = await(acks, 10);
  run_for(20ms);
  EXPECT_FALSE(write->has_value());  // one standby is not two
  acks.confirmed("r2", 5);
  run_for(20ms);
  EXPECT_FALSE(write->has_value());
  acks.confirmed("r2", 12);
  run_for(20ms);
  EXPECT_EQ(*write, Outcome::replicated);
  EXPECT_EQ(acks.state().present, 2u);
}

TEST_F(StandbyAcksTest, WaitTimesOutAndAloneAnswersAtOnceWithoutAStandby) {
  StandbyAcks waiting({.required = 1, .timeout = 50ms});
  auto timed_out = await(waiting, 1);
  run_for(20ms);
  EXPECT_FALSE(timed_out->has_value());
  run_for(200ms);
  EXPECT_EQ(*timed_out, Outcome::timed_out);
  EXPECT_EQ(waiting.state().timed_out, 1u);
  EXPECT_TRUE(waiting.state().standby_missing);

  StandbyAcks alone({.required = 1, .timeout = 10s, .continue_alone = true});
  auto answered = await(alone, 1);
  run_for(20ms);
  EXPECT_EQ(*answered, Outcome::alone);
  EXPECT_EQ(alone.state().answered_alone, 1u);
  // A standby in touch but behind: alone waits for it like wait does.
  alone.confirmed("r1", 0);
  auto held = await(alone, 2);
  run_for(20ms);
  EXPECT_FALSE(held->has_value());
  alone.confirmed("r1", 2);
  run_for(20ms);
  EXPECT_EQ(*held, Outcome::replicated);
}

TEST_F(StandbyAcksTest, WithoutReplicasAckEveryWriteIsAnsweredAtOnce) {
  StandbyAcks acks({});
  auto write = await(acks, 100);
  run_for(20ms);
  EXPECT_EQ(*write, Outcome::replicated);
  EXPECT_FALSE(acks.enabled());
}

// As the server uses it: writes awaited from many threads while two standbys confirm from others
// and /metrics reads the state, the answers run on two I/O threads. Every write is answered once,
// replicated (its thread-safety is what the ThreadSanitizer stage, deploy/test-tsan.sh, checks).
TEST(StandbyAcksThreads, WritesAwaitedWhileStandbysConfirmAreEachAnsweredOnce) {
  constexpr std::uint64_t kWriters = 4, kWrites = 2000;  // seqs 1..kWrites, one writer each
  StandbyAcks acks({.required = 2, .timeout = 60s});
  boost::asio::io_context io;
  auto work = boost::asio::make_work_guard(io);
  std::vector<std::thread> runners;
  for (int i = 0; i < 2; ++i) runners.emplace_back([&] { io.run(); });

  std::vector<std::atomic<int>> answers(kWrites + 1);
  std::atomic<std::uint64_t> answered = 0, not_replicated = 0;
  std::vector<std::thread> threads;
  for (std::uint64_t w = 0; w < kWriters; ++w) {
    threads.emplace_back([&, w] {
      for (std::uint64_t seq = w + 1; seq <= kWrites; seq += kWriters) {
        acks.await(seq, io.get_executor(), [&, seq](StandbyAcks::Outcome outcome) {
          if (outcome != StandbyAcks::Outcome::replicated) ++not_replicated;
          ++answers[seq];
          ++answered;
        });
      }
    });
  }
  for (const char* standby : {"r1", "r2"}) {
    threads.emplace_back([&, standby] {
      for (std::uint64_t seq = 0; seq <= kWrites; seq += 7) {
        acks.confirmed(standby, seq);
        (void)acks.state();
      }
      acks.confirmed(standby, kWrites);
    });
  }
  for (auto& t : threads) t.join();
  auto deadline = std::chrono::steady_clock::now() + 30s;
  while (answered < kWrites && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(1ms);
  }
  work.reset();
  io.stop();
  for (auto& t : runners) t.join();

  EXPECT_EQ(answered, kWrites);
  EXPECT_EQ(not_replicated, 0u);
  for (std::uint64_t seq = 1; seq <= kWrites; ++seq) ASSERT_EQ(answers[seq], 1) << "seq " << seq;
  EXPECT_EQ(acks.state().waiting, 0u);
  EXPECT_EQ(acks.state().present, 2u);
}

// A write held for its standby and confirmed at once from another thread, 5,000 times in turn:
// the confirmation may come while await() is still setting the write's timeout up (under TSan,
// that race was reported in about one run of three at 1,000). Each is answered once, replicated.
TEST(StandbyAcksThreads, AConfirmationRightAfterTheAwaitAnswersTheWriteOnce) {
  constexpr std::uint64_t kWrites = 5000;
  StandbyAcks acks({.required = 1, .timeout = 200ms});
  boost::asio::io_context io;
  auto work = boost::asio::make_work_guard(io);
  std::thread runner([&] { io.run(); });
  std::atomic<std::uint64_t> answered = 0, replicated = 0;
  std::thread standby([&] {
    for (std::uint64_t seq = 1; seq <= kWrites; ++seq) {
      while (acks.state().waiting == 0) std::this_thread::yield();  // the write is held
      acks.confirmed("r1", seq);
    }
  });
  for (std::uint64_t seq = 1; seq <= kWrites; ++seq) {
    acks.await(seq, io.get_executor(), [&](StandbyAcks::Outcome outcome) {
      if (outcome == StandbyAcks::Outcome::replicated) ++replicated;
      ++answered;
    });
    while (answered < seq) std::this_thread::yield();
  }
  standby.join();
  work.reset();
  runner.join();
  EXPECT_EQ(answered, kWrites);
  EXPECT_EQ(replicated, kWrites);
  EXPECT_EQ(acks.state().timed_out, 0u);
}

}  // namespace
}  // namespace tally::daemon
