#include "deciders/stages.hpp"

#include "deciders/lookup.hpp"
#include "deciders/seat_round.hpp"
#include "deciders/unreported.hpp"

#include <algorithm>

namespace tally::deciders {

namespace {

using projections::SeatedTable;
using projections::StageKind;
using projections::StageProgress;
using projections::StageState;

Refusal conflict(const char* rule, i18n::Message error, const char* detail = "stages.refused",
                 std::string field = "") {
  return Refusal{RefusalKind::conflict,
                 i18n::Message(detail),
                 {RefusalError{rule, "", std::move(field), std::move(error)}}};
}

// S-2: why the stage before `next` is not complete yet (nullopt: it is).
std::optional<i18n::Message> incomplete(const projections::Tournament& t,
                                        const projections::Game& game,
                                        const StageProgress& before) {
  if (before.index == 0) {
    const std::uint32_t seated = t.qualifying_rounds();
    if (seated < before.spec.rounds) {
      return i18n::Message("stages.rounds_to_play",
                           {{"seated", seated}, {"rounds", before.spec.rounds}});
    }
    const projections::Round& last = t.rounds[seated - 1];
    if (auto open = unreported_tables(t, game, last); !open.empty()) {
      std::string tables;
      for (auto n : open) tables += (tables.empty() ? "" : ", ") + std::to_string(n);
      return i18n::Message("stages.tables_unreported",
                           {{"round", last.number}, {"tables", tables}});
    }
    return std::nullopt;
  }
  if (before.state == StageState::complete) return std::nullopt;
  return i18n::Message(
      "stages.stage_unfinished",
      {{"stage", before.index},
       {"kind",
        i18n::Term{"stages.kind." + std::string(projections::stage_kind_name(before.spec.kind))}}});
}

// The seeded players of stage `index`: the cut's from the standings, else who the stage before
// lets through (after a forced start, whoever it has let through so far).
std::vector<std::string> seeds_for(const projections::Tournament& t, const projections::Game& game,
                                   const std::vector<StageProgress>& stages, std::size_t index,
                                   StageFacts& facts) {
  const StageProgress& stage = stages[index];
  if (stage.spec.kind == StageKind::cut) {
    facts.cut = projections::preview_cut(t, game, stage.spec.top);
    return facts.cut->in;
  }
  const StageProgress& before = stages[index - 1];
  if (before.state == StageState::complete) return before.continuing;
  // Forced: the players of the tables that have a result, as far as they go.
  std::vector<std::string> out;
  for (const auto& table : before.tables) {
    for (std::size_t i = 0; i < table.order.size() && i < before.spec.advance; ++i)
      out.push_back(table.order[i]);
  }
  return out;
}

std::vector<SeatedTable> knockout_tables(const StageProgress& stage,
                                         const std::vector<std::string>& seeds) {
  std::vector<SeatedTable> tables;
  const auto pairs = projections::first_knockout_pairs(stage.spec.pairing,
                                                       static_cast<std::uint32_t>(seeds.size()));
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    SeatedTable table;
    table.number = static_cast<std::uint32_t>(i + 1);
    table.players = {seeds[pairs[i].first - 1], seeds[pairs[i].second - 1]};
    tables.push_back(std::move(table));
  }
  return tables;
}

events::Draft stage_round_seated(std::uint32_t round, schema::SeatingMethod method,
                                 const std::vector<SeatedTable>& tables, const Actor& actor,
                                 const std::string& reason) {
  events::Draft d = authored(actor, reason);
  auto seated = d.event().getPayload().initRoundSeated();
  seated.setRound(round);
  seated.setMethod(method);
  write_tables(seated, tables);
  return d;
}

}  // namespace

