// Registering players from a file: what an import of a CSV would do to a tournament, worked out
// before anything is written, so that the organizer sees it first and a re-import of an updated
// file never registers anyone twice.
//
//   added               a new player (with the file's id, or one made here)
//   unchanged           already registered: same id and name, or (no id in the file) exactly the
//                       same name
//   changed             same id, another name: a rename
//   possible_duplicate  the same name as someone registered or earlier in the file, ignoring case
//                       and accents (text::same_name_key) but not exactly: "Jana Novakova" beside
//                       "Jana Nováková". Not written unless the organizer says so.
//
// Thread safety: pure functions.
#pragma once

#include "projections/game.hpp"
#include "projections/tournament.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace tally::projections {

// A player id: 1–64 of a–z A–Z 0–9 - _ . and not only dots (".", "..").
bool valid_player_id(std::string_view id);

struct ImportRow {
  enum class Status { added, unchanged, changed, possible_duplicate };
  int line = 0;      // in the file, for the organizer
  std::string id;    // the file's, the registered player's, or the one made for a new player
  std::string name;  // as in the file (trimmed)
  Status status = Status::added;
  std::string previous_name;         // changed: the registered name
  std::vector<std::string> matches;  // possible_duplicate: ids of the players with the same name
  bool write = false;                // registered or renamed by the import
};

struct ImportPlan {
  std::vector<ImportRow> rows;  // in file order
  int count(ImportRow::Status status) const;
};

// The plan for importing `csv` (a header with `name` and optionally `id`, separated by commas or
// semicolons) into `t`. Every problem of the file is reported at once (rule `csv`, field `csv`,
// each message naming its line); a file with any problem writes nothing. With
// `add_possible_duplicates` the possible duplicates are registered too.
Outcome<ImportPlan> plan_import(const Tournament& t, const std::string& csv,
                                bool add_possible_duplicates);

// Players of `t` other than `except` whose name is the same as `name` ignoring case and accents.
std::vector<const Player*> same_name_players(const Tournament& t, std::string_view name,
                                             std::string_view except = "");

const char* import_status_name(ImportRow::Status status);

// the registrations of `t` that hold a place and are not players yet, as a file the import
// reads ("id,name", in registration order, each id the registration's): turning them into
// players is an import of it, with the import's preview. Empty when there are none.
std::string admission_csv(const Tournament& t);

}  // namespace tally::projections
