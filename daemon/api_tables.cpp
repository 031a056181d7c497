// Table actions: results (with HTTP preconditions), claims, picks, scorings, automatic picks and
// voids. Each table is its own stream, so judges at different tables never conflict; a judge who
// enters a table another judge has just entered gets 412 with that entry.
#include "daemon/api.hpp"
#include "daemon/body.hpp"
#include "daemon/views.hpp"

namespace tally::daemon {

using events::AppendResult;
using events::Draft;
using events::ExpectedVersion;
using projections::Tournament;
using Which = schema::Event::Payload::Which;

namespace {

// The table a request names, looked up under the state's read lock.
struct TableRef {
  const Tournament* tournament = nullptr;
  const projections::Game* game = nullptr;
  const projections::SeatedTable* seated = nullptr;
  const projections::TableState* state = nullptr;  // points at `blank` before the first action
  projections::TableState blank;
  std::uint32_t round = 0;
};

// Fills `ref`; answers 404 (returned) when the tournament, round or table does not exist.
std::optional<Response> find_table(const LiveState& s, const Exchange& ex, TableRef& ref) {
  const std::string& t_id = ex.params.at("t");
  ref.tournament = s.tournament(t_id);
  if (ref.tournament == nullptr) {
    return problem(ex.request, http::status::not_found, "no tournament \"" + t_id + "\"");
  }
  ref.game = s.game_of(*ref.tournament);
  auto round = parse_number(ex.params.at("r"));
  auto table = parse_number(ex.params.at("n"));
  const projections::Round* r = round && *round <= UINT32_MAX
                                    ? ref.tournament->round(static_cast<std::uint32_t>(*round))
                                    : nullptr;
  if (r == nullptr) {
    return problem(ex.request, http::status::not_found,
                   "no round " + ex.params.at("r") + " in " + t_id);
  }
  ref.round = r->number;
  ref.seated =
      table && *table <= UINT32_MAX ? r->table(static_cast<std::uint32_t>(*table)) : nullptr;
  if (ref.seated == nullptr) {
    return problem(ex.request, http::status::not_found,
                   "no table " + ex.params.at("n") + " in round " + ex.params.at("r"));
  }
  ref.state = ref.tournament->table(ref.round, ref.seated->number);
  if (ref.state == nullptr) {
    ref.blank = projections::blank_table(ref.round, ref.seated->number);
    ref.state = &ref.blank;
  }
  return std::nullopt;
}

// Splits the envelope members (`reason`, `supersedes`) off a table-action body.
struct Envelope {
  std::string reason;
  std::uint64_t supersedes = 0;
};

std::optional<Envelope> take_envelope(json::object& body, bool allow_supersedes,
                                      json::array& errors) {
  Envelope out;
  if (auto it = body.find("reason"); it != body.end()) {
    if (!it->value().is_string() || it->value().as_string().size() > 1000) {
      errors.push_back(
          error_entry("request", "", "reason", "must be a string of at most 1000 bytes"));
    } else {
      out.reason = std::string(it->value().as_string());
    }
    body.erase(it);
  }
  if (allow_supersedes) {
    if (auto it = body.find("supersedes"); it != body.end()) {
      auto n =
          it->value().is_uint64() ? std::optional<std::uint64_t>(it->value().as_uint64())
          : it->value().is_int64() && it->value().as_int64() > 0
              ? std::optional<std::uint64_t>(static_cast<std::uint64_t>(it->value().as_int64()))
              : std::nullopt;
      if (!n) {
        errors.push_back(
            error_entry("request", "", "supersedes", "must be the seq of an earlier action"));
      } else {
        out.supersedes = *n;
      }
      body.erase(it);
    }
  }
  if (!errors.empty()) return std::nullopt;
  return out;
}

std::optional<json::object> body_of(const ExchangePtr& ex) {
  auto parsed = parse_object(ex->request);
  if (auto* refusal = std::get_if<Response>(&parsed)) {
    ex->respond(std::move(*refusal));
    return std::nullopt;
  }
  return std::move(std::get<json::object>(parsed));
}

const char* action_noun(Which kind) {
  switch (kind) {
    case Which::CLAIMED_WIN:
      return "claims";
    case Which::HOUSE_PICK:
      return "house picks";
    case Which::CARCASSONNE_SCORING:
      return "scorings";
    default:
      return "this action";
  }
}

}  // namespace

Response Api::table_answer(const ExchangePtr& ex, const AppendResult& r, http::status status) {
  return state_.read([&](const LiveState& s) {
    TableRef ref;
    if (auto missing = find_table(s, *ex, ref)) return std::move(*missing);
    json::object out = table_json(s, *ref.tournament, *ref.game, ref.round, *ref.seated);
    out["seq"] = r.last_seq;
    Response response = json_response(ex->request, status, out);
    response.set(http::field::etag, etag(r.stream_version));
    return response;
  });
}

void Api::put_result(const ExchangePtr& ex) {
  auto if_none_match = ex->request.find(http::field::if_none_match);
  auto if_match = ex->request.find(http::field::if_match);
  bool first_entry = if_none_match != ex->request.end();
  std::optional<std::uint64_t> expected_version;
  if (first_entry && if_none_match->value() != "*") {
    return ex->respond(problem(ex->request, http::status::bad_request,
                               "If-None-Match must be * (enter a table's first result)"));
  }
  if (if_match != ex->request.end()) {
    expected_version = parse_etag(if_match->value());
    if (!expected_version) {
      return ex->respond(
          problem(ex->request, http::status::bad_request,
                  "If-Match must be the table's version as its ETag gives it, e.g. \"3\""));
    }
  }
  if (!first_entry && !expected_version) {
    return ex->respond(problem(
        ex->request, http::status::precondition_required,
        "say what you expect of the table: If-None-Match: * for a first entry, or If-Match: "
        "\"<version>\" with a reason to replace a result"));
  }
  auto body = body_of(ex);
  if (!body) return;
  json::array envelope_errors;
  auto envelope = take_envelope(*body, false, envelope_errors);
  if (!envelope) return ex->respond(unprocessable(ex->request, "invalid result", envelope_errors));
  auto payload = std::make_shared<json::object>(std::move(*body));
  // Whether this write replaces a result (200) or is the first (201), as prepared; an idempotent
  // replay skips the preparation and reads it from the original event instead.
  auto replaces = std::make_shared<std::optional<bool>>();

  write(
      ex,
      [this, ex, payload, first_entry, expected_version, replaces, reason = envelope->reason] {
        Prepared p;
        state_.read([&](const LiveState& s) {
          TableRef ref;
          if (auto missing = find_table(s, *ex, ref)) {
            p.refusal = std::move(*missing);
            return;
          }
          const projections::Action* current = ref.state->result();
          auto precondition_failed = [&](std::string detail) {
            json::object table = table_json(s, *ref.tournament, *ref.game, ref.round, *ref.seated);
            Response r = problem(ex->request, http::status::precondition_failed, detail, {},
                                 json::object{{"table", std::move(table)}});
            r.set(http::field::etag, etag(ref.state->version));
            p.refusal = std::move(r);
          };
          if (first_entry && current != nullptr) {
            auto e = current->envelope();
            return precondition_failed("already entered by " +
                                       author_name(s, e.getAuthor().cStr()) + " at " +
                                       iso_time(e.getRecordedAt()) + " (version " +
                                       std::to_string(ref.state->version) + ")");
          }
          if (expected_version && *expected_version != ref.state->version) {
            return precondition_failed(
                "the table is at version " + std::to_string(ref.state->version) + ", not " +
                std::to_string(*expected_version) + ": someone changed it since you read it");
          }
          if (current != nullptr && reason.empty()) {
            p.refusal = unprocessable(ex->request, "replacing a result needs a reason",
                                      json::array{error_entry("reason", "", "reason",
                                                              "say why the result is corrected")});
            return;
          }
          Draft d;
          auto e = d.event();
          e.setAuthor(ex->identity.id);
          e.setReason(reason);
          e.setSupersedes(current ? current->seq() : 0);
          auto structure =
              schema::decode_payload(*payload, e.getPayload(), ref.game->result_kind());
          if (!structure.empty()) {
            p.refusal = unprocessable(ex->request, "the result does not have the expected fields",
                                      schema_errors(structure));
            return;
          }
          auto broken = ref.game->check_action(*ref.tournament, *ref.state, e.asReader());
          if (!broken.empty()) {
            p.refusal =
                unprocessable(ex->request, "the result breaks the rules", rule_errors(broken));
            return;
          }
          p.append.stream =
              projections::table_stream(ref.tournament->id, ref.round, ref.seated->number);
          p.append.expected = ExpectedVersion::exactly(ref.state->version);
          p.append.events.push_back(std::move(d));
          *replaces = current != nullptr;
        });
        return p;
      },
      [this, ex, replaces](const AppendResult& r) {
        bool replaced = false;
        if (replaces->has_value()) {
          replaced = **replaces;
        } else if (auto event = store_.read_view().event(r.first_seq)) {
          replaced = event->event().getSupersedes() != 0;
        }
        return table_answer(ex, r, replaced ? http::status::ok : http::status::created);
      });
}

void Api::post_table_action(const ExchangePtr& ex, Which kind) {
  auto body = body_of(ex);
  if (!body) return;
  json::array envelope_errors;
  auto envelope = take_envelope(*body, true, envelope_errors);
  if (!envelope) return ex->respond(unprocessable(ex->request, "invalid request", envelope_errors));
  // A scoring's body is the scoring event itself; its payload keeps it whole as JSON.
  auto payload = std::make_shared<json::object>(kind == Which::CARCASSONNE_SCORING
                                                    ? json::object{{"event", std::move(*body)}}
                                                    : std::move(*body));

  write(
      ex,
      [this, ex, kind, payload, envelope = *envelope] {
        Prepared p;
        state_.read([&](const LiveState& s) {
          TableRef ref;
          if (auto missing = find_table(s, *ex, ref)) {
            p.refusal = std::move(*missing);
            return;
          }
          if (!ref.game->accepts(kind)) {
            p.refusal = problem(ex->request, http::status::not_found,
                                std::string(ref.tournament->game) + " has no " + action_noun(kind));
            return;
          }
          if (envelope.supersedes != 0) {
            bool in_effect = false;
            for (const auto& a : ref.state->actions) {
              in_effect =
                  in_effect || (a.seq() == envelope.supersedes && a.payload().which() == kind);
            }
            json::array errors;
            if (!in_effect) {
              errors.push_back(
                  error_entry("supersedes", "", "supersedes",
                              "is not an action of this kind in effect at this table"));
            }
            if (envelope.reason.empty()) {
              errors.push_back(error_entry("reason", "", "reason", "a correction needs a reason"));
            }
            if (!errors.empty()) {
              p.refusal = unprocessable(ex->request, "invalid correction", std::move(errors));
              return;
            }
          }
          Draft d;
          auto e = d.event();
          e.setAuthor(ex->identity.id);
          e.setReason(envelope.reason);
          e.setSupersedes(envelope.supersedes);
          auto structure = schema::decode_payload(*payload, e.getPayload(), kind);
          if (!structure.empty()) {
            p.refusal = unprocessable(ex->request, "the request does not have the expected fields",
                                      schema_errors(structure));
            return;
          }
          auto broken = ref.game->check_action(*ref.tournament, *ref.state, e.asReader());
          if (!broken.empty()) {
            p.refusal = unprocessable(ex->request, "refused by the rules", rule_errors(broken));
            return;
          }
          p.append.stream =
              projections::table_stream(ref.tournament->id, ref.round, ref.seated->number);
          p.append.expected = ExpectedVersion::exactly(ref.state->version);
          p.append.events.push_back(std::move(d));
        });
        return p;
      },
      [this, ex](const AppendResult& r) {
        return state_.read([&](const LiveState& s) {
          json::object out{{"seq", r.last_seq}, {"version", r.stream_version}};
          TableRef ref;
          if (!find_table(s, *ex, ref)) {
            for (const auto& action : ref.state->actions) {
              if (action.seq() != r.first_seq) continue;
              for (auto& [k, v] : ref.game->describe_action(*ref.tournament, *ref.state, action))
                out[k] = v;
            }
          }
          Response response = json_response(ex->request, http::status::created, out);
          response.set(http::field::etag, etag(r.stream_version));
          return response;
        });
      });
}

void Api::auto_picks(const ExchangePtr& ex) {
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
          if (!ref.game->accepts(Which::HOUSE_PICK)) {
            p.refusal = problem(ex->request, http::status::not_found,
                                ref.tournament->game + " has no house picks");
            return;
          }
          auto outcome = ref.game->auto_actions(*ref.tournament, *ref.state);
          if (!outcome) {
            p.refusal = unprocessable(ex->request, "the table cannot be completed",
                                      rule_errors(outcome.errors));
            return;
          }
          if (outcome.value->empty()) {
            p.refusal = problem(ex->request, http::status::conflict,
                                "every player at this table already has a house");
            return;
          }
          for (auto& message : *outcome.value) {
            Draft d;
            d.event().setAuthor(ex->identity.id);
            d.event().getPayload().setHousePick(
                message->getRoot<schema::Event>().getPayload().getHousePick());
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
  auto body = body_of(ex);
  if (!body) return;
  BodyFields fields(*body, {"reason"});
  auto reason = fields.text("reason", true, 1000);
  auto target = parse_number(ex->params.at("seq"));
  if (!target) fields.fail("seq", "must be the seq of an event", "seq");
  if (!fields.ok())
    return ex->respond(unprocessable(ex->request, "a void needs a reason", fields.errors()));
  const std::string t_id = ex->params.at("t");

  write(
      ex,
      [this, ex, t_id, target = *target, reason = *reason] {
        Prepared p;
        auto event = store_.read_view().event(target);
        std::string stream = event ? std::string(event->event().getStream().cStr()) : "";
        auto name = projections::parse_stream(stream);
        if (!event || name.tournament != t_id) {
          p.refusal = problem(ex->request, http::status::not_found,
                              "no event " + std::to_string(target) + " in " + t_id);
          return p;
        }
        Which kind = event->event().getPayload().which();
        state_.read([&](const LiveState& s) {
          const Tournament* t = s.tournament(t_id);
          if (kind == Which::ROUND_SEATED) {
            // Only the newest round's seating, and only before anything happened at its tables.
            if (!ex->identity.organizer()) {
              p.refusal = problem(ex->request, http::status::forbidden,
                                  "only the organizer withdraws a seating");
              return;
            }
            bool newest = !t->rounds.empty() && t->rounds.back().seq == target;
            bool untouched =
                newest && std::none_of(t->tables.begin(), t->tables.end(), [&](const auto& kv) {
                  return kv.first.first == t->rounds.back().number && kv.second.version > 0;
                });
            if (!newest || !untouched) {
              p.refusal =
                  unprocessable(ex->request, "this seating cannot be withdrawn",
                                json::array{error_entry(
                                    "void", "", "seq",
                                    "only the newest round's seating, before any table action")});
              return;
            }
            p.append.expected = ExpectedVersion::exactly(t->version);
            return;
          }
          bool voidable = kind == Which::CLAIMED_WIN || kind == Which::HOUSE_PICK ||
                          kind == Which::CARCASSONNE_SCORING;
          if (!voidable) {
            p.refusal = unprocessable(
                ex->request, "this event cannot be voided",
                json::array{
                    error_entry("void", "", "seq",
                                "only claims, picks, scorings and seatings are voided; a result is "
                                "corrected with PUT …/result and a reason")});
            return;
          }
          const projections::TableState* table = t->table(name.round, name.table);
          bool in_effect =
              table != nullptr && std::any_of(table->actions.begin(), table->actions.end(),
                                              [&](const auto& a) { return a.seq() == target; });
          if (!in_effect) {
            p.refusal = unprocessable(
                ex->request, "this event is no longer in effect",
                json::array{error_entry("void", "", "seq", "already voided or corrected")});
            return;
          }
          p.append.expected = ExpectedVersion::exactly(table->version);
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
