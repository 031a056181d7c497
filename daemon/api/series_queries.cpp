#include "daemon/api/series_queries.hpp"

#include "deciders/series.hpp"
#include "events/sha256.hpp"
#include "i18n/catalog.hpp"
#include "projections/stage_progress.hpp"

namespace tally::daemon::queries {

using projections::Series;
using projections::Tournament;

namespace {

json::value or_null(const std::string& s) {
  return s.empty() ? json::value(nullptr) : json::value(s);
}

json::object origin_json(const projections::ImportOrigin& o) {
  return json::object{
      {"server", o.server}, {"log", events::hex(o.log)},    {"head", events::hex(o.head)},
      {"events", o.events}, {"imported_by", o.imported_by}, {"imported_at", o.imported_at},
      {"seq", o.seq}};
}

// where the venue's standings and ours differ, by player (names from the tournament).
json::array differences_json(const Tournament& t, const projections::ImportOrigin& origin,
                             const projections::Game& game) {
  json::array out;
  for (const auto& d :
       projections::place_differences(origin.venue_standings, projections::final_order(t, game))) {
    const projections::Player* p = t.player(d.player);
    out.push_back(json::object{
        {"player", d.player},
        {"name", p ? json::value(p->name) : json::value(nullptr)},
        {"venue_place", d.venue_place ? json::value(d.venue_place) : json::value(nullptr)},
        {"place", d.place ? json::value(d.place) : json::value(nullptr)}});
  }
  return out;
}

const Series* find(const LiveState& s, const std::string& id) { return s.series(id); }

}  // namespace

projections::LocalTournaments local_tournaments(const LiveState& s) {
  return [&s](std::string_view id) { return s.tournament(id); };
}

Viewed series_list(const LiveState& s) {
  json::array out;
  for (const auto& [id, series] : s.all_series()) {
    out.push_back(json::object{{"id", id},
                               {"name", series.name},
                               {"game", series.game},
                               {"kind", series.scoring.at("kind")},
                               {"tournaments", series.tournaments.size() + series.imports.size()}});
  }
  return View{.body = json::object{{"series", std::move(out)}}, .seq = s.seq()};
}

Viewed series(const LiveState& s, const std::string& id) {
  const Series* series = find(s, id);
  if (!series) return deciders::series_not_found(id);
  const projections::Game* game = s.game(series->game);
  json::array tournaments;
  auto add = [&](const Tournament& t, const projections::ImportOrigin* origin) {
    auto order = projections::final_order(t, *game);
    json::object o{{"id", t.id},
                   {"name", t.name},
                   {"imported", origin != nullptr},
                   {"final", order.final},
                   {"players", t.players.size()}};
    if (origin) {
      o["origin"] = origin_json(*origin);
      o["differences"] = differences_json(t, *origin, *game);
    }
    tournaments.push_back(std::move(o));
  };
  for (const std::string& t_id : series->tournaments) {
    if (const Tournament* t = s.tournament(t_id)) add(*t, nullptr);
  }
  for (const auto& [t_id, imported] : series->imports) add(imported.tournament, &imported.origin);
  json::object body{{"id", series->id},
                    {"name", series->name},
                    {"game", series->game},
                    {"locale", series->locale},
                    {"scoring", series->scoring},
                    {"tournaments", std::move(tournaments)},
                    {"people", series->people.size()},
                    {"seq", series->last_seq}};
  return View{.body = std::move(body), .seq = s.seq()};
}

json::object series_standings_body(const Series& series, const projections::Game& game,
                                   const projections::LocalTournaments& local) {
  json::object out =
      projections::series_standings_json(projections::standings_of_series(series, game, local));
  out["series"] = series.id;
  out["kind"] = series.scoring.at("kind");
  return out;
}

Viewed series_standings(const LiveState& s, const std::string& id) {
  const Series* series = find(s, id);
  if (!series) return deciders::series_not_found(id);
  json::object body = series_standings_body(*series, *s.game(series->game), local_tournaments(s));
  body["seq"] = s.seq();
  return View{.body = std::move(body), .seq = s.seq()};
}

Viewed series_tournament(const LiveState& s, const std::string& id, const std::string& tournament) {
  const Series* series = find(s, id);
  if (!series) return deciders::series_not_found(id);
  const Tournament* t = s.series_tournament(*series, tournament);
  if (!t) {
    return deciders::Refusal{deciders::RefusalKind::not_found,
                             i18n::Message("series.tournament.not_in_series",
                                           {{"tournament", tournament}, {"series", id}})};
  }
  const projections::Game& game = *s.game(series->game);
  json::object body{{"series", id},
                    {"id", t->id},
                    {"name", t->name},
                    {"game", t->game},
                    {"standings", projections::tournament_standings(*t, game)}};
  auto it = series->imports.find(tournament);
  body["imported"] = it != series->imports.end();
  if (it != series->imports.end()) {
    body["origin"] = origin_json(it->second.origin);
    body["venue_standings"] = it->second.origin.venue_standings;
    body["differences"] = differences_json(*t, it->second.origin, game);
  }
  // The tournament's entry in the series standings: its size and who qualified there.
  auto standings = projections::standings_of_series(*series, game, local_tournaments(s));
  for (const auto& summary : standings.tournaments) {
    if (summary.id != tournament) continue;
    body["final"] = summary.final;
    body["counted"] = summary.counted;
    body["size"] = summary.size;
    body["direct"] = json::array(summary.direct.begin(), summary.direct.end());
    body["points"] = json::array(summary.points.begin(), summary.points.end());
  }
  return View{.body = std::move(body), .seq = s.seq()};
}

Viewed person(const LiveState& s, const std::string& id, const std::string& person_id,
              i18n::Lang lang) {
  const Series* series = find(s, id);
  if (!series) return deciders::series_not_found(id);
  const projections::Person* person = series->person(person_id);
  if (!person) {
    return deciders::Refusal{deciders::RefusalKind::not_found,
                             i18n::Message("series.person.not_found", {{"id", person_id}})};
  }
  auto standings =
      projections::standings_of_series(*series, *s.game(series->game), local_tournaments(s));
  json::object body{
      {"series", id}, {"id", person->id}, {"name", person->name}, {"club", or_null(person->club)}};
  json::array players;
  for (const auto& link : series->links) {
    if (link.rejected || link.person != person->id) continue;
    const Tournament* t = s.series_tournament(*series, link.tournament);
    const projections::Player* p = t ? t->player(link.player) : nullptr;
    players.push_back(json::object{{"tournament", link.tournament},
                                   {"player", link.player},
                                   {"name", p ? json::value(p->name) : json::value(nullptr)},
                                   {"author", link.author},
                                   {"recorded_at", link.recorded_at}});
  }
  body["players"] = std::move(players);
  json::object standing_rows = projections::series_standings_json(standings);
  for (const auto& row : standing_rows.at("rows").as_array()) {
    if (row.at("key") != json::value(person->id)) continue;
    body["standing"] = row;
  }
  if (!body.contains("standing")) body["standing"] = nullptr;
  // the person's rating across every tournament of the game (null before a first game).
  body["rating"] = nullptr;
  Viewed rated_view = ratings(s, series->game);
  if (auto* rated = std::get_if<View>(&rated_view)) {
    for (const auto& row : rated->body.as_array()) {
      const auto& r = row.as_object();
      if (r.at("person") == json::value(person->id) && r.if_contains("series") &&
          r.at("series") == json::value(id)) {
        body["rating"] = json::object{{"mu", r.at("mu")},
                                      {"sigma", r.at("sigma")},
                                      {"rating", r.at("rating")},
                                      {"games", r.at("games")},
                                      {"rank", r.at("rank")}};
      }
    }
  }
  if (series->scoring.at("kind") == "qualification") {
    std::uint32_t missing = series->scoring.at("points_to_qualify").to_number<std::uint32_t>();
    for (const auto& row : standings.rows) {
      if (row.key == person->id) missing = row.points_missing;
    }
    body["points_missing"] = missing;
    body["missing"] = i18n::Catalogs::builtin().render(
        lang, i18n::Message("series.missing", {{"count", static_cast<std::int64_t>(missing)}}), {});
  }
  return View{.body = std::move(body), .seq = s.seq(), .language = true};
}

Viewed links(const LiveState& s, const std::string& id) {
  const Series* series = find(s, id);
  if (!series) return deciders::series_not_found(id);
  auto local = local_tournaments(s);
  auto name_of = [&](const std::string& t_id, const std::string& player) -> json::value {
    const Tournament* t = s.series_tournament(*series, t_id);
    const projections::Player* p = t ? t->player(player) : nullptr;
    return p ? json::value(p->name) : json::value(nullptr);
  };
  json::array decided;
  for (const auto& l : series->links) {
    decided.push_back(json::object{{"person", l.person},
                                   {"tournament", l.tournament},
                                   {"player", l.player},
                                   {"name", name_of(l.tournament, l.player)},
                                   {"rejected", l.rejected},
                                   {"author", l.author},
                                   {"recorded_at", l.recorded_at},
                                   {"seq", l.seq}});
  }
  auto listed = [&](const std::vector<projections::ProposedLink>& links) {
    json::array out;
    for (const auto& p : links) {
      json::object o{{"tournament", p.tournament}, {"player", p.player}, {"name", p.player_name}};
      if (!p.person.empty()) {
        o["person"] = p.person;
        o["person_name"] = series->person(p.person)->name;
      }
      out.push_back(std::move(o));
    }
    return out;
  };
  json::array people;
  for (const auto& p : series->people) {
    people.push_back(json::object{{"id", p.id}, {"name", p.name}, {"club", or_null(p.club)}});
  }
  json::object body{{"series", id},
                    {"people", std::move(people)},
                    {"links", std::move(decided)},
                    {"proposed", listed(projections::proposed_links(*series, local))},
                    {"unlinked", listed(projections::unlinked_players(*series, local))}};
  return View{.body = std::move(body), .seq = s.seq()};
}

}  // namespace tally::daemon::queries
