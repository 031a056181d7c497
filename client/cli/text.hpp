// Small text helpers the commands share.
#pragma once

#include <string>

namespace tally::cli {

// `s` without leading and trailing spaces, tabs and line ends.
std::string trim(const std::string& s);

// `s` (UTF-8) in lower case, in no particular language's way (names of houses, options,
// answers such as "Да").
std::string lower(const std::string& s);

}  // namespace tally::cli
