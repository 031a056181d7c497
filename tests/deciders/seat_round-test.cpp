// SeatRound's decider without a process (Catan's seating): every refusal — the last round's
// unreported tables (rule `round.unreported`) unless forced, the game's own refusals — and the
// `round_seated` it decides, folded back as the next round.
#include "deciders/seat_round.hpp"

#include "schema/text.hpp"
#include "tests/deciders/support.hpp"
#include "tests/projections/catan/fixtures.hpp"

#include <gtest/gtest.h>

namespace tally::deciders {
namespace {

namespace json = boost::json;
using projections::SeatingRequest;
using projections::catan::testing::body;
using projections::catan::testing::clear_order;
using projections::catan::testing::Which;
using schema::SeatingMethod;
using tally::testing::TournamentBuilder;
using testing::apply;
using testing::kOrganizer;
using testing::refusal_of;

using schema::text;

class SeatRoundDecider : public ::testing::Test {
 protected:
  static TournamentBuilder eight_players(const json::object& rules = {}) {
    TournamentBuilder b("cup", "catan", "", rules);
    for (const char* p : {"a", "b", "c", "d", "e", "f", "g", "h"}) b.player(p, p);
    return b;
  }
  static void report(TournamentBuilder& b, std::uint32_t table,
                     const std::vector<std::string>& seats) {
    auto sheets = clear_order();
    for (std::size_t i = 0; i < sheets.size(); ++i) sheets[i]["player"] = seats[i];
    b.action(1, table, Which::CATAN_RESULT, body(sheets));
  }
  Decision<SeatingFacts> seat(const TournamentBuilder& b, SeatRound command) const {
    return decide(b.tournament(), *game, command, kOrganizer);
  }
  static SeatRound random(std::uint64_t seed) {
    return SeatRound{SeatingRequest{0, SeatingMethod::RANDOM, seed, {}, ""}};
  }

