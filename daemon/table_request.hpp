// The one core of every table action, written once for the writes (PUT …/result, POST …/claims,
// …/picks, …/scorings) and their checks (…/check): read the request, find the table, apply the
// preconditions and the correction rule, decode the payload and ask the game's rules. The Api
// then appends the draft, or, for a check, shows the table as the write would leave it.
//
// Thread safety: pure functions; those taking LiveState run inside LiveState::read().
#pragma once

#include "daemon/live_state.hpp"
#include "daemon/router.hpp"
#include "events/store.hpp"
#include "schema/json_codec.hpp"

#include <memory>
#include <optional>
#include <vector>

namespace tally::daemon {

// The round a request names ({t} and {r}), looked up under the state's read lock.
struct RoundRef {
  const projections::Tournament* tournament = nullptr;
  const projections::Round* round = nullptr;
};

// Fills `ref` from the request's {t} and {r}; the 404 answer when one does not exist.
std::optional<Response> find_round(const LiveState& s, const Exchange& ex, RoundRef& ref);

// The table a request names, looked up under the state's read lock.
struct TableRef {
  const projections::Tournament* tournament = nullptr;
  const projections::Game* game = nullptr;
  const projections::SeatedTable* seated = nullptr;
  const projections::TableState* state = nullptr;  // points at `blank` before the first action
  projections::TableState blank;
  std::uint32_t round = 0;
};

// Fills `ref` from the request's {t}, {r} and {n}; the 404 answer when one does not exist.
std::optional<Response> find_table(const LiveState& s, const Exchange& ex, TableRef& ref);
// Fills `ref` for a table of `round` already found.
void point_at_table(const LiveState& s, const RoundRef& round,
                    const projections::SeatedTable& seated, TableRef& ref);

// Decodes a table action's body into `payload` as the game's `spec` says (a body that is one member
// of the payload, like a scoring's event, is wrapped into it); the schema's errors, if any.
std::vector<schema::FieldError> decode_action_body(const projections::ActionSpec& spec,
                                                   const json::object& body,
                                                   schema::Event::Payload::Builder payload);

// The envelope members of a table-action body (`reason`, and `supersedes` for a POST action).
struct Envelope {
  std::string reason;
  std::uint64_t supersedes = 0;
};

// What a table-action request asks for, read from its headers and body before any state is read.
struct TableRequest {
  // The game's action by its name in the path: "result" (PUT …/result, with preconditions),
  // "claims", "picks", "scorings" …
  std::string action;
  std::shared_ptr<const json::object> body;  // without the envelope members
  Envelope envelope;
  // PUT …/result: If-None-Match: * (a first entry) or If-Match: "<version>"; a check reads
  // neither (read_table_request's check_only), so it has none.
  bool first_entry = false;
  std::optional<std::uint64_t> expected_version;
  // A proposal (self-reporting): over a result in effect it needs no reason yet — the judge who
  // approves it gives the correction's reason then.
  bool proposal = false;

  bool is_result() const { return action == "result"; }
};

// The request, or the 4xx answer (a precondition header or a body that is not well formed).
std::variant<TableRequest, Response> read_table_request(const Exchange& ex, std::string action,
                                                        bool check_only);

// What the checks made of a request: the refusal to send, or the event to append.
struct DraftedAction {
  std::optional<Response> refusal;
  events::Draft draft;
  bool replaces_result = false;  // a result over one in effect (answered 200, not 201)
};

// Checks `req` against the table as it stands in `s` (filling `ref`) and drafts its event: 404
// when the table's game has no such action.
DraftedAction draft_table_action(const LiveState& s, const Exchange& ex, const TableRequest& req,
                                 TableRef& ref);

// The tournament as appending `event` to `ref`'s table as `seq` would leave it: a copy (events are
// shared, not copied) with that table replaced, since a game may read a table through the
// tournament (a ledger of every round). What a check or a proposal shows as its result.
projections::Tournament tournament_with(const TableRef& ref, schema::Event::Reader event,
                                        std::uint64_t seq);

}  // namespace tally::daemon
