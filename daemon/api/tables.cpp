// Table actions: results (with HTTP preconditions), claims, picks, scorings, their checks,
// automatic picks and voids. Each table is its own stream, so judges at different tables never
// conflict; a judge who enters a table another judge has just entered gets 412 with that entry.
#include "daemon/api/api.hpp"
#include "daemon/api/table_request.hpp"
#include "daemon/api/views.hpp"
#include "daemon/http/body.hpp"
#include "deciders/auto_actions.hpp"
#include "deciders/void_event.hpp"
#include "projections/table_rules.hpp"

namespace tally::daemon {

using events::AppendResult;
using projections::Tournament;
using Which = schema::Event::Payload::Which;

// A failed precondition of a result shows the table as it is (the judge sees the entry that
// came first).
std::function<json::object(const LiveState&, const deciders::Refusal&)> Api::table_on_precondition(
    const ExchangePtr& ex) {
  return [ex](const LiveState& s, const deciders::Refusal& refusal) {
    if (refusal.kind != deciders::RefusalKind::precondition) return json::object();
    TableRef ref;
    if (find_table(s, table_address(*ex), ref)) return json::object();
    return json::object{
        {"table", table_json(s, *ref.tournament, *ref.game, ref.round->number, *ref.seated)}};
  };
}

Response Api::table_answer(const ExchangePtr& ex, const AppendResult& r, http::status status,
                           json::object extra) {
  queries::TableWrite write{r.last_seq, r.stream_version, status, std::move(extra)};
  return answer_query(*ex, [&](const LiveState& s) {
    return queries::table_written(s, table_address(*ex), write);
  });
}

void Api::put_result(const ExchangePtr& ex) { table_action(ex, "result", false); }

http::status Api::result_status(const deciders::TableActionFacts* decided,
                                const AppendResult& r) const {
  bool replaced = false;
  if (decided != nullptr) {
    replaced = decided->replaces_result;
  } else if (auto event = store_.read_view().event(r.first_seq)) {
    replaced = event->event().getSupersedes() != 0;  // an idempotent repeat: the original's
  }
  return replaced ? http::status::ok : http::status::created;
}

void Api::post_table_action(const ExchangePtr& ex, bool check_only) {
  const std::string& action = ex->params.at("action");
  if (action == "result" && !check_only) {
    Response r = problem(*ex, http::status::method_not_allowed, "api.table.result_is_put");
    r.set(http::field::allow, "PUT");
    return ex->respond(std::move(r));
  }
  table_action(ex, action, check_only);
}

void Api::table_action(const ExchangePtr& ex, const std::string& action, bool check_only) {
  auto read = read_table_request(*ex, action, check_only);
  if (auto* refusal = std::get_if<Response>(&read)) return ex->respond(std::move(*refusal));
  auto req = std::make_shared<const TableRequest>(std::move(std::get<TableRequest>(read)));
  if (check_only) return table_check(ex, *req);

  run_command<deciders::TableActionFacts>(
      ex,
      [req, actor = actor_of(*ex)](const LiveState& s) {
        TableRef ref;
        return decide_table_action(s, *req, actor, ref);
      },
      [this, ex, req](const AppendResult& r, const deciders::TableActionFacts* facts) {
        if (req->is_result()) {
          // A knockout's next round is seated by the result that completes the round before.
          if (facts != nullptr) advance_bracket(req->table.tournament);
          // 200 when it replaced a result, else 201: as decided, or for an idempotent repeat
          // (nothing decided) as the original event says.
          return table_answer(ex, r, result_status(facts, r));
        }
        queries::TableWrite write{r.last_seq, r.stream_version};
        return answer_query(*ex, [&](const LiveState& s) {
          return queries::table_action_written(s, req->table, r.first_seq, write);
        });
      },
      {.tournament = req->table.tournament, .refusal_extra = table_on_precondition(ex)});
}

// …/check: every check the write makes, and the table's result as the write would leave it.
void Api::table_check(const ExchangePtr& ex, const TableRequest& req) {
  run_query(ex,
            [&req, actor = actor_of(*ex)](const LiveState& s) {
              return queries::table_check(s, req, actor);
            },
            {.tournament = req.table.tournament});
}

// POST …/{action}/auto: the game completes the table's actions of that kind (e.g. the rest of a
// table's picks).
void Api::auto_actions(const ExchangePtr& ex) {
  deciders::AutoActions command{table_address(*ex), ex->params.at("action")};
  run_command(
      ex,
      [command, actor = actor_of(*ex)](const LiveState& s) {
        const Tournament* t = s.tournament(command.table.tournament);
        return deciders::decide(t, t ? s.game_of(*t) : nullptr, command, actor);
      },
      [this, ex](const AppendResult& r) { return table_answer(ex, r, http::status::created); },
      {.tournament = command.table.tournament});
}

void Api::void_event(const ExchangePtr& ex) {
  auto body = body_or_answer(ex);
  if (!body) return;
  BodyFields fields(*body, {"reason"});
  auto reason = fields.display_text("reason", true, 1000);
  auto target = parse_number(ex->params.at("seq"));
  if (!target) fields.fail("seq", "api.void.seq", "seq");
  if (!fields.ok())
    return ex->respond(unprocessable(*ex, "api.void.needs_reason", fields.errors()));
  deciders::VoidEvent command{ex->params.at("t"), *target, *reason};
  run_command(
      ex,
      [this, command, actor = actor_of(*ex)](const LiveState& s) {
        // The event withdrawn is part of the state the void is decided on.
        auto event = store_.read_view().event(command.seq);
        std::optional<schema::Event::Reader> target;
        if (event) target = event->event();
        return deciders::decide(s.tournament(command.tournament), target, command, actor);
      },
      [ex, target = *target](const AppendResult& r) {
        // The version of the stream the void went to: the table's (or the tournament's, for a
        // seating).
        Response response = json_response(
            ex->request, http::status::ok,
            json::object{{"seq", r.last_seq}, {"voided", target}, {"version", r.stream_version}});
        response.set(http::field::etag, etag(r.stream_version));
        return response;
      });
}

}  // namespace tally::daemon
