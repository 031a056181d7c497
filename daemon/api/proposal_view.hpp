// The JSON of self-reporting's proposals (docs/api.md, "Self-reporting"), shared by every
// proposals endpoint so that they all say the same thing.
//
// Thread safety: pure functions that run inside LiveState::read().
#pragma once

#include "daemon/api/table_request.hpp"
#include "projections/proposals.hpp"

#include <string_view>

namespace tally::daemon {

// The author of what a table token appends (the stream names the table).
inline constexpr std::string_view kTableAuthor = "table";

// {"id","round","table","status","from_table","by","at","note","body","result",
//  "replaces_result","differences":[{"field","player","entered","proposed"}],"flags":[…],
//  "superseded_by","decision"}. For a pending proposal `result` is the table's result as
// approving it would make it, and `differences` what it changes in the result entered (if any).
// Who reads a proposal: a judge or the organizer sees everything; a table's token (its players)
// sees what the public would — no judge's name, no judge's note or rejection reason.
enum class ProposalReader { judge, table };

boost::json::object proposal_json(const LiveState& s, const TableRef& ref,
                                  const projections::Proposal& proposal, ProposalReader reader);

}  // namespace tally::daemon
