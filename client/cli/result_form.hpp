// What a judge records per player at a table, per game (catan.md §1, agot.md §3, a Carcassonne
// final score), and the three ways to give it: --player flags, prompts, or a JSON file (read by
// the command itself). The server checks the rules; the form only gets the types right.
#pragma once

#include "client/cli/prompt.hpp"
#include "client/cli/views.hpp"

#include <boost/json.hpp>

#include <iosfwd>
#include <string>
#include <vector>

namespace tally::cli {

enum class FieldKind {
  count,   // a whole number
  flag,    // true / false
  house,   // one AGoT house
  houses,  // a list of AGoT houses
};

struct FormField {
  std::string key;  // the API's field name
  FieldKind kind = FieldKind::count;
  std::string hint;  // shown in prompts: "0–5"
  bool optional = false;
  // A title exactly one player holds (Largest Army …): asked once per table, "who?".
  bool one_per_table = false;
};

// The fields of `game`'s result, or nullptr for a game this CLI has no form for.
const std::vector<FormField>* result_form(const std::string& game);

// The AGoT houses in board order.
const std::vector<std::string>& houses();

// Players from --player specs: "ID:key=value,key=value,flag". Flags not given are false,
// AGoT's `winner` defaults to place 1 and `capitals_captured` to none; a list of houses is
// written stark+lannister. For a game without a form, values are JSON when they parse as JSON
// and strings otherwise. Throws Failure(kUsage) on an unknown field or a value of the wrong type.
boost::json::array players_from_flags(const std::vector<std::string>& specs,
                                      const std::string& game);

// Asks for every player of `table` (a table of a round answer), in seating order.
boost::json::array players_from_prompts(Prompter& ask, std::ostream& prompts,
                                        const std::string& game, const boost::json::object& table,
                                        const TournamentInfo& info);

// One line per player ("Jana (a): settlements 2, cities 3, largest_army"), for a look before
// sending.
void print_entry(std::ostream& out, const boost::json::array& players, const TournamentInfo& info);

}  // namespace tally::cli
