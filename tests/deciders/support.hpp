// Shared helpers of the deciders' tests: the actors, and the evolve half of decide → evolve —
// a decision's events appended to a TournamentBuilder's log as the store would append them, so
// that a test checks what the tournament becomes, not only what the decider returned.
#pragma once

#include "deciders/decision.hpp"
#include "tests/projections/catan/fixtures.hpp"
#include "tests/support/tournament_builder.hpp"

#include <gtest/gtest.h>

#include <string>

namespace tally::deciders::testing {

// A Catan result body: clear_order's sheets given to `seats` in order (the first gets 10 VP).
inline boost::json::object result_body(const std::vector<std::string>& seats) {
  auto sheets = projections::catan::testing::clear_order();
  boost::json::array players;
  for (std::size_t i = 0; i < sheets.size(); ++i) {
    sheets[i]["player"] = seats[i];
    players.push_back(sheets[i]);
  }
  return {{"players", std::move(players)}};
}

inline const Actor kOrganizer{"organizer", true};
inline const Actor kJudge{"j1", false};

// Appends every event of an accepted decision; returns the last seq. The decision must have
// been made on `b`'s state as it still is (the expected version is checked, as the store does).
template <typename Facts>
std::uint64_t apply(tally::testing::TournamentBuilder& b, const Decision<Facts>& decision) {
  EXPECT_FALSE(decision.refused()) << (decision.refused() ? decision.refusal().message.key : "");
  if (decision.refused()) return 0;
  const Append& append = decision.accepted().append;
  EXPECT_TRUE(append.expected.accepts(b.version(append.stream)))
      << "decided on another version of " << append.stream;
  std::uint64_t last = 0;
  for (const auto& draft : append.events) last = b.append_decided(append.stream, draft.reader());
  return last;
}

// The refusal of a decision that must be refused.
template <typename Facts>
const Refusal& refusal_of(const Decision<Facts>& decision) {
  if (!decision.refused()) {
    ADD_FAILURE() << "accepted, expected a refusal";
    static const Refusal none{RefusalKind::conflict, i18n::Message("none")};
    return none;
  }
  return decision.refusal();
}

}  // namespace tally::deciders::testing
