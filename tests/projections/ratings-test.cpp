#include "projections/ratings.hpp"

#include "projections/catan/catan_game.hpp"
#include "tests/projections/catan/fixtures.hpp"
#include "tests/support/tournament_builder.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

namespace tally::projections {
namespace {

using catan::testing::body;
using catan::testing::sheet;
using testing::TournamentBuilder;
using Which = schema::Event::Payload::Which;
namespace json = boost::json;

// The reference's numbers agree to the last bits or nearly (same arithmetic, same order); the
// contract asks 1e-6.
constexpr double kExact = 1e-12;

void expect_rating(const Rating& r, double mu, double sigma, const std::string& who) {
  EXPECT_NEAR(r.mu, mu, kExact) << who;
  EXPECT_NEAR(r.sigma, sigma, kExact) << who;
}

std::vector<Rating> newcomers(std::size_t n) { return std::vector<Rating>(n, Rating{}); }

TEST(RatingModel, TheContractsNumbers) {
  const RatingModel m;
  EXPECT_EQ(m.mu, 25.0);
  EXPECT_EQ(m.sigma, 25.0 / 3);
  EXPECT_EQ(m.beta, 25.0 / 6);
  EXPECT_EQ(m.kappa, 0.0001);
  EXPECT_EQ(m.tau, 0.0);
  const Rating r = initial_rating(m);
  EXPECT_EQ(r.games, 0u);
  EXPECT_DOUBLE_EQ(r.display(), 25.0 - 3 * 25.0 / 3);  // μ − 3σ = 0
}

// openskill 5.0.1 (node):
//   rate([[rating()], [rating()]], { tau: 0 })
TEST(RateGame, TwoPlayersAsOpenSkillRatesThem) {
  auto r = rate_game(newcomers(2), {1, 2});
  ASSERT_EQ(r.size(), 2u);
  expect_rating(r[0], 27.635231383473648, 8.0655063163235479, "winner");
  expect_rating(r[1], 22.364768616526352, 8.0655063163235479, "loser");
  EXPECT_EQ(r[0].games, 1u);
  EXPECT_EQ(r[1].games, 1u);
  EXPECT_DOUBLE_EQ(r[0].display(), r[0].mu - 3 * r[0].sigma);
}

// openskill 5.0.1 (node):
//   rate([[rating()], [rating()], [rating()], [rating()]], { tau: 0, rank: [2, 1, 4, 3] })
// The players in seat order, not in place order: the answer keeps the seats' order.
TEST(RateGame, FourPlayersAsOpenSkillRatesThem) {
  auto r = rate_game(newcomers(4), {2, 1, 4, 3});
  ASSERT_EQ(r.size(), 4u);
  expect_rating(r[0], 26.552824984374855, 8.1792137049452034, "second");
  expect_rating(r[1], 27.795084971874736, 8.2631607576134769, "first");
  expect_rating(r[2], 20.962655040625378, 8.0837313071865875, "fourth");
  expect_rating(r[3], 24.689435003125030, 8.0837313071865875, "third");
}

// openskill 5.0.1 (node):
//   rate([[rating()], [rating()], [rating()], [rating()]], { tau: 0, rank: [1, 2, 2, 4] })
TEST(RateGame, SharedPlacesAreTies) {
  auto r = rate_game(newcomers(4), {1, 2, 2, 4});
  expect_rating(r[0], 27.795084971874736, 8.2631607576134769, "first");
  expect_rating(r[1], 24.689435003125030, 8.1792137049452034, "second=");
  expect_rating(r[2], 24.689435003125030, 8.1792137049452034, "second=");
  expect_rating(r[3], 22.826045021875203, 8.1792137049452034, "fourth");
  // Only the places' order counts: 1, 3=, 3=, 4 is the same game.
  auto same = rate_game(newcomers(4), {1, 3, 3, 4});
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(same[i].mu, r[i].mu);
    EXPECT_EQ(same[i].sigma, r[i].sigma);
  }
}

// Not OpenSkill's default: its τ (25/300) would widen σ before each game. Q-6 has none; the
// model still takes one, as the reference does:
//   rate([[rating()], [rating()]]) → 27.635389493140497, 8.0659014135436795
TEST(RateGame, TauIsAnOptionQ6LeavesOut) {
  RatingModel with_tau;
  with_tau.tau = 25.0 / 300;
  auto r = rate_game(newcomers(2), {1, 2}, with_tau);
  expect_rating(r[0], 27.635389493140497, 8.0659014135436795, "winner");
  EXPECT_GT(std::abs(r[0].mu - rate_game(newcomers(2), {1, 2})[0].mu), 1e-6);
}

// --- games from a tournament ---------------------------------------------------------------------

// A Catan tournament "cup" of eight, round 1 at two tables: table 2's result entered first.
class TournamentGames : public ::testing::Test {
 protected:
  TournamentGames() {
    for (const char* p : {"a", "b", "c", "d", "e", "f", "g", "h"})
      b.player(p, "Name " + std::string(p));
    b.seat({{"a", "b", "c", "d"}, {"e", "f", "g", "h"}});
  }
  // e 7, f 5, g 5, h 3 VP: places 1, 2=, 2=, 4.
  std::uint64_t enter_table_2() {
    return b.action(1, 2, Which::CATAN_RESULT,
                    body({sheet("e", 3, 2, 0, 0, 6, 3), sheet("f", 3, 1, 0, 0, 6, 3),
                          sheet("g", 1, 2, 0, 0, 6, 3), sheet("h", 3, 0, 0, 0, 6, 3)}));
  }
  // a 8, b 6, c 5, d 4 VP.
  std::uint64_t enter_table_1(std::uint64_t supersedes = 0) {
    return b.action(1, 1, Which::CATAN_RESULT,
                    body({sheet("a", 2, 3, 0, 0, 6, 3), sheet("b", 2, 2, 0, 0, 6, 3),
                          sheet("c", 3, 1, 0, 0, 6, 3), sheet("d", 2, 1, 0, 0, 6, 3)}),
                    supersedes, supersedes ? "recounted" : "");
  }
  std::vector<RatedGame> games() { return tournament_games(b.tournament(), *catan); }
  static std::map<std::string, std::uint32_t> places(const RatedGame& g) {
    std::map<std::string, std::uint32_t> out;
    for (const auto& s : g.seats) out[s.identity.player] = s.place;
    return out;
  }
  static std::map<std::string, Rating> by_key(const std::vector<RatedPlayer>& players) {
    std::map<std::string, Rating> out;
    for (const auto& p : players) out[p.identity.key] = p.rating;
    return out;
  }

