// What the server says a game's table actions look like (GET /v1/games, public): each action's
// fields with their type, range, choices and how a form asks for them. The CLI builds its
// prompts, its --player flags and its help from this, and asks the server (…/check, or the write
// itself) for everything else: it holds no rule, no range, no house list of its own.
#pragma once

#include "client/cli/session.hpp"
#include "i18n/language.hpp"

#include <boost/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tally::cli {

// One field of an action's body (of each player's entry, for a per-player action).
struct FieldSpec {
  std::string name;  // the API's field name
  // "integer", "boolean", "choice" (one of `choices`), "choices" (a list of them), "player" (a
  // player seated at the table), "object" (a JSON document); anything else is taken as JSON.
  std::string type;
  std::optional<long long> min;  // integers: the range of one entry (a first check only)
  std::optional<long long> max;
  bool required = true;
  std::string label;  // a stable key ("catan.settlements")
  std::string text;   // the label in the request's Accept-Language, for prompts
  std::vector<std::string> choices;
  bool one_holder = false;  // at most one player of the table holds it: asked "who?" once
  // Not asked: set to (value of `derived_from` == `derived_equals`). Empty: asked.
  std::string derived_from;
  boost::json::value derived_equals;
  // "choices": the value the player's own field of this name holds is not offered.
  std::string excludes_own;

  // The label to show: `text`, or the name when the server gave none.
  const std::string& shown() const { return text.empty() ? name : text; }
  bool derived() const { return !derived_from.empty(); }
};

struct ActionSpec {
  std::string name;  // "result", "claims", "picks", "scorings" …
  std::string type;  // the event's payload type ("catan_result")
  bool per_player = false;
  std::vector<FieldSpec> fields;

  const FieldSpec* field(std::string_view name) const;
  // "settlements, cities, …": the field names, in the server's order.
  std::string field_names() const;
};

struct GameSpec {
  std::string game;
  std::vector<ActionSpec> actions;  // in the server's order
  boost::json::array rules;         // [{"name","type","default",…}] as answered

  const ActionSpec* action(std::string_view name) const;
};

// The games of a GET /v1/games answer. Members the CLI does not know are ignored; a malformed
// answer is Failure(kUnavailable).
std::vector<GameSpec> parse_games(const boost::json::value& answer);

// GET /v1/games, every game. A server without /v1/games (404) gives an empty list.
std::vector<GameSpec> load_games(Session& session);

// `game`'s description, or nullopt when the server describes no such game.
std::optional<GameSpec> load_game(Session& session, const std::string& game);

// The range of an integer field for a hint, in `lang`: "0–5", "0 or more", "at most 5", or "".
std::string range_hint(i18n::Lang lang, const FieldSpec& field);

// Whether `n` is in the field's range (always, for a field without one).
bool in_range(const FieldSpec& field, long long n);

// "stark, lannister, …".
std::string joined(const std::vector<std::string>& items, const std::string& separator = ", ");

}  // namespace tally::cli
