// Rule `text` (contract "Names and messages"): what a name or a reason — text that people read on
// a screen, a phone, a printout or a terminal — may hold. Refused: C0 and C1 control characters
// (NUL, line breaks and escapes included: a reason can neither cut itself short nor rewrite a
// terminal), the bidirectional controls U+202A–U+202E and U+2066–U+2069 (one name must not
// reverse the next one on a line), and a text with nothing visible in it once white space and
// invisible characters (ICU's Default_Ignorable_Code_Point: zero-width spaces and joiners,
// soft hyphens, Hangul fillers …) are taken away.
//
// Thread safety: pure functions.
#pragma once

#include "i18n/message.hpp"

#include <optional>
#include <string_view>

namespace tally::projections {

// Why `text` breaks rule `text` (a catalog message), or nullopt when it may be shown. REQUIRES:
// `text` is UTF-8 (the JSON parser has checked it).
std::optional<i18n::Message> text_problem(std::string_view text);

}  // namespace tally::projections
