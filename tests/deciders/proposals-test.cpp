// Self-reporting's deciders without a process (ProposeResult, AnswerProposal flag/reject,
// ApproveProposal): every refusal — self-reporting off, not found, not pending, and a result's
// own refusals through the proposal and its approval — and every event they decide, each folded
// back (a proposal in the proposals stream, its approval as the table's result).
#include "deciders/proposals.hpp"

#include "schema/text.hpp"
#include "tests/deciders/support.hpp"
#include "tests/projections/catan/fixtures.hpp"

#include <gtest/gtest.h>

namespace tally::deciders {
namespace {

namespace json = boost::json;
using projections::ProposalStatus;
using projections::catan::testing::clear_order;
using projections::catan::testing::Which;
using tally::testing::TournamentBuilder;
using testing::apply;
using testing::kJudge;
using testing::kOrganizer;
using testing::refusal_of;

using schema::text;
using testing::result_body;
std::string name_of(std::string_view author) { return std::string(author); }

// A player at table 1 proposing (the actor the daemon makes of a player's code).
const Actor kPlayer{"a", false};

class ProposalsDecider : public ::testing::Test {
 protected:
  ProposalsDecider() {
    for (const char* p : {"a", "b", "c", "d"}) b.player(p, p);
    b.seat({{"a", "b", "c", "d"}});
    b.append(projections::tournament_stream("cup"),
             [](schema::Event::Builder e) { e.getPayload().initSelfReporting().setEnabled(true); });
  }
  static TableAction result(json::object body, std::string reason = "") {
    TableAction c;
    c.table = {"cup", "1", "1"};
    c.action = "result";
    c.body = std::make_shared<const json::object>(std::move(body));
    c.reason = std::move(reason);
    return c;
  }
  Decision<> propose(json::object body, std::string note = "") const {
    auto t = b.tournament();
    TableAction c = result(std::move(body), std::move(note));
    c.proposal = true;
    return decide(&t, game.get(), ProposeResult{c}, kPlayer, name_of);
  }
  Decision<> answer(std::string id, AnswerProposal::Reply reply, std::string note,
                    const Actor& actor = kPlayer) const {
    auto t = b.tournament();
    return decide(&t, AnswerProposal{{"cup", "1", "1"}, std::move(id), reply, std::move(note)},
                  actor);
  }
  Decision<TableActionFacts> approve(std::uint64_t id, std::string reason = "",
                                     bool first_entry = false) const {
    auto t = b.tournament();
    TableAction approval = result({}, std::move(reason));
    approval.first_entry = first_entry;
    return decide(&t, game.get(), ApproveProposal{approval, std::to_string(id)}, kJudge, name_of);
  }
  // The proposal `seq` at table 1 as the tournament now stands (a copy: the state is rebuilt).
  std::optional<projections::Proposal> proposal(std::uint64_t seq) const {
    auto t = b.tournament();
    const auto* at = t.proposals_at(1, 1);
    const auto* found = at ? at->find(seq) : nullptr;
    if (found == nullptr) return std::nullopt;
    return *found;
  }
  void turn_self_reporting_off() {
    b.append(projections::tournament_stream("cup"), [](schema::Event::Builder e) {
      e.getPayload().initSelfReporting().setEnabled(false);
    });
  }

