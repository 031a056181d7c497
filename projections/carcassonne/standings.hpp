// Standings of a Carcassonne tournament (carcassonne.md §1): wins (2-player tables; a draw ½, a
// bye a win) or round points (larger tables), then Buchholz without the weakest opponent's score,
// then the total score difference (the sum over games of own score minus each opponent's), then
// the total game score, then the name by the tournament's collation, then the id.
//
// Thread safety: pure functions.
#pragma once

#include "projections/carcassonne/placing.hpp"
#include "projections/carcassonne/rules.hpp"
#include "projections/rational.hpp"
#include "projections/tournament.hpp"

#include <boost/json/object.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace tally::projections::carcassonne {

struct StandingRow {
  std::string player;
  std::string name;
  bool dropped = false;
  int games = 0;  // tables with a result, byes included
  int byes = 0;
  int starts = 0;      // games seated first (the starting player)
  Rational points;     // wins or round points, `penalties` included
  Rational penalties;  // S-11: penalties and bonuses (not in the opponents' Buchholz)
  Rational buchholz;   // the opponents' points, the weakest dropped
  std::int64_t score_diff = 0;
  std::int64_t score = 0;
  std::vector<std::string> opponents;  // every opponent met at a reported table, repeats included
};

// Every reported table's outcome, round by round.
std::vector<TableOutcome> reported_outcomes(const projections::Tournament& tournament,
                                            const TournamentRules& rules);

// All players (dropped ones too), best first.
std::vector<StandingRow> standings_rows(const projections::Tournament& tournament,
                                        const TournamentRules& rules);

// {"rows":[{"rank","player","name","games","wins"|"round_points","buchholz","score_diff","score",
// "byes","dropped"}]}, and "penalties" after the points when the tournament has any (S-11).
boost::json::object standings_json(const projections::Tournament& tournament,
                                   const TournamentRules& rules);

// Times each player has been seated first at a table of 2 or more (the starting player).
std::vector<std::pair<std::string, int>> starts_so_far(const projections::Tournament& tournament);

}  // namespace tally::projections::carcassonne
