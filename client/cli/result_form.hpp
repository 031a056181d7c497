// What a judge records per player at a table, and the three ways to give it: --player flags,
// prompts, or a JSON file (read by the command itself). The fields, their types, ranges, choices
// and how each is asked come from the server's description of the game's result (GET /v1/games,
// see game_spec.hpp); the rules are the server's: the form only gets the types right, and the
// server's check (…/result/check) says what the entry would give before it is sent.
#pragma once

#include "client/cli/game_spec.hpp"
#include "client/cli/prompt.hpp"
#include "client/cli/views.hpp"

#include <boost/json.hpp>

#include <iosfwd>
#include <string>
#include <vector>

namespace tally::cli {

// Players from --player specs: "ID:key=value,key=value,flag", with the fields of `form` (the
// game's "result" action). A boolean alone means true; a required boolean not given is false, a
// required list not given is empty, a derived field not given is computed from its source
// (winner from place), a list is written a+b. Without a form (a server that describes no such
// game), values are JSON when they parse as JSON and strings otherwise. Throws Failure(kUsage)
// on an unknown field (naming the form's fields) or a value of the wrong type.
boost::json::array players_from_flags(const std::vector<std::string>& specs, const ActionSpec* form,
                                      const std::string& game);

// Asks for every player of `table` (a table of a round answer), in seating order, the fields of
// `form` that are asked (not derived), then each one-holder title once for the table. With
// `previous` (an earlier entry of the same table, e.g. one the server refused), its values are
// the defaults, so that Enter keeps what was right. The labels are the server's `text`; the
// hints are in the Prompter's language.
boost::json::array players_from_prompts(Prompter& ask, std::ostream& prompts,
                                        const ActionSpec& form, const boost::json::object& table,
                                        const TournamentInfo& info,
                                        const boost::json::array* previous = nullptr);

// One line per player ("Jana (a): settlements 2, cities 3, largest_army"), for a look before
// sending: the API's field names (what --player takes), values for people in `lang`.
void print_entry(std::ostream& out, const boost::json::array& players, const TournamentInfo& info,
                 i18n::Lang lang);

}  // namespace tally::cli
