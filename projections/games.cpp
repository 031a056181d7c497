#include "projections/games.hpp"

#include "projections/agot/agot_game.hpp"
#include "projections/carcassonne/carcassonne_game.hpp"
#include "projections/catan/catan_game.hpp"

namespace tally::projections {

std::unique_ptr<GameRegistry> standard_games() {
  auto games = std::make_unique<GameRegistry>();
  games->add(catan::make_catan_game());
  games->add(agot::make_agot_game());
  games->add(carcassonne::make_carcassonne_game());
  return games;
}

}  // namespace tally::projections
