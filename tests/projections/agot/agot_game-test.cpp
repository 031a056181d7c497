// The AGoT Game as the daemon drives it: bodies through the schema codec (TournamentBuilder),
// actions checked before they are appended, seatings from the game's own solver.
#include "projections/agot/agot_game.hpp"

#include "projections/agot/round_seating.hpp"
#include "tests/projections/agot/agot_game_support.hpp"
#include "tests/support/messages.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>

namespace tally::projections::agot {
namespace {

using tally::testing::english;

using namespace testing;
using projections::SeatedTable;
using projections::SeatingRequest;
using schema::SeatingMethod;

std::unique_ptr<Game> agot() { return make_agot_game(); }

std::vector<std::string> ids(std::initializer_list<const char*> names) {
  return std::vector<std::string>(names.begin(), names.end());
}

std::vector<std::string> strings(const boost::json::value& v) {
  std::vector<std::string> out;
  for (const auto& s : v.as_array()) out.push_back(str(s));
  return out;
}

const boost::json::object& row_of(const boost::json::object& standings, const std::string& player) {
  for (const auto& r : standings.at("rows").as_array()) {
    if (str(r.at("player")) == player) return r.as_object();
  }
  throw std::runtime_error("no row for " + player);
}

std::vector<std::string> standings_order(const boost::json::object& standings) {
  std::vector<std::string> out;
  for (const auto& r : standings.at("rows").as_array()) out.push_back(str(r.at("player")));
  return out;
}

// --- The organizers' example (agot.md §2, conformance "seating") as a whole tournament ---------
//
// Five rounds after which the rating is r1 … r12 and every player has exactly the one house of
// the example left. X = r1 r2 r4 r5 r6 r7 and Y = r3 r8 … r12 each play a cyclic Latin square
// (player i plays house i + k in round k, so the house left is house i). X places in rating
// order with 6 castles and 3 captures each (+6 a game); in Y r3 always wins and the others
// rotate through places 2–6 (21 points each), ordered by lands captured.
const std::vector<std::string> kX = ids({"r1", "r2", "r4", "r5", "r6", "r7"});
const std::vector<std::string> kY = ids({"r3", "r8", "r9", "r10", "r11", "r12"});

TournamentBuilder organizers_example(const Game& game) {
  TournamentBuilder b("example", "agot");
  for (int i = 1; i <= 12; ++i) b.player("r" + std::to_string(i), "Player " + std::to_string(i));
  for (int k = 1; k <= 5; ++k) {
    b.seat({kX, kY});
    std::vector<Line> x, y;
    for (int i = 0; i < 6; ++i) {
      int h = i + k;
      x.push_back(
          Line{kX[i], house_of(h), i + 1, 6, {house_of(h + 1), house_of(h + 2), house_of(h + 3)}});
      y.push_back(Line{kY[i],
                       house_of(h),
                       i == 0 ? 1 : 2 + (i - 1 + k) % 5,
                       i == 0 ? 2 : 0,
                       {},
                       0,
                       i == 0 ? 0 : 6 - i});
    }
    EXPECT_EQ(enter(b, game, k, 1, Which::AGOT_RESULT, result_body(x)), RuleErrors{});
    EXPECT_EQ(enter(b, game, k, 2, Which::AGOT_RESULT, result_body(y)), RuleErrors{});
  }
  return b;
}

TEST(AgotGame, Identity) {
  auto game = agot();
  EXPECT_EQ(game->id(), "agot");
  EXPECT_EQ(game->result_kind(), Which::AGOT_RESULT);
  EXPECT_TRUE(game->accepts(Which::AGOT_RESULT));
  EXPECT_TRUE(game->accepts(Which::HOUSE_PICK));
  EXPECT_FALSE(game->accepts(Which::CLAIMED_WIN));
  EXPECT_FALSE(game->accepts(Which::CATAN_RESULT));
  EXPECT_FALSE(game->accepts(Which::CARCASSONNE_SCORING));
  auto rules = game->normalize_rules(boost::json::parse(R"({"rounds":4})").as_object());
  ASSERT_TRUE(rules);
  EXPECT_EQ(rules.value->at("rounds"), 4);
  EXPECT_FALSE(game->normalize_rules(boost::json::parse(R"({"round":4})").as_object()));
}

// conformance/agot.json "games": one game at a league table, through the codec and the Game.
TEST(AgotGame, ConformanceGames) {
  auto game = agot();
  const boost::json::value doc = conformance();
  const auto& cases = doc.at("games").as_array();
  ASSERT_EQ(cases.size(), 6u);
  for (const auto& c : cases) {
    SCOPED_TRACE(str(c.at("name")));
    TournamentBuilder b("games", "agot");
    for (int i = 1; i <= 12; ++i) b.player("p" + std::to_string(i), "P" + std::to_string(i));
    // Round 1 (no leagues) for the others; round 2 seats p1-p6 at the case's league table.
    b.seat({ids({"p7", "p8", "p9", "p10", "p11", "p12"})});
    b.seat({ids({"p1", "p2", "p3", "p4", "p5", "p6"})}, {str(c.at("table_league"))});
    boost::json::object body{{"players", c.at("players")}};
    RuleErrors errors = enter(b, *game, 2, 1, Which::AGOT_RESULT, body);
    const auto& expect = c.at("expect").as_object();
    if (!expect.at("valid").as_bool()) {
      EXPECT_EQ(rules_of(errors), strings(expect.at("rules")));
      for (const auto& e : errors) EXPECT_FALSE(e.message.empty());
      continue;
    }
    ASSERT_EQ(errors, RuleErrors{});
    auto t = b.tournament();
    auto result = game->table_result(t, state(t, 2, 1));
    ASSERT_TRUE(result);
    std::map<std::string, boost::json::object> by_player;
    for (const auto& p : result->at("players").as_array())
      by_player[str(p.at("player"))] = p.as_object();
    for (const auto& [player, points] : expect.at("points").as_object()) {
      const auto& row = by_player.at(std::string(player));
      EXPECT_EQ(str(row.at("points").at("exact")), std::to_string(points.as_int64())) << player;
      // The total is the sum of the lines.
      std::int64_t sum = 0;
      for (const auto& line : row.at("lines").as_array()) sum += line.at("points").as_int64();
      EXPECT_EQ(sum, points.as_int64()) << player;
    }
    if (expect.contains("lines")) {
      for (const auto& [player, lines] : expect.at("lines").as_object()) {
        std::map<std::string, std::int64_t> got;
        for (const auto& line : by_player.at(std::string(player)).at("lines").as_array()) {
          got[str(line.at("rule"))] = line.at("points").as_int64();
        }
        for (const auto& [rule, points] : lines.as_object()) {
          EXPECT_EQ(got.at(std::string(rule)), points.as_int64()) << player << " " << rule;
        }
      }
    }
  }
}

TEST(AgotGame, TableResultShape) {
  auto game = agot();
  const boost::json::value doc = conformance();
  const auto& c = doc.at("games").as_array()[0];
  TournamentBuilder b("shape", "agot");
  for (int i = 1; i <= 6; ++i) b.player("p" + std::to_string(i), "P" + std::to_string(i));
  b.seat({ids({"p1", "p2", "p3", "p4", "p5", "p6"})});
  b.seat({ids({"p1", "p2", "p3", "p4", "p5", "p6"})}, {"A"});
  // Round 2 only: the conformance houses, reversed in the body (the answer lists by place).
  boost::json::array players = c.at("players").as_array();
  std::reverse(players.begin(), players.end());
  ASSERT_EQ(enter(b, *game, 2, 1, Which::AGOT_RESULT, boost::json::object{{"players", players}}),
            RuleErrors{});
  auto t = b.tournament();
  auto result = game->table_result(t, state(t, 2, 1));
  ASSERT_TRUE(result);
  const auto& first = result->at("players").as_array()[0].as_object();
  EXPECT_EQ(
      boost::json::serialize(first),
      R"({"player":"p1","house":"stark","score":7,"place":"1","points":{"value":20,"exact":"20"},)"
      R"("lines":[{"rule":"place","points":12},{"rule":"league_bonus","points":1},)"
      R"({"rule":"castles","points":4},{"rule":"capitals","points":3}]})");
  EXPECT_EQ(str(result->at("players").as_array()[5].at("player")), "p6");
  EXPECT_FALSE(game->table_result(t, state(t, 1, 1)));  // nothing entered
}

// conformance/agot.json "standings": best 5 of 6, a missed game counts 0 and is the one dropped.
TEST(AgotGame, ConformanceStandingsBestFiveOfSix) {
  auto game = agot();
  const boost::json::value doc = conformance();
  const auto& c = doc.at("standings").as_array()[0];
  // x plays the roles p1…p5 of the conformance league-A game in rounds 1–5 and misses round 6;
  // y wins every round at a league-B table with nothing else (12 each).
  TournamentBuilder b("best5", "agot", "", boost::json::object{{"league_bonus_from_round", 1}});
  std::vector<std::string> a = ids({"x", "a1", "a2", "a3", "a4", "a5"});
  std::vector<std::string> bb = ids({"y", "b1", "b2", "b3", "b4", "b5"});
  for (const auto& p : a) b.player(p, p);
  for (const auto& p : bb) b.player(p, p);
  struct Role {
    int place, castles, captures, held, lands;
  };
  const Role roles[6] = {{1, 7, 1, 2, 3}, {2, 4, 0, 0, 1}, {3, 4, 0, 1, 0},
                         {4, 2, 1, 2, 2}, {5, 2, 0, 0, 0}, {6, 1, 0, 1, 0}};
  for (int k = 1; k <= 6; ++k) {
    if (k <= 5) {
      b.seat({a, bb}, {"A", "B"});
    } else {
      b.seat({bb}, {"B"});  // x is not seated in round 6
    }
    std::vector<Line> la, lb;
    for (int i = 0; i < 6; ++i) {
      int h = i + k;
      // x (i = 0) takes role k; the others the remaining roles in order.
      int role = i == 0 ? k - 1 : (i - 1 < k - 1 ? i - 1 : i);
      const Role& r = roles[role];
      std::vector<std::string> captured;
      for (int n = 0; n < r.captures; ++n) captured.push_back(house_of(h + 1));
      la.push_back(Line{a[i], house_of(h), r.place, r.castles, captured, r.held, r.lands});
      lb.push_back(Line{bb[i], house_of(h), i + 1, 0});
    }
    if (k <= 5) {
      ASSERT_EQ(enter(b, *game, k, 1, Which::AGOT_RESULT, result_body(la)), RuleErrors{}) << k;
      ASSERT_EQ(enter(b, *game, k, 2, Which::AGOT_RESULT, result_body(lb)), RuleErrors{}) << k;
    } else {
      ASSERT_EQ(enter(b, *game, k, 1, Which::AGOT_RESULT, result_body(lb)), RuleErrors{}) << k;
    }
  }
  auto s = game->standings(b.tournament());
  const auto& counted = c.at("expect").at("counted").as_object();
  const auto& x = row_of(s, "x");
  const auto& y = row_of(s, "y");
  EXPECT_EQ(x.at("total").as_int64(), counted.at("x").as_int64());
  EXPECT_EQ(y.at("total").as_int64(), counted.at("y").as_int64());
  std::vector<std::int64_t> x_points;
  std::vector<std::int64_t> x_dropped;
  for (const auto& r : x.at("results").as_array()) {
    x_points.push_back(r.at("points").as_int64());
    if (r.at("dropped").as_bool()) x_dropped.push_back(r.at("round").as_int64());
  }
  EXPECT_EQ(x_points, (std::vector<std::int64_t>{20, 11, 9, 8, 3, 0}));
  EXPECT_EQ(x_dropped,
            (std::vector<std::int64_t>{c.at("expect").at("dropped_round").at("x").as_int64()}));
  EXPECT_EQ(x.at("games").as_int64(), 5);
  int y_dropped = 0;
  for (const auto& r : y.at("results").as_array()) {
    EXPECT_EQ(r.at("points").as_int64(), 12);
    y_dropped += r.at("dropped").as_bool();
  }
  EXPECT_EQ(y_dropped, 1);  // "any one"
  EXPECT_EQ(y.at("games").as_int64(), 6);
}

TEST(AgotGame, OrganizersExampleRatingSeatingPicksAndBonus) {
  auto game = agot();
  TournamentBuilder b = organizers_example(*game);

  // The rating after five rounds.
  auto s = game->standings(b.tournament());
  EXPECT_EQ(standings_order(s),
            ids({"r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12"}));
  std::vector<std::int64_t> totals;
  std::vector<std::string> next;
  for (const auto& r : s.at("rows").as_array()) {
    totals.push_back(r.at("total").as_int64());
    next.push_back(str(r.at("next_league")));
  }
  EXPECT_EQ(totals, (std::vector<std::int64_t>{90, 70, 65, 60, 50, 40, 35, 21, 21, 21, 21, 21}));
  EXPECT_EQ(next, ids({"A", "A", "A", "A", "A", "A", "B", "B", "B", "B", "B", "B"}));
  // Conqueror: 15 captures each for all of X, shared.
  EXPECT_EQ(strings(s.at("conqueror")), ids({"r1", "r2", "r4", "r5", "r6", "r7"}));
  const auto& r1 = row_of(s, "r1");
  EXPECT_EQ(r1.at("wins").as_int64(), 5);
  EXPECT_EQ(r1.at("capitals_captured").as_int64(), 15);
  EXPECT_EQ(row_of(s, "r8").at("lands_captured").as_int64(), 25);
  EXPECT_EQ(r1.at("rank").as_int64(), 1);
  EXPECT_EQ(str(r1.at("name")), "Player 1");

  // Round 6 by standings: the example's seating.
  projections::Seating seating = seat(b, *game, SeatingRequest{6});
  EXPECT_EQ(seating.method, SeatingMethod::STANDINGS);
  ASSERT_EQ(seating.tables.size(), 2u);
  EXPECT_EQ(seating.tables[0].league, "A");
  EXPECT_EQ(seating.tables[0].players, kX);
  EXPECT_EQ(seating.tables[0].rating_leagues, ids({"A", "A", "A", "A", "A", "B"}));
  EXPECT_EQ(seating.tables[1].league, "B");
  EXPECT_EQ(seating.tables[1].players, kY);
  EXPECT_EQ(seating.tables[1].rating_leagues, ids({"A", "B", "B", "B", "B", "B"}));

  auto t = b.tournament();
  auto extras = game->round_extras(t, *t.round(6));
  EXPECT_EQ(boost::json::serialize(extras.at("moved")),
            R"([{"player":"r7","table":1,"table_league":"A","rating_league":"B"},)"
            R"({"player":"r3","table":2,"table_league":"B","rating_league":"A"}])");
  EXPECT_EQ(extras.at("variant").as_array().size(), 3u);
  EXPECT_NE(str(extras.at("variant").as_array()[0]).find("Lannisport"), std::string::npos);
  EXPECT_NE(str(extras.at("variant").as_array()[1]).find("Tides of Battle"), std::string::npos);

  // Automatic picks give the example's houses.
  auto_picks(b, *game, 6, 1);
  auto_picks(b, *game, 6, 2);
  t = b.tournament();
  const boost::json::value doc = conformance();
  const auto& houses = doc.at("seating").as_array()[0].at("expect").at("houses").as_object();
  for (std::uint32_t table = 1; table <= 2; ++table) {
    auto shown = game->table_extras(t, state(t, 6, table)).at("houses").as_object();
    EXPECT_EQ(shown.size(), 6u);
    for (const auto& [player, house] : shown) EXPECT_EQ(house, houses.at(player)) << player;
  }

  // r3 wins at table B and keeps league A's bonus; r7 wins at table A with league B's (none).
  std::vector<Line> a, bl;
  for (int i = 0; i < 6; ++i) {
    a.push_back(Line{kX[i], str(houses.at(kX[i])), i == 5 ? 1 : i + 2});
    bl.push_back(Line{kY[i], str(houses.at(kY[i])), i + 1});
  }
  ASSERT_EQ(enter(b, *game, 6, 1, Which::AGOT_RESULT, result_body(a)), RuleErrors{});
  ASSERT_EQ(enter(b, *game, 6, 2, Which::AGOT_RESULT, result_body(bl)), RuleErrors{});
  t = b.tournament();
  auto bonus_of = [&](std::uint32_t table, const std::string& player) {
    auto result = game->table_result(t, state(t, 6, table));
    for (const auto& p : result->at("players").as_array()) {
      if (str(p.at("player")) != player) continue;
      for (const auto& l : p.at("lines").as_array()) {
        if (str(l.at("rule")) == "league_bonus") return l.at("points").as_int64();
      }
    }
    return std::int64_t{-1};
  };
  EXPECT_EQ(bonus_of(2, "r3"), 1);  // moved down, keeps A
  EXPECT_EQ(bonus_of(2, "r8"), 0);  // 2nd at B
  EXPECT_EQ(bonus_of(1, "r7"), 0);  // moved up, rated B
  EXPECT_EQ(bonus_of(1, "r1"), 1);  // 2nd at A

  // Six results each: one dropped per player; the tournament is over, no next league.
  s = game->standings(t);
  for (const auto& r : s.at("rows").as_array()) {
    int dropped = 0;
    for (const auto& g : r.at("results").as_array()) dropped += g.at("dropped").as_bool();
    EXPECT_EQ(dropped, 1) << r.at("player");
    EXPECT_TRUE(r.at("next_league").is_null());
  }
  EXPECT_TRUE(game->notices(t).empty());
}

TEST(AgotGame, ManualSeatingIsValidatedAndNeedsAReasonWhenItDeparts) {
  auto game = agot();
  TournamentBuilder b = organizers_example(*game);
  b.player("late", "Late Comer");
  b.drop("late");
  auto t = b.tournament();
  auto manual = [&](std::vector<std::vector<std::string>> tables, std::string reason) {
    SeatingRequest r{6, SeatingMethod::MANUAL, 0, std::move(tables), std::move(reason)};
    return game->seat_round(t, r);
  };
  // The rating order as tables: r1 and r3 both have only Stark, r7 and r12 only Martell.
  auto s = manual(
      {ids({"r1", "r2", "r3", "r4", "r5", "r6"}), ids({"r7", "r8", "r9", "r10", "r11", "r12"})},
      "");
  ASSERT_FALSE(s);
  EXPECT_EQ(rules_of(s.errors), ids({"G-2", "seating"}));
  std::set<std::string> fields;
  for (const auto& e : s.errors) fields.insert(e.field);
  EXPECT_EQ(fields, (std::set<std::string>{"tables[0]", "tables[1]", "reason"}));
  for (const auto& e : s.errors) {
    if (e.field == "tables[0]") {
      EXPECT_NE(english(e.message).find("r1 and r3 can only play Stark"), std::string::npos)
          << english(e.message);
    }
  }

  // The solver's own seating needs no reason; leagues and rating leagues are recorded.
  s = manual({kX, kY}, "");
  ASSERT_TRUE(s) << english(s.errors[0].message);
  EXPECT_EQ(s.value->method, SeatingMethod::MANUAL);
  EXPECT_EQ(s.value->tables[1].league, "B");
  EXPECT_EQ(s.value->tables[1].rating_leagues, ids({"A", "B", "B", "B", "B", "B"}));

  // A departure needs a reason.
  auto departing = std::vector<std::vector<std::string>>{
      ids({"r1", "r2", "r4", "r5", "r6", "r12"}), ids({"r3", "r7", "r8", "r9", "r10", "r11"})};
  s = manual(departing, "");
  ASSERT_FALSE(s);
  ASSERT_EQ(s.errors.size(), 1u);
  EXPECT_EQ(s.errors[0].field, "reason");
  EXPECT_NE(english(s.errors[0].message).find("A: r1, r2, r4, r5, r6, and r7"), std::string::npos)
      << english(s.errors[0].message);
  s = manual(departing, "r7 has to leave early");
  ASSERT_TRUE(s);
  EXPECT_EQ(s.value->tables[0].rating_leagues, ids({"A", "A", "A", "A", "A", "B"}));
  EXPECT_EQ(s.value->tables[1].rating_leagues, ids({"A", "B", "B", "B", "B", "B"}));

  // Six per table, registered active players, once each.
  s = manual({ids({"r1", "r2", "r4", "r5", "r6"}),
              ids({"r1", "r7", "nobody", "late", "r9", "r10", "r11"})},
             "x");
  ASSERT_FALSE(s);
  std::set<std::pair<std::string, std::string>> found;
  for (const auto& e : s.errors) found.emplace(e.rule, e.player);
  EXPECT_EQ(found,
            (std::set<std::pair<std::string, std::string>>{
                {"G-1", ""}, {"seating", "r1"}, {"seating", "nobody"}, {"seating", "late"}}));
}

TEST(AgotGame, SeatingRefusesWhatCannotBeDoneAndSaysWhy) {
  auto game = agot();
  // Round 1 needs at least six players (beyond a multiple of six the rest have a bye: see
  // byes-test.cpp).
  TournamentBuilder b("why", "agot");
  for (int i = 1; i <= 5; ++i) b.player("p" + std::to_string(i), "P" + std::to_string(i));
  auto s = game->seat_round(b.tournament(), SeatingRequest{1, std::nullopt, 5});
  ASSERT_FALSE(s);
  EXPECT_EQ(s.errors[0].rule, "seating");
  EXPECT_NE(english(s.errors[0].message).find("Only 5 players are to be seated"), std::string::npos)
      << english(s.errors[0].message);
  EXPECT_NE(english(s.errors[0].message).find("at least 6 players"), std::string::npos);
  // Round 1 is a draw: no seating by standings.
  for (int i = 6; i <= 13; ++i) b.player("p" + std::to_string(i), "P" + std::to_string(i));
  b.drop("p13");
  s = game->seat_round(b.tournament(), SeatingRequest{1, SeatingMethod::STANDINGS});
  ASSERT_FALSE(s);
  EXPECT_NE(english(s.errors[0].message).find("random draw"), std::string::npos);
  // Beyond the tournament's rounds.
  TournamentBuilder short_one("short", "agot", "", boost::json::object{{"rounds", 1}});
  for (int i = 1; i <= 6; ++i) short_one.player("p" + std::to_string(i), "P");
  seat(short_one, *game, SeatingRequest{1, std::nullopt, 9});
  s = game->seat_round(short_one.tournament(), SeatingRequest{2});
  ASSERT_FALSE(s);
  EXPECT_EQ(s.errors[0].rule, "rounds");
}

// Absences: 24 players, 12 of them seated each round; a, b and c always sit together and play
// every house but Stark. With 12 active players in round 6, two tables cannot seat three
// Stark-only players: the solver says exactly that, and a manual seating with a reason works.
TEST(AgotGame, AbsencesThatMakeSeatingImpossibleAreExplained) {
  auto game = agot();
  TournamentBuilder b("absences", "agot");
  std::vector<std::string> o, q;
  for (const char* p : {"a", "b", "c"}) b.player(p, p);
  for (int i = 0; i < 15; ++i) o.push_back("o" + std::to_string(i + 10));  // names sort after a-c
  for (int i = 0; i < 6; ++i) q.push_back("q" + std::to_string(i));
  for (const auto& p : o) b.player(p, p);
  for (const auto& p : q) b.player(p, p);
  const House non_stark[5] = {House::LANNISTER, House::BARATHEON, House::GREYJOY, House::TYRELL,
                              House::MARTELL};
  for (int k = 0; k < 5; ++k) {
    std::vector<std::string> t1 = {"a", "b", "c", o[3 * k], o[3 * k + 1], o[3 * k + 2]};
    b.seat({t1, q});
    HouseSet left = HouseSet::all();
    for (int i = 0; i < 3; ++i) {
      House h = non_stark[(k + i) % 5];
      left = left.without(h);
      ASSERT_EQ(pick(b, *game, k + 1, 1, t1[i], std::string(house_id(h))), RuleErrors{});
    }
    for (int i = 3; i < 6; ++i) {
      House h = *left.first();
      left = left.without(h);
      ASSERT_EQ(pick(b, *game, k + 1, 1, t1[i], std::string(house_id(h))), RuleErrors{});
    }
    for (int i = 0; i < 6; ++i) {
      ASSERT_EQ(pick(b, *game, k + 1, 2, q[i], house_of(i + k)), RuleErrors{});
    }
  }
  for (int i = 3; i < 15; ++i) b.drop(o[i]);
  auto t = b.tournament();
  auto s = game->seat_round(t, SeatingRequest{6});
  ASSERT_FALSE(s);
  EXPECT_EQ(s.errors[0].rule, "G-2");
  EXPECT_NE(english(s.errors[0].message)
                .find("a, b, and c can only play Stark between them (G-2), and 2 "
                      "tables seat only 2 players on that house."),
            std::string::npos)
      << english(s.errors[0].message);
  EXPECT_NE(english(s.errors[0].message).find("manually with a reason"), std::string::npos);

  auto m = game->seat_round(
      t, SeatingRequest{6, SeatingMethod::MANUAL, 0, {{"a", "q0", "q2", "q3", "q4", "q5"}}, ""});
  ASSERT_FALSE(m);
  EXPECT_EQ(m.errors[0].field, "reason");
  m = game->seat_round(t, SeatingRequest{6,
                                         SeatingMethod::MANUAL,
                                         0,
                                         {{"a", "q0", "q2", "q3", "q4", "q5"}},
                                         "b and c sit out: only one Stark seat"});
  ASSERT_TRUE(m) << english(m.errors[0].message);
  EXPECT_EQ(m.value->tables[0].league, "A");
  EXPECT_TRUE(m.value->tables[0].rating_leagues.empty());

  // A drop leaves 11: one table of six, and five byes. Round 1 is not reported, so everyone is
  // rated 0 and the rating is the id order (equal names): the last five sit out.
  TournamentBuilder d("drop", "agot");
  for (int i = 1; i <= 12; ++i) d.player("p" + std::to_string(i), "P");
  seat(d, *game, SeatingRequest{1, std::nullopt, 3});
  d.drop("p5");
  s = game->seat_round(d.tournament(), SeatingRequest{2});
  ASSERT_TRUE(s) << english(s.errors[0].message);
  ASSERT_EQ(s.value->tables.size(), 1u);
  EXPECT_EQ(s.value->tables[0].players, ids({"p1", "p10", "p11", "p12", "p2", "p3"}));
  EXPECT_EQ(english(s.value->notice),
            "p4, p6, p7, p8, and p9 sit this round out with a bye: tables seat 6, and a bye counts "
            "as a missed round (0 points).");
}

TEST(AgotGame, RandomRoundOneIsAPureFunctionOfTheSeed) {
  auto game = agot();
  TournamentBuilder b("draw", "agot");
  for (int i = 1; i <= 12; ++i) b.player("p" + std::to_string(i), "P" + std::to_string(i));
  auto t = b.tournament();
  auto one = game->seat_round(t, SeatingRequest{1, std::nullopt, 42});
  auto again = game->seat_round(t, SeatingRequest{1, SeatingMethod::RANDOM, 42});
  auto other = game->seat_round(t, SeatingRequest{1, std::nullopt, 43});
  ASSERT_TRUE(one && again && other);
  EXPECT_EQ(one.value->method, SeatingMethod::RANDOM);
  EXPECT_EQ(one.value->seed, 42u);
  ASSERT_EQ(one.value->tables.size(), 2u);
  std::set<std::string> everyone;
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(one.value->tables[i].players, again.value->tables[i].players);
    EXPECT_EQ(one.value->tables[i].league, "");  // a draw has no leagues
    EXPECT_TRUE(one.value->tables[i].rating_leagues.empty());
    EXPECT_EQ(one.value->tables[i].number, i + 1);
    everyone.insert(one.value->tables[i].players.begin(), one.value->tables[i].players.end());
  }
  EXPECT_EQ(everyone.size(), 12u);
  EXPECT_NE(one.value->tables[0].players, other.value->tables[0].players);
}

TEST(AgotSeededPermutation, ReplaysForeverAndIsUniform) {
  // A stored seed must replay the same draw on any standard library and any later build: this
  // pins the draw of seed 42 (std::mt19937_64 is fully specified; the shuffle is ours).
  EXPECT_EQ(seeded_permutation(12, 42),
            (std::vector<std::size_t>{9, 3, 1, 2, 7, 4, 8, 5, 11, 10, 0, 6}));
  EXPECT_EQ(seeded_permutation(0, 1), std::vector<std::size_t>{});
  // Every order of three equally likely (6000 draws, each order 1000 ± 150).
  std::map<std::vector<std::size_t>, int> seen;
  for (std::uint64_t seed = 0; seed < 6000; ++seed) ++seen[seeded_permutation(3, seed)];
  ASSERT_EQ(seen.size(), 6u);
  for (const auto& [order, n] : seen) EXPECT_NEAR(n, 1000, 150);
}

TEST(AgotGame, HousePicksThroughTheGame) {
  auto game = agot();
  TournamentBuilder b("picks", "agot");
  for (int i = 1; i <= 12; ++i) b.player("p" + std::to_string(i), "P" + std::to_string(i));
  seat(b, *game, SeatingRequest{1, std::nullopt, 7});
  // Round 1: automatic picks, then results in pick order (castles 0: any order is valid).
  auto results_for = [&](std::uint32_t round, std::uint32_t table) {
    auto t = b.tournament();
    auto extras = game->table_extras(t, state(t, round, table));
    std::vector<Line> lines;
    int place = 1;
    for (const auto& p : extras.at("pick_order").as_array()) {
      lines.push_back(Line{str(p), str(extras.at("houses").at(str(p))), place++});
    }
    return result_body(lines);
  };
  for (std::uint32_t table = 1; table <= 2; ++table) {
    auto_picks(b, *game, 1, table);
    ASSERT_EQ(enter(b, *game, 1, table, Which::AGOT_RESULT, results_for(1, table)), RuleErrors{});
  }
  seat(b, *game, SeatingRequest{2});
  auto t = b.tournament();
  auto extras = game->table_extras(t, state(t, 2, 1));
  std::vector<std::string> order = strings(extras.at("pick_order"));
  ASSERT_EQ(order.size(), 6u);
  EXPECT_TRUE(extras.at("houses").as_object().empty());
  const std::string first = order[0], second = order[1];
  // The house `first` played in round 1, from the round-1 table's houses.
  std::string played;
  for (std::uint32_t table = 1; table <= 2; ++table) {
    auto h = game->table_extras(t, state(t, 1, table)).at("houses").as_object();
    if (h.contains(first)) played = str(h.at(first));
  }
  ASSERT_FALSE(played.empty());
  EXPECT_EQ(extras.at("pickable").at(first).as_array().size(), 5u);

  // G-2: a house played before, with the five that would be accepted.
  auto e = pick(b, *game, 2, 1, first, played);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].rule, "G-2");
  EXPECT_EQ(e[0].player, first);
  EXPECT_NE(english(e[0].message).find("in round 1"), std::string::npos);
  EXPECT_EQ(e[0].alternatives.size(), 5u);
  EXPECT_EQ(std::count(e[0].alternatives.begin(), e[0].alternatives.end(), played), 0);

  // Accepted, then taken for the next player (G-1), then a second pick is refused ("pick").
  std::string chosen = e[0].alternatives[0];
  ASSERT_EQ(pick(b, *game, 2, 1, first, chosen), RuleErrors{});
  std::uint64_t first_pick = b.last_seq();
  e = pick(b, *game, 2, 1, second, chosen);
  auto taken = std::find_if(e.begin(), e.end(), [](const auto& x) { return x.rule == "G-1"; });
  ASSERT_NE(taken, e.end());
  EXPECT_NE(english(taken->message).find("already taken at this table by " + first),
            std::string::npos);
  EXPECT_EQ(std::count(taken->alternatives.begin(), taken->alternatives.end(), chosen), 0);
  e = pick(b, *game, 2, 1, first, chosen);
  EXPECT_EQ(rules_of(e), ids({"pick"}));

  // A correction of the pick replaces it (a refused one lists what `first` may take).
  auto refused = pick(b, *game, 2, 1, first, played, first_pick);
  ASSERT_EQ(rules_of(refused), ids({"G-2"}));
  std::string other_house;
  for (const auto& h : refused[0].alternatives) {
    if (h != chosen) {
      other_house = h;
      break;
    }
  }
  ASSERT_FALSE(other_house.empty());
  ASSERT_EQ(pick(b, *game, 2, 1, first, other_house, first_pick), RuleErrors{});
  t = b.tournament();
  EXPECT_EQ(str(game->table_extras(t, state(t, 2, 1)).at("houses").at(first)), other_house);

  // The rest automatically; the result must agree with the picks.
  auto_picks(b, *game, 2, 1);
  t = b.tournament();
  extras = game->table_extras(t, state(t, 2, 1));
  EXPECT_EQ(extras.at("houses").as_object().size(), 6u);
  EXPECT_TRUE(extras.at("pickable").as_object().empty());
  std::set<std::string> distinct;
  for (const auto& [p, h] : extras.at("houses").as_object()) distinct.insert(str(h));
  EXPECT_EQ(distinct.size(), 6u);

  boost::json::object body = results_for(2, 1);
  auto& players = body.at("players").as_array();
  // Swap two houses in the body: both disagree with their picks.
  boost::json::value h0 = players[0].at("house");
  players[0].as_object()["house"] = players[1].at("house");
  players[1].as_object()["house"] = h0;
  e = enter(b, *game, 2, 1, Which::AGOT_RESULT, body);
  EXPECT_EQ(rules_of(e), ids({"pick"}));
  EXPECT_EQ(e.size(), 2u);
  ASSERT_EQ(enter(b, *game, 2, 1, Which::AGOT_RESULT, results_for(2, 1)), RuleErrors{});
  // No picks once a result is in.
  e = pick(b, *game, 2, 1, first, other_house);
  EXPECT_EQ(rules_of(e), ids({"pick"}));
  t = b.tournament();
  EXPECT_FALSE(game->auto_actions(t, state(t, 2, 1)));

  // Standings: table 2 of round 2 is not reported yet, so its players have one result.
  auto s = game->standings(t);
  for (const auto& r : s.at("rows").as_array()) {
    bool at_table_1 = std::find(order.begin(), order.end(), str(r.at("player"))) != order.end();
    EXPECT_EQ(r.at("results").as_array().size(), at_table_1 ? 2u : 1u);
    EXPECT_EQ(r.at("games").as_int64(), at_table_1 ? 2 : 1);
  }
}

