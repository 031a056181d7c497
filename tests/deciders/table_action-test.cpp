// TableAction's decider without a process: every refusal in the order the header gives them
// (not found, the result's preconditions, the correction's reason, the schema, the game's
// rules) and the events it decides — a first result, its correction, a claim (Catan), a house
// pick (AGoT) — each folded back to check what the tournament became.
#include "deciders/table_action.hpp"

#include "projections/agot/agot_game.hpp"
#include "projections/agot/houses.hpp"
#include "projections/carcassonne/carcassonne_game.hpp"
#include "schema/iso_time.hpp"
#include "schema/text.hpp"
#include "tests/deciders/support.hpp"
#include "tests/projections/catan/fixtures.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace tally::deciders {
namespace {

namespace json = boost::json;
using projections::catan::testing::clear_order;
using projections::catan::testing::sheet;
using projections::catan::testing::Which;
using tally::testing::TournamentBuilder;
using testing::apply;
using testing::kJudge;
using testing::kOrganizer;
using testing::refusal_of;

using schema::text;
using testing::result_body;

// The judges' names as a refusal shows them.
std::string name_of(std::string_view author) {
  return author == "j1" ? "Eva" : std::string(author);
}

class TableActionDecider : public ::testing::Test {
 protected:
  TableActionDecider() {
    for (const char* p : {"a", "b", "c", "d", "e", "f", "g", "h"}) b.player(p, p);
    b.seat({{"a", "b", "c", "d"}, {"e", "f", "g", "h"}});
  }
  static TableAction command(std::string action, json::object body, std::string table = "1",
                             std::string round = "1") {
    TableAction c;
    c.table = {"cup", std::move(round), std::move(table)};
    c.action = std::move(action);
    c.body = std::make_shared<const json::object>(std::move(body));
    return c;
  }
  static TableAction result(const std::vector<std::string>& seats, std::string reason = "") {
    TableAction c = command("result", result_body(seats));
    c.reason = std::move(reason);
    return c;
  }
  Decision<TableActionFacts> decide_on(const TableAction& c, const Actor& actor = kJudge) const {
    auto t = b.tournament();
    FoundTable found;
    return decide(&t, game.get(), c, actor, name_of, found);
  }
  std::string leader() const {
    return std::string(game->standings(b.tournament()).at("rows").at(0).at("player").as_string());
  }

