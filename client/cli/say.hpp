// The CLI's texts for people: keys of the cli catalogs (i18n/catalogs/cli.{en,cs,it,ru}.json)
// rendered with ICU MessageFormat in the language the user chose — `--lang`, else LC_ALL,
// LC_MESSAGES or LANG. Machine output (--json, --csv, ids, exit codes) never comes from here.
#pragma once

#include "i18n/catalog.hpp"
#include "i18n/language.hpp"
#include "i18n/message.hpp"

#include <string>

namespace tally::cli {

// `message` in `lang` (a verbatim message as it is).
std::string say(i18n::Lang lang, const i18n::Message& message);

}  // namespace tally::cli