  TournamentBuilder b{"cup", "catan"};
  std::unique_ptr<Game> catan = catan::make_catan_game();
};

TEST_F(TournamentGames, EveryResultInEffectInTheOrderFirstEntered) {
  EXPECT_TRUE(games().empty());  // seated, nothing entered
  const std::uint64_t second = enter_table_2();
  const std::uint64_t first = enter_table_1();
  auto g = games();
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g[0].table, 2u);
  EXPECT_EQ(g[0].first_seq, second);
  EXPECT_EQ(g[1].table, 1u);
  EXPECT_EQ(g[1].first_seq, first);
  // The game's placing, shared places equal (Catan: "2=").
  EXPECT_EQ(places(g[0]),
            (std::map<std::string, std::uint32_t>{{"e", 1}, {"f", 2}, {"g", 2}, {"h", 4}}));
  EXPECT_EQ(places(g[1]),
            (std::map<std::string, std::uint32_t>{{"a", 1}, {"b", 2}, {"c", 3}, {"d", 4}}));
  // The default identity: the tournament's player, named as it names them.
  EXPECT_EQ(g[1].seats[0].identity.key, "cup/a");
  EXPECT_EQ(g[1].seats[0].identity.name, "Name a");
  EXPECT_EQ(g[1].seats[0].identity.person, "");
  EXPECT_EQ(g[1].seats[0].identity.tournament, "cup");
}

