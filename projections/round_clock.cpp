#include "projections/round_clock.hpp"

#include <algorithm>

namespace tally::projections {

namespace {
constexpr std::int64_t kMinute = 60'000'000;
}

std::int64_t RoundClock::used_at(std::int64_t now_us) const {
  if (stored_ != Stored::running) return used_us_;
  return used_us_ + std::max<std::int64_t>(0, now_us - running_since_us_);
}

std::optional<std::string_view> RoundClock::refusal(schema::ClockAction action,
                                                    std::int64_t now_us) const {
  State state = read(now_us).state;
  using A = schema::ClockAction;
  switch (action) {
    case A::START:
      if (state == State::idle) return std::nullopt;
      return "api.clock.started_already";
    case A::PAUSE:
      if (state == State::running) return std::nullopt;
      if (state == State::expired) return "api.clock.pause_expired";
      return "api.clock.not_running";
    case A::RESUME:
      if (state == State::paused) return std::nullopt;
      return "api.clock.not_paused";
    case A::EXTEND:
    case A::STOP:
      if (state == State::running || state == State::paused || state == State::expired)
        return std::nullopt;
      return state == State::idle ? "api.clock.not_started" : "api.clock.stopped_already";
  }
  return "api.clock.not_started";
}

void RoundClock::apply(schema::ClockAction action, std::uint32_t minutes, std::int64_t at_us) {
  if (refusal(action, at_us)) return;
  using A = schema::ClockAction;
  switch (action) {
    case A::START:
      stored_ = Stored::running;
      duration_us_ = minutes * kMinute;
      used_us_ = 0;
      running_since_us_ = at_us;
      break;
    case A::PAUSE:
      used_us_ = used_at(at_us);
      stored_ = Stored::paused;
      break;
    case A::RESUME:
      stored_ = Stored::running;
      running_since_us_ = at_us;
      break;
    case A::EXTEND:
      // An extension after the time ran out gives the added minutes from now, not what is left
      // of them after the minutes that passed since "Time!".
      if (stored_ == Stored::running) {
        used_us_ = std::min(used_at(at_us), duration_us_);
        running_since_us_ = at_us;
      }
      duration_us_ += minutes * kMinute;
      extended_us_ += minutes * kMinute;
      break;
    case A::STOP:
      used_us_ = std::min(used_at(at_us), duration_us_);
      stored_ = Stored::stopped;
      break;
  }
}

RoundClock::Reading RoundClock::read(std::int64_t now_us) const {
  Reading r;
  r.duration_us = duration_us_;
  r.extended_us = extended_us_;
  r.remaining_us = std::max<std::int64_t>(0, duration_us_ - used_at(now_us));
  switch (stored_) {
    case Stored::idle:
      r.state = State::idle;
      break;
    case Stored::paused:
      r.state = State::paused;
      break;
    case Stored::stopped:
      r.state = State::stopped;
      break;
    case Stored::running:
      r.state = r.remaining_us > 0 ? State::running : State::expired;
      r.ends_at_us = running_since_us_ + (duration_us_ - used_us_);
      break;
  }
  return r;
}

const char* clock_state_name(RoundClock::State state) {
  switch (state) {
    case RoundClock::State::idle:
      return "idle";
    case RoundClock::State::running:
      return "running";
    case RoundClock::State::paused:
      return "paused";
    case RoundClock::State::expired:
      return "expired";
    case RoundClock::State::stopped:
      return "stopped";
  }
  return "idle";
}

const char* clock_action_name(schema::ClockAction action) {
  switch (action) {
    case schema::ClockAction::START:
      return "start";
    case schema::ClockAction::PAUSE:
      return "pause";
    case schema::ClockAction::RESUME:
      return "resume";
    case schema::ClockAction::EXTEND:
      return "extend";
    case schema::ClockAction::STOP:
      return "stop";
  }
  return "stop";
}

std::optional<schema::ClockAction> parse_clock_action(std::string_view name) {
  for (auto a :
       {schema::ClockAction::START, schema::ClockAction::PAUSE, schema::ClockAction::RESUME,
        schema::ClockAction::EXTEND, schema::ClockAction::STOP}) {
    if (name == clock_action_name(a)) return a;
  }
  return std::nullopt;
}

}  // namespace tally::projections
