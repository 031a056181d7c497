// CloseRound's decider without a process: every refusal and the event it decides, on
// tournaments folded from events the way the projections' tests build them, the event folded
// back (decide → evolve).
#include "deciders/close_round.hpp"

#include "tests/deciders/support.hpp"
#include "tests/projections/catan/fixtures.hpp"

#include <gtest/gtest.h>

namespace tally::deciders {
namespace {

namespace json = boost::json;
using projections::catan::testing::body;
using projections::catan::testing::clear_order;
using projections::catan::testing::Which;
using tally::testing::TournamentBuilder;
using testing::apply;
using testing::kOrganizer;
using testing::refusal_of;

class CloseRoundDecider : public ::testing::Test {
 protected:
  // "cup": players a–h at two tables of round 1, `rules` as given.
  static TournamentBuilder two_tables(const json::object& rules = {}) {
    TournamentBuilder b("cup", "catan", "", rules);
    for (const char* p : {"a", "b", "c", "d", "e", "f", "g", "h"}) b.player(p, p);
    b.seat({{"a", "b", "c", "d"}, {"e", "f", "g", "h"}});
    return b;
  }
  static void report(TournamentBuilder& b, std::uint32_t round, std::uint32_t table,
                     const std::vector<std::string>& seats) {
    auto sheets = clear_order();
    for (std::size_t i = 0; i < sheets.size(); ++i) sheets[i]["player"] = seats[i];
    b.action(round, table, Which::CATAN_RESULT, body(sheets));
  }
  static void report_round_1(TournamentBuilder& b) {
    report(b, 1, 1, {"a", "b", "c", "d"});
    report(b, 1, 2, {"e", "f", "g", "h"});
  }
  Decision<> decide_on(const TournamentBuilder& b, std::string round,
                       std::optional<bool> final = std::nullopt, bool force = false,
                       std::string reason = "") const {
    auto t = b.tournament();
    return decide(&t, game.get(), CloseRound{{"cup", std::move(round)}, final, force, reason},
                  kOrganizer);
  }
  static schema::RoundClosed::Reader closed_event(const Decision<>& decision) {
    return decision.accepted().append.events.at(0).reader().getPayload().getRoundClosed();
  }

  std::unique_ptr<projections::Game> game = projections::catan::make_catan_game();
};

TEST_F(CloseRoundDecider, ClosesTheNewestFullyReportedRoundOnTheTournamentsVersion) {
  auto b = two_tables({{"rounds", 3}});
  report_round_1(b);
  auto decision = decide_on(b, "1");
  ASSERT_FALSE(decision.refused()) << decision.refusal().message.key;
  const Append& append = decision.accepted().append;
  EXPECT_EQ(append.stream, projections::tournament_stream("cup"));
  EXPECT_TRUE(append.expected.accepts(b.tournament().version));
  EXPECT_FALSE(append.expected.accepts(b.tournament().version + 1));
  ASSERT_EQ(append.events.size(), 1u);
  // Round 1 of 3 planned: not the final one unless the organizer says so.
  EXPECT_EQ(closed_event(decision).getRound(), 1u);
  EXPECT_FALSE(closed_event(decision).getFinal());
  EXPECT_EQ(std::string(append.events[0].reader().getAuthor().cStr()), "organizer");
  EXPECT_TRUE(closed_event(decide_on(b, "1", true)).getFinal());
  // Folded back: the round is closed.
  apply(b, decision);
  EXPECT_TRUE(b.tournament().round(1)->closed);
}

TEST_F(CloseRoundDecider, TheLastPlannedRoundIsFinalUnlessTheOrganizerSaysOtherwise) {
  auto b = two_tables({{"rounds", 1}});
  report_round_1(b);
  EXPECT_TRUE(closed_event(decide_on(b, "1")).getFinal());
  EXPECT_FALSE(closed_event(decide_on(b, "1", false)).getFinal());
  // Without `rules.rounds` no round is the last planned one.
  auto unplanned = two_tables();
  report_round_1(unplanned);
  EXPECT_FALSE(closed_event(decide_on(unplanned, "1")).getFinal());
}

TEST_F(CloseRoundDecider, ARoundNotSeatedOrNotANumberIsNotFoundAsThePathNamesIt) {
  auto b = two_tables();
  EXPECT_EQ(
      refusal_of(decide_on(b, "2")),
      (Refusal{RefusalKind::not_found,
               i18n::Message("api.round.not_found", {{"round", "2"}, {"tournament", "cup"}})}));
  EXPECT_EQ(refusal_of(decide_on(b, "1x")).message,
            i18n::Message("api.round.not_found", {{"round", "1x"}, {"tournament", "cup"}}));
  // No tournament at all.
  EXPECT_EQ(refusal_of(decide(nullptr, nullptr, CloseRound{{"gone", "1"}}, kOrganizer)),
            (Refusal{RefusalKind::not_found,
                     i18n::Message("api.tournament.not_found", {{"id", "gone"}})}));
}

TEST_F(CloseRoundDecider, OnlyTheNewestRoundCloses) {
  auto b = two_tables();
  report_round_1(b);
  b.seat({{"a", "e", "b", "f"}, {"c", "g", "d", "h"}});
  EXPECT_EQ(refusal_of(decide_on(b, "1", std::nullopt, true, "late")),
            (Refusal{RefusalKind::conflict,
                     i18n::Message("api.round.close_not_last", {{"round", 1}, {"last", 2}})}));
}

TEST_F(CloseRoundDecider, AClosedRoundIsNotClosedTwice) {
  auto b = two_tables();
  report_round_1(b);
  apply(b, decide_on(b, "1"));
  EXPECT_EQ(
      refusal_of(decide_on(b, "1", std::nullopt, true, "again")),
      (Refusal{RefusalKind::conflict, i18n::Message("api.round.closed_already", {{"round", 1}})}));
}

TEST_F(CloseRoundDecider, UnreportedTablesAreRefusedByNumberUnlessForcedWithAReason) {
  auto b = two_tables();
  report(b, 1, 1, {"a", "b", "c", "d"});
  const Refusal refusal = refusal_of(decide_on(b, "1"));
  EXPECT_EQ(refusal.kind, RefusalKind::conflict);
  EXPECT_EQ(refusal.message,
            i18n::Message("api.round.close_unreported", {{"round", 1}, {"count", 1}}));
  ASSERT_EQ(refusal.errors.size(), 1u);
  EXPECT_EQ(refusal.errors[0].rule, "round.unreported");
  EXPECT_EQ(refusal.errors[0].field, "force");
  EXPECT_EQ(refusal.errors[0].extra, (json::object{{"tables", json::array{2}}}));
  EXPECT_EQ(refusal.errors[0].message,
            i18n::Message("api.seating.previous_unreported", {{"tables", "2"}}));
  // Forced: closed as it stands, the reason on the event.
  auto forced = decide_on(b, "1", std::nullopt, true, "table 2 left");
  ASSERT_FALSE(forced.refused());
  EXPECT_EQ(std::string(forced.accepted().append.events[0].reader().getReason().cStr()),
            "table 2 left");
}

}  // namespace
}  // namespace tally::deciders
