// Random secrets from OpenSSL's CSPRNG (bearer tokens, seating seeds), and the private files
// secrets are kept in.
//
// Thread safety: safe from any thread.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace tally::daemon {

// "tly_" + 64 hex digits (256 random bits).
std::string random_token();
// A non-zero 64-bit seed for a random draw.
std::uint64_t random_seed();

// Writes `line` and a newline to `file` with mode 0600, replacing it atomically (a temporary
// file synced, then renamed): a token, a secret, a mark that must never be seen torn. Throws
// std::runtime_error naming the file when it cannot.
void write_private_file(const std::filesystem::path& file, const std::string& line);

}  // namespace tally::daemon
