// What has been played of a tournament's stages (docs/games/stages.md): each stage's state, its
// tables' places or its bracket, who continues (S-3…S-7), and the final standings once the last
// stage is complete (S-8). Folded from the tournament and its game's table results; no events of
// its own beyond `stage_started` and the stages' seatings.
//
// Thread safety: pure functions of their arguments.
#pragma once

#include "projections/game.hpp"
#include "projections/stages.hpp"
#include "projections/tournament.hpp"

#include <boost/json/object.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tally::projections {

enum class StageState { pending, playing, complete };
std::string_view stage_state_name(StageState state);

// One table of a final-tables or final stage.
struct StageTable {
  std::uint32_t round = 0;
  std::uint32_t table = 0;
  std::vector<std::string> players;  // in seat order (best seed first)
  // Best first once the table has a result (S-5: the game's place, then the better seed);
  // empty until then.
  std::vector<std::string> order;
};

// One game of a knockout (S-6, S-7).
struct KnockoutGame {
  std::uint32_t round = 0;
  std::uint32_t table = 0;
  std::string first;  // the better seed: starts, and wins a game that ends level
  std::string second;
  std::string winner;  // empty until the game has a result
  std::string loser;
  bool third_place = false;
};

struct StageProgress {
  std::uint32_t index = 0;
  StageSpec spec;
  StageState state = StageState::pending;
  const StartedStage* started = nullptr;           // null while pending, and for the rounds stage
  std::vector<StageTable> tables;                  // final_tables, final
  std::vector<std::vector<KnockoutGame>> bracket;  // knockout: its rounds, first first
  // Who plays the next stage, best seed first: set once the stage is complete (the rounds
  // stage: nobody — a cut chooses from its standings).
  std::vector<std::string> continuing;
};

// Every stage of a staged tournament, in order; empty for a tournament without stages.
std::vector<StageProgress> stage_progress(const Tournament& t, const Game& game);

// S-3: the cut as it would fall now — who is in (seed order), the dropped players it passed
// over, the first player out, and the standings member that put the last one in ahead of the
// first one out ("name" or "player" when the sporting criteria are all equal).
struct CutPreview {
  std::vector<std::string> in;
  std::vector<std::string> passed_over;  // dropped players the cut skipped
  std::string first_out;                 // empty when everyone is in
  std::string decided_by;
};
CutPreview preview_cut(const Tournament& t, const Game& game, std::uint32_t top);

// The next round a knockout plays (S-6, S-7) once every game of its newest round has a result:
// its games as tables (table 1 the final, table 2 the game for 3rd place). Nullopt while a game
// is unreported, or after the final.
std::optional<std::vector<SeatedTable>> next_knockout_round(const StageProgress& knockout);

// The seating a knockout's round should have, when that round is seated already: the games its
// previous round's results make. Nullopt for the first round.
std::optional<std::vector<SeatedTable>> knockout_round_from_results(const StageProgress& knockout,
                                                                    std::size_t bracket_round);

// S-8: the final standings, once the last stage is complete. `rounds_rows` are the game's
// standings rows (the rounds stage's), best first: the order of those the cut left out.
struct FinalRow {
  std::uint32_t place = 0;
  std::string player;
  std::uint32_t stage = 0;  // the stage the player's tournament ended in
  bool shared = false;      // 3= (a knockout without a game for 3rd place)
};
std::optional<std::vector<FinalRow>> final_standings(const std::vector<StageProgress>& stages,
                                                     const boost::json::array& rounds_rows);

// The standings as GET …/standings answers them: the game's (the rounds stage's, for a staged
// tournament), and for a staged tournament its `stages` and, once complete, `final` (S-8).
boost::json::object tournament_standings(const Tournament& t, const Game& game);

// The standings answer's `stages` and `final` members (docs/api.md, "Stages").
boost::json::array stages_json(const std::vector<StageProgress>& stages);
boost::json::array final_json(const Tournament& t, const std::vector<StageProgress>& stages,
                              const std::vector<FinalRow>& rows);

}  // namespace tally::projections
