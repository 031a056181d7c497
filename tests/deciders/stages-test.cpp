// The stages' deciders without a process (docs/games/stages.md): whole championships played by
// deciding every command on the state its events fold into — a Carcassonne event with a
// knockout, a Catan event with final tables and a final, an AGoT final table — and every refusal
// of S-1, S-2, S-3 and S-7.
#include "deciders/stages.hpp"
#include "deciders/seat_round.hpp"
#include "deciders/table_action.hpp"
#include "deciders/tournaments.hpp"
#include "projections/agot/agot_game.hpp"
#include "projections/agot/houses.hpp"
#include "projections/carcassonne/carcassonne_game.hpp"
#include "projections/catan/catan_game.hpp"
#include "projections/stage_progress.hpp"
#include "tests/deciders/support.hpp"
#include "tests/projections/agot/agot_game_support.hpp"
#include "tests/projections/catan/fixtures.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

namespace tally::deciders {
namespace {

namespace json = boost::json;
using projections::StageKind;
using projections::StageState;
using tally::testing::TournamentBuilder;
using testing::apply;
using testing::kOrganizer;
using testing::refusal_of;
using Which = schema::Event::Payload::Which;

const Actor kSystem{"system", true};

std::string id(int n) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "p%02d", n);
  return buf;
}

// A tournament created as the daemon creates it — its rules normalised by the CreateTournament
// decider (S-1 checked, defaults written out) — with `players` players p01, p02 ….
TournamentBuilder staged(const projections::Game& game, const json::object& rules, int players) {
  auto d = decide(nullptr, game, CreateTournament{"cup", "Cup", "", rules, false}, kOrganizer);
  if (d.refused()) throw std::invalid_argument("rules refused: " + d.refusal().message.key);
  auto created = d.accepted().append.events.front().reader().getPayload().getTournamentCreated();
  TournamentBuilder b("cup", std::string(game.id()), "",
                      json::parse(created.getRules().cStr()).as_object());
  for (int i = 1; i <= players; ++i) b.player(id(i), "Player " + id(i));
  return b;
}

json::array rows_of(const projections::Tournament& t, const projections::Game& game) {
  return game.standings(t).at("rows").as_array();
}

std::vector<std::string> standings_order(const projections::Tournament& t,
                                         const projections::Game& game) {
  std::vector<std::string> out;
  for (const auto& row : rows_of(t, game)) out.emplace_back(row.at("player").as_string());
  return out;
}

std::vector<std::string> final_order(const projections::Tournament& t,
                                     const projections::Game& game) {
  json::object standings = projections::tournament_standings(t, game);
  std::vector<std::string> out;
  if (!standings.contains("final")) return out;
  for (const auto& row : standings.at("final").as_array())
    out.emplace_back(row.at("player").as_string());
  return out;
}

// --- S-1
// ------------------------------------------------------------------------------------------

TEST(StagesDecider, S1_EveryViolationOfTheListIsRefusedAtOnceNamingItsField) {
  auto catan_game = projections::catan::make_catan_game();
  const projections::Game& catan = *catan_game;
  json::object rules{
      {"stages", json::array{json::object{{"kind", "cut"}, {"top", 8}},
                             json::object{{"kind", "final_tables"}, {"tables", 3}, {"advance", 1}},
                             json::object{{"kind", "knockout"}}}}};
  CreateTournament command{"cup", "Cup", "", rules, false};
  const Refusal r = refusal_of(decide(nullptr, catan, command, kOrganizer));
  EXPECT_EQ(r.kind, RefusalKind::unprocessable);
  std::map<std::string, std::string> by_field;
  for (const auto& e : r.errors) {
    EXPECT_EQ(e.rule, "S-1") << e.field;
    by_field[e.field] = e.message.key;
  }
  EXPECT_EQ(by_field["stages[0].kind"], "stages.rounds_first");
  EXPECT_EQ(by_field["stages[1].tables"], "stages.tables_seat");  // 8 players at 3 tables
  EXPECT_EQ(by_field["stages[2].kind"], "stages.knockout_two_player");
}

