// Self-reporting's commands (contract, "Self-reporting"): a table proposes its result, the
// others at the table flag it, a judge approves or rejects it. A proposal lives in its table's
// proposals stream and changes no result; its approval is appended to the table's own stream
// together with the result it becomes, decided as that result would be (TableAction).
//
//   - Self-reporting off: conflict, rule `self_reporting.off` at field `self_reporting`.
//   - A proposal is checked as a result would be, but for its preconditions, and over a result
//     in effect needs no reason yet (the approving judge gives it).
//   - Flag, reject, approve: only a pending proposal (not found `api.proposal.not_found`;
//     conflict, rule `proposal.not_pending`, when a judge decided it or a newer one replaced it).
//
// Thread safety: pure functions.
#pragma once

#include "deciders/decision.hpp"
#include "deciders/lookup.hpp"
#include "deciders/table_action.hpp"
#include "projections/game.hpp"
#include "projections/proposals.hpp"
#include "projections/tournament.hpp"

#include <optional>
#include <string>
#include <variant>

namespace tally::deciders {

// The refusal while `t`'s self-reporting is off.
std::optional<Refusal> self_reporting_refusal(const projections::Tournament& t);

// The refusal of a closed round's table tokens: there is nothing left to report there.
std::optional<Refusal> table_keys_refusal(const projections::Round& round);

// The pending proposal `id` (the path's text) at the table `address` names, filling `found`.
std::variant<const projections::Proposal*, Refusal> find_pending_proposal(
    const projections::Tournament* t, const TableAddress& address, const std::string& id,
    FoundTable& found);

struct ProposeResult {
  TableAction result;  // its `proposal` is set: no preconditions, no reason needed yet
};
// Appends `result_proposed` to the table's proposals stream.
Decision<> decide(const projections::Tournament* t, const projections::Game* game,
                  const ProposeResult& command, const Actor& actor, const AuthorName& author_name);

struct AnswerProposal {
  TableAddress table;
  std::string proposal;  // its id (the path's text)
  enum class Reply { flag, reject } reply = Reply::flag;
  std::string note;  // the flag's note or the rejection's reason (required: the reader checks)
};
// Appends `proposal_flagged` or `proposal_rejected` to the table's proposals stream.
Decision<> decide(const projections::Tournament* t, const AnswerProposal& command,
                  const Actor& actor);

struct ApproveProposal {
  // The approval as a result's write: the table, PUT …/result's preconditions and the
  // correction's reason; its body is the proposal's.
  TableAction approval;
  std::string proposal;  // its id (the path's text)
};
// Appends the proposed result and `proposal_approved` to the table's stream.
Decision<TableActionFacts> decide(const projections::Tournament* t, const projections::Game* game,
                                  const ApproveProposal& command, const Actor& actor,
                                  const AuthorName& author_name);

}  // namespace tally::deciders
