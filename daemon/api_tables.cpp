// Table actions: results (with HTTP preconditions), claims, picks, scorings, their checks,
// automatic picks and voids. Each table is its own stream, so judges at different tables never
// conflict; a judge who enters a table another judge has just entered gets 412 with that entry.
#include "daemon/api.hpp"
#include "daemon/body.hpp"
#include "daemon/table_request.hpp"
#include "daemon/views.hpp"
#include "projections/table_rules.hpp"
#include "projections/void_rule.hpp"

namespace tally::daemon {

using events::AppendResult;
using events::Draft;
using events::ExpectedVersion;
using projections::Tournament;
using Which = schema::Event::Payload::Which;

Response Api::table_answer(const ExchangePtr& ex, const AppendResult& r, http::status status,
                           json::object extra) {
  return state_.read([&](const LiveState& s) {
    TableRef ref;
    if (auto missing = find_table(s, *ex, ref)) return std::move(*missing);
    // Written straight into the body: table_json's members, then the write's own.
    std::string body;
    body.reserve(1024);
    JsonWriter out(body);
    out.begin_object();
    write_table_members(out, s, *ref.tournament, *ref.game, ref.round, *ref.seated);
    out.key("seq").number(std::uint64_t{r.last_seq});
    for (const auto& [key, value] : extra) out.key(key).value(value);
    out.end_object();
    Response response = json_text_response(ex->request, status, std::move(body));
    response.set(http::field::etag, etag(r.stream_version));
    return response;
  });
}

void Api::put_result(const ExchangePtr& ex) { table_action(ex, "result", false); }

http::status Api::result_status(const std::optional<bool>& replaces, const AppendResult& r) const {
  bool replaced = false;
  if (replaces.has_value()) {
    replaced = *replaces;
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

  // Whether this write replaces a result (200) or is the first (201), as prepared; an idempotent
  // replay skips the preparation and reads it from the original event instead.
  auto replaces = std::make_shared<std::optional<bool>>();
  write(
      ex,
      [this, ex, req, replaces] {
        Prepared p;
        state_.read([&](const LiveState& s) {
          TableRef ref;
          DraftedAction drafted = draft_table_action(s, *ex, *req, ref);
          if (drafted.refusal) {
            p.refusal = std::move(drafted.refusal);
            return;
          }
          p.append.stream =
              projections::table_stream(ref.tournament->id, ref.round, ref.seated->number);
          p.append.expected = ExpectedVersion::exactly(ref.state->version);
          p.append.events.push_back(std::move(drafted.draft));
          *replaces = drafted.replaces_result;
        });
        return p;
      },
      [this, ex, req, replaces](const AppendResult& r) {
        if (req->is_result()) return table_answer(ex, r, result_status(*replaces, r));
        return state_.read([&](const LiveState& s) {
          json::object out{{"seq", r.last_seq}, {"version", r.stream_version}};
          TableRef ref;
          if (!find_table(s, *ex, ref)) {
            if (const auto* action = projections::action_with_seq(*ref.state, r.first_seq)) {
              for (auto& [k, v] : ref.game->describe_action(*ref.tournament, *ref.state, *action))
                out[k] = v;
            }
          }
          Response response = json_response(ex->request, http::status::created, out);
          response.set(http::field::etag, etag(r.stream_version));
          return response;
        });
      });
}

// …/check: every check the write makes, and the table's result as the write would leave it.
void Api::table_check(const ExchangePtr& ex, const TableRequest& req) {
  Response answer = state_.read([&](const LiveState& s) {
    TableRef ref;
    DraftedAction drafted = draft_table_action(s, *ex, req, ref);
    if (drafted.refusal) return std::move(*drafted.refusal);
    const std::uint64_t would_be = s.seq() + 1;  // the seq the action would get
    projections::Tournament tournament =
        tournament_with(ref, drafted.draft.event().asReader(), would_be);
    const projections::TableState& after = tournament.tables.at({ref.round, ref.seated->number});
    json::object out{{"ok", true}, {"seq", s.seq()}};
    auto result = ref.game->table_result(tournament, after);
    out["result"] = result ? json::value(std::move(*result)) : json::value(nullptr);
    if (const auto* action = projections::action_with_seq(after, would_be)) {
      json::object described = ref.game->describe_action(tournament, after, *action);
      if (!described.empty()) out["action"] = std::move(described);
    }
    return with_seq(json_response(ex->request, http::status::ok, out), s.seq());
  });
  ex->respond(std::move(answer));
}

// POST …/{action}/auto: the game completes the table's actions of that kind (e.g. the rest of a
// table's picks).
void Api::auto_actions(const ExchangePtr& ex) {
  write(
      ex,
      [this, ex] {
        Prepared p;
        state_.read([&](const LiveState& s) {
          TableRef ref;
          if (auto missing = find_table(s, *ex, ref)) {
            p.refusal = std::move(*missing);
            return;
          }
          const std::string& action = ex->params.at("action");
          const projections::ActionSpec* spec = ref.game->describe().action(action);
          if (spec == nullptr || !spec->automatic) {
            p.refusal =
                problem(*ex, http::status::not_found,
                        i18n::Message("api.table.no_auto_action",
                                      {{"game", ref.tournament->game}, {"action", action}}));
            return;
          }
          auto outcome = ref.game->auto_actions(*ref.tournament, *ref.state);
          if (!outcome) {
            p.refusal = unprocessable(ex->request, ex->audience(*ref.tournament),
                                      "api.table.cannot_complete", rule_errors(outcome.errors));
            return;
          }
          if (outcome.value->empty()) {
            p.refusal = problem(*ex, http::status::conflict, "api.table.all_have_houses");
            return;
          }
          for (auto& message : *outcome.value) {
            Draft d(message->getRoot<schema::Event>().asReader());
            d.event().setAuthor(ex->identity.id);
            p.append.events.push_back(std::move(d));
          }
          p.append.stream =
              projections::table_stream(ref.tournament->id, ref.round, ref.seated->number);
          p.append.expected = ExpectedVersion::exactly(ref.state->version);
        });
        return p;
      },
      [this, ex](const AppendResult& r) { return table_answer(ex, r, http::status::created); });
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
  const std::string t_id = ex->params.at("t");

  write(
      ex,
      [this, ex, t_id, target = *target, reason = *reason] {
        Prepared p;
        auto event = store_.read_view().event(target);
        std::string stream = event ? std::string(event->event().getStream().cStr()) : "";
        auto name = projections::parse_stream(stream);
        if (!event || name.tournament != t_id) {
          p.refusal = problem(*ex, http::status::not_found,
                              i18n::Message("api.void.not_found", {{"seq", std::to_string(target)},
                                                                   {"tournament", t_id}}));
          return p;
        }
        state_.read([&](const LiveState& s) {
          auto decision = projections::decide_void(*s.tournament(t_id), event->event(), target,
                                                   ex->identity.organizer());
          if (!decision.refusal) {
            p.append.expected = ExpectedVersion::exactly(decision.expected_version);
          } else if (decision.refusal->kind ==
                     projections::VoidRefusal::Kind::seating_organizer_only) {
            p.refusal = problem(*ex, http::status::forbidden, decision.refusal->message);
          } else {
            p.refusal = unprocessable(*ex, decision.refusal->message,
                                      {{"void", "", "seq", decision.refusal->field_message}});
          }
        });
        if (p.refusal) return p;
        Draft d;
        d.event().setAuthor(ex->identity.id);
        d.event().setReason(reason);
        d.event().setSupersedes(target);
        d.event().getPayload().setVoid();
        p.append.stream = stream;
        p.append.events.push_back(std::move(d));
        return p;
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