TEST(StagesDecider, S1_AKnockoutNeedsAPowerOfTwoAndTwoPlayerGames) {
  auto carcassonne = projections::carcassonne::make_carcassonne_game();
  const projections::Game& game = *carcassonne;
  json::object rules{{"stages", json::array{json::object{{"kind", "rounds"}, {"rounds", 3}},
                                            json::object{{"kind", "cut"}, {"top", 6}},
                                            json::object{{"kind", "knockout"}}}}};
  CreateTournament command{"cup", "Cup", "", rules, false};
  const Refusal r = refusal_of(decide(nullptr, game, command, kOrganizer));
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].field, "stages[2].kind");
  EXPECT_EQ(r.errors[0].message.key, "stages.knockout_power_of_two");

  rules["table_size"] = 4;  // four-player Carcassonne: no knockout, even with 8
  rules["stages"].as_array()[1].as_object()["top"] = 8;
  CreateTournament four{"cup", "Cup", "", rules, false};
  const Refusal r4 = refusal_of(decide(nullptr, game, four, kOrganizer));
  ASSERT_EQ(r4.errors.size(), 1u);
  EXPECT_EQ(r4.errors[0].message.key, "stages.knockout_two_player");
}

TEST(StagesDecider, S1_TheRoundsStageSetsTheGamesRoundsAndACountThatDiffersIsRefused) {
  auto catan = projections::catan::make_catan_game();
  const projections::Game& game = *catan;
  json::array stages{json::object{{"kind", "rounds"}, {"rounds", 3}},
                     json::object{{"kind", "cut"}, {"top", 4}}, json::object{{"kind", "final"}}};
  CreateTournament ok{"cup", "Cup", "", {{"stages", stages}}, false};
  auto accepted = decide(nullptr, game, ok, kOrganizer);
  ASSERT_FALSE(accepted.refused());
  auto created =
      accepted.accepted().append.events.front().reader().getPayload().getTournamentCreated();
  json::object rules = json::parse(created.getRules().cStr()).as_object();
  EXPECT_EQ(rules.at("rounds"), json::value(3));
  EXPECT_EQ(rules.at("stages"), json::value(stages));

  CreateTournament differs{"cup", "Cup", "", {{"stages", stages}, {"rounds", 5}}, false};
  const Refusal r = refusal_of(decide(nullptr, game, differs, kOrganizer));
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].rule, "S-1");
  EXPECT_EQ(r.errors[0].field, "rounds");
}

// --- Carcassonne: 5 Swiss rounds, cut 8, knockout "1-5" with a game for 3rd ----------------------

class CarcassonneKnockout : public ::testing::Test {
 protected:
  std::unique_ptr<projections::Game> owned_ = projections::carcassonne::make_carcassonne_game();
  const projections::Game& game_ = *owned_;
  json::object rules_{
      {"stages",
       json::array{json::object{{"kind", "rounds"}, {"rounds", 5}},
                   json::object{{"kind", "cut"}, {"top", 8}},
                   json::object{{"kind", "knockout"}, {"pairing", "1-5"}, {"third_place", true}}}}};
  TournamentBuilder b_{"cup", "carcassonne", "", {}};

  // Player pNN's strength: the lower the number, the stronger. A game's stronger player wins.
  static int strength(const std::string& player) { return 100 - std::stoi(player.substr(1)); }

  void SetUp() override { b_ = staged(game_, rules_, 16); }

  void result(std::uint32_t round, std::uint32_t table, const std::string& a, int score_a,
              const std::string& c, int score_c, std::uint64_t supersedes = 0) {
    json::object body{{"players", json::array{json::object{{"player", a}, {"score", score_a}},
                                              json::object{{"player", c}, {"score", score_c}}}}};
    b_.action(round, table, Which::CARCASSONNE_RESULT, body, supersedes,
              supersedes ? "score misread" : "");
  }

