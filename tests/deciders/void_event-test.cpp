// VoidEvent's decider and rule `void` without a process: every refusal (not found, forbidden,
// and the unprocessable ones at field `seq`) and the void it decides, the target read from the
// builder's log as the daemon reads it from the store, the void folded back.
#include "deciders/void_event.hpp"

#include "tests/deciders/support.hpp"
#include "tests/projections/catan/fixtures.hpp"

#include <gtest/gtest.h>

namespace tally::deciders {
namespace {

using projections::catan::testing::body;
using projections::catan::testing::clear_order;
using projections::catan::testing::Which;
using tally::testing::TournamentBuilder;
using testing::apply;
using testing::kJudge;
using testing::kOrganizer;
using testing::refusal_of;

class VoidEventDecider : public ::testing::Test {
 protected:
  VoidEventDecider() {
    for (const char* p : {"a", "b", "c", "d", "e", "f", "g", "h"}) b.player(p, p);
    seating_1 = (b.seat({{"a", "b", "c", "d"}, {"e", "f", "g", "h"}}), b.last_seq());
  }
  // The event at `seq` in the builder's log, as the store would give it.
  std::optional<schema::Event::Reader> at(std::uint64_t seq) const {
    if (seq == 0 || seq > b.events().size()) return std::nullopt;
    return b.events()[seq - 1].event();
  }
  Decision<> void_(std::uint64_t seq, const Actor& actor = kOrganizer,
                   std::string reason = "entered by mistake") const {
    auto t = b.tournament();
    return decide(&t, at(seq), VoidEvent{"cup", seq, std::move(reason)}, actor);
  }
  std::uint64_t claim(std::uint32_t table, const std::string& player) {
    return b.action(1, table, Which::CLAIMED_WIN, boost::json::object{{"player", player}});
  }
  std::uint64_t result(std::uint32_t table) {
    return b.action(1, table, Which::CATAN_RESULT, body(clear_order()));
  }
  static Refusal unprocessable(const char* key, const char* field_key) {
    return Refusal{RefusalKind::unprocessable,
                   i18n::Message(key),
                   {{"void", "", "seq", i18n::Message(field_key)}}};
  }

