// Drives one table of a one-round tournament through a Game the way the daemon does: decode each
// action through the schema codec, check it with Game::check_action, append it when accepted,
// then ask for the table's result, extras, the action's description, the standings and the next
// round's seating. Shared by the per-game validation targets.
//
// The input is either a result body as `PUT .../result` receives it ({"players":[…]}), or an
// envelope: {"rules":{…}, "seated":["a",…], "league":"A",
//            "actions":[{"type":"claimed_win","body":{…},"supersedes":0,"reason":"…"},…]}
// where `type` is a payload type the game takes (or "void"), and `supersedes` is the index of an
// earlier accepted action. Invariants checked here for every game: an accepted action appends and
// folds; a refusal names a rule and says why; a table with a result in effect has a result; an
// automatic action (AGoT's picks) passes the check a judge's would.
#pragma once

#include "projections/game.hpp"
#include "schema/json_codec.hpp"
#include "tests/fuzz/fuzz_support.hpp"
#include "tests/support/tournament_builder.hpp"

#include <functional>
#include <set>
#include <string>
#include <vector>

namespace tally::fuzz {

using projections::Game;
using projections::TableState;
using projections::Tournament;
using Which = schema::Event::Payload::Which;

struct TableHooks {
  std::vector<std::string> default_seats;
  std::string default_league;
  // After an accepted action, with the table's result when it has one.
  std::function<void(const Tournament&, const TableState&, const json::object& result)> on_result;
  // After an accepted action, with what Game::describe_action says of it.
  std::function<void(const Tournament&, const TableState&, const json::object& described)>
      on_described;
};

namespace detail {

inline std::vector<std::string> seats_of(const json::object& in,
                                         const std::vector<std::string>& fallback) {
  const json::value* seated = in.if_contains("seated");
  if (seated == nullptr || !seated->is_array()) return fallback;
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const auto& p : seated->as_array()) {
    if (!p.is_string() || p.as_string().empty() || p.as_string().size() > 64) return fallback;
    if (!seen.emplace(p.as_string()).second) return fallback;
    out.emplace_back(p.as_string());
  }
  return out.empty() || out.size() > 8 ? fallback : out;
}

// The payload kind a Game takes under this JSON type name.
inline std::optional<Which> kind_named(const Game& game, std::string_view type) {
  for (std::uint16_t k = 0; k <= static_cast<std::uint16_t>(Which::VOID); ++k) {
    auto kind = static_cast<Which>(k);
    if ((game.accepts(kind) || kind == game.result_kind()) && schema::payload_type(kind) == type) {
      return kind;
    }
  }
  return std::nullopt;
}

inline void check_refusal(const projections::RuleErrors& errors) {
  for (const auto& e : errors) {
    FUZZ_CHECK(!e.rule.empty());
    FUZZ_CHECK(!e.message.empty());
  }
}

}  // namespace detail

