// The Carcassonne Game through the interface the daemon uses: rules, table actions (scorings and
// results), table results, describe_action, standings, notices, the calculator — and a whole
// 16-player, 5-round Swiss event.
#include "projections/carcassonne/carcassonne_game.hpp"

#include "projections/rational.hpp"
#include "tests/support/messages.hpp"
#include "tests/support/tournament_builder.hpp"

#include <gtest/gtest.h>
#include <boost/json.hpp>

#include <map>
#include <random>
#include <set>
#include <tuple>

namespace tally::projections::carcassonne {
namespace {

using tally::testing::english;

using projections::RuleErrors;
using tally::testing::TournamentBuilder;
using Which = schema::Event::Payload::Which;
namespace json = boost::json;

const projections::Game& game() {
  static const auto g = make_carcassonne_game();
  return *g;
}

json::value parse(std::string_view text) { return json::parse(text); }

json::object scoring_body(std::string_view event) { return json::object{{"event", parse(event)}}; }

json::object result_body(const std::vector<std::pair<std::string, int>>& scores) {
  json::array players;
  for (const auto& [p, s] : scores) players.push_back(json::object{{"player", p}, {"score", s}});
  return json::object{{"players", players}};
}

RuleErrors check(TournamentBuilder& b, std::uint32_t round, std::uint32_t table, Which kind,
                 const json::value& body, std::uint64_t supersedes = 0) {
  auto t = b.tournament();
  auto proposed = b.proposed(kind, body, supersedes, supersedes != 0 ? "fix" : "");
  const auto* state = t.table(round, table);
  projections::TableState empty{round, table, 0, {}};
  return game().check_action(t, state != nullptr ? *state : empty,
                             proposed->getRoot<schema::Event>().asReader());
}

// The result as the answer to a write carries it (written as text) must be byte for byte the
// result as every read shows it (built as an object, then serialized); nullopt agrees with false.
void expect_written_result_is_the_object(const projections::Tournament& t,
                                         const projections::TableState& table) {
  std::string text;
  tally::text::JsonWriter writer(text);
  bool written = game().write_table_result(writer, t, table);
  auto object = game().table_result(t, table);
  ASSERT_EQ(written, object.has_value()) << "table " << table.round << "/" << table.table;
  if (object) {
    EXPECT_EQ(text, json::serialize(*object));
  }
}

bool has_rule(const RuleErrors& errors, std::string_view rule, std::string_view player = {}) {
  return std::any_of(errors.begin(), errors.end(), [&](const projections::RuleError& e) {
    return e.rule == rule && (player.empty() || e.player == player);
  });
}

// Records a checked action (the daemon refuses what check_action refuses).
std::uint64_t record(TournamentBuilder& b, std::uint32_t round, std::uint32_t table, Which kind,
                     const json::value& body, std::uint64_t supersedes = 0) {
  auto errors = check(b, round, table, kind, body, supersedes);
  EXPECT_TRUE(errors.empty()) << errors.front().rule << ": " << errors.front().message;
  return b.action(round, table, kind, body, supersedes, supersedes != 0 ? "fix" : "");
}

TournamentBuilder two_player_cup() {
  TournamentBuilder b("cup", "carcassonne", "cs");
  b.player("p1", "Jana").player("p2", "Petr").player("p3", "Eva").player("p4", "Čeněk");
  b.seat({{"p1", "p2"}, {"p3", "p4"}});
  return b;
}

// --- Rules ---------------------------------------------------------------------------------------

TEST(Rules, DefaultsOverridesAndRefusals) {
  auto defaults = game().normalize_rules({});
  ASSERT_TRUE(defaults);
  EXPECT_EQ(defaults.value->at("edition"), "C3");
  EXPECT_EQ(defaults.value->at("buildings_variant"), false);
  EXPECT_EQ(defaults.value->at("table_size"), 2);
  EXPECT_EQ(json::serialize(defaults.value->at("round_points")), R"([5,3,2,1,"1/2",0])");
  auto c2 =
      game().normalize_rules({{"edition", "C2"}, {"round_points", json::array{6, 4, "5/2", 1}}});
  ASSERT_TRUE(c2);
  EXPECT_EQ(c2.value->at("edition"), "C2");
  EXPECT_EQ(json::serialize(c2.value->at("round_points")), R"([6,4,"5/2",1])");
  auto bad = game().normalize_rules(
      {{"edition", "C4"}, {"table_size", 7}, {"pigs", true}, {"round_points", json::array{1, 3}}});
  ASSERT_FALSE(bad);
  for (auto key : {"edition", "table_size", "pigs", "round_points"}) {
    EXPECT_TRUE(std::any_of(bad.errors.begin(), bad.errors.end(), [&](const auto& e) {
      return e.rule == "rules" && e.field == key;
    })) << key;
  }
}

TEST(Game, IdKindsAndCalculator) {
  EXPECT_EQ(game().id(), "carcassonne");
  EXPECT_EQ(game().result_kind(), Which::CARCASSONNE_RESULT);
  EXPECT_TRUE(game().accepts(Which::CARCASSONNE_SCORING));
  EXPECT_FALSE(game().accepts(Which::CLAIMED_WIN));
  EXPECT_FALSE(game().accepts(Which::HOUSE_PICK));
  auto out = game().calculate(parse(R"({"feature":"city","complete":true,"tiles":3,"pennants":1,
      "figures":[{"player":"red","figure":"follower"}]})")
                                  .as_object(),
                              {});
  ASSERT_TRUE(out);
  EXPECT_EQ(json::serialize(out.value->at("points")), R"({"red":8})");
  EXPECT_EQ(json::serialize(out.value->at("lines")),
            R"([{"player":"red","rule":"city.tile","count":3,"points":6},)"
            R"({"player":"red","rule":"city.pennant","count":1,"points":2}])");
  // The calculator uses the rules it is given: a Leipzig long road is 1 tile in C2.
  auto c2 = game().calculate(parse(R"({"feature":"road","complete":true,
      "tile_detail":{"leipzig_long_roads":1},"figures":[{"player":"red","figure":"follower"}]})")
                                 .as_object(),
                             {{"edition", "C2"}});
  EXPECT_EQ(json::serialize(c2.value->at("points")), R"({"red":1})");
  auto refused = game().calculate(parse(R"({"feature":"road","complete":true,"tiles":3,
      "modifiers":{"mage":true,"witch":true}})")
                                      .as_object(),
                                  {});
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.errors[0].rule, "D-3");
}

