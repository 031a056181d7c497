// The message catalogs (i18n/catalogs/{area}.{lang}.json, built into the binary): for each
// language, a key → an ICU MessageFormat pattern ("{count, plural, one {# stůl} few {# stoly}
// other {# stolů}}"). Rendering uses ICU for plurals, numbers and lists; a key missing in a
// language falls back to English (the completeness test keeps that from happening).
//
// Thread safety: a Catalogs is immutable after construction; render() may be called from any
// number of threads at once (the compiled patterns are cached per thread).
#pragma once

#include "i18n/language.hpp"
#include "i18n/message.hpp"

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace tally::i18n {

// A player's name by id (the renderer shows names, never ids); empty function: the id itself.
using Namer = std::function<std::string(std::string_view id)>;

class Catalogs {
 public:
  // Every catalog built into this binary (all areas, all languages).
  static const Catalogs& builtin();

  // From catalog files' texts: {rules.cs → {…json…}, …}. Throws std::runtime_error naming
  // the file on malformed JSON, a non-string pattern, an unknown language or a key twice.
  explicit Catalogs(const std::vector<std::pair<std::string, std::string>>& files);

  std::string render(Lang lang, const Message& message, const Namer& names = {}) const;
  // A key without arguments ("status.404", "house.stark").
  std::string text(Lang lang, std::string_view key) const;

  bool has(Lang lang, std::string_view key) const;
  // The pattern of a key in a language (empty when missing) and every key of a language.
  const std::string* pattern(Lang lang, std::string_view key) const;
  std::vector<std::string> keys(Lang lang) const;
  // The area ("rules", "api", "cli") a key was loaded from.
  std::string area_of(std::string_view key) const;

 private:
  std::array<std::map<std::string, std::string, std::less<>>, 4> patterns_;
  std::map<std::string, std::string, std::less<>> areas_;
  const void* identity_;  // distinguishes catalogs in the per-thread cache
};

}  // namespace tally::i18n
