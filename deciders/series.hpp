// The organizer's commands on a series (docs/series.md), each a pure decision on the series'
// stream `s/{id}`:
//
//   - `CreateSeries` (POST /v1/series): a series of a game scored by a qualification or a
//     ladder, its scoring normalised (every default written out) or refused naming each field.
//   - `AddSeriesTournament` (POST …/tournaments): a tournament of this server and of the series'
//     game joins; once only.
//   - `ImportSeriesTournament` (POST …/imports, Q-1): a venue's export whose chain verified
//     (events/tournament_export.hpp) is kept read-only with its origin; a later export of the
//     same tournament replaces it only when its chain extends the one imported (the same log,
//     the earlier head at the same seq); the same export again changes nothing.
//   - `AddPerson` (POST …/people, Q-5): a person, optionally linked at once to the player it was
//     made from.
//   - `DecideLink` (POST …/links, Q-5): the organizer confirms or rejects a link between a
//     tournament's player and a person; a person has at most one player per tournament, a
//     player at most one person.
//
// Thread safety: pure functions.
#pragma once

#include "deciders/decision.hpp"
#include "projections/game.hpp"
#include "projections/series.hpp"
#include "projections/tournament.hpp"

#include <boost/json/value.hpp>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace tally::deciders {

// The tournaments of a series by id: this server's that joined it and its imports.
using SeriesTournaments = std::function<const projections::Tournament*(std::string_view)>;

struct CreateSeries {
  std::string id;    // the body's reader checked its pattern
  std::string name;  // … and the name rule
  std::string game;  // … and that the game exists
  std::string locale;
  boost::json::value scoring;
};
Decision<> decide(const projections::Series* existing, const CreateSeries& command,
                  const Actor& actor);

struct AddSeriesTournament {
  std::string series;
  std::string tournament;
};
Decision<> decide(const projections::Series* s, const projections::Tournament* t,
                  const AddSeriesTournament& command, const Actor& actor);

// A verified export (events/tournament_export.hpp), as the decider needs it.
struct ImportSeriesTournament {
  std::string series;
  std::string tournament;
  std::string server;
  schema::Digest log{};
  schema::Digest head{};
  std::uint64_t events = 0;
  std::vector<schema::Digest> chain;  // chain[i]: the hash of seq i + 1
  std::vector<schema::StoredEvent> tournament_events;
  boost::json::array venue_standings;
};
struct SeriesImportFacts {
  bool replaced = false;   // an earlier import of the tournament was extended
  bool unchanged = false;  // the same chain was imported before: nothing appended
};
Decision<SeriesImportFacts> decide(const projections::Series* s, const ImportSeriesTournament& command,
                             const Actor& actor);

struct AddPerson {
  std::string series;
  std::string id;  // empty: the next free "p{n}"
  std::string name;
  std::string club;
  std::string from_tournament;  // with from_player: link the new person to that player at once
  std::string from_player;
};
struct AddedPerson {
  std::string id;
};
Decision<AddedPerson> decide(const projections::Series* s, const SeriesTournaments& tournaments,
                             const AddPerson& command, const Actor& actor);

struct DecideLink {
  std::string series;
  std::string tournament;
  std::string player;
  std::string person;
  bool reject = false;
};
Decision<> decide(const projections::Series* s, const SeriesTournaments& tournaments,
                  const DecideLink& command, const Actor& actor);

Refusal series_not_found(const std::string& id);

}  // namespace tally::deciders
