#include "deciders/proposals.hpp"

#include <boost/json.hpp>

namespace tally::deciders {

using events::ExpectedVersion;

std::optional<Refusal> self_reporting_refusal(const projections::Tournament& t) {
  if (t.self_reporting) return std::nullopt;
  return Refusal{RefusalKind::conflict,
                 i18n::Message("api.selfreport.off"),
                 {{"self_reporting.off", "", "self_reporting", "api.selfreport.turn_on"}}};
}

std::optional<Refusal> table_keys_refusal(const projections::Round& round) {
  if (!round.closed) return std::nullopt;
  i18n::Message closed("api.selfreport.round_closed", {{"round", round.number}});
  return Refusal{RefusalKind::conflict, closed, {{"round.closed", "", "round", closed}}};
}

std::variant<const projections::Proposal*, Refusal> find_pending_proposal(
    const projections::Tournament* t, const TableAddress& address, const std::string& id,
    FoundTable& found) {
  if (auto missing = find_table(t, address, found)) return std::move(*missing);
  if (auto off = self_reporting_refusal(*t)) return std::move(*off);
  auto seq = parse_decimal(id);
  const auto* at = t->proposals_at(found.round->number, found.seated->number);
  const projections::Proposal* proposal = seq && at ? at->find(*seq) : nullptr;
  if (proposal == nullptr) {
    return Refusal{RefusalKind::not_found,
                   i18n::Message("api.proposal.not_found", {{"id", id}, {"table", address.table}})};
  }
  if (proposal->status != projections::ProposalStatus::pending) {
    return Refusal{RefusalKind::conflict,
                   i18n::Message("api.proposal.not_pending",
                                 {{"id", std::to_string(proposal->seq())},
                                  {"status", projections::proposal_status_name(proposal->status)}}),
                   {{"proposal.not_pending", "", "proposal", "api.proposal.reload"}}};
  }
  return proposal;
}

namespace {

// The version of the table's proposals stream (0 before its first proposal).
std::uint64_t proposals_version(const projections::Tournament& t, const FoundTable& found) {
  const auto* at = t.proposals_at(found.round->number, found.seated->number);
  return at ? at->version : 0;
}

std::string proposals_stream_of(const projections::Tournament& t, const FoundTable& found) {
  return projections::proposals_stream(t.id, found.round->number, found.seated->number);
}

}  // namespace

Decision<> decide(const projections::Tournament* t, const projections::Game* game,
                  const ProposeResult& command, const Actor& actor, const AuthorName& author_name) {
  // Off is a conflict whatever the body (a missing tournament is the table's not_found).
  if (t != nullptr) {
    if (auto off = self_reporting_refusal(*t)) return std::move(*off);
  }
  // Every check a result's write makes but its preconditions: the refusal the result would get.
  FoundTable found;
  auto as_result = decide(t, game, command.result, actor, author_name, found);
  if (as_result.refused()) return as_result.refusal();
  events::Draft d = authored(actor);
  d.event().setReason(command.result.reason);
  d.event().getPayload().initResultProposed().setBody(boost::json::serialize(*command.result.body));
  return one_event(proposals_stream_of(*t, found),
                   ExpectedVersion::exactly(proposals_version(*t, found)), std::move(d));
}

Decision<> decide(const projections::Tournament* t, const AnswerProposal& command,
                  const Actor& actor) {
  FoundTable found;
  auto pending = find_pending_proposal(t, command.table, command.proposal, found);
  if (auto* refusal = std::get_if<Refusal>(&pending)) return std::move(*refusal);
  const std::uint64_t id = std::get<const projections::Proposal*>(pending)->seq();
  events::Draft d = authored(actor);
  d.event().setReason(command.note);
  auto payload = d.event().getPayload();
  if (command.reply == AnswerProposal::Reply::flag) {
    payload.initProposalFlagged().setProposal(id);
  } else {
    payload.initProposalRejected().setProposal(id);
  }
  return one_event(proposals_stream_of(*t, found),
                   ExpectedVersion::exactly(proposals_version(*t, found)), std::move(d));
}

Decision<TableActionFacts> decide(const projections::Tournament* t, const projections::Game* game,
                                  const ApproveProposal& command, const Actor& actor,
                                  const AuthorName& author_name) {
  FoundTable found;
  auto pending = find_pending_proposal(t, command.approval.table, command.proposal, found);
  if (auto* refusal = std::get_if<Refusal>(&pending)) return std::move(*refusal);
  const projections::Proposal& proposal = *std::get<const projections::Proposal*>(pending);
  // The proposed result, written as the judge would write it: checked again now.
  TableAction result = command.approval;
  auto text = proposal.event.event().getPayload().getResultProposed().getBody();
  result.body = std::make_shared<const boost::json::object>(
      boost::json::parse(std::string_view(text.cStr(), text.size())).as_object());
  auto decision = decide(t, game, result, actor, author_name, found);
  if (decision.refused()) return decision;
  events::Draft approved = authored(actor);
  approved.event().setReason(result.reason);
  approved.event().getPayload().initProposalApproved().setProposal(proposal.seq());
  decision.accepted().append.events.push_back(std::move(approved));
  return decision;
}

}  // namespace tally::deciders
