#include "text/text_rule.hpp"

#include <unicode/uchar.h>
#include <unicode/utf8.h>

#include <cstdio>

namespace tally::text {

namespace {

bool is_control(UChar32 c) { return c < 0x20 || (c >= 0x7F && c <= 0x9F); }

bool is_line_separator(UChar32 c) {
  auto category = u_charType(c);
  return category == U_LINE_SEPARATOR || category == U_PARAGRAPH_SEPARATOR;
}

bool is_bidi_control(UChar32 c) {
  return (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069) || c == 0x200E ||
         c == 0x200F || c == 0x061C;
}

// Cf, but for the joiners: U+200C ZWNJ keeps Persian and Indic letters apart, U+200D ZWJ builds
// emoji and conjuncts.
bool is_refused_format(UChar32 c) {
  return u_charType(c) == U_FORMAT_CHAR && c != 0x200C && c != 0x200D;
}

// Letters and symbols drawn as nothing at all.
bool is_blank_looking(UChar32 c) {
  return c == 0x2800 || c == 0x3164 || c == 0xFFA0 || c == 0x115F || c == 0x1160;
}

bool is_combining_mark(UChar32 c) { return (U_GET_GC_MASK(c) & U_GC_M_MASK) != 0; }

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
  int marks_in_a_row = 0;
  const auto* bytes = reinterpret_cast<const uint8_t*>(text.data());
  const auto length = static_cast<int32_t>(text.size());
  for (int32_t i = 0; i < length;) {
    UChar32 c = 0;
    U8_NEXT(bytes, i, length, c);
    if (c < 0) return i18n::Message("rules.text.not_utf8");
    if (is_control(c) || is_line_separator(c))
      return i18n::Message("rules.text.control", {{"code", code_point(c)}});
    if (is_bidi_control(c))
      return i18n::Message("rules.text.bidi_control", {{"code", code_point(c)}});
    if (is_refused_format(c)) return i18n::Message("rules.text.format", {{"code", code_point(c)}});
    if (is_blank_looking(c))
      return i18n::Message("rules.text.blank_looking", {{"code", code_point(c)}});
    marks_in_a_row = is_combining_mark(c) ? marks_in_a_row + 1 : 0;
    if (marks_in_a_row > kMaxCombiningMarks)
      return i18n::Message("rules.text.combining_marks", {{"max", kMaxCombiningMarks}});
    if (!is_invisible(c)) visible = true;
  }
  if (!visible) return i18n::Message("rules.text.nothing_visible");
  return std::nullopt;
}

std::optional<i18n::Message> name_problem(std::string_view name) {
  if (name.size() > kMaxNameBytes)
    return i18n::Message("rules.text.too_long", {{"max", kMaxNameBytes}});
  return text_problem(name);
}

}  // namespace tally::text
