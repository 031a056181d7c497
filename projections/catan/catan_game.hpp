// Catan's rules for the daemon (catan.md): the Game that validates table results and claimed
// wins (C-0 … C-12), computes placings and round points, folds the standings and seats rounds.
// The modules behind it are usable on their own: rules.hpp, sheet.hpp, validation.hpp,
// placing.hpp, standings.hpp, seating.hpp. Rules as implemented: docs/games/catan.md.
//
// Thread safety: the Game is stateless; every method may be called from any thread at once.
#pragma once

#include "projections/game.hpp"

#include <memory>

namespace tally::projections::catan {

std::unique_ptr<Game> make_catan_game();

}  // namespace tally::projections::catan