  // Plays round `round` as seated: the stronger player wins by 10.
  void play_round(std::uint32_t round) {
    auto t = b_.tournament();
    for (const auto& table : t.round(round)->tables) {
      if (table.players.size() < 2) continue;
      const auto& a = table.players[0];
      const auto& c = table.players[1];
      const bool a_wins = strength(a) > strength(c);
      result(round, table.number, a, a_wins ? 90 : 80, c, a_wins ? 80 : 90);
    }
  }

  void advance() { apply(b_, decide(b_.tournament(), game_, AdvanceBracket{}, kSystem)); }
};

TEST_F(CarcassonneKnockout, PlaysQuarterFinalsSemiFinalsAndAFinalToFinalPlacesOneToSixteen) {
  for (std::uint32_t round = 1; round <= 5; ++round) {
    SeatRound seat;
    seat.request.seed = 7 + round;
    apply(b_, decide(b_.tournament(), game_, seat, kOrganizer));
    play_round(round);
  }
  // S-2: the rounds stage's five rounds are all there is.
  SeatRound sixth;
  EXPECT_EQ(refusal_of(decide(b_.tournament(), game_, sixth, kOrganizer)).errors.at(0).rule, "S-2");

  const std::vector<std::string> swiss = standings_order(b_.tournament(), game_);
  // S-3: the cut is the first eight of the standings, in their order.
  auto cut = decide(b_.tournament(), game_, StartStage{}, kOrganizer);
  ASSERT_FALSE(cut.refused());
  const std::vector<std::string> seeds(swiss.begin(), swiss.begin() + 8);
  EXPECT_EQ(cut.accepted().facts.players, seeds);
  EXPECT_EQ(cut.accepted().facts.cut->first_out, swiss[8]);
  apply(b_, cut);

  // S-6: quarter-finals 1–5, 2–6, 3–7, 4–8; S-7: the better seed first.
  auto knockout = decide(b_.tournament(), game_, StartStage{}, kOrganizer);
  ASSERT_FALSE(knockout.refused());
  const auto& qf = knockout.accepted().facts.tables;
  ASSERT_EQ(qf.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(qf[i].players, (std::vector<std::string>{seeds[i], seeds[i + 4]})) << "QF" << i + 1;
  }
  EXPECT_EQ(knockout.accepted().facts.round, 6u);
  apply(b_, knockout);

  // QF1: seed 1 wins; QF2: a tied game — the better seed (2) wins it (S-7); QF3: seed 7 upsets
  // seed 3; QF4: seed 4 wins.
  result(6, 1, seeds[0], 90, seeds[4], 70);
  result(6, 2, seeds[1], 75, seeds[5], 75);
  result(6, 3, seeds[2], 60, seeds[6], 88);
  advance();  // not all quarter-finals are in: nothing to seat
  EXPECT_EQ(b_.tournament().rounds.size(), 6u);
  result(6, 4, seeds[3], 81, seeds[7], 80);
  advance();

  // Semi-finals: W(QF1)–W(QF4), W(QF2)–W(QF3).
  auto t = b_.tournament();
  ASSERT_EQ(t.rounds.size(), 7u);
  ASSERT_EQ(t.round(7)->tables.size(), 2u);
  EXPECT_EQ(t.round(7)->tables[0].players, (std::vector<std::string>{seeds[0], seeds[3]}));
  EXPECT_EQ(t.round(7)->tables[1].players, (std::vector<std::string>{seeds[1], seeds[6]}));
  EXPECT_EQ(t.round(7)->method, schema::SeatingMethod::KNOCKOUT);

  // S-7: a quarter-final whose players played on is corrected only while their next game has
  // no result.
  result(7, 1, seeds[0], 70, seeds[3], 95);  // seed 4 beats seed 1
  {
    TableAction correction;
    correction.table = {"cup", "6", "1"};
    correction.action = "result";
    json::object body{{"players", json::array{json::object{{"player", seeds[0]}, {"score", 50}},
                                              json::object{{"player", seeds[4]}, {"score", 70}}}}};
    correction.body = std::make_shared<const json::object>(body);
    correction.reason = "scores swapped";
    FoundTable found;
    auto tournament = b_.tournament();
    const Refusal r = refusal_of(decide(
        &tournament, &game_, correction, kOrganizer,
        [](std::string_view a) { return std::string(a); }, found));
    EXPECT_EQ(r.kind, RefusalKind::conflict);
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_EQ(r.errors[0].rule, "S-7");
    EXPECT_EQ(r.errors[0].player, seeds[0]);
  }
  result(7, 2, seeds[1], 85, seeds[6], 85);  // level: seed 2 wins (S-7)
  advance();

  // The final (table 1) and the game for 3rd place (table 2).
  t = b_.tournament();
  ASSERT_EQ(t.rounds.size(), 8u);
  ASSERT_EQ(t.round(8)->tables.size(), 2u);
  EXPECT_EQ(t.round(8)->tables[0].players, (std::vector<std::string>{seeds[1], seeds[3]}));
  EXPECT_EQ(t.round(8)->tables[1].players, (std::vector<std::string>{seeds[0], seeds[6]}));
  EXPECT_TRUE(final_order(t, game_).empty());  // not over yet

  result(8, 1, seeds[1], 99, seeds[3], 98);  // seed 2 champion
  result(8, 2, seeds[0], 77, seeds[6], 78);  // seed 7 third
  advance();                                 // the bracket is over: nothing more
  t = b_.tournament();
  EXPECT_EQ(t.rounds.size(), 8u);

  // S-8: 1 seed 2, 2 seed 4, 3 seed 7, 4 seed 1, then the quarter-final losers by seed (3, 5, 6,
  // 8), then places 9–16 in the Swiss standings' order.
  std::vector<std::string> expected{seeds[1], seeds[3], seeds[6], seeds[0],
                                    seeds[2], seeds[4], seeds[5], seeds[7]};
  expected.insert(expected.end(), swiss.begin() + 8, swiss.end());
  EXPECT_EQ(final_order(t, game_), expected);
  // The Swiss standings themselves are the rounds stage's: the knockout changed none of them.
  EXPECT_EQ(standings_order(t, game_), swiss);
  auto stages = projections::stage_progress(t, game_);
  ASSERT_EQ(stages.size(), 3u);
  EXPECT_EQ(stages[2].state, StageState::complete);
}

