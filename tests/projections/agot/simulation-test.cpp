// Whole tournaments, seeded and random, driven through the Game as the daemon would: round 1
// drawn, rounds 2–6 seated by the solver, random house picks (refused ones retried with the
// houses the refusal names), the rest of a table picked automatically, random valid results.
// Every tournament must complete all 6 rounds, every player must play every house exactly once,
// every table must seat 6 different houses, and nobody may be moved out of their rating league
// in a round where the rating order itself could be seated.
#include "projections/agot/agot_game.hpp"

#include "projections/agot/matching.hpp"
#include "projections/agot/rules.hpp"
#include "tests/projections/agot/agot_game_support.hpp"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

namespace tally::projections::agot {
namespace {

using namespace testing;
using projections::SeatingRequest;

class Simulation {
 public:
  Simulation(const Game& game, int players, std::uint64_t seed)
      : game_(game), rng_(seed), builder_("sim", "agot") {
    for (int i = 0; i < players; ++i) {
      std::string id = "p" + std::to_string(i + 1);
      builder_.player(id, "Player " + std::to_string(rng_() % 1000));  // names may tie
      ids_.push_back(id);
    }
    sync();
  }

  struct Stats {
    int rounds_in_rating_order = 0;  // rounds ≥ 2 whose rating order could be seated as is
    int rounds_with_moves = 0;       // rounds ≥ 2 where the houses forced players to move
    int refused_picks = 0;
  };

