// "testgame": a minimal game used only by the daemon's tests, so that the API can be tested
// without any real game's rules. A result lists each seated player's score (the
// `carcassonneResult` payload); a player gets one point per player beaten and half a point per
// player tied; claims name a seated player.
//   T-1 a result names exactly the players seated at the table, each once
//   T-2 scores are not negative
//   T-3 a claim names a player seated at the table
// Rules: {"table_size": 2..6} (default 2).
#pragma once

#include "projections/game.hpp"

#include <memory>

namespace tally::testing {

std::unique_ptr<projections::Game> make_test_game();

}  // namespace tally::testing