// --- Scorings at a table -------------------------------------------------------------------------

TEST(Scorings, NameTheTablesPlayersAndDescribeTheRunningTotals) {
  auto b = two_player_cup();
  auto first =
      record(b, 1, 1, Which::CARCASSONNE_SCORING, scoring_body(R"({"feature":"city","complete":true,
      "tiles":4,"pennants":1,"figures":[{"player":"p1","figure":"follower"}]})"));
  auto second =
      record(b, 1, 1, Which::CARCASSONNE_SCORING, scoring_body(R"({"feature":"road","complete":true,
      "tiles":3,"figures":[{"player":"p2","figure":"follower"}],"robbers":[{"player":"p1","robs":"p2"}]})"));
  auto t = b.tournament();
  const auto* table = t.table(1, 1);
  ASSERT_NE(table, nullptr);
  auto d1 = game().describe_action(t, *table, table->actions[0]);
  EXPECT_EQ(json::serialize(d1.at("points")), R"({"p1":10})");
  EXPECT_EQ(json::serialize(d1.at("totals")), R"({"p1":10,"p2":0})");
  auto d2 = game().describe_action(t, *table, table->actions[1]);
  // p2 scores 3; p1's robber takes ceil(3 / 2) = 2.
  EXPECT_EQ(json::serialize(d2.at("points")), R"({"p2":3,"p1":2})");
  EXPECT_EQ(json::serialize(d2.at("totals")), R"({"p1":12,"p2":3})");
  EXPECT_EQ(d2.at("lines").as_array().size(), 2u);
  EXPECT_EQ(json::serialize(game().table_extras(t, *table).at("totals")), R"({"p1":12,"p2":3})");
  EXPECT_FALSE(game().table_result(t, *table).has_value());  // scorings alone: still open
  (void)first;
  (void)second;
}