TEST_F(TournamentGames, RatedInThatOrder) {
  enter_table_2();
  enter_table_1();
  auto rated = by_key(rate_games(games()));
  ASSERT_EQ(rated.size(), 8u);
  // The two tables share no player: each is one game of newcomers.
  auto t1 = rate_game(newcomers(4), {1, 2, 3, 4});
  auto t2 = rate_game(newcomers(4), {1, 2, 2, 4});
  for (std::size_t i = 0; i < 4; ++i) {
    const std::string p1 = "cup/" + std::string(1, static_cast<char>('a' + i));
    const std::string p2 = "cup/" + std::string(1, static_cast<char>('e' + i));
    EXPECT_EQ(rated[p1].mu, t1[i].mu) << p1;
    EXPECT_EQ(rated[p1].sigma, t1[i].sigma) << p1;
    EXPECT_EQ(rated[p2].mu, t2[i].mu) << p2;
    EXPECT_EQ(rated[p2].games, 1u) << p2;
  }
}

TEST_F(TournamentGames, ACorrectionReplacesTheGameWhereItStood) {
  const std::uint64_t first = enter_table_1();
  enter_table_2();
  // Table 1 corrected after table 2 was entered: d 9 VP now, first.
  b.action(1, 1, Which::CATAN_RESULT,
           body({sheet("a", 2, 3, 0, 0, 6, 3), sheet("b", 2, 2, 0, 0, 6, 3),
                 sheet("c", 3, 1, 0, 0, 6, 3), sheet("d", 3, 3, 0, 0, 6, 3)}),
           first, "recounted");
  auto g = games();
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g[0].table, 1u);  // still first: ordered by its first entry, not the correction
  EXPECT_EQ(g[0].first_seq, first);
  EXPECT_EQ(places(g[0]),
            (std::map<std::string, std::uint32_t>{{"a", 2}, {"b", 3}, {"c", 4}, {"d", 1}}));
  auto rated = by_key(rate_games(g));
  auto corrected = rate_game(newcomers(4), {2, 3, 4, 1});
  EXPECT_EQ(rated["cup/d"].mu, corrected[3].mu);
  EXPECT_EQ(rated["cup/a"].mu, corrected[0].mu);
  EXPECT_EQ(rated["cup/a"].games, 1u);  // replaced, not added
}

TEST_F(TournamentGames, ACorrectionOfACorrectionKeepsTheFirstEntry) {
  const std::uint64_t first = enter_table_1();
  const std::uint64_t fixed = enter_table_1(first);
  enter_table_2();
  enter_table_1(fixed);
  auto g = games();
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g[0].table, 1u);
  EXPECT_EQ(g[0].first_seq, first);
}

// A void removes what it withdraws: a claim (the placing changes) — and, were a result ever
// withdrawn (the API corrects results, never voids them: rule `void`), the game itself.
TEST_F(TournamentGames, AVoidReplacesOrRemovesTheGame) {
  // a 10 VP claims the win over b 12 VP: a first by the claimed-win exception.
  const std::uint64_t claim = b.action(1, 1, Which::CLAIMED_WIN, json::object{{"player", "a"}});
  const std::uint64_t result =
      b.action(1, 1, Which::CATAN_RESULT, body(catan::testing::two_at_ten()));
  enter_table_2();
  ASSERT_EQ(games().size(), 2u);
  EXPECT_EQ(places(games()[0]).at("a"), 1u);
  EXPECT_EQ(places(games()[0]).at("b"), 2u);

  b.void_event(1, 1, claim, "claimed at the wrong table");
  auto g = games();
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g[0].first_seq, result);
  EXPECT_EQ(places(g[0]),
            (std::map<std::string, std::uint32_t>{{"a", 2}, {"b", 1}, {"c", 3}, {"d", 4}}));
  auto rated = by_key(rate_games(g));
  EXPECT_EQ(rated["cup/b"].mu, rate_game(newcomers(4), {2, 1, 3, 4})[1].mu);

  b.void_event(1, 1, result, "not this table's game");
  g = games();
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].table, 2u);
  EXPECT_EQ(rate_games(g).size(), 4u);  // a, b, c and d have no game any more
}

// --- many tournaments, one person ---------------------------------------------------------------

