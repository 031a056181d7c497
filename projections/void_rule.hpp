// Rule `void`: what a void may withdraw, decided from the tournament as it stands — the one place
// both the void command (POST …/events/{seq}/void) and the audit's `voidable` ask, so the console
// never offers a void the server would refuse.
//   - A round's seating: only the organizer, only the newest round's, and only before anything
//     was entered at its tables.
//   - A table's action other than its result (a claim, a house pick, a scoring), while it is in
//     effect. A result is never voided: it is corrected (PUT …/result with a reason).
//
// Thread safety: pure functions.
#pragma once

#include "projections/tournament.hpp"

#include <cstdint>
#include <optional>

namespace tally::projections {

struct VoidRefusal {
  enum class Kind {
    seating_organizer_only,  // 403: a judge asked
    seating_not_newest,      // 422: an older round's, or its tables have entries
    not_voidable,            // 422: a result (corrected instead), a void, a tournament event
    no_longer_in_effect,     // 422: voided or corrected already
  };
  Kind kind;
  const char* message;        // the catalog key of the whole refusal
  const char* field_message;  // the catalog key of the error at field `seq`
};

struct VoidDecision {
  std::optional<VoidRefusal> refusal;
  // When allowed: the version the stream must still have when the void is appended (the
  // tournament's for a seating, the table's otherwise).
  std::uint64_t expected_version = 0;
};

// Whether the event `target` (seq `target_seq`, in `tournament`) may be voided by a judge or, when
// `by_organizer`, by the organizer.
VoidDecision decide_void(const Tournament& tournament, schema::Event::Reader target,
                         std::uint64_t target_seq, bool by_organizer);

}  // namespace tally::projections
