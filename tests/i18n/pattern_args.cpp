#include "tests/i18n/pattern_args.hpp"

#include <cctype>

namespace tally::testing {
namespace {

struct Scanner {
  std::string_view s;
  std::size_t i = 0;
  std::set<std::string> names;
  bool ok = true;

  bool at_end() const { return i >= s.size(); }
  void skip_space() {
    while (!at_end() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  }
  std::string word() {  // up to a space, ',', '{' or '}'
    skip_space();
    std::size_t start = i;
    while (!at_end() && s[i] != ',' && s[i] != '{' && s[i] != '}' &&
           !std::isspace(static_cast<unsigned char>(s[i]))) {
      ++i;
    }
    return std::string(s.substr(start, i - start));
  }

  // Text up to the '}' closing this (sub-)message, or the end at depth 0.
  void message(bool nested) {
    while (!at_end()) {
      char c = s[i];
      if (c == '\'') {  // ICU: '' is a quote; '{…' quotes up to the next single quote
        if (i + 1 < s.size() && s[i + 1] == '\'') {
          i += 2;
        } else if (i + 1 < s.size() && (s[i + 1] == '{' || s[i + 1] == '}' || s[i + 1] == '#')) {
          std::size_t end = s.find('\'', i + 1);
          i = end == std::string_view::npos ? s.size() : end + 1;
        } else {
          ++i;
        }
      } else if (c == '{') {
        ++i;
        argument();
      } else if (c == '}') {
        if (!nested) ok = false;
        return;
      } else {
        ++i;
      }
    }
    if (nested) ok = false;
  }

  // After an argument's name or type: true at a ',' (another part follows, consumed); false at
  // the argument's closing '}' (consumed) or when neither follows (then not ok).
  bool next_part() {
    skip_space();
    if (!at_end() && s[i] == '}') {
      ++i;
      return false;
    }
    if (at_end() || s[i] != ',') {
      ok = false;
      return false;
    }
    ++i;
    return true;
  }

  // After '{': name [, type [, style]] '}'.
  void argument() {
    names.insert(word());
    if (!next_part()) return;
    std::string type = word();
    if (!next_part()) return;
    if (type == "plural" || type == "select" || type == "selectordinal") {
      // selector {sub-message} … '}'
      while (ok) {
        skip_space();
        if (at_end()) {
          ok = false;
          return;
        }
        if (s[i] == '}') {
          ++i;
          return;
        }
        std::string selector = word();
        if (selector.rfind("offset:", 0) == 0) continue;
        skip_space();
        if (at_end() || s[i] != '{') {
          ok = false;
          return;
        }
        ++i;
        message(true);
        if (at_end()) {
          ok = false;
          return;
        }
        ++i;  // the sub-message's '}'
      }
      return;
    }
    // number/date/time style (a skeleton "::…" or a pattern): up to the balancing '}'.
    int depth = 1;
    while (!at_end() && depth > 0) {
      if (s[i] == '{') ++depth;
      if (s[i] == '}') --depth;
      ++i;
    }
    if (depth != 0) ok = false;
  }
};

}  // namespace

std::optional<std::set<std::string>> argument_names(std::string_view pattern) {
  Scanner scanner{pattern};
  scanner.message(false);
  if (!scanner.ok) return std::nullopt;
  return scanner.names;
}

}  // namespace tally::testing