  std::unique_ptr<projections::Game> game = projections::catan::make_catan_game();
};

TEST_F(SeatRoundDecider, TheFirstRoundIsDrawnAndAppendedAtTheTournamentsVersion) {
  auto b = eight_players();
  auto t = b.tournament();
  auto decision = seat(b, random(42));
  ASSERT_FALSE(decision.refused()) << decision.refusal().message;
  const Append& append = decision.accepted().append;
  EXPECT_EQ(append.stream, projections::tournament_stream("cup"));
  EXPECT_TRUE(append.expected.accepts(t.version));
  EXPECT_FALSE(append.expected.accepts(t.version + 1));
  ASSERT_EQ(append.events.size(), 1u);
  auto e = append.events[0].reader();
  ASSERT_EQ(e.getPayload().which(), Which::ROUND_SEATED);
  auto seated = e.getPayload().getRoundSeated();
  EXPECT_EQ(seated.getRound(), 1u);
  EXPECT_EQ(seated.getMethod(), SeatingMethod::RANDOM);
  EXPECT_EQ(seated.getSeed(), 42u);
  EXPECT_FALSE(seated.getForced());
  EXPECT_EQ(text(e.getAuthor()), "organizer");
  // The event says what the facts (the preview) show: two tables of four.
  const auto& tables = decision.accepted().facts.seating.tables;
  ASSERT_EQ(tables.size(), 2u);
  ASSERT_EQ(seated.getTables().size(), 2u);
  for (unsigned i = 0; i < 2; ++i) {
    EXPECT_EQ(seated.getTables()[i].getTable(), tables[i].number);
    ASSERT_EQ(seated.getTables()[i].getPlayers().size(), 4u);
    for (unsigned j = 0; j < 4; ++j)
      EXPECT_EQ(text(seated.getTables()[i].getPlayers()[j]), tables[i].players[j]);
  }
  apply(b, decision);
  auto after = b.tournament();
  ASSERT_EQ(after.rounds.size(), 1u);
  ASSERT_NE(after.round(1), nullptr);
  EXPECT_EQ(after.round(1)->tables.size(), 2u);
  EXPECT_EQ(after.round(1)->tables[0].players, tables[0].players);
  EXPECT_EQ(after.next_round(), 2u);
}

TEST_F(SeatRoundDecider, AManualSeatingKeepsTheTablesAndTheReasonWithoutASeed) {
  auto b = eight_players();
  SeatRound command{SeatingRequest{0,
                                   SeatingMethod::MANUAL,
                                   7,
                                   {{"a", "c", "e", "g"}, {"b", "d", "f", "h"}},
                                   "families apart"},
                    false, "families apart"};
  auto decision = seat(b, command);
  ASSERT_FALSE(decision.refused()) << decision.refusal().message;
  auto e = decision.accepted().append.events.at(0).reader();
  EXPECT_EQ(e.getPayload().getRoundSeated().getMethod(), SeatingMethod::MANUAL);
  EXPECT_EQ(e.getPayload().getRoundSeated().getSeed(), 0u);
  EXPECT_EQ(text(e.getReason()), "families apart");
  apply(b, decision);
  EXPECT_EQ(b.tournament().round(1)->tables[1].players,
            (std::vector<std::string>{"b", "d", "f", "h"}));
}

// Rule `round.unreported`: the next round only once the last is fully reported.
TEST_F(SeatRoundDecider, UnreportedTablesOfTheLastRoundAreAConflictNamingThem) {
  auto b = eight_players();
  b.seat({{"a", "b", "c", "d"}, {"e", "f", "g", "h"}});
  report(b, 1, {"a", "b", "c", "d"});
  EXPECT_EQ(refusal_of(seat(b, random(1))),
            (Refusal{RefusalKind::conflict,
                     i18n::Message("api.seating.unreported", {{"round", 1}, {"count", 1}}),
                     {{"round.unreported", "", "force",
                       i18n::Message("api.seating.previous_unreported", {{"tables", "2"}}),
                       json::object{{"tables", json::array{2}}}}}}));
  // Forced with a reason: seated, the event says so.
  SeatRound forced = random(1);
  forced.force = true;
  forced.reason = "table 2 left early";
  auto decision = seat(b, forced);
  ASSERT_FALSE(decision.refused()) << decision.refusal().message;
  auto e = decision.accepted().append.events.at(0).reader();
  EXPECT_EQ(e.getPayload().getRoundSeated().getRound(), 2u);
  EXPECT_TRUE(e.getPayload().getRoundSeated().getForced());
  EXPECT_EQ(text(e.getReason()), "table 2 left early");
  apply(b, decision);
  EXPECT_EQ(b.tournament().rounds.size(), 2u);
}

TEST_F(SeatRoundDecider, TheGamesSeatingRefusalsAreUnprocessable) {
  // Catan: no round beyond `rules.rounds`.
  auto b = eight_players({{"rounds", 1}});
  b.seat({{"a", "b", "c", "d"}, {"e", "f", "g", "h"}});
  report(b, 1, {"a", "b", "c", "d"});
  report(b, 2, {"e", "f", "g", "h"});
  EXPECT_EQ(
      refusal_of(seat(b, random(1))),
      (Refusal{RefusalKind::unprocessable,
               i18n::Message("api.seating.refused"),
               {{"seating", "", "",
                 i18n::Message("catan.seating.beyond_rounds", {{"round", 2}, {"rounds", 1}})}}}));
  // Catan: tables are given only for a manual seating.
  auto fresh = eight_players();
  SeatRound with_tables = random(1);
  with_tables.request.tables = {{"a", "b", "c", "d"}, {"e", "f", "g", "h"}};
  EXPECT_EQ(
      refusal_of(seat(fresh, with_tables)),
      (Refusal{RefusalKind::unprocessable,
               i18n::Message("api.seating.refused"),
               {{"seating", "", "tables", i18n::Message("catan.seating.tables_only_manual")}}}));
}

}  // namespace
}  // namespace tally::deciders
