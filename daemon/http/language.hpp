// The reader's language: which language an answer's texts for people are in (Accept-Language,
// else the tournament's locale, else English — docs/api.md "Languages"), and how those texts are
// rendered from the catalogs (i18n/catalogs/api.*.json and the games'), players by name.
//
// Thread safety: free functions on values; answer_language() takes the state's read lock itself.
#pragma once

#include "i18n/catalog.hpp"
#include "projections/tournament.hpp"

#include <boost/beast/http.hpp>

#include <string_view>

namespace tally::daemon {

class LiveState;

// Whom an answer's texts are for: their language, and the names of the players they mention (a
// tournament's; none: each id as given).
struct Audience {
  i18n::Lang lang = i18n::Lang::en;
  i18n::Namer names = {};

  std::string render(const i18n::Message& message) const {
    return i18n::Catalogs::builtin().render(lang, message, names);
  }
};

// The language of the answer to `request`: its Accept-Language when that names one of ours; else
// the locale of the tournament `tournament_id` when it is one of ours (empty id: no tournament);
// else English. The tournament is looked up only when the header does not decide.
// REQUIRES: not called inside state.read() (it reads the state itself).
i18n::Lang answer_language(const boost::beast::http::fields& request, const LiveState& state,
                           std::string_view tournament_id);

// A tournament's players by name; an id it does not know is shown as it was given.
// REQUIRES: `t` outlives the Namer (inside the read that found it, or a copy of it).
i18n::Namer player_names(const projections::Tournament& t);

// Content-Language and Vary: Accept-Language — for every answer that carries texts for people.
void set_language(boost::beast::http::fields& response, i18n::Lang lang);

}  // namespace tally::daemon