TEST(Scorings, AreRefusedForUnseatedPlayersAndEngineErrors) {
  auto b = two_player_cup();
  auto errors =
      check(b, 1, 1, Which::CARCASSONNE_SCORING, scoring_body(R"({"feature":"road","complete":true,
      "tiles":3,"figures":[{"player":"p3","figure":"follower"}],"bonuses":{"teacher":"red"}})"));
  EXPECT_TRUE(has_rule(errors, "player", "p3"));
  EXPECT_TRUE(has_rule(errors, "player", "red"));
  EXPECT_TRUE(std::any_of(errors.begin(), errors.end(), [](const auto& e) {
    return e.player == "red" && e.field == "bonuses.teacher";
  }));
  auto engine = check(b, 1, 1, Which::CARCASSONNE_SCORING,
                      scoring_body(R"({"feature":"road","complete":true,"tiles":-1})"));
  EXPECT_TRUE(has_rule(engine, "tiles"));
}

TEST(Scorings, ATowerRansomMayNotTakeThePayerBelowZero) {
  auto b = two_player_cup();
  record(b, 1, 1, Which::CARCASSONNE_SCORING,
         scoring_body(R"({"event":"jubilee_arrow","player":"p1"})"));
  auto ransom = scoring_body(R"({"event":"tower_ransom","payer":"p1","captor":"p2"})");
  EXPECT_TRUE(has_rule(check(b, 1, 1, Which::CARCASSONNE_SCORING, ransom), "tower_ransom", "p1"));
  record(b, 1, 1, Which::CARCASSONNE_SCORING,
         scoring_body(R"({"event":"jubilee_arrow","player":"p1"})"));
  EXPECT_TRUE(check(b, 1, 1, Which::CARCASSONNE_SCORING, ransom).empty());
}

TEST(Scorings, ACorrectionTakesThePlaceOfTheScoringItReplaces) {
  auto b = two_player_cup();
  auto wrong = record(b, 1, 1, Which::CARCASSONNE_SCORING,
                      scoring_body(R"({"event":"payday","player":"p1","followers":1})"));
  record(b, 1, 1, Which::CARCASSONNE_SCORING,
         scoring_body(R"({"event":"compass_rose","player":"p1"})"));
  // The payday was 3 followers: 6, not 2.
  record(b, 1, 1, Which::CARCASSONNE_SCORING,
         scoring_body(R"({"event":"payday","player":"p1","followers":3})"), wrong);
  auto t = b.tournament();
  const auto* table = t.table(1, 1);
  ASSERT_EQ(table->actions.size(), 2u);
  // The corrected payday stands first: after it p1 has 6, after the compass rose 9.
  const projections::Action* corrected = &table->actions[1];
  ASSERT_EQ(corrected->envelope().getSupersedes(), wrong);
  EXPECT_EQ(json::serialize(game().describe_action(t, *table, *corrected).at("totals")),
            R"({"p1":6,"p2":0})");
  EXPECT_EQ(json::serialize(game().describe_action(t, *table, table->actions[0]).at("totals")),
            R"({"p1":9,"p2":0})");
  // A void withdraws a scoring.
  b.void_event(1, 1, table->actions[0].seq(), "entered twice");
  auto t2 = b.tournament();
  EXPECT_EQ(json::serialize(game().table_extras(t2, *t2.table(1, 1)).at("totals")),
            R"({"p1":6,"p2":0})");
}

// --- Results -------------------------------------------------------------------------------------

TEST(Results, MustNameExactlyTheSeatedPlayers) {
  auto b = two_player_cup();
  auto errors =
      check(b, 1, 1, Which::CARCASSONNE_RESULT, result_body({{"p1", 80}, {"p1", 70}, {"p3", 60}}));
  EXPECT_TRUE(has_rule(errors, "players", "p1"));  // twice
  EXPECT_TRUE(has_rule(errors, "players", "p3"));  // not seated here
  EXPECT_TRUE(has_rule(errors, "players", "p2"));  // missing
}

TEST(Results, MustAgreeWithTheRecordedScoringsNamingEachPlayerWhoseTotalDiffers) {
  auto b = two_player_cup();
  record(b, 1, 1, Which::CARCASSONNE_SCORING,
         scoring_body(R"({"feature":"road","complete":true,"tiles":5,
      "figures":[{"player":"p1","figure":"follower"},{"player":"p2","figure":"follower"}]})"));
  auto errors = check(b, 1, 1, Which::CARCASSONNE_RESULT, result_body({{"p1", 6}, {"p2", 4}}));
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_TRUE(has_rule(errors, "totals", "p1"));
  EXPECT_TRUE(has_rule(errors, "totals", "p2"));
  EXPECT_EQ(errors[0].field, "players[0].score");
  EXPECT_NE(english(errors[0].message).find("5"), std::string::npos);
  EXPECT_TRUE(
      check(b, 1, 1, Which::CARCASSONNE_RESULT, result_body({{"p1", 5}, {"p2", 5}})).empty());
}

