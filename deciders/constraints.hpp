// The seating constraints and the points beside the games (stages.md §6; our words in
// docs/games/seating-constraints.md):
//
//   - `KeepApart` (POST …/keep-apart, organizer): S-9 — two or more registered players, each
//     named once, with a reason (unprocessable, rule `S-9`, at field `players` or `reason`).
//     Appends `kept_apart`; voided like any action (void_event.hpp).
//   - `PatchPlayer` (PATCH …/players/{p}): a new name and/or S-10 — a fixed table number ≥ 1, or
//     none (`null`); a number of 0 is unprocessable (rule `S-10`, field `fixed_table`). Appends
//     `player_renamed` and/or `fixed_table`, in that order, in one append.
//   - `GivePenalty` (POST …/players/{p}/penalties, organizer or judge): S-11 — exact non-zero
//     points ("-1", "-1/2"; at most 1000 either way, a denominator of at most 1000), a round that
//     exists (or none) and a reason; every problem at once (unprocessable, rule `S-11`, at
//     `points`, `round`, `reason`). Appends `penalty_given`; voided like any action.
//
// Thread safety: pure functions.
#pragma once

#include "deciders/decision.hpp"
#include "projections/tournament.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tally::deciders {

struct KeepApart {
  std::string tournament;
  std::vector<std::string> players;
  std::string reason;
};
Decision<> decide(const projections::Tournament* t, const KeepApart& command, const Actor& actor);

struct PatchPlayer {
  std::string tournament;
  std::string player;
  std::optional<std::string> name;  // the body's reader checked the name rule
  // Absent: unchanged; nullopt inside: no fixed table any more.
  std::optional<std::optional<std::uint32_t>> fixed_table;
};
Decision<> decide(const projections::Tournament* t, const PatchPlayer& command, const Actor& actor);

struct GivePenalty {
  std::string tournament;
  std::string player;
  std::string points;                  // as sent: "-1", "-1/2"
  std::optional<std::uint32_t> round;  // absent: none
  std::string reason;
};
Decision<> decide(const projections::Tournament* t, const GivePenalty& command, const Actor& actor);

// S-11: the exact points of a penalty's text, or the message saying why they are not.
std::variant<Rational, i18n::Message> penalty_points(const std::string& text);

}  // namespace tally::deciders
