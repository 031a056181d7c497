#include "projections/proposals.hpp"

#include <algorithm>
#include <utility>

namespace tally::projections {

using Which = schema::Event::Payload::Which;

const char* proposal_status_name(ProposalStatus status) {
  switch (status) {
    case ProposalStatus::pending:
      return "pending";
    case ProposalStatus::superseded:
      return "superseded";
    case ProposalStatus::approved:
      return "approved";
    case ProposalStatus::rejected:
      return "rejected";
  }
  return "pending";
}

const Proposal* TableProposals::find(std::uint64_t seq) const {
  auto it =
      std::find_if(list.begin(), list.end(), [&](const Proposal& p) { return p.seq() == seq; });
  return it == list.end() ? nullptr : &*it;
}

Proposal* TableProposals::find_mutable(std::uint64_t seq) {
  return const_cast<Proposal*>(std::as_const(*this).find(seq));
}

const Proposal* TableProposals::pending() const {
  for (auto it = list.rbegin(); it != list.rend(); ++it) {
    if (it->status == ProposalStatus::pending) return &*it;
  }
  return nullptr;
}

bool TableProposals::apply(const schema::StoredEvent& stored) {
  auto payload = stored.event().getPayload();
  switch (payload.which()) {
    case Which::RESULT_PROPOSED: {
      // A newer proposal replaces the one still waiting.
      for (auto& p : list) {
        if (p.status == ProposalStatus::pending) {
          p.status = ProposalStatus::superseded;
          p.superseded_by = stored.seq();
        }
      }
      list.push_back(Proposal{stored});
      break;
    }
    case Which::PROPOSAL_FLAGGED:
      if (Proposal* p = find_mutable(payload.getProposalFlagged().getProposal())) {
        p->flags.push_back(stored);
      }
      break;
    case Which::PROPOSAL_REJECTED:
      if (Proposal* p = find_mutable(payload.getProposalRejected().getProposal())) {
        p->status = ProposalStatus::rejected;
        p->decision = stored;
      }
      break;
    default:
      return false;
  }
  version = stored.event().getVersion();
  return true;
}

void TableProposals::approve(const schema::StoredEvent& approval) {
  if (Proposal* p =
          find_mutable(approval.event().getPayload().getProposalApproved().getProposal())) {
    p->status = ProposalStatus::approved;
    p->decision = approval;
  }
}

}  // namespace tally::projections
