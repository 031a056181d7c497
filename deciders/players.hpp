// The organizer's commands on a tournament's players:
//
//   - `AddPlayer` (POST …/players): an id given must be free (conflict `api.player.id_taken`);
//     without one the next free "p<n>" is taken, n counting from the number of players + 1.
//   - `RenamePlayer` (PATCH …/players/{p}): a registered player's new name.
//   - `ImportPlayers` (POST …/players/import, its preview …/import/check): the players of a CSV
//     file as projections/registration.hpp plans them (every problem of the file at once:
//     unprocessable `api.import.refused`); a re-import that changes nothing appends nothing.
//   - `ChangeDropped` (POST …/players/{p}/drop, …/reinstate): drop a player who is in, or
//     reinstate one who is dropped (conflict `api.player.already_dropped`,
//     `api.player.not_dropped`), with a reason. A reinstated player is seated again from the
//     next round (contract, third edition).
//   - `CheckIn` (POST …/checkin): mark players present or absent for the next round; every id
//     must name a player who is not dropped (unprocessable, rule `checkin`, at field `players`),
//     or a registrant waiting for a place (Q-7: one who came on the day in case a place frees).
//   - `DropAbsent` (POST …/checkin/drop-absent): drop, with a reason, every player not checked
//     in for the next round; only while check-in is open (else "the absent" would be everyone:
//     conflict `api.checkin.not_open`). Q-7: as many waiting registrants who are checked in as
//     it drops players move up, in the order they registered, and become players at once (a
//     `player_registered` with the registration's id). Nobody absent is accepted and appends
//     nothing.
//
// Thread safety: pure functions.
#pragma once

#include "deciders/decision.hpp"
#include "projections/registration.hpp"
#include "projections/tournament.hpp"

#include <optional>
#include <string>
#include <vector>

namespace tally::deciders {

struct AddPlayer {
  std::string tournament;
  std::optional<std::string> id;  // the body's reader checked its pattern
  std::string name;               // the body's reader checked the name rule
};
// Appends `player_registered`.
Decision<> decide(const projections::Tournament* t, const AddPlayer& command, const Actor& actor);

struct RenamePlayer {
  std::string tournament;
  std::string player;
  std::string name;  // the body's reader checked the name rule
};
// Appends `player_renamed`.
Decision<> decide(const projections::Tournament* t, const RenamePlayer& command,
                  const Actor& actor);

struct ImportPlayers {
  std::string tournament;
  std::string csv;  // UTF-8 (the reader decoded the file's bytes)
  bool add_possible_duplicates = false;
};
// The plan the import follows, and the tournament's last seq it was made on (the preview's).
struct ImportFacts {
  projections::ImportPlan plan;
  std::uint64_t seq = 0;
};
// Appends a `player_registered` or `player_renamed` for each row the plan writes.
Decision<ImportFacts> decide(const projections::Tournament* t, const ImportPlayers& command,
                             const Actor& actor);

struct ChangeDropped {
  std::string tournament;
  std::string player;
  bool drop = true;  // false: reinstate
  std::string reason;
};
// Appends `player_dropped` or `player_reinstated`.
Decision<> decide(const projections::Tournament* t, const ChangeDropped& command,
                  const Actor& actor);

struct CheckIn {
  std::string tournament;
  std::vector<std::string> players;
  bool present = true;
};
// Appends `check_in` for the next round.
Decision<> decide(const projections::Tournament* t, const CheckIn& command, const Actor& actor);

struct DropAbsent {
  std::string tournament;
  std::string reason;
};
// Who was dropped and who moved up in their places (registration ids, now players), in order.
struct DropAbsentFacts {
  std::vector<std::string> dropped;
  std::vector<std::string> moved_up;
};
// Appends a `player_dropped` for each absent player, in the order the tournament lists them,
// then a `player_registered` for each waiting registrant moved up.
Decision<DropAbsentFacts> decide(const projections::Tournament* t, const DropAbsent& command,
                                 const Actor& actor);

}  // namespace tally::deciders
