// tallyd as the tests run it: the standard games plus "testgame".
#include "daemon/app.hpp"
#include "projections/games.hpp"
#include "tests/support/test_game.hpp"

int main(int argc, char** argv) {
  auto games = tally::projections::standard_games();
  games->add(tally::testing::make_test_game());
  return tally::daemon::tallyd_main(argc, argv, std::move(games));
}
