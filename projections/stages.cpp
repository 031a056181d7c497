#include "projections/stages.hpp"

#include <algorithm>
#include <bit>
#include <set>

namespace tally::projections {

namespace json = boost::json;

std::string_view stage_kind_name(StageKind kind) {
  switch (kind) {
    case StageKind::rounds:
      return "rounds";
    case StageKind::cut:
      return "cut";
    case StageKind::final_tables:
      return "final_tables";
    case StageKind::final:
      return "final";
    case StageKind::knockout:
      return "knockout";
  }
  return "rounds";
}

namespace {

std::optional<StageKind> kind_named(std::string_view name) {
  for (StageKind k : {StageKind::rounds, StageKind::cut, StageKind::final_tables, StageKind::final,
                      StageKind::knockout}) {
    if (stage_kind_name(k) == name) return k;
  }
  return std::nullopt;
}

// Collects S-1's violations, each naming its field "stages[i].key".
class StageReader {
 public:
  RuleErrors errors;

  void refuse(std::size_t index, std::string_view key, std::string message_key,
              std::vector<i18n::NamedArg> args = {}) {
    std::string field = "stages[" + std::to_string(index) + "]";
    if (!key.empty()) field += "." + std::string(key);
    args.emplace_back("field", field);
    errors.push_back({"S-1", "", field, i18n::Message(std::move(message_key), std::move(args))});
  }

