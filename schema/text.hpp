// Cap'n Proto text as std::string: the one conversion every reader of events uses.
#pragma once

#include <capnp/blob.h>

#include <string>
#include <string_view>

namespace tally::schema {

inline std::string text(capnp::Text::Reader t) { return std::string(t.cStr(), t.size()); }
inline std::string_view text_view(capnp::Text::Reader t) { return {t.cStr(), t.size()}; }

}  // namespace tally::schema
