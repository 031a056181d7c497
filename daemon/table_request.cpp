#include "daemon/table_request.hpp"

#include "daemon/body.hpp"
#include "daemon/views.hpp"
#include "projections/table_rules.hpp"

namespace tally::daemon {

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

namespace {

// Splits the envelope members off a table-action body; `supersedes` only where a POST action
// may carry it (a result's correction supersedes the result in effect, found by the server).
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

}  // namespace

std::variant<TableRequest, Response> read_table_request(const Exchange& ex, std::string action,
                                                        bool check_only) {
  TableRequest req;
  req.action = std::move(action);
  const bool is_result = req.is_result();
  if (is_result && !check_only) {
    auto if_none_match = ex.request.find(http::field::if_none_match);
    auto if_match = ex.request.find(http::field::if_match);
    req.first_entry = if_none_match != ex.request.end();
    if (req.first_entry && if_none_match->value() != "*") {
      return problem(ex.request, http::status::bad_request,
                     "If-None-Match must be * (enter a table's first result)");
    }
    if (if_match != ex.request.end()) {
      req.expected_version = parse_etag(if_match->value());
      if (!req.expected_version) {
        return problem(ex.request, http::status::bad_request,
                       "If-Match must be the table's version as its ETag gives it, e.g. \"3\"");
      }
    }
    if (!req.first_entry && !req.expected_version) {
      return problem(
          ex.request, http::status::precondition_required,
          "say what you expect of the table: If-None-Match: * for a first entry, or If-Match: "
          "\"<version>\" with a reason to replace a result");
    }
  }
  auto parsed = parse_object(ex.request);
  if (auto* refusal = std::get_if<Response>(&parsed)) return std::move(*refusal);
  json::object& body = std::get<json::object>(parsed);
  json::array envelope_errors;
  auto envelope = take_envelope(body, !is_result, envelope_errors);
  if (!envelope) {
    return unprocessable(ex.request, is_result ? "invalid result" : "invalid request",
                         envelope_errors);
  }
  req.envelope = std::move(*envelope);
  req.body = std::make_shared<const json::object>(std::move(body));
  return req;
}

DraftedAction draft_table_action(const LiveState& s, const Exchange& ex, const TableRequest& req,
                                 TableRef& ref) {
  DraftedAction out;
  auto refuse = [&](Response r) {
    out.refusal = std::move(r);
    return std::move(out);
  };
  if (auto missing = find_table(s, ex, ref)) return refuse(std::move(*missing));
  const projections::ActionSpec* spec = ref.game->describe().action(req.action);
  if (spec == nullptr) {
    return refuse(problem(ex.request, http::status::not_found,
                          ref.tournament->game + " has no " + req.action));
  }
  const bool is_result = req.is_result();
  std::uint64_t supersedes = req.envelope.supersedes;
  if (is_result) {
    const projections::Action* current = ref.state->result();
    auto precondition_failed = [&](std::string detail) {
      json::object table = table_json(s, *ref.tournament, *ref.game, ref.round, *ref.seated);
      Response r = problem(ex.request, http::status::precondition_failed, detail, {},
                           json::object{{"table", std::move(table)}});
      r.set(http::field::etag, etag(ref.state->version));
      return r;
    };
    if (req.first_entry && current != nullptr) {
      auto e = current->envelope();
      return refuse(precondition_failed(
          "already entered by " + author_name(s, e.getAuthor().cStr()) + " at " +
          iso_time(e.getRecordedAt()) + " (version " + std::to_string(ref.state->version) + ")"));
    }
    if (req.expected_version && *req.expected_version != ref.state->version) {
      return refuse(precondition_failed(
          "the table is at version " + std::to_string(ref.state->version) + ", not " +
          std::to_string(*req.expected_version) + ": someone changed it since you read it"));
    }
    // Replacing the result in effect is its correction.
    supersedes = current != nullptr ? current->seq() : 0;
    out.replaces_result = current != nullptr;
  }
  if (supersedes != 0 && req.envelope.reason.empty()) {
    return refuse(unprocessable(
        ex.request, is_result ? "replacing a result needs a reason" : "invalid correction",
        json::array{error_entry(
            "reason", "", "reason",
            is_result ? "say why the result is corrected" : "a correction needs a reason")}));
  }
  auto e = out.draft.event();
  e.setAuthor(ex.identity.id);
  e.setReason(req.envelope.reason);
  e.setSupersedes(supersedes);
  // A body that is one member of the payload (a scoring's event) is wrapped into it.
  const json::object* payload = req.body.get();
  json::object wrapped;
  if (!spec->body_member.empty()) {
    wrapped[spec->body_member] = *req.body;
    payload = &wrapped;
  }
  auto structure = schema::decode_payload(*payload, e.getPayload(), spec->kind);
  if (!structure.empty()) {
    return refuse(unprocessable(ex.request,
                                is_result ? "the result does not have the expected fields"
                                          : "the request does not have the expected fields",
                                schema_errors(structure)));
  }
  auto broken = ref.game->check_action(*ref.tournament, *ref.state, e.asReader());
  if (!broken.empty()) {
    return refuse(unprocessable(ex.request,
                                is_result ? "the result breaks the rules" : "refused by the rules",
                                rule_errors(broken)));
  }
  return out;
}

}  // namespace tally::daemon
