// The languages tallyd speaks (cs, it, ru, en) and who chooses one: an HTTP Accept-Language, a
// tournament's locale, the CLI's --lang or its environment (LC_ALL, LC_MESSAGES, LANG).
//
// Thread safety: free functions on values.
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace tally::i18n {

enum class Lang { en, cs, it, ru };
inline constexpr std::array<Lang, 4> kLanguages = {Lang::en, Lang::cs, Lang::it, Lang::ru};

// "en", "cs", "it", "ru".
std::string_view code(Lang lang);

// The language of a tag or locale: "cs", "CS", "cs-CZ", "cs_CZ.UTF-8", "it@euro" → that
// language; anything else (including "", "C", "POSIX", "de") → nullopt.
std::optional<Lang> parse_language(std::string_view tag);

// The language for an Accept-Language header (RFC 9110 §12.5.4): the listed language with the
// highest q among ours ("*" means `fallback`), ties by order; `fallback` when none is ours or the
// header is absent or malformed.
Lang negotiate(std::string_view accept_language, Lang fallback);
// As above, but nullopt when the header names none of ours (so the caller can try a tournament's
// locale before English).
std::optional<Lang> negotiate(std::string_view accept_language);

// The CLI's language from its environment: LC_ALL, then LC_MESSAGES, then LANG (POSIX order);
// the first one set decides ("C" → English).
Lang from_environment();

}  // namespace tally::i18n