inline void run_table(const Game& game, const json::value& input, const TableHooks& hooks) {
  if (!input.is_object()) return;
  const json::object& in = input.as_object();
  json::array single{
      json::object{{"type", schema::payload_type(game.result_kind())}, {"body", input}}};
  const json::value* actions_value = in.if_contains("actions");
  const bool envelope = actions_value != nullptr;
  if (envelope && !actions_value->is_array()) return;
  const json::array& actions = envelope ? actions_value->as_array() : single;
  if (actions.size() > 16) return;

  // The rules as the daemon normalises them when the tournament is created.
  json::object overrides;
  if (const json::value* r = envelope ? in.if_contains("rules") : nullptr; r && r->is_object()) {
    overrides = r->as_object();
  }
  auto rules = game.normalize_rules(overrides);
  FUZZ_CHECK(rules.value.has_value() != !rules.errors.empty());
  detail::check_refusal(rules.errors);
  if (!rules) rules = game.normalize_rules({});
  FUZZ_CHECK(rules.value.has_value());

  auto seats = envelope ? detail::seats_of(in, hooks.default_seats) : hooks.default_seats;
  std::string league = hooks.default_league;
  if (const json::value* l = envelope ? in.if_contains("league") : nullptr; l && l->is_string()) {
    league = std::string(l->as_string()).substr(0, 8);
  }

  testing::TournamentBuilder b("fuzz", std::string(game.id()), "", *rules.value);
  for (const auto& p : seats) b.player(p, p);
  b.seat({seats}, {league});

  std::vector<std::uint64_t> accepted;  // seqs of accepted actions
  for (const auto& a : actions) {
    if (!a.is_object()) continue;
    const json::object& action = a.as_object();
    const json::value* type = action.if_contains("type");
    const json::value* body = action.if_contains("body");
    if (type == nullptr || !type->is_string()) continue;
    std::uint64_t supersedes = 0;
    if (const json::value* s = action.if_contains("supersedes"); s && s->is_int64()) {
      auto i = s->as_int64();
      if (i >= 0 && static_cast<std::size_t>(i) < accepted.size()) supersedes = accepted[i];
    }
    std::string reason = supersedes ? "correction" : "";
    if (const json::value* r = action.if_contains("reason"); r && r->is_string()) {
      reason = std::string(r->as_string()).substr(0, 100);
    }

    if (type->as_string() == "void") {
      if (supersedes != 0) b.void_event(1, 1, supersedes, "void");
      continue;
    }
    auto kind = detail::kind_named(game, type->as_string());
    if (!kind || body == nullptr) continue;

    // Decode as the daemon does; a body that does not fit the schema stops here (its 422).
    capnp::MallocMessageBuilder message;
    auto proposed = message.initRoot<schema::Event>();
    proposed.setAuthor("judge");
    proposed.setSupersedes(supersedes);
    proposed.setReason(reason);
    auto schema_errors = schema::decode_payload(*body, proposed.getPayload(), *kind);
    for (const auto& e : schema_errors) FUZZ_CHECK(!e.message.empty());
    if (!schema_errors.empty()) continue;

    Tournament t = b.tournament();
    const TableState* current = t.table(1, 1);
    TableState blank = projections::blank_table(1, 1);
    auto errors = game.check_action(t, current ? *current : blank, proposed.asReader());
    detail::check_refusal(errors);
    if (!errors.empty()) continue;

    accepted.push_back(b.action(1, 1, *kind, *body, supersedes, reason));
    Tournament after = b.tournament();
    const TableState* table = after.table(1, 1);
    FUZZ_CHECK(table != nullptr);
    FUZZ_CHECK(!table->actions.empty());
    auto result = game.table_result(after, *table);
    if (*kind == game.result_kind()) FUZZ_CHECK(result.has_value());
    if (result && hooks.on_result) hooks.on_result(after, *table, *result);
    (void)game.table_extras(after, *table);
    auto described = game.describe_action(after, *table, table->actions.back());
    if (hooks.on_described) hooks.on_described(after, *table, described);
  }

  // What the rest of the daemon asks of the tournament as it stands.
  Tournament t = b.tournament();
  (void)game.standings(t);
  (void)game.notices(t);
  (void)game.round_extras(t, *t.round(1));
  const TableState* current = t.table(1, 1);
  TableState blank = projections::blank_table(1, 1);
  auto automatic = game.auto_actions(t, current ? *current : blank);
  FUZZ_CHECK(automatic.value.has_value() != !automatic.errors.empty());
  if (automatic) {
    // The daemon appends automatic actions as they are: each must pass the check it would have
    // passed had a judge entered it, at the table as the ones before it left it.
    for (const auto& built : *automatic.value) {
      auto action = built->getRoot<schema::Event>().asReader();
      Tournament now = b.tournament();
      const TableState* state = now.table(1, 1);
      FUZZ_CHECK(game.check_action(now, state ? *state : blank, action).empty());
      b.append(projections::table_stream("fuzz", 1, 1), [&](schema::Event::Builder e) {
        auto from = capnp::toDynamic(action.getPayload());
        KJ_IF_MAYBE (field, from.which()) {
          capnp::toDynamic(e.getPayload()).set(*field, from.get(*field));
        }
      });
    }
  }
  projections::SeatingRequest next;
  next.round = 2;
  next.seed = 1;
  auto seating = game.seat_round(t, next);
  FUZZ_CHECK(seating.value.has_value() != !seating.errors.empty());
  detail::check_refusal(seating.errors);
}

}  // namespace tally::fuzz
