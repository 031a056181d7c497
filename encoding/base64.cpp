#include "encoding/base64.hpp"

#include <algorithm>
#include <cstdint>

namespace tally::encoding {

namespace {
constexpr char kStandard[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr char kUrlSafe[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

int value_of(char c, const char* alphabet) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == alphabet[62]) return 62;
  if (c == alphabet[63]) return 63;
  return -1;
}

std::string encode(std::string_view bytes, const char* alphabet, bool pad) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    std::uint32_t chunk = static_cast<std::uint8_t>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) chunk |= static_cast<std::uint8_t>(bytes[i + 1]) << 8;
    if (i + 2 < bytes.size()) chunk |= static_cast<std::uint8_t>(bytes[i + 2]);
    out += alphabet[(chunk >> 18) & 63];
    out += alphabet[(chunk >> 12) & 63];
    if (i + 1 < bytes.size()) {
      out += alphabet[(chunk >> 6) & 63];
    } else if (pad) {
      out += '=';
    }
    if (i + 2 < bytes.size()) {
      out += alphabet[chunk & 63];
    } else if (pad) {
      out += '=';
    }
  }
  return out;
}

// Groups of 4 characters, the last one of 2 or 3 (unpadded) or padded to 4 with `=`. The unused
// low bits of a short last group are ignored, as the decoder this replaced did (RFC 4648 §3.5
// allows either).
std::optional<std::string> decode(std::string_view text, const char* alphabet, bool padded) {
  if (padded) {
    if (text.size() % 4 != 0) return std::nullopt;
    if (!text.empty() && text.back() == '=') text.remove_suffix(1);
    if (!text.empty() && text.back() == '=') text.remove_suffix(1);
    if (text.size() % 4 == 1) return std::nullopt;  // `===` or more
  } else if (text.size() % 4 == 1) {
    return std::nullopt;
  }
  std::string out;
  out.reserve(text.size() / 4 * 3 + 2);
  for (std::size_t i = 0; i < text.size(); i += 4) {
    const std::size_t n = std::min<std::size_t>(4, text.size() - i);
    std::uint32_t chunk = 0;
    for (std::size_t k = 0; k < 4; ++k) {
      int v = 0;
      if (k < n) {
        v = value_of(text[i + k], alphabet);
        if (v < 0) return std::nullopt;
      }
      chunk = (chunk << 6) | static_cast<std::uint32_t>(v);
    }
    out += static_cast<char>((chunk >> 16) & 0xff);
    if (n >= 3) out += static_cast<char>((chunk >> 8) & 0xff);
    if (n == 4) out += static_cast<char>(chunk & 0xff);
  }
  return out;
}
}  // namespace

std::string base64_encode(std::string_view bytes) { return encode(bytes, kStandard, true); }

std::optional<std::string> base64_decode(std::string_view text) {
  return decode(text, kStandard, true);
}

std::string base64url_encode(std::string_view bytes) { return encode(bytes, kUrlSafe, false); }

std::optional<std::string> base64url_decode(std::string_view text) {
  return decode(text, kUrlSafe, false);
}

}  // namespace tally::encoding
