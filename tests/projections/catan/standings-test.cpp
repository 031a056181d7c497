#include "projections/catan/standings.hpp"

#include "projections/catan/seating.hpp"
#include "tests/projections/catan/fixtures.hpp"
#include "text/collation.hpp"

#include <gtest/gtest.h>

namespace tally::projections::catan {
namespace {

using namespace testing;

std::vector<std::string> order_of(const std::vector<StandingsRow>& rows) {
  std::vector<std::string> out;
  for (const auto& r : rows) out.push_back(r.player);
  return out;
}

const StandingsRow& row_of(const std::vector<StandingsRow>& rows, const std::string& player) {
  for (const auto& r : rows) {
    if (r.player == player) return r;
  }
  throw std::out_of_range(player);
}

// Three-player sheets worth the given VP (settlements and cities only, no titles).
json::object worth(const std::string& player, int vp) {
  int cities = std::min(4, (vp - 2) / 2);
  return sheet(player, vp - 2 * cities, cities, 0, 0, 5, 3);
}

TEST(CatanStandings, RoundPointsThenVpThenShareThenName) {
  TournamentBuilder b("cup", "catan");
  for (auto p : {"p1", "p2", "p3", "p4", "p5", "p6"}) b.player(p, std::string("N") + p);
  b.seat({{"p1", "p2", "p3"}, {"p4", "p5", "p6"}});
  // p1 and p4 both win with 9 VP (5 points, 9 VP); p1's table has 9+8+3 = 20 VP, p4's
  // 9+4+3 = 16: p4 has the larger share. p2 (8 VP, 3 points) is ahead of p5 (4 VP, 3 points).
  b.action(1, 1, Which::CATAN_RESULT, body({worth("p1", 9), worth("p2", 8), worth("p3", 3)}));
  b.action(1, 2, Which::CATAN_RESULT, body({worth("p4", 9), worth("p5", 4), worth("p6", 3)}));
  auto rows = compute_standings(b.tournament(), CatanRules{});
  EXPECT_EQ(order_of(rows), (std::vector<std::string>{"p4", "p1", "p2", "p5", "p6", "p3"}));
  EXPECT_EQ(row_of(rows, "p4").vp_share, "9/16");
  EXPECT_EQ(row_of(rows, "p1").vp_share, "9/20");
  // p3 and p6 tie on points and VP; p6's share 3/16 beats p3's 3/20.
  EXPECT_EQ(rows[4].player, "p6");
  for (std::size_t i = 0; i < rows.size(); ++i) EXPECT_EQ(rows[i].rank, i + 1);
}

TEST(CatanStandings, NamesByTheTournamentsCollationThenIds) {
  // Everyone ties on points, VP and share (two identical tables); only names and ids decide.
  // Czech: C < Č < D < H < Ch (ch is a letter after h). Root: Č sorts with C, ch is c + h.
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"cs", {"cyril", "cenek", "dana", "hana", "x1", "x2"}},
      {"", {"cenek", "x1", "x2", "cyril", "dana", "hana"}}};
  for (const auto& [locale, expected] : cases) {
    SCOPED_TRACE("locale " + locale);
    TournamentBuilder b("cup", "catan", locale);
    b.player("cyril", "Cyril").player("cenek", "Čeněk").player("dana", "Dana");
    b.player("x2", "Chrudoš").player("x1", "Chrudoš").player("hana", "Hana");
    b.seat({{"cyril", "x1", "dana"}, {"cenek", "x2", "hana"}});
    b.action(1, 1, Which::CATAN_RESULT,
             body({worth("cyril", 7), worth("x1", 7), worth("dana", 7)}));
    b.action(1, 2, Which::CATAN_RESULT,
             body({worth("cenek", 7), worth("x2", 7), worth("hana", 7)}));
    EXPECT_EQ(order_of(compute_standings(b.tournament(), CatanRules{})), expected);
  }
}

TEST(CatanStandings, APlayerWithoutAGameScoresNothingAndDroppedPlayersKeepTheirGames) {
  auto b = seated({{"a", "b", "c"}});
  b.player("late", "late");
  b.action(1, 1, Which::CATAN_RESULT, body({worth("a", 9), worth("b", 8), worth("c", 3)}));
  b.drop("a");
  auto rows = compute_standings(b.tournament(), CatanRules{});
  EXPECT_EQ(order_of(rows), (std::vector<std::string>{"a", "b", "c", "late"}));
  EXPECT_EQ(row_of(rows, "a").games, 1u);
  EXPECT_FALSE(row_of(rows, "a").active);
  EXPECT_EQ(row_of(rows, "a").round_points, Rational(5));
  const auto& late = row_of(rows, "late");
  EXPECT_EQ(late.games, 0u);
  EXPECT_EQ(late.round_points, Rational(0));
  EXPECT_EQ(late.vp, 0);
  EXPECT_EQ(late.vp_share, "0");
}

