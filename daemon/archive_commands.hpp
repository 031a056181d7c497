// `tallyd export` and `tallyd import`: the log as JSON Lines, out of a stopped server's store and
// into a new one (a running server exports through GET /v1/export).
#pragma once

#include <string>
#include <vector>

namespace tally::daemon {

// True when `args` (argv without the program) starts with one of these commands.
bool is_archive_command(const std::vector<std::string>& args);
// Runs it; returns the process exit code (0 ok, 1 refused or failed, 2 usage).
int run_archive_command(const std::vector<std::string>& args);

}  // namespace tally::daemon
