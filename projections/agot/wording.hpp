// Small helpers for the messages judges and organizers read.
//
// Thread safety: pure functions.
#pragma once

#include <capnp/blob.h>

#include <string>
#include <string_view>
#include <vector>

namespace tally::agot {

// "p1", "p1 and p2", "p1, p2 and p3".
std::string join(const std::vector<std::string>& items);

// A stored Text as a std::string / a view of it.
inline std::string text(capnp::Text::Reader t) { return std::string(t.cStr(), t.size()); }
inline std::string_view text_view(capnp::Text::Reader t) {
  return std::string_view(t.cStr(), t.size());
}

}  // namespace tally::agot
