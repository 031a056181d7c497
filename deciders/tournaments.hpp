// The organizer's commands on a tournament itself:
//
//   - `CreateTournament` (POST /v1/tournaments): a tournament of a game, its rules the game's
//     defaults with the organizer's overrides (unprocessable `api.rules.invalid` naming each rule
//     broken, by the game's own check), its id not taken (conflict `api.tournament.exists`).
//   - `SetSelfReporting` (PATCH /v1/tournaments/{t}): self-reporting on or off; already so is
//     accepted and appends nothing.
//
// Thread safety: pure functions.
#pragma once

#include "deciders/decision.hpp"
#include "projections/game.hpp"
#include "projections/tournament.hpp"

#include <boost/json/object.hpp>

#include <string>

namespace tally::deciders {

struct CreateTournament {
  std::string id;    // the body's reader checked its pattern
  std::string name;  // … and the name rule
  std::string locale;
  boost::json::object rules;  // the organizer's overrides of the game's defaults
  bool self_reporting = false;
};

// Appends `tournament_created` to the new tournament's stream. `existing` is the tournament
// with that id, if there is one; `game` the game the body names (known: the reader checked).
Decision<> decide(const projections::Tournament* existing, const projections::Game& game,
                  const CreateTournament& command, const Actor& actor);

struct SetSelfReporting {
  std::string tournament;
  bool enabled = false;
};
// Appends `self_reporting`.
Decision<> decide(const projections::Tournament* t, const SetSelfReporting& command,
                  const Actor& actor);

}  // namespace tally::deciders
