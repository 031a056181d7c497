// AutoActions' decider without a process (AGoT's automatic house picks, agot.md §2): every
// refusal — no such automatic action, the game cannot complete the table, nothing left — and
// the picks it decides, folded back so that every player at the table has a house.
#include "deciders/auto_actions.hpp"

#include "projections/agot/agot_game.hpp"
#include "projections/agot/houses.hpp"
#include "projections/catan/catan_game.hpp"
#include "tests/deciders/support.hpp"

#include <gtest/gtest.h>

#include <set>

namespace tally::deciders {
namespace {

namespace json = boost::json;
using tally::testing::TournamentBuilder;
using testing::apply;
using testing::kJudge;
using testing::kOrganizer;
using testing::refusal_of;
using Which = schema::Event::Payload::Which;

class AutoActionsDecider : public ::testing::Test {
 protected:
  // "got": six players seated at one table of round 1 by the game's own seating.
  AutoActionsDecider() {
    for (int i = 1; i <= 6; ++i) b.player("p" + std::to_string(i), "P" + std::to_string(i));
    auto seating =
        game->seat_round(b.tournament(), projections::SeatingRequest{1, std::nullopt, 7});
    EXPECT_TRUE(seating);
    if (seating) b.seat(seating.value->tables, seating.value->method, seating.value->seed);
  }
  Decision<> auto_(std::string action = "picks", std::string table = "1",
                   const Actor& actor = kJudge) const {
    auto t = b.tournament();
    return decide(&t, game.get(), AutoActions{{"got", "1", std::move(table)}, std::move(action)},
                  actor);
  }
  json::object extras() const {
    auto t = b.tournament();
    const auto* table = t.table(1, 1);
    return game->table_extras(t, table ? *table : projections::blank_table(1, 1));
  }

  std::unique_ptr<projections::Game> game = projections::agot::make_agot_game();
  TournamentBuilder b{"got", "agot"};
};

TEST_F(AutoActionsDecider, PicksTheHousesLeftForThePlayersWithoutOne) {
  // The first in pick order picks by hand; the game completes the other five.
  const auto order = extras().at("pick_order").as_array();
  ASSERT_EQ(order.size(), 6u);
  const std::string first(order[0].as_string());
  const std::string house(extras().at("pickable").at(first).at(0).as_string());
  b.action(1, 1, Which::HOUSE_PICK, json::object{{"player", first}, {"house", house}});
  auto decision = auto_();
  ASSERT_FALSE(decision.refused()) << decision.refusal().message;
  const Append& append = decision.accepted().append;
  EXPECT_EQ(append.stream, projections::table_stream("got", 1, 1));
  EXPECT_TRUE(append.expected.accepts(1));
  EXPECT_FALSE(append.expected.accepts(2));
  ASSERT_EQ(append.events.size(), 5u);
  std::set<std::string> players;
  for (const auto& draft : append.events) {
    auto e = draft.reader();
    ASSERT_EQ(e.getPayload().which(), Which::HOUSE_PICK);
    players.insert(e.getPayload().getHousePick().getPlayer().cStr());
    EXPECT_NE(projections::agot::house_id(e.getPayload().getHousePick().getHouse()), house);
    EXPECT_EQ(std::string(e.getAuthor().cStr()), "j1");
  }
  EXPECT_EQ(players.size(), 5u);
  EXPECT_EQ(players.count(first), 0u);
  apply(b, decision);
  // Every player has a house, six different ones; nothing is left to pick.
  auto houses = extras().at("houses").as_object();
  ASSERT_EQ(houses.size(), 6u);
  std::set<std::string> distinct;
  for (const auto& [player, h] : houses) distinct.insert(std::string(h.as_string()));
  EXPECT_EQ(distinct.size(), 6u);
  EXPECT_EQ(houses.at(first), json::value(house));
}

TEST_F(AutoActionsDecider, NothingLeftToCompleteIsAConflict) {
  apply(b, auto_("picks", "1", kOrganizer));
  EXPECT_EQ(refusal_of(auto_()),
            (Refusal{RefusalKind::conflict, i18n::Message("api.table.all_have_houses")}));
}

TEST_F(AutoActionsDecider, ATableWithAResultCannotBeCompletedByTheGame) {
  // Any result in effect (the builder checks only the schema): no picks after it.
  json::array lines;
  int place = 1;
  const json::array order = extras().at("pick_order").as_array();
  for (const auto& p : order) {
    lines.push_back(
        json::object{{"player", p},
                     {"house", projections::agot::house_id(projections::agot::kHouses[place - 1])},
                     {"place", place},
                     {"castles", 0},
                     {"capitals_captured", json::array{}},
                     {"capitals_held", 0},
                     {"lands_captured", 0},
                     {"winner", place == 1}});
    ++place;
  }
  b.action(1, 1, Which::AGOT_RESULT, json::object{{"players", std::move(lines)}});
  EXPECT_EQ(refusal_of(auto_()),
            (Refusal{RefusalKind::unprocessable,
                     i18n::Message("api.table.cannot_complete"),
                     {{"pick", "", "", i18n::Message("agot.pick.table_has_result")}}}));
}

TEST_F(AutoActionsDecider, AnActionThatIsNotAutomaticOrNoTableIsNotFound) {
  EXPECT_EQ(
      refusal_of(auto_("result")),
      (Refusal{RefusalKind::not_found, i18n::Message("api.table.no_auto_action",
                                                     {{"game", "agot"}, {"action", "result"}})}));
  EXPECT_EQ(
      refusal_of(auto_("houses")),
      (Refusal{RefusalKind::not_found, i18n::Message("api.table.no_auto_action",
                                                     {{"game", "agot"}, {"action", "houses"}})}));
  EXPECT_EQ(refusal_of(auto_("picks", "2")),
            (Refusal{RefusalKind::not_found,
                     i18n::Message("api.table.not_found", {{"table", "2"}, {"round", "1"}})}));
  EXPECT_EQ(
      refusal_of(decide(nullptr, game.get(), AutoActions{{"gone", "1", "1"}, "picks"}, kJudge)),
      (Refusal{RefusalKind::not_found,
               i18n::Message("api.tournament.not_found", {{"id", "gone"}})}));
  // Catan has no automatic action at all: its claims are entered one by one.
  auto catan = projections::catan::make_catan_game();
  TournamentBuilder c("cup", "catan");
  for (const char* p : {"a", "b", "c", "d"}) c.player(p, p);
  c.seat({{"a", "b", "c", "d"}});
  auto t = c.tournament();
  EXPECT_EQ(
      refusal_of(decide(&t, catan.get(), AutoActions{{"cup", "1", "1"}, "claims"}, kJudge)),
      (Refusal{RefusalKind::not_found, i18n::Message("api.table.no_auto_action",
                                                     {{"game", "catan"}, {"action", "claims"}})}));
}

}  // namespace
}  // namespace tally::deciders
