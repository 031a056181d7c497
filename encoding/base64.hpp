// Base64 (RFC 4648): the standard alphabet with padding (§4; event bytes in exports, CSV files
// sent as bytes) and the URL-safe alphabet without padding (§5; table tokens, which go in URLs).
//
// Thread safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tally::encoding {

// Standard alphabet (`+/`), padded with `=` to a multiple of 4.
std::string base64_encode(std::string_view bytes);
// nullopt when `text` is not valid padded standard base64.
std::optional<std::string> base64_decode(std::string_view text);

// URL-safe alphabet (`-_`), no padding.
std::string base64url_encode(std::string_view bytes);
// nullopt when `text` is not valid unpadded URL-safe base64 (padding is refused too).
std::optional<std::string> base64url_decode(std::string_view text);

}  // namespace tally::encoding
