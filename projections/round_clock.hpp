// A round's clock as its events make it (start, pause, resume, extend, stop), and what it shows
// at a given moment. Times are the events' `recordedAt` (server time, µs), so a reload, a
// reconnect or a restart shows the same time: nothing but the log decides it.
//
// Thread safety: a value type; pure functions.
#pragma once

#include "schema/tally.capnp.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace tally::projections {

class RoundClock {
 public:
  // What the clock shows. `expired` is not an event: a running clock whose time is up.
  enum class State { idle, running, paused, expired, stopped };

  struct Reading {
    State state = State::idle;
    std::int64_t duration_us = 0;            // the round's length with every extension
    std::int64_t extended_us = 0;            // the extensions alone ("+5 min")
    std::int64_t remaining_us = 0;           // never negative
    std::optional<std::int64_t> ends_at_us;  // while running (or expired): when time is up
  };

  // Why an action is not allowed now (the catalog key of the refusal), or nullopt when it is.
  // `now_us` decides whether a running clock has expired (an expired clock cannot be paused).
  std::optional<std::string_view> refusal(schema::ClockAction action, std::int64_t now_us) const;

  // Folds one clock action recorded at `at_us`. REQUIRES: refusal(action, at_us) is nullopt
  // (the daemon checks it before appending); an action that does not fit is ignored.
  void apply(schema::ClockAction action, std::uint32_t minutes, std::int64_t at_us);

  Reading read(std::int64_t now_us) const;

 private:
  enum class Stored { idle, running, paused, stopped };
  Stored stored_ = Stored::idle;
  std::int64_t duration_us_ = 0;
  std::int64_t extended_us_ = 0;
  std::int64_t used_us_ = 0;           // time run before running_since_us_
  std::int64_t running_since_us_ = 0;  // while running

  std::int64_t used_at(std::int64_t now_us) const;
};

const char* clock_state_name(RoundClock::State state);
const char* clock_action_name(schema::ClockAction action);
std::optional<schema::ClockAction> parse_clock_action(std::string_view name);

}  // namespace tally::projections
