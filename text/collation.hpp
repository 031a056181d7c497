// Name order by a tournament's collation locale (ICU), so that Czech, Italian and Russian names
// sort as their readers expect ("Č" after "C" in Czech, "Ch" after "H").
//
// Thread safety: a Collation may be shared between threads; compare() and sort_key() are const
// and ICU collators are safe for concurrent const use.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include <unicode/uversion.h>

U_NAMESPACE_BEGIN
class Collator;
U_NAMESPACE_END

namespace tally::text {

class Collation {
 public:
  // An empty or unknown locale falls back to ICU's root collation (never an error: a
  // tournament must always be sortable).
  explicit Collation(const std::string& locale = "");
  ~Collation();
  Collation(Collation&&) noexcept;
  Collation& operator=(Collation&&) noexcept;

  // <0, 0, >0 like strcmp, on UTF-8 names.
  int compare(std::string_view a, std::string_view b) const;
  // A byte string whose plain byte order is this collation's order.
  std::string sort_key(std::string_view name) const;
  const std::string& locale() const { return locale_; }

 private:
  std::string locale_;
  std::unique_ptr<icu::Collator> collator_;
};

// A key under which two spellings of one person's name are equal: case, accents and every
// diacritic ignored (ICU's root collation at primary strength — so "Cermak" matches "Čermák" even
// for a Czech tournament, whose collation sorts Č as a letter of its own), spaces collapsed. For
// spotting possible duplicates, never for ordering.
std::string same_name_key(std::string_view name);

// True when ICU knows the locale well enough to collate by it (for validating a tournament's
// `locale`); "" (root) is always valid.
bool is_known_collation_locale(const std::string& locale);

}  // namespace tally::text