TEST(CatanStandings, TheShareIsTheMeanOverGamesPlayed) {
  auto b = seated({{"a", "b", "c"}});
  b.action(1, 1, Which::CATAN_RESULT, body({worth("a", 10), worth("b", 5), worth("c", 5)}));
  b.seat({{"a", "b", "c"}});
  b.action(2, 1, Which::CATAN_RESULT, body({worth("a", 4), worth("b", 4), worth("c", 4)}));
  // a: (10/20 + 4/12) / 2 = (1/2 + 1/3) / 2 = 5/12.
  auto rows = compute_standings(b.tournament(), CatanRules{});
  EXPECT_EQ(row_of(rows, "a").vp_share, "5/12");
  EXPECT_EQ(row_of(rows, "a").games, 2u);
  EXPECT_EQ(row_of(rows, "a").vp, 14);
  // Through round 1 only.
  rows = compute_standings(b.tournament(), CatanRules{}, 1);
  EXPECT_EQ(row_of(rows, "a").vp_share, "1/2");
}

TEST(CatanStandings, TheJsonRowsHaveExactlyTheApiFields) {
  auto b = seated({{"a", "b", "c", "d"}});
  b.action(1, 1, Which::CATAN_RESULT,
           body({sheet("a", 2, 3, 0, 3, 6, 4, true, false), sheet("b", 3, 1, 1, 1, 8, 4),
                 sheet("c", 4, 1, 0, 2, 7, 4), sheet("d", 2, 1, 1, 0, 5, 3)}));
  auto game = make_catan_game();
  auto standings = game->standings(b.tournament());
  EXPECT_EQ(standings.size(), 1u);
  auto row = standings.at("rows").as_array().at(1).as_object();  // b: tied with c, b < c
  std::vector<std::string> keys;
  for (const auto& [k, v] : row) keys.emplace_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"rank", "player", "name", "games", "round_points", "vp",
                                            "vp_share", "dropped"}));
  EXPECT_EQ(row.at("rank"), json::value(2));
  EXPECT_EQ(row.at("player"), json::value("b"));
  EXPECT_EQ(row.at("games"), json::value(1));
  EXPECT_EQ(row.at("vp"), json::value(6));
  EXPECT_EQ(row.at("round_points").at("exact"), json::value("5/2"));
  EXPECT_DOUBLE_EQ(row.at("round_points").at("value").as_double(), 2.5);
  EXPECT_EQ(row.at("vp_share").at("exact"), json::value("2/9"));  // 6 of the table's 27
  EXPECT_DOUBLE_EQ(row.at("vp_share").at("value").as_double(), 2.0 / 9.0);
}

TEST(CatanStandings, ACorrectionAndAWithdrawnSeatingRecomputeEverything) {
  auto b = seated({{"a", "b", "c"}});
  auto first =
      b.action(1, 1, Which::CATAN_RESULT, body({worth("a", 9), worth("b", 8), worth("c", 3)}));
  b.action(1, 1, Which::CATAN_RESULT, body({worth("a", 3), worth("b", 8), worth("c", 9)}), first,
           "a and c swapped");
  auto rows = compute_standings(b.tournament(), CatanRules{});
  EXPECT_EQ(order_of(rows), (std::vector<std::string>{"c", "b", "a"}));
  // A second round puts a ahead (7 points each, a more VP), then its seating is withdrawn:
  // its result no longer counts.
  b.seat({{"a", "b", "c"}});
  b.action(2, 1, Which::CATAN_RESULT, body({worth("a", 9), worth("b", 4), worth("c", 3)}));
  EXPECT_EQ(order_of(compute_standings(b.tournament(), CatanRules{})),
            (std::vector<std::string>{"a", "c", "b"}));
  b.append(tournament_stream("cup"), [&](schema::Event::Builder e) {
    e.setSupersedes(b.tournament().round(2)->seq);
    e.setReason("seated by mistake");
    e.getPayload().setVoid();
  });
  EXPECT_EQ(order_of(compute_standings(b.tournament(), CatanRules{})),
            (std::vector<std::string>{"c", "b", "a"}));
}

TEST(CatanStandings, CustomRoundPointsFromTheTournamentRules) {
  auto b = seated({{"a", "b", "c"}}, json::parse(R"({"round_points_3":[4,1,1]})").as_object());
  b.action(1, 1, Which::CATAN_RESULT, body({worth("a", 9), worth("b", 8), worth("c", 8)}));
  auto t = b.tournament();
  auto rows = compute_standings(t, rules_of(t));
  EXPECT_EQ(row_of(rows, "a").round_points, Rational(4));
  EXPECT_EQ(row_of(rows, "b").round_points, Rational(1));
}

