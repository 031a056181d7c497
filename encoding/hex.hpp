// Hexadecimal (RFC 4648 §8, base 16) for digests, tokens and secrets: lower-case digits out, either
// case in.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace tally::encoding {

// Two lower-case hex digits per byte.
std::string hex_encode(std::span<const std::uint8_t> bytes);
std::string hex_encode(std::string_view bytes);
// The bytes of an even number of hex digits (either case); nullopt for anything else.
std::optional<std::string> hex_decode(std::string_view text);

}  // namespace tally::encoding
