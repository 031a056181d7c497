// Self-reporting: the results proposed at a table (from the table's QR code, or by a judge), the
// flags the other players at the table raise, and what a judge decided. A proposal changes no
// result: only its approval, appended with the result it becomes, does (docs/api.md,
// "Self-reporting"). Pure: folded from events, no I/O.
//
// Thread safety: a value type.
#pragma once

#include "schema/stored_event.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace tally::projections {

enum class ProposalStatus {
  pending,     // waiting for a judge
  superseded,  // a newer proposal at the table replaced it before a judge decided
  approved,    // a judge made it the table's result
  rejected,    // a judge turned it down (with a reason)
};

// "pending", "superseded", "approved" or "rejected": as the API names it.
const char* proposal_status_name(ProposalStatus status);

struct Proposal {
  schema::StoredEvent event;  // its resultProposed event (the body, the note, who and when)
  ProposalStatus status = ProposalStatus::pending;
  std::uint64_t superseded_by = 0;              // the newer proposal's seq
  std::vector<schema::StoredEvent> flags;       // proposalFlagged events, oldest first
  std::optional<schema::StoredEvent> decision;  // the proposalApproved or proposalRejected event

  std::uint64_t seq() const { return event.seq(); }
};

// One table's proposals in one round.
struct TableProposals {
  std::uint64_t version = 0;   // the version of the table's proposals stream
  std::vector<Proposal> list;  // oldest first

  const Proposal* find(std::uint64_t seq) const;
  // The proposal waiting for a judge (at most one: a newer one supersedes it), or null.
  const Proposal* pending() const;

  // Folds an event of the proposals stream: a proposal, a flag or a rejection.
  // Returns false for any other kind (which does not belong to this stream).
  bool apply(const schema::StoredEvent& event);
  // Folds a proposalApproved event (from the table's own stream).
  void approve(const schema::StoredEvent& approval);

 private:
  Proposal* find_mutable(std::uint64_t seq);
};

}  // namespace tally::projections
