// S-9 and S-11 in every game (docs/games/seating-constraints.md), through the Game interface as
// the daemon reaches it:
//   - keep-apart holds in 200 seeded random seatings and 200 standings seatings of each game
//     (Catan, AGoT, Carcassonne Swiss and Carcassonne tables of 4), each with its own seeded
//     keep-apart group of three and two pairs — all possible to keep apart;
//   - a penalty moves a player in the standings by exactly its points, in the first criterion
//     of each game, and the `penalties` column is there only once a penalty is.
// The refusal when keep-apart is impossible, and S-10's numbers, are the seating decider's
// (tests/deciders/constraints-test.cpp).
#include "projections/games.hpp"
#include "projections/keep_apart.hpp"
#include "tests/projections/agot/agot_fixtures.hpp"
#include "tests/projections/catan/fixtures.hpp"
#include "tests/support/tournament_builder.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <random>

namespace tally::projections {
namespace {

using tally::testing::TournamentBuilder;
using Which = schema::Event::Payload::Which;

const Game& game(const std::string& id) {
  static const auto games = standard_games();
  return *games->find(id);
}

std::vector<std::string> ids(std::size_t n) {
  std::vector<std::string> out;
  for (std::size_t i = 1; i <= n; ++i) out.push_back("p" + std::to_string(i));
  return out;
}

TournamentBuilder registered(const std::string& game_id, std::size_t n,
                             boost::json::object rules = {}) {
  TournamentBuilder b("cup", game_id, "", std::move(rules));
  for (const auto& p : ids(n)) b.player(p, "Player " + p.substr(1));
  return b;
}

void keep_apart(TournamentBuilder& b, const std::vector<std::string>& players) {
  b.append(tournament_stream("cup"), [&](schema::Event::Builder e) {
    auto list = e.getPayload().initKeptApart().initPlayers(static_cast<unsigned>(players.size()));
    for (unsigned i = 0; i < players.size(); ++i) list.set(i, players[i]);
    e.setReason("family");
  });
}

// A seeded group of three and two pairs, seven different players of `n`.
void seeded_keep_apart(TournamentBuilder& b, std::size_t n, std::mt19937_64& rng) {
  std::vector<std::string> players = ids(n);
  std::shuffle(players.begin(), players.end(), rng);
  keep_apart(b, {players[0], players[1], players[2]});
  keep_apart(b, {players[3], players[4]});
  keep_apart(b, {players[5], players[6]});
}

std::uint64_t penalty(TournamentBuilder& b, const std::string& player, const std::string& points) {
  return b.append(tournament_stream("cup"), [&](schema::Event::Builder e) {
    auto given = e.getPayload().initPenaltyGiven();
    given.setPlayer(player);
    given.setPoints(points);
    e.setReason("late result slip");
  });
}

Seating seat(TournamentBuilder& b, const std::string& game_id, schema::SeatingMethod method,
             std::uint64_t seed) {
  SeatingRequest request;
  request.round = b.tournament().next_round();
  request.method = method;
  request.seed = seed;
  auto seating = game(game_id).seat_round(b.tournament(), request);
  EXPECT_TRUE(seating) << (seating ? "" : seating.errors[0].message.key);
  return seating ? *seating.value : Seating{};
}

// Keeps the seating, and says whether it keeps every pair apart.
::testing::AssertionResult keeps_apart(TournamentBuilder& b, const Seating& seating) {
  auto together = not_kept_apart(b.tournament(), seating.tables);
  b.seat(seating.tables, seating.method, seating.seed);
  if (together.empty()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << together.front().first << " and " << together.front().second << " at table "
         << together.front().table;
}

// A seeded result at every table of the last round, as each game takes it.
void catan_results(TournamentBuilder& b, std::mt19937_64& rng) {
  const Tournament t = b.tournament();
  const Round& round = t.rounds.back();
  for (const auto& table : round.tables) {
    auto sheets = catan::testing::clear_order();
    std::vector<std::string> seats = table.players;
    std::shuffle(seats.begin(), seats.end(), rng);
    boost::json::array players;
    for (std::size_t i = 0; i < seats.size(); ++i) {
      sheets[i]["player"] = seats[i];
      players.push_back(sheets[i]);
    }
    b.action(round.number, table.number, Which::CATAN_RESULT,
             boost::json::object{{"players", std::move(players)}});
  }
}

void agot_results(TournamentBuilder& b, std::mt19937_64& rng) {
  const Tournament t = b.tournament();
  const Round& round = t.rounds.back();
  for (const auto& table : round.tables) {
    std::vector<int> places = {1, 2, 3, 4, 5, 6};
    std::shuffle(places.begin(), places.end(), rng);
    std::vector<agot::testing::Line> lines;
    for (std::size_t i = 0; i < table.players.size(); ++i) {
      lines.push_back({table.players[i], agot::testing::house_of(static_cast<int>(i)), places[i],
                       7 - places[i]});
    }
    b.action(round.number, table.number, Which::AGOT_RESULT, agot::testing::result_body(lines));
  }
}

void carcassonne_results(TournamentBuilder& b, std::mt19937_64& rng) {
  const Tournament t = b.tournament();
  const Round& round = t.rounds.back();
  for (const auto& table : round.tables) {
    if (table.players.size() < 2) continue;  // a bye
    boost::json::array players;
    for (const auto& p : table.players)
      players.push_back(
          boost::json::object{{"player", p}, {"score", static_cast<int>(rng() % 120)}});
    b.action(round.number, table.number, Which::CARCASSONNE_RESULT,
             boost::json::object{{"players", std::move(players)}});
  }
}

struct GameCase {
  std::string game;
  std::size_t players;
  boost::json::object rules;
  void (*results)(TournamentBuilder&, std::mt19937_64&);
};

class KeepApartHolds : public ::testing::TestWithParam<GameCase> {};

constexpr int kSeatings = 200;

TEST_P(KeepApartHolds, InEveryRandomSeating) {
  const GameCase& c = GetParam();
  int parted = 0;  // draws that, left alone, would have seated a pair together
  for (int seed = 1; seed <= kSeatings; ++seed) {
    std::mt19937_64 rng(seed);
    auto b = registered(c.game, c.players, c.rules);
    const Seating alone = seat(b, c.game, schema::SeatingMethod::RANDOM, seed);
    seeded_keep_apart(b, c.players, rng);
    parted += not_kept_apart(b.tournament(), alone.tables).empty() ? 0 : 1;
    EXPECT_TRUE(keeps_apart(b, seat(b, c.game, schema::SeatingMethod::RANDOM, seed)))
        << c.game << ", seed " << seed;
  }
  RecordProperty("draws_with_a_pair_parted", parted);
  std::cout << c.game << " " << c.players << ": " << parted << " of " << kSeatings
            << " draws had a kept-apart pair together before S-9 parted it\n";
}

TEST_P(KeepApartHolds, InEveryStandingsSeating) {
  const GameCase& c = GetParam();
  for (int seed = 1; seed <= kSeatings; ++seed) {
    std::mt19937_64 rng(seed);
    auto b = registered(c.game, c.players, c.rules);
    // Round 1 drawn before anyone is kept apart; its seeded results make the standings.
    b.seat(seat(b, c.game, schema::SeatingMethod::RANDOM, seed).tables);
    c.results(b, rng);
    seeded_keep_apart(b, c.players, rng);
    EXPECT_TRUE(keeps_apart(b, seat(b, c.game, schema::SeatingMethod::STANDINGS, seed)))
        << c.game << ", seed " << seed;
  }
}

INSTANTIATE_TEST_SUITE_P(
    EveryGame, KeepApartHolds,
    ::testing::Values(GameCase{"catan", 12, {}, catan_results},
                      GameCase{"catan", 13, {}, catan_results},
                      GameCase{"agot", 18, {}, agot_results},
                      GameCase{"carcassonne", 16, {}, carcassonne_results},
                      GameCase{"carcassonne", 15, {}, carcassonne_results},
                      GameCase{"carcassonne", 12, {{"table_size", 4}}, carcassonne_results}),
    [](const auto& info) {
      return info.param.game + std::to_string(info.param.players) +
             (info.param.rules.empty() ? "" : "Tables");
    });

// Without any keep-apart the seating is exactly what it was: the same tables for the same seed.
TEST(KeepApart, AbsentLeavesEverySeatingAsItWas) {
  for (const char* id : {"catan", "carcassonne", "agot"}) {
    auto plain = registered(id, 18);
    auto fixed_alone = registered(id, 18);
    fixed_alone.append(tournament_stream("cup"), [](schema::Event::Builder e) {
      auto fixed = e.getPayload().initFixedTable();  // one fixed table keeps nobody apart
      fixed.setPlayer("p1");
      fixed.setTable(2);
    });
    for (std::uint64_t seed : {1u, 2u, 3u}) {
      auto a = seat(plain, id, schema::SeatingMethod::RANDOM, seed);
      auto b = seat(fixed_alone, id, schema::SeatingMethod::RANDOM, seed);
      ASSERT_EQ(a.tables.size(), b.tables.size());
      for (std::size_t i = 0; i < a.tables.size(); ++i)
        EXPECT_EQ(a.tables[i].players, b.tables[i].players) << id << " seed " << seed;
    }
  }
}

// --- S-11 -------------------------------------------------------------------------------------

// The player's row of the standings answer.
boost::json::object row_of(const boost::json::object& standings, const std::string& player) {
  for (const auto& row : standings.at("rows").as_array()) {
    if (row.as_object().at("player").as_string() == player) return row.as_object();
  }
  ADD_FAILURE() << "no row for " << player;
  return {};
}

// An exact value as the API writes it: a plain integer, or {"value","exact"}.
Rational exact(const boost::json::value& v) {
  if (v.is_number()) return Rational(v.to_number<std::int64_t>());
  return Rational::parse(std::string(v.as_object().at("exact").as_string()));
}

// The rank of `player` in the standings.
std::int64_t rank_of(const boost::json::object& standings, const std::string& player) {
  return row_of(standings, player).at("rank").to_number<std::int64_t>();
}

struct PenaltyCase {
  std::string game;
  std::size_t players;
  boost::json::object rules;
  void (*results)(TournamentBuilder&, std::mt19937_64&);
  std::string first;  // the first criterion's column
};

class PenaltyMoves : public ::testing::TestWithParam<PenaltyCase> {};

TEST_P(PenaltyMoves, APlayerByExactlyItsPoints) {
  const PenaltyCase& c = GetParam();
  std::mt19937_64 rng(42);
  auto b = registered(c.game, c.players, c.rules);
  b.seat(seat(b, c.game, schema::SeatingMethod::RANDOM, 42).tables);
  c.results(b, rng);
  const auto before = game(c.game).standings(b.tournament());
  EXPECT_FALSE(before.at("rows").as_array()[0].as_object().contains("penalties"));
  // The leader loses 3 1/2 and a player at the bottom gains 1/2 (a bonus).
  const std::string leader(before.at("rows").as_array()[0].as_object().at("player").as_string());
  const std::string last(before.at("rows").as_array().back().as_object().at("player").as_string());
  penalty(b, leader, "-7/2");
  penalty(b, last, "1/2");
  const auto after = game(c.game).standings(b.tournament());
  EXPECT_EQ(exact(row_of(after, leader).at(c.first)),
            exact(row_of(before, leader).at(c.first)) + Rational(-7, 2));
  EXPECT_EQ(exact(row_of(after, last).at(c.first)),
            exact(row_of(before, last).at(c.first)) + Rational(1, 2));
  EXPECT_EQ(exact(row_of(after, leader).at("penalties")), Rational(-7, 2));
  EXPECT_EQ(exact(row_of(after, last).at("penalties")), Rational(1, 2));
  EXPECT_GT(rank_of(after, leader), rank_of(before, leader)) << "a penalty of 3½ moves the leader";
  for (const auto& row : after.at("rows").as_array()) {
    const auto& player = row.as_object().at("player").as_string();
    if (player != leader && player != last) {
      EXPECT_EQ(exact(row.as_object().at("penalties")), Rational(0));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    EveryGame, PenaltyMoves,
    ::testing::Values(
        PenaltyCase{"catan", 12, {}, catan_results, "round_points"},
        PenaltyCase{"agot", 12, {}, agot_results, "total"},
        PenaltyCase{"carcassonne", 8, {}, carcassonne_results, "wins"},
        PenaltyCase{"carcassonne", 12, {{"table_size", 4}}, carcassonne_results, "round_points"}),
    [](const auto& info) { return info.param.game + (info.param.rules.empty() ? "" : "Tables"); });

// A voided penalty is gone from the standings, and with the last one the column goes too.
TEST(Penalty, VoidedIsNoLongerCounted) {
  std::mt19937_64 rng(7);
  auto b = registered("catan", 8);
  b.seat(seat(b, "catan", schema::SeatingMethod::RANDOM, 7).tables);
  catan_results(b, rng);
  const auto before = game("catan").standings(b.tournament());
  std::uint64_t seq = penalty(b, "p1", "-1");
  b.append(tournament_stream("cup"), [&](schema::Event::Builder e) {
    e.setSupersedes(seq);
    e.setReason("given by mistake");
    e.getPayload().setVoid();
  });
  EXPECT_TRUE(b.tournament().penalties.empty());
  EXPECT_EQ(game("catan").standings(b.tournament()), before);
}

// The penalty of a later round is not counted in the standings that seat an earlier one.
TEST(Penalty, OfARoundCountsFromThatRound) {
  std::mt19937_64 rng(9);
  auto b = registered("catan", 8);
  b.seat(seat(b, "catan", schema::SeatingMethod::RANDOM, 9).tables);
  catan_results(b, rng);
  b.append(tournament_stream("cup"), [&](schema::Event::Builder e) {
    auto given = e.getPayload().initPenaltyGiven();
    given.setPlayer("p2");
    given.setPoints("-1");
    given.setRound(1);
    e.setReason("slow play");
  });
  EXPECT_EQ(b.tournament().penalty_points("p2", 0), Rational(0));
  EXPECT_EQ(b.tournament().penalty_points("p2", 1), Rational(-1));
  EXPECT_EQ(b.tournament().penalty_points("p2"), Rational(-1));
}

}  // namespace
}  // namespace tally::projections
