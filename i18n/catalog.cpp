#include "i18n/catalog.hpp"

#include <unicode/fmtable.h>
#include <unicode/listformatter.h>
#include <unicode/msgfmt.h>
#include <unicode/numberformatter.h>
#include <boost/json/parse.hpp>

#include <memory>
#include <stdexcept>
#include <unordered_map>

namespace tally::i18n {

// Defined in the generated catalogs_data.cpp: the catalog files built into the binary.
const std::vector<std::pair<std::string, std::string>>& builtin_catalog_files();

namespace {

std::size_t index(Lang lang) { return static_cast<std::size_t>(lang); }

icu::Locale locale_of(Lang lang) { return icu::Locale(std::string(code(lang)).c_str()); }

icu::UnicodeString unicode(std::string_view s) {
  return icu::UnicodeString::fromUTF8(icu::StringPiece(s.data(), static_cast<int32_t>(s.size())));
}

std::string utf8(const icu::UnicodeString& s) {
  std::string out;
  s.toUTF8String(out);
  return out;
}

std::string name_of(const Namer& names, const std::string& id) { return names ? names(id) : id; }

// "Eva, Petr and Jana" ("… or …") in the language's own way.
icu::UnicodeString list(Lang lang, const std::vector<std::string>& items,
                        Joiner joiner = Joiner::and_) {
  UErrorCode status = U_ZERO_ERROR;
  std::unique_ptr<icu::ListFormatter> formatter(icu::ListFormatter::createInstance(
      locale_of(lang), joiner == Joiner::or_ ? ULISTFMT_TYPE_OR : ULISTFMT_TYPE_AND,
      ULISTFMT_WIDTH_WIDE, status));
  std::vector<icu::UnicodeString> parts;
  for (const auto& item : items) parts.push_back(unicode(item));
  icu::UnicodeString out;
  if (U_SUCCESS(status)) {
    formatter->format(parts.data(), static_cast<int32_t>(parts.size()), out, status);
  }
  if (U_FAILURE(status)) {
    out.remove();
    for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? ", " : "") + parts[i];
  }
  return out;
}

icu::UnicodeString integer(Lang lang, std::int64_t n) {
  UErrorCode status = U_ZERO_ERROR;
  auto formatted = icu::number::NumberFormatter::withLocale(locale_of(lang)).formatInt(n, status);
  icu::UnicodeString out = formatted.toString(status);
  if (U_FAILURE(status)) return unicode(std::to_string(n));
  return out;
}

icu::UnicodeString decimal(Lang lang, const Decimal& d) {
  UErrorCode status = U_ZERO_ERROR;
  auto formatted = icu::number::NumberFormatter::withLocale(locale_of(lang))
                       .precision(icu::number::Precision::fixedFraction(d.digits))
                       .formatDouble(d.value, status);
  icu::UnicodeString out = formatted.toString(status);
  if (U_FAILURE(status)) return unicode(std::to_string(d.value));
  return out;
}

}  // namespace

const Catalogs& Catalogs::builtin() {
  static const Catalogs catalogs(builtin_catalog_files());
  return catalogs;
}

Catalogs::Catalogs(const std::vector<std::pair<std::string, std::string>>& files)
    : identity_(this) {
  for (const auto& [name, text] : files) {
    // rules.cs: area "rules", language "cs".
    std::size_t dot = name.rfind('.');
    auto lang = dot == std::string::npos ? std::nullopt : parse_language(name.substr(dot + 1));
    if (!lang || code(*lang) != name.substr(dot + 1)) {
      throw std::runtime_error("catalog " + name + ": the name must end in .en, .cs, .it or .ru");
    }
    std::string area = name.substr(0, dot);
    boost::system::error_code ec;
    boost::json::value parsed = boost::json::parse(text, ec);
    if (ec || !parsed.is_object()) {
      throw std::runtime_error("catalog " + name + ": not a JSON object (" + ec.message() + ")");
    }
    for (const auto& [key, pattern] : parsed.as_object()) {
      if (!pattern.is_string()) {
        throw std::runtime_error("catalog " + name + ": \"" + std::string(key) +
                                 "\" is not a string");
      }
      auto [it, added] = patterns_[index(*lang)].emplace(std::string(key), pattern.as_string());
      if (!added) {
        throw std::runtime_error("catalog " + name + ": \"" + std::string(key) +
                                 "\" is defined twice");
      }
      auto [area_it, new_key] = areas_.emplace(std::string(key), area);
      if (!new_key && area_it->second != area) {
        throw std::runtime_error("catalog " + name + ": \"" + std::string(key) +
                                 "\" is also in area " + area_it->second);
      }
    }
  }
}

