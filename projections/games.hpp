// The games this server knows: Catan, A Game of Thrones, Carcassonne.
#pragma once

#include "projections/game.hpp"

#include <memory>

namespace tally::projections {

std::unique_ptr<GameRegistry> standard_games();

}  // namespace tally::projections
