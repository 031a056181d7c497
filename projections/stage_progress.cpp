#include "projections/stage_progress.hpp"

#include <algorithm>
#include <bit>
#include <set>

namespace tally::projections {

namespace json = boost::json;

std::string_view stage_state_name(StageState state) {
  switch (state) {
    case StageState::pending:
      return "pending";
    case StageState::playing:
      return "playing";
    case StageState::complete:
      return "complete";
  }
  return "pending";
}

namespace {

const StartedStage* started_stage(const Tournament& t, std::uint32_t index) {
  for (const StartedStage& s : t.stages) {
    if (s.index == index) return &s;
  }
  return nullptr;
}

// S-5: a stage table's players best first — the game's place, then the better seed (a final
// never ends in a shared place). Empty while the table has no result.
std::vector<std::string> table_order(const Tournament& t, const Game& game,
                                     const StartedStage& stage, std::uint32_t round,
                                     const SeatedTable& seated) {
  const TableState* state = t.table(round, seated.number);
  const TableState blank = blank_table(round, seated.number);
  auto result = game.table_result(t, state ? *state : blank);
  if (!result) return {};
  struct Placed {
    std::int64_t place;
    std::uint32_t seed;
    std::string player;
  };
  std::vector<Placed> placed;
  for (const json::value& entry : result->at("players").as_array()) {
    const json::object& p = entry.as_object();
    std::string player(p.at("player").as_string());
    placed.push_back(
        {place_number(p.if_contains("place")), stage.seed_of(player), std::move(player)});
  }
  std::sort(placed.begin(), placed.end(), [](const Placed& a, const Placed& b) {
    return std::tie(a.place, a.seed) < std::tie(b.place, b.seed);
  });
  std::vector<std::string> out;
  for (auto& p : placed) out.push_back(std::move(p.player));
  return out;
}

// The players of the tables' first `advance` places, seeded again by (place at their table,
// seed): all table winners before all second places (S-5).
std::vector<std::string> advancing(const StartedStage& stage, const std::vector<StageTable>& tables,
                                   std::uint32_t advance) {
  struct Ranked {
    std::size_t place;
    std::uint32_t seed;
    std::string player;
  };
  std::vector<Ranked> ranked;
  for (const StageTable& table : tables) {
    for (std::size_t i = 0; i < table.order.size() && i < advance; ++i)
      ranked.push_back({i, stage.seed_of(table.order[i]), table.order[i]});
  }
  std::sort(ranked.begin(), ranked.end(), [](const Ranked& a, const Ranked& b) {
    return std::tie(a.place, a.seed) < std::tie(b.place, b.seed);
  });
  std::vector<std::string> out;
  for (auto& r : ranked) out.push_back(std::move(r.player));
  return out;
}

void fold_tables(const Tournament& t, const Game& game, StageProgress& p) {
  const Round* round = t.round(p.started->first_round);
  if (round == nullptr) return;
  bool all_reported = !round->tables.empty();
  for (const SeatedTable& seated : round->tables) {
    StageTable table{round->number, seated.number, seated.players,
                     table_order(t, game, *p.started, round->number, seated)};
    all_reported = all_reported && !table.order.empty();
    p.tables.push_back(std::move(table));
  }
  if (!all_reported) return;
  p.state = StageState::complete;
  if (p.spec.kind == StageKind::final) {
    p.continuing = p.tables.front().order;
  } else {
    p.continuing = advancing(*p.started, p.tables, p.spec.advance);
  }
}

std::uint32_t bracket_rounds(std::size_t players) {
  return players < 2 ? 0 : static_cast<std::uint32_t>(std::bit_width(players) - 1);
}

void fold_bracket(const Tournament& t, const Game& game, StageProgress& p) {
  const std::uint32_t total = bracket_rounds(p.started->seeded.size());
  for (std::uint32_t k = 0; k < total; ++k) {
    const Round* round = t.round(p.started->first_round + k);
    if (round == nullptr) break;
    std::vector<KnockoutGame> games;
    for (const SeatedTable& seated : round->tables) {
      KnockoutGame g;
      g.round = round->number;
      g.table = seated.number;
      if (seated.players.size() == 2) {
        g.first = seated.players[0];
        g.second = seated.players[1];
      }
      g.third_place = k + 1 == total && seated.number == 2;
      auto order = table_order(t, game, *p.started, round->number, seated);
      if (order.size() == 2) {
        g.winner = order[0];
        g.loser = order[1];
      }
      games.push_back(std::move(g));
    }
    p.bracket.push_back(std::move(games));
  }
  if (p.bracket.size() != total || total == 0) return;
  const auto& last = p.bracket.back();
  if (std::any_of(last.begin(), last.end(), [](const KnockoutGame& g) { return g.winner.empty(); }))
    return;
  p.state = StageState::complete;
}

// The games the results of `previous` (a knockout round, every game decided) make next: the
// final and the game for 3rd place after the semi-finals; else winners in pairs (S-6).
std::vector<SeatedTable> games_after(const StageProgress& p,
                                     const std::vector<KnockoutGame>& previous) {
  auto table = [&](std::uint32_t number, const std::string& a, const std::string& b) {
    SeatedTable s;
    s.number = number;
    // S-7: the better seed first.
    const bool a_first = p.started->seed_of(a) < p.started->seed_of(b);
    s.players = a_first ? std::vector<std::string>{a, b} : std::vector<std::string>{b, a};
    return s;
  };
  std::vector<SeatedTable> out;
  const std::size_t m = previous.size();
  if (m == 2) {
    out.push_back(table(1, previous[0].winner, previous[1].winner));
    if (p.spec.third_place) out.push_back(table(2, previous[0].loser, previous[1].loser));
    return out;
  }
  // "1-5" (CWC 2019): the first game's winner meets the last's (SF1 W(QF1)–W(QF4)); "1-8": the
  // winners meet in pairs in game order (W(1–8)–W(4–5)).
  const bool fold = p.spec.pairing == KnockoutPairing::one_five;
  for (std::size_t i = 0; i < m / 2; ++i) {
    const KnockoutGame& a = fold ? previous[i] : previous[2 * i];
    const KnockoutGame& b = fold ? previous[m - 1 - i] : previous[2 * i + 1];
    out.push_back(table(static_cast<std::uint32_t>(i + 1), a.winner, b.winner));
  }
  return out;
}

bool decided(const std::vector<KnockoutGame>& games) {
  return !games.empty() && std::all_of(games.begin(), games.end(),
                                       [](const KnockoutGame& g) { return !g.winner.empty(); });
}

}  // namespace

std::vector<StageProgress> stage_progress(const Tournament& t, const Game& game) {
  const std::vector<StageSpec> specs = stages_of(t);
  std::vector<StageProgress> out;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    StageProgress p;
    p.index = static_cast<std::uint32_t>(i);
    p.spec = specs[i];
    if (i == 0) {
      // The rounds stage: played from its first seating, complete once a later stage began.
      p.state = !t.stages.empty()   ? StageState::complete
                : !t.rounds.empty() ? StageState::playing
                                    : StageState::pending;
      out.push_back(std::move(p));
      continue;
    }
    p.started = started_stage(t, p.index);
    if (p.started != nullptr) {
      p.state = StageState::playing;
      switch (p.spec.kind) {
        case StageKind::cut:
          p.state = StageState::complete;
          p.continuing = p.started->seeded;
          break;
        case StageKind::final_tables:
        case StageKind::final:
          fold_tables(t, game, p);
          break;
        case StageKind::knockout:
          fold_bracket(t, game, p);
          break;
        case StageKind::rounds:
          break;
      }
    }
    out.push_back(std::move(p));
  }
  return out;
}

