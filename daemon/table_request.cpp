#include "daemon/table_request.hpp"

#include "projections/text_rule.hpp"

#include "daemon/body.hpp"
#include "daemon/views.hpp"
#include "projections/table_rules.hpp"

namespace tally::daemon {

std::optional<Response> find_round(const LiveState& s, const Exchange& ex, RoundRef& ref) {
  const std::string& t_id = ex.params.at("t");
  ref.tournament = s.tournament(t_id);
  if (ref.tournament == nullptr) return tournament_not_found(ex, t_id);
  auto round = parse_number(ex.params.at("r"));
  ref.round = round && *round <= UINT32_MAX
                  ? ref.tournament->round(static_cast<std::uint32_t>(*round))
                  : nullptr;
  if (ref.round == nullptr) {
    return problem(
        ex, http::status::not_found,
        i18n::Message("api.round.not_found", {{"round", ex.params.at("r")}, {"tournament", t_id}}));
  }
  return std::nullopt;
}

std::optional<Response> find_table(const LiveState& s, const Exchange& ex, TableRef& ref) {
  RoundRef round;
  if (auto missing = find_round(s, ex, round)) return missing;
  auto table = parse_number(ex.params.at("n"));
  const projections::SeatedTable* seated =
      table && *table <= UINT32_MAX ? round.round->table(static_cast<std::uint32_t>(*table))
                                    : nullptr;
  if (seated == nullptr) {
    return problem(ex, http::status::not_found,
                   i18n::Message("api.table.not_found",
                                 {{"table", ex.params.at("n")}, {"round", ex.params.at("r")}}));
  }
  point_at_table(s, round, *seated, ref);
  return std::nullopt;
}

void point_at_table(const LiveState& s, const RoundRef& round,
                    const projections::SeatedTable& seated, TableRef& ref) {
  ref.tournament = round.tournament;
  ref.game = s.game_of(*ref.tournament);
  ref.round = round.round->number;
  ref.seated = &seated;
  ref.state = ref.tournament->table(ref.round, seated.number);
  if (ref.state == nullptr) {
    ref.blank = projections::blank_table(ref.round, seated.number);
    ref.state = &ref.blank;
  }
}

std::vector<schema::FieldError> decode_action_body(const projections::ActionSpec& spec,
                                                   const json::object& body,
                                                   schema::Event::Payload::Builder payload) {
  if (spec.body_member.empty()) return schema::decode_payload(body, payload, spec.kind);
  json::object wrapped;
  wrapped[spec.body_member] = body;
  return schema::decode_payload(wrapped, payload, spec.kind);
}

namespace {

// Splits the envelope members off a table-action body; `supersedes` only where a POST action
// may carry it (a result's correction supersedes the result in effect, found by the server).
std::optional<Envelope> take_envelope(json::object& body, bool allow_supersedes,
                                      ErrorEntries& errors) {
  Envelope out;
  if (auto it = body.find("reason"); it != body.end()) {
    if (!it->value().is_string() || it->value().as_string().size() > 1000) {
      errors.push_back({"request", "", "reason", "api.envelope.reason"});
    } else if (auto problem = it->value().as_string().empty()
                                  ? std::nullopt
                                  : projections::text_problem(it->value().as_string())) {
      errors.push_back({"text", "", "reason", std::move(*problem)});
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
        errors.push_back({"request", "", "supersedes", "api.envelope.supersedes"});
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
      return problem(ex, http::status::bad_request, "api.precondition.if_none_match");
    }
    if (if_match != ex.request.end()) {
      req.expected_version = parse_etag(if_match->value());
      if (!req.expected_version) {
        return problem(ex, http::status::bad_request, "api.precondition.if_match");
      }
    }
    if (!req.first_entry && !req.expected_version) {
      return problem(ex, http::status::precondition_required, "api.precondition.required");
    }
  }
  auto parsed = parse_object(ex);
  if (auto* refusal = std::get_if<Response>(&parsed)) return std::move(*refusal);
  json::object& body = std::get<json::object>(parsed);
  ErrorEntries envelope_errors;
  auto envelope = take_envelope(body, !is_result, envelope_errors);
  if (!envelope) {
    return unprocessable(ex, is_result ? "api.table.invalid_result" : "api.table.invalid_request",
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
    return refuse(problem(ex, http::status::not_found,
                          i18n::Message("api.table.no_action",
                                        {{"game", ref.tournament->game}, {"action", req.action}})));
  }
  const bool is_result = req.is_result();
  std::uint64_t supersedes = req.envelope.supersedes;
  if (is_result) {
    const projections::Action* current = ref.state->result();
    auto precondition_failed = [&](const i18n::Message& detail) {
      json::object table = table_json(s, *ref.tournament, *ref.game, ref.round, *ref.seated);
      Response r = problem(ex, http::status::precondition_failed, detail, {},
                           json::object{{"table", std::move(table)}});
      r.set(http::field::etag, etag(ref.state->version));
      return r;
    };
    if (req.first_entry && current != nullptr) {
      auto e = current->envelope();
      return refuse(precondition_failed(i18n::Message(
          "api.table.already_entered", {{"judge", author_name(s, e.getAuthor().cStr())},
                                        {"time", iso_time(e.getRecordedAt())},
                                        {"version", std::to_string(ref.state->version)}})));
    }
    if (req.expected_version && *req.expected_version != ref.state->version) {
      return refuse(precondition_failed(i18n::Message(
          "api.table.version_moved", {{"now", std::to_string(ref.state->version)},
                                      {"expected", std::to_string(*req.expected_version)}})));
    }
    // Replacing the result in effect is its correction.
    supersedes = current != nullptr ? current->seq() : 0;
    out.replaces_result = current != nullptr;
  }
  if (supersedes != 0 && req.envelope.reason.empty() && !req.proposal) {
    return refuse(unprocessable(
        ex, is_result ? "api.correction.result_needs_reason" : "api.correction.invalid",
        {{"reason", "", "reason",
          is_result ? "api.correction.say_why" : "api.correction.needs_reason"}}));
  }
  auto e = out.draft.event();
  e.setAuthor(ex.identity.id);
  e.setReason(req.envelope.reason);
  e.setSupersedes(supersedes);
  auto structure = decode_action_body(*spec, *req.body, e.getPayload());
  if (!structure.empty()) {
    return refuse(unprocessable(ex.request, ex.audience(*ref.tournament),
                                is_result ? "api.table.result_fields" : "api.table.request_fields",
                                schema_errors(structure)));
  }
  auto broken = ref.game->check_action(*ref.tournament, *ref.state, e.asReader());
  if (!broken.empty()) {
    return refuse(
        unprocessable(ex.request, ex.audience(*ref.tournament),
                      is_result ? "api.table.result_breaks_rules" : "api.table.refused_by_rules",
                      rule_errors(broken)));
  }
  return out;
}

projections::Tournament tournament_with(const TableRef& ref, schema::Event::Reader event,
                                        std::uint64_t seq) {
  projections::Tournament tournament = *ref.tournament;
  projections::TableState& after = tournament.tables[{ref.round, ref.seated->number}];
  after = projections::with_proposed(*ref.state, event, seq);
  tournament.last_seq = seq;
  return tournament;
}

}  // namespace tally::daemon
