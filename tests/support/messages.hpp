// Messages as a person reads them, for tests: a rule's Message rendered in a language from the
// built-in catalogs, players named by `names` (id → name; ids as they are when absent).
#pragma once

#include "i18n/catalog.hpp"

#include <map>
#include <string>

namespace tally::testing {

inline std::string rendered(const i18n::Message& message, i18n::Lang lang = i18n::Lang::en,
                            const std::map<std::string, std::string>& names = {}) {
  return i18n::Catalogs::builtin().render(lang, message, [&](std::string_view id) {
    auto it = names.find(std::string(id));
    return it == names.end() ? std::string(id) : it->second;
  });
}

// English, ids as names: what the rules' unit tests compare with.
inline std::string english(const i18n::Message& message) { return rendered(message); }

}  // namespace tally::testing
