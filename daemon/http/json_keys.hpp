// Duplicate member names in a JSON text. RFC 8259 leaves their meaning open and Boost.JSON keeps
// the last, so two readers of the same body could disagree about what it says
// ({"name":"First","name":"Second"}): tallyd refuses such a body instead (400, naming the key).
//
// Thread safety: pure functions.
#pragma once

#include <boost/json/error.hpp>
#include <boost/json/value.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace tally::daemon {

// A body read once: its value, and the first member name that appears twice in one object.
struct ParsedJson {
  boost::json::value value;              // null when `error` is set
  boost::json::error_code error;         // the parser's (syntax, depth, trailing data)
  std::optional<std::string> duplicate;  // set only when the text parses
};

// Parses `json` as json::parse does (at most `max_depth` levels) and finds a duplicate member
// name in the same pass: each object's member count as read is kept and compared with the size
// of the object built from it, which drops repeated names. Only when one differs is the text
// read again, by first_duplicate_key, to name the key.
ParsedJson parse_json_checking_keys(std::string_view json, std::size_t max_depth);

// The first member name that appears twice in one object of `json` (at any depth), or nullopt.
// REQUIRES: `json` parses (call it after the parser has accepted the text).
std::optional<std::string> first_duplicate_key(std::string_view json);

}  // namespace tally::daemon
