// What every game does with a table, written once: finding where a table sits in its round, and
// the correction rule (rule "supersedes": a correction replaces an action of its own kind that is
// in effect at the table).
//
// Thread safety: pure functions.
#pragma once

#include "projections/game.hpp"
#include "projections/tournament.hpp"

namespace tally::projections {

// The seating of `table` in its round, or null when the round or the table is not (or no longer)
// seated.
const SeatedTable* seated_table(const Tournament& tournament, const TableState& table);

// Whether `player` sits at `seated`.
bool seated_at(const SeatedTable& seated, std::string_view player);

// The action in effect at the table with this seq, or null.
const Action* action_with_seq(const TableState& table, std::uint64_t seq);

// The kind of a table action as people call it ("a Catan result", "a claim of the win"): a term
// of the rules catalog, for messages that name a kind of action.
i18n::Term action_term(schema::Event::Payload::Which kind);

// Rule "supersedes": a proposed correction (`supersedes` set) must name an action of its own kind
// that is in effect at the table — a claim cannot withdraw a result, nor a result a scoring.
// No correction, no error.
RuleErrors check_correction(const TableState& table, schema::Event::Reader proposed);

// The table as it would stand with `proposed` in effect (what it supersedes gone), for checking a
// write without making it. `seq` is the seq it would get.
TableState with_proposed(const TableState& table, schema::Event::Reader proposed,
                         std::uint64_t seq);

}  // namespace tally::projections
