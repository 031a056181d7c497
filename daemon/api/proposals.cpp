// Self-reporting (docs/api.md, "Self-reporting"): the tournament's setting, the table tokens,
// and proposals — made from the table (its token) or by a judge, flagged by the others at the
// table, approved or rejected by a judge. A proposal lives in its table's proposals stream and
// changes no result; its approval is appended to the table's own stream together with the result
// it becomes, under the same preconditions as PUT …/result.
#include "deciders/proposals.hpp"
#include "daemon/api/api.hpp"
#include "daemon/api/proposal_view.hpp"
#include "daemon/api/table_request.hpp"
#include "daemon/api/views.hpp"
#include "daemon/http/body.hpp"
#include "deciders/tournaments.hpp"

namespace tally::daemon {

using events::AppendResult;
using projections::Tournament;

namespace {

// Who appends: a judge or the organizer by id, a table token as "table".
deciders::Actor author_of(const Exchange& ex) {
  if (ex.identity.authenticated()) return actor_of(ex);
  return deciders::Actor{std::string(kTableAuthor), false};
}

deciders::AuthorName author_names(const LiveState& s) {
  return [&s](std::string_view author) { return author_name(s, author); };
}

// A table's token reads proposals as the public would; everyone else here is a judge or above.
ProposalReader reader_of(const Exchange& ex) {
  return ex.identity.table ? ProposalReader::table : ProposalReader::judge;
}

}  // namespace

// --- the setting and the table tokens ----------------------------------------------------------

void Api::patch_tournament(const ExchangePtr& ex) {
  auto body = body_or_answer(ex);
  if (!body) return;
  // Q-7 (registrations.cpp): the registration settings, one PATCH of their own.
  if (body->contains("registration") || body->contains("capacity"))
    return patch_registration(ex, *body);
  BodyFields fields(*body, {"self_reporting"});
  auto enabled = fields.boolean("self_reporting");
  if (fields.ok() && !enabled) fields.fail("self_reporting", "json.required");
  if (!fields.ok())
    return ex->respond(unprocessable(*ex, "api.tournament.invalid", fields.errors()));
  const std::string t_id = ex->params.at("t");
  run_command(
      ex,
      [command = deciders::SetSelfReporting{t_id, *enabled},
       actor = actor_of(*ex)](const LiveState& s) {
        return deciders::decide(s.tournament(command.tournament), command, actor);
      },
      [this, ex, t_id](const AppendResult& r) {
        // Already so appended nothing: the answer carries the log's seq as it is.
        return answer_query(
            *ex, [&](const LiveState& s) { return queries::self_reporting(s, t_id, r.last_seq); });
      });
}

void Api::table_key(const ExchangePtr& ex) {
  run_query(ex, [this, address = table_address(*ex)](const LiveState& s) {
    return queries::table_key(s, address, table_keys_);
  });
}

void Api::round_keys(const ExchangePtr& ex) {
  run_query(ex, [this, address = round_address(*ex)](const LiveState& s) {
    return queries::round_keys(s, address, table_keys_);
  });
}

// --- proposals ---------------------------------------------------------------------------------

void Api::propose(const ExchangePtr& ex) {
  auto read = read_table_request(*ex, "result", /*check_only=*/true);
  if (auto* refusal = std::get_if<Response>(&read)) return ex->respond(std::move(*refusal));
  deciders::ProposeResult command{std::move(std::get<TableRequest>(read))};
  command.result.proposal = true;
  run_command(
      ex,
      [command, actor = author_of(*ex)](const LiveState& s) {
        const Tournament* t = s.tournament(command.result.table.tournament);
        return deciders::decide(t, t ? s.game_of(*t) : nullptr, command, actor, author_names(s));
      },
      [this, ex](const AppendResult& r) {
        return answer_query(*ex, [&](const LiveState& s) {
          return queries::proposal_written(s, table_address(*ex), r.first_seq, reader_of(*ex),
                                           r.last_seq, http::status::created);
        });
      },
      {.tournament = command.result.table.tournament});
}

void Api::list_proposals(const ExchangePtr& ex) {
  run_query(ex, [address = table_address(*ex), reader = reader_of(*ex)](const LiveState& s) {
    return queries::proposals(s, address, reader);
  });
}

void Api::round_proposals(const ExchangePtr& ex) {
  run_query(ex, [address = round_address(*ex)](const LiveState& s) {
    return queries::round_proposals(s, address);
  });
}

// A flag or a rejection: one event naming the proposal, with the note or the reason.
void Api::answer_proposal(const ExchangePtr& ex, ProposalReply reply) {
  auto body = body_or_answer(ex);
  if (!body) return;
  const char* key = reply == ProposalReply::flag ? "note" : "reason";
  BodyFields fields(*body, {key});
  auto note = fields.display_text(key, true, reply == ProposalReply::flag ? 500 : 1000);
  if (!fields.ok()) {
    return ex->respond(unprocessable(*ex,
                                     reply == ProposalReply::flag
                                         ? "api.proposal.flag_needs_note"
                                         : "api.proposal.reject_needs_reason",
                                     fields.errors()));
  }
  deciders::AnswerProposal command{table_address(*ex), ex->params.at("id"),
                                   reply == ProposalReply::flag
                                       ? deciders::AnswerProposal::Reply::flag
                                       : deciders::AnswerProposal::Reply::reject,
                                   *note};
  run_command(
      ex,
      [command, actor = author_of(*ex)](const LiveState& s) {
        return deciders::decide(s.tournament(command.table.tournament), command, actor);
      },
      [this, ex, reply](const AppendResult& r) {
        std::uint64_t target = 0;
        if (auto event = store_.read_view().event(r.first_seq)) {
          auto payload = event->event().getPayload();
          target = payload.isProposalFlagged() ? payload.getProposalFlagged().getProposal()
                                               : payload.getProposalRejected().getProposal();
        }
        const http::status status =
            reply == ProposalReply::flag ? http::status::created : http::status::ok;
        return answer_query(*ex, [&](const LiveState& s) {
          return queries::proposal_written(s, table_address(*ex), target, reader_of(*ex),
                                           r.last_seq, status);
        });
      },
      {.tournament = command.table.tournament});
}

void Api::flag_proposal(const ExchangePtr& ex) { answer_proposal(ex, ProposalReply::flag); }
void Api::reject_proposal(const ExchangePtr& ex) { answer_proposal(ex, ProposalReply::reject); }

void Api::approve_proposal(const ExchangePtr& ex) {
  // The preconditions of PUT …/result, and a body of nothing but the correction's `reason`.
  auto read = read_table_request(*ex, "result", /*check_only=*/false);
  if (auto* refusal = std::get_if<Response>(&read)) return ex->respond(std::move(*refusal));
  deciders::ApproveProposal command{std::move(std::get<TableRequest>(read)), ex->params.at("id")};
  if (!command.approval.body->empty()) {
    return ex->respond(unprocessable(*ex, "api.proposal.approve_body",
                                     {{"request", "", command.approval.body->begin()->key(),
                                       "api.proposal.approve_only_reason"}}));
  }
  run_command<deciders::TableActionFacts>(
      ex,
      [command, actor = actor_of(*ex)](const LiveState& s) {
        const Tournament* t = s.tournament(command.approval.table.tournament);
        return deciders::decide(t, t ? s.game_of(*t) : nullptr, command, actor, author_names(s));
      },
      [this, ex, t_id = command.approval.table.tournament](
          const AppendResult& r, const deciders::TableActionFacts* facts) {
        // An approved result completes a knockout round as a judge's own would.
        if (facts != nullptr) advance_bracket(t_id);
        return table_answer(
            ex, r, result_status(facts, r),
            json::object{{"proposal", parse_number(ex->params.at("id")).value_or(0)}});
      },
      {.tournament = command.approval.table.tournament,
       .refusal_extra = table_on_precondition(ex)});
}

}  // namespace tally::daemon
