// The round clock as a fold of its actions at their recorded times (projections/round_clock.hpp):
// what it shows at a moment, which actions each state allows, and what an extension after
// "Time!" gives.
#include "projections/round_clock.hpp"

#include <gtest/gtest.h>

namespace tally::projections {
namespace {

using A = schema::ClockAction;
using S = RoundClock::State;
constexpr std::int64_t kSecond = 1'000'000;
constexpr std::int64_t kMinute = 60 * kSecond;
constexpr std::int64_t kStart = 1'700'000'000 * kSecond;

TEST(RoundClock, RunsPausesAndResumesOnTheRecordedTimes) {
  RoundClock clock;
  EXPECT_EQ(clock.read(kStart).state, S::idle);
  clock.apply(A::START, 60, kStart);
  auto running = clock.read(kStart + 10 * kMinute);
  EXPECT_EQ(running.state, S::running);
  EXPECT_EQ(running.remaining_us, 50 * kMinute);
  EXPECT_EQ(running.ends_at_us, kStart + 60 * kMinute);

  clock.apply(A::PAUSE, 0, kStart + 10 * kMinute);
  // However long the pause, the time left stays.
  EXPECT_EQ(clock.read(kStart + 40 * kMinute).remaining_us, 50 * kMinute);
  EXPECT_EQ(clock.read(kStart + 40 * kMinute).ends_at_us, std::nullopt);
  clock.apply(A::RESUME, 0, kStart + 40 * kMinute);
  EXPECT_EQ(clock.read(kStart + 40 * kMinute).ends_at_us, kStart + 90 * kMinute);
  EXPECT_EQ(clock.read(kStart + 89 * kMinute).remaining_us, kMinute);
}

TEST(RoundClock, ExpiresWhenTheTimeIsUpAndAnExtensionThenCountsFromNow) {
  RoundClock clock;
  clock.apply(A::START, 30, kStart);
  auto up = clock.read(kStart + 31 * kMinute);
  EXPECT_EQ(up.state, S::expired);
  EXPECT_EQ(up.remaining_us, 0);
  EXPECT_EQ(clock.refusal(A::PAUSE, kStart + 31 * kMinute), "api.clock.pause_expired");
  EXPECT_EQ(clock.refusal(A::EXTEND, kStart + 31 * kMinute), std::nullopt);
  // Five more minutes, given three minutes after "Time!": five from now, not two.
  clock.apply(A::EXTEND, 5, kStart + 33 * kMinute);
  auto extended = clock.read(kStart + 33 * kMinute);
  EXPECT_EQ(extended.state, S::running);
  EXPECT_EQ(extended.remaining_us, 5 * kMinute);
  EXPECT_EQ(extended.extended_us, 5 * kMinute);
  EXPECT_EQ(extended.duration_us, 35 * kMinute);
}

TEST(RoundClock, EachStateAllowsOnlyItsActions) {
  RoundClock clock;
  EXPECT_EQ(clock.refusal(A::PAUSE, kStart), "api.clock.not_running");
  EXPECT_EQ(clock.refusal(A::RESUME, kStart), "api.clock.not_paused");
  EXPECT_EQ(clock.refusal(A::EXTEND, kStart), "api.clock.not_started");
  EXPECT_EQ(clock.refusal(A::STOP, kStart), "api.clock.not_started");
  clock.apply(A::START, 10, kStart);
  EXPECT_EQ(clock.refusal(A::START, kStart), "api.clock.started_already");
  clock.apply(A::STOP, 0, kStart + 4 * kMinute);
  auto stopped = clock.read(kStart + 20 * kMinute);
  EXPECT_EQ(stopped.state, S::stopped);
  EXPECT_EQ(stopped.remaining_us, 6 * kMinute);
  EXPECT_EQ(clock.refusal(A::EXTEND, kStart), "api.clock.stopped_already");
  EXPECT_EQ(clock.refusal(A::START, kStart), "api.clock.started_already");
  // An action that does not fit is ignored by the fold (the daemon refused it before).
  clock.apply(A::RESUME, 0, kStart + 30 * kMinute);
  EXPECT_EQ(clock.read(kStart + 30 * kMinute).state, S::stopped);
}

}  // namespace
}  // namespace tally::projections
