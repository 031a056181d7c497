// A series (docs/series.md): creating one, its tournaments of this server, imports of venues'
// exports, its people and links, and reading it all. The export of one tournament
// for a series (GET /v1/export?tournament=T) is in ops.cpp.
#include "deciders/series.hpp"
#include "daemon/api/api.hpp"
#include "daemon/api/series_queries.hpp"
#include "daemon/api/views.hpp"
#include "daemon/http/body.hpp"
#include "events/tournament_export.hpp"
#include "text/collation.hpp"

#include <charconv>

namespace tally::daemon {

using events::AppendResult;
using projections::Series;

namespace {

deciders::SeriesTournaments series_tournaments(const LiveState& s, const Series* series) {
  return [&s, series](std::string_view id) -> const projections::Tournament* {
    return series ? s.series_tournament(*series, id) : nullptr;
  };
}

// The series' answer after a write: GET /v1/series/{s} with the write's seq.
Viewed written(const LiveState& s, const std::string& id, const AppendResult& r,
               http::status status) {
  Viewed viewed = queries::series(s, id);
  if (auto* view = std::get_if<View>(&viewed)) {
    view->status = status;
    if (r.last_seq != 0) view->body.as_object()["seq"] = r.last_seq;
  }
  return viewed;
}

}  // namespace

void Api::create_series(const ExchangePtr& ex) {
  auto body = body_or_answer(ex);
  if (!body) return;
  BodyFields fields(*body, {"id", "name", "game", "locale", "scoring"});
  auto id = fields.text("id", true, 64);
  auto name = fields.name("name", true);
  auto game_id = fields.text("game", true, 32);
  auto locale = fields.text("locale", false, 32).value_or("");
  if (!body->contains("scoring")) fields.fail("scoring", "json.required", "Q-2");
  if (id && !valid_tournament_id(*id))
    fields.fail(
        "id", i18n::Message("api.tournament.id_pattern", {{"pattern", "[a-z0-9][a-z0-9-]{0,63}"}}),
        "id");
  if (game_id && games_.find(*game_id) == nullptr) {
    std::string known;
    for (auto& g : games_.ids()) known += (known.empty() ? "" : ", ") + g;
    fields.fail("game", i18n::Message("api.tournament.unknown_game", {{"games", known}}), "game");
  }
  if (!text::is_known_collation_locale(locale)) {
    fields.fail("locale", "api.tournament.unknown_locale", "locale");
  }
  if (!fields.ok()) return ex->respond(unprocessable(*ex, "series.invalid", fields.errors()));
  deciders::CreateSeries command{*id, *name, *game_id, locale, body->at("scoring")};
  run_command(
      ex,
      [command, actor = actor_of(*ex)](const LiveState& s) {
        return deciders::decide(s.series(command.id), command, actor);
      },
      [this, ex, id = *id](const AppendResult& r) {
        return answer_query(
            *ex, [&](const LiveState& s) { return written(s, id, r, http::status::created); });
      });
}

void Api::list_series(const ExchangePtr& ex) { run_query(ex, queries::series_list); }

void Api::get_series(const ExchangePtr& ex) {
  run_query(ex, [id = ex->params.at("s")](const LiveState& s) { return queries::series(s, id); });
}

void Api::add_series_tournament(const ExchangePtr& ex) {
  auto body = body_or_answer(ex);
  if (!body) return;
  BodyFields fields(*body, {"tournament"});
  auto tournament = fields.text("tournament", true, 64);
  if (!fields.ok()) return ex->respond(unprocessable(*ex, "series.invalid", fields.errors()));
  deciders::AddSeriesTournament command{ex->params.at("s"), *tournament};
  run_command(
      ex,
      [command, actor = actor_of(*ex)](const LiveState& s) {
        return deciders::decide(s.series(command.series), s.tournament(command.tournament), command,
                                actor);
      },
      [this, ex, id = command.series](const AppendResult& r) {
        return answer_query(
            *ex, [&](const LiveState& s) { return written(s, id, r, http::status::created); });
      });
}

void Api::import_series_tournament(const ExchangePtr& ex) {
  const std::string series_id = ex->params.at("s");
  // the whole chain verified before anything is decided; a refused file writes nothing.
  auto verified = events::verify_tournament_export(ex->request.body());
  if (auto* broken = std::get_if<events::BrokenTournamentExport>(&verified)) {
    ErrorEntries errors;
    i18n::Message message(
        "series.import.broken",
        {{"line", static_cast<std::int64_t>(broken->line)}, {"problem", broken->problem}});
    Response r = problem(*ex, http::status::unprocessable_entity, message);
    json::object answer = json::parse(r.body()).as_object();
    json::array error_list{json::object{{"rule", "Q-1"},
                                        {"field", "line " + std::to_string(broken->line)},
                                        {"line", broken->line},
                                        {"message", ex->audience().render(message)}}};
    answer["errors"] = std::move(error_list);
    answer["line"] = broken->line;
    Response out = json_response(ex->request, http::status::unprocessable_entity, answer);
    out.set(http::field::content_type, "application/problem+json");
    out.set(http::field::content_language, std::string(i18n::code(ex->lang)));
    return ex->respond(std::move(out));
  }
  auto& v = std::get<events::VerifiedTournamentExport>(verified);
  deciders::ImportSeriesTournament command{series_id,
                                           v.header.tournament,
                                           v.header.server,
                                           v.log,
                                           v.head,
                                           v.events,
                                           std::move(v.chain),
                                           std::move(v.tournament_events),
                                           std::move(v.header.standings)};
  auto shared = std::make_shared<const deciders::ImportSeriesTournament>(std::move(command));
  run_command<deciders::SeriesImportFacts>(
      ex,
      [shared, actor = actor_of(*ex)](const LiveState& s) {
        return deciders::decide(s.series(shared->series), *shared, actor);
      },
      [this, ex, shared](const AppendResult& r, const deciders::SeriesImportFacts* facts) {
        return answer_query(*ex, [&](const LiveState& s) -> Viewed {
          const bool unchanged = facts && facts->unchanged;
          Viewed viewed = queries::series_tournament(s, shared->series, shared->tournament);
          if (auto* view = std::get_if<View>(&viewed)) {
            view->status = unchanged ? http::status::ok : http::status::created;
            auto& body = view->body.as_object();
            body["replaced"] = facts && facts->replaced;
            body["unchanged"] = unchanged;
            if (r.last_seq != 0) body["seq"] = r.last_seq;
          }
          return viewed;
        });
      });
}

void Api::series_standings(const ExchangePtr& ex) {
  const std::string id = ex->params.at("s");
  auto as_of_text = ex->query.find("as_of");
  if (as_of_text == ex->query.end()) {
    return run_query(ex, [id](const LiveState& s) { return queries::series_standings(s, id); });
  }
  std::uint64_t as_of = 0;
  const std::string& t = as_of_text->second;
  auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), as_of);
  if (ec != std::errc() || end != t.data() + t.size()) {
    return ex->respond(problem(*ex, http::status::bad_request,
                               i18n::Message("api.query.not_number", {{"name", "as_of"}})));
  }
  // As it was after event as_of: the series and its tournaments of this server folded from the
  // store up to it (an import's events are inside its series_imported event).
  auto view = store_.read_view();
  auto upto = [&](std::vector<schema::StoredEvent> events) {
    std::erase_if(events, [&](const auto& e) { return e.seq() > as_of; });
    return events;
  };
  Series past;
  for (const auto& e : upto(view.tree(projections::series_stream(id)))) past.apply(e);
  if (past.id.empty()) {
    return ex->respond(viewed_response(*ex, deciders::series_not_found(id)));
  }
  std::map<std::string, projections::Tournament, std::less<>> tournaments;
  for (const std::string& t_id : past.tournaments) {
    if (auto folded =
            projections::Tournament::fold(upto(view.tree(projections::tournament_stream(t_id)))))
      tournaments.emplace(t_id, std::move(*folded));
  }
  const projections::Game* game = games_.find(past.game);
  json::object body = queries::series_standings_body(
      past, *game, [&](std::string_view t_id) -> const projections::Tournament* {
        auto it = tournaments.find(t_id);
        return it == tournaments.end() ? nullptr : &it->second;
      });
  body["seq"] = as_of;
  body["as_of"] = as_of;
  ex->respond(with_seq(json_response(ex->request, http::status::ok, body), as_of));
}