Decision<StageFacts> decide(const projections::Tournament& t, const projections::Game& game,
                            const StartStage& command, const Actor& actor) {
  const std::vector<StageProgress> stages = projections::stage_progress(t, game);
  if (stages.empty()) {
    return Refusal{RefusalKind::conflict, i18n::Message("stages.none")};
  }
  const std::size_t index = t.stages.empty() ? 1 : t.stages.back().index + 1;
  if (index >= stages.size()) {
    return conflict("S-2", i18n::Message("stages.all_started"));
  }
  const StageProgress& stage = stages[index];
  if (!command.force) {
    if (auto why = incomplete(t, game, stages[index - 1])) {
      return conflict("S-2", std::move(*why), "stages.previous_incomplete", "force");
    }
  }
  StageFacts facts;
  facts.index = static_cast<std::uint32_t>(index);
  facts.kind = stage.spec.kind;
  facts.players = seeds_for(t, game, stages, index, facts);
  if (stage.spec.kind == StageKind::cut && facts.players.size() < stage.spec.top) {
    return Refusal{
        RefusalKind::unprocessable,
        i18n::Message("stages.refused"),
        {RefusalError{"S-3", "", "",
                      i18n::Message("stages.cut_too_few", {{"top", stage.spec.top},
                                                           {"available", facts.players.size()}})}}};
  }

  Append append = at_tournament(t);
  events::Draft started = authored(actor, command.reason);
  auto payload = started.event().getPayload().initStageStarted();
  payload.setStage(facts.index);
  payload.setForced(command.force);
  auto list = payload.initPlayers(static_cast<unsigned>(facts.players.size()));
  for (unsigned i = 0; i < facts.players.size(); ++i) list.set(i, facts.players[i]);
  append.events.push_back(std::move(started));

  if (stage.spec.plays()) {
    facts.round = t.next_round();
    schema::SeatingMethod method = schema::SeatingMethod::SNAKE;
    if (stage.spec.kind == StageKind::knockout) {
      method = schema::SeatingMethod::KNOCKOUT;
      facts.tables = knockout_tables(stage, facts.players);
    } else {
      const std::uint32_t tables = stage.spec.kind == StageKind::final ? 1 : stage.spec.tables;
      auto snake = projections::snake_seating(
          facts.players, tables,
          [&t](const std::string& a, const std::string& b) { return t.kept_apart(a, b); });
      for (std::size_t i = 0; i < snake.tables.size(); ++i) {
        SeatedTable table;
        table.number = static_cast<std::uint32_t>(i + 1);
        table.players = std::move(snake.tables[i]);
        facts.tables.push_back(std::move(table));
      }
      facts.swaps = std::move(snake.swaps);
    }
    append.events.push_back(
        stage_round_seated(facts.round, method, facts.tables, actor, command.reason));
  }
  return Accepted<StageFacts>{std::move(append), std::move(facts)};
}

Decision<> decide(const projections::Tournament& t, const projections::Game& game,
                  const AdvanceBracket&, const Actor& actor) {
  const std::vector<StageProgress> stages = projections::stage_progress(t, game);
  for (const StageProgress& stage : stages) {
    if (stage.spec.kind != StageKind::knockout || stage.started == nullptr) continue;
    // A seated round the results before it no longer make (a correction), while none of the
    // games that would change has a result: seated again.
    for (std::size_t k = 1; k < stage.bracket.size(); ++k) {
      auto expected = projections::knockout_round_from_results(stage, k);
      if (!expected) continue;
      const projections::Round* round = t.round(stage.bracket[k].front().round);
      bool differs = false, changed_game_played = false;
      for (const SeatedTable& want : *expected) {
        const SeatedTable* have = round->table(want.number);
        if (have != nullptr && have->players == want.players) continue;
        differs = true;
        const projections::TableState* state = t.table(round->number, want.number);
        if (state != nullptr && state->result() != nullptr) changed_game_played = true;
      }
      if (differs && !changed_game_played) {
        return at_tournament(t, stage_round_seated(round->number, schema::SeatingMethod::KNOCKOUT,
                                                   *expected, actor, ""));
      }
    }
    if (auto next = projections::next_knockout_round(stage)) {
      return at_tournament(
          t, stage_round_seated(t.next_round(), schema::SeatingMethod::KNOCKOUT, *next, actor, ""));
    }
  }
  return Append{};
}

std::optional<Refusal> seat_round_refusal(const projections::Tournament& t) {
  const auto stages = projections::stages_of(t);
  if (stages.empty()) return std::nullopt;
  if (!t.stages.empty() || t.qualifying_rounds() >= stages.front().rounds) {
    return conflict("S-2",
                    i18n::Message("stages.rounds_played", {{"rounds", stages.front().rounds}}),
                    "api.seating.refused");
  }
  return std::nullopt;
}

std::optional<Refusal> knockout_correction_refusal(const projections::Tournament& t,
                                                   const projections::Game& game,
                                                   std::uint32_t round, std::uint32_t table) {
  const projections::StartedStage* started = t.stage_of_round(round);
  if (started == nullptr) return std::nullopt;
  for (const StageProgress& stage : projections::stage_progress(t, game)) {
    if (stage.started != started || stage.spec.kind != StageKind::knockout) continue;
    for (std::size_t k = 0; k + 1 < stage.bracket.size(); ++k) {
      if (stage.bracket[k].empty() || stage.bracket[k].front().round != round) continue;
      const auto game_at =
          std::find_if(stage.bracket[k].begin(), stage.bracket[k].end(),
                       [&](const projections::KnockoutGame& g) { return g.table == table; });
      if (game_at == stage.bracket[k].end() || game_at->winner.empty()) return std::nullopt;
      // The games of the next round its players went on to: a result there fixes this one.
      for (const projections::KnockoutGame& next : stage.bracket[k + 1]) {
        const bool went_on = next.first == game_at->winner || next.second == game_at->winner ||
                             next.first == game_at->loser || next.second == game_at->loser;
        if (went_on && !next.winner.empty()) {
          return Refusal{RefusalKind::conflict,
                         i18n::Message("stages.refused"),
                         {RefusalError{"S-7", game_at->winner, "",
                                       i18n::Message("stages.knockout_played_on",
                                                     {{"player", i18n::PlayerRef{game_at->winner}},
                                                      {"round", next.round},
                                                      {"table", next.table}})}}};
        }
      }
    }
  }
  return std::nullopt;
}

}  // namespace tally::deciders
