// What differs between two results as the API shows them (a proposal against the entered result):
// leaf by leaf, a list of per-player objects matched by their `player` member, so "Karel's vp 8 →
// 9" is one difference however the players are ordered. Names no game: the schema's JSON is walked.
//
// Thread safety: pure functions.
#pragma once

#include <boost/json/value.hpp>

#include <string>
#include <vector>

namespace tally::daemon {

struct JsonDifference {
  std::string field;          // the member's name ("vp"); for a nested one its path ("bonus.roads")
  std::string player;         // the `player` of the object it is in ("" when none)
  boost::json::value before;  // null when absent there
  boost::json::value after;   // null when absent there
};

// Every leaf that differs between `before` and `after`, in `after`'s order (then what only
// `before` has).
std::vector<JsonDifference> json_differences(const boost::json::value& before,
                                             const boost::json::value& after);

}  // namespace tally::daemon
