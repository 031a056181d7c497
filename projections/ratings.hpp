// Ratings (Q-6, docs/series.md "Ratings"): the Weng–Lin Bayesian rating with the Plackett–Luce
// model, every player a team of one, computed exactly as OpenSkill's reference implementation
// (the npm package `openskill`) computes it. Ratings are a projection: every table result in
// effect is one game, and the ratings are rebuilt from scratch from those games each time —
// a correction or a void replaces a game's effect because the game is read again from the table.
//
// Three steps, each a pure function: collect a tournament's games (tournament_games), merge the
// games of many tournaments into one order (merge_games), rate them (rate_games), and order the
// rated players for showing (ranked).
//
// Thread safety: pure functions of their arguments; no I/O, no state.
#pragma once

#include "projections/game.hpp"
#include "projections/tournament.hpp"
#include "text/collation.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace tally::projections {

// the model's constants. The defaults are the contract's numbers; OpenSkill's own default
// τ is 25/300, which Q-6 leaves out ("no τ").
struct RatingModel {
  double mu = 25.0;         // μ₀: a new player's mean
  double sigma = 25.0 / 3;  // σ₀: a new player's uncertainty
  double beta = 25.0 / 6;   // β: the performance noise of one game
  double kappa = 0.0001;    // κ: the floor of a σ update's factor (σ never reaches 0)
  double tau = 0.0;         // τ: added uncertainty before each game (Q-6: none)
};

struct Rating {
  double mu = RatingModel{}.mu;
  double sigma = RatingModel{}.sigma;
  std::uint32_t games = 0;  // games rated

  // the rating shown, a conservative estimate: μ − 3σ.
  double display() const { return mu - 3 * sigma; }
};

// A new player's rating under `model`.
Rating initial_rating(const RatingModel& model);

// One game: the players' ratings before it and their places (1 = best; equal places are a
// tie, only their order counts), in the same order. Returns the ratings after it, in that order,
// each with one game more. Openskill's rate(teams, {rank: places}) with teams of one.
// REQUIRES: before.size() == places.size().
std::vector<Rating> rate_game(const std::vector<Rating>& before,
                              const std::vector<std::uint32_t>& places,
                              const RatingModel& model = {});

// Who a tournament's player is for ratings: the key their games are rated under, and how they
// are shown: the person a series links the player to (queries::rating_identity), else the player.
struct RatedIdentity {
  std::string key;         // players with one key are one rated person
  std::string name;        // shown
  std::string person;      // the person linked, "" while none is (then `key` is tournament/player)
  std::string tournament;  // the player this identity was made from
  std::string player;
  std::string series;  // the series whose person it is ("" while no person is linked)
};
using IdentityOf = std::function<RatedIdentity(const Tournament&, std::string_view player)>;

// The default identity: the player of that tournament, key "{tournament}/{player}", named as the
// tournament names them.
RatedIdentity tournament_identity(const Tournament& t, std::string_view player);

struct RatedSeat {
  RatedIdentity identity;
  std::uint32_t place = 0;  // the game's place of the player (1 = best; shared places equal)
};

// One table's result in effect, as a game to rate.
struct RatedGame {
  std::string tournament;
  std::uint32_t round = 0;
  std::uint32_t table = 0;
  std::uint64_t first_seq = 0;  // the table's first result entry (not a correction's)
  std::int64_t first_at = 0;    // its recorded time (µs since the epoch)
  std::vector<RatedSeat> seats;
};

// the tournament's games — every table with a result in effect and at least two players,
// the places as the game places the table (Game::table_result), in the order their results were
// first entered. A correction's game stands where the corrected entry stood.
std::vector<RatedGame> tournament_games(const Tournament& t, const Game& game,
                                        const IdentityOf& identity = tournament_identity);

// The games of many tournaments (each list as tournament_games gives it) in one order: by the
// first entry's recorded time, then the tournament id, then the first entry's seq. The time
// puts tournaments played apart in the order they were played; within one log the seq already
// follows the time, and the tie-breaks make the order total whatever the clocks say.
std::vector<RatedGame> merge_games(std::vector<std::vector<RatedGame>> tournaments);

// A rated person: their identity (as their newest game named them) and rating.
struct RatedPlayer {
  RatedIdentity identity;
  Rating rating;
};

// the games rated in order, from scratch. Everyone who played, in the order first seen.
std::vector<RatedPlayer> rate_games(const std::vector<RatedGame>& games,
                                    const RatingModel& model = {});

// A rated player with their place in the list.
struct RankedPlayer {
  std::uint32_t rank = 0;  // 1 = best; players with an equal display rating share one
  RatedPlayer player;
};

// The players for showing: by display rating (μ − 3σ), best first, then by name in `collation`,
// then by key (so that the order is total).
std::vector<RankedPlayer> ranked(std::vector<RatedPlayer> players,
                                 const text::Collation& collation);

}  // namespace tally::projections