CutPreview preview_cut(const Tournament& t, const Game& game, std::uint32_t top) {
  CutPreview out;
  const json::object standings = game.standings(t);
  const json::array& rows = standings.at("rows").as_array();
  const json::object* last_in = nullptr;
  for (const json::value& v : rows) {
    const json::object& row = v.as_object();
    std::string player(row.at("player").as_string());
    const json::value* dropped = row.if_contains("dropped");
    const bool is_dropped = dropped && dropped->is_bool() && dropped->get_bool();
    if (out.in.size() == top) {
      if (is_dropped) continue;
      out.first_out = player;
      // The first sporting criterion on which the last one in is ahead; the name (then the id)
      // when they are equal on all of them.
      out.decided_by = "name";
      for (const std::string& criterion : game.describe().standings_criteria) {
        const json::value* a = last_in->if_contains(criterion);
        const json::value* b = row.if_contains(criterion);
        if (a && b && *a != *b) {
          out.decided_by = criterion;
          break;
        }
      }
      if (out.decided_by == "name" && last_in->at("name") == row.at("name"))
        out.decided_by = "player";
      break;
    }
    if (is_dropped) {
      out.passed_over.push_back(std::move(player));
      continue;
    }
    out.in.push_back(std::move(player));
    last_in = &row;
  }
  return out;
}

