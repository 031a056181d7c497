// The AGoT league seating: the solver alone on 12 and 60 players (2 and 10 leagues) at every
// round from 2 to 6 — round 6 is the hardest, every player has one house left — and the whole
// `seat_round` of the Game (rating, availability, solver) on a tournament played through five
// rounds. The requirement: 12 players instantly, 60 players within one second.
//
//   build/release/bench/agot/bench-agot-seating --benchmark_counters_tabular=true
#include "projections/agot/agot_game.hpp"
#include "projections/agot/seating_solver.hpp"
#include "schema/json_codec.hpp"
#include "tests/support/messages.hpp"
#include "tests/support/tournament_builder.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <random>

namespace {

using namespace tally;
namespace agot = tally::projections::agot;
using agot::HouseSet;
using agot::kHouses;
using Which = schema::Event::Payload::Which;

// A regular history: groups of six each play `rounds` rounds of a random Latin square, then the
// players are shuffled into a random rating order.
std::vector<HouseSet> regular_history(std::mt19937_64& rng, int leagues, int rounds) {
  std::vector<HouseSet> out;
  for (int g = 0; g < leagues; ++g) {
    std::array<int, 6> row{0, 1, 2, 3, 4, 5}, col{0, 1, 2, 3, 4, 5}, sym{0, 1, 2, 3, 4, 5};
    std::shuffle(row.begin(), row.end(), rng);
    std::shuffle(col.begin(), col.end(), rng);
    std::shuffle(sym.begin(), sym.end(), rng);
    for (int i = 0; i < 6; ++i) {
      HouseSet played;
      for (int k = 0; k < rounds; ++k) played = played.with(kHouses[sym[(row[i] + col[k]) % 6]]);
      out.push_back(HouseSet::all() - played);
    }
  }
  std::shuffle(out.begin(), out.end(), rng);
  return out;
}

// args: players, round being seated
void solver(benchmark::State& state) {
  const int leagues = static_cast<int>(state.range(0)) / 6;
  const int round = static_cast<int>(state.range(1));
  std::mt19937_64 rng(2026);
  std::vector<std::vector<HouseSet>> problems;
  for (int i = 0; i < 64; ++i) problems.push_back(regular_history(rng, leagues, round - 1));
  std::size_t i = 0;
  for (auto _ : state) {
    auto solved = agot::solve_league_seating(problems[i++ % problems.size()]);
    if (!solved.seating) state.SkipWithError("no seating");
    benchmark::DoNotOptimize(solved);
  }
}
BENCHMARK(solver)->ArgsProduct({{12, 60}, {2, 3, 4, 5, 6}})->Unit(benchmark::kMicrosecond);

// A tournament of `players` played through five rounds by the Game itself: random draw, then the
// solver, automatic picks, results with places in pick order.
testing::TournamentBuilder five_rounds(const projections::Game& game, int players) {
  testing::TournamentBuilder b("bench", "agot");
  for (int i = 0; i < players; ++i) {
    std::string id = "p";  // appended, not `"p" + …`: GCC 12 warns falsely (-Wrestrict) at -O3
    id += std::to_string(i);
    b.player(id, id);
  }
  for (std::uint32_t round = 1; round <= 5; ++round) {
    auto seating =
        game.seat_round(b.tournament(), projections::SeatingRequest{round, std::nullopt, 99});
    if (!seating) throw std::runtime_error(tally::testing::english(seating.errors[0].message));
    b.seat(seating.value->tables, seating.value->method, seating.value->seed);
    for (const auto& table : seating.value->tables) {
      auto t = b.tournament();
      projections::TableState fresh;
      fresh.round = round;
      fresh.table = table.number;
      auto picks = game.auto_actions(t, fresh);
      if (!picks) throw std::runtime_error(tally::testing::english(picks.errors[0].message));
      boost::json::array lines;
      int place = 1;
      for (const auto& message : *picks.value) {
        auto pick = message->getRoot<schema::Event>().asReader().getPayload().getHousePick();
        b.action(round, table.number, Which::HOUSE_PICK, schema::encode_struct(pick));
        lines.push_back(boost::json::object{{"player", pick.getPlayer().cStr()},
                                            {"house", agot::house_id(pick.getHouse())},
                                            {"place", place},
                                            {"castles", 7 - place},
                                            {"capitals_captured", boost::json::array{}},
                                            {"capitals_held", 0},
                                            {"lands_captured", place},
                                            {"winner", place == 1}});
        ++place;
      }
      b.action(round, table.number, Which::AGOT_RESULT, boost::json::object{{"players", lines}});
    }
  }
  return b;
}

// args: players. The whole seat_round of round 6 (rating, availability, solver).
void seat_round_six(benchmark::State& state) {
  auto game = agot::make_agot_game();
  auto tournament = five_rounds(*game, static_cast<int>(state.range(0))).tournament();
  for (auto _ : state) {
    auto seating = game->seat_round(tournament, projections::SeatingRequest{6});
    if (!seating) state.SkipWithError("no seating");
    benchmark::DoNotOptimize(seating);
  }
}
BENCHMARK(seat_round_six)->Arg(12)->Arg(60)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
