// What GET /v1/tournaments/{t} shows of the seating constraints and penalties (issue 42), each
// member only when there is something to show, so that a tournament without any reads as before.
#pragma once

#include "projections/tournament.hpp"

#include <boost/json/object.hpp>

namespace tally::daemon {

// Adds `fixed_table` to the players that have one (`players` is the tournament answer's array,
// in registration order), and `keep_apart` [{"id","players","reason"}] and `penalties`
// [{"id","player","points","round","reason"}] when any is in effect (`id`: the event's seq).
void add_constraints_json(boost::json::object& tournament, const projections::Tournament& t);

}  // namespace tally::daemon
