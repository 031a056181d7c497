// The Game interface: everything the daemon needs from a game's rules, so that the daemon knows
// no game. A game validates a table action, computes a table's result, folds standings and seats
// a round — all pure functions of a Tournament (no I/O, no clock, no global randomness: a random
// draw uses the seed it is given).
//
// Thread safety: a Game holds no mutable state; every method is const and may be called from any
// number of threads at once.
#pragma once

#include "i18n/message.hpp"
#include "projections/tournament.hpp"
#include "schema/tally.capnp.h"
#include "text/json_writer.hpp"

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <capnp/message.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tally::projections {

// One reason an action is refused, as the API shows it: {"rule","player","field","message"}.
struct RuleError {
  std::string rule;       // the spec's id: "C-7", "G-2", "witch", … ("schema" for structure)
  std::string player;     // the player concerned, if any
  std::string field;      // the request field concerned, if any
  i18n::Message message;  // for people: rendered in the reader's language, players by name
  // Values that would have been accepted instead, when the rule can tell (AGoT: the houses a
  // refused pick could take). Shown as "accepted" in the error entry.
  std::vector<std::string> alternatives = {};
};
using RuleErrors = std::vector<RuleError>;

// The outcome of a game computation that can be refused.
template <typename T>
struct Outcome {
  std::optional<T> value;
  RuleErrors errors;  // non-empty exactly when value is empty

  static Outcome ok(T v) { return Outcome{std::move(v), {}}; }
  static Outcome refused(RuleErrors e) { return Outcome{std::nullopt, std::move(e)}; }
  static Outcome refused(std::string rule, i18n::Message message, std::string field = "",
                         std::string player = "") {
    return refused(
        RuleErrors{{std::move(rule), std::move(player), std::move(field), std::move(message)}});
  }
  explicit operator bool() const { return value.has_value(); }
};

struct SeatingRequest {
  std::uint32_t round = 0;                      // the round being seated (rounds so far + 1)
  std::optional<schema::SeatingMethod> method;  // absent: the game's default for this round
  std::uint64_t seed = 0;  // for a random draw (the daemon makes one when the client gives none)
  std::vector<std::vector<std::string>> tables;  // manual seating
  std::string reason;                            // manual seating / departures from the solver
};

struct Seating {
  schema::SeatingMethod method = schema::SeatingMethod::RANDOM;
  std::uint64_t seed = 0;  // 0 unless random
  std::vector<SeatedTable> tables;
  // For the organizer, shown with the seating: e.g. that the search stopped at its budget with
  // the best seating it found. Empty: nothing to say.
  i18n::Message notice = {};
  // The seating's notes on S-9/S-10 (docs/games/seating-constraints.md): a fixed table number
  // that could not be given, a kept-apart pair seated together by force. Shown as `notes` with
  // the seating, only when there is one.
  std::vector<i18n::Message> notes = {};
};

// --- What a client needs to know of a game (GET /v1/games) ---------------------------------------
// Clients build their forms and prompts from this and ask `…/check` for everything else: they
// hold no rule, no range and no tie-break of their own.

// One field of a table action's body (of each player's entry, for a result).
struct FieldSpec {
  std::string name;  // the API's field name
  // "integer", "boolean", "choice" (one of `choices`), "choices" (a list of them), "player" (a
  // player seated at the table), "object" (a document described in the game's docs)
  std::string type;
  std::optional<std::int64_t> min;  // integers: the range a single entry can be in
  std::optional<std::int64_t> max;
  bool required = true;
  std::string label;                 // a label key ("catan.settlements"), stable across languages
  std::string text;                  // the label in English (the catalogs have `label` in each)
  std::vector<std::string> choices;  // "choice"/"choices": the values
  // A title at most one player of the table holds (Largest Army): a form asks "who?" once.
  bool one_holder = false;
  // Filled from another field when a form does not ask for it: {field, equals} means
  // `this = (that field == equals)` (AGoT: winner = place is 1). Empty: asked.
  std::string derived_from;
  std::int64_t derived_equals = 0;
  // "choices": a value the player's own `excludes_own` field holds is not offered (AGoT: a
  // player's own house is not a capital captured).
  std::string excludes_own;
};

// A field with its name, type, label key and English label (the rest as the defaults say).
FieldSpec make_field(std::string name, std::string type, std::string label, std::string text);

// The number of a place in a table result (Game::table_result's "place"): a number, or the
// games' label of one ("3", "3=" when shared); 0 when there is none.
std::int64_t place_number(const boost::json::value* place);

// A table action: "result" (PUT …/result, one entry per player under "players"), or the POST
// actions "claims", "picks", "scorings".
struct ActionSpec {
  std::string name;
  schema::Event::Payload::Which kind;
  bool per_player = false;  // the body is {"players":[{player, fields…}]}
  std::vector<FieldSpec> fields;
  // Empty: the body is the payload. Otherwise the body is this member of the payload (a
  // scoring's body is the scoring event, stored whole as the payload's "event").
  std::string body_member = {};
  // POST …/{name}/auto: the game completes the table (auto_actions).
  bool automatic = false;

  bool is_result() const { return name == "result"; }
};

// One key of a tournament's `rules` (the default comes from normalize_rules({})).
struct RuleSpec {
  std::string name;
  // "integer", "integer_list", "points_list" (integers or fractions "1/2"), "boolean", "choice",
  // "league_table" (league → points by place)
  std::string type;
  std::vector<std::string> choices = {};  // "choice": the values
};

struct GameDescription {
  std::vector<ActionSpec> actions;
  std::vector<RuleSpec> rules;
  // The standings rows' members that order them, first criterion first (the name, then the id,
  // order what they leave equal): a cut's preview says which one decided (S-3).
  std::vector<std::string> standings_criteria;

  // The action of that name ("result", "claims" …), or null when the game has none.
  const ActionSpec* action(std::string_view name) const;
};

// What a game's tables allow a tournament's later stages (docs/games/stages.md, S-1).
struct StageShape {
  std::vector<std::uint32_t> table_sizes;  // the players a final table seats (Catan: 3 or 4)
  bool two_player = false;                 // games of two: a knockout is possible
};

// A payload built by a game for the daemon to append (e.g. the automatic house picks).
using PayloadBuilder = std::unique_ptr<capnp::MallocMessageBuilder>;  // root: schema::Event

class Game {
 public:
  virtual ~Game() = default;

  // The tournament's `game` value: "catan", "agot", "carcassonne".
  virtual std::string_view id() const = 0;

  // Its actions, fields and rules: for clients (GET /v1/games), and for the daemon, which serves
  // a table action only when the game describes it. Built once; the same object every call.
  virtual const GameDescription& describe() const = 0;

  // The tournament's rules: the game's defaults overridden by `overrides`; an unknown key or a
  // bad value is refused naming the key (rule "rules").
  virtual Outcome<boost::json::object> normalize_rules(
      const boost::json::object& overrides) const = 0;

  // The payload a `PUT .../result` body decodes into (e.g. CATAN_RESULT): describe()'s "result".
  schema::Event::Payload::Which result_kind() const;

  // Whether this game takes a table action of this kind at all (claims are Catan's, picks
  // AGoT's, scorings Carcassonne's): one of describe()'s actions.
  bool accepts(schema::Event::Payload::Which kind) const;

  // Checks a proposed table action (a result, claim, pick or scoring — not a void) against the
  // tournament and the table as they stand; `proposed` carries the payload, the author, the
  // reason and the seq it supersedes (a correction). First the rule every game shares (rule
  // "supersedes": a correction replaces an action of its own kind in effect at the table), then
  // the game's own check_rules. Every violation at once; empty when valid.
  RuleErrors check_action(const Tournament& tournament, const TableState& table,
                          schema::Event::Reader proposed) const;

  // The table's computed result as the API shows it ({"players":[{"player","score","place",
  // "points","lines"}]}), or nullopt while the table has no result in effect.
  virtual std::optional<boost::json::object> table_result(const Tournament& tournament,
                                                          const TableState& table) const = 0;

  // The same result written as JSON text, byte for byte what serializing table_result() gives;
  // false (nothing written) while the table has no result. The answer to every write carries
  // its table, and building that result as objects cost more than the rules that computed it.
  // Default: table_result() serialized; a game whose results are written on every write writes
  // them directly (Carcassonne).
  virtual bool write_table_result(text::JsonWriter& out, const Tournament& tournament,
                                  const TableState& table) const;

  // Anything a table shows beyond seating and result (AGoT: "houses"). Default: nothing. Its
  // members are added after the table's own and never replace one of them.
  virtual boost::json::object table_extras(const Tournament& tournament,
                                           const TableState& table) const;

  // What the answer to an accepted action carries beyond seq and version (Carcassonne scoring:
  // points, lines, totals). `table` already includes the action. Default: nothing.
  virtual boost::json::object describe_action(const Tournament& tournament, const TableState& table,
                                              const Action& action) const;

  // The standings: {"rows":[…]} plus any game-wide fields (AGoT: "conqueror").
  virtual boost::json::object standings(const Tournament& tournament) const = 0;

  // The final tables and knockouts this game's tables allow, under these rules.
  virtual StageShape stage_shape(const boost::json::object& rules) const = 0;

  // Seats the next round.
  virtual Outcome<Seating> seat_round(const Tournament& tournament,
                                      const SeatingRequest& request) const = 0;

  // What a round sheet shows beyond its tables (AGoT: the variant rules). Default: nothing.
  virtual boost::json::object round_extras(const Tournament& tournament, const Round& round) const;

  // Organizer notices about the tournament as it stands (AGoT: a seated round no longer matches
  // the ratings after a correction). Default: none.
  virtual std::vector<i18n::Message> notices(const Tournament& tournament) const;

  // `POST .../picks/auto` and the like: payloads for the rest of a table (AGoT), or refused.
  // Default: refused (the game has no automatic actions).
  virtual Outcome<std::vector<PayloadBuilder>> auto_actions(const Tournament& tournament,
                                                            const TableState& table) const;

  // A stateless calculation on a request body (`POST /v1/games/{game}/score`).
  // Default: refused (the game has no calculator).
  virtual Outcome<boost::json::object> calculate(const boost::json::object& body,
                                                 const boost::json::object& rules) const;

 protected:
  // The game's own rules for a proposed action (check_action has applied the shared ones).
  virtual RuleErrors check_rules(const Tournament& tournament, const TableState& table,
                                 schema::Event::Reader proposed) const = 0;
};

// The games the daemon serves, by id. The daemon gets one at start; tests add their own.
class GameRegistry {
 public:
  void add(std::unique_ptr<Game> game);
  const Game* find(std::string_view id) const;
  std::vector<std::string> ids() const;

 private:
  std::vector<std::unique_ptr<Game>> games_;
};

}  // namespace tally::projections
