// A tournament's stages (docs/games/stages.md): `rules.stages`, the list of what is played in
// order — the game's own rounds, a cut, final tables, a final, a knockout. This file reads and
// checks the list (S-1); stage_progress.hpp folds what has been played of it.
//
// Thread safety: pure functions of their arguments.
#pragma once

#include "projections/game.hpp"

#include <boost/json/array.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

namespace tally::projections {

enum class StageKind { rounds, cut, final_tables, final, knockout };
std::string_view stage_kind_name(StageKind kind);

// A knockout's first pairing (S-6): "1-5" (CWC 2019: 1–5, 2–6 …) or "1-8" (classic: 1–8, 4–5 …).
enum class KnockoutPairing { one_five, one_eight };

struct StageSpec {
  StageKind kind = StageKind::rounds;
  std::uint32_t rounds = 0;   // rounds: how many
  std::uint32_t top = 0;      // cut: how many continue
  std::uint32_t tables = 0;   // final_tables: how many tables …
  std::uint32_t advance = 0;  // … and the places of each that continue
  KnockoutPairing pairing = KnockoutPairing::one_five;
  bool third_place = true;  // knockout: a game for 3rd place between the semi-final losers

  // Whether the stage plays games (a cut only chooses who continues).
  bool plays() const { return kind != StageKind::cut; }
};

// S-1: reads `rules.stages` and checks the whole list: every violation at once (rule "S-1",
// field "stages[i].key"). The answer is the list as the tournament keeps it.
Outcome<std::vector<StageSpec>> read_stages(const boost::json::value& stages,
                                            const StageShape& shape);
boost::json::array stages_json(const std::vector<StageSpec>& stages);

// The tournament's stages as its rules hold them (checked when it was created); empty when the
// tournament has none (it is one run of rounds, as before stages existed).
std::vector<StageSpec> stages_of(const Tournament& tournament);

// The bracket's first round for `players` seeds (a power of two ≥ 4): the pairs of seeds (1-based),
// better seed first, in game order (S-6).
std::vector<std::pair<std::uint32_t, std::uint32_t>> first_knockout_pairs(KnockoutPairing pairing,
                                                                          std::uint32_t players);

// S-4: `seeds` players dealt to `tables` tables in snake order (seeds 1…T to tables 1…T, T+1…2T to
// tables T…1, …). Each table lists its players best seed first. `kept_apart` says whether two
// players must not share a table (S-9): a player is swapped with the next seed of the same row
// when that keeps them apart; every swap is reported in `swaps` (the two players).
struct SnakeSeating {
  std::vector<std::vector<std::string>> tables;
  std::vector<std::pair<std::string, std::string>> swaps;
};
SnakeSeating snake_seating(
    const std::vector<std::string>& seeds, std::uint32_t tables,
    const std::function<bool(const std::string&, const std::string&)>& kept_apart);

}  // namespace tally::projections
