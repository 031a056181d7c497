#include "client/cli/say.hpp"

namespace tally::cli {

std::string say(i18n::Lang lang, const i18n::Message& message) {
  return i18n::Catalogs::builtin().render(lang, message);
}

}  // namespace tally::cli