const std::string* Catalogs::pattern(Lang lang, std::string_view key) const {
  const auto& table = patterns_[index(lang)];
  auto it = table.find(key);
  return it == table.end() ? nullptr : &it->second;
}

bool Catalogs::has(Lang lang, std::string_view key) const { return pattern(lang, key) != nullptr; }

std::vector<std::string> Catalogs::keys(Lang lang) const {
  std::vector<std::string> out;
  for (const auto& [key, pattern] : patterns_[index(lang)]) out.push_back(key);
  return out;
}

std::string Catalogs::area_of(std::string_view key) const {
  auto it = areas_.find(key);
  return it == areas_.end() ? "" : it->second;
}

std::string Catalogs::text(Lang lang, std::string_view key) const {
  return render(lang, Message(std::string(key)));
}

std::string Catalogs::render(Lang lang, const Message& message, const Namer& names) const {
  if (message.key.empty()) return message.literal;
  Lang used = lang;
  const std::string* source = pattern(lang, message.key);
  if (source == nullptr) {
    used = Lang::en;
    source = pattern(Lang::en, message.key);
  }
  if (source == nullptr) return message.key;  // a key nobody wrote: shown, and the test fails

  // Compiled patterns are kept per thread: an icu::MessageFormat is not safe to share.
  thread_local std::unordered_map<std::string, std::unique_ptr<icu::MessageFormat>> compiled;
  std::string cache_key = std::to_string(reinterpret_cast<std::uintptr_t>(identity_)) + "/" +
                          std::string(code(used)) + "/" + message.key;
  auto it = compiled.find(cache_key);
  if (it == compiled.end()) {
    UErrorCode status = U_ZERO_ERROR;
    auto format = std::make_unique<icu::MessageFormat>(unicode(*source), locale_of(used), status);
    if (U_FAILURE(status)) return *source;  // a malformed pattern: the test names it
    it = compiled.emplace(cache_key, std::move(format)).first;
  }

  std::vector<icu::UnicodeString> arg_names;
  std::vector<icu::Formattable> arg_values;
  for (const auto& arg : message.args) {
    arg_names.push_back(unicode(arg.name));
    icu::Formattable value = std::visit(
        [&](const auto& v) -> icu::Formattable {
          using T = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<T, std::int64_t>) {
            return icu::Formattable(static_cast<int64_t>(v));
          } else if constexpr (std::is_same_v<T, double>) {
            return icu::Formattable(v);
          } else if constexpr (std::is_same_v<T, std::string>) {
            return icu::Formattable(unicode(v));
          } else if constexpr (std::is_same_v<T, PlayerRef>) {
            return icu::Formattable(unicode(name_of(names, v.id)));
          } else if constexpr (std::is_same_v<T, PlayerList>) {
            std::vector<std::string> named;
            for (const auto& id : v.ids) named.push_back(name_of(names, id));
            return icu::Formattable(list(used, named));
          } else if constexpr (std::is_same_v<T, Term>) {
            return icu::Formattable(unicode(text(used, v.key)));
          } else if constexpr (std::is_same_v<T, TermList>) {
            std::vector<std::string> words;
            for (const auto& key : v.keys) words.push_back(text(used, key));
            return icu::Formattable(list(used, words, v.joiner));
          } else if constexpr (std::is_same_v<T, PlayerCounts>) {
            std::vector<std::string> items;
            for (const auto& [id, count] : v.counts) {
              items.push_back(name_of(names, id) + " " + utf8(integer(used, count)));
            }
            return icu::Formattable(list(used, items));
          } else if constexpr (std::is_same_v<T, Nested>) {
            return icu::Formattable(unicode(v.message ? render(used, *v.message, names) : ""));
          } else {
            return icu::Formattable(decimal(used, v));
          }
        },
        arg.value);
    arg_values.push_back(std::move(value));
  }
  UErrorCode status = U_ZERO_ERROR;
  icu::UnicodeString out;
  it->second->format(arg_names.data(), arg_values.data(), static_cast<int32_t>(arg_values.size()),
                     out, status);
  if (U_FAILURE(status)) return *source;
  return utf8(out);
}

}  // namespace tally::i18n
