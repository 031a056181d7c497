// StandbyAcks (replicas_ack) on its own: which write answers are released, when, and how — by the
// standbys' positions as their requests say them, the N-th highest counting, a standby started
// again on an empty directory holding nothing, the timeout, and "alone" with the standbys gone.
#include "daemon/replication/standby_acks.hpp"

#include <boost/asio/io_context.hpp>

#include <gtest/gtest.h>

#include <optional>

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

}  // namespace
}  // namespace tally::daemon
