// Base64 (RFC 4648, with padding) for event bytes in exports.
//
// Thread safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tally::events {

std::string base64_encode(std::string_view bytes);
// nullopt when `text` is not valid padded base64.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace tally::events
