// What a command names — a tournament, a round, a table, a player — found in the state, or the
// not_found refusal that says which. Rounds and tables come as the request's path gives them
// (text), so that a refusal quotes what the caller wrote.
//
// Thread safety: pure functions.
#pragma once

#include "deciders/decision.hpp"
#include "projections/game.hpp"
#include "projections/tournament.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace tally::deciders {

// The address of a round or a table as the request names it.
struct RoundAddress {
  std::string tournament;
  std::string round;  // the path's text: "3"
};
struct TableAddress {
  std::string tournament;
  std::string round;  // the path's text
  std::string table;  // the path's text
};

// A decimal number and nothing else ("3"; not "03x", "", "-1").
std::optional<std::uint64_t> parse_decimal(std::string_view text);

// The events a tournament-level command appends: to the tournament's own stream, at the version
// the command was decided on (no events yet: an empty Append to fill).
Append at_tournament(const projections::Tournament& t);
Append at_tournament(const projections::Tournament& t, events::Draft event);

Refusal tournament_not_found(const std::string& id);
Refusal player_not_found(const std::string& player, const std::string& tournament);

// The round `address` names in `t`, or why not.
std::variant<const projections::Round*, Refusal> find_round(const projections::Tournament* t,
                                                            const RoundAddress& address);

// A table as a command sees it: the table's state is a blank one before its first action.
struct FoundTable {
  const projections::Tournament* tournament = nullptr;
  const projections::Round* round = nullptr;
  const projections::SeatedTable* seated = nullptr;
  const projections::TableState* state = nullptr;  // points at `blank` before the first action
  projections::TableState blank;

  FoundTable() = default;
  FoundTable(const FoundTable&) = delete;  // `state` may point into it
  FoundTable& operator=(const FoundTable&) = delete;
};

// Fills `found` with the table `address` names in `t`; the refusal when it does not exist.
std::optional<Refusal> find_table(const projections::Tournament* t, const TableAddress& address,
                                  FoundTable& found);
// Fills `found` for `seated`, a table of `round` of `t` already found.
void point_at_table(const projections::Tournament& t, const projections::Round& round,
                    const projections::SeatedTable& seated, FoundTable& found);

}  // namespace tally::deciders