TEST(AgotGame, TieBreaksWinsCapturesLandsNameByCollationThenId) {
  // All points zero: the tie-breaks alone order the players.
  boost::json::object zero{{"place_points", boost::json::array{0, 0, 0, 0, 0, 0}},
                           {"castle_points", boost::json::array{0, 0, 0, 0, 0, 0, 0, 0}},
                           {"capitals_cap", 0}};
  for (const std::string locale : {"cs", ""}) {
    SCOPED_TRACE(locale);
    auto game = agot();
    TournamentBuilder b("ties", "agot", locale, zero);
    const std::vector<std::pair<const char*, const char*>> players = {
        {"w1", "W1"}, {"c1", "C1"},    {"c2", "C2"},  {"l1", "L1"},  {"l2", "L2"}, {"z1", "Cyril"},
        {"w2", "W2"}, {"z2", "Čapek"}, {"e2", "Eva"}, {"e1", "Eva"}, {"f1", "F1"}, {"f2", "F2"}};
    for (const auto& [id, name] : players) b.player(id, name);
    b.seat({ids({"w1", "c1", "c2", "l1", "l2", "z1"}), ids({"w2", "z2", "e2", "e1", "f1", "f2"})});
    ASSERT_EQ(enter(b, *game, 1, 1, Which::AGOT_RESULT,
                    result_body({{"w1", "stark", 1, 0, {"martell"}},
                                 {"c1", "lannister", 2, 0, {"stark", "greyjoy"}},
                                 {"c2", "baratheon", 3, 0, {"stark"}, 0, 9},
                                 {"l1", "greyjoy", 4, 0, {}, 0, 5},
                                 {"l2", "tyrell", 5, 0, {}, 0, 4},
                                 {"z1", "martell", 6, 0}})),
              RuleErrors{});
    ASSERT_EQ(enter(b, *game, 1, 2, Which::AGOT_RESULT,
                    result_body({{"w2", "stark", 1, 0},
                                 {"z2", "lannister", 2, 0},
                                 {"e2", "baratheon", 3, 0},
                                 {"e1", "greyjoy", 4, 0},
                                 {"f1", "tyrell", 5, 0, {}, 0, 1},
                                 {"f2", "martell", 6, 0, {}, 0, 2}})),
              RuleErrors{});
    auto order = standings_order(game->standings(b.tournament()));
    // Czech: C < Č; the root collation orders Čapek before Cyril.
    auto names = locale == "cs" ? ids({"z1", "z2"}) : ids({"z2", "z1"});
    EXPECT_EQ(order, ids({"w1", "w2", "c1", "c2", "l1", "l2", "f2", "f1", names[0].c_str(),
                          names[1].c_str(), "e1", "e2"}));
  }
}

