// Command `TableAction`: the one core of every table action — a result (PUT …/result), a claim,
// a house pick, a scoring (POST …/{action}) — and of their checks (…/check) and of a proposal's
// approval. In this order:
//
//   - the table exists (not_found), and the game has the action (`api.table.no_action`);
//   - a result's preconditions: If-None-Match: * when there is none yet (precondition
//     `api.table.already_entered`, naming who entered it and when), If-Match the table's version
//     (`api.table.version_moved`); a refusal carries the table's version (the ETag);
//   - a result replaces the one in effect: that is its correction, which needs a reason, as does
//     any action that supersedes another (unprocessable, rule `reason`) — except a proposal,
//     whose reason the approving judge gives;
//   - the body decodes into the game's payload (unprocessable, rule `schema`), and the game's own
//     rules pass (unprocessable, each rule broken with its id).
//
// Thread safety: pure functions.
#pragma once

#include "deciders/decision.hpp"
#include "deciders/lookup.hpp"
#include "projections/game.hpp"
#include "projections/tournament.hpp"
#include "schema/json_codec.hpp"

#include <boost/json/object.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace tally::deciders {

struct TableAction {
  TableAddress table;
  // The game's action by its name in the path: "result", "claims", "picks", "scorings" …
  std::string action;
  std::shared_ptr<const boost::json::object> body;  // without the envelope members
  std::string reason;                               // the envelope's `reason`
  std::uint64_t supersedes = 0;                     // the envelope's `supersedes` (a POST action's)
  // A result's preconditions: If-None-Match: * (a first entry) or If-Match: "<version>"; a
  // check has neither.
  bool first_entry = false;
  std::optional<std::uint64_t> expected_version;
  // A proposal (self-reporting): over a result in effect it needs no reason yet.
  bool proposal = false;

  bool is_result() const { return action == "result"; }
};

// What the decider found out: whether a result replaced one in effect (answered 200, not 201).
struct TableActionFacts {
  bool replaces_result = false;
};

// How a refusal names the author of an entry ("already entered by Eva"): a judge's id → name.
using AuthorName = std::function<std::string(std::string_view author)>;

// Appends the action's event to the table's stream at the table's version. `found` is filled
// with the table the command names when it exists (a check shows the table as it would be).
Decision<TableActionFacts> decide(const projections::Tournament* t, const projections::Game* game,
                                  const TableAction& command, const Actor& actor,
                                  const AuthorName& author_name, FoundTable& found);

// Decodes a table action's body into `payload` as the game's `spec` says (a body that is one
// member of the payload, like a scoring's event, is wrapped into it); the schema's errors.
std::vector<schema::FieldError> decode_action_body(const projections::ActionSpec& spec,
                                                   const boost::json::object& body,
                                                   schema::Event::Payload::Builder payload);

// The tournament as appending `event` to `found`'s table as `seq` would leave it: a copy (events
// are shared, not copied) with that table replaced, since a game may read a table through the
// tournament (a ledger of every round). What a check or a proposal shows as its result.
projections::Tournament tournament_with(const FoundTable& found, schema::Event::Reader event,
                                        std::uint64_t seq);

}  // namespace tally::deciders
