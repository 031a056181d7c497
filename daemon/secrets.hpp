// Random secrets from OpenSSL's CSPRNG: bearer tokens and seating seeds.
//
// Thread safety: safe from any thread.
#pragma once

#include <cstdint>
#include <string>

namespace tally::daemon {

// "tly_" + 64 hex digits (256 random bits).
std::string random_token();
// A non-zero 64-bit seed for a random draw.
std::uint64_t random_seed();

}  // namespace tally::daemon