std::optional<std::vector<SeatedTable>> next_knockout_round(const StageProgress& knockout) {
  if (knockout.spec.kind != StageKind::knockout || knockout.started == nullptr ||
      knockout.bracket.empty()) {
    return std::nullopt;
  }
  if (knockout.state == StageState::complete || !decided(knockout.bracket.back())) {
    return std::nullopt;
  }
  return games_after(knockout, knockout.bracket.back());
}

std::optional<std::vector<SeatedTable>> knockout_round_from_results(const StageProgress& knockout,
                                                                    std::size_t bracket_round) {
  if (bracket_round == 0 || bracket_round >= knockout.bracket.size()) return std::nullopt;
  const auto& previous = knockout.bracket[bracket_round - 1];
  if (!decided(previous)) return std::nullopt;
  return games_after(knockout, previous);
}

std::optional<std::vector<FinalRow>> final_standings(const std::vector<StageProgress>& stages,
                                                     const json::array& rounds_rows) {
  if (stages.size() < 2 || stages.back().state != StageState::complete) return std::nullopt;
  std::vector<FinalRow> rows;
  std::set<std::string> listed;
  std::uint32_t next_place = 1;
  auto add = [&](const std::string& player, std::uint32_t stage, bool shared = false) {
    rows.push_back({next_place, player, stage, shared});
    listed.insert(player);
    if (!shared) ++next_place;
  };
  // Players sharing one place (3=): the same number, then the places they took.
  auto add_shared = [&](std::vector<std::string> players, std::uint32_t stage,
                        const StartedStage& seeds) {
    std::sort(players.begin(), players.end(), [&](const std::string& a, const std::string& b) {
      return seeds.seed_of(a) < seeds.seed_of(b);
    });
    const std::uint32_t place = next_place;
    for (const auto& p : players) {
      rows.push_back({place, p, stage, true});
      listed.insert(p);
    }
    next_place += static_cast<std::uint32_t>(players.size());
  };
  auto by_seed = [](const StartedStage& seeds, std::vector<std::string> players) {
    std::sort(players.begin(), players.end(), [&](const std::string& a, const std::string& b) {
      return seeds.seed_of(a) < seeds.seed_of(b);
    });
    return players;
  };

  const StageProgress& last = stages.back();
  if (last.spec.kind == StageKind::knockout) {
    const auto& final_round = last.bracket.back();
    add(final_round.front().winner, last.index);
    add(final_round.front().loser, last.index);
    if (final_round.size() > 1) {
      add(final_round[1].winner, last.index);
      add(final_round[1].loser, last.index);
    } else if (last.bracket.size() >= 2) {
      std::vector<std::string> losers;
      for (const auto& g : last.bracket[last.bracket.size() - 2]) losers.push_back(g.loser);
      add_shared(losers, last.index, *last.started);
    }
    // Then the earlier rounds' losers: the round they lost in (latest first), then the seed.
    for (std::size_t k = last.bracket.size(); k-- > 0;) {
      std::vector<std::string> losers;
      for (const auto& g : last.bracket[k]) {
        if (!listed.contains(g.loser)) losers.push_back(g.loser);
      }
      for (const auto& p : by_seed(*last.started, losers)) add(p, last.index);
    }
  } else {
    // A final table (or final tables that end the tournament): place at the table, then seed.
    for (const auto& p : advancing(*last.started, last.tables, ~0u)) add(p, last.index);
  }
  // The players each earlier stage with tables left behind, latest stage first (S-8).
  for (std::size_t i = stages.size() - 1; i-- > 1;) {
    const StageProgress& s = stages[i];
    if (s.spec.kind != StageKind::final_tables) continue;
    for (const auto& p : advancing(*s.started, s.tables, ~0u)) {
      if (!listed.contains(p)) add(p, s.index);
    }
  }
  // Everyone the cut left out, in the rounds stage's standings order.
  for (const json::value& row : rounds_rows) {
    std::string player(row.at("player").as_string());
    if (!listed.contains(player)) add(player, 0);
  }
  return rows;
}

