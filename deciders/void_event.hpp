// Command `VoidEvent` (POST /v1/tournaments/{t}/events/{seq}/void) and rule `void`: what a void
// may withdraw, decided from the tournament as it stands — the one place both the command and
// the audit's `voidable` ask, so the console never offers a void the server would refuse.
//   - A round's seating: only the organizer (forbidden for a judge), only the newest round's,
//     and only before anything was entered at its tables.
//   - A keep-apart (S-9; only the organizer) or a penalty (S-11), while it is in effect.
//   - A table's action other than its result (a claim, a house pick, a scoring), while it is in
//     effect. A result is never voided: it is corrected (a result with a reason).
// A refusal other than forbidden is unprocessable, rule `void` at field `seq`.
//
// Thread safety: pure functions.
#pragma once

#include "deciders/decision.hpp"
#include "projections/tournament.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace tally::deciders {

struct VoidEvent {
  std::string tournament;
  std::uint64_t seq = 0;  // the event to withdraw
  std::string reason;     // required (the body's reader checks)
};

// Why `target` (seq `target_seq`, an event of `t`) may not be voided by `actor`; nullopt when
// it may.
std::optional<Refusal> void_refusal(const projections::Tournament& t, schema::Event::Reader target,
                                    std::uint64_t target_seq, const Actor& actor);

// Appends a `void` superseding the target to the target's stream (the tournament's for a
// seating, its table's otherwise). `target` is the event at command.seq, if the log has one.
Decision<> decide(const projections::Tournament* t,
                  const std::optional<schema::Event::Reader>& target, const VoidEvent& command,
                  const Actor& actor);

}  // namespace tally::deciders