  // A whole number in [min, max] at `key` of stage `index`, or nullopt (refused).
  std::optional<std::uint32_t> count(std::size_t index, const json::object& stage,
                                     std::string_view key, std::uint32_t min, std::uint32_t max) {
    const json::value* v = stage.if_contains(key);
    std::optional<std::int64_t> n;
    if (v && v->is_int64()) n = v->get_int64();
    if (v && v->is_uint64() && v->get_uint64() <= max)
      n = static_cast<std::int64_t>(v->get_uint64());
    if (!n || *n < min || *n > max) {
      refuse(index, key, "stages.count", {{"min", std::int64_t{min}}, {"max", std::int64_t{max}}});
      return std::nullopt;
    }
    return static_cast<std::uint32_t>(*n);
  }
};

constexpr std::uint32_t kMaxRounds = 30;
constexpr std::uint32_t kMaxPlayers = 4096;

// The members each kind takes (besides "kind").
const std::set<std::string_view>& members_of(StageKind kind) {
  static const std::set<std::string_view> rounds{"rounds"}, cut{"top"}, tables{"tables", "advance"},
      none{}, knockout{"pairing", "third_place"};
  switch (kind) {
    case StageKind::rounds:
      return rounds;
    case StageKind::cut:
      return cut;
    case StageKind::final_tables:
      return tables;
    case StageKind::final:
      return none;
    case StageKind::knockout:
      return knockout;
  }
  return none;
}

// One stage's own members: their types and ranges.
std::optional<StageSpec> read_stage(StageReader& r, std::size_t i, const json::value& value) {
  const json::object* stage = value.if_object();
  const json::value* kind_value = stage ? stage->if_contains("kind") : nullptr;
  std::optional<StageKind> kind;
  if (kind_value && kind_value->is_string()) kind = kind_named(kind_value->get_string());
  if (!kind) {
    r.refuse(i, "kind", "stages.kind");
    return std::nullopt;
  }
  StageSpec spec;
  spec.kind = *kind;
  bool ok = true;
  for (const auto& member : *stage) {
    if (member.key() != "kind" && !members_of(*kind).contains(member.key())) {
      r.refuse(i, member.key(), "stages.unknown_member",
               {{"kind", std::string(stage_kind_name(*kind))}});
      ok = false;
    }
  }
  auto take = [&](std::string_view key, std::uint32_t min, std::uint32_t max, std::uint32_t& out) {
    if (auto n = r.count(i, *stage, key, min, max)) {
      out = *n;
    } else {
      ok = false;
    }
  };
  switch (*kind) {
    case StageKind::rounds:
      take("rounds", 1, kMaxRounds, spec.rounds);
      break;
    case StageKind::cut:
      take("top", 2, kMaxPlayers, spec.top);
      break;
    case StageKind::final_tables:
      take("tables", 2, kMaxPlayers, spec.tables);
      take("advance", 1, kMaxPlayers, spec.advance);
      break;
    case StageKind::final:
      break;
    case StageKind::knockout: {
      if (const json::value* p = stage->if_contains("pairing")) {
        if (p->is_string() && p->get_string() == "1-5") {
          spec.pairing = KnockoutPairing::one_five;
        } else if (p->is_string() && p->get_string() == "1-8") {
          spec.pairing = KnockoutPairing::one_eight;
        } else {
          r.refuse(i, "pairing", "stages.pairing");
          ok = false;
        }
      }
      if (const json::value* third = stage->if_contains("third_place")) {
        if (third->is_bool()) {
          spec.third_place = third->get_bool();
        } else {
          r.refuse(i, "third_place", "stages.boolean");
          ok = false;
        }
      }
      break;
    }
  }
  if (!ok) return std::nullopt;
  return spec;
}

std::string sizes_text(const std::vector<std::uint32_t>& sizes) {
  std::string out;
  for (std::uint32_t s : sizes) out += (out.empty() ? "" : ", ") + std::to_string(s);
  return out;
}

// S-1's order and counts: a rounds stage first, a cut after it, then final tables, and a final
// or a knockout to end; each stage's players are what the stage before it lets through.
void check_sequence(StageReader& r, const std::vector<StageSpec>& stages, const StageShape& shape) {
  if (stages.empty()) {
    r.refuse(0, "", "stages.empty");
    return;
  }
  if (stages.front().kind != StageKind::rounds) r.refuse(0, "kind", "stages.rounds_first");
  std::uint32_t players = 0;  // who plays the stage: 0 while every registered player does
  bool ended = false;         // a final or a knockout was the last possible stage
  for (std::size_t i = 1; i < stages.size(); ++i) {
    const StageSpec& s = stages[i];
    const StageKind before = stages[i - 1].kind;
    if (ended) {
      r.refuse(i, "kind", "stages.after_end");
      continue;
    }
    switch (s.kind) {
      case StageKind::rounds:
        r.refuse(i, "kind", "stages.rounds_first");
        break;
      case StageKind::cut:
        if (before != StageKind::rounds) r.refuse(i, "kind", "stages.cut_after_rounds");
        players = s.top;
        break;
      case StageKind::final_tables: {
        if (before == StageKind::rounds) {
          r.refuse(i, "kind", "stages.cut_before");
          break;
        }
        const bool fits =
            std::any_of(shape.table_sizes.begin(), shape.table_sizes.end(),
                        [&](std::uint32_t size) { return players == s.tables * size; });
        if (!fits) {
          r.refuse(i, "tables", "stages.tables_seat",
                   {{"players", std::int64_t{players}},
                    {"tables", std::int64_t{s.tables}},
                    {"sizes", sizes_text(shape.table_sizes)}});
        }
        if (s.tables != 0 && s.advance >= players / s.tables) {
          r.refuse(i, "advance", "stages.advance_all", {{"advance", std::int64_t{s.advance}}});
        }
        players = s.tables * s.advance;
        break;
      }
      case StageKind::final: {
        if (before == StageKind::rounds) {
          r.refuse(i, "kind", "stages.cut_before");
          break;
        }
        const bool fits = std::find(shape.table_sizes.begin(), shape.table_sizes.end(), players) !=
                          shape.table_sizes.end();
        if (!fits) {
          r.refuse(i, "kind", "stages.final_seats",
                   {{"players", std::int64_t{players}}, {"sizes", sizes_text(shape.table_sizes)}});
        }
        ended = true;
        break;
      }
      case StageKind::knockout:
        if (!shape.two_player) {
          r.refuse(i, "kind", "stages.knockout_two_player");
        } else if (before != StageKind::cut) {
          r.refuse(i, "kind", "stages.knockout_after_cut");
        } else if (players < 4 || !std::has_single_bit(players)) {
          r.refuse(i, "kind", "stages.knockout_power_of_two", {{"players", std::int64_t{players}}});
        }
        ended = true;
        break;
    }
  }
  // A cut with nothing after it would choose players for nothing.
  if (stages.back().kind == StageKind::cut) {
    r.refuse(stages.size() - 1, "kind", "stages.cut_last");
  }
}

}  // namespace

Outcome<std::vector<StageSpec>> read_stages(const json::value& value, const StageShape& shape) {
  StageReader r;
  const json::array* list = value.if_array();
  if (list == nullptr) {
    return Outcome<std::vector<StageSpec>>::refused(
        "S-1", i18n::Message("stages.not_a_list", {{"field", "stages"}}), "stages");
  }
  std::vector<StageSpec> stages;
  bool each_read = true;
  for (std::size_t i = 0; i < list->size(); ++i) {
    if (auto spec = read_stage(r, i, (*list)[i])) {
      stages.push_back(*spec);
    } else {
      each_read = false;
    }
  }
  if (each_read) check_sequence(r, stages, shape);
  if (!r.errors.empty()) return Outcome<std::vector<StageSpec>>::refused(std::move(r.errors));
  return Outcome<std::vector<StageSpec>>::ok(std::move(stages));
}

json::array stages_json(const std::vector<StageSpec>& stages) {
  json::array out;
  for (const StageSpec& s : stages) {
    json::object o{{"kind", stage_kind_name(s.kind)}};
    switch (s.kind) {
      case StageKind::rounds:
        o["rounds"] = s.rounds;
        break;
      case StageKind::cut:
        o["top"] = s.top;
        break;
      case StageKind::final_tables:
        o["tables"] = s.tables;
        o["advance"] = s.advance;
        break;
      case StageKind::final:
        break;
      case StageKind::knockout:
        o["pairing"] = s.pairing == KnockoutPairing::one_five ? "1-5" : "1-8";
        o["third_place"] = s.third_place;
        break;
    }
    out.push_back(std::move(o));
  }
  return out;
}

std::vector<StageSpec> stages_of(const Tournament& tournament) {
  const json::value* stages = tournament.rules.if_contains("stages");
  if (stages == nullptr) return {};
  // Checked when the tournament was created; any shape reads what it was checked with.
  StageShape any{{2, 3, 4, 5, 6}, true};
  auto read = read_stages(*stages, any);
  return read ? std::move(*read.value) : std::vector<StageSpec>{};
}

std::vector<std::pair<std::uint32_t, std::uint32_t>> first_knockout_pairs(KnockoutPairing pairing,
                                                                          std::uint32_t players) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
  if (pairing == KnockoutPairing::one_five && players > 4) {
    // CWC 2019: seed i meets seed i + N/2 (1–5, 2–6, 3–7, 4–8).
    for (std::uint32_t i = 1; i <= players / 2; ++i) out.emplace_back(i, i + players / 2);
    return out;
  }
  // Classic: 1–N, then each half of the bracket built the same way (1–8, 4–5, 2–7, 3–6), so that
  // the two best seeds can meet only in the final. For 4 players both are 1–4, 2–3.
  std::vector<std::uint32_t> order{1, 2};
  while (order.size() < players) {
    const auto n = static_cast<std::uint32_t>(order.size() * 2);
    std::vector<std::uint32_t> next;
    for (std::uint32_t s : order) {
      next.push_back(s);
      next.push_back(n + 1 - s);
    }
    order = std::move(next);
  }
  for (std::size_t i = 0; i + 1 < order.size(); i += 2) {
    out.emplace_back(std::min(order[i], order[i + 1]), std::max(order[i], order[i + 1]));
  }
  return out;
}

