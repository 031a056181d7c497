// Values as the API writes them, for display. A value that can be fractional comes as
// {"value":2.5,"exact":"5/2"}; it is shown with two decimals rounded from the exact fraction
// (half away from zero), never from the floating-point `value` unless the fraction is too large
// for 128-bit arithmetic.
#pragma once

#include <boost/json/value.hpp>

#include <string>

namespace tally::cli {

// Is `v` the API's fractional form {"value","exact"}?
bool is_rational(const boost::json::value& v);

// "2.50" for {"exact":"5/2"}, "3.33" for 10/3, "-0.50" for -1/2; a plain integer "7.00".
std::string two_decimals(const boost::json::value& v);

// The same value as a percentage: {"exact":"60/143"} → "41.96".
std::string percent(const boost::json::value& v);

// A cell for tables and CSV: strings as they are, integers in decimal, rationals with two
// decimals, booleans "yes"/"no", null as `null_text`, arrays joined with ", ".
std::string cell_text(const boost::json::value& v, const std::string& null_text = "-");

}  // namespace tally::cli
