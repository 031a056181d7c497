// Command `AutoActions` (POST …/tables/{n}/{action}/auto): the game completes a table's actions
// of that kind (AGoT: the houses left to pick go to the players without one, by the game's
// rule). Not found when the game has no such automatic action; unprocessable when the game
// cannot complete them (its rule errors); conflict when there is nothing left to complete.
//
// Thread safety: pure function.
#pragma once

#include "deciders/decision.hpp"
#include "deciders/lookup.hpp"
#include "projections/game.hpp"
#include "projections/tournament.hpp"

#include <string>

namespace tally::deciders {

struct AutoActions {
  TableAddress table;
  std::string action;  // the game's action by its name in the path ("picks")
};

// Appends the game's events to the table's stream at the table's version.
Decision<> decide(const projections::Tournament* t, const projections::Game* game,
                  const AutoActions& command, const Actor& actor);

}  // namespace tally::deciders
