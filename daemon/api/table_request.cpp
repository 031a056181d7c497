#include "daemon/api/table_request.hpp"

#include "text/text_rule.hpp"

#include "daemon/api/views.hpp"
#include "daemon/http/body.hpp"
#include "projections/table_rules.hpp"

namespace tally::daemon {

std::optional<deciders::Refusal> find_round(const LiveState& s,
                                            const deciders::RoundAddress& address, RoundRef& ref) {
  ref.tournament = s.tournament(address.tournament);
  auto found = deciders::find_round(ref.tournament, address);
  if (auto* refusal = std::get_if<deciders::Refusal>(&found)) return std::move(*refusal);
  ref.round = std::get<const projections::Round*>(found);
  return std::nullopt;
}

std::optional<deciders::Refusal> find_table(const LiveState& s,
                                            const deciders::TableAddress& address, TableRef& ref) {
  const projections::Tournament* t = s.tournament(address.tournament);
  if (auto missing = deciders::find_table(t, address, ref)) return missing;
  ref.game = s.game_of(*t);
  return std::nullopt;
}

void point_at_table(const LiveState& s, const RoundRef& round,
                    const projections::SeatedTable& seated, TableRef& ref) {
  deciders::point_at_table(*round.tournament, *round.round, seated, ref);
  ref.game = s.game_of(*round.tournament);
}

deciders::RoundAddress round_address(const Exchange& ex) {
  return {ex.params.at("t"), ex.params.at("r")};
}

deciders::TableAddress table_address(const Exchange& ex) {
  return {ex.params.at("t"), ex.params.at("r"), ex.params.at("n")};
}

namespace {

// Splits the envelope members off a table-action body; `supersedes` only where a POST action
// may carry it (a result's correction supersedes the result in effect, found by the server).
// The envelope's members go to `out` (reason, supersedes).
bool take_envelope(json::object& body, bool allow_supersedes, TableRequest& out,
                   ErrorEntries& errors) {
  if (auto it = body.find("reason"); it != body.end()) {
    if (!it->value().is_string() || it->value().as_string().size() > 1000) {
      errors.push_back({"request", "", "reason", "api.envelope.reason"});
    } else if (auto problem = it->value().as_string().empty()
                                  ? std::nullopt
                                  : text::text_problem(it->value().as_string())) {
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
  return errors.empty();
}

}  // namespace

std::variant<TableRequest, Response> read_table_request(const Exchange& ex, std::string action,
                                                        bool check_only) {
  TableRequest req;
  req.table = table_address(ex);
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
  if (!take_envelope(body, !is_result, req, envelope_errors)) {
    return unprocessable(ex, is_result ? "api.table.invalid_result" : "api.table.invalid_request",
                         envelope_errors);
  }
  req.body = std::make_shared<const json::object>(std::move(body));
  return req;
}

deciders::Decision<deciders::TableActionFacts> decide_table_action(const LiveState& s,
                                                                   const TableRequest& req,
                                                                   const deciders::Actor& actor,
                                                                   TableRef& ref) {
  const projections::Tournament* t = s.tournament(req.table.tournament);
  ref.game = t ? s.game_of(*t) : nullptr;
  return deciders::decide(
      t, ref.game, req, actor, [&s](std::string_view author) { return author_name(s, author); },
      ref);
}

}  // namespace tally::daemon
