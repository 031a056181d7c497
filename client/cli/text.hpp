// Small text helpers the commands share.
#pragma once

#include <string>

namespace tally::cli {

// `s` without leading and trailing spaces, tabs and line ends.
std::string trim(const std::string& s);

// `s` with ASCII letters in lower case (names of houses, options, answers).
std::string lower(std::string s);

}  // namespace tally::cli
