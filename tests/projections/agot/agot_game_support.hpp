// Driving the AGoT Game the way the daemon does: check an action, append it when accepted; seat
// rounds with the game's own seating; append automatic picks.
#pragma once

#include "projections/agot/agot_game.hpp"
#include "schema/json_codec.hpp"
#include "tests/projections/agot/agot_fixtures.hpp"
#include "tests/support/tournament_builder.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <ostream>

// RuleError has no operator==; tests compare what a user sees of an error.
namespace tally::projections {
inline bool operator==(const RuleError& a, const RuleError& b) {
  return a.rule == b.rule && a.player == b.player && a.field == b.field && a.message == b.message &&
         a.alternatives == b.alternatives;
}
inline std::ostream& operator<<(std::ostream& os, const RuleError& e) {
  return os << e.rule << " " << e.player << " " << e.field << ": " << e.message;
}
}  // namespace tally::projections

namespace tally::projections::agot::testing {

using projections::Game;
using projections::RuleErrors;
using projections::TableState;
using tally::testing::TournamentBuilder;
using Which = schema::Event::Payload::Which;

// The table's state, also for a table nothing was entered at yet.
inline TableState state(const projections::Tournament& t, std::uint32_t round,
                        std::uint32_t table) {
  if (const TableState* s = t.table(round, table)) return *s;
  TableState fresh;
  fresh.round = round;
  fresh.table = table;
  return fresh;
}

// Checks the action as the daemon would and appends it when accepted; the errors otherwise.
inline RuleErrors enter(TournamentBuilder& b, const Game& game, std::uint32_t round,
                        std::uint32_t table, Which kind, const boost::json::value& body,
                        std::uint64_t supersedes = 0, const std::string& reason = "") {
  auto t = b.tournament();
  auto proposed = b.proposed(kind, body, supersedes, reason);
  RuleErrors errors =
      game.check_action(t, state(t, round, table), proposed->getRoot<schema::Event>().asReader());
  if (errors.empty()) b.action(round, table, kind, body, supersedes, reason);
  return errors;
}

inline RuleErrors pick(TournamentBuilder& b, const Game& game, std::uint32_t round,
                       std::uint32_t table, const std::string& player, const std::string& house,
                       std::uint64_t supersedes = 0) {
  return enter(b, game, round, table, Which::HOUSE_PICK,
               boost::json::object{{"player", player}, {"house", house}}, supersedes,
               supersedes ? "wrong house" : "");
}

// Seats the next round with the game's seating and records it.
inline projections::Seating seat(TournamentBuilder& b, const Game& game,
                                 projections::SeatingRequest request) {
  auto t = b.tournament();
  auto s = game.seat_round(t, request);
  if (!s) {
    ADD_FAILURE() << "seating refused: " << s.errors[0].message;
    return {};
  }
  b.seat(s.value->tables, s.value->method, s.value->seed);
  return *s.value;
}

// Appends the game's automatic picks for the rest of the table.
inline void auto_picks(TournamentBuilder& b, const Game& game, std::uint32_t round,
                       std::uint32_t table) {
  auto t = b.tournament();
  auto actions = game.auto_actions(t, state(t, round, table));
  ASSERT_TRUE(actions) << actions.errors[0].message;
  for (const auto& message : *actions.value) {
    auto pick = message->getRoot<schema::Event>().asReader().getPayload().getHousePick();
    b.action(round, table, Which::HOUSE_PICK, schema::encode_struct(pick));
  }
}

inline std::vector<std::string> rules_of(const RuleErrors& errors) {
  std::vector<std::string> out;
  for (const auto& e : errors) out.push_back(e.rule);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace tally::projections::agot::testing
