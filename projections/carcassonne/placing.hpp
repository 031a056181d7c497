// A table's outcome (carcassonne.md §1): places by game score with shared places for ties, and
// what each place gives — a win 1 / draw ½ / loss 0 at 2-player tables, round points (default
// 5/3/2/1/½/0 truncated to the table size) at larger ones, ties splitting the points of the places
// they occupy as in Catan. A table with one player is a bye: an automatic win with score 0.
//
// Thread safety: pure functions.
#pragma once

#include "projections/carcassonne/rules.hpp"
#include "projections/rational.hpp"
#include "projections/tournament.hpp"
#include "text/json_writer.hpp"

#include <boost/json/object.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tally::projections::carcassonne {

struct PlayerPlacing {
  std::string player;
  std::int64_t score = 0;  // the game score
  std::string place;       // "1", "2=", …
  Rational points;         // what the table gives
  std::string rule;        // the points' line: "win", "draw", "loss", "place" or "bye"
};

struct TableOutcome {
  std::uint32_t round = 0;
  std::uint32_t table = 0;
  bool bye = false;
  std::vector<PlayerPlacing> players;  // in seat order
};

// Places and points from the game scores (in seat order).
std::vector<PlayerPlacing> place_players(
    const std::vector<std::pair<std::string, std::int64_t>>& scores, const TournamentRules& rules);

// The outcome of a seated table: its result in effect, or a bye; nullopt while unreported.
std::optional<TableOutcome> table_outcome(const projections::SeatedTable& seated,
                                          const projections::TableState* state, std::uint32_t round,
                                          const TournamentRules& rules);

// The API's table result: {"players":[{"player","score","place","points","lines"}]}.
boost::json::object outcome_json(const TableOutcome& outcome);

// The same, written as text (the answer to every write): exactly what serializing outcome_json()
// gives.
void write_outcome(text::JsonWriter& out, const TableOutcome& outcome);

}  // namespace tally::projections::carcassonne