  TournamentBuilder b{"cup", "catan"};
  std::uint64_t seating_1 = 0;
};

TEST_F(VoidEventDecider, AClaimInEffectIsVoidedOnItsTablesStreamAndIsGone) {
  std::uint64_t claimed = claim(1, "a");
  claim(1, "b");
  auto t = b.tournament();
  const std::uint64_t table_version = t.table(1, 1)->version;
  ASSERT_EQ(table_version, 2u);
  EXPECT_EQ(void_refusal(t, *at(claimed), claimed, kJudge), std::nullopt);
  auto decision = void_(claimed, kJudge, "a did not claim");
  ASSERT_FALSE(decision.refused()) << decision.refusal().message;
  const Append& append = decision.accepted().append;
  EXPECT_EQ(append.stream, projections::table_stream("cup", 1, 1));
  EXPECT_TRUE(append.expected.accepts(table_version));
  EXPECT_FALSE(append.expected.accepts(table_version + 1));
  ASSERT_EQ(append.events.size(), 1u);
  auto e = append.events[0].reader();
  EXPECT_EQ(e.getPayload().which(), Which::VOID);
  EXPECT_EQ(e.getSupersedes(), claimed);
  EXPECT_EQ(std::string(e.getReason().cStr()), "a did not claim");
  EXPECT_EQ(std::string(e.getAuthor().cStr()), "j1");
  apply(b, decision);
  // The claim is no longer in effect; b's is.
  auto after = b.tournament();
  auto claims = after.table(1, 1)->of_kind(Which::CLAIMED_WIN);
  ASSERT_EQ(claims.size(), 1u);
  EXPECT_EQ(std::string(claims[0]->payload().getClaimedWin().getPlayer().cStr()), "b");
  // A second void of it: no longer in effect.
  EXPECT_EQ(refusal_of(void_(claimed)),
            unprocessable("api.void.no_longer_in_effect", "api.void.already_voided"));
}

TEST_F(VoidEventDecider, TheOrganizerVoidsTheNewestUntouchedSeatingOnTheTournamentsStream) {
  auto t = b.tournament();
  auto decision = void_(seating_1, kOrganizer, "wrong tables");
  ASSERT_FALSE(decision.refused()) << decision.refusal().message;
  const Append& append = decision.accepted().append;
  EXPECT_EQ(append.stream, projections::tournament_stream("cup"));
  EXPECT_TRUE(append.expected.accepts(t.version));
  EXPECT_FALSE(append.expected.accepts(t.version + 1));
  EXPECT_EQ(append.events.at(0).reader().getSupersedes(), seating_1);
  EXPECT_EQ(std::string(append.events.at(0).reader().getReason().cStr()), "wrong tables");
  apply(b, decision);
  // The round is gone: round 1 is to be seated again.
  EXPECT_TRUE(b.tournament().rounds.empty());
  EXPECT_EQ(b.tournament().next_round(), 1u);
}

// Rule `void`: a seating only by the organizer.
TEST_F(VoidEventDecider, AJudgeMayNotVoidASeating) {
  const Refusal forbidden{RefusalKind::forbidden, i18n::Message("api.void.seating_organizer_only")};
  EXPECT_EQ(refusal_of(void_(seating_1, kJudge)), forbidden);
  EXPECT_EQ(void_refusal(b.tournament(), *at(seating_1), seating_1, kJudge), forbidden);
}

// Rule `void`: only the newest round's seating, only before anything was entered at it.
TEST_F(VoidEventDecider, OnlyTheNewestSeatingBeforeAnythingWasEntered) {
  const Refusal refused = unprocessable("api.void.seating_refused", "api.void.seating_newest_only");
  claim(2, "e");
  EXPECT_EQ(refusal_of(void_(seating_1)), refused);
  result(1);
  b.seat({{"a", "e", "b", "f"}, {"c", "g", "d", "h"}});
  EXPECT_EQ(refusal_of(void_(seating_1)), refused);  // no longer the newest
  EXPECT_FALSE(void_(b.last_seq()).refused());       // round 2's is
}

// Rule `void`: a result is corrected, never voided; nor is a void, nor a tournament's event.
TEST_F(VoidEventDecider, AResultAVoidOrATournamentEventIsNotVoidable) {
  const Refusal refused = unprocessable("api.void.not_voidable", "api.void.what_is_voided");
  std::uint64_t reported = result(1);
  EXPECT_EQ(refusal_of(void_(reported)), refused);
  std::uint64_t claimed = claim(2, "e");
  std::uint64_t voided = b.void_event(1, 2, claimed, "oops");
  EXPECT_EQ(refusal_of(void_(voided)), refused);
  EXPECT_EQ(refusal_of(void_(2)), refused);  // player a's registration
  EXPECT_EQ(void_refusal(b.tournament(), *at(2), 2, kOrganizer), refused);
}

TEST_F(VoidEventDecider, NoEventAtThatSeqOrOneOfAnotherTournamentIsNotFound) {
  auto not_found = [](std::uint64_t seq) {
    return Refusal{
        RefusalKind::not_found,
        i18n::Message("api.void.not_found", {{"seq", std::to_string(seq)}, {"tournament", "cup"}})};
  };
  EXPECT_EQ(refusal_of(void_(99)), not_found(99));
  TournamentBuilder other("other", "catan");
  auto t = b.tournament();
  EXPECT_EQ(refusal_of(decide(&t, other.events()[0].event(), VoidEvent{"cup", 1, "x"}, kOrganizer)),
            not_found(1));
  EXPECT_EQ(refusal_of(decide(nullptr, at(1), VoidEvent{"cup", 1, "x"}, kOrganizer)), not_found(1));
}

}  // namespace
}  // namespace tally::deciders
