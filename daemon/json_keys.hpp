// Duplicate member names in a JSON text. RFC 8259 leaves their meaning open and Boost.JSON keeps
// the last, so two readers of the same body could disagree about what it says
// ({"name":"First","name":"Second"}): tallyd refuses such a body instead (400, naming the key).
//
// Thread safety: a pure function.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tally::daemon {

// The first member name that appears twice in one object of `json` (at any depth), or nullopt.
// REQUIRES: `json` parses (call it after the parser has accepted the text).
std::optional<std::string> first_duplicate_key(std::string_view json);

}  // namespace tally::daemon
