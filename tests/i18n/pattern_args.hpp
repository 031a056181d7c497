// The argument names of an ICU MessageFormat pattern ("{holder} … {count, plural, one {#} …}" →
// {count, holder}), at every depth, so that the catalog test can compare languages.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace tally::testing {

// nullopt when the braces do not balance.
std::optional<std::set<std::string>> argument_names(std::string_view pattern);

}  // namespace tally::testing