TEST_F(CarcassonneKnockout, S7_ACorrectionBeforeTheNextGameHasAResultReseatsIt) {
  for (std::uint32_t round = 1; round <= 5; ++round) {
    SeatRound seat;
    seat.request.seed = 3 + round;
    apply(b_, decide(b_.tournament(), game_, seat, kOrganizer));
    play_round(round);
  }
  apply(b_, decide(b_.tournament(), game_, StartStage{}, kOrganizer));
  auto ko = decide(b_.tournament(), game_, StartStage{}, kOrganizer);
  const auto seeds = ko.accepted().facts.players;
  apply(b_, ko);
  const std::uint64_t qf1 = b_.last_seq() + 1;
  result(6, 1, seeds[0], 90, seeds[4], 70);
  result(6, 2, seeds[1], 90, seeds[5], 70);
  result(6, 3, seeds[2], 90, seeds[6], 70);
  result(6, 4, seeds[3], 90, seeds[7], 70);
  advance();
  EXPECT_EQ(b_.tournament().round(7)->tables[0].players,
            (std::vector<std::string>{seeds[0], seeds[3]}));
  // QF1 corrected: seed 5 won it. The semi-final has no result yet: seated again.
  result(6, 1, seeds[0], 70, seeds[4], 90, qf1);
  advance();
  EXPECT_EQ(b_.tournament().round(7)->tables[0].players,
            (std::vector<std::string>{seeds[3], seeds[4]}));
  EXPECT_EQ(b_.tournament().round(7)->tables[1].players,
            (std::vector<std::string>{seeds[1], seeds[2]}));
}

