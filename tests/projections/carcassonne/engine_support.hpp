// Helpers for the Carcassonne engine tests: score a JSON event, read its points and lines.
#pragma once

#include "projections/carcassonne/engine.hpp"
#include "tests/support/messages.hpp"

#include <gtest/gtest.h>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <string_view>

namespace tally::projections::carcassonne::testing {

using tally::testing::english;

inline Scoring scored(std::string_view event, const EngineRules& rules = {}) {
  auto out = score_event(boost::json::parse(event), rules);
  if (!out) {
    std::string why;
    for (const auto& e : out.errors)
      why += e.rule + " " + e.field + ": " + english(e.message) + "; ";
    ADD_FAILURE() << "refused: " << why << "\n  event: " << event;
    return {};
  }
  return out.value->scoring;
}

// Points per player; players with no line are absent.
inline std::map<std::string, std::int64_t> points(std::string_view event,
                                                  const EngineRules& rules = {}) {
  std::map<std::string, std::int64_t> out;
  for (const auto& [player, p] : scored(event, rules).points()) out[player] = p;
  return out;
}

inline projections::RuleErrors refused(std::string_view event, const EngineRules& rules = {}) {
  auto out = score_event(boost::json::parse(event), rules);
  EXPECT_FALSE(out) << "accepted: " << event;
  return out.errors;
}

inline bool has_error(const projections::RuleErrors& errors, std::string_view rule,
                      std::string_view field = {}) {
  return std::any_of(errors.begin(), errors.end(), [&](const projections::RuleError& e) {
    return e.rule == rule && (field.empty() || e.field == field);
  });
}

inline std::string describe(const projections::RuleErrors& errors) {
  std::string out;
  for (const auto& e : errors)
    out += "[" + e.rule + " " + e.field + " " + e.player + ": " + english(e.message) + "] ";
  return out;
}

// The one line of `player` named `rule` (a failure if there is not exactly one).
inline Line line(const Scoring& s, std::string_view player, std::string_view rule) {
  const Line* found = nullptr;
  int n = 0;
  for (const auto& l : s.lines()) {
    if (l.player == player && l.rule == rule) {
      found = &l;
      ++n;
    }
  }
  EXPECT_EQ(n, 1) << "lines of " << player << " named " << rule << " in "
                  << boost::json::serialize(s.lines_json());
  return found == nullptr ? Line{} : *found;
}

inline bool has_line(const Scoring& s, std::string_view player, std::string_view rule) {
  return std::any_of(s.lines().begin(), s.lines().end(),
                     [&](const Line& l) { return l.player == player && l.rule == rule; });
}

}  // namespace tally::projections::carcassonne::testing