SnakeSeating snake_seating(
    const std::vector<std::string>& seeds, std::uint32_t tables,
    const std::function<bool(const std::string&, const std::string&)>& kept_apart) {
  SnakeSeating out;
  out.tables.resize(tables);
  if (tables == 0) return out;
  std::vector<std::string> order = seeds;
  auto clashes = [&](const std::vector<std::string>& table, const std::string& player) {
    return std::any_of(table.begin(), table.end(),
                       [&](const std::string& p) { return kept_apart && kept_apart(p, player); });
  };
  auto table_of = [&](std::size_t i) {
    const std::size_t row = i / tables, col = i % tables;
    return row % 2 == 0 ? col : tables - 1 - col;
  };
  auto without = [](std::vector<std::string> table, const std::string& player) {
    std::erase(table, player);
    return table;
  };
  for (std::size_t i = 0; i < order.size(); ++i) {
    const std::size_t row_begin = i / tables * tables;
    const std::size_t row_end = std::min(order.size(), row_begin + tables);
    const std::size_t table = table_of(i);
    // S-9 within S-4: swap with the next seed of the same row that keeps them apart; the last
    // of a row, with an earlier seed of it already seated, when the swap suits both tables.
    if (clashes(out.tables[table], order[i])) {
      bool swapped = false;
      for (std::size_t j = i + 1; j < row_end && !swapped; ++j) {
        if (clashes(out.tables[table], order[j])) continue;
        out.swaps.emplace_back(order[i], order[j]);
        std::swap(order[i], order[j]);
        swapped = true;
      }
      for (std::size_t j = i; j-- > row_begin && !swapped;) {
        auto& other = out.tables[table_of(j)];
        if (clashes(out.tables[table], order[j]) || clashes(without(other, order[j]), order[i])) {
          continue;
        }
        out.swaps.emplace_back(order[j], order[i]);
        std::replace(other.begin(), other.end(), order[j], order[i]);
        std::swap(order[i], order[j]);
        swapped = true;
      }
    }
    out.tables[table].push_back(order[i]);
  }
  return out;
}

}  // namespace tally::projections
