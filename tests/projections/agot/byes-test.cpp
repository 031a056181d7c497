// Byes (agot.md "Seating"): players beyond a multiple of six sit out — in round 1 the last drawn,
// later the lowest rated of those with the fewest byes — and the round sheet lists them; a bye
// is a missed round (0 points) that the best-5-of-6 rule may drop.
#include "projections/agot/byes.hpp"

#include "projections/agot/agot_game.hpp"
#include "projections/agot/round_seating.hpp"
#include "tests/projections/agot/agot_game_support.hpp"
#include "tests/support/messages.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

namespace tally::projections::agot {
namespace {

using namespace testing;
using projections::SeatingRequest;
using schema::SeatingMethod;
using tally::testing::english;

std::vector<std::string> ids(std::initializer_list<const char*> names) {
  return std::vector<std::string>(names.begin(), names.end());
}

std::vector<std::string> players(int n) {
  std::vector<std::string> out;
  for (int i = 1; i <= n; ++i) out.push_back("p" + std::to_string(i));
  return out;
}

std::vector<std::string> byes_on_sheet(const Game& game, const projections::Tournament& t,
                                       std::uint32_t round) {
  boost::json::object extras = game.round_extras(t, *t.round(round));
  std::vector<std::string> out;
  for (const auto& p : extras.at("byes").as_array()) out.push_back(str(p));
  return out;
}

std::vector<std::string> seated(const projections::Seating& s) {
  std::vector<std::string> out;
  for (const auto& t : s.tables) out.insert(out.end(), t.players.begin(), t.players.end());
  return out;
}

// Plays every table of `round`: automatic picks, then places in the table's seat order (the
// rating order for a seating by standings), `lands` captured by whoever the map names.
void play(TournamentBuilder& b, const Game& game, std::uint32_t round,
          const std::map<std::string, int>& lands = {}) {
  auto t = b.tournament();
  for (const auto& table : t.round(round)->tables) {
    auto_picks(b, game, round, table.number);
    auto now = b.tournament();
    auto houses = game.table_extras(now, state(now, round, table.number)).at("houses").as_object();
    std::vector<Line> lines;
    for (std::size_t i = 0; i < table.players.size(); ++i) {
      const std::string& p = table.players[i];
      auto l = lands.find(p);
      lines.push_back(Line{p,
                           str(houses.at(p)),
                           static_cast<int>(i) + 1,
                           0,
                           {},
                           0,
                           l == lands.end() ? 0 : l->second});
    }
    ASSERT_EQ(enter(b, game, round, table.number, Which::AGOT_RESULT, result_body(lines)),
              RuleErrors{});
  }
}

// --- The pure parts ------------------------------------------------------------------------------

TEST(AgotByes, ChooseTheLowestRatedAmongThoseWithTheFewestByes) {
  const auto order = ids({"a", "b", "c", "d", "e"});  // rating order, best first
  EXPECT_EQ(choose_byes(order, {}, 0), ids({}));
  EXPECT_EQ(choose_byes(order, {}, 2), ids({"d", "e"}));
  // e has had a bye: nobody gets a second while someone has none.
  EXPECT_EQ(choose_byes(order, {{"e", 1}}, 1), ids({"d"}));
  EXPECT_EQ(choose_byes(order, {{"e", 1}, {"d", 1}, {"a", 0}}, 2), ids({"b", "c"}));
  // Everyone has had one: the second bye goes by rating again, then a third only after that.
  EXPECT_EQ(choose_byes(order, {{"a", 1}, {"b", 1}, {"c", 1}, {"d", 1}, {"e", 1}}, 1), ids({"e"}));
  EXPECT_EQ(choose_byes(order, {{"a", 1}, {"b", 1}, {"c", 1}, {"d", 2}, {"e", 2}}, 2),
            ids({"b", "c"}));
  EXPECT_EQ(choose_byes(order, {{"a", 2}, {"b", 1}, {"c", 2}, {"d", 2}, {"e", 2}}, 2),
            ids({"b", "e"}));
}

// A bye: in the tournament when the round was seated (not dropped before it), at none of its
// tables. A manual seating's left-out players have one too.
TEST(AgotByes, WhoHadAByeIsReadFromTheRounds) {
  TournamentBuilder b("byes", "agot");
  for (const auto& p : players(8)) b.player(p, p);
  b.seat({ids({"p1", "p2", "p3", "p4", "p5", "p6"})});  // p7, p8 out
  b.drop("p8");
  b.seat({ids({"p2", "p3", "p4", "p5", "p6", "p7"})});  // p1 out; p8 is no longer in
  b.seat({ids({"p1", "p2", "p3", "p4", "p5", "p7"})});  // p6 out
  auto t = b.tournament();
  EXPECT_EQ(round_byes(t, *t.round(1)), ids({"p7", "p8"}));
  EXPECT_EQ(round_byes(t, *t.round(2)), ids({"p1"}));
  EXPECT_EQ(round_byes(t, *t.round(3)), ids({"p6"}));
  const auto& p8 = *t.player("p8");
  EXPECT_TRUE(in_tournament_at(p8, 1));
  EXPECT_FALSE(in_tournament_at(p8, 2));
  EXPECT_TRUE(in_tournament_at(*t.player("p1"), 4));

  using Counts = std::map<std::string, int>;
  EXPECT_EQ(
      bye_counts(t, 1),
      (Counts{
          {"p1", 0}, {"p2", 0}, {"p3", 0}, {"p4", 0}, {"p5", 0}, {"p6", 0}, {"p7", 0}, {"p8", 0}}));
  EXPECT_EQ(
      bye_counts(t, 3),
      (Counts{
          {"p1", 1}, {"p2", 0}, {"p3", 0}, {"p4", 0}, {"p5", 0}, {"p6", 0}, {"p7", 1}, {"p8", 1}}));
  EXPECT_EQ(
      bye_counts(t, 0),
      (Counts{
          {"p1", 1}, {"p2", 0}, {"p3", 0}, {"p4", 0}, {"p5", 0}, {"p6", 1}, {"p7", 1}, {"p8", 1}}));
}

// --- Through the Game ----------------------------------------------------------------------------

TEST(AgotByes, RoundOneOfThirteenLeavesTheLastDrawnOut) {
  auto game = make_agot_game();
  TournamentBuilder b("thirteen", "agot");
  for (const auto& p : players(13)) b.player(p, "P" + p.substr(1));
  auto s = game->seat_round(b.tournament(), SeatingRequest{1, std::nullopt, 42});
  ASSERT_TRUE(s) << english(s.errors[0].message);
  ASSERT_EQ(s.value->tables.size(), 2u);
  // The draw of seed 42 over p1…p13, as seeded_permutation gives it; the last drawn sits out.
  EXPECT_EQ(seeded_permutation(13, 42),
            (std::vector<std::size_t>{10, 6, 3, 12, 11, 0, 7, 4, 5, 2, 9, 8, 1}));
  EXPECT_EQ(s.value->tables[0].players, ids({"p11", "p7", "p4", "p13", "p12", "p1"}));
  EXPECT_EQ(s.value->tables[1].players, ids({"p8", "p5", "p6", "p3", "p10", "p9"}));
  EXPECT_EQ(s.value->notice.key, "agot.seating.byes");
  EXPECT_EQ(english(s.value->notice),
            "p2 sits this round out with a bye: tables seat 6, and a bye counts as a missed "
            "round (0 points).");
  // Rendered by name.
  EXPECT_EQ(tally::testing::rendered(s.value->notice, i18n::Lang::en, {{"p2", "Player 2"}}),
            "Player 2 sits this round out with a bye: tables seat 6, and a bye counts as a "
            "missed round (0 points).");
  EXPECT_EQ(tally::testing::rendered(s.value->notice, i18n::Lang::cs, {{"p2", "Eva"}}),
            "Eva má v tomto kole volný los: u stolu sedí 6 hráčů a volný los se počítá jako "
            "vynechané kolo (0 bodů).");
  b.seat(s.value->tables, s.value->method, s.value->seed);
  EXPECT_EQ(byes_on_sheet(*game, b.tournament(), 1), ids({"p2"}));
}

// Round 1 seated by hand (p13 out), played: p1…p6 place 1…6 at table 1, p7…p12 at table 2; p6
// captured a land, so p12 (1 point) is the lowest rated of those without a bye — p13 (0 points,
// a bye already) is not chosen again. Equal points go by name ("p10" before "p4").
TEST(AgotByes, RoundTwoGivesTheByeToTheLowestRatedWithoutOne) {
  auto game = make_agot_game();
  TournamentBuilder b("thirteen", "agot");
  for (const auto& p : players(13)) b.player(p, p);
  b.seat({ids({"p1", "p2", "p3", "p4", "p5", "p6"}), ids({"p7", "p8", "p9", "p10", "p11", "p12"})});
  play(b, *game, 1, {{"p6", 1}});
  auto s = seat(b, *game, SeatingRequest{2});
  EXPECT_EQ(s.method, SeatingMethod::STANDINGS);
  ASSERT_EQ(s.tables.size(), 2u);
  EXPECT_EQ(s.tables[0].players, ids({"p1", "p7", "p2", "p8", "p3", "p9"}));
  EXPECT_EQ(s.tables[1].players, ids({"p10", "p4", "p11", "p5", "p6", "p13"}));
  EXPECT_EQ(english(s.notice),
            "p12 sits this round out with a bye: tables seat 6, and a bye counts as a missed "
            "round (0 points).");
  auto t = b.tournament();
  EXPECT_EQ(byes_on_sheet(*game, t, 1), ids({"p13"}));
  EXPECT_EQ(byes_on_sheet(*game, t, 2), ids({"p12"}));

  // A random draw in round 2 gives the same bye and draws the other twelve.
  TournamentBuilder again("again", "agot");
  for (const auto& p : players(13)) again.player(p, p);
  again.seat(
      {ids({"p1", "p2", "p3", "p4", "p5", "p6"}), ids({"p7", "p8", "p9", "p10", "p11", "p12"})});
  play(again, *game, 1, {{"p6", 1}});
  auto drawn = game->seat_round(again.tournament(), SeatingRequest{2, SeatingMethod::RANDOM, 7});
  ASSERT_TRUE(drawn) << english(drawn.errors[0].message);
  auto everyone = seated(*drawn.value);
  EXPECT_EQ(std::set<std::string>(everyone.begin(), everyone.end()),
            (std::set<std::string>{"p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9", "p10",
                                   "p11", "p13"}));
  EXPECT_EQ(
      drawn.value->notice,
      (i18n::Message("agot.seating.byes", {{"count", 1}, {"players", i18n::PlayerList{{"p12"}}}})));
}

// Seven players, six rounds by standings: one bye a round, never a second while someone has
// none; the standings give each bye round 0 points, and best 5 of 6 drops it.
TEST(AgotByes, SevenPlayersTakeTurnsAndTheByeIsTheDroppedZero) {
  auto game = make_agot_game();
  TournamentBuilder b("seven", "agot");
  for (const auto& p : players(7)) b.player(p, p);
  std::vector<std::string> byes;
  for (std::uint32_t round = 1; round <= 6; ++round) {
    auto s = seat(b, *game, SeatingRequest{round, std::nullopt, round});
    ASSERT_EQ(s.tables.size(), 1u) << round;
    auto t = b.tournament();
    auto out = byes_on_sheet(*game, t, round);
    ASSERT_EQ(out.size(), 1u) << round;
    byes.push_back(out[0]);
    play(b, *game, round);
  }
  // Round 1 is the draw of seed 1 (the last drawn: p3); then always the lowest rated without a
  // bye. Places follow the seat order (the rating's), so p4 wins every game it plays: 12 in
  // round 1, 13 with league A's bonus after, and never has a bye — its worst game is dropped.
  EXPECT_EQ(byes, ids({"p3", "p1", "p6", "p7", "p5", "p2"}));

  auto standings = game->standings(b.tournament());
  std::map<std::string, std::string> results;  // player → "points/dropped …" over rounds 1–6
  std::map<std::string, std::int64_t> totals;
  for (const auto& r : standings.at("rows").as_array()) {
    std::string line;
    for (const auto& g : r.at("results").as_array()) {
      line += std::to_string(g.at("points").as_int64()) + (g.at("dropped").as_bool() ? "x " : " ");
    }
    results[str(r.at("player"))] = line;
    totals[str(r.at("player"))] = r.at("total").as_int64();
  }
  EXPECT_EQ(results, (std::map<std::string, std::string>{{"p1", "1 0x 2 2 2 2 "},
                                                         {"p2", "8 9 9 9 9 0x "},
                                                         {"p3", "0x 1 1 1 1 1 "},
                                                         {"p4", "12x 13 13 13 13 13 "},
                                                         {"p5", "6 6 6 6 0x 9 "},
                                                         {"p6", "2 2 0x 4 4 4 "},
                                                         {"p7", "4 4 4 0x 6 6 "}}));
  EXPECT_EQ(totals,
            (std::map<std::string, std::int64_t>{
                {"p1", 9}, {"p2", 44}, {"p3", 5}, {"p4", 65}, {"p5", 33}, {"p6", 16}, {"p7", 24}}));
}

// Eight players, two byes a round: after four rounds everyone has had one, and only then does
// anyone get a second.
TEST(AgotByes, SecondByesOnlyOnceEveryoneHasHadOne) {
  auto game = make_agot_game();
  TournamentBuilder b("eight", "agot");
  for (const auto& p : players(8)) b.player(p, p);
  std::vector<std::vector<std::string>> byes;
  for (std::uint32_t round = 1; round <= 6; ++round) {
    auto s = seat(b, *game, SeatingRequest{round, std::nullopt, round});
    auto t = b.tournament();
    byes.push_back(byes_on_sheet(*game, t, round));
    // The notice names the same players as the round sheet.
    EXPECT_EQ(s.notice, (i18n::Message("agot.seating.byes",
                                       {{"count", 2}, {"players", i18n::PlayerList{byes.back()}}})))
        << round;
    auto counts = bye_counts(t, 0);
    auto [fewest, most] =
        std::minmax_element(counts.begin(), counts.end(),
                            [](const auto& a, const auto& b) { return a.second < b.second; });
    EXPECT_LE(most->second - fewest->second, 1) << round;
    play(b, *game, round);
  }
  EXPECT_EQ(
      byes,
      (std::vector<std::vector<std::string>>{
          {"p1", "p3"}, {"p2", "p8"}, {"p4", "p6"}, {"p5", "p7"}, {"p3", "p8"}, {"p6", "p2"}}));
  auto counts = bye_counts(b.tournament(), 0);
  EXPECT_EQ(
      counts,
      (std::map<std::string, int>{
          {"p1", 1}, {"p2", 2}, {"p3", 2}, {"p4", 1}, {"p5", 1}, {"p6", 2}, {"p7", 1}, {"p8", 2}}));
}

// Check-in: who is not checked in is not seated (and so had no seat: a bye in the round's
// history); a seating of the present twelve has no bye to name.
TEST(AgotByes, PlayersNotCheckedInAreNotSeatedAndCountAsHavingSatOut) {
  auto game = make_agot_game();
  TournamentBuilder b("checkin", "agot");
  for (const auto& p : players(13)) b.player(p, p);
  b.append(projections::tournament_stream("checkin"), [](schema::Event::Builder e) {
    auto c = e.getPayload().initCheckIn();
    c.setRound(1);
    auto list = c.initPlayers(12);
    for (unsigned i = 0; i < 12; ++i) list.set(i, "p" + std::to_string(i + 1));
    c.setPresent(true);
  });
  auto s = seat(b, *game, SeatingRequest{1, std::nullopt, 5});
  ASSERT_EQ(s.tables.size(), 2u);
  // Last at their tables (1 point each): p4 and p11.
  EXPECT_EQ(s.tables[0].players.back(), "p4");
  EXPECT_EQ(s.tables[1].players.back(), "p11");
  EXPECT_TRUE(s.notice.empty());
  EXPECT_EQ(byes_on_sheet(*game, b.tournament(), 1), ids({"p13"}));
  play(b, *game, 1);
  // Round 2 (nobody checked in yet: every active player): p13 has sat out once already, so
  // the bye goes to the lowest rated of the others: p4 (1 point, after "p11" by name).
  s = seat(b, *game, SeatingRequest{2});
  auto t = b.tournament();
  auto out = byes_on_sheet(*game, t, 2);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_NE(out[0], "p13");
  EXPECT_EQ(out, ids({"p4"}));
}

TEST(AgotByes, FewerThanSixPlayersAreRefused) {
  auto game = make_agot_game();
  TournamentBuilder b("five", "agot");
  for (const auto& p : players(5)) b.player(p, p);
  auto s = game->seat_round(b.tournament(), SeatingRequest{1, std::nullopt, 3});
  ASSERT_FALSE(s);
  ASSERT_EQ(s.errors.size(), 1u);
  EXPECT_EQ(s.errors[0].rule, "seating");
  EXPECT_EQ(s.errors[0].field, "method");
  EXPECT_EQ(english(s.errors[0].message),
            "Only 5 players are to be seated, but a table needs 6 (one per house): a round needs "
            "at least 6 players (beyond a multiple of 6, the rest sit out with a bye). Register "
            "more players or check more of them in.");

  // Later rounds too: seven seated in round 1, two drop, five are left.
  TournamentBuilder later("later", "agot");
  for (const auto& p : players(7)) later.player(p, p);
  seat(later, *game, SeatingRequest{1, std::nullopt, 3});
  later.drop("p1").drop("p2");
  s = game->seat_round(later.tournament(), SeatingRequest{2});
  ASSERT_FALSE(s);
  EXPECT_EQ(s.errors[0].rule, "seating");
  EXPECT_NE(english(s.errors[0].message).find("Only 5 players are to be seated"),
            std::string::npos);
}

}  // namespace
}  // namespace tally::projections::agot