// --- Catan: 3 rounds, cut 16, four final tables by snake, a final
// ---------------------------------

class CatanFinalTables : public ::testing::Test {
 protected:
  std::unique_ptr<projections::Game> owned_ = projections::catan::make_catan_game();
  const projections::Game& game_ = *owned_;
  TournamentBuilder b_{"cup", "catan", "", {}};

  void SetUp() override {
    json::object rules{
        {"stages",
         json::array{json::object{{"kind", "rounds"}, {"rounds", 3}},
                     json::object{{"kind", "cut"}, {"top", 16}},
                     json::object{{"kind", "final_tables"}, {"tables", 4}, {"advance", 1}},
                     json::object{{"kind", "final"}}}}};
    b_ = staged(game_, rules, 20);
  }

  // A result of `seats` in the given order of VP (10, 8, 6, 5); with `tie_last_two`, the last two
  // have 6 VP each (they share 3rd place).
  void result(std::uint32_t round, std::uint32_t table, const std::vector<std::string>& seats,
              bool tie_last_two = false) {
    auto sheets = projections::catan::testing::clear_order();
    if (tie_last_two) sheets[3]["settlements"] = 3;  // d: 3 + 2 + 1 = 6 VP, as c
    for (std::size_t i = 0; i < seats.size(); ++i) sheets[i]["player"] = seats[i];
    b_.action(round, table, Which::CATAN_RESULT, projections::catan::testing::body(sheets));
  }

  // Seats a round and plays it: at every table the players in id order get 10, 8, 6, 5 VP.
  void play_round(std::uint32_t round) {
    SeatRound seat;
    seat.request.seed = 11 * round;
    apply(b_, decide(b_.tournament(), game_, seat, kOrganizer));
    const auto seated = b_.tournament();
    for (const auto& table : seated.round(round)->tables) {
      auto seats = table.players;
      std::sort(seats.begin(), seats.end());
      result(round, table.number, seats);
    }
  }
};

