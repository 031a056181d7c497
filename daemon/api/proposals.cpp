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
using projections::Proposal;
using projections::ProposalStatus;
using projections::Tournament;

namespace {

// 409 while the tournament's self-reporting is off.
std::optional<Response> unless_self_reporting(const Exchange& ex, const Tournament& t) {
  if (auto off = deciders::self_reporting_refusal(t)) return refusal_answer(ex, *off);
  return std::nullopt;
}

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

Response Api::proposal_answer(const ExchangePtr& ex, const AppendResult& r, std::uint64_t id,
                              http::status status) {
  return state_.read([&](const LiveState& s) {
    TableRef ref;
    if (auto missing = find_table(s, *ex, ref)) return std::move(*missing);
    const auto* at = ref.tournament->proposals_at(ref.round->number, ref.seated->number);
    const Proposal* p = at ? at->find(id) : nullptr;
    json::object out{{"seq", r.last_seq}};
    out["proposal"] =
        p ? json::value(proposal_json(s, ref, *p, reader_of(*ex))) : json::value(nullptr);
    return json_response(ex->request, status, out);
  });
}

// --- the setting and the table tokens ----------------------------------------------------------

void Api::patch_tournament(const ExchangePtr& ex) {
  auto body = body_or_answer(ex);
  if (!body) return;
  BodyFields fields(*body, {"self_reporting"});
  auto enabled = fields.boolean("self_reporting");
  if (fields.ok() && !enabled) fields.fail("self_reporting", "api.field.required");
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
        auto [seq, now] = state_.read([&](const LiveState& s) {
          const Tournament* t = s.tournament(t_id);
          return std::make_pair(r.last_seq != 0 ? r.last_seq : s.seq(),
                                t != nullptr && t->self_reporting);
        });
        return json_response(ex->request, http::status::ok,
                             json::object{{"seq", seq}, {"self_reporting", now}});
      });
}

json::object Api::table_key_json(const Tournament& t, const projections::Round& round,
                                 std::uint32_t table) const {
  TableScope scope{t.id, round.number, table};
  std::string token = table_keys_.token(scope, round.seq);
  return json::object{{"round", round.number},
                      {"table", table},
                      {"token", token},
                      {"url", TableKeys::report_url(scope, token)}};
}

// A closed round's tokens are refused: there is nothing to hand out.
std::optional<Response> Api::unless_round_open(const Exchange& ex, const projections::Round& r) {
  if (!r.closed) return std::nullopt;
  return problem(ex, http::status::conflict,
                 i18n::Message("api.selfreport.round_closed", {{"round", r.number}}),
                 {{"round.closed", "", "round",
                   i18n::Message("api.selfreport.round_closed", {{"round", r.number}})}});
}

void Api::table_key(const ExchangePtr& ex) {
  ex->respond(state_.read([&](const LiveState& s) {
    TableRef ref;
    if (auto missing = find_table(s, *ex, ref)) return std::move(*missing);
    if (auto off = unless_self_reporting(*ex, *ref.tournament)) return std::move(*off);
    const projections::Round& round = *ref.round;
    if (auto closed = unless_round_open(*ex, round)) return std::move(*closed);
    return json_response(ex->request, http::status::ok,
                         table_key_json(*ref.tournament, round, ref.seated->number));
  }));
}

void Api::round_keys(const ExchangePtr& ex) {
  ex->respond(state_.read([&](const LiveState& s) {
    RoundRef ref;
    if (auto missing = find_round(s, *ex, ref)) return std::move(*missing);
    if (auto off = unless_self_reporting(*ex, *ref.tournament)) return std::move(*off);
    if (auto closed = unless_round_open(*ex, *ref.round)) return std::move(*closed);
    json::array keys;
    for (const auto& table : ref.round->tables) {
      keys.push_back(table_key_json(*ref.tournament, *ref.round, table.number));
    }
    return json_response(ex->request, http::status::ok,
                         json::object{{"round", ref.round->number}, {"keys", std::move(keys)}});
  }));
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
        return proposal_answer(ex, r, r.first_seq, http::status::created);
      },
      {.tournament = command.result.table.tournament});
}

void Api::list_proposals(const ExchangePtr& ex) {
  ex->respond(state_.read([&](const LiveState& s) {
    TableRef ref;
    if (auto missing = find_table(s, *ex, ref)) return std::move(*missing);
    if (auto off = unless_self_reporting(*ex, *ref.tournament)) return std::move(*off);
    json::array list;
    if (const auto* at = ref.tournament->proposals_at(ref.round->number, ref.seated->number)) {
      for (auto it = at->list.rbegin(); it != at->list.rend(); ++it) {
        list.push_back(proposal_json(s, ref, *it, reader_of(*ex)));
      }
    }
    return with_seq(json_response(ex->request, http::status::ok,
                                  json::object{{"round", ref.round->number},
                                               {"table", ref.seated->number},
                                               {"seq", s.seq()},
                                               {"proposals", std::move(list)}}),
                    s.seq());
  }));
}

void Api::round_proposals(const ExchangePtr& ex) {
  ex->respond(state_.read([&](const LiveState& s) {
    RoundRef round;
    if (auto missing = find_round(s, *ex, round)) return std::move(*missing);
    if (auto off = unless_self_reporting(*ex, *round.tournament)) return std::move(*off);
    json::array list;
    for (const auto& seated : round.round->tables) {
      const auto* at = round.tournament->proposals_at(round.round->number, seated.number);
      const Proposal* pending = at ? at->pending() : nullptr;
      if (pending == nullptr) continue;
      TableRef ref;
      point_at_table(s, round, seated, ref);
      list.push_back(proposal_json(s, ref, *pending, ProposalReader::judge));
    }
    return with_seq(json_response(ex->request, http::status::ok,
                                  json::object{{"round", round.round->number},
                                               {"seq", s.seq()},
                                               {"proposals", std::move(list)}}),
                    s.seq());
  }));
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
        return proposal_answer(
            ex, r, target, reply == ProposalReply::flag ? http::status::created : http::status::ok);
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
