// Rebuilding the projections from the log at start.
//
// Two threads in a pipeline: one reads the log (RocksDB iteration, copying each event's bytes
// out), the caller's thread decodes the events and folds them into the projections, in seq
// order. On two cores the replay then takes about as long as the slower of the two halves
// instead of their sum. For a log of 100,000 events or more a third thread touches the heap's
// new pages ahead of the fold (daemon/warm_pages.hpp), where the process's allocator takes them. An event that cannot be read (a damaged store) stops the reader and
// leaves replay() as a DamagedLog naming it: tallyd then exits with that message rather than
// dying on Cap'n Proto's exception, which is no std::exception.
//
// Thread safety: call before anything else appends or reads `state` (at start).
#pragma once

#include "daemon/live_state.hpp"
#include "events/store.hpp"

#include <cstdint>
#include <functional>
#include <stdexcept>

namespace tally::daemon {

// The log holds an event that cannot be decoded or folded.
struct DamagedLog : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct ReplayProgress {
  std::uint64_t events = 0;  // folded so far
  std::uint64_t total = 0;   // in the log when the replay started
};

// Folds every event of the log into `state`; `progress` is called about every 2 seconds.
// Returns the number of events folded.
std::uint64_t replay(const events::EventStore& store, LiveState& state,
                     const std::function<void(const ReplayProgress&)>& progress = {});

}  // namespace tally::daemon
