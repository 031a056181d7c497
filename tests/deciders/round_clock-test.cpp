// RoundClock's decider without a process: every refusal (each a conflict at field `action`,
// rule `clock`, naming the round) and the event it decides, folded back with the time the
// builder stamps on it (the clock's times are the events' recordedAt).
#include "deciders/round_clock.hpp"

#include "tests/deciders/support.hpp"

#include <gtest/gtest.h>

namespace tally::deciders {
namespace {

using Clock = projections::RoundClock;
using schema::ClockAction;
using tally::testing::TournamentBuilder;
using testing::apply;
using testing::kJudge;
using testing::kOrganizer;
using testing::refusal_of;
using Which = schema::Event::Payload::Which;

constexpr std::int64_t kMinute = 60'000'000;

class RoundClockDecider : public ::testing::Test {
 protected:
  RoundClockDecider() {
    for (const char* p : {"a", "b", "c", "d"}) b.player(p, p);
    b.seat({{"a", "b", "c", "d"}});
  }
  // The time of the builder's last event (what it stamps: 1 s a seq) plus `after_us`.
  std::int64_t now(std::int64_t after_us = 0) const {
    return 1764500000000000 + static_cast<std::int64_t>(b.last_seq()) * 1000000 + after_us;
  }
  Decision<> clock(ClockAction action, std::uint32_t minutes = 0, std::string reason = "",
                   std::int64_t after_us = 0, std::string round = "1") const {
    auto t = b.tournament();
    return decide(
        &t,
        RoundClock{{"cup", std::move(round)}, action, minutes, std::move(reason), now(after_us)},
        kOrganizer);
  }
  Clock::State state(std::int64_t after_us = 0) const {
    return b.tournament().round(1)->clock.read(now(after_us)).state;
  }
  static Refusal refused(const char* key) {
    i18n::Message why(key, {{"round", 1}});
    return Refusal{RefusalKind::conflict, why, {{"clock", "", "action", why}}};
  }

  TournamentBuilder b{"cup", "catan"};
};

TEST_F(RoundClockDecider, StartsTheClockOnTheTournamentsVersion) {
  auto t = b.tournament();
  auto decision = clock(ClockAction::START, 50);
  ASSERT_FALSE(decision.refused()) << decision.refusal().message;
  const Append& append = decision.accepted().append;
  EXPECT_EQ(append.stream, projections::tournament_stream("cup"));
  EXPECT_TRUE(append.expected.accepts(t.version));
  EXPECT_FALSE(append.expected.accepts(t.version + 1));
  ASSERT_EQ(append.events.size(), 1u);
  auto e = append.events[0].reader();
  ASSERT_EQ(e.getPayload().which(), Which::ROUND_CLOCK);
  EXPECT_EQ(e.getPayload().getRoundClock().getRound(), 1u);
  EXPECT_EQ(e.getPayload().getRoundClock().getAction(), ClockAction::START);
  EXPECT_EQ(e.getPayload().getRoundClock().getMinutes(), 50u);
  EXPECT_EQ(std::string(e.getAuthor().cStr()), "organizer");
  apply(b, decision);
  auto reading = b.tournament().round(1)->clock.read(now());
  EXPECT_EQ(reading.state, Clock::State::running);
  EXPECT_EQ(reading.duration_us, 50 * kMinute);
}

TEST_F(RoundClockDecider, PauseResumeExtendWithAReasonAndStopFoldBack) {
  apply(b, clock(ClockAction::START, 50));
  apply(b, clock(ClockAction::PAUSE));
  EXPECT_EQ(state(), Clock::State::paused);
  apply(b, clock(ClockAction::RESUME));
  EXPECT_EQ(state(), Clock::State::running);
  auto extend = clock(ClockAction::EXTEND, 5, "fire alarm");
  ASSERT_FALSE(extend.refused());
  EXPECT_EQ(std::string(extend.accepted().append.events[0].reader().getReason().cStr()),
            "fire alarm");
  apply(b, extend);
  EXPECT_EQ(b.tournament().round(1)->clock.read(now()).extended_us, 5 * kMinute);
  // A judge runs the clock too: the author is the judge.
  auto stop = [&] {
    auto t = b.tournament();
    return decide(&t, RoundClock{{"cup", "1"}, ClockAction::STOP, 0, "", now()}, kJudge);
  }();
  EXPECT_EQ(std::string(stop.accepted().append.events[0].reader().getAuthor().cStr()), "j1");
  apply(b, stop);
  EXPECT_EQ(state(), Clock::State::stopped);
}

TEST_F(RoundClockDecider, AStartedClockDoesNotStartAgain) {
  apply(b, clock(ClockAction::START, 50));
  EXPECT_EQ(refusal_of(clock(ClockAction::START, 50)), refused("api.clock.started_already"));
}

TEST_F(RoundClockDecider, OnlyARunningClockPausesAndAnExpiredOneDoesNot) {
  EXPECT_EQ(refusal_of(clock(ClockAction::PAUSE)), refused("api.clock.not_running"));
  apply(b, clock(ClockAction::START, 1));
  // A minute and a second later the time is up: "Time!" cannot be paused.
  EXPECT_EQ(refusal_of(clock(ClockAction::PAUSE, 0, "", 61'000'000)),
            refused("api.clock.pause_expired"));
  // … but it can be extended (from now) or stopped.
  EXPECT_FALSE(clock(ClockAction::EXTEND, 5, "late start", 61'000'000).refused());
  EXPECT_FALSE(clock(ClockAction::STOP, 0, "", 61'000'000).refused());
}

TEST_F(RoundClockDecider, OnlyAPausedClockResumes) {
  EXPECT_EQ(refusal_of(clock(ClockAction::RESUME)), refused("api.clock.not_paused"));
  apply(b, clock(ClockAction::START, 50));
  EXPECT_EQ(refusal_of(clock(ClockAction::RESUME)), refused("api.clock.not_paused"));
}

TEST_F(RoundClockDecider, ExtendAndStopNeedAStartedClockNotAStoppedOne) {
  EXPECT_EQ(refusal_of(clock(ClockAction::EXTEND, 5, "why")), refused("api.clock.not_started"));
  EXPECT_EQ(refusal_of(clock(ClockAction::STOP)), refused("api.clock.not_started"));
  apply(b, clock(ClockAction::START, 50));
  apply(b, clock(ClockAction::STOP));
  EXPECT_EQ(refusal_of(clock(ClockAction::STOP)), refused("api.clock.stopped_already"));
  EXPECT_EQ(refusal_of(clock(ClockAction::EXTEND, 5, "why")), refused("api.clock.stopped_already"));
}

TEST_F(RoundClockDecider, ARoundNotSeatedOrNoTournamentIsNotFound) {
  EXPECT_EQ(
      refusal_of(clock(ClockAction::START, 50, "", 0, "2")),
      (Refusal{RefusalKind::not_found,
               i18n::Message("api.round.not_found", {{"round", "2"}, {"tournament", "cup"}})}));
  EXPECT_EQ(refusal_of(decide(nullptr, RoundClock{{"gone", "1"}}, kOrganizer)),
            (Refusal{RefusalKind::not_found,
                     i18n::Message("api.tournament.not_found", {{"id", "gone"}})}));
}

}  // namespace
}  // namespace tally::deciders
