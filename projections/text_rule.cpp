#include "projections/text_rule.hpp"

#include <unicode/uchar.h>
#include <unicode/utf8.h>

#include <cstdio>

namespace tally::projections {

namespace {

bool is_bidi_control(UChar32 c) {
  return (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
}

bool is_control(UChar32 c) { return c < 0x20 || (c >= 0x7F && c <= 0x9F); }

bool is_invisible(UChar32 c) {
  return u_isUWhiteSpace(c) || u_hasBinaryProperty(c, UCHAR_DEFAULT_IGNORABLE_CODE_POINT);
}

// "U+202E", for the message.
std::string code_point(UChar32 c) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "U+%04X", static_cast<unsigned>(c));
  return buffer;
}

}  // namespace

std::optional<i18n::Message> text_problem(std::string_view text) {
  bool visible = false;
  const auto* bytes = reinterpret_cast<const uint8_t*>(text.data());
  const auto length = static_cast<int32_t>(text.size());
  for (int32_t i = 0; i < length;) {
    UChar32 c = 0;
    U8_NEXT(bytes, i, length, c);
    if (c < 0) return i18n::Message("rules.text.not_utf8");
    if (is_control(c)) return i18n::Message("rules.text.control", {{"code", code_point(c)}});
    if (is_bidi_control(c))
      return i18n::Message("rules.text.bidi_control", {{"code", code_point(c)}});
    if (!is_invisible(c)) visible = true;
  }
  if (!visible) return i18n::Message("rules.text.nothing_visible");
  return std::nullopt;
}

}  // namespace tally::projections
