#include "client/cli/text.hpp"

#include <unicode/locid.h>
#include <unicode/unistr.h>

namespace tally::cli {

std::string trim(const std::string& s) {
  std::size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

std::string lower(const std::string& s) {
  icu::UnicodeString text = icu::UnicodeString::fromUTF8(s);
  text.toLower(icu::Locale::getRoot());
  std::string out;
  text.toUTF8String(out);
  return out;
}

}  // namespace tally::cli
