// Self-reporting (docs/api.md, "Self-reporting"): the tournament's setting, the table tokens,
// and proposals — made from the table (its token) or by a judge, flagged by the others at the
// table, approved or rejected by a judge. A proposal lives in its table's proposals stream and
// changes no result; its approval is appended to the table's own stream together with the result
// it becomes, under the same preconditions as PUT …/result.
#include "daemon/api.hpp"
#include "daemon/body.hpp"
#include "daemon/proposal_view.hpp"
#include "daemon/table_request.hpp"
#include "daemon/views.hpp"

namespace tally::daemon {

using events::AppendResult;
using events::Draft;
using events::ExpectedVersion;
using projections::Proposal;
using projections::ProposalStatus;
using projections::Tournament;

namespace {

// 409 while the tournament's self-reporting is off.
std::optional<Response> unless_self_reporting(const Exchange& ex, const Tournament& t) {
  if (t.self_reporting) return std::nullopt;
  return problem(ex, http::status::conflict, "api.selfreport.off",
                 {{"self_reporting.off", "", "self_reporting", "api.selfreport.turn_on"}});
}

// 409 for a proposal a judge has decided or a newer one has replaced.
Response not_pending(const Exchange& ex, const Proposal& p) {
  return problem(ex, http::status::conflict,
                 i18n::Message("api.proposal.not_pending",
                               {{"id", std::to_string(p.seq())},
                                {"status", projections::proposal_status_name(p.status)}}),
                 {{"proposal.not_pending", "", "proposal", "api.proposal.reload"}});
}

// Who appends: a judge or the organizer by id, a table token as "table".
std::string author_of(const Exchange& ex) {
  return ex.identity.authenticated() ? ex.identity.id : std::string(kTableAuthor);
}

// A table's token reads proposals as the public would; everyone else here is a judge or above.
ProposalReader reader_of(const Exchange& ex) {
  return ex.identity.table ? ProposalReader::table : ProposalReader::judge;
}

}  // namespace

// Finds the path's table and the proposal {id} there, waiting for a judge, under the read lock:
// the answer to send instead when one is missing, decided or replaced, or self-reporting is off.
std::optional<Response> Api::find_pending_proposal(const LiveState& s, const Exchange& ex,
                                                   TableRef& ref, const Proposal*& proposal) {
  if (auto missing = find_table(s, ex, ref)) return missing;
  if (auto off = unless_self_reporting(ex, *ref.tournament)) return off;
  auto id = parse_number(ex.params.at("id"));
  const auto* at = ref.tournament->proposals_at(ref.round, ref.seated->number);
  proposal = id && at ? at->find(*id) : nullptr;
  if (proposal == nullptr) {
    return problem(ex, http::status::not_found,
                   i18n::Message("api.proposal.not_found",
                                 {{"id", ex.params.at("id")}, {"table", ex.params.at("n")}}));
  }
  if (proposal->status != ProposalStatus::pending) return not_pending(ex, *proposal);
  return std::nullopt;
}

Response Api::proposal_answer(const ExchangePtr& ex, const AppendResult& r, std::uint64_t id,
                              http::status status) {
  return state_.read([&](const LiveState& s) {
    TableRef ref;
    if (auto missing = find_table(s, *ex, ref)) return std::move(*missing);
    const auto* at = ref.tournament->proposals_at(ref.round, ref.seated->number);
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
  auto answer = [ex](std::uint64_t seq, bool value) {
    return json_response(ex->request, http::status::ok,
                         json::object{{"seq", seq}, {"self_reporting", value}});
  };
  write(
      ex,
      [this, ex, t_id, enabled = *enabled, answer] {
        Prepared p;
        state_.read([&](const LiveState& s) {
          const Tournament* t = s.tournament(t_id);
          if (t == nullptr) {
            p.refusal = tournament_not_found(*ex, t_id);
          } else if (t->self_reporting == enabled) {
            p.refusal = answer(s.seq(), enabled);  // already so: nothing to append
          }
          if (t != nullptr) p.append.expected = ExpectedVersion::exactly(t->version);
        });
        if (p.refusal) return p;
        Draft d;
        d.event().setAuthor(ex->identity.id);
        d.event().getPayload().initSelfReporting().setEnabled(enabled);
        p.append.stream = projections::tournament_stream(t_id);
        p.append.events.push_back(std::move(d));
        return p;
      },
      [this, ex, t_id, answer](const AppendResult& r) {
        bool now = state_.read([&](const LiveState& s) {
          const Tournament* t = s.tournament(t_id);
          return t != nullptr && t->self_reporting;
        });
        return answer(r.last_seq, now);
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
    const projections::Round& round = *ref.tournament->round(ref.round);
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
  auto req = std::make_shared<TableRequest>(std::move(std::get<TableRequest>(read)));
  req->proposal = true;
  write(
      ex,
      [this, ex, req] {
        Prepared p;
        state_.read([&](const LiveState& s) {
          // Off is 409 whatever the body (a missing tournament is find_table's 404 below).
          const Tournament* t = s.tournament(ex->params.at("t"));
          if (t != nullptr) {
            if (auto off = unless_self_reporting(*ex, *t)) {
              p.refusal = std::move(off);
              return;
            }
          }
          TableRef ref;
          // Every check PUT …/result makes but its precondition: the 422 the result would get.
          DraftedAction drafted = draft_table_action(s, *ex, *req, ref);
          if (drafted.refusal) {
            p.refusal = std::move(drafted.refusal);
            return;
          }
          const auto* at = ref.tournament->proposals_at(ref.round, ref.seated->number);
          p.append.stream =
              projections::proposals_stream(ref.tournament->id, ref.round, ref.seated->number);
          p.append.expected = ExpectedVersion::exactly(at ? at->version : 0);
        });
        if (p.refusal) return p;
        Draft d;
        d.event().setAuthor(author_of(*ex));
        d.event().setReason(req->envelope.reason);
        d.event().getPayload().initResultProposed().setBody(json::serialize(*req->body));
        p.append.events.push_back(std::move(d));
        return p;
      },
      [this, ex](const AppendResult& r) {
        return proposal_answer(ex, r, r.first_seq, http::status::created);
      });
}

void Api::list_proposals(const ExchangePtr& ex) {
  ex->respond(state_.read([&](const LiveState& s) {
    TableRef ref;
    if (auto missing = find_table(s, *ex, ref)) return std::move(*missing);
    if (auto off = unless_self_reporting(*ex, *ref.tournament)) return std::move(*off);
    json::array list;
    if (const auto* at = ref.tournament->proposals_at(ref.round, ref.seated->number)) {
      for (auto it = at->list.rbegin(); it != at->list.rend(); ++it) {
        list.push_back(proposal_json(s, ref, *it, reader_of(*ex)));
      }
    }
    return with_seq(json_response(ex->request, http::status::ok,
                                  json::object{{"round", ref.round},
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
  auto id = std::make_shared<std::uint64_t>(0);
  write(
      ex,
      [this, ex, reply, note = *note, id] {
        Prepared p;
        state_.read([&](const LiveState& s) {
          TableRef ref;
          const Proposal* proposal = nullptr;
          if (auto refusal = find_pending_proposal(s, *ex, ref, proposal)) {
            p.refusal = std::move(refusal);
            return;
          }
          *id = proposal->seq();
          p.append.stream =
              projections::proposals_stream(ref.tournament->id, ref.round, ref.seated->number);
          p.append.expected = ExpectedVersion::exactly(
              ref.tournament->proposals_at(ref.round, ref.seated->number)->version);
        });
        if (p.refusal) return p;
        Draft d;
        d.event().setAuthor(author_of(*ex));
        d.event().setReason(note);
        auto payload = d.event().getPayload();
        if (reply == ProposalReply::flag) {
          payload.initProposalFlagged().setProposal(*id);
        } else {
          payload.initProposalRejected().setProposal(*id);
        }
        p.append.events.push_back(std::move(d));
        return p;
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
      });
}

void Api::flag_proposal(const ExchangePtr& ex) { answer_proposal(ex, ProposalReply::flag); }
void Api::reject_proposal(const ExchangePtr& ex) { answer_proposal(ex, ProposalReply::reject); }

void Api::approve_proposal(const ExchangePtr& ex) {
  // The preconditions of PUT …/result, and a body of nothing but the correction's `reason`.
  auto read = read_table_request(*ex, "result", /*check_only=*/false);
  if (auto* refusal = std::get_if<Response>(&read)) return ex->respond(std::move(*refusal));
  auto approval = std::make_shared<const TableRequest>(std::move(std::get<TableRequest>(read)));
  if (!approval->body->empty()) {
    return ex->respond(unprocessable(
        *ex, "api.proposal.approve_body",
        {{"request", "", approval->body->begin()->key(), "api.proposal.approve_only_reason"}}));
  }
  auto replaces = std::make_shared<std::optional<bool>>();
  write(
      ex,
      [this, ex, approval, replaces] {
        Prepared p;
        state_.read([&](const LiveState& s) {
          TableRef ref;
          const Proposal* proposal = nullptr;
          if (auto refusal = find_pending_proposal(s, *ex, ref, proposal)) {
            p.refusal = std::move(refusal);
            return;
          }
          // The proposed result, written as the judge would write it: checked again now.
          TableRequest req = *approval;
          auto text = proposal->event.event().getPayload().getResultProposed().getBody();
          req.body = std::make_shared<const json::object>(
              json::parse(std::string_view(text.cStr(), text.size())).as_object());
          DraftedAction drafted = draft_table_action(s, *ex, req, ref);
          if (drafted.refusal) {
            p.refusal = std::move(drafted.refusal);
            return;
          }
          *replaces = drafted.replaces_result;
          Draft approved;
          approved.event().setAuthor(ex->identity.id);
          approved.event().setReason(req.envelope.reason);
          approved.event().getPayload().initProposalApproved().setProposal(proposal->seq());
          p.append.stream =
              projections::table_stream(ref.tournament->id, ref.round, ref.seated->number);
          p.append.expected = ExpectedVersion::exactly(ref.state->version);
          p.append.events.push_back(std::move(drafted.draft));
          p.append.events.push_back(std::move(approved));
        });
        return p;
      },
      [this, ex, replaces](const AppendResult& r) {
        bool replaced = false;
        if (replaces->has_value()) {
          replaced = **replaces;
        } else if (auto event = store_.read_view().event(r.first_seq)) {
          replaced = event->event().getSupersedes() != 0;  // an idempotent repeat
        }
        return table_answer(
            ex, r, replaced ? http::status::ok : http::status::created,
            json::object{{"proposal", parse_number(ex->params.at("id")).value_or(0)}});
      });
}

}  // namespace tally::daemon