  std::unique_ptr<projections::Game> game = projections::catan::make_catan_game();
  TournamentBuilder b{"cup", "catan"};
};

const Refusal kOff{
    RefusalKind::conflict,
    i18n::Message("api.selfreport.off"),
    {{"self_reporting.off", "", "self_reporting", i18n::Message("api.selfreport.turn_on")}}};

TEST_F(ProposalsDecider, AProposalGoesToTheProposalsStreamAndChangesNoResult) {
  auto decision = propose(result_body({"a", "b", "c", "d"}), "we agree");
  ASSERT_FALSE(decision.refused()) << decision.refusal().message;
  const Append& append = decision.accepted().append;
  EXPECT_EQ(append.stream, projections::proposals_stream("cup", 1, 1));
  EXPECT_TRUE(append.expected.accepts(0));
  EXPECT_FALSE(append.expected.accepts(1));
  ASSERT_EQ(append.events.size(), 1u);
  auto e = append.events[0].reader();
  ASSERT_EQ(e.getPayload().which(), Which::RESULT_PROPOSED);
  EXPECT_EQ(json::parse(text(e.getPayload().getResultProposed().getBody())),
            json::value(result_body({"a", "b", "c", "d"})));
  EXPECT_EQ(text(e.getReason()), "we agree");
  EXPECT_EQ(text(e.getAuthor()), "a");
  std::uint64_t seq = apply(b, decision);
  ASSERT_TRUE(proposal(seq).has_value());
  EXPECT_EQ(proposal(seq)->status, ProposalStatus::pending);
  auto t = b.tournament();
  EXPECT_TRUE(t.table(1, 1) == nullptr || t.table(1, 1)->result() == nullptr);
  // A second proposal is decided on the proposals stream's version and supersedes the first.
  auto second = propose(result_body({"b", "a", "c", "d"}));
  EXPECT_TRUE(second.accepted().append.expected.accepts(1));
  apply(b, second);
  EXPECT_EQ(proposal(seq)->status, ProposalStatus::superseded);
}

TEST_F(ProposalsDecider, OverAResultInEffectAProposalNeedsNoReasonYet) {
  b.action(1, 1, Which::CATAN_RESULT, result_body({"a", "b", "c", "d"}));
  EXPECT_FALSE(propose(result_body({"d", "c", "b", "a"})).refused());
}

TEST_F(ProposalsDecider, AProposalIsRefusedAsTheResultWouldBe) {
  auto body = result_body({"a", "b", "c", "d"});
  body["players"].as_array()[0].as_object()["cities"] = 5;  // C-2: cities 0–4
  const Refusal refused = refusal_of(propose(body));
  EXPECT_EQ(refused.kind, RefusalKind::unprocessable);
  EXPECT_EQ(refused.message, i18n::Message("api.table.result_breaks_rules"));
  ASSERT_FALSE(refused.errors.empty());
  EXPECT_EQ(refused.errors[0].rule, "C-2");
  EXPECT_EQ(refused.errors[0].player, "a");
  EXPECT_EQ(refused.errors[0].field, "cities");
  auto t = b.tournament();
  TableAction at_3 = result(result_body({"a", "b", "c", "d"}));
  at_3.table.table = "3";
  at_3.proposal = true;
  EXPECT_EQ(refusal_of(decide(&t, game.get(), ProposeResult{at_3}, kPlayer, name_of)),
            (Refusal{RefusalKind::not_found,
                     i18n::Message("api.table.not_found", {{"table", "3"}, {"round", "1"}})}));
}

TEST_F(ProposalsDecider, SelfReportingOffIsAConflictForEveryProposalCommand) {
  std::uint64_t seq = apply(b, propose(result_body({"a", "b", "c", "d"})));
  turn_self_reporting_off();
  EXPECT_EQ(refusal_of(propose(result_body({"a", "b", "c", "d"}))), kOff);
  EXPECT_EQ(refusal_of(answer(std::to_string(seq), AnswerProposal::Reply::flag, "no")), kOff);
  EXPECT_EQ(refusal_of(approve(seq)), kOff);
}

TEST_F(ProposalsDecider, SelfReportingOffRefusesTheTableTokensToo) {
  EXPECT_EQ(self_reporting_refusal(b.tournament()), std::nullopt);
  turn_self_reporting_off();
  const std::optional<Refusal> off = self_reporting_refusal(b.tournament());
  ASSERT_TRUE(off.has_value());
  EXPECT_EQ(off->kind, RefusalKind::conflict);
  EXPECT_EQ(off->message.key, "api.selfreport.off");
  ASSERT_EQ(off->errors.size(), 1u);
  EXPECT_EQ(off->errors[0].rule, "self_reporting.off");
}

TEST_F(ProposalsDecider, AClosedRoundHasNoTableTokensToHandOut) {
  EXPECT_EQ(table_keys_refusal(*b.tournament().round(1)), std::nullopt);
  b.append(projections::tournament_stream("cup"),
           [](schema::Event::Builder e) { e.getPayload().initRoundClosed().setRound(1); });
  const auto t = b.tournament();
  const std::optional<Refusal> closed = table_keys_refusal(*t.round(1));
  ASSERT_TRUE(closed.has_value());
  EXPECT_EQ(closed->kind, RefusalKind::conflict);
  EXPECT_EQ(closed->message, i18n::Message("api.selfreport.round_closed", {{"round", 1}}));
  ASSERT_EQ(closed->errors.size(), 1u);
  EXPECT_EQ(closed->errors[0].rule, "round.closed");
  EXPECT_EQ(closed->errors[0].field, "round");
  EXPECT_EQ(closed->errors[0].message.key, "api.selfreport.round_closed");
}

TEST_F(ProposalsDecider, AFlagIsAppendedWithItsNoteAndLeavesTheProposalPending) {
  std::uint64_t seq = apply(b, propose(result_body({"a", "b", "c", "d"})));
  auto decision =
      answer(std::to_string(seq), AnswerProposal::Reply::flag, "I had 3 cities", Actor{"c", false});
  ASSERT_FALSE(decision.refused()) << decision.refusal().message;
  const Append& append = decision.accepted().append;
  EXPECT_EQ(append.stream, projections::proposals_stream("cup", 1, 1));
  EXPECT_TRUE(append.expected.accepts(1));
  EXPECT_FALSE(append.expected.accepts(2));
  auto e = append.events.at(0).reader();
  ASSERT_EQ(e.getPayload().which(), Which::PROPOSAL_FLAGGED);
  EXPECT_EQ(e.getPayload().getProposalFlagged().getProposal(), seq);
  EXPECT_EQ(text(e.getReason()), "I had 3 cities");
  EXPECT_EQ(text(e.getAuthor()), "c");
  apply(b, decision);
  EXPECT_EQ(proposal(seq)->status, ProposalStatus::pending);
  EXPECT_EQ(proposal(seq)->flags.size(), 1u);
}

TEST_F(ProposalsDecider, ARejectionDecidesTheProposalWhichIsThenNotPending) {
  std::uint64_t seq = apply(b, propose(result_body({"a", "b", "c", "d"})));
  auto decision = answer(std::to_string(seq), AnswerProposal::Reply::reject, "c disagrees", kJudge);
  ASSERT_FALSE(decision.refused());
  auto e = decision.accepted().append.events.at(0).reader();
  ASSERT_EQ(e.getPayload().which(), Which::PROPOSAL_REJECTED);
  EXPECT_EQ(e.getPayload().getProposalRejected().getProposal(), seq);
  EXPECT_EQ(text(e.getReason()), "c disagrees");
  EXPECT_EQ(text(e.getAuthor()), "j1");
  apply(b, decision);
  EXPECT_EQ(proposal(seq)->status, ProposalStatus::rejected);
  const Refusal not_pending{
      RefusalKind::conflict,
      i18n::Message("api.proposal.not_pending",
                    {{"id", std::to_string(seq)}, {"status", "rejected"}}),
      {{"proposal.not_pending", "", "proposal", i18n::Message("api.proposal.reload")}}};
  EXPECT_EQ(refusal_of(answer(std::to_string(seq), AnswerProposal::Reply::flag, "late")),
            not_pending);
  EXPECT_EQ(refusal_of(approve(seq)), not_pending);
}

TEST_F(ProposalsDecider, ASupersededProposalIsNotPending) {
  std::uint64_t first = apply(b, propose(result_body({"a", "b", "c", "d"})));
  apply(b, propose(result_body({"b", "a", "c", "d"})));
  const Refusal refused = refusal_of(approve(first));
  EXPECT_EQ(refused.kind, RefusalKind::conflict);
  EXPECT_EQ(refused.message,
            i18n::Message("api.proposal.not_pending",
                          {{"id", std::to_string(first)}, {"status", "superseded"}}));
}

TEST_F(ProposalsDecider, AnUnknownProposalIsNotFound) {
  apply(b, propose(result_body({"a", "b", "c", "d"})));
  for (const char* id : {"99", "x1", ""}) {
    EXPECT_EQ(refusal_of(answer(id, AnswerProposal::Reply::flag, "?")),
              (Refusal{RefusalKind::not_found,
                       i18n::Message("api.proposal.not_found", {{"id", id}, {"table", "1"}})}))
        << id;
  }
  // At a table without proposals, and at a table that does not exist.
  auto t = b.tournament();
  EXPECT_EQ(
      refusal_of(decide(
          &t, AnswerProposal{{"cup", "1", "2"}, "5", AnswerProposal::Reply::flag, "?"}, kPlayer)),
      (Refusal{RefusalKind::not_found,
               i18n::Message("api.table.not_found", {{"table", "2"}, {"round", "1"}})}));
}

TEST_F(ProposalsDecider, NoTournamentIsNotFoundForEveryProposalCommand) {
  const Refusal not_found{RefusalKind::not_found,
                          i18n::Message("api.tournament.not_found", {{"id", "cup"}})};
  TableAction c = result(result_body({"a", "b", "c", "d"}));
  c.proposal = true;
  EXPECT_EQ(refusal_of(decide(nullptr, game.get(), ProposeResult{c}, kPlayer, name_of)), not_found);
  EXPECT_EQ(refusal_of(decide(nullptr, AnswerProposal{{"cup", "1", "1"}, "5"}, kPlayer)),
            not_found);
  EXPECT_EQ(
      refusal_of(decide(nullptr, game.get(), ApproveProposal{result({}), "5"}, kJudge, name_of)),
      not_found);
}

TEST_F(ProposalsDecider, AnApprovalAppendsTheResultAndTheApprovalToTheTable) {
  std::uint64_t seq = apply(b, propose(result_body({"a", "b", "c", "d"})));
  auto decision = approve(seq, "", /*first_entry=*/true);
  ASSERT_FALSE(decision.refused()) << decision.refusal().message;
  const Append& append = decision.accepted().append;
  EXPECT_EQ(append.stream, projections::table_stream("cup", 1, 1));
  EXPECT_TRUE(append.expected.accepts(0));
  EXPECT_FALSE(append.expected.accepts(1));
  EXPECT_FALSE(decision.accepted().facts.replaces_result);
  ASSERT_EQ(append.events.size(), 2u);
  auto result_event = append.events[0].reader();
  ASSERT_EQ(result_event.getPayload().which(), Which::CATAN_RESULT);
  EXPECT_EQ(text(result_event.getPayload().getCatanResult().getPlayers()[0].getPlayer()), "a");
  EXPECT_EQ(text(result_event.getAuthor()), "j1");
  auto approved = append.events[1].reader();
  ASSERT_EQ(approved.getPayload().which(), Which::PROPOSAL_APPROVED);
  EXPECT_EQ(approved.getPayload().getProposalApproved().getProposal(), seq);
  EXPECT_EQ(text(approved.getAuthor()), "j1");
  apply(b, decision);
  auto t = b.tournament();
  ASSERT_NE(t.table(1, 1), nullptr);
  ASSERT_NE(t.table(1, 1)->result(), nullptr);
  EXPECT_EQ(t.table(1, 1)->result()->seq(), seq + 1);
  EXPECT_EQ(proposal(seq)->status, ProposalStatus::approved);
}

TEST_F(ProposalsDecider, AnApprovalOverAResultIsACorrectionWithItsPreconditionsAndReason) {
  std::uint64_t entered = b.action(1, 1, Which::CATAN_RESULT, result_body({"a", "b", "c", "d"}));
  std::uint64_t seq = apply(b, propose(result_body({"d", "c", "b", "a"})));
  // If-None-Match: * over the result: a precondition carrying the table's version.
  const Refusal precondition = refusal_of(approve(seq, "swap", /*first_entry=*/true));
  EXPECT_EQ(precondition.kind, RefusalKind::precondition);
  EXPECT_EQ(precondition.message.key, "api.table.already_entered");
  EXPECT_EQ(precondition.current_version, std::optional<std::uint64_t>(1));
  // Without a reason: the judge must say why.
  EXPECT_EQ(refusal_of(approve(seq)),
            (Refusal{RefusalKind::unprocessable,
                     i18n::Message("api.correction.result_needs_reason"),
                     {{"reason", "", "reason", i18n::Message("api.correction.say_why")}}}));
  auto decision = approve(seq, "the table's sheets");
  ASSERT_FALSE(decision.refused()) << decision.refusal().message;
  EXPECT_TRUE(decision.accepted().facts.replaces_result);
  EXPECT_TRUE(decision.accepted().append.expected.accepts(1));
  EXPECT_EQ(decision.accepted().append.events.at(0).reader().getSupersedes(), entered);
  EXPECT_EQ(text(decision.accepted().append.events.at(0).reader().getReason()),
            "the table's sheets");
  EXPECT_EQ(text(decision.accepted().append.events.at(1).reader().getReason()),
            "the table's sheets");
  apply(b, decision);
  EXPECT_EQ(game->standings(b.tournament()).at("rows").at(0).at("player"), "d");
}

}  // namespace
}  // namespace tally::deciders
