// The organizer's token: the file it is written to, and `tallyd reset-organizer` for a lost or
// leaked one while the server is stopped (the event itself: deciders/judges.hpp).
#pragma once

#include "events/store.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace tally::daemon {

// True when `args` (argv without the program) is `reset-organizer …`.
bool is_reset_organizer_command(const std::vector<std::string>& args);
// Runs it; returns the process exit code (0 done, 1 failed, 2 usage).
int run_reset_organizer(const std::vector<std::string>& args);

}  // namespace tally::daemon
