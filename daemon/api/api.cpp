#include "daemon/api/api.hpp"

#include "daemon/http/body.hpp"
#include "daemon/http/dispatcher.hpp"
#include "events/sha256.hpp"

#include <boost/asio/post.hpp>

#include <chrono>

namespace tally::daemon {

using http::verb;

Api::Api(events::EventStore& store, LiveState& state, const projections::GameRegistry& games,
         Metrics& metrics, const Config& config, const TableKeys& table_keys,
         ReplicationRole replication)
    : store_(store),
      state_(state),
      games_(games),
      metrics_(metrics),
      config_(config),
      table_keys_(table_keys),
      email_seal_(table_keys),
      replication_(replication) {}

void Api::finish_background_work() {
  background_.join();
  seating_.join();
}

std::vector<Api::RouteSpec> Api::routes() {
  auto bind = [](void (Api::*handler)(const ExchangePtr&)) {
    return [handler](Api& api, const ExchangePtr& ex) { (api.*handler)(ex); };
  };
  // Off the I/O threads (see background_); an exception there is answered as the dispatcher
  // answers one on an I/O thread.
  auto in_background = [](void (Api::*handler)(const ExchangePtr&)) {
    return [handler](Api& api, const ExchangePtr& ex) {
      boost::asio::post(api.background_, [&api, handler, ex] {
        try {
          (api.*handler)(ex);
        } catch (const std::exception& e) {
          answer_handler_failure(ex, e);
        }
      });
    };
  };
  auto table_action = [](bool check_only) {
    return [=](Api& api, const ExchangePtr& ex) { api.post_table_action(ex, check_only); };
  };
  auto import_players = [](bool check_only) {
    return [=](Api& api, const ExchangePtr& ex) { api.import_players(ex, check_only); };
  };
  auto admit = [](bool check_only) {
    return [=](Api& api, const ExchangePtr& ex) { api.admit_registrations(ex, check_only); };
  };
  // A table's actions are the game's (GET /v1/games): the result, and claims, picks, scorings …
  const std::string table = "/v1/tournaments/{t}/rounds/{r}/tables/{n}";

  return {
      {verb::get, "/healthz", Access::open, bind(&Api::healthz)},
      {verb::get, "/metrics", Access::open, bind(&Api::metrics)},
      {verb::post, "/v1/judges", Access::organizer, bind(&Api::create_judge)},
      {verb::get, "/v1/judges", Access::organizer, bind(&Api::list_judges)},
      {verb::delete_, "/v1/judges/{id}", Access::organizer, bind(&Api::revoke_judge)},
      {verb::post, "/v1/replicas", Access::organizer, bind(&Api::create_replica)},
      {verb::delete_, "/v1/replicas/{id}", Access::organizer, bind(&Api::revoke_replica)},
      {verb::get, "/v1/replication", Access::organizer, bind(&Api::replication_status)},
      {verb::delete_, "/v1/replication/fence", Access::organizer, bind(&Api::lift_fence)},
      {verb::get, "/v1/replication/log", Access::replica, bind(&Api::replication_log)},
      {verb::get, "/v1/replication/table-keys", Access::replica,
       bind(&Api::replication_table_keys)},
      {verb::post, "/v1/tournaments", Access::organizer, bind(&Api::create_tournament)},
      {verb::get, "/v1/tournaments", Access::public_read, bind(&Api::list_tournaments)},
      {verb::get, "/v1/tournaments/{t}", Access::public_read, bind(&Api::get_tournament)},
      {verb::patch, "/v1/tournaments/{t}", Access::organizer, bind(&Api::patch_tournament)},
      {verb::post, "/v1/tournaments/{t}/players", Access::organizer, bind(&Api::add_player)},
      {verb::post, "/v1/tournaments/{t}/players/import", Access::organizer, import_players(false)},
      {verb::post, "/v1/tournaments/{t}/players/import/check", Access::organizer,
       import_players(true)},
      {verb::patch, "/v1/tournaments/{t}/players/{p}", Access::organizer,
       bind(&Api::rename_player)},
      // registration before the day (docs/registration.md).
      {verb::get, "/v1/tournaments/{t}/registration", Access::registrant,
       bind(&Api::registration_status)},
      {verb::post, "/v1/tournaments/{t}/registrations", Access::registrant,
       bind(&Api::register_for)},
      {verb::get, "/v1/tournaments/{t}/registrations", Access::organizer,
       bind(&Api::list_registrations)},
      {verb::post, "/v1/tournaments/{t}/registrations/admit", Access::organizer, admit(false)},
      {verb::post, "/v1/tournaments/{t}/registrations/admit/check", Access::organizer, admit(true)},
      {verb::get, "/v1/tournaments/{t}/registrations/{r}", Access::registrant,
       bind(&Api::get_registration)},
      {verb::delete_, "/v1/tournaments/{t}/registrations/{r}", Access::registrant,
       bind(&Api::cancel_registration)},
      {verb::post, "/v1/tournaments/{t}/checkin", Access::token, bind(&Api::check_in)},
      {verb::post, "/v1/tournaments/{t}/checkin/drop-absent", Access::organizer,
       bind(&Api::drop_absent)},
      {verb::post, "/v1/organizer/token", Access::organizer, bind(&Api::rotate_organizer_token)},
      {verb::post, "/v1/tournaments/{t}/players/{p}/drop", Access::organizer,
       bind(&Api::drop_player)},
      {verb::post, "/v1/tournaments/{t}/players/{p}/reinstate", Access::organizer,
       bind(&Api::reinstate_player)},
      {verb::post, "/v1/tournaments/{t}/players/{p}/penalties", Access::token,
       bind(&Api::give_penalty)},
      {verb::post, "/v1/tournaments/{t}/keep-apart", Access::organizer, bind(&Api::keep_apart)},
      // Its prepare runs on seating_ (see seat_round).
      {verb::post, "/v1/tournaments/{t}/rounds", Access::organizer, bind(&Api::seat_round)},
      {verb::post, "/v1/tournaments/{t}/rounds/check", Access::organizer,
       bind(&Api::check_seating)},
      {verb::post, "/v1/tournaments/{t}/stages", Access::organizer, bind(&Api::start_stage)},
      {verb::post, "/v1/tournaments/{t}/stages/check", Access::organizer, bind(&Api::check_stage)},
      {verb::post, "/v1/tournaments/{t}/rounds/{r}/clock", Access::organizer,
       bind(&Api::round_clock)},
      {verb::post, "/v1/tournaments/{t}/rounds/{r}/close", Access::organizer,
       bind(&Api::close_round)},
      {verb::get, "/v1/tournaments/{t}/rounds/{r}", Access::public_read, bind(&Api::get_round)},
      // Self-reporting: before the table's actions, whose {action} would match "proposals".
      {verb::get, "/v1/tournaments/{t}/rounds/{r}/keys", Access::token, bind(&Api::round_keys)},
      {verb::get, "/v1/tournaments/{t}/rounds/{r}/proposals", Access::token,
       bind(&Api::round_proposals)},
      {verb::get, table + "/key", Access::token, bind(&Api::table_key)},
      {verb::post, table + "/proposals", Access::table, bind(&Api::propose)},
      {verb::get, table + "/proposals", Access::table, bind(&Api::list_proposals)},
      {verb::post, table + "/proposals/{id}/flag", Access::table, bind(&Api::flag_proposal)},
      {verb::post, table + "/proposals/{id}/approve", Access::token, bind(&Api::approve_proposal)},
      {verb::post, table + "/proposals/{id}/reject", Access::token, bind(&Api::reject_proposal)},
      {verb::put, table + "/result", Access::token, bind(&Api::put_result)},
      {verb::post, table + "/{action}", Access::token, table_action(false)},
      // A table token checks its proposal here, and only here: before {action}/check.
      {verb::post, table + "/result/check", Access::table,
       [](Api& api, const ExchangePtr& ex) { api.table_action(ex, "result", true); }},
      {verb::post, table + "/{action}/check", Access::token, table_action(true)},
      {verb::post, table + "/{action}/auto", Access::organizer, bind(&Api::auto_actions)},
      {verb::post, "/v1/tournaments/{t}/events/{seq}/void", Access::token, bind(&Api::void_event)},
      {verb::get, "/v1/tournaments/{t}/standings", Access::public_read, bind(&Api::standings)},
      {verb::get, "/v1/tournaments/{t}/audit", Access::token, bind(&Api::audit)},
      {verb::get, "/v1/tournaments/{t}/events", Access::public_read, bind(&Api::events)},
      {verb::get, "/v1/verify", Access::organizer, in_background(&Api::verify)},
      {verb::post, "/v1/backup", Access::organizer, in_background(&Api::backup)},
      {verb::get, "/v1/export", Access::organizer, in_background(&Api::export_log)},
      {verb::post, "/v1/series", Access::organizer, bind(&Api::create_series)},
      {verb::get, "/v1/series", Access::public_read, bind(&Api::list_series)},
      {verb::get, "/v1/series/{s}", Access::public_read, bind(&Api::get_series)},
      {verb::post, "/v1/series/{s}/tournaments", Access::organizer,
       bind(&Api::add_series_tournament)},
      {verb::get, "/v1/series/{s}/tournaments/{t}", Access::public_read,
       bind(&Api::get_series_tournament)},
      {verb::post, "/v1/series/{s}/imports", Access::organizer,
       in_background(&Api::import_series_tournament)},
      {verb::get, "/v1/series/{s}/standings", Access::public_read, bind(&Api::series_standings)},
      {verb::post, "/v1/series/{s}/people", Access::organizer, bind(&Api::add_person)},
      {verb::get, "/v1/series/{s}/people/{p}", Access::public_read, bind(&Api::get_person)},
      {verb::post, "/v1/series/{s}/links", Access::organizer, bind(&Api::decide_link)},
      {verb::get, "/v1/series/{s}/links", Access::organizer, bind(&Api::list_links)},
      {verb::get, "/v1/games", Access::public_read, bind(&Api::list_games)},
      {verb::post, "/v1/games/{game}/score", Access::public_read, bind(&Api::game_calculation)},
      {verb::get, "/v1/ratings/{game}", Access::public_read, bind(&Api::ratings)},
      // The first edition's address of the same calculator (/v1/carcassonne/score).
      {verb::post, "/v1/{game}/score", Access::public_read, bind(&Api::game_calculation)},
  };
}

void Api::add_routes(Router& r) {
  for (auto& spec : routes()) {
    r.add(spec.method, std::move(spec.pattern), spec.access,
          [this, handler = std::move(spec.handler)](const ExchangePtr& ex) { handler(*this, ex); });
  }
}

namespace {

// What "the same request" means for an Idempotency-Key: who sent which body to which target.
events::Digest request_digest(const Exchange& ex) {
  events::Sha256 h;
  std::string_view method = http::to_string(ex.request.method());
  h.update(method).update(" ").update(path_of(ex.request.target())).update("\n");
  h.update(ex.identity.id).update("\n").update(ex.request.body());
  return h.finish();
}

// 422: the Idempotency-Key came before with another request.
Response idempotency_reused(const Exchange& ex) {
  return unprocessable(ex, "api.idempotency.reused",
                       {{"idempotency", "", "Idempotency-Key", "api.idempotency.reused_entry"}});
}

}  // namespace

Response Api::refusal_under_lock(const LiveState& s, const Exchange& ex,
                                 const std::string& tournament, const deciders::Refusal& refusal,
                                 json::object extra) {
  const projections::Tournament* t = tournament.empty() ? nullptr : s.tournament(tournament);
  return refusal_answer(ex, t ? ex.audience(*t) : ex.audience(), refusal, std::move(extra));
}

Response Api::answer_query(const Exchange& ex, const Query& query, const QueryOptions& options) {
  std::optional<Response> refused;
  std::optional<View> view;
  read_state([&](const LiveState& s) {
    Viewed viewed = query(s);
    if (auto* refusal = std::get_if<deciders::Refusal>(&viewed)) {
      refused = refusal_under_lock(s, ex, options.tournament, *refusal);
    } else {
      view = std::move(std::get<View>(viewed));
    }
  });
  if (refused) return std::move(*refused);
  return view_response(ex.request, ex.lang, std::move(*view));
}

void Api::write(const ExchangePtr& ex, Prepare prepare, Answer answer, PrepareOn where) {
  if (auto refusal = unless_primary(*ex)) return ex->respond(std::move(*refusal));
  auto key_header = ex->request.find("Idempotency-Key");
  if (key_header != ex->request.end()) {
    std::string key(key_header->value());
    if (!valid_idempotency_key(key)) {
      return ex->respond(problem(*ex, http::status::bad_request, "api.idempotency.malformed"));
    }
    // A key seen before is answered from what it did then, before any check of the current
    // state (which the original write itself has changed).
    if (auto seen = store_.read_view().idempotency(key)) {
      if (seen->digest != request_digest(*ex)) {
        return ex->respond(idempotency_reused(*ex));
      }
      events::AppendResult original;
      original.status = events::AppendStatus::duplicate;
      original.first_seq = seen->first_seq;
      original.last_seq = seen->last_seq;
      if (auto last = store_.read_view().event(seen->last_seq)) {
        original.stream_version = last->event().getVersion();
      }
      // Answered as the original would have been: once the standbys have it.
      return respond_when_replicated(ex, answer(original), original.last_seq);
    }
  }
  attempt(ex, std::move(prepare), std::move(answer), 5, where);
}

void Api::attempt(const ExchangePtr& ex, Prepare prepare, Answer answer, int attempts_left,
                  PrepareOn where) {
  if (where == PrepareOn::caller) {
    return attempt_here(ex, std::move(prepare), std::move(answer), attempts_left, where);
  }
  boost::asio::post(seating_, [this, ex, prepare = std::move(prepare), answer = std::move(answer),
                               attempts_left, where]() mutable {
    try {
      attempt_here(ex, std::move(prepare), std::move(answer), attempts_left, where);
    } catch (const std::exception& e) {
      answer_handler_failure(ex, e);
    }
  });
}

void Api::attempt_here(const ExchangePtr& ex, Prepare prepare, Answer answer, int attempts_left,
                       PrepareOn where) {
  Prepared prepared = prepare();
  if (prepared.refusal) {
    if (where == PrepareOn::caller) return ex->respond(std::move(*prepared.refusal));
    // Sent from the connection's thread, as every other answer.
    return boost::asio::post(ex->executor, [ex, refusal = std::move(*prepared.refusal)]() mutable {
      ex->respond(std::move(refusal));
    });
  }
  auto key_header = ex->request.find("Idempotency-Key");
  if (key_header != ex->request.end()) {
    prepared.append.idempotency_key = std::string(key_header->value());
    prepared.append.content_digest = request_digest(*ex);
  }
  auto started = std::chrono::steady_clock::now();
  const bool wait_for_standby = !prepared.answer_before_standby;
  store_.append_async(std::move(prepared.append), [this, ex, prepare = std::move(prepare),
                                                   answer = std::move(answer), attempts_left, where,
                                                   started, wait_for_standby](
                                                      events::AppendResult result) mutable {
    std::chrono::duration<double> took = std::chrono::steady_clock::now() - started;
    metrics_.observe_append(took.count());
    // Off the store's writer thread, onto the connection's: answers render tables and standings.
    boost::asio::post(ex->executor, [this, ex, prepare = std::move(prepare),
                                     answer = std::move(answer), attempts_left, where,
                                     result = std::move(result), wait_for_standby]() mutable {
      try {
        finish(ex, std::move(prepare), std::move(answer), attempts_left, where, result,
               wait_for_standby);
      } catch (const std::exception& e) {
        ex->respond(problem(*ex, http::status::internal_server_error,
                            i18n::Message("api.store.failed_after_append", {{"error", e.what()}})));
      }
    });
  });
}

void Api::finish(const ExchangePtr& ex, Prepare prepare, Answer answer, int attempts_left,
                 PrepareOn where, const events::AppendResult& result, bool wait_for_standby) {
  using S = events::AppendStatus;
  switch (result.status) {
    case S::appended:
    case S::duplicate:
      if (!wait_for_standby) return ex->respond(answer(result));
      return respond_when_replicated(ex, answer(result), result.last_seq);
    case S::version_conflict:
      if (attempts_left > 1) {
        return attempt(ex, std::move(prepare), std::move(answer), attempts_left - 1, where);
      }
      return ex->respond(problem(*ex, http::status::conflict, "api.store.kept_changing"));
    case S::idempotency_mismatch:
      return ex->respond(idempotency_reused(*ex));
    case S::invalid:
      return ex->respond(problem(*ex, http::status::internal_server_error,
                                 i18n::Message("api.store.refused", {{"error", result.error}})));
    case S::failed: {
      Response r = problem(*ex, http::status::service_unavailable,
                           i18n::Message("api.store.cannot_write", {{"error", result.error}}));
      r.set(http::field::retry_after, "5");
      return ex->respond(std::move(r));
    }
  }
}

}  // namespace tally::daemon
