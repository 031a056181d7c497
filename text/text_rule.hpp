// Rule `text` (contract "Names and messages"): what a name or a reason — text that people read on
// a screen, a phone, a printout or a terminal — may hold. Refused:
//   - C0 and C1 control characters and the line and paragraph separators U+2028/U+2029 (a reason
//     can neither cut itself short nor rewrite a terminal);
//   - format characters (general category Cf): the bidirectional controls and marks (one name must
//     not reverse the next one on a line), tag characters, interlinear annotations, soft hyphens —
//     except the zero-width joiner and non-joiner, which some scripts and emoji need;
//   - characters that look blank but are not white space (U+2800 BRAILLE PATTERN BLANK, the Hangul
//     fillers): a "name" nobody can see or read aloud;
//   - more than kMaxCombiningMarks combining marks on one letter (a runaway stack spills over the
//     lines above and below);
//   - a text with nothing visible in it once white space and invisible characters (ICU's
//     Default_Ignorable_Code_Point) are taken away.
// A name also has at most kMaxNameBytes bytes, however it comes in (POST, PATCH, a CSV import, a
// registration): name_problem().
//
// Thread safety: pure functions.
#pragma once

#include "i18n/message.hpp"

#include <cstddef>
#include <optional>
#include <string_view>

namespace tally::text {

inline constexpr std::size_t kMaxNameBytes = 200;
// Vietnamese stacks two marks, pointed Hebrew and Arabic three; nothing a person is called needs
// five.
inline constexpr int kMaxCombiningMarks = 4;

// Why `text` breaks rule `text` (a catalog message), or nullopt when it may be shown. REQUIRES:
// `text` is UTF-8 (the JSON parser has checked it; invalid UTF-8 is reported, not read past).
std::optional<i18n::Message> text_problem(std::string_view text);

// Why `name` (a player's, a judge's, a tournament's) may not be registered: longer than
// kMaxNameBytes (rules.text.too_long), or text_problem(). The one rule for every way a name comes
// in.
std::optional<i18n::Message> name_problem(std::string_view name);

}  // namespace tally::text
