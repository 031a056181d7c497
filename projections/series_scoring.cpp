#include "projections/series_scoring.hpp"

#include "projections/stage_progress.hpp"
#include "text/collation.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <map>
#include <optional>

namespace tally::projections {

namespace json = boost::json;

namespace {

// --- The scoring's rules ---

using Problems = std::vector<ScoringProblem>;

// A whole number ≥ `least` at `field`, or a problem.
std::optional<std::int64_t> whole(const json::value& v, const std::string& field,
                                  std::int64_t least, Problems& problems) {
  std::optional<std::int64_t> n;
  if (v.is_int64()) n = v.as_int64();
  if (v.is_uint64() && v.as_uint64() <= 1'000'000) n = static_cast<std::int64_t>(v.as_uint64());
  if (!n || *n < least || *n > 1'000'000) {
    problems.push_back(
        {field, i18n::Message("series.scoring.whole", {{"field", field}, {"least", least}})});
    return std::nullopt;
  }
  return n;
}

void unknown_members(const json::object& o, std::initializer_list<std::string_view> known,
                     const std::string& prefix, Problems& problems) {
  for (const auto& member : o) {
    if (std::find(known.begin(), known.end(), member.key()) == known.end()) {
      problems.push_back({prefix + std::string(member.key()),
                          i18n::Message("series.scoring.unknown_member",
                                        {{"field", prefix + std::string(member.key())}})});
    }
  }
}

json::object qualification_defaults() {
  return json::object{
      {"kind", "qualification"},
      {"min_players", 12},
      {"counted", "half_rounds"},
      {"brackets", json::array{json::object{{"from", 12}, {"direct", 2}, {"point", 2}},
                               json::object{{"from", 21}, {"direct", 4}, {"point", 4}},
                               json::object{{"from", 31}, {"direct", 6}, {"point", 6}},
                               json::object{{"from", 41}, {"direct", 8}, {"point", 8}}}},
      {"points_to_qualify", 2}};
}

json::object ladder_defaults() {
  json::array points;
  for (int p : {25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1}) points.push_back(p);
  return json::object{{"kind", "ladder"}, {"points", std::move(points)}, {"best", 3}};
}

void check_qualification(json::object& s, Problems& problems) {
  unknown_members(s, {"kind", "min_players", "counted", "brackets", "points_to_qualify"},
                  "scoring.", problems);
  whole(s["min_players"], "scoring.min_players", 1, problems);
  whole(s["points_to_qualify"], "scoring.points_to_qualify", 1, problems);
  if (!s["counted"].is_string() || s["counted"].as_string() != "half_rounds") {
    problems.push_back({"scoring.counted",
                        i18n::Message("series.scoring.counted", {{"field", "scoring.counted"}})});
  }
  const json::value& brackets = s["brackets"];
  if (!brackets.is_array() || brackets.as_array().empty()) {
    problems.push_back({"scoring.brackets",
                        i18n::Message("series.scoring.brackets", {{"field", "scoring.brackets"}})});
    return;
  }
  std::int64_t previous_from = 0;
  for (std::size_t i = 0; i < brackets.as_array().size(); ++i) {
    std::string field = "scoring.brackets[" + std::to_string(i) + "]";
    const json::value& b = brackets.as_array()[i];
    if (!b.is_object()) {
      problems.push_back({field, i18n::Message("series.scoring.brackets", {{"field", field}})});
      continue;
    }
    unknown_members(b.as_object(), {"from", "direct", "point"}, field + ".", problems);
    auto member = [&](std::string_view key) -> const json::value& {
      static const json::value missing;
      auto* v = b.as_object().if_contains(key);
      return v ? *v : missing;
    };
    auto from = whole(member("from"), field + ".from", 1, problems);
    whole(member("direct"), field + ".direct", 0, problems);
    whole(member("point"), field + ".point", 0, problems);
    if (from && *from <= previous_from) {
      problems.push_back({field + ".from", i18n::Message("series.scoring.brackets_order",
                                                         {{"field", field + ".from"}})});
    }
    if (from) previous_from = *from;
  }
}

void check_ladder(json::object& s, Problems& problems) {
  unknown_members(s, {"kind", "points", "best"}, "scoring.", problems);
  whole(s["best"], "scoring.best", 1, problems);
  const json::value& points = s["points"];
  if (!points.is_array() || points.as_array().empty()) {
    problems.push_back({"scoring.points", i18n::Message("series.scoring.points_order",
                                                        {{"field", "scoring.points"}})});
    return;
  }
  std::optional<std::int64_t> previous;
  for (std::size_t i = 0; i < points.as_array().size(); ++i) {
    std::string field = "scoring.points[" + std::to_string(i) + "]";
    auto p = whole(points.as_array()[i], field, 0, problems);
    if (p && previous && *p > *previous) {
      problems.push_back({field, i18n::Message("series.scoring.points_order", {{"field", field}})});
    }
    if (p) previous = p;
  }
}

}  // namespace

std::variant<json::object, std::vector<ScoringProblem>> normalise_scoring(
    const json::value& scoring) {
  Problems problems;
  if (!scoring.is_object()) {
    problems.push_back({"scoring", i18n::Message("series.scoring.kind", {{"field", "scoring"}})});
    return problems;
  }
  const json::object& given = scoring.as_object();
  const json::value* kind = given.if_contains("kind");
  json::object out;
  if (kind && kind->is_string() && kind->as_string() == "qualification") {
    out = qualification_defaults();
  } else if (kind && kind->is_string() && kind->as_string() == "ladder") {
    out = ladder_defaults();
  } else {
    problems.push_back(
        {"scoring.kind", i18n::Message("series.scoring.kind", {{"field", "scoring.kind"}})});
    return problems;
  }
  for (const auto& member : given) out[member.key()] = member.value();
  if (out["kind"].as_string() == "qualification") {
    check_qualification(out, problems);
  } else {
    check_ladder(out, problems);
  }
  if (!problems.empty()) return problems;
  return out;
}

Scoring scoring_of(const json::object& s) {
  auto number = [](const json::value& v) {
    return static_cast<std::uint32_t>(v.to_number<std::int64_t>());
  };
  if (s.at("kind").as_string() == "ladder") {
    LadderScoring ladder;
    for (const auto& p : s.at("points").as_array())
      ladder.points.push_back(p.to_number<std::int64_t>());
    ladder.best = number(s.at("best"));
    return ladder;
  }
  QualificationScoring q;
  q.min_players = number(s.at("min_players"));
  q.points_to_qualify = number(s.at("points_to_qualify"));
  for (const auto& b : s.at("brackets").as_array()) {
    q.brackets.push_back({number(b.at("from")), number(b.at("direct")), number(b.at("point"))});
  }
  return q;
}

// --- A tournament as the series reads it ---

FinalOrder final_order(const Tournament& t, const Game& game) {
  FinalOrder out;
  json::object standings = tournament_standings(t, game);
  const json::array* final_rows = nullptr;
  if (auto* f = standings.if_contains("final"); f && f->is_array()) final_rows = &f->as_array();
  out.final = t.is_final() || final_rows != nullptr;
  out.ended_at = t.is_final() ? t.rounds.back().closed_at : t.last_recorded_at;
  const json::array& rows = final_rows ? *final_rows : standings.at("rows").as_array();
  const char* place_member = final_rows ? "place" : "rank";
  for (const auto& row : rows) {
    const auto& r = row.as_object();
    out.places.push_back(
        {std::string(r.at("player").as_string()),
         static_cast<std::uint32_t>(r.at(place_member).to_number<std::int64_t>())});
  }
  return out;
}

json::array final_order_json(const Tournament& t, const FinalOrder& order) {
  json::array out;
  for (const FinalPlace& p : order.places) {
    const Player* player = t.player(p.player);
    out.push_back(json::object{
        {"player", p.player}, {"name", player ? player->name : p.player}, {"place", p.place}});
  }
  return out;
}

std::vector<PlaceDifference> place_differences(const json::array& venue, const FinalOrder& ours) {
  std::map<std::string, PlaceDifference> by_player;
  for (const auto& row : venue) {
    const json::object* r = row.if_object();
    const json::value* player = r ? r->if_contains("player") : nullptr;
    const json::value* place = r ? r->if_contains("place") : nullptr;
    if (!player || !player->is_string()) continue;
    auto& d = by_player[std::string(player->as_string())];
    d.player = std::string(player->as_string());
    if (place && place->is_number()) {
      d.venue_place = static_cast<std::uint32_t>(place->to_number<std::int64_t>());
    }
  }
  for (const FinalPlace& p : ours.places) {
    auto& d = by_player[p.player];
    d.player = p.player;
    d.place = p.place;
  }
  std::vector<PlaceDifference> out;
  for (auto& [player, d] : by_player) {
    if (d.venue_place != d.place) out.push_back(d);
  }
  return out;
}

SeriesTournament series_tournament(const Tournament& t, const Game& game, const Series& series,
                                   bool imported, std::uint64_t order) {
  SeriesTournament out;
  out.id = t.id;
  out.name = t.name;
  out.imported = imported;
  out.order = order;
  out.rounds = t.qualifying_rounds();
  FinalOrder final = final_order(t, game);
  out.final = final.final;
  out.ended_at = final.ended_at;

  auto played = [&](const std::string& player) {
    std::uint32_t n = 0;
    for (std::uint32_t r = 1; r <= out.rounds && r <= t.rounds.size(); ++r) {
      for (const SeatedTable& table : t.rounds[r - 1].tables) {
        if (std::find(table.players.begin(), table.players.end(), player) != table.players.end()) {
          ++n;
          break;
        }
      }
    }
    return n;
  };
  for (const FinalPlace& p : final.places) {
    SeriesEntrant e;
    e.player = p.player;
    e.place = p.place;
    e.rounds_played = played(p.player);
    if (const Person* person = series.person_of(t.id, p.player)) {
      e.key = person->id;
      e.person = person->id;
      e.name = person->name;
    } else {
      e.key = t.id + "/" + p.player;
      const Player* player = t.player(p.player);
      e.name = player ? player->name : p.player;
    }
    out.entrants.push_back(std::move(e));
  }
  return out;
}

// --- The standings ---

namespace {

struct Building {
  std::map<std::string, SeriesRow> rows;
  SeriesRow& row(const SeriesTournament& t, const SeriesEntrant& e) {
    auto [it, added] = rows.try_emplace(e.key);
    if (added) {
      it->second.key = e.key;
      it->second.person = e.person;
      it->second.name = e.name;
      if (e.person.empty()) {
        it->second.tournament = t.id;
        it->second.player = e.player;
      }
    }
    return it->second;
  }
};

// the players who played at least half of the rounds, rounded up.
std::uint32_t qualifier_size(const SeriesTournament& t) {
  return static_cast<std::uint32_t>(
      std::count_if(t.entrants.begin(), t.entrants.end(),
                    [&](const SeriesEntrant& e) { return 2 * e.rounds_played >= t.rounds; }));
}

const QualificationBracket* bracket_for(const QualificationScoring& q, std::uint32_t size) {
  if (size < q.min_players) return nullptr;
  const QualificationBracket* found = nullptr;
  for (const auto& b : q.brackets) {
    if (b.from <= size) found = &b;
  }
  return found;
}

// A tournament's entry in the standings' list, with what every scoring says of it.
SeriesTournamentSummary& summary_of(std::vector<SeriesTournamentSummary>& summaries,
                                    const SeriesTournament& t) {
  SeriesTournamentSummary& summary = summaries.emplace_back();
  summary.id = t.id;
  summary.name = t.name;
  summary.imported = t.imported;
  summary.final = t.final;
  summary.ended_at = t.ended_at;
  return summary;
}

//
void qualify(const QualificationScoring& q, const std::vector<SeriesTournament>& order, Building& b,
             std::vector<SeriesTournamentSummary>& summaries) {
  for (const SeriesTournament& t : order) {
    SeriesTournamentSummary& summary = summary_of(summaries, t);
    summary.size = qualifier_size(t);
    const QualificationBracket* bracket = t.final ? bracket_for(q, summary.size) : nullptr;
    summary.counted = bracket != nullptr;
    std::uint32_t direct_left = bracket ? bracket->direct : 0;
    std::uint32_t point_left = bracket ? bracket->point : 0;
    for (const SeriesEntrant& e : t.entrants) {
      SeriesRow& row = b.row(t, e);
      SeriesResult result{t.id, e.place, summary.size, summary.counted};
      if (direct_left + point_left > 0) {
        if (!row.status.empty()) {
          result.passed_over = true;  // already qualified: the next player takes the place
        } else if (direct_left > 0) {
          --direct_left;
          result.earned = "direct";
          row.status = "direct";
          row.qualified_at = t.id;
          summary.direct.push_back(e.key);
        } else {
          --point_left;
          result.earned = "point";
          row.points += 1;
          summary.points.push_back(e.key);
          if (row.points >= Rational(q.points_to_qualify)) {
            row.status = "points";
            row.qualified_at = t.id;
          }
        }
      }
      row.results.push_back(std::move(result));
    }
  }
  for (auto& [key, row] : b.rows) {
    if (row.status.empty()) {
      row.points_missing =
          q.points_to_qualify - static_cast<std::uint32_t>(row.points.num() / row.points.den());
    }
  }
}

// each place's points, shared places sharing the places they cover.
void ladder_points(const LadderScoring& l, const std::vector<SeriesTournament>& order, Building& b,
                   std::vector<SeriesTournamentSummary>& summaries) {
  auto points_of_place = [&](std::size_t place) -> std::int64_t {
    return place >= 1 && place <= l.points.size() ? l.points[place - 1] : 0;
  };
  for (const SeriesTournament& t : order) {
    SeriesTournamentSummary& summary = summary_of(summaries, t);
    summary.counted = t.final;
    summary.size = static_cast<std::uint32_t>(t.entrants.size());
    for (std::size_t i = 0; i < t.entrants.size();) {
      std::size_t j = i;
      while (j < t.entrants.size() && t.entrants[j].place == t.entrants[i].place) ++j;
      Rational shared;
      for (std::size_t k = 0; k < j - i; ++k) shared += points_of_place(t.entrants[i].place + k);
      shared = shared / Rational(static_cast<std::int64_t>(j - i));
      for (std::size_t k = i; k < j; ++k) {
        const SeriesEntrant& e = t.entrants[k];
        SeriesResult result{t.id, e.place, summary.size, false};
        if (t.final) result.points = shared;
        b.row(t, e).results.push_back(std::move(result));
      }
      i = j;
    }
  }
  for (auto& [key, row] : b.rows) {
    std::vector<SeriesResult*> best;
    for (auto& r : row.results) {
      const bool final = std::any_of(order.begin(), order.end(), [&](const SeriesTournament& t) {
        return t.id == r.tournament && t.final;
      });
      if (final) best.push_back(&r);
    }
    std::stable_sort(best.begin(), best.end(), [](const SeriesResult* a, const SeriesResult* b) {
      return a->points > b->points;
    });
    if (best.size() > l.best) best.resize(l.best);
    for (SeriesResult* r : best) {
      r->counted = true;
      row.points += r->points;
    }
  }
}

std::vector<Rational> counted_points_best_first(const SeriesRow& row) {
  std::vector<Rational> out;
  for (const auto& r : row.results) {
    if (r.counted) out.push_back(r.points);
  }
  std::sort(out.begin(), out.end(), std::greater<>());
  return out;
}

}  // namespace

SeriesStandings series_standings(const Scoring& scoring, std::vector<SeriesTournament> tournaments,
                                 const std::string& locale) {
  // the order they ended; those not ended yet after them.
  std::stable_sort(tournaments.begin(), tournaments.end(),
                   [](const SeriesTournament& a, const SeriesTournament& b) {
                     if (a.final != b.final) return a.final;
                     if (a.final && a.ended_at != b.ended_at) return a.ended_at < b.ended_at;
                     return a.order < b.order;
                   });
  SeriesStandings out;
  Building b;
  const auto* q = std::get_if<QualificationScoring>(&scoring);
  if (q) {
    qualify(*q, tournaments, b, out.tournaments);
  } else {
    ladder_points(std::get<LadderScoring>(scoring), tournaments, b, out.tournaments);
  }
  std::map<std::string, std::size_t> tournament_index;
  for (std::size_t i = 0; i < tournaments.size(); ++i) tournament_index[tournaments[i].id] = i;
  text::Collation collation(locale);
  for (auto& [key, row] : b.rows) out.rows.push_back(std::move(row));

  // Where a qualified player qualified: the tournament's index, then the place there.
  auto qualified_position = [&](const SeriesRow& r) {
    std::uint32_t place = 0;
    for (const auto& res : r.results) {
      if (res.tournament == r.qualified_at) place = res.place;
    }
    return std::pair(tournament_index[r.qualified_at], place);
  };
  // -1: a before b, 0: a sporting tie, 1: b before a (the name decides only the order).
  auto sporting = [&](const SeriesRow& a, const SeriesRow& c) -> int {
    if (q) {
      if (a.status.empty() != c.status.empty()) return a.status.empty() ? 1 : -1;
      if (!a.status.empty()) {
        auto pa = qualified_position(a), pc = qualified_position(c);
        return pa < pc ? -1 : pc < pa ? 1 : 0;
      }
      return a.points > c.points ? -1 : c.points > a.points ? 1 : 0;
    }
    if (a.points != c.points) return a.points > c.points ? -1 : 1;
    auto ba = counted_points_best_first(a), bc = counted_points_best_first(c);
    if (ba != bc) return ba > bc ? -1 : 1;  // the better best result, second best, …
    return 0;
  };
  std::stable_sort(out.rows.begin(), out.rows.end(), [&](const SeriesRow& a, const SeriesRow& c) {
    int s = sporting(a, c);
    if (s != 0) return s < 0;
    int byname = collation.compare(a.name, c.name);
    if (byname != 0) return byname < 0;
    return a.key < c.key;
  });
  for (std::size_t i = 0; i < out.rows.size(); ++i) {
    out.rows[i].rank = i > 0 && sporting(out.rows[i - 1], out.rows[i]) == 0
                           ? out.rows[i - 1].rank
                           : static_cast<std::uint32_t>(i + 1);
  }
  return out;
}

json::object series_standings_json(const SeriesStandings& standings) {
  auto or_null = [](const std::string& s) -> json::value {
    return s.empty() ? json::value(nullptr) : json::value(s);
  };
  json::array rows;
  for (const SeriesRow& r : standings.rows) {
    json::array results;
    for (const SeriesResult& res : r.results) {
      json::object o{{"tournament", res.tournament},
                     {"place", res.place},
                     {"size", res.size},
                     {"counted", res.counted},
                     {"passed_over", res.passed_over}};
      if (!res.earned.empty()) o["earned"] = res.earned;
      if (res.points != Rational()) o["points"] = res.points.to_json();
      results.push_back(std::move(o));
    }
    json::object row{{"rank", r.rank},
                     {"key", r.key},
                     {"person", or_null(r.person)},
                     {"name", r.name},
                     {"status", or_null(r.status)},
                     {"qualified_at", or_null(r.qualified_at)},
                     {"points", r.points.to_json()},
                     {"points_missing", r.points_missing},
                     {"results", std::move(results)}};
    if (r.person.empty()) {
      row["tournament"] = r.tournament;
      row["player"] = r.player;
    }
    rows.push_back(std::move(row));
  }
  json::array tournaments;
  for (const auto& t : standings.tournaments) {
    json::array direct(t.direct.begin(), t.direct.end());
    json::array points(t.points.begin(), t.points.end());
    tournaments.push_back(json::object{{"id", t.id},
                                       {"name", t.name},
                                       {"imported", t.imported},
                                       {"final", t.final},
                                       {"counted", t.counted},
                                       {"size", t.size},
                                       {"ended_at", t.ended_at},
                                       {"direct", std::move(direct)},
                                       {"points", std::move(points)}});
  }
  return json::object{{"rows", std::move(rows)}, {"tournaments", std::move(tournaments)}};
}

namespace {

// Every tournament of the series: this server's (that still exist) and the imports.
std::vector<const Tournament*> tournaments_of(const Series& series, const LocalTournaments& local) {
  std::vector<const Tournament*> out;
  for (const std::string& id : series.tournaments) {
    if (const Tournament* t = local(id)) out.push_back(t);
  }
  for (const auto& [id, imported] : series.imports) out.push_back(&imported.tournament);
  return out;
}

}  // namespace

SeriesStandings standings_of_series(const Series& series, const Game& game,
                                    const LocalTournaments& local) {
  std::vector<SeriesTournament> tournaments;
  std::uint64_t order = 0;
  for (const std::string& id : series.tournaments) {
    if (const Tournament* t = local(id))
      tournaments.push_back(series_tournament(*t, game, series, false, order));
    ++order;
  }
  for (const auto& [id, imported] : series.imports) {
    tournaments.push_back(
        series_tournament(imported.tournament, game, series, true, imported.origin.seq));
  }
  return series_standings(scoring_of(series.scoring), std::move(tournaments), series.locale);
}

std::vector<ProposedLink> proposed_links(const Series& series, const LocalTournaments& local) {
  std::vector<ProposedLink> out;
  std::map<std::string, std::vector<const Person*>> people_by_key;
  for (const Person& p : series.people) people_by_key[text::same_name_key(p.name)].push_back(&p);
  for (const Tournament* t : tournaments_of(series, local)) {
    for (const Player& player : t->players) {
      if (series.person_of(t->id, player.id) != nullptr) continue;
      auto it = people_by_key.find(text::same_name_key(player.name));
      if (it == people_by_key.end()) continue;
      for (const Person* person : it->second) {
        if (series.rejected(person->id, t->id, player.id)) continue;
        if (series.link_of(person->id, t->id) != nullptr) continue;
        out.push_back({t->id, player.id, player.name, person->id});
      }
    }
  }
  return out;
}

std::vector<ProposedLink> unlinked_players(const Series& series, const LocalTournaments& local) {
  auto proposed = proposed_links(series, local);
  std::vector<ProposedLink> out;
  for (const Tournament* t : tournaments_of(series, local)) {
    for (const Player& player : t->players) {
      if (series.person_of(t->id, player.id) != nullptr) continue;
      const bool has_proposal = std::any_of(proposed.begin(), proposed.end(), [&](const auto& p) {
        return p.tournament == t->id && p.player == player.id;
      });
      if (!has_proposal) out.push_back({t->id, player.id, player.name, ""});
    }
  }
  return out;
}

}  // namespace tally::projections
