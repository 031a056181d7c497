// Small text helpers the commands share.
#pragma once

#include <string>
#include <string_view>

namespace tally::cli {

// `s` without leading and trailing spaces, tabs and line ends.
std::string trim(const std::string& s);

// Text received from a server, made safe to print: every C0 and C1 control character (escape
// sequences, carriage returns, backspaces, line breaks, NUL …), DEL and the bidirectional
// controls become U+FFFD "�", so nothing a server sends can move the cursor, rewrite lines above,
// retitle the window or reorder a line. Text that is not UTF-8 is shown byte by byte the same way.
std::string printable(std::string_view text);

// `s` (UTF-8) in lower case, in no particular language's way (names of houses, options,
// answers such as "Да").
std::string lower(const std::string& s);

}  // namespace tally::cli
