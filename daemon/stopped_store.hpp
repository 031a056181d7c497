// The store of a stopped tallyd, for the commands that work on a data directory by themselves
// (`tallyd export`, `reset-organizer`, `promote`).
#pragma once

#include "events/store.hpp"

#include <filesystem>
#include <memory>
#include <string_view>

namespace tally::daemon {

// DATA/store opened (never created); null, with "tallyd COMMAND: cannot open the store in DATA
// (HINT): why" said on stderr, when it does not exist or a running tallyd holds it.
std::unique_ptr<events::EventStore> open_stopped_store(const std::filesystem::path& data,
                                                       std::string_view command,
                                                       std::string_view hint);

}  // namespace tally::daemon
