// Small helpers for the messages judges and organizers read.
//
// Thread safety: pure functions.
#pragma once

#include "schema/text.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace tally::projections::agot {

// "p1", "p1 and p2", "p1, p2 and p3".
std::string join(const std::vector<std::string>& items);

// A stored Text as a std::string / a view of it.
using schema::text;
using schema::text_view;

}  // namespace tally::projections::agot
