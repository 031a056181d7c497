// `tallyd promote --data DIR` (docs/operations.md, "Promotion and fencing"): makes a stopped
// follower's copy the primary of its log. It appends `primary_promoted` with the next epoch, so the
// server it followed is a former primary from then on (followers that have seen the new epoch
// refuse it and fence it), and removes DIR/follows, the mark that keeps a follower's copy from
// being started as a primary by mistake.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace tally::daemon {

// DIR/follows: the URL of the primary a follower's copy was made from (written by the follower
// at each start). A data directory with it starts only as a follower, until promoted.
std::filesystem::path follows_file(const std::filesystem::path& data);
std::optional<std::string> read_follows(const std::filesystem::path& data);
void write_follows(const std::filesystem::path& data, const std::string& primary_url);

// True when `args` (argv without the program) is `promote …`.
bool is_promote_command(const std::vector<std::string>& args);
// Runs it; returns the process exit code (0 done, 1 failed, 2 usage).
int run_promote(const std::vector<std::string>& args);

}  // namespace tally::daemon