TEST(Results, AfterALaterScoringChangeANoticeAsksToCorrectTheResult) {
  auto b = two_player_cup();
  record(b, 1, 1, Which::CARCASSONNE_SCORING,
         scoring_body(R"({"event":"compass_rose","player":"p1"})"));
  record(b, 1, 1, Which::CARCASSONNE_RESULT, result_body({{"p1", 3}, {"p2", 0}}));
  EXPECT_TRUE(game().notices(b.tournament()).empty());
  record(b, 1, 1, Which::CARCASSONNE_SCORING,
         scoring_body(R"({"event":"jubilee_arrow","player":"p2"})"));
  auto t = b.tournament();
  auto notices = game().notices(t);
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_NE(english(notices[0]).find("p2"), std::string::npos);
  EXPECT_EQ(json::serialize(game().table_extras(t, *t.table(1, 1)).at("disagree")), R"(["p2"])");
}

TEST(Results, WinDrawLossAndTheBye) {
  TournamentBuilder b("cup", "carcassonne");
  b.player("p1", "A").player("p2", "B").player("p3", "C").player("p4", "D").player("p5", "E");
  b.seat({{"p1", "p2"}, {"p3", "p4"}, {"p5"}});
  record(b, 1, 1, Which::CARCASSONNE_RESULT, result_body({{"p1", 92}, {"p2", 87}}));
  record(b, 1, 2, Which::CARCASSONNE_RESULT, result_body({{"p3", 70}, {"p4", 70}}));
  auto t = b.tournament();
  EXPECT_EQ(json::serialize(*game().table_result(t, *t.table(1, 1))),
            R"({"players":[{"player":"p1","score":92,"place":"1","points":{"value":1,"exact":"1"},)"
            R"("lines":[{"rule":"win","points":{"value":1,"exact":"1"}}]},)"
            R"({"player":"p2","score":87,"place":"2","points":{"value":0,"exact":"0"},)"
            R"("lines":[{"rule":"loss","points":{"value":0,"exact":"0"}}]}]})");
  auto draw = *game().table_result(t, *t.table(1, 2));
  EXPECT_EQ(draw.at("players").as_array()[0].at("place"), "1=");
  EXPECT_EQ(draw.at("players").as_array()[1].at("points").at("exact"), "1/2");
  EXPECT_EQ(draw.at("players").as_array()[1].at("lines").as_array()[0].at("rule"), "draw");
  // The bye: reported without an entry, a win with score 0; nothing may be entered there.
  projections::TableState bye_state{1, 3, 0, {}};
  auto bye = game().table_result(t, bye_state);
  ASSERT_TRUE(bye.has_value());
  EXPECT_EQ(bye->at("players").as_array()[0].at("points").at("exact"), "1");
  EXPECT_EQ(bye->at("players").as_array()[0].at("lines").as_array()[0].at("rule"), "bye");
  EXPECT_TRUE(has_rule(check(b, 1, 3, Which::CARCASSONNE_RESULT, result_body({{"p5", 0}})), "bye"));
  expect_written_result_is_the_object(t, *t.table(1, 1));
  expect_written_result_is_the_object(t, *t.table(1, 2));
  expect_written_result_is_the_object(t, bye_state);
  expect_written_result_is_the_object(t, projections::TableState{1, 4, 0, {}});  // not seated
}

TEST(Results, LargerTablesGiveRoundPointsWithTiesSplit) {
  TournamentBuilder b("cup", "carcassonne", "", {{"table_size", 4}});
  b.player("p1", "A").player("p2", "B").player("p3", "C").player("p4", "D");
  b.seat({{"p1", "p2", "p3", "p4"}});
  record(b, 1, 1, Which::CARCASSONNE_RESULT,
         result_body({{"p1", 90}, {"p2", 80}, {"p3", 80}, {"p4", 40}}));
  auto t = b.tournament();
  auto r = *game().table_result(t, *t.table(1, 1));
  const auto& players = r.at("players").as_array();
  // 5 / (3 + 2) / 2 each / 1.
  EXPECT_EQ(players[0].at("points").at("exact"), "5");
  EXPECT_EQ(players[1].at("place"), "2=");
  EXPECT_EQ(players[1].at("points").at("exact"), "5/2");
  EXPECT_EQ(players[2].at("points").at("exact"), "5/2");
  EXPECT_EQ(players[3].at("points").at("exact"), "1");
  EXPECT_EQ(players[3].at("lines").as_array()[0].at("rule"), "place");
  expect_written_result_is_the_object(t, *t.table(1, 1));
  auto rows = game().standings(t).at("rows").as_array();
  EXPECT_TRUE(rows[0].as_object().contains("round_points"));
  EXPECT_FALSE(rows[0].as_object().contains("wins"));
  EXPECT_EQ(rows[1].at("round_points").at("exact"), "5/2");
  // Score difference: sum of own minus each opponent: p1 (90−80) + (90−80) + (90−40) = 70.
  EXPECT_EQ(rows[0].at("score_diff"), 70);
}

