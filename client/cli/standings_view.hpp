// Standings for people (an aligned table) and for spreadsheets (CSV), from the server's
// {"rows":[…]} whatever the game: the columns follow the rows' members, with labels and formats
// for the ones the games use (round points with two decimals, the VP share as a percentage,
// AGoT's per-round results with the dropped one in parentheses, …).
#pragma once

#include "i18n/language.hpp"

#include <boost/json.hpp>

#include <iosfwd>
#include <string>

namespace tally::cli {

// The table for people: headings, numbers and notes in `lang`.
void print_standings(std::ostream& out, const boost::json::object& standings, i18n::Lang lang);

// The CSV, the same in every language (machine output). Header: rank, player, name, then the other
// members (rationals with two decimals, vp_share as vp_share_percent, AGoT's results as r1…rN plus
// dropped_rounds, booleans true/false, null empty, and conqueror true/false when the game names
// Conquerors).
std::string standings_csv(const boost::json::object& standings);

}  // namespace tally::cli
