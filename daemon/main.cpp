// tallyd: the tournament-scoring server. See README.md and docs/operations.md.
#include "daemon/app.hpp"
#include "projections/games.hpp"

int main(int argc, char** argv) {
  return tally::daemon::tallyd_main(argc, argv, tally::projections::standard_games());
}
