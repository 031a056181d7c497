// What changed between two standings, for the live feed: a screen that holds the standings of
// `base_seq` rebuilds the new ones from this without knowing any game — it never sorts, ranks or
// breaks a tie; it copies runs of the rows it holds, takes the rows sent whole, and adds the rank
// shifts given as ranges.
//
//   {"rows": N,                                  the number of rows after
//    "order": [[from, count] | {"row": {…}}, …], runs of the old rows (by old index), or new rows
//    "ranks": [[begin, end, by], …],             rows begin..end-1 (new indexes) have rank += by
//    "set": {member: value, …}, "unset": [member, …]}   the other members of the standings
//
// A row is copied when the player's row is unchanged but for its rank (an integer); any other
// change sends the row whole. At 1,000 players one result changes a handful of rows and shifts
// the others by a few places: a few runs and ranges, a few hundred bytes, instead of the whole
// table. client/web/static/live.js applies it (applyStandingsDelta).
//
// Thread safety: pure functions.
#pragma once

#include <boost/json/object.hpp>

namespace tally::daemon {

// The delta from `before` to `after` (both {"rows":[{"player","rank",…}],…}). Rows without a
// "player" string are compared by position.
boost::json::object standings_delta(const boost::json::object& before,
                                    const boost::json::object& after);

// `before` with `delta` applied: what a client does (client/web/static/live.js is the pages'
// copy), here for the tests and for C++ clients. Returns false when the delta does not fit
// `before` (an index out of range).
bool apply_standings_delta(const boost::json::object& before, const boost::json::object& delta,
                           boost::json::object& out);

}  // namespace tally::daemon
