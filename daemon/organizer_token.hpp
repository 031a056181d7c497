// The organizer's token: the file it is written to, the event that makes a token the only
// organizer token (POST /v1/organizer/token), and `tallyd reset-organizer` for a lost or leaked
// one while the server is stopped.
#pragma once

#include "events/store.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace tally::daemon {

// The event that makes `token` the organizer's token from now on; every earlier organizer token
// stops working at once. Stream "judges".
events::Draft organizer_token_event(const std::string& token, const std::string& author);

// True when `args` (argv without the program) is `reset-organizer …`.
bool is_reset_organizer_command(const std::vector<std::string>& args);
// Runs it; returns the process exit code (0 done, 1 failed, 2 usage).
int run_reset_organizer(const std::vector<std::string>& args);

}  // namespace tally::daemon