TEST(AgotGame, ACorrectionReRatesAndALaterRoundSeatedBeforeItIsNoticed) {
  auto game = agot();
  TournamentBuilder b("notice", "agot");
  for (int i = 1; i <= 12; ++i) b.player("p" + std::to_string(i), "P" + std::to_string(i));
  auto draw = seat(b, *game, SeatingRequest{1, std::nullopt, 11});
  std::uint64_t table1_result = 0;
  std::vector<Line> lines1;
  for (std::uint32_t table = 1; table <= 2; ++table) {
    auto_picks(b, *game, 1, table);
    auto t = b.tournament();
    auto houses = game->table_extras(t, state(t, 1, table)).at("houses").as_object();
    std::vector<Line> lines;
    const auto& players = draw.tables[table - 1].players;
    for (std::size_t i = 0; i < players.size(); ++i) {
      lines.push_back(Line{players[i], str(houses.at(players[i])), static_cast<int>(i) + 1});
    }
    ASSERT_EQ(enter(b, *game, 1, table, Which::AGOT_RESULT, result_body(lines)), RuleErrors{});
    if (table == 1) {
      table1_result = b.last_seq();
      lines1 = lines;
    }
  }
  auto round2 = seat(b, *game, SeatingRequest{2});
  const std::string third = draw.tables[0].players[2], fourth = draw.tables[0].players[3];
  auto in_league = [&](const std::string& p) {
    for (const auto& t : round2.tables) {
      if (std::find(t.players.begin(), t.players.end(), p) != t.players.end()) return t.league;
    }
    return std::string();
  };
  EXPECT_EQ(in_league(third), "A");
  EXPECT_EQ(in_league(fourth), "B");
  EXPECT_TRUE(game->notices(b.tournament()).empty());

  // The judge swapped 3rd and 4th at table 1 of round 1.
  std::swap(lines1[2].place, lines1[3].place);
  ASSERT_EQ(enter(b, *game, 1, 1, Which::AGOT_RESULT, result_body(lines1), table1_result,
                  "3rd and 4th swapped"),
            RuleErrors{});
  auto t = b.tournament();
  auto s = game->standings(t);
  EXPECT_EQ(row_of(s, fourth).at("total").as_int64(), 6);  // re-rated from the correction
  EXPECT_EQ(row_of(s, third).at("total").as_int64(), 4);
  auto notices = game->notices(t);
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_NE(english(notices[0]).find("Round 2"), std::string::npos) << english(notices[0]);
  EXPECT_NE(english(notices[0]).find("would now seat A: "), std::string::npos)
      << english(notices[0]);
  EXPECT_NE(english(notices[0]).find(fourth), std::string::npos);
  // The seating itself is unchanged.
  EXPECT_EQ(t.round(2)->tables[0].players, round2.tables[0].players);
}

TEST(AgotGame, CheckActionOnAMissingTable) {
  auto game = agot();
  TournamentBuilder b("missing", "agot");
  b.player("p1", "P");
  auto t = b.tournament();
  auto proposed =
      b.proposed(Which::HOUSE_PICK, boost::json::object{{"player", "p1"}, {"house", "stark"}});
  auto e = game->check_action(t, state(t, 3, 1), proposed->getRoot<schema::Event>().asReader());
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].rule, "table");  // the same rule id in every game
}

}  // namespace
}  // namespace tally::projections::agot
