// A Game of Thrones (board game, 2nd ed.) tournament rules behind the Game interface
// (docs/games/agot.md, the rules as implemented): game results (G-1 … G-4) and game points,
// house picks, the league seating solver, best-5-of-6 standings, the Conqueror prize.
//
// Thread safety: the game holds no state; every method may be called from any thread.
#pragma once

#include "projections/game.hpp"

#include <memory>

namespace tally::projections::agot {

std::unique_ptr<Game> make_agot_game();

}  // namespace tally::projections::agot
