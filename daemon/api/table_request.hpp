// The table a request names, and what a table-action request asks for read from its headers
// and body (the command deciders/table_action.hpp decides). The Api appends what the decider
// accepts, or, for a check, shows the table as the write would leave it.
//
// Thread safety: pure functions; those taking LiveState run inside LiveState::read().
#pragma once

#include "daemon/http/router.hpp"
#include "daemon/live_state.hpp"
#include "deciders/lookup.hpp"
#include "deciders/table_action.hpp"

#include <optional>
#include <variant>

namespace tally::daemon {

// The round a request names ({t} and {r}), looked up under the state's read lock.
struct RoundRef {
  const projections::Tournament* tournament = nullptr;
  const projections::Round* round = nullptr;
};

// Fills `ref` with the round `address` names; the refusal when it does not exist.
std::optional<deciders::Refusal> find_round(const LiveState& s,
                                            const deciders::RoundAddress& address, RoundRef& ref);

// The table a request names, looked up under the state's read lock, with its tournament's game.
struct TableRef : deciders::FoundTable {
  const projections::Game* game = nullptr;
};

// Fills `ref` with the table `address` names; the refusal when it does not exist.
std::optional<deciders::Refusal> find_table(const LiveState& s,
                                            const deciders::TableAddress& address, TableRef& ref);
// Fills `ref` for a table of `round` already found.
void point_at_table(const LiveState& s, const RoundRef& round,
                    const projections::SeatedTable& seated, TableRef& ref);

// The address {t}/{r} of the request's path.
deciders::RoundAddress round_address(const Exchange& ex);
// The address {t}/{r}/{n} of the request's path.
deciders::TableAddress table_address(const Exchange& ex);

// A table action as the request asks for it (PUT …/result with its preconditions, POST …/{action},
// a check): the command, or the 4xx answer (a precondition header or a body that is not well
// formed).
using TableRequest = deciders::TableAction;
std::variant<TableRequest, Response> read_table_request(const Exchange& ex, std::string action,
                                                        bool check_only);

// Decides `req` by `actor` on the state (filling `ref`): deciders::decide for a table action,
// the judges' names from `s`.
deciders::Decision<deciders::TableActionFacts> decide_table_action(const LiveState& s,
                                                                   const TableRequest& req,
                                                                   const deciders::Actor& actor,
                                                                   TableRef& ref);

}  // namespace tally::daemon
