#include "projections/games.hpp"

#ifdef TALLY_GAME_CATAN
#include "projections/catan/catan_game.hpp"
#endif
#ifdef TALLY_GAME_AGOT
#include "projections/agot/agot_game.hpp"
#endif
#ifdef TALLY_GAME_CARCASSONNE
#include "projections/carcassonne/carcassonne_game.hpp"
#endif

namespace tally::projections {

std::unique_ptr<GameRegistry> standard_games() {
  auto games = std::make_unique<GameRegistry>();
#ifdef TALLY_GAME_CATAN
  games->add(make_catan_game());
#endif
#ifdef TALLY_GAME_AGOT
  games->add(make_agot_game());
#endif
#ifdef TALLY_GAME_CARCASSONNE
  games->add(make_carcassonne_game());
#endif
  return games;
}

}  // namespace tally::projections