// --- Standings -----------------------------------------------------------------------------------

TEST(Standings, WinsThenBuchholzWithoutTheWeakestThenScoreDiffThenScoreThenName) {
  TournamentBuilder b("cup", "carcassonne", "cs");
  // Round 1: A beats B, C beats D, E beats F (big), G beats H.
  for (auto [id, name] : std::vector<std::pair<std::string, std::string>>{{"a", "Adam"},
                                                                          {"b", "Bára"},
                                                                          {"c", "Cyril"},
                                                                          {"d", "Dana"},
                                                                          {"e", "Emil"},
                                                                          {"f", "Filip"},
                                                                          {"g", "Gita"},
                                                                          {"h", "Hana"}}) {
    b.player(id, name);
  }
  b.seat({{"a", "b"}, {"c", "d"}, {"e", "f"}, {"g", "h"}});
  record(b, 1, 1, Which::CARCASSONNE_RESULT, result_body({{"a", 90}, {"b", 80}}));
  record(b, 1, 2, Which::CARCASSONNE_RESULT, result_body({{"c", 90}, {"d", 80}}));
  record(b, 1, 3, Which::CARCASSONNE_RESULT, result_body({{"e", 120}, {"f", 60}}));
  record(b, 1, 4, Which::CARCASSONNE_RESULT, result_body({{"g", 90}, {"h", 80}}));
  // Round 2: A beats C, E beats G, B beats D, H beats F.
  b.seat({{"a", "c"}, {"e", "g"}, {"b", "d"}, {"h", "f"}});
  record(b, 2, 1, Which::CARCASSONNE_RESULT, result_body({{"a", 100}, {"c", 90}}));
  record(b, 2, 2, Which::CARCASSONNE_RESULT, result_body({{"e", 100}, {"g", 90}}));
  record(b, 2, 3, Which::CARCASSONNE_RESULT, result_body({{"b", 85}, {"d", 75}}));
  record(b, 2, 4, Which::CARCASSONNE_RESULT, result_body({{"h", 70}, {"f", 65}}));
  auto rows = game().standings(b.tournament()).at("rows").as_array();
  std::vector<std::string> order;
  for (const auto& r : rows) order.emplace_back(r.at("player").as_string());
  // Two wins: a (opponents b 1, c 1; the weakest dropped: Buchholz 1) and e (f 0, g 1 → 1):
  // equal Buchholz; score difference a +20, e +70 → e first.
  // One win: b (a 2, d 0 → 2), c (d 0, a 2 → 2), g (h 1, e 2 → 2), h (g 1, f 0 → 1). b, c and g
  // tie on Buchholz 2 and on score difference 0; score b 165, c 180, g 180; c and g tie there
  // too and go by name: Cyril before Gita. Then h.
  // No wins: f (e 2, h 1 → 2) before d (c 1, b 1 → 1).
  EXPECT_EQ(order, (std::vector<std::string>{"e", "a", "c", "g", "b", "h", "f", "d"}));
  EXPECT_EQ(rows[0].at("wins").at("exact"), "2");
  EXPECT_EQ(rows[0].at("buchholz").at("exact"), "1");
  EXPECT_EQ(rows[0].at("score_diff"), 70);
  EXPECT_EQ(rows[0].at("score"), 220);
  EXPECT_EQ(rows[0].at("games"), 2);
  EXPECT_EQ(rows[0].at("rank"), 1);
  EXPECT_EQ(rows[7].at("rank"), 8);
}

// --- A whole event -------------------------------------------------------------------------------