TEST_F(CatanFinalTables, CutsSixteenSkippingADroppedPlayerSeatsBySnakeAndPlacesAllTwenty) {
  for (std::uint32_t round = 1; round <= 3; ++round) play_round(round);
  const std::vector<std::string> rounds_order = standings_order(b_.tournament(), game_);
  // The fifth of the standings drops before the cut: the cut passes over them (S-3).
  const std::string dropped = rounds_order[4];
  b_.drop(dropped);

  // S-2: the preview and the start agree; the cut names the first one out and why.
  auto cut = decide(b_.tournament(), game_, StartStage{}, kOrganizer);
  ASSERT_FALSE(cut.refused());
  std::vector<std::string> seeds;
  for (const auto& p : rounds_order) {
    if (p != dropped && seeds.size() < 16) seeds.push_back(p);
  }
  EXPECT_EQ(cut.accepted().facts.players, seeds);
  EXPECT_EQ(cut.accepted().facts.cut->passed_over, std::vector<std::string>{dropped});
  EXPECT_EQ(cut.accepted().facts.cut->first_out, rounds_order[17]);
  EXPECT_FALSE(cut.accepted().facts.cut->decided_by.empty());
  apply(b_, cut);

  // S-4: snake — table 1 = seeds 1, 8, 9, 16; table 4 = seeds 4, 5, 12, 13.
  auto tables = decide(b_.tournament(), game_, StartStage{}, kOrganizer);
  ASSERT_FALSE(tables.refused());
  const auto& seated = tables.accepted().facts.tables;
  ASSERT_EQ(seated.size(), 4u);
  EXPECT_EQ(seated[0].players, (std::vector<std::string>{seeds[0], seeds[7], seeds[8], seeds[15]}));
  EXPECT_EQ(seated[1].players, (std::vector<std::string>{seeds[1], seeds[6], seeds[9], seeds[14]}));
  EXPECT_EQ(seated[3].players,
            (std::vector<std::string>{seeds[3], seeds[4], seeds[11], seeds[12]}));
  apply(b_, tables);
  EXPECT_EQ(b_.tournament().round(4)->method, schema::SeatingMethod::SNAKE);

  // S-2: the final waits for every final table.
  const Refusal early = refusal_of(decide(b_.tournament(), game_, StartStage{}, kOrganizer));
  EXPECT_EQ(early.kind, RefusalKind::conflict);
  EXPECT_EQ(early.errors.at(0).rule, "S-2");
  EXPECT_EQ(early.errors.at(0).field, "force");

  // Table 1: the lowest seed wins. Table 2: seat order. Table 3: the last two tie on VP —
  // seeds 3 (sitting third) and 14 (fourth) share 3rd place; Table 4: seed 13 wins.
  result(4, 1, {seeds[15], seeds[0], seeds[7], seeds[8]});
  result(4, 2, {seeds[1], seeds[6], seeds[9], seeds[14]});
  result(4, 3, {seeds[5], seeds[10], seeds[13], seeds[2]}, true);
  result(4, 4, {seeds[12], seeds[3], seeds[4], seeds[11]});

  // The final: the four winners, seeded again by seed (all are first at their tables).
  auto final_table = decide(b_.tournament(), game_, StartStage{}, kOrganizer);
  ASSERT_FALSE(final_table.refused());
  EXPECT_EQ(final_table.accepted().facts.players,
            (std::vector<std::string>{seeds[1], seeds[5], seeds[12], seeds[15]}));
  ASSERT_EQ(final_table.accepted().facts.tables.size(), 1u);
  apply(b_, final_table);

  // At the final, seeds 2 and 6 tie on VP for 3rd: seed 2 is placed higher (S-5).
  result(5, 1, {seeds[12], seeds[15], seeds[1], seeds[5]}, true);
  auto t = b_.tournament();
  const auto places = final_order(t, game_);
  ASSERT_EQ(places.size(), 20u);
  std::vector<std::string> expected{seeds[12], seeds[15], seeds[1], seeds[5]};
  // Then the final tables' others: by place at their table, then seed — the second places
  // (seeds 1, 7, 11, 4), the third places (seeds 8, 10, 5 and, at table 3, seed 3: level on VP
  // with seed 14, the better seed is placed higher, S-5), then the fourth (9, 15, 12 and 14).
  for (int s : {1, 4, 7, 11, 3, 5, 8, 10, 9, 12, 14, 15}) expected.push_back(seeds[s - 1]);
  // Then those the cut left out, in the rounds stage's order (the dropped player among them).
  for (const auto& p : rounds_order) {
    if (std::find(expected.begin(), expected.end(), p) == expected.end()) expected.push_back(p);
  }
  EXPECT_EQ(places, expected);
  // No shared place in a final (S-5): places 1 … 20.
  json::object standings = projections::tournament_standings(t, game_);
  std::uint32_t n = 0;
  for (const auto& row : standings.at("final").as_array())
    EXPECT_EQ(row.at("place"), json::value(++n));
}

