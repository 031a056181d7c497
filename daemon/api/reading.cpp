// Reading: standings (now and as of any past event), the audit trail, raw events, the hash chain,
// health, metrics, the games' descriptions and their stateless calculators.
#include "daemon/api/api.hpp"
#include "daemon/api/json_diff.hpp"
#include "daemon/api/views.hpp"
#include "daemon/http/body.hpp"
#include "deciders/void_event.hpp"
#include "events/sha256.hpp"
#include "projections/stage_progress.hpp"
#include "schema/json_codec.hpp"
#include "schema/text.hpp"

#include <charconv>

namespace tally::daemon {

using projections::Tournament;
using schema::text;

namespace {

std::optional<std::uint64_t> query_number(const Exchange& ex, const std::string& key) {
  auto it = ex.query.find(key);
  if (it == ex.query.end()) return std::nullopt;
  std::uint64_t n = 0;
  auto [end, ec] = std::from_chars(it->second.data(), it->second.data() + it->second.size(), n);
  if (ec != std::errc() || end != it->second.data() + it->second.size()) return std::nullopt;
  return n;
}

Response bad_query(const Exchange& ex, const std::string& key) {
  return problem(ex, http::status::bad_request,
                 i18n::Message("api.query.not_number", {{"name", key}}));
}

}  // namespace

void Api::standings(const ExchangePtr& ex) {
  const std::string& t_id = ex->params.at("t");
  bool has_as_of = ex->query.count("as_of") > 0;
  auto as_of = query_number(*ex, "as_of");
  if (has_as_of && !as_of) return ex->respond(bad_query(*ex, "as_of"));

  // Now — or a moment at or after the newest event — is the projections' to answer.
  std::optional<Viewed> live =
      read_state([&](const LiveState& s) { return queries::live_standings(s, t_id, as_of); });
  if (live) return ex->respond(viewed_response(*ex, std::move(*live)));
  // As it was after event as_of: fold the tournament's events up to it.
  std::vector<schema::StoredEvent> events =
      store_.read_view().tree(projections::tournament_stream(t_id));
  std::erase_if(events, [&](const auto& e) { return e.seq() > *as_of; });
  auto past = Tournament::fold(events);
  if (!past) {
    return ex->respond(
        problem(*ex, http::status::not_found,
                i18n::Message("api.standings.before_tournament",
                              {{"tournament", t_id}, {"seq", std::to_string(*as_of)}})));
  }
  const projections::Game* game = games_.find(past->game);
  json::object out = projections::tournament_standings(*past, *game);
  out["seq"] = *as_of;
  out["as_of"] = *as_of;
  ex->respond(with_seq(json_response(ex->request, http::status::ok, out), *as_of));
}

void Api::audit(const ExchangePtr& ex) {
  const std::string& t_id = ex->params.at("t");
  if (!read_state([&](const LiveState& s) { return queries::tournament_exists(s, t_id); }))
    return ex->respond(tournament_not_found(*ex, t_id));
  queries::AuditFilter filter;
  for (const char* key : {"round", "table"}) {
    if (ex->query.count(key) == 0) continue;
    auto n = query_number(*ex, key);
    if (!n) return ex->respond(bad_query(*ex, key));
    (std::string(key) == "round" ? filter.round : filter.table) = n;
  }
  if (ex->query.count("player")) filter.player = ex->query.at("player");

  auto view = store_.read_view();
  auto events = view.tree(projections::tournament_stream(t_id));
  json::array out = read_state([&](const LiveState& s) {
    return queries::audit_entries(s, t_id, events, filter, actor_of(*ex));
  });
  std::uint64_t seq = view.head().seq;
  ex->respond(with_seq(json_response(ex->request, http::status::ok,
                                     json::object{{"seq", seq}, {"events", std::move(out)}}),
                       seq));
}

void Api::events(const ExchangePtr& ex) {
  const std::string& t_id = ex->params.at("t");
  if (!read_state([&](const LiveState& s) { return queries::tournament_exists(s, t_id); }))
    return ex->respond(tournament_not_found(*ex, t_id));
  auto from = ex->query.count("from") ? query_number(*ex, "from") : std::optional<std::uint64_t>(0);
  auto limit =
      ex->query.count("limit") ? query_number(*ex, "limit") : std::optional<std::uint64_t>(1000);
  if (!from) return ex->respond(bad_query(*ex, "from"));
  if (!limit || *limit == 0 || *limit > 10000) {
    return ex->respond(problem(*ex, http::status::bad_request, "api.events.limit"));
  }
  auto view = store_.read_view();
  json::array out;
  std::uint64_t next = 0;
  for (const auto& e : view.tree(projections::tournament_stream(t_id))) {
    if (e.seq() < *from) continue;
    if (out.size() == *limit) {
      next = e.seq();
      break;
    }
    out.push_back(event_json(e, nullptr, ex->identity.authenticated()));
  }
  json::object body{{"seq", view.head().seq}, {"events", std::move(out)}};
  body["next"] = next == 0 ? json::value(nullptr) : json::value(next);
  ex->respond(with_seq(json_response(ex->request, http::status::ok, body), view.head().seq));
}

void Api::verify(const ExchangePtr& ex) {
  auto result = store_.verify();
  json::object out{{"ok", result.ok}, {"events", result.events}};
  if (result.ok) {
    out["head"] = events::hex(result.head);
  } else {
    out["first_bad"] = result.first_bad;
    out["problem"] = result.problem;
  }
  ex->respond(json_response(ex->request, http::status::ok, out));
}

void Api::healthz(const ExchangePtr& ex) {
  auto head = store_.head();
  json::object out{{"ok", true}, {"seq", head.seq}};
  // Replication's word, when it has one: `ok` is false while a write cannot be answered — a
  // former primary, or a synchronous standby gone with replicas_ack_missing = wait.
  if (auto fence = replication_.leadership.fenced()) {
    out["ok"] = false;
    out["fenced"] = json::object{{"epoch", fence->epoch}, {"by", fence->by}, {"at", fence->at}};
  }
  if (replication_.acks.enabled()) {
    const StandbyAcks::State s = replication_.acks.state();
    if (s.standby_missing && !s.continue_alone) out["ok"] = false;  // writes wait for it
    out["standby"] = standby_json(s);
  }
  ex->respond(json_response(ex->request, http::status::ok, out));
}

void Api::metrics(const ExchangePtr& ex) {
  std::uint64_t head = store_.head().seq;
  std::uint64_t applied = read_state(queries::applied_seq);
  Response response(http::status::ok, ex->request.version());
  response.set(http::field::content_type, "text/plain; version=0.0.4");
  response.keep_alive(ex->request.keep_alive());
  response.body() = metrics_.render(head, head > applied ? head - applied : 0);
  response.prepare_payload();
  ex->respond(std::move(response));
}

void Api::list_games(const ExchangePtr& ex) {
  json::array out;
  for (const auto& id : games_.ids()) out.push_back(game_json(*games_.find(id), ex->lang));
  Response response = json_response(ex->request, http::status::ok, out);
  set_language(response, ex->lang);  // the fields' labels
  ex->respond(std::move(response));
}

// the game's ratings, rebuilt from every tournament's results in effect.
void Api::ratings(const ExchangePtr& ex) {
  run_query(ex, [&game = ex->params.at("game")](const LiveState& s) {
    return queries::ratings(s, game);
  });
}

// A game's stateless calculator (e.g. a scoring calculator): the body is the
// calculation's input, the tournament rules come as query parameters
// (?edition=C2&buildings_variant=true).
void Api::game_calculation(const ExchangePtr& ex) {
  const std::string& id = ex->params.at("game");
  const projections::Game* game = games_.find(id);
  if (game == nullptr) {
    return ex->respond(
        problem(*ex, http::status::not_found, i18n::Message("api.game.not_found", {{"game", id}})));
  }
  auto parsed = parse_object(*ex);
  if (auto* refusal = std::get_if<Response>(&parsed)) return ex->respond(std::move(*refusal));
  json::object overrides;
  for (const auto& [key, value] : ex->query) {
    boost::system::error_code ec;
    json::value v = json::parse(value, ec);
    overrides[key] = ec || v.is_object() || v.is_array() ? json::value(value) : v;
  }
  auto rules = game->normalize_rules(overrides);
  if (!rules)
    return ex->respond(unprocessable(*ex, "api.rules.invalid", rule_errors(rules.errors)));
  auto outcome = game->calculate(std::get<json::object>(parsed), *rules.value);
  if (!outcome) {
    return ex->respond(
        unprocessable(*ex, "api.game.calculation_refused", rule_errors(outcome.errors)));
  }
  ex->respond(json_response(ex->request, http::status::ok, *outcome.value));
}

}  // namespace tally::daemon