void Api::get_series_tournament(const ExchangePtr& ex) {
  run_query(ex, [id = ex->params.at("s"), t = ex->params.at("t")](const LiveState& s) {
    return queries::series_tournament(s, id, t);
  });
}

void Api::add_person(const ExchangePtr& ex) {
  auto body = body_or_answer(ex);
  if (!body) return;
  BodyFields fields(*body, {"id", "name", "club", "from"});
  deciders::AddPerson command;
  command.series = ex->params.at("s");
  command.id = fields.text("id", false, 64).value_or("");
  if (!command.id.empty() && !valid_player_id(command.id))
    fields.fail("id", i18n::Message("api.player.id_pattern"), "id");
  command.name = fields.name("name", true).value_or("");
  command.club = fields.display_text("club", false, 200).value_or("");
  if (const json::object* from = fields.object("from")) {
    const json::value* t = from->if_contains("tournament");
    const json::value* p = from->if_contains("player");
    if (!t || !t->is_string() || !p || !p->is_string()) {
      fields.fail("from", "json.required", "Q-5");
    } else {
      command.from_tournament = std::string(t->as_string());
      command.from_player = std::string(p->as_string());
    }
  }
  if (!fields.ok()) return ex->respond(unprocessable(*ex, "series.invalid", fields.errors()));
  run_command<deciders::AddedPerson>(
      ex,
      [command, actor = actor_of(*ex)](const LiveState& s) {
        const Series* series = s.series(command.series);
        return deciders::decide(series, series_tournaments(s, series), command, actor);
      },
      [this, ex, series = command.series, requested = command.id](
          const AppendResult& r, const deciders::AddedPerson* added) {
        // On an idempotent repeat the id comes from the request (a generated one is in the
        // original answer only: repeat the request with the id to see it).
        std::string id = added ? added->id : requested;
        return answer_query(*ex, [&](const LiveState& s) -> Viewed {
          Viewed viewed = queries::person(s, series, id, ex->lang);
          if (auto* view = std::get_if<View>(&viewed)) {
            view->status = http::status::created;
            view->body.as_object()["seq"] = r.last_seq;
          }
          return viewed;
        });
      });
}