// Random tournaments: the order is total and consistent with §5, and the standings do not
// depend on the order in which results of different tables (and claims) were entered.
TEST(CatanStandingsProperty, TotalAndStableUnderCommutingEvents) {
  std::mt19937_64 rng(777);
  const text::Collation collation("cs");
  for (int trial = 0; trial < 40; ++trial) {
    const std::size_t n = 6 + rng() % 10;
    std::vector<std::string> ids;
    for (std::size_t i = 0; i < n; ++i) ids.push_back("p" + std::to_string(i));
    // Names with ties, so that ids must break some.
    auto name = [&](std::size_t i) { return std::string(i % 3 == 0 ? "Čestmír" : "Cyril"); };

    // Seat three rounds and make random results (with claims) for every table.
    TournamentBuilder seating("cup", "catan", "cs");
    for (std::size_t i = 0; i < n; ++i) seating.player(ids[i], name(i));
    struct Entry {
      std::uint32_t round, table;
      json::value result;
      std::vector<std::string> claims;  // entered as separate actions
    };
    std::vector<Entry> entries;
    std::vector<std::vector<std::vector<std::string>>> rounds;
    for (std::uint32_t r = 1; r <= 3; ++r) {
      SeatingRequest request;
      request.round = r;
      request.method = schema::SeatingMethod::RANDOM;
      request.seed = rng();
      auto seating_outcome = seat_catan_round(seating.tournament(), request, CatanRules{});
      ASSERT_TRUE(seating_outcome);
      std::vector<std::vector<std::string>> tables;
      for (const auto& t : seating_outcome.value->tables) tables.push_back(t.players);
      seating.seat(tables);
      rounds.push_back(tables);
      for (std::size_t t = 0; t < tables.size(); ++t) {
        auto random = random_table(rng, tables[t].size());
        std::vector<json::object> players;
        Entry e{r, static_cast<std::uint32_t>(t + 1), {}, {}};
        for (std::size_t k = 0; k < tables[t].size(); ++k) {
          random.sheets[k].player = tables[t][k];
          players.push_back(to_json(random.sheets[k]));
        }
        if (!random.claimants.empty()) {
          std::size_t who = random.claimants[0][0] - 'a';
          if (rng() % 2) {
            players[who]["claimed_win"] = true;
          } else {
            e.claims.push_back(tables[t][who]);
          }
        }
        e.result = body(players);
        if (rng() % 6 != 0) entries.push_back(std::move(e));  // some tables stay unreported
      }
    }

    auto build = [&](const std::vector<Entry>& order) {
      TournamentBuilder b("cup", "catan", "cs");
      for (std::size_t i = 0; i < n; ++i) b.player(ids[i], name(i));
      for (const auto& tables : rounds) b.seat(tables);
      for (const auto& e : order) {
        for (const auto& c : e.claims)
          b.action(e.round, e.table, Which::CLAIMED_WIN, json::object{{"player", c}});
        b.action(e.round, e.table, Which::CATAN_RESULT, e.result);
      }
      return b.tournament();
    };
    const auto tournament = build(entries);
    const auto rows = compute_standings(tournament, CatanRules{});
    ASSERT_EQ(rows.size(), n);
    for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(rows[i].rank, i + 1);
    for (std::size_t i = 1; i < n; ++i) {
      const auto &x = rows[i - 1], &y = rows[i];
      ASSERT_GE(x.round_points, y.round_points);
      if (x.round_points != y.round_points) continue;
      ASSERT_GE(x.vp, y.vp);
      if (x.vp != y.vp) continue;
      auto share = [](const std::string& s) { return Rational::parse(s); };
      ASSERT_GE(share(x.vp_share), share(y.vp_share));
      if (x.vp_share != y.vp_share) continue;
      int c = collation.compare(x.name, y.name);
      ASSERT_LE(c, 0);
      if (c == 0) {
        ASSERT_LT(x.player, y.player);
      }
    }
    // The same events in another order (results of different tables commute).
    auto game = make_catan_game();
    const auto expected = game->standings(tournament);
    for (int shuffle = 0; shuffle < 3; ++shuffle) {
      auto reordered = entries;
      for (std::size_t i = reordered.size(); i > 1; --i)
        std::swap(reordered[i - 1], reordered[rng() % i]);
      EXPECT_EQ(game->standings(build(reordered)), expected) << "trial " << trial;
    }
  }
}

}  // namespace
}  // namespace tally::projections::catan