TEST(WholeEvent, SixteenPlayersFiveRoundsOfSwiss) {
  TournamentBuilder b("open", "carcassonne", "cs");
  std::vector<std::string> ids;
  for (int i = 1; i <= 16; ++i) {
    ids.push_back("p" + std::to_string(i));
    b.player(ids.back(), "Hráč " + std::to_string(100 + i));
  }
  // Player strength decides most games (with a few upsets and draws from a fixed generator).
  std::mt19937_64 luck(2026);
  std::set<std::pair<std::string, std::string>> met;
  std::map<std::string, int> starts;
  for (std::uint32_t round = 1; round <= 5; ++round) {
    projections::SeatingRequest request;
    request.round = round;
    request.seed = round == 1 ? 4242 : 0;
    auto seating = game().seat_round(b.tournament(), request);
    ASSERT_TRUE(seating) << seating.errors.front().message;
    EXPECT_EQ(seating.value->method,
              round == 1 ? schema::SeatingMethod::RANDOM : schema::SeatingMethod::STANDINGS);
    ASSERT_EQ(seating.value->tables.size(), 8u);
    std::map<std::string, int> starts_before = starts;
    for (const auto& table : seating.value->tables) {
      ASSERT_EQ(table.players.size(), 2u);
      auto pair = std::minmax(table.players[0], table.players[1]);
      EXPECT_FALSE(met.contains(pair)) << "rematch in round " << round;
      met.insert(pair);
      // The starting player has started no more games than the other.
      EXPECT_LE(starts_before[table.players[0]], starts_before[table.players[1]]);
      ++starts[table.players[0]];
    }
    b.seat(seating.value->tables, seating.value->method, seating.value->seed);
    for (const auto& table : seating.value->tables) {
      const auto& a = table.players[0];
      const auto& c = table.players[1];
      int strength_a = std::stoi(a.substr(1)), strength_c = std::stoi(c.substr(1));
      int score_a = 60 + 2 * strength_a + static_cast<int>(luck() % 25);
      int score_c = 60 + 2 * strength_c + static_cast<int>(luck() % 25);
      if (table.number == 3 && round == 2) score_c = score_a;  // one draw
      if (table.number % 2 == 0) {
        // Half the tables keep the audit trail: the scores come from recorded scorings.
        record(b, round, table.number, Which::CARCASSONNE_SCORING,
               scoring_body(R"({"event":"payday","player":")" + a + R"(","followers":)" +
                            std::to_string(score_a / 2) + "}"));
        if (score_a % 2 == 1) {
          record(b, round, table.number, Which::CARCASSONNE_SCORING,
                 scoring_body(R"({"event":"fairy_turn_start","player":")" + a + R"("})"));
        }
        record(b, round, table.number, Which::CARCASSONNE_SCORING,
               scoring_body(R"({"event":"shepherd","player":")" + c + R"(","sheep":)" +
                            std::to_string(score_c) + "}"));
      }
      record(b, round, table.number, Which::CARCASSONNE_RESULT,
             result_body({{a, score_a}, {c, score_c}}));
    }
  }
  auto t = b.tournament();
  for (const auto& [key, table] : t.tables) {
    EXPECT_TRUE(game().table_result(t, table).has_value()) << key.first << "/" << key.second;
    expect_written_result_is_the_object(t, table);
  }
  EXPECT_TRUE(game().notices(t).empty());
  int all_starts = 0;
  for (const auto& id : ids) all_starts += starts[id];
  EXPECT_EQ(all_starts, 40);  // one starting player per game
  auto rows = game().standings(t).at("rows").as_array();
  ASSERT_EQ(rows.size(), 16u);
  Rational total_wins(0);
  std::int64_t total_diff = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i].as_object();
    EXPECT_EQ(r.at("rank"), static_cast<std::int64_t>(i + 1));
    EXPECT_EQ(r.at("games"), 5);
    total_wins += Rational::parse(std::string(r.at("wins").at("exact").as_string()));
    total_diff += r.at("score_diff").as_int64();
    if (i == 0) continue;
    // Best first: wins, then Buchholz, then score difference, then score.
    const auto& prev = rows[i - 1].as_object();
    auto key = [](const json::object& o) {
      return std::make_tuple(Rational::parse(std::string(o.at("wins").at("exact").as_string())),
                             Rational::parse(std::string(o.at("buchholz").at("exact").as_string())),
                             o.at("score_diff").as_int64(), o.at("score").as_int64());
    };
    EXPECT_GE(key(prev), key(r)) << "row " << i;
  }
  EXPECT_EQ(total_wins, Rational(40));  // 8 games × 5 rounds, a draw splitting one
  EXPECT_EQ(total_diff, 0);
  // The strongest players end on top: p16 and p15 among the first four.
  std::vector<std::string> top;
  for (std::size_t i = 0; i < 4; ++i) top.emplace_back(rows[i].at("player").as_string());
  EXPECT_NE(std::find(top.begin(), top.end(), "p16"), top.end());
}