namespace {

json::array player_list(const std::vector<std::string>& players) {
  json::array out;
  for (const auto& p : players) out.emplace_back(p);
  return out;
}

json::array seeds_of(const StartedStage& stage, const std::vector<std::string>& players) {
  json::array out;
  for (const auto& p : players) out.emplace_back(stage.seed_of(p));
  return out;
}

json::value or_null(const std::string& s) {
  return s.empty() ? json::value(nullptr) : json::value(s);
}

}  // namespace

json::array stages_json(const std::vector<StageProgress>& stages) {
  json::array out;
  for (const StageProgress& p : stages) {
    json::object o = stages_json(std::vector<StageSpec>{p.spec}).front().as_object();
    o.emplace("index", p.index);
    o["state"] = stage_state_name(p.state);
    if (p.started) o["players"] = player_list(p.started->seeded);
    if (p.started && !p.tables.empty()) {
      json::array tables;
      for (const StageTable& table : p.tables) {
        tables.push_back(
            json::object{{"round", table.round},
                         {"table", table.table},
                         {"players", player_list(table.players)},
                         {"seeds", seeds_of(*p.started, table.players)},
                         {"order", table.order.empty() ? json::value(nullptr)
                                                       : json::value(player_list(table.order))}});
      }
      o["tables"] = std::move(tables);
    }
    if (p.started && p.spec.kind == StageKind::knockout) {
      json::array rounds;
      for (const auto& games : p.bracket) {
        json::array list;
        for (const KnockoutGame& g : games) {
          list.push_back(json::object{
              {"table", g.table},
              {"players", json::array{json::value(g.first), json::value(g.second)}},
              {"seeds", json::array{p.started->seed_of(g.first), p.started->seed_of(g.second)}},
              {"winner", or_null(g.winner)},
              {"third_place", g.third_place}});
        }
        rounds.push_back(json::object{{"round", games.empty() ? 0u : games.front().round},
                                      {"games", std::move(list)}});
      }
      o["rounds"] = std::move(rounds);
    }
    if (p.state == StageState::complete && !p.continuing.empty() &&
        p.spec.kind != StageKind::final && p.spec.kind != StageKind::knockout) {
      o["continuing"] = player_list(p.continuing);
    }
    out.push_back(std::move(o));
  }
  return out;
}

json::array final_json(const Tournament& t, const std::vector<StageProgress>& stages,
                       const std::vector<FinalRow>& rows) {
  json::array out;
  for (const FinalRow& r : rows) {
    const Player* player = t.player(r.player);
    out.push_back(json::object{{"place", r.place},
                               {"player", r.player},
                               {"name", player ? player->name : r.player},
                               {"stage", r.stage},
                               {"stage_kind", stage_kind_name(stages[r.stage].spec.kind)},
                               {"shared", r.shared}});
  }
  return out;
}

json::object tournament_standings(const Tournament& t, const Game& game) {
  json::object out = game.standings(t);
  if (!t.rules.contains("stages")) return out;
  const auto stages = stage_progress(t, game);
  out["stages"] = stages_json(stages);
  if (auto rows = final_standings(stages, out.at("rows").as_array()))
    out["final"] = final_json(t, stages, *rows);
  return out;
}

}  // namespace tally::projections
