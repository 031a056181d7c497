// Values as the API writes them, for CSV and for people. A value that can be fractional comes as
// {"value":2.5,"exact":"5/2"}; it is shown with two decimals rounded from the exact fraction
// (half away from zero), never from the floating-point `value` unless the fraction is too large
// for 128-bit arithmetic. Machine text (CSV) is always "2.50"; people get their language's way
// ("2,50" in Czech and Italian) through ICU.
#pragma once

#include "i18n/language.hpp"

#include <boost/json/value.hpp>

#include <string>

namespace tally::cli {

// Is `v` the API's fractional form {"value","exact"}?
bool is_rational(const boost::json::value& v);

// "2.50" for {"exact":"5/2"}, "3.33" for 10/3, "-0.50" for -1/2; a plain integer "7.00".
std::string two_decimals(const boost::json::value& v);

// The same value as a percentage: {"exact":"60/143"} → "41.96".
std::string percent(const boost::json::value& v);

// A machine cell (CSV, ids, event numbers): strings as they are, integers in decimal, rationals
// with two decimals, booleans "true"/"false", null as `null_text`, arrays joined with ", ".
std::string cell_text(const boost::json::value& v, const std::string& null_text = "-");

// For people, in `lang`: the value with two decimals ("2.50"; cs, it "2,50").
std::string shown_two_decimals(i18n::Lang lang, const boost::json::value& v);
// The value as a percentage with two decimals ("41.96%"; cs "41,96 %").
std::string shown_percent(i18n::Lang lang, const boost::json::value& v);
// A cell for people: as cell_text, but rationals and fractions in the language's way and
// booleans as the language's yes and no. Integers keep their plain digits (they are counts,
// places and scores, compared at a glance).
std::string shown(i18n::Lang lang, const boost::json::value& v, const std::string& null_text = "-");

}  // namespace tally::cli