TEST_F(CatanFinalTables, S9_TheSnakeSwapsAKeptApartPlayerWithinTheRowAndSaysSo) {
  for (std::uint32_t round = 1; round <= 3; ++round) play_round(round);
  auto cut = decide(b_.tournament(), game_, StartStage{}, kOrganizer);
  const std::vector<std::string> seeds = cut.accepted().facts.players;
  apply(b_, cut);
  // Seeds 1 and 8 (table 1 by snake) and seeds 2 and 10 (table 2) are kept apart.
  for (const auto& pair : {std::vector<std::string>{seeds[0], seeds[7]},
                           std::vector<std::string>{seeds[1], seeds[9]}}) {
    b_.append(projections::tournament_stream("cup"), [&](schema::Event::Builder e) {
      auto list = e.getPayload().initKeptApart().initPlayers(2);
      list.set(0, pair[0]);
      list.set(1, pair[1]);
      e.setReason("family");
    });
  }
  auto tables = decide(b_.tournament(), game_, StartStage{}, kOrganizer);
  ASSERT_FALSE(tables.refused());
  const auto& seated = tables.accepted().facts.tables;
  const auto t = b_.tournament();
  for (const auto& table : seated) {
    for (const auto& a : table.players) {
      for (const auto& b : table.players)
        EXPECT_FALSE(a != b && t.kept_apart(a, b)) << a << " " << b;
    }
  }
  // Seed 8, the last of its row, changes places with seed 7 (table 2); seed 10 with seed 11, the
  // next of its row.
  EXPECT_EQ(seated[0].players, (std::vector<std::string>{seeds[0], seeds[6], seeds[8], seeds[15]}));
  EXPECT_EQ(seated[1].players,
            (std::vector<std::string>{seeds[1], seeds[7], seeds[10], seeds[14]}));
  EXPECT_EQ(seated[2].players, (std::vector<std::string>{seeds[2], seeds[5], seeds[9], seeds[13]}));
  const auto& swaps = tables.accepted().facts.swaps;
  ASSERT_EQ(swaps.size(), 2u);
  EXPECT_EQ(swaps[0], (std::pair{seeds[6], seeds[7]}));
  EXPECT_EQ(swaps[1], (std::pair{seeds[9], seeds[10]}));
}

TEST_F(CatanFinalTables, S2_AStageStartsOnlyAfterTheRoundsStageUnlessForcedWithAReason) {
  play_round(1);
  play_round(2);
  const Refusal r = refusal_of(decide(b_.tournament(), game_, StartStage{}, kOrganizer));
  EXPECT_EQ(r.kind, RefusalKind::conflict);
  EXPECT_EQ(r.errors.at(0).message.key, "stages.rounds_to_play");
  StartStage forced{true, "the hall closes at six"};
  auto d = decide(b_.tournament(), game_, forced, kOrganizer);
  ASSERT_FALSE(d.refused());
  EXPECT_TRUE(
      d.accepted().append.events.front().reader().getPayload().getStageStarted().getForced());
  EXPECT_EQ(std::string(d.accepted().append.events.front().reader().getReason().cStr()),
            "the hall closes at six");
}

TEST_F(CatanFinalTables, S3_ACutThatCannotBeFilledIsRefused) {
  for (std::uint32_t round = 1; round <= 3; ++round) play_round(round);
  for (int i = 1; i <= 5; ++i) b_.drop(id(i));
  const Refusal r = refusal_of(decide(b_.tournament(), game_, StartStage{}, kOrganizer));
  EXPECT_EQ(r.kind, RefusalKind::unprocessable);
  EXPECT_EQ(r.errors.at(0).rule, "S-3");
}

TEST(StagesDecider, ATournamentWithoutStagesHasNoneToStart) {
  auto catan = projections::catan::make_catan_game();
  const projections::Game& game = *catan;
  TournamentBuilder b("cup", "catan", "", {});
  const Refusal r = refusal_of(decide(b.tournament(), game, StartStage{}, kOrganizer));
  EXPECT_EQ(r.kind, RefusalKind::conflict);
  EXPECT_EQ(r.message.key, "stages.none");
}

// --- AGoT: 18 players, a final table of six
// -------------------------------------------------------

