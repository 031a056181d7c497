#include "i18n/language.hpp"

#include <cctype>
#include <cstdlib>
#include <string>
#include <vector>

namespace tally::i18n {

std::string_view code(Lang lang) {
  switch (lang) {
    case Lang::cs:
      return "cs";
    case Lang::it:
      return "it";
    case Lang::ru:
      return "ru";
    case Lang::en:
      break;
  }
  return "en";
}

std::optional<Lang> parse_language(std::string_view tag) {
  // The primary subtag: up to the first '-', '_', '.' or '@'.
  std::size_t end = tag.find_first_of("-_.@");
  std::string primary(tag.substr(0, end));
  for (char& c : primary) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (Lang lang : kLanguages) {
    if (primary == code(lang)) return lang;
  }
  return std::nullopt;
}

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// q of one range's parameters (";q=0.8"); 1 when absent, -1 when malformed.
double quality(std::string_view params) {
  double q = 1;
  while (!params.empty()) {
    std::size_t semi = params.find(';');
    std::string_view param = trim(params.substr(0, semi));
    params = semi == std::string_view::npos ? std::string_view{} : params.substr(semi + 1);
    if (param.size() < 2 || (param[0] != 'q' && param[0] != 'Q') || param[1] != '=') continue;
    std::string_view value = param.substr(2);
    // qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )
    if (value.empty() || value.size() > 5 || (value[0] != '0' && value[0] != '1')) return -1;
    if (value.size() > 1 && value[1] != '.') return -1;
    for (std::size_t i = 2; i < value.size(); ++i) {
      if (!std::isdigit(static_cast<unsigned char>(value[i]))) return -1;
    }
    q = std::strtod(std::string(value).c_str(), nullptr);
    if (q > 1) return -1;
  }
  return q;
}

}  // namespace

std::optional<Lang> negotiate(std::string_view header) {
  std::optional<Lang> best;
  double best_q = 0;
  while (!header.empty()) {
    std::size_t comma = header.find(',');
    std::string_view range = trim(header.substr(0, comma));
    header = comma == std::string_view::npos ? std::string_view{} : header.substr(comma + 1);
    std::size_t semi = range.find(';');
    std::string_view tag = trim(range.substr(0, semi));
    double q = quality(semi == std::string_view::npos ? "" : range.substr(semi + 1));
    if (q <= best_q) continue;  // q=0 is "not this one"; a tie keeps the earlier
    if (auto lang = parse_language(tag)) {
      best = lang;
      best_q = q;
    }
  }
  return best;
}

Lang negotiate(std::string_view header, Lang fallback) {
  return negotiate(header).value_or(fallback);
}

Lang from_environment() {
  for (const char* name : {"LC_ALL", "LC_MESSAGES", "LANG"}) {
    const char* value = std::getenv(name);
    if (value == nullptr || *value == '\0') continue;
    return parse_language(value).value_or(Lang::en);
  }
  return Lang::en;
}

}  // namespace tally::i18n
