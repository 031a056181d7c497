// The read side of a series (docs/series.md): each answer one pure function of the state, as
// queries.hpp's. The standings as of a past event are folded from the store by the handler.
//
// Thread safety: pure functions, run inside LiveState::read() (Api::read_state).
#pragma once

#include "daemon/api/queries.hpp"
#include "projections/series_scoring.hpp"

#include <string>

namespace tally::daemon::queries {

// The tournaments of this server, for the series' projections.
projections::LocalTournaments local_tournaments(const LiveState& s);

// GET /v1/series: [{"id","name","game","tournaments"}].
Viewed series_list(const LiveState& s);
// GET /v1/series/{s}: the series, its scoring and its tournaments with their origin.
Viewed series(const LiveState& s, const std::string& id);
// GET /v1/series/{s}/standings (now).
Viewed series_standings(const LiveState& s, const std::string& id);
// The same body for a series and the tournaments as they were (as_of).
json::object series_standings_body(const projections::Series& series, const projections::Game& game,
                                   const projections::LocalTournaments& local);
// GET /v1/series/{s}/tournaments/{t}: one tournament's standings, its Q-2 size and, for an
// import, its origin and where the venue's standings differ from this server's.
Viewed series_tournament(const LiveState& s, const std::string& id, const std::string& tournament);
// GET /v1/series/{s}/people/{p}: the person's results, what is missing to qualify, the
// tournaments' players linked to the person.
Viewed person(const LiveState& s, const std::string& id, const std::string& person,
              i18n::Lang lang);
// GET /v1/series/{s}/links: the links decided, the links proposed, the players with neither.
Viewed links(const LiveState& s, const std::string& id);

}  // namespace tally::daemon::queries
