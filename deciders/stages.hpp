// The stages' commands (docs/games/stages.md):
//
// `StartStage` (POST /v1/tournaments/{t}/stages; its preview POST …/stages/check) begins the
// next stage of `rules.stages`:
//   - S-2: only once the stage before it is complete — the rounds stage: all its rounds seated
//     and the last one reported; final tables: every table has a result — unless forced with a
//     reason (conflict, rule `S-2`).
//   - S-3: a cut seeds the first `top` players of the standings, skipping dropped players
//     (unprocessable `S-3` when fewer are left).
//   - S-4: final tables deal the seeds in snake order; S-6, S-7: a knockout's first round pairs
//     the seeds, the better seed first. Those stages' first round is seated with the start.
//
// `AdvanceBracket` (the server's own, after every result of a knockout): once every game of the
// knockout's newest round has a result, seats the next round (S-6); re-seats a round whose
// players a correction changed while none of its changed games has a result (S-7).
//
// `seat_round_refusal`: POST …/rounds in a staged tournament seats only the rounds stage's rounds.
//
// Thread safety: pure functions.
#pragma once

#include "deciders/decision.hpp"
#include "projections/game.hpp"
#include "projections/stage_progress.hpp"
#include "projections/tournament.hpp"

#include <optional>
#include <string>
#include <vector>

namespace tally::deciders {

struct StartStage {
  bool force = false;  // start although the stage before it is not complete …
  std::string reason;  // … saying why (required with force: the body's reader checks)
};

// What starting the stage does, for the answer and the preview.
struct StageFacts {
  std::uint32_t index = 0;
  projections::StageKind kind = projections::StageKind::cut;
  std::vector<std::string> players;              // seeded, best first
  std::optional<projections::CutPreview> cut;    // a cut: who is in, the first out, why
  std::uint32_t round = 0;                       // a stage that plays: its first round …
  std::vector<projections::SeatedTable> tables;  // … and its tables
  std::vector<std::pair<std::string, std::string>> swaps;  // S-9 swaps in the snake (S-4)
};

// Appends `stage_started` (and, for a stage that plays, its first `round_seated`) to the
// tournament's stream. A final table's snake keeps apart whom S-9 keeps apart.
Decision<StageFacts> decide(const projections::Tournament& t, const projections::Game& game,
                            const StartStage& command, const Actor& actor);

struct AdvanceBracket {};

// Nothing to append (accepted, no events) unless a knockout round is due or out of date.
Decision<> decide(const projections::Tournament& t, const projections::Game& game,
                  const AdvanceBracket& command, const Actor& actor);

// S-2 for POST …/rounds: a staged tournament's rounds stage seats `rounds` rounds and no more; a
// later stage seats its own. Nullopt when the round may be seated.
std::optional<Refusal> seat_round_refusal(const projections::Tournament& t);

// S-7: a correction of a knockout game's result once the game its winner went on to has a
// result. Nullopt when allowed.
std::optional<Refusal> knockout_correction_refusal(const projections::Tournament& t,
                                                   const projections::Game& game,
                                                   std::uint32_t round, std::uint32_t table);

}  // namespace tally::deciders
