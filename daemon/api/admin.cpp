// Judges, tournaments, players and rounds: the organizer's part of the API.
#include "daemon/api/api.hpp"
#include "daemon/api/table_request.hpp"
#include "daemon/api/views.hpp"
#include "daemon/http/body.hpp"
#include "daemon/http/refusal_answer.hpp"
#include "daemon/log.hpp"
#include "daemon/secrets.hpp"
#include "deciders/judges.hpp"
#include "deciders/players.hpp"
#include "deciders/seat_round.hpp"
#include "deciders/tournaments.hpp"
#include "deciders/unreported.hpp"
#include "events/sha256.hpp"
#include "text/collation.hpp"

#include <set>

namespace tally::daemon {

using events::AppendResult;
using projections::Tournament;

namespace {

// How many copies of a tournament a seating is computed on before it gives up (409) because the
// tournament kept changing while it was computed.
constexpr int kSeatingCopies = 5;

std::optional<schema::SeatingMethod> parse_method(const std::string& name) {
  if (name == "random") return schema::SeatingMethod::RANDOM;
  if (name == "standings") return schema::SeatingMethod::STANDINGS;
  if (name == "manual") return schema::SeatingMethod::MANUAL;
  return std::nullopt;
}

}  // namespace

// --- judges ----------------------------------------------------------------------------------

void Api::create_judge(const ExchangePtr& ex) { add_token_holder(ex, Role::judge); }
void Api::create_replica(const ExchangePtr& ex) { add_token_holder(ex, Role::replica); }
void Api::revoke_judge(const ExchangePtr& ex) { revoke_token_holder(ex, Role::judge); }
void Api::revoke_replica(const ExchangePtr& ex) { revoke_token_holder(ex, Role::replica); }

// A judge (POST /v1/judges) or a follower's replica token (POST /v1/replicas): a `judge_added`
// event with the token's hash and the role; the token itself only in this answer.
void Api::add_token_holder(const ExchangePtr& ex, Role role) {
  auto body = body_or_answer(ex);
  if (!body) return;
  BodyFields fields(*body, role == Role::replica
                               ? std::initializer_list<std::string_view>{"name", "standby"}
                               : std::initializer_list<std::string_view>{"name"});
  auto name = fields.name("name", true);
  // A standby's copy counts for replicas_ack; a mirror's does not.
  const bool standby = role == Role::replica && fields.boolean("standby").value_or(false);
  if (!fields.ok()) return ex->respond(unprocessable(*ex, "api.judge.invalid", fields.errors()));

  // Made once: a retry after a version conflict appends the same token's hash.
  auto token = std::make_shared<std::string>(random_token());
  run_command(
      ex,
      [command = deciders::AddTokenHolder{role, *name, standby, events::sha256(*token)},
       actor = actor_of(*ex)](const LiveState& s) {
        return deciders::decide(s.judges_view(), command, actor);
      },
      [this, ex, token, role](const AppendResult& r) {
        auto event = store_.read_view().event(r.first_seq);
        json::object out{{"seq", r.last_seq}};
        if (event) {
          auto added = event->event().getPayload().getJudgeAdded();
          std::string id = added.getId().cStr(), name = added.getName().cStr();
          out["id"] = id;
          out["name"] = name;
          if (role == Role::replica) out["standby"] = added.getStandby();
          // Two judges with one name cannot be told apart in the audit (replicas have no names
          // there).
          out["warnings"] =
              role != Role::judge ? json::array() : read_state([&](const LiveState& s) {
                return queries::judge_name_warnings(s, Audience{ex->lang}, id, name);
              });
        }
        // The token exists only in this answer; a repeated request cannot show it again.
        out["token"] = r.status == events::AppendStatus::appended ? json::value(*token) : nullptr;
        return json_response(ex->request, http::status::created, out);
      },
      {.answer_before_standby = true});  // the token is shown in this answer only
}

void Api::list_judges(const ExchangePtr& ex) { run_query(ex, queries::judges); }

void Api::revoke_token_holder(const ExchangePtr& ex, Role role) {
  std::string id = ex->params.at("id");
  run_command(
      ex,
      [command = deciders::RevokeTokenHolder{role, id}, actor = actor_of(*ex)](const LiveState& s) {
        return deciders::decide(s.judges_view(), command, actor);
      },
      [ex, id](const AppendResult& r) {
        return json_response(ex->request, http::status::ok,
                             json::object{{"id", id}, {"revoked", true}, {"seq", r.last_seq}});
      });
}

// --- tournaments and players -----------------------------------------------------------------

void Api::create_tournament(const ExchangePtr& ex) {
  auto body = body_or_answer(ex);
  if (!body) return;
  BodyFields fields(*body, {"id", "name", "game", "locale", "rules", "self_reporting"});
  auto id = fields.text("id", true, 64);
  auto name = fields.name("name", true);
  auto game_id = fields.text("game", true, 32);
  auto locale = fields.text("locale", false, 32).value_or("");
  const json::object* overrides = fields.object("rules");
  bool self_reporting = fields.boolean("self_reporting").value_or(false);
  if (id && !valid_tournament_id(*id))
    fields.fail(
        "id", i18n::Message("api.tournament.id_pattern", {{"pattern", "[a-z0-9][a-z0-9-]{0,63}"}}),
        "id");
  const projections::Game* game = game_id ? games_.find(*game_id) : nullptr;
  if (game_id && game == nullptr) {
    std::string known;
    for (auto& g : games_.ids()) known += (known.empty() ? "" : ", ") + g;
    fields.fail("game", i18n::Message("api.tournament.unknown_game", {{"games", known}}), "game");
  }
  if (!text::is_known_collation_locale(locale)) {
    fields.fail("locale", "api.tournament.unknown_locale", "locale");
  }
  if (!fields.ok())
    return ex->respond(unprocessable(*ex, "api.tournament.invalid", fields.errors()));

  deciders::CreateTournament command{*id, *name, locale, overrides ? *overrides : json::object(),
                                     self_reporting};
  run_command(
      ex,
      [command, game, actor = actor_of(*ex)](const LiveState& s) {
        return deciders::decide(s.tournament(command.id), *game, command, actor);
      },
      [this, ex, id = *id](const AppendResult& r) {
        return answer_query(*ex, [&](const LiveState& s) {
          return queries::tournament_written(s, id, ex->lang, r.last_seq);
        });
      });
}

void Api::list_tournaments(const ExchangePtr& ex) { run_query(ex, queries::tournaments); }

void Api::get_tournament(const ExchangePtr& ex) {
  run_query(ex, [ex](const LiveState& s) {
    return queries::tournament(s, ex->params.at("t"), ex->lang);
  });
}

void Api::add_player(const ExchangePtr& ex) {
  auto body = body_or_answer(ex);
  if (!body) return;
  BodyFields fields(*body, {"id", "name"});
  auto id = fields.text("id", false, 64);
  auto name = fields.name("name", true);
  if (id && !valid_player_id(*id)) {
    fields.fail("id", "api.player.id_pattern", "id");
  }
  if (!fields.ok()) return ex->respond(unprocessable(*ex, "api.player.invalid", fields.errors()));
  const std::string t_id = ex->params.at("t");
  run_command(
      ex,
      [command = deciders::AddPlayer{t_id, id, *name}, actor = actor_of(*ex)](const LiveState& s) {
        return deciders::decide(s.tournament(command.tournament), command, actor);
      },
      [this, ex, t_id](const AppendResult& r) {
        auto event = store_.read_view().event(r.first_seq);
        auto registered = event->event().getPayload().getPlayerRegistered();
        std::string id = registered.getId().cStr(), name = registered.getName().cStr();
        json::object out{{"id", id}, {"name", name}, {"seq", r.last_seq}};
        auto warnings = read_state([&](const LiveState& s) {
          return queries::player_name_warnings(s, ex->lang, t_id, name, id);
        });
        if (warnings) out["warnings"] = std::move(*warnings);
        Response response = json_response(ex->request, http::status::created, out);
        set_language(response, ex->lang);
        return response;
      },
      {.tournament = t_id});
}

void Api::drop_player(const ExchangePtr& ex) { change_dropped(ex, true); }

// Contract, third edition: a dropped player (by hand or as a no-show) is seated again from the
// next round; 409 when not dropped.
void Api::reinstate_player(const ExchangePtr& ex) { change_dropped(ex, false); }

void Api::change_dropped(const ExchangePtr& ex, bool drop) {
  auto body = body_or_answer(ex);
  if (!body) return;
  BodyFields fields(*body, {"reason"});
  auto reason = fields.display_text("reason", true, 1000);
  if (!fields.ok()) {
    return ex->respond(unprocessable(
        *ex, drop ? "api.player.drop_needs_reason" : "api.player.reinstate_needs_reason",
        fields.errors()));
  }
  const std::string t_id = ex->params.at("t"), player = ex->params.at("p");
  run_command(
      ex,
      [command = deciders::ChangeDropped{t_id, player, drop, *reason},
       actor = actor_of(*ex)](const LiveState& s) {
        return deciders::decide(s.tournament(command.tournament), command, actor);
      },
      [ex, player, drop](const AppendResult& r) {
        return json_response(ex->request, http::status::ok,
                             json::object{{"id", player}, {"dropped", drop}, {"seq", r.last_seq}});
      },
      {.tournament = t_id});
}

// --- rounds ----------------------------------------------------------------------------------

std::optional<Api::SeatingBody> Api::seating_body(const ExchangePtr& ex) {
  auto body = body_or_answer(ex);
  if (!body) return std::nullopt;
  BodyFields fields(*body, {"method", "seed", "tables", "reason", "force"});
  auto method_name = fields.text("method", false, 16);
  auto seed = fields.unsigned_integer("seed");
  const json::array* tables = fields.array("tables");
  SeatingBody out;
  out.reason = fields.display_text("reason", false, 1000).value_or("");
  out.force = fields.boolean("force").value_or(false);

  projections::SeatingRequest& request = out.request;
  if (method_name) {
    request.method = parse_method(*method_name);
    if (!request.method) fields.fail("method", "api.seating.method", "method");
  }
  bool manual = request.method == schema::SeatingMethod::MANUAL;
  if (manual && tables == nullptr) fields.fail("tables", "api.seating.tables_required", "tables");
  if (!manual && tables != nullptr)
    fields.fail("tables", "api.seating.tables_only_manual", "tables");
  if (seed && request.method && request.method != schema::SeatingMethod::RANDOM) {
    fields.fail("seed", "api.seating.seed_only_random", "seed");
  }
  if (out.force && out.reason.empty())
    fields.fail("reason", "api.seating.force_needs_reason", "reason");
  if (tables != nullptr) {
    for (std::size_t i = 0; i < tables->size(); ++i) {
      const json::value& table = (*tables)[i];
      std::vector<std::string> players;
      if (table.is_array()) {
        for (const auto& p : table.as_array()) {
          if (p.is_string()) players.emplace_back(p.as_string());
        }
      }
      if (!table.is_array() || players.size() != table.as_array().size()) {
        fields.fail("tables", i18n::Message("api.seating.table_not_ids", {{"table", i + 1}}));
      }
      request.tables.push_back(std::move(players));
    }
  }
  if (!fields.ok()) {
    ex->respond(unprocessable(*ex, "api.seating.invalid", fields.errors()));
    return std::nullopt;
  }
  request.seed = seed.value_or(random_seed());  // kept across retries: the draw is the same
  request.reason = out.reason;
  return out;
}

// Runs on seating_: the projection's lock is held only to copy the tournament and, after the
// seating is computed on the copy, to check that the tournament has not moved since (its last_seq
// covers its own stream and its tables' streams). A seating computed on a stale copy is computed
// again on a fresh one; the append then expects the tournament stream's version the copy had.
Api::Prepared Api::prepare_seating(const ExchangePtr& ex, const std::string& t_id,
                                   const SeatingBody& body, SeatingPlan& plan) {
  Prepared p;
  for (int copies = 0; copies < kSeatingCopies; ++copies) {
    auto copy = read_state([&](const LiveState& s) { return queries::tournament_copy(s, t_id); });
    if (!copy) {
      p.refusal = tournament_not_found(*ex, t_id);
      return p;
    }
    p.refusal.reset();
    plan.seating.reset();
    const Tournament& t = copy->tournament;
    auto decision = deciders::decide(t, *copy->game, body, actor_of(*ex));
    if (decision.refused()) {
      p.refusal = refusal_answer(*ex, ex->audience(t), decision.refusal());
    } else {
      plan.seating = std::move(decision.accepted().facts.seating);
      p.append.stream = std::move(decision.accepted().append.stream);
      p.append.expected = decision.accepted().append.expected;
      p.append.events = std::move(decision.accepted().append.events);
    }
    // The answer (a seating or a refusal) stands only for the tournament as it still is.
    if (read_state([&](const LiveState& s) {
          return queries::tournament_unchanged(s, t_id, t.last_seq);
        })) {
      plan.tournament = std::move(copy->tournament);
      return p;
    }
    log::info("seating discarded: the tournament changed while it was computed",
              {{"request_id", ex->request_id},
               {"tournament", t_id},
               {"copy_seq", t.last_seq},
               {"copies", copies + 1}});
    p.refusal = problem(*ex, http::status::conflict, "api.seating.kept_changing");
    p.append = {};
    plan.seating.reset();
  }
  return p;
}

namespace {

// Everyone the seating leaves without a table, and why (issue 38: the preview always says):
// [{"player","name","reason":"dropped|absent|bye","message"}] in registration order.
json::array not_seated_json(const Audience& audience, const Tournament& t,
                            const projections::Seating& seating) {
  std::set<std::string_view> seated;
  for (const auto& table : seating.tables)
    seated.insert(table.players.begin(), table.players.end());
  std::set<std::string_view> absent;
  for (const auto* p : t.absent_players()) absent.insert(p->id);
  json::array out;
  for (const auto& p : t.players) {
    if (seated.contains(p.id)) continue;
    bool away = absent.contains(p.id);
    const char* reason = p.dropped ? "dropped" : away ? "absent" : "bye";
    const char* key = p.dropped ? "api.seating.not_seated_dropped"
                      : away    ? "api.seating.not_seated_absent"
                                : "api.seating.not_seated_bye";
    out.push_back(json::object{
        {"player", p.id},
        {"name", p.name},
        {"reason", reason},
        {"message", audience.render(i18n::Message(key, {{"player", i18n::PlayerRef{p.id}}}))}});
  }
  return out;
}

// Warnings that do not refuse the seating. `checkin.empty`: nobody is checked in for this round
// while the previous round had no-shows who have not dropped out — seating now seats them too.
json::array seating_warnings(const Audience& audience, const Tournament& t) {
  json::array out;
  if (t.checkin_open() || t.rounds.empty()) return out;
  const projections::Round& previous = t.rounds.back();
  std::vector<std::string> no_shows;
  for (const auto& id : previous.absent) {
    const auto* p = t.player(id);
    if (p != nullptr && !p->dropped) no_shows.push_back(id);
  }
  if (no_shows.empty()) return out;
  json::array ids(no_shows.begin(), no_shows.end());
  out.push_back(json::object{
      {"rule", "checkin.empty"},
      {"players", std::move(ids)},
      {"message", audience.render(i18n::Message("api.seating.checkin_empty",
                                                {{"round", std::int64_t{t.next_round()}},
                                                 {"previous", std::int64_t{previous.number}},
                                                 {"players", i18n::PlayerList{no_shows}},
                                                 {"count", std::int64_t(no_shows.size())}}))}});
  return out;
}

}  // namespace

void Api::seat_round(const ExchangePtr& ex) {
  auto body = seating_body(ex);
  if (!body) return;
  const std::string t_id = ex->params.at("t");
  // What the game says of the seating it appends (e.g. its search stopped at its budget) and who
  // was left out, for the answer; an idempotent replay answers without them.
  auto plan = std::make_shared<SeatingPlan>();
  write(
      ex, [this, ex, t_id, body = *body, plan] { return prepare_seating(ex, t_id, body, *plan); },
      [this, ex, t_id, plan](const AppendResult& r) {
        auto event = store_.read_view().event(r.first_seq);
        queries::SeatedRound seated{event->event().getPayload().getRoundSeated().getRound(),
                                    r.first_seq, r.last_seq,
                                    plan->tournament ? &*plan->tournament : nullptr,
                                    plan->seating ? &*plan->seating : nullptr};
        return answer_query(*ex, [&](const LiveState& s) {
          return queries::round_seated(s, ex->lang, t_id, seated);
        });
      },
      PrepareOn::seating_thread);
}

void Api::check_seating(const ExchangePtr& ex) {
  auto body = seating_body(ex);
  if (!body) return;
  const std::string t_id = ex->params.at("t");
  boost::asio::post(seating_, [this, ex, t_id, body = *body] {
    Response answer;
    try {
      SeatingPlan plan;
      Prepared p = prepare_seating(ex, t_id, body, plan);
      answer = p.refusal ? std::move(*p.refusal) : seating_preview(*ex, plan);
    } catch (const std::exception& e) {
      answer = problem(*ex, http::status::internal_server_error,
                       i18n::Message("api.store.failed_after_append", {{"error", e.what()}}));
    }
    boost::asio::post(ex->executor, [ex, answer = std::move(answer)]() mutable {
      ex->respond(std::move(answer));
    });
  });
}

Response Api::seating_preview(const Exchange& ex, const SeatingPlan& plan) {
  const Tournament& t = *plan.tournament;
  const projections::Seating& seating = *plan.seating;
  std::uint32_t number = t.next_round();
  json::array tables;
  const Tournament::Meetings met = t.meetings_before(number);
  for (const auto& table : seating.tables) tables.push_back(seated_table_json(met, table));
  json::object out{{"ok", true},
                   {"round", number},
                   {"seq", t.last_seq},
                   {"method", method_name(seating.method)},
                   {"tables", std::move(tables)},
                   {"left_out", left_out_json(t)},
                   {"not_seated", not_seated_json(ex.audience(t), t, seating)},
                   {"warnings", seating_warnings(ex.audience(t), t)}};
  if (seating.method == schema::SeatingMethod::RANDOM) out["seed"] = seating.seed;
  if (!seating.notice.empty()) out["notice"] = ex.audience(t).render(seating.notice);
  add_notes(out, ex.audience(t), seating);
  Response response = json_response(ex.request, http::status::ok, out);
  set_language(response, ex.lang);
  return response;
}

void Api::get_round(const ExchangePtr& ex) {
  run_query(ex, [address = round_address(*ex), authorship = ex->identity.authenticated()](
                    const LiveState& s) { return queries::round(s, address, authorship); });
}

}  // namespace tally::daemon