void Api::get_person(const ExchangePtr& ex) {
  run_query(ex, [ex](const LiveState& s) {
    return queries::person(s, ex->params.at("s"), ex->params.at("p"), ex->lang);
  });
}

void Api::decide_link(const ExchangePtr& ex) {
  auto body = body_or_answer(ex);
  if (!body) return;
  BodyFields fields(*body, {"tournament", "player", "person", "decision"});
  deciders::DecideLink command;
  command.series = ex->params.at("s");
  command.tournament = fields.text("tournament", true, 64).value_or("");
  command.player = fields.text("player", true, 64).value_or("");
  command.person = fields.text("person", true, 64).value_or("");
  auto decision = fields.text("decision", true, 16);
  if (decision && *decision != "confirm" && *decision != "reject")
    fields.fail("decision", i18n::Message("series.link.decision"), "Q-5");
  if (!fields.ok()) return ex->respond(unprocessable(*ex, "series.invalid", fields.errors()));
  command.reject = decision == "reject";
  run_command(
      ex,
      [command, actor = actor_of(*ex)](const LiveState& s) {
        const Series* series = s.series(command.series);
        return deciders::decide(series, series_tournaments(s, series), command, actor);
      },
      [this, ex, series = command.series](const AppendResult& r) {
        return answer_query(*ex, [&](const LiveState& s) -> Viewed {
          Viewed viewed = queries::links(s, series);
          if (auto* view = std::get_if<View>(&viewed)) {
            view->status = r.last_seq != 0 ? http::status::created : http::status::ok;
            view->body.as_object()["seq"] = r.last_seq;
          }
          return viewed;
        });
      });
}

void Api::list_links(const ExchangePtr& ex) {
  run_query(ex, [id = ex->params.at("s")](const LiveState& s) { return queries::links(s, id); });
}

}  // namespace tally::daemon