// Plays an AGoT table: the game's automatic picks, then a result in seat order (place i + 1).
void play_agot_table(TournamentBuilder& b, const projections::Game& game, std::uint32_t round,
                     const projections::SeatedTable& table) {
  projections::agot::testing::auto_picks(b, game, round, table.number);
  auto t = b.tournament();
  std::vector<projections::agot::testing::Line> lines;
  for (const auto* pick : t.table(round, table.number)->of_kind(Which::HOUSE_PICK)) {
    auto p = pick->payload().getHousePick();
    projections::agot::testing::Line line;
    line.player = p.getPlayer().cStr();
    line.house = std::string(projections::agot::house_id(p.getHouse()));
    lines.push_back(line);
  }
  std::sort(lines.begin(), lines.end(), [&](const auto& x, const auto& y) {
    auto seat = [&](const std::string& p) {
      return std::find(table.players.begin(), table.players.end(), p) - table.players.begin();
    };
    return seat(x.player) < seat(y.player);
  });
  for (std::size_t i = 0; i < lines.size(); ++i) {
    lines[i].place = static_cast<int>(i) + 1;
    lines[i].castles = 6 - static_cast<int>(i);
  }
  ASSERT_EQ(projections::agot::testing::enter(b, game, round, table.number, Which::AGOT_RESULT,
                                              projections::agot::testing::result_body(lines)),
            projections::RuleErrors{});
}

TEST(StagesDecider, AnEighteenPlayerAgotEventSeatsItsFinalTableOfSixWithG1AndG2Honoured) {
  auto agot = projections::agot::make_agot_game();
  const projections::Game& game = *agot;
  json::object rules{{"stages", json::array{json::object{{"kind", "rounds"}, {"rounds", 3}},
                                            json::object{{"kind", "cut"}, {"top", 6}},
                                            json::object{{"kind", "final"}}}}};
  TournamentBuilder b = staged(game, rules, 18);

  for (std::uint32_t round = 1; round <= 3; ++round) {
    SeatRound seat;
    seat.request.seed = 5 * round;
    apply(b, decide(b.tournament(), game, seat, kOrganizer));
    const auto seated = b.tournament();
    for (const auto& table : seated.round(round)->tables) play_agot_table(b, game, round, table);
  }
  const auto order = standings_order(b.tournament(), game);
  apply(b, decide(b.tournament(), game, StartStage{}, kOrganizer));
  auto final_table = decide(b.tournament(), game, StartStage{}, kOrganizer);
  ASSERT_FALSE(final_table.refused());
  ASSERT_EQ(final_table.accepted().facts.tables.size(), 1u);
  EXPECT_EQ(final_table.accepted().facts.tables[0].players,
            std::vector<std::string>(order.begin(), order.begin() + 6));
  apply(b, final_table);

  // After three rounds each finalist has three houses left (G-2): the picks give each of them
  // one of those, six different ones (G-1).
  play_agot_table(b, game, 4, b.tournament().round(4)->tables[0]);
  auto t = b.tournament();
  std::set<std::string> houses;
  for (const auto* pick : t.table(4, 1)->of_kind(Which::HOUSE_PICK)) {
    auto p = pick->payload().getHousePick();
    const std::string player = p.getPlayer().cStr();
    houses.insert(std::string(projections::agot::house_id(p.getHouse())));
    for (std::uint32_t round = 1; round <= 3; ++round) {
      for (const auto& table : t.round(round)->tables) {
        if (std::find(table.players.begin(), table.players.end(), player) == table.players.end())
          continue;
        for (const auto* earlier : t.table(round, table.number)->of_kind(Which::HOUSE_PICK)) {
          if (earlier->payload().getHousePick().getPlayer().cStr() == player) {
            EXPECT_NE(earlier->payload().getHousePick().getHouse(), p.getHouse())
                << player << " plays a house again (G-2)";
          }
        }
      }
    }
  }
  EXPECT_EQ(houses.size(), 6u);  // G-1
  // The final's places are final places 1–6; then the rounds stage's standings.
  const auto places = final_order(t, game);
  ASSERT_EQ(places.size(), 18u);
  const auto& seated = t.round(4)->tables[0].players;
  EXPECT_EQ(std::vector<std::string>(places.begin(), places.begin() + 6), seated);
  EXPECT_EQ(std::vector<std::string>(places.begin() + 6, places.end()),
            std::vector<std::string>(order.begin() + 6, order.end()));
}

}  // namespace
}  // namespace tally::deciders
