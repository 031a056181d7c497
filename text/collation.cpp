#include "text/collation.hpp"

#include <unicode/coll.h>
#include <unicode/locid.h>
#include <unicode/unistr.h>

#include <stdexcept>
#include <vector>

namespace tally::text {

namespace {

std::unique_ptr<icu::Collator> make_collator(const std::string& locale) {
  UErrorCode status = U_ZERO_ERROR;
  icu::Locale loc = locale.empty() ? icu::Locale::getRoot() : icu::Locale(locale.c_str());
  std::unique_ptr<icu::Collator> collator(icu::Collator::createInstance(loc, status));
  if (U_FAILURE(status) || !collator) {
    status = U_ZERO_ERROR;
    collator.reset(icu::Collator::createInstance(icu::Locale::getRoot(), status));
  }
  if (U_FAILURE(status) || !collator) throw std::runtime_error("ICU: no root collator");
  return collator;
}

// A byte string whose plain byte order is `collator`'s order of UTF-8 texts.
std::string sort_key_of(const icu::Collator& collator, std::string_view text) {
  icu::UnicodeString s = icu::UnicodeString::fromUTF8(
      icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
  std::vector<uint8_t> key(64);
  int32_t size = collator.getSortKey(s, key.data(), static_cast<int32_t>(key.size()));
  if (size > static_cast<int32_t>(key.size())) {
    key.resize(size);
    size = collator.getSortKey(s, key.data(), size);
  }
  // The key ends with a NUL that is not part of the order.
  return std::string(reinterpret_cast<const char*>(key.data()), size > 0 ? size - 1 : 0);
}

}  // namespace

Collation::Collation(const std::string& locale)
    : locale_(locale), collator_(make_collator(locale)) {}
Collation::~Collation() = default;
Collation::Collation(Collation&&) noexcept = default;
Collation& Collation::operator=(Collation&&) noexcept = default;

int Collation::compare(std::string_view a, std::string_view b) const {
  UErrorCode status = U_ZERO_ERROR;
  auto r =
      collator_->compareUTF8(icu::StringPiece(a.data(), static_cast<int32_t>(a.size())),
                             icu::StringPiece(b.data(), static_cast<int32_t>(b.size())), status);
  if (U_FAILURE(status)) return a.compare(b);
  return r == UCOL_LESS ? -1 : r == UCOL_GREATER ? 1 : 0;
}

std::string Collation::sort_key(std::string_view name) const {
  return sort_key_of(*collator_, name);
}

std::string same_name_key(std::string_view name) {
  static const std::unique_ptr<icu::Collator> primary = [] {
    auto collator = make_collator("");
    collator->setStrength(icu::Collator::PRIMARY);
    return collator;
  }();
  std::string collapsed;
  for (char c : name) {
    bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r';
    if (space) {
      if (!collapsed.empty() && collapsed.back() != ' ') collapsed += ' ';
    } else {
      collapsed += c;
    }
  }
  while (!collapsed.empty() && collapsed.back() == ' ') collapsed.pop_back();
  return sort_key_of(*primary, collapsed);
}

bool is_known_collation_locale(const std::string& locale) {
  if (locale.empty()) return true;
  icu::Locale loc(locale.c_str());
  if (loc.isBogus()) return false;
  int32_t count = 0;
  const icu::Locale* available = icu::Collator::getAvailableLocales(count);
  for (int32_t i = 0; i < count; ++i) {
    if (std::string(available[i].getLanguage()) == loc.getLanguage()) return true;
  }
  return false;
}

}  // namespace tally::text
