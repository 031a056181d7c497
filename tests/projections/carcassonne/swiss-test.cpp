// Seating of carcassonne.md §1: seeded random first round, Swiss pairing without rematches while
// avoidable, the bye to the lowest-ranked player without one, starting-player balance, larger
// tables, manual seating.
#include "projections/carcassonne/swiss.hpp"

#include "projections/carcassonne/carcassonne_game.hpp"
#include "projections/carcassonne/standings.hpp"
#include "tests/support/messages.hpp"
#include "tests/support/tournament_builder.hpp"

#include <gtest/gtest.h>
#include <boost/json.hpp>

#include <map>
#include <set>

namespace tally::projections::carcassonne {
namespace {

using tally::testing::english;

using tally::testing::TournamentBuilder;
using Which = schema::Event::Payload::Which;
using Tables = std::vector<std::vector<std::string>>;

Tables tables_of(const projections::Seating& s) {
  Tables out;
  for (const auto& t : s.tables) out.push_back(t.players);
  return out;
}

projections::Seating seat(const projections::Tournament& t, std::uint32_t round,
                          std::optional<schema::SeatingMethod> method = std::nullopt,
                          std::uint64_t seed = 7) {
  projections::SeatingRequest request;
  request.round = round;
  request.method = method;
  request.seed = seed;
  auto out = seat_round(t, read_rules(t.rules), request);
  EXPECT_TRUE(out) << (out.errors.empty() ? std::string() : english(out.errors[0].message));
  return out ? *out.value : projections::Seating{};
}

void result(TournamentBuilder& b, std::uint32_t round, std::uint32_t table,
            const std::vector<std::pair<std::string, int>>& scores) {
  boost::json::array players;
  for (const auto& [p, s] : scores)
    players.push_back(boost::json::object{{"player", p}, {"score", s}});
  b.action(round, table, Which::CARCASSONNE_RESULT, boost::json::object{{"players", players}});
}

std::set<std::pair<std::string, std::string>> pairs_of(const Tables& tables) {
  std::set<std::pair<std::string, std::string>> out;
  for (const auto& t : tables) {
    for (std::size_t i = 0; i < t.size(); ++i) {
      for (std::size_t j = i + 1; j < t.size(); ++j) out.insert(std::minmax(t[i], t[j]));
    }
  }
  return out;
}

TEST(SeededShuffle, IsAPureFunctionOfTheSeed) {
  std::vector<std::string> a{"1", "2", "3", "4", "5", "6", "7", "8"};
  std::vector<std::string> b = a;
  std::mt19937_64 r1(42), r2(42);
  seeded_shuffle(a, r1);
  seeded_shuffle(b, r2);
  EXPECT_EQ(a, b);
  // Pinned: a change to the draw would change every stored seating's replay.
  EXPECT_EQ(a, (std::vector<std::string>{"8", "1", "6", "2", "3", "5", "4", "7"}));
}

TEST(Swiss, RoundOneIsASeededRandomDrawOfPairsWithTheByeLast) {
  TournamentBuilder b("cup", "carcassonne");
  for (auto p : {"a", "b", "c", "d", "e"}) b.player(p, std::string("Player ") + p);
  auto t = b.tournament();
  auto first = seat(t, 1, std::nullopt, 99);
  EXPECT_EQ(first.method, schema::SeatingMethod::RANDOM);
  EXPECT_EQ(first.seed, 99u);
  ASSERT_EQ(first.tables.size(), 3u);
  EXPECT_EQ(first.tables[0].players.size(), 2u);
  EXPECT_EQ(first.tables[1].players.size(), 2u);
  EXPECT_EQ(first.tables[2].players.size(), 1u);  // the bye
  std::multiset<std::string> seated;
  for (const auto& table : first.tables) seated.insert(table.players.begin(), table.players.end());
  EXPECT_EQ(seated, (std::multiset<std::string>{"a", "b", "c", "d", "e"}));
  // The same seed replays the same draw; another seed draws another one.
  EXPECT_EQ(tables_of(seat(t, 1, std::nullopt, 99)), tables_of(first));
  std::set<Tables> draws;
  for (std::uint64_t seed = 1; seed <= 20; ++seed)
    draws.insert(tables_of(seat(t, 1, std::nullopt, seed)));
  EXPECT_GT(draws.size(), 5u);
}

TEST(Swiss, NoRematchWhileAvoidable) {
  // All three tables drew; the scores rank a, b, c, d, e, f. Plain 1 v 2 would repeat every
  // pairing of round 1.
  TournamentBuilder b("cup", "carcassonne");
  for (auto p : {"a", "b", "c", "d", "e", "f"}) b.player(p, p);
  b.seat({{"a", "b"}, {"c", "d"}, {"e", "f"}});
  result(b, 1, 1, {{"a", 100}, {"b", 100}});
  result(b, 1, 2, {{"c", 50}, {"d", 50}});
  result(b, 1, 3, {{"e", 10}, {"f", 10}});
  auto t = b.tournament();
  auto order = standings_rows(t, read_rules(t.rules));
  ASSERT_EQ(order.front().player, "a");
  auto second = seat(t, 2);
  EXPECT_EQ(second.method, schema::SeatingMethod::STANDINGS);
  auto repeated = pairs_of({{"a", "b"}, {"c", "d"}, {"e", "f"}});
  for (const auto& p : pairs_of(tables_of(second)))
    EXPECT_FALSE(repeated.contains(p)) << p.first << "-" << p.second;
  // Top-down: a meets the best player they have not met.
  EXPECT_EQ(pairs_of({second.tables[0].players}), pairs_of({{"a", "c"}}));
}

TEST(Swiss, RematchesOnlyWhenUnavoidable) {
  // Four players after three rounds have met everyone: round 4 must repeat, and still seats all.
  TournamentBuilder b("cup", "carcassonne");
  for (auto p : {"a", "b", "c", "d"}) b.player(p, p);
  b.seat({{"a", "b"}, {"c", "d"}});
  result(b, 1, 1, {{"a", 10}, {"b", 5}});
  result(b, 1, 2, {{"c", 10}, {"d", 5}});
  b.seat({{"a", "c"}, {"b", "d"}});
  result(b, 2, 1, {{"a", 10}, {"c", 5}});
  result(b, 2, 2, {{"b", 10}, {"d", 5}});
  auto t = b.tournament();
  auto third = seat(t, 3);
  EXPECT_EQ(pairs_of(tables_of(third)), pairs_of({{"a", "d"}, {"b", "c"}}));
  b.seat(third.tables, third.method);
  auto fourth = seat(b.tournament(), 4);
  ASSERT_EQ(fourth.tables.size(), 2u);
  EXPECT_EQ(pairs_of(tables_of(fourth)).size(), 2u);
}

TEST(Swiss, TheByeGoesToTheLowestRankedPlayerWithoutOne) {
  TournamentBuilder b("cup", "carcassonne");
  for (auto p : {"a", "b", "c", "d", "e"}) b.player(p, p);
  b.seat({{"a", "b"}, {"c", "d"}, {"e"}});
  result(b, 1, 1, {{"a", 80}, {"b", 70}});  // b −10
  result(b, 1, 2, {{"c", 90}, {"d", 60}});  // d −30: the lowest
  auto t = b.tournament();
  auto second = seat(t, 2);
  ASSERT_EQ(second.tables.size(), 3u);
  EXPECT_EQ(second.tables.back().players, (std::vector<std::string>{"d"}));
  // e's bye counted as a win with score difference 0.
  auto rows = standings_rows(t, read_rules(t.rules));
  auto e =
      std::find_if(rows.begin(), rows.end(), [](const StandingRow& r) { return r.player == "e"; });
  EXPECT_EQ(e->points, Rational(1));
  EXPECT_EQ(e->score_diff, 0);
  EXPECT_EQ(e->byes, 1);
  // Round 3: d and e have had theirs; the lowest-ranked of the rest gets it.
  b.seat(second.tables, second.method);
  const auto& pairs = second.tables;
  for (std::uint32_t i = 0; i + 1 < pairs.size(); ++i) {
    result(b, 2, pairs[i].number, {{pairs[i].players[0], 50}, {pairs[i].players[1], 40}});
  }
  auto t2 = b.tournament();
  auto third = seat(t2, 3);
  std::string bye = third.tables.back().players.at(0);
  EXPECT_NE(bye, "d");
  EXPECT_NE(bye, "e");
  auto rows2 = standings_rows(t2, read_rules(t2.rules));
  std::string lowest_without;
  for (auto it = rows2.rbegin(); it != rows2.rend(); ++it) {
    if (it->byes == 0) {
      lowest_without = it->player;
      break;
    }
  }
  EXPECT_EQ(bye, lowest_without);
}

TEST(Swiss, TheStartingPlayerIsTheOneWhoStartedFewerGames) {
  // Round 1: a and c started; a and d win. Round 2 pairs the winners a v d and the losers b v c:
  // at each table the player who has not started yet sits first.
  TournamentBuilder b("cup", "carcassonne");
  for (auto p : {"a", "b", "c", "d"}) b.player(p, p);
  b.seat({{"a", "b"}, {"c", "d"}});
  result(b, 1, 1, {{"a", 10}, {"b", 5}});
  result(b, 1, 2, {{"c", 5}, {"d", 10}});
  auto second = seat(b.tournament(), 2);
  ASSERT_EQ(second.tables.size(), 2u);
  EXPECT_EQ(second.tables[0].players, (std::vector<std::string>{"d", "a"}));
  EXPECT_EQ(second.tables[1].players, (std::vector<std::string>{"b", "c"}));
  // Equal starts: the seed decides, and it does decide both ways over seeds.
  TournamentBuilder fresh("cup2", "carcassonne");
  fresh.player("x", "x").player("y", "y");
  std::set<std::string> starters;
  for (std::uint64_t seed = 1; seed <= 16; ++seed) {
    starters.insert(seat(fresh.tournament(), 1, std::nullopt, seed).tables[0].players[0]);
  }
  EXPECT_EQ(starters, (std::set<std::string>{"x", "y"}));
}

TEST(Swiss, StandingsRoundsAreDeterministicWithoutASeed) {
  TournamentBuilder b("cup", "carcassonne");
  for (auto p : {"a", "b", "c", "d", "e", "f"}) b.player(p, p);
  b.seat({{"a", "b"}, {"c", "d"}, {"e", "f"}});
  result(b, 1, 1, {{"a", 30}, {"b", 30}});
  result(b, 1, 2, {{"c", 30}, {"d", 30}});
  result(b, 1, 3, {{"e", 30}, {"f", 30}});
  auto t = b.tournament();
  auto one = seat(t, 2, schema::SeatingMethod::STANDINGS, 0);
  auto two = seat(t, 2, schema::SeatingMethod::STANDINGS, 0);
  EXPECT_EQ(tables_of(one), tables_of(two));
  EXPECT_EQ(one.seed, 0u);
}

TEST(Swiss, AStandingsRoundIgnoresTheRequestSeed) {
  // The daemon makes up a seed for every seating request but stores it only for random rounds:
  // the start-order draw of a standings round must not depend on it.
  TournamentBuilder b("cup", "carcassonne");
  for (auto p : {"a", "b", "c", "d"}) b.player(p, p);
  b.seat({{"a", "b"}, {"c", "d"}});
  result(b, 1, 1, {{"a", 10}, {"b", 5}});
  result(b, 1, 2, {{"c", 10}, {"d", 5}});
  auto t = b.tournament();
  // a and c (one start each) meet: equal starts, so the draw decides who starts.
  auto derived = seat(t, 2, schema::SeatingMethod::STANDINGS, 0);
  ASSERT_EQ(derived.tables[0].players.size(), 2u);
  EXPECT_EQ(
      std::set<std::string>(derived.tables[0].players.begin(), derived.tables[0].players.end()),
      (std::set<std::string>{"a", "c"}));
  for (std::uint64_t seed = 1; seed <= 16; ++seed) {
    EXPECT_EQ(tables_of(seat(t, 2, schema::SeatingMethod::STANDINGS, seed)), tables_of(derived))
        << "seed " << seed;
  }
}

TEST(Swiss, DroppedPlayersAreNotSeated) {
  TournamentBuilder b("cup", "carcassonne");
  for (auto p : {"a", "b", "c", "d"}) b.player(p, p);
  b.seat({{"a", "b"}, {"c", "d"}});
  result(b, 1, 1, {{"a", 10}, {"b", 5}});
  result(b, 1, 2, {{"c", 10}, {"d", 5}});
  b.drop("b");
  auto second = seat(b.tournament(), 2);
  std::set<std::string> seated;
  for (const auto& table : second.tables) seated.insert(table.players.begin(), table.players.end());
  EXPECT_EQ(seated, (std::set<std::string>{"a", "c", "d"}));
  EXPECT_EQ(second.tables.back().players.size(), 1u);  // three players: one bye
}

TEST(Swiss, LargerTablesDifferInSizeByAtMostOne) {
  TournamentBuilder b("cup", "carcassonne", "", {{"table_size", 4}});
  for (int i = 1; i <= 10; ++i) b.player("p" + std::to_string(i), "P" + std::to_string(i));
  auto t = b.tournament();
  t.rules = *normalize_rules(t.rules).value;
  auto first = seat(t, 1);
  std::vector<std::size_t> sizes;
  for (const auto& table : first.tables) sizes.push_back(table.players.size());
  EXPECT_EQ(sizes, (std::vector<std::size_t>{4, 3, 3}));
}

TEST(Swiss, ManualSeatingIsValidated) {
  TournamentBuilder b("cup", "carcassonne");
  for (auto p : {"a", "b", "c", "d"}) b.player(p, p);
  b.drop("d");
  auto t = b.tournament();
  projections::SeatingRequest request;
  request.round = 1;
  request.method = schema::SeatingMethod::MANUAL;
  request.tables = {{"a", "b"}, {"a", "x"}, {"d"}};
  auto out = seat_round(t, read_rules(t.rules), request);
  ASSERT_FALSE(out);
  auto has = [&](const std::string& player, const std::string& message) {
    return std::any_of(out.errors.begin(), out.errors.end(), [&](const projections::RuleError& e) {
      return e.rule == "seating" && e.player == player &&
             english(e.message).find(message) != std::string::npos;
    });
  };
  EXPECT_TRUE(has("a", "twice"));
  EXPECT_TRUE(has("x", "unknown"));
  EXPECT_TRUE(has("d", "dropped"));
  EXPECT_TRUE(has("c", "not seated"));
  request.tables = {{"a", "b"}, {"c"}};
  auto ok = seat_round(t, read_rules(t.rules), request);
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok.value->tables[1].players, (std::vector<std::string>{"c"}));
}

}  // namespace
}  // namespace tally::projections::carcassonne
