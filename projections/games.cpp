#include "projections/games.hpp"

namespace tally::projections {

std::unique_ptr<GameRegistry> standard_games() {
  auto games = std::make_unique<GameRegistry>();
  // The games register here as they land (issues 4, 5 and 6).
  return games;
}

}  // namespace tally::projections
