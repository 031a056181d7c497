// Carcassonne as the daemon sees it (carcassonne.md): scoring events recorded at a table
// (payload `carcassonneScoring`, the event JSON of §2–§6 in `event`), a final result
// (`carcassonneResult`, players [{player, score}]) that must agree with the scorings when both
// exist, the table's places and points, Swiss seating and the standings of §1, and the stateless
// calculator of `POST /v1/carcassonne/score`.
//
// In a tournament the player names inside a scoring event are the table's player ids.
//
// Thread safety: the Game holds no mutable state (see projections/game.hpp).
#pragma once

#include "projections/game.hpp"

#include <memory>

namespace tally::projections::carcassonne {

std::unique_ptr<Game> make_carcassonne_game();

}  // namespace tally::projections::carcassonne