  std::unique_ptr<projections::Game> game = projections::catan::make_catan_game();
  TournamentBuilder b{"cup", "catan"};
};

TEST_F(TableActionDecider, AFirstResultIsAppendedToItsTableAtVersionZero) {
  TableAction c = result({"a", "b", "c", "d"});
  c.first_entry = true;  // If-None-Match: *
  auto decision = decide_on(c);
  ASSERT_FALSE(decision.refused()) << decision.refusal().message;
  const Append& append = decision.accepted().append;
  EXPECT_EQ(append.stream, projections::table_stream("cup", 1, 1));
  EXPECT_TRUE(append.expected.accepts(0));
  EXPECT_FALSE(append.expected.accepts(1));
  EXPECT_FALSE(decision.accepted().facts.replaces_result);
  ASSERT_EQ(append.events.size(), 1u);
  auto e = append.events[0].reader();
  ASSERT_EQ(e.getPayload().which(), Which::CATAN_RESULT);
  auto players = e.getPayload().getCatanResult().getPlayers();
  ASSERT_EQ(players.size(), 4u);
  EXPECT_EQ(text(players[0].getPlayer()), "a");
  EXPECT_EQ(players[0].getCities(), 3);
  EXPECT_EQ(e.getSupersedes(), 0u);
  EXPECT_EQ(text(e.getAuthor()), "j1");
  EXPECT_EQ(text(e.getReason()), "");
  apply(b, decision);
  auto t = b.tournament();
  ASSERT_NE(t.table(1, 1), nullptr);
  ASSERT_NE(t.table(1, 1)->result(), nullptr);
  EXPECT_TRUE(game->table_result(t, *t.table(1, 1)).has_value());
  EXPECT_EQ(leader(), "a");
}

TEST_F(TableActionDecider, ACorrectionReplacesTheResultAndItsStandings) {
  std::uint64_t first = apply(b, decide_on(result({"a", "b", "c", "d"})));
  ASSERT_EQ(leader(), "a");
  TableAction c = result({"d", "c", "b", "a"}, "sheets swapped");
  c.expected_version = 1;  // If-Match: "1"
  auto decision = decide_on(c, kOrganizer);
  ASSERT_FALSE(decision.refused()) << decision.refusal().message;
  const Append& append = decision.accepted().append;
  EXPECT_TRUE(append.expected.accepts(1));
  EXPECT_FALSE(append.expected.accepts(2));
  EXPECT_TRUE(decision.accepted().facts.replaces_result);
  auto e = append.events.at(0).reader();
  EXPECT_EQ(e.getSupersedes(), first);
  EXPECT_EQ(text(e.getReason()), "sheets swapped");
  EXPECT_EQ(text(e.getAuthor()), "organizer");
  apply(b, decision);
  auto t = b.tournament();
  EXPECT_EQ(t.table(1, 1)->result()->seq(), b.last_seq());
  EXPECT_EQ(t.table(1, 1)->of_kind(Which::CATAN_RESULT).size(), 1u);
  EXPECT_EQ(leader(), "d");
}

TEST_F(TableActionDecider, AClaimIsAppendedAndFoldedBack) {
  auto decision = decide_on(command("claims", {{"player", "f"}}, "2"));
  ASSERT_FALSE(decision.refused()) << decision.refusal().message;
  const Append& append = decision.accepted().append;
  EXPECT_EQ(append.stream, projections::table_stream("cup", 1, 2));
  EXPECT_TRUE(append.expected.accepts(0));
  EXPECT_FALSE(append.expected.accepts(1));
  EXPECT_FALSE(decision.accepted().facts.replaces_result);
  ASSERT_EQ(append.events.size(), 1u);
  auto e = append.events[0].reader();
  ASSERT_EQ(e.getPayload().which(), Which::CLAIMED_WIN);
  EXPECT_EQ(text(e.getPayload().getClaimedWin().getPlayer()), "f");
  EXPECT_EQ(e.getSupersedes(), 0u);
  EXPECT_EQ(text(e.getAuthor()), "j1");
  apply(b, decision);
  auto after = b.tournament();
  auto claims = after.table(1, 2)->of_kind(Which::CLAIMED_WIN);
  ASSERT_EQ(claims.size(), 1u);
  EXPECT_EQ(text(claims[0]->payload().getClaimedWin().getPlayer()), "f");
  // Catan C-11: f has claimed already.
  const Refusal twice = refusal_of(decide_on(command("claims", {{"player", "f"}}, "2")));
  ASSERT_EQ(twice.errors.size(), 1u);
  EXPECT_EQ(twice.errors[0].rule, "C-11");
  EXPECT_EQ(twice.errors[0].message,
            i18n::Message("catan.C-11.already_claimed", {{"player", i18n::PlayerRef{"f"}},
                                                         {"event", std::to_string(b.last_seq())}}));
}

// What a check (…/check) and a proposal show: the tournament as the event would leave it, the
// tournament itself untouched.
TEST_F(TableActionDecider, ACheckShowsTheTableAsTheActionWouldLeaveIt) {
  auto t = b.tournament();
  FoundTable found;
  auto decision = decide(&t, game.get(), result({"a", "b", "c", "d"}), kJudge, name_of, found);
  ASSERT_FALSE(decision.refused());
  EXPECT_EQ(found.seated->players, (std::vector<std::string>{"a", "b", "c", "d"}));
  auto shown = tournament_with(found, decision.accepted().append.events[0].reader(), 99);
  EXPECT_EQ(shown.last_seq, 99u);
  ASSERT_NE(shown.table(1, 1), nullptr);
  ASSERT_NE(shown.table(1, 1)->result(), nullptr);
  EXPECT_EQ(shown.table(1, 1)->result()->seq(), 99u);
  EXPECT_TRUE(game->table_result(shown, *shown.table(1, 1)).has_value());
  EXPECT_EQ(t.table(1, 1), nullptr);
}

TEST_F(TableActionDecider, NoTournamentRoundTableOrActionIsNotFound) {
  auto t = b.tournament();
  FoundTable found;
  EXPECT_EQ(
      refusal_of(decide(nullptr, game.get(), result({"a", "b", "c", "d"}), kJudge, name_of, found)),
      (Refusal{RefusalKind::not_found,
               i18n::Message("api.tournament.not_found", {{"id", "cup"}})}));
  auto in_round_2 = result({"a", "b", "c", "d"});
  in_round_2.table.round = "2";
  EXPECT_EQ(
      refusal_of(decide_on(in_round_2)),
      (Refusal{RefusalKind::not_found,
               i18n::Message("api.round.not_found", {{"round", "2"}, {"tournament", "cup"}})}));
  EXPECT_EQ(refusal_of(decide_on(command("result", {}, "3"))),
            (Refusal{RefusalKind::not_found,
                     i18n::Message("api.table.not_found", {{"table", "3"}, {"round", "1"}})}));
  EXPECT_EQ(
      refusal_of(decide_on(command("picks", {{"player", "a"}, {"house", "stark"}}))),
      (Refusal{RefusalKind::not_found,
               i18n::Message("api.table.no_action", {{"game", "catan"}, {"action", "picks"}})}));
}

TEST_F(TableActionDecider, AFirstEntryOverAResultIsAPreconditionNamingWhoAndWhen) {
  apply(b, decide_on(result({"a", "b", "c", "d"})));  // by j1, Eva
  const auto recorded = b.events().back().event().getRecordedAt();
  TableAction c = result({"a", "b", "c", "d"});
  c.first_entry = true;
  EXPECT_EQ(
      refusal_of(decide_on(c)),
      (Refusal{
          RefusalKind::precondition,
          i18n::Message("api.table.already_entered",
                        {{"judge", "Eva"}, {"time", schema::iso_time(recorded)}, {"version", "1"}}),
          {},
          1}));
}

TEST_F(TableActionDecider, AnIfMatchOfAnotherVersionIsAPreconditionCarryingTheCurrentVersion) {
  TableAction c = result({"a", "b", "c", "d"});
  c.expected_version = 3;
  EXPECT_EQ(refusal_of(decide_on(c)),
            (Refusal{RefusalKind::precondition,
                     i18n::Message("api.table.version_moved", {{"now", "0"}, {"expected", "3"}}),
                     {},
                     0}));
  apply(b, decide_on(result({"a", "b", "c", "d"})));
  c.reason = "typo";
  c.expected_version = 0;
  EXPECT_EQ(refusal_of(decide_on(c)).current_version, std::optional<std::uint64_t>(1));
}

TEST_F(TableActionDecider, ACorrectionOfAResultNeedsAReason) {
  apply(b, decide_on(result({"a", "b", "c", "d"})));
  EXPECT_EQ(refusal_of(decide_on(result({"d", "c", "b", "a"}))),
            (Refusal{RefusalKind::unprocessable,
                     i18n::Message("api.correction.result_needs_reason"),
                     {{"reason", "", "reason", i18n::Message("api.correction.say_why")}}}));
  // A proposal needs none yet: the approving judge gives it.
  TableAction proposal = result({"d", "c", "b", "a"});
  proposal.proposal = true;
  EXPECT_FALSE(decide_on(proposal).refused());
}

TEST_F(TableActionDecider, AnActionSupersedingAnotherNeedsAReason) {
  std::uint64_t claimed = b.action(1, 1, Which::CLAIMED_WIN, json::object{{"player", "a"}});
  TableAction c = command("claims", {{"player", "b"}});
  c.supersedes = claimed;
  EXPECT_EQ(refusal_of(decide_on(c)),
            (Refusal{RefusalKind::unprocessable,
                     i18n::Message("api.correction.invalid"),
                     {{"reason", "", "reason", i18n::Message("api.correction.needs_reason")}}}));
  // With a reason: it replaces the claim.
  c.reason = "b claimed, not a";
  auto decision = decide_on(c);
  ASSERT_FALSE(decision.refused()) << decision.refusal().message;
  EXPECT_EQ(decision.accepted().append.events.at(0).reader().getSupersedes(), claimed);
  EXPECT_TRUE(decision.accepted().append.expected.accepts(1));
  apply(b, decision);
  auto after = b.tournament();
  auto claims = after.table(1, 1)->of_kind(Which::CLAIMED_WIN);
  ASSERT_EQ(claims.size(), 1u);
  EXPECT_EQ(text(claims[0]->payload().getClaimedWin().getPlayer()), "b");
}

TEST_F(TableActionDecider, ABodyNotFittingTheSchemaIsUnprocessableAtItsPath) {
  EXPECT_EQ(refusal_of(decide_on(command("result", {}))),
            (Refusal{RefusalKind::unprocessable,
                     i18n::Message("api.table.result_fields"),
                     {{"schema", "", "players", i18n::Message("json.required"),
                       json::object{{"path", "players"}}}}}));
  EXPECT_EQ(refusal_of(decide_on(command("claims", {{"player", "a"}, {"seat", 2}}))),
            (Refusal{RefusalKind::unprocessable,
                     i18n::Message("api.table.request_fields"),
                     {{"schema", "a", "seat", i18n::Message("json.not_a_field"),
                       json::object{{"path", "seat"}}}}}));
}

// Catan C-1 (settlements 0–5) for a result; C-0 (the claimant sits at the table) for a claim.
TEST_F(TableActionDecider, TheGamesRulesRefuseEachRuleBrokenWithItsId) {
  auto body = result_body({"a", "b", "c", "d"});
  body["players"].as_array()[2].as_object()["settlements"] = 6;
  const Refusal refused = refusal_of(decide_on(command("result", body)));
  EXPECT_EQ(refused.kind, RefusalKind::unprocessable);
  EXPECT_EQ(refused.message, i18n::Message("api.table.result_breaks_rules"));
  const RefusalError c1{
      "C-1", "c", "settlements",
      i18n::Message("catan.range.between", {{"field", i18n::Term{"catan.settlements"}},
                                            {"min", 0},
                                            {"max", 5},
                                            {"player", i18n::PlayerRef{"c"}},
                                            {"count", 6}})};
  EXPECT_NE(std::find(refused.errors.begin(), refused.errors.end(), c1), refused.errors.end());
  EXPECT_EQ(
      refusal_of(decide_on(command("claims", {{"player", "e"}}))),
      (Refusal{RefusalKind::unprocessable,
               i18n::Message("api.table.refused_by_rules"),
               {{"C-0", "e", "player",
                 i18n::Message("catan.C-0.claimant_not_seated",
                               {{"player", i18n::PlayerRef{"e"}}, {"table", 1}, {"round", 1}})}}}));
}

// AGoT: a house pick is a table action of its own game (agot.md §2).
TEST(TableActionDeciderAgot, AHousePickIsAppendedAndTheHouseIsTaken) {
  auto game = projections::agot::make_agot_game();
  TournamentBuilder b("got", "agot");
  for (int i = 1; i <= 6; ++i) b.player("p" + std::to_string(i), "P" + std::to_string(i));
  auto seating = game->seat_round(b.tournament(), projections::SeatingRequest{1, std::nullopt, 7});
  ASSERT_TRUE(seating);
  b.seat(seating.value->tables, seating.value->method, seating.value->seed);
  auto t = b.tournament();
  auto extras = game->table_extras(t, projections::blank_table(1, 1));
  const std::string first(extras.at("pick_order").at(0).as_string());
  const std::string house(extras.at("pickable").at(first).at(0).as_string());
  TableAction c;
  c.table = {"got", "1", "1"};
  c.action = "picks";
  c.body = std::make_shared<const json::object>(json::object{{"player", first}, {"house", house}});
  FoundTable found;
  auto decision = decide(&t, game.get(), c, kJudge, name_of, found);
  ASSERT_FALSE(decision.refused()) << decision.refusal().message;
  const Append& append = decision.accepted().append;
  EXPECT_EQ(append.stream, projections::table_stream("got", 1, 1));
  EXPECT_TRUE(append.expected.accepts(0));
  ASSERT_EQ(append.events.size(), 1u);
  auto e = append.events[0].reader();
  ASSERT_EQ(e.getPayload().which(), Which::HOUSE_PICK);
  EXPECT_EQ(text(e.getPayload().getHousePick().getPlayer()), first);
  EXPECT_EQ(projections::agot::house_id(e.getPayload().getHousePick().getHouse()), house);
  EXPECT_EQ(text(e.getAuthor()), "j1");
  apply(b, decision);
  auto after = b.tournament();
  auto houses = game->table_extras(after, *after.table(1, 1)).at("houses").as_object();
  EXPECT_EQ(houses.at(first), json::value(house));
  // The same house again for the next player: taken (AGoT G-1), the houses still free offered.
  const std::string second(extras.at("pick_order").at(1).as_string());
  c.body = std::make_shared<const json::object>(json::object{{"player", second}, {"house", house}});
  FoundTable again;
  const Refusal refused = refusal_of(decide(&after, game.get(), c, kJudge, name_of, again));
  EXPECT_EQ(refused.kind, RefusalKind::unprocessable);
  EXPECT_EQ(refused.message, i18n::Message("api.table.refused_by_rules"));
  ASSERT_EQ(refused.errors.size(), 1u);
  EXPECT_EQ(refused.errors[0].rule, "G-1");
  EXPECT_EQ(refused.errors[0].player, second);
  EXPECT_EQ(refused.errors[0].field, "house");
  EXPECT_EQ(refused.errors[0].message.key, "agot.pick.taken");
  ASSERT_TRUE(refused.errors[0].extra.contains("accepted"));
  const auto& accepted = refused.errors[0].extra.at("accepted").as_array();
  EXPECT_FALSE(accepted.empty());
  EXPECT_EQ(std::find(accepted.begin(), accepted.end(), json::value(house)), accepted.end());
}

// Carcassonne: a scoring's body is the scoring itself, wrapped into the payload's `event`.
TEST(TableActionDeciderCarcassonne, AScoringIsAppendedAndCountsInTheTotals) {
  auto game = projections::carcassonne::make_carcassonne_game();
  TournamentBuilder b("cup", "carcassonne");
  b.player("p1", "Jana").player("p2", "Petr").player("p3", "Eva").player("p4", "Cenek");
  b.seat({{"p1", "p2"}, {"p3", "p4"}});
  auto scoring = [](std::string_view event) {
    TableAction c;
    c.table = {"cup", "1", "1"};
    c.action = "scorings";
    c.body = std::make_shared<const json::object>(json::parse(event).as_object());
    return c;
  };
  auto t = b.tournament();
  FoundTable found;
  auto decision =
      decide(&t, game.get(), scoring(R"({"feature":"city","complete":true,"tiles":4,"pennants":1,
                                     "figures":[{"player":"p1","figure":"follower"}]})"),
             kJudge, name_of, found);
  ASSERT_FALSE(decision.refused()) << decision.refusal().message;
  const Append& append = decision.accepted().append;
  EXPECT_EQ(append.stream, projections::table_stream("cup", 1, 1));
  EXPECT_TRUE(append.expected.accepts(0));
  EXPECT_FALSE(append.expected.accepts(1));
  ASSERT_EQ(append.events.size(), 1u);
  EXPECT_EQ(append.events[0].reader().getPayload().which(), Which::CARCASSONNE_SCORING);
  EXPECT_EQ(text(append.events[0].reader().getAuthor()), "j1");
  apply(b, decision);
  auto after = b.tournament();
  EXPECT_EQ(json::serialize(game->table_extras(after, *after.table(1, 1)).at("totals")),
            R"({"p1":10,"p2":0})");
  // A figure of a player not at the table: the game's rule `player`.
  FoundTable again;
  const Refusal refused =
      refusal_of(decide(&after, game.get(), scoring(R"({"feature":"road","complete":true,"tiles":3,
                                    "figures":[{"player":"p3","figure":"follower"}]})"),
                        kJudge, name_of, again));
  EXPECT_EQ(refused.kind, RefusalKind::unprocessable);
  EXPECT_EQ(refused.message, i18n::Message("api.table.refused_by_rules"));
  EXPECT_TRUE(std::any_of(refused.errors.begin(), refused.errors.end(),
                          [](const auto& e) { return e.rule == "player" && e.player == "p3"; }));
}

}  // namespace
}  // namespace tally::deciders