  void run(Stats& stats) {
    for (std::uint32_t round = 1; round <= 6; ++round) {
      SCOPED_TRACE(::testing::Message() << "round " << round);
      std::vector<std::string>& rating = rating_;
      rating.clear();
      if (round > 1) {
        const boost::json::object standings = game_.standings(t_);
        for (const auto& r : standings.at("rows").as_array()) rating.push_back(str(r.at("player")));
      }
      auto seating = game_.seat_round(t_, SeatingRequest{round, std::nullopt, rng_()});
      ASSERT_TRUE(seating) << seating.errors[0].message;
      ASSERT_EQ(seating.value->tables.size(), ids_.size() / 6);
      builder_.seat(seating.value->tables, seating.value->method, seating.value->seed);
      sync();
      if (round > 1) check_rating_leagues(rating, *seating.value, stats);
      for (const auto& table : seating.value->tables) {
        ASSERT_EQ(table.players.size(), 6u);
        play_table(round, table.number, table.players, stats);
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
    // All six rounds seated and reported.
    ASSERT_EQ(t_.rounds.size(), 6u);
    for (const auto& [key, table] : t_.tables) EXPECT_NE(table.result(), nullptr);
    // G-2 over the tournament: every player played every house exactly once.
    for (const auto& id : ids_) {
      EXPECT_EQ(played_[id].size(), 6u) << id;
      EXPECT_EQ(houses_[id], HouseSet::all()) << id;
    }
  }

 private:
  // As the daemon does: check against the tournament as it stands, append when accepted.
  RuleErrors act(std::uint32_t round, std::uint32_t table, Which kind,
                 const boost::json::value& body) {
    auto proposed = builder_.proposed(kind, body);
    RuleErrors errors = game_.check_action(t_, state(t_, round, table),
                                           proposed->getRoot<schema::Event>().asReader());
    if (errors.empty()) {
      // The payload decoded once for the check is the one appended.
      auto payload = proposed->getRoot<schema::Event>().asReader().getPayload();
      builder_.append(projections::table_stream("sim", round, table),
                      [&](schema::Event::Builder e) {
                        if (kind == Which::HOUSE_PICK)
                          e.getPayload().setHousePick(payload.getHousePick());
                        else
                          e.getPayload().setAgotResult(payload.getAgotResult());
                      });
      sync();
    }
    return errors;
  }

  RuleErrors pick(std::uint32_t round, std::uint32_t table, const std::string& player,
                  const std::string& house) {
    return act(round, table, Which::HOUSE_PICK,
               boost::json::object{{"player", player}, {"house", house}});
  }

  void sync() {
    const auto& events = builder_.events();
    for (; applied_ < events.size(); ++applied_) t_.apply(events[applied_]);
  }

  // When the rating order (tables of six in order) can be seated, the solver must seat exactly it.
  void check_rating_leagues(const std::vector<std::string>& rating,
                            const projections::Seating& seating, Stats& stats) {
    bool feasible = true;
    for (std::size_t k = 0; k * 6 < rating.size(); ++k) {
      std::vector<HouseSet> available;
      for (std::size_t i = k * 6; i < k * 6 + 6; ++i)
        available.push_back(HouseSet::all() - houses_[rating[i]]);
      feasible = feasible && match_houses(available, 1).complete();
    }
    bool same = true;
    for (std::size_t k = 0; k < seating.tables.size(); ++k) {
      std::set<std::string> seated(seating.tables[k].players.begin(),
                                   seating.tables[k].players.end());
      std::set<std::string> chunk(rating.begin() + k * 6, rating.begin() + k * 6 + 6);
      same = same && seated == chunk;
      EXPECT_EQ(seating.tables[k].league, league_name(k));
    }
    if (feasible) {
      EXPECT_TRUE(same) << "a player was moved although the rating order fits";
      ++stats.rounds_in_rating_order;
    } else {
      EXPECT_FALSE(same);
      ++stats.rounds_with_moves;
    }
  }

  void play_table(std::uint32_t round, std::uint32_t table, const std::vector<std::string>& players,
                  Stats& stats) {
    // Some players pick in pick order (the rating order), a random house first; the rest are
    // assigned automatically.
    std::vector<std::string> order;
    for (const auto& p : rating_) {
      if (std::find(players.begin(), players.end(), p) != players.end()) order.push_back(p);
    }
    if (rating_.empty()) order = players;  // round 1: rating ties everywhere; any order will do
    ASSERT_EQ(order.size(), 6u);
    const std::size_t pickers = rng_() % 7;
    std::map<std::string, std::string> houses;
    for (std::size_t i = 0; i < pickers; ++i) {
      std::string house = house_of(static_cast<int>(rng_() % 6));
      RuleErrors refused = pick(round, table, order[i], house);
      if (!refused.empty()) {
        ++stats.refused_picks;
        const auto& accepted = refused[0].alternatives;
        ASSERT_FALSE(accepted.empty()) << refused[0].message;
        for (const auto& e : refused) EXPECT_EQ(e.alternatives, accepted);
        house = accepted[rng_() % accepted.size()];
        ASSERT_EQ(pick(round, table, order[i], house), RuleErrors{});
      }
      houses[order[i]] = house;
    }
    auto rest = game_.auto_actions(t_, state(t_, round, table));
    ASSERT_TRUE(rest) << rest.errors[0].message;
    ASSERT_EQ(rest.value->size(), 6 - pickers);
    for (const auto& message : *rest.value) {
      auto p = message->getRoot<schema::Event>().asReader().getPayload().getHousePick();
      builder_.action(round, table, Which::HOUSE_PICK, schema::encode_struct(p));
      houses[p.getPlayer().cStr()] = house_id(p.getHouse());
    }
    sync();

    // A random valid result with the picked houses (the result is refused unless they agree).
    ASSERT_EQ(houses.size(), 6u);
    std::vector<Line> lines;
    HouseSet at_table;
    for (const auto& p : players) {
      House h = *parse_house(houses.at(p));
      EXPECT_FALSE(houses_[p].contains(h)) << p << " plays " << house_id(h) << " again";
      at_table = at_table.with(h);
      lines.push_back(Line{p, houses.at(p), 0, static_cast<int>(rng_() % 7)});
    }
    EXPECT_EQ(at_table, HouseSet::all());
    if (rng_() % 4 == 0) lines[rng_() % 6].castles = 7;  // a castle victory now and then
    std::vector<std::size_t> by_castles = {0, 1, 2, 3, 4, 5};
    std::shuffle(by_castles.begin(), by_castles.end(), rng_);
    std::stable_sort(by_castles.begin(), by_castles.end(), [&](std::size_t a, std::size_t b) {
      return lines[a].castles > lines[b].castles;
    });
    for (std::size_t place = 0; place < 6; ++place)
      lines[by_castles[place]].place = static_cast<int>(place) + 1;
    for (std::size_t i = 0; i < 6; ++i) {
      if (lines[i].castles == 7 && lines[i].place != 1) lines[i].castles = 6;
    }
    int held = 0;
    for (auto& l : lines) {
      l.held = std::min(6 - held, static_cast<int>(rng_() % 3));
      held += l.held;
      l.lands = static_cast<int>(rng_() % 6);
      for (const auto& other : lines) {
        if (other.house != l.house && rng_() % 8 == 0) l.captured.push_back(other.house);
      }
    }
    ASSERT_EQ(act(round, table, Which::AGOT_RESULT, result_body(lines)), RuleErrors{});
    for (const auto& l : lines) {
      played_[l.player].push_back(*parse_house(l.house));
      houses_[l.player] = houses_[l.player].with(*parse_house(l.house));
    }
  }

  const Game& game_;
  std::mt19937_64 rng_;
  TournamentBuilder builder_;
  projections::Tournament t_;
  std::size_t applied_ = 0;
  std::vector<std::string> ids_;
  std::vector<std::string> rating_;  // the rating that seated the current round
  std::map<std::string, std::vector<House>> played_;
  std::map<std::string, HouseSet> houses_;
};

void simulate(int players, int tournaments, std::uint64_t seed) {
  auto game = make_agot_game();
  Simulation::Stats stats;
  for (int i = 0; i < tournaments; ++i) {
    SCOPED_TRACE(::testing::Message() << players << " players, tournament " << i);
    Simulation(*game, players, seed + static_cast<std::uint64_t>(i)).run(stats);
    if (::testing::Test::HasFailure()) return;
  }
  std::cout << players << " players, " << tournaments
            << " tournaments: " << stats.rounds_in_rating_order
            << " rounds seated in rating order, " << stats.rounds_with_moves
            << " rounds where houses moved players, " << stats.refused_picks
            << " random picks refused\n";
  // The sample exercises both kinds of rounds and refused picks.
  EXPECT_GT(stats.rounds_in_rating_order, 0);
  EXPECT_GT(stats.rounds_with_moves, 0);
  EXPECT_GT(stats.refused_picks, 0);
}

TEST(AgotSimulation, TwelvePlayers) { simulate(12, 1000, 1'000'000); }
TEST(AgotSimulation, TwentyFourPlayers) { simulate(24, 80, 2'000'000); }
TEST(AgotSimulation, ThirtySixPlayers) { simulate(36, 40, 3'000'000); }

}  // namespace
}  // namespace tally::projections::agot