// Refusals as a judge reads them: players by name, numbers in the language's way.
TEST(Results, RefusalsInEveryLanguage) {
  auto b = two_player_cup();
  record(b, 1, 1, Which::CARCASSONNE_SCORING,
         scoring_body(R"({"feature":"road","complete":true,"tiles":5,
      "figures":[{"player":"p1","figure":"follower"},{"player":"p2","figure":"follower"}]})"));
  auto errors = check(b, 1, 1, Which::CARCASSONNE_RESULT, result_body({{"p1", 6}, {"p2", 5}}));
  ASSERT_EQ(errors.size(), 1u);
  const std::map<std::string, std::string> names = {{"p1", "Jana Nováková"}};
  auto in = [&](i18n::Lang lang) {
    return tally::testing::rendered(errors[0].message, lang, names);
  };
  EXPECT_EQ(in(i18n::Lang::en),
            "the recorded scorings total 5 for Jana Nováková, the result says 6");
  EXPECT_EQ(in(i18n::Lang::cs),
            "Jana Nováková: zaznamenaná hodnocení dávají celkem 5, výsledek uvádí 6");
  EXPECT_EQ(in(i18n::Lang::it),
            "i punteggi registrati danno a Jana Nováková un totale di 5, il risultato dice 6");
  EXPECT_EQ(in(i18n::Lang::ru),
            "по записанным подсчётам у игрока Jana Nováková 5, а в результате — 6");

  // An event's refusal: the vocabulary's names stay as the JSON has them, the prose is translated,
  // numbers are grouped in the language's way.
  auto refused = check(b, 1, 1, Which::CARCASSONNE_SCORING,
                       scoring_body(R"({"feature":"city","complete":true,"tiles":3,
                         "modifiers":{"inn":true}, "pennants":100000})"));
  ASSERT_EQ(refused.size(), 2u);
  EXPECT_EQ(tally::testing::rendered(refused[0].message, i18n::Lang::cs),
            "smí být nejvýše 10\u00a0000");
  EXPECT_EQ(tally::testing::rendered(refused[0].message, i18n::Lang::it),
            "deve essere al massimo 10.000");
  EXPECT_EQ(english(refused[1].message),
            "\"inn\" does not apply to feature \"city\" (it applies to: road, german_cathedral)");
  EXPECT_EQ(tally::testing::rendered(refused[1].message, i18n::Lang::ru),
            "\"inn\" не относится к объекту \"city\" (относится к: road, german_cathedral)");
}

TEST(Seating, RefusalsInEveryLanguage) {
  TournamentBuilder b("cup", "carcassonne", "cs");
  b.player("p1", "Jana").player("p2", "Petr").player("p3", "Eva");
  projections::SeatingRequest request;
  request.round = 1;
  request.method = schema::SeatingMethod::MANUAL;
  request.tables = {{"p1", "p1"}};
  auto out = game().seat_round(b.tournament(), request);
  ASSERT_FALSE(out);
  const std::map<std::string, std::string> names = {{"p1", "Jana"}, {"p2", "Petr"}, {"p3", "Eva"}};
  std::vector<std::string> ru, cs;
  for (const auto& e : out.errors) {
    ru.push_back(tally::testing::rendered(e.message, i18n::Lang::ru, names));
    cs.push_back(tally::testing::rendered(e.message, i18n::Lang::cs, names));
  }
  EXPECT_EQ(
      ru, (std::vector<std::string>{"Jana встречается в рассадке дважды",
                                    "Petr отсутствует в рассадке", "Eva отсутствует в рассадке"}));
  EXPECT_EQ(cs, (std::vector<std::string>{"Jana je v nasazení dvakrát", "Petr v nasazení není",
                                          "Eva v nasazení není"}));
}

}  // namespace
}  // namespace tally::projections::carcassonne