TEST(MergeGames, ByFirstEntryTimeThenTournamentThenSeq) {
  auto game = [](std::string t, std::int64_t at, std::uint64_t seq) {
    return RatedGame{std::move(t), 1, 1, seq, at, {}};
  };
  auto merged = merge_games({{game("b", 100, 7), game("b", 300, 9)},
                             {game("a", 100, 8), game("a", 200, 3)},
                             {game("c", 100, 2)}});
  std::vector<std::pair<std::string, std::uint64_t>> order;
  for (const auto& g : merged) order.emplace_back(g.tournament, g.first_seq);
  EXPECT_EQ(order, (std::vector<std::pair<std::string, std::uint64_t>>{
                       {"a", 8}, {"b", 7}, {"c", 2}, {"a", 3}, {"b", 9}}));
}

TEST(RateGames, OneIdentityAcrossTournaments) {
  std::unique_ptr<Game> catan = catan::make_catan_game();
  // "open" has fewer events before its result, so its result is recorded earlier.
  TournamentBuilder open("open", "catan");
  for (const char* p : {"x1", "x2", "x3"}) open.player(p, p);
  open.seat({{"x1", "x2", "x3"}});
  open.action(1, 1, Which::CATAN_RESULT,
              body({sheet("x1", 3, 0, 0, 0, 6, 3), sheet("x2", 3, 1, 0, 0, 6, 3),
                    sheet("x3", 2, 0, 0, 0, 6, 3)}));  // x2 first, x1 second
  TournamentBuilder cup("cup", "catan");
  for (const char* p : {"c1", "c2", "c3", "c4", "c5", "c6"}) cup.player(p, p);
  cup.seat({{"c1", "c2", "c3"}});
  cup.action(1, 1, Which::CATAN_RESULT,
             body({sheet("c1", 4, 0, 0, 0, 6, 3), sheet("c2", 3, 0, 0, 0, 6, 3),
                   sheet("c3", 2, 0, 0, 0, 6, 3)}));  // c1 first

  // x1 of "open" and c1 of "cup" are one person, Anna.
  IdentityOf anna = [](const Tournament& t, std::string_view player) {
    if ((t.id == "open" && player == "x1") || (t.id == "cup" && player == "c1")) {
      return RatedIdentity{"anna", "Anna " + t.id, "anna", t.id, std::string(player)};
    }
    return tournament_identity(t, player);
  };
  auto games = merge_games({tournament_games(cup.tournament(), *catan, anna),
                            tournament_games(open.tournament(), *catan, anna)});
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(games[0].tournament, "open");
  auto rated = rate_games(games);
  ASSERT_EQ(rated.size(), 5u);
  auto anna_row = std::find_if(rated.begin(), rated.end(),
                               [](const RatedPlayer& p) { return p.identity.key == "anna"; });
  ASSERT_NE(anna_row, rated.end());
  const RatedPlayer& a = *anna_row;
  EXPECT_EQ(a.identity.key, "anna");
  EXPECT_EQ(a.identity.name, "Anna cup");  // as the newest game names her
  EXPECT_EQ(a.rating.games, 2u);
  // Second in "open" as a newcomer, then first in "cup" against two newcomers.
  const Rating after_open = rate_game(newcomers(3), {2, 1, 3})[0];
  const Rating after_cup = rate_game({after_open, Rating{}, Rating{}}, {1, 2, 3})[0];
  EXPECT_EQ(a.rating.mu, after_cup.mu);
  EXPECT_EQ(a.rating.sigma, after_cup.sigma);
}

TEST(Ranked, ByRatingThenNameSharedRanksForEqualRatings) {
  auto player = [](std::string key, std::string name, double mu, double sigma) {
    return RatedPlayer{{key, std::move(name), "", "t", key}, Rating{mu, sigma, 1}};
  };
  // Czech: "Č" is a letter of its own, after every "C" and before "D".
  auto rows =
      ranked({player("1", "Dvořák", 25, 8), player("2", "Čermák", 25, 8),
              player("3", "Adam", 20, 8), player("4", "Zoe", 30, 8), player("5", "Cyril", 25, 8)},
             text::Collation("cs"));
  std::vector<std::pair<std::uint32_t, std::string>> got;
  for (const auto& r : rows) got.emplace_back(r.rank, r.player.identity.name);
  EXPECT_EQ(got, (std::vector<std::pair<std::uint32_t, std::string>>{
                     {1, "Zoe"}, {2, "Cyril"}, {2, "Čermák"}, {2, "Dvořák"}, {5, "Adam"}}));
}

}  // namespace
}  // namespace tally::projections
