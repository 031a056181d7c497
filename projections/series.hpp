// A series: a season of tournaments of one game (docs/series.md), folded from its stream
// `s/{id}` — its scoring, the tournaments of this server that joined it, the tournaments
// imported from venues' exports (Q-1, kept read-only with their origin), its people and the
// organizer's decisions on links between players and people.
//
// What the series computes from that (standings, qualification, proposals) is in
// projections/series_scoring.hpp.
//
// Thread safety: a value; apply() mutates, everything else reads.
#pragma once

#include "projections/tournament.hpp"
#include "schema/stored_event.hpp"

#include <boost/json/object.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tally::projections {

std::string series_stream(std::string_view id);
// The series a stream name belongs to ("s/{id}" → id), empty for another stream.
std::string_view series_of_stream(std::string_view stream);

// Where an imported tournament came from.
struct ImportOrigin {
  std::string server;
  schema::Digest log{};      // the hash of the venue log's first event
  schema::Digest head{};     // the hash the verified chain ends at
  std::uint64_t events = 0;  // the venue log's seq at the head
  std::string imported_by;
  std::int64_t imported_at = 0;        // µs since the epoch
  std::uint64_t seq = 0;               // the series_imported event
  boost::json::array venue_standings;  // what the export's header claimed
};

struct ImportedTournament {
  Tournament tournament;  // folded from the venue's events: read-only here
  ImportOrigin origin;
};

// a person, the series' identity of a player across its tournaments.
struct Person {
  std::string id;
  std::string name;
  std::string club;
  std::uint64_t seq = 0;
};

// The organizer's newest decision on one (person, tournament, player).
struct Link {
  std::string person;
  std::string tournament;
  std::string player;
  bool rejected = false;
  std::string author;
  std::int64_t recorded_at = 0;
  std::uint64_t seq = 0;
};

class Series {
 public:
  std::string id;
  std::string name;
  std::string game;
  std::string locale;
  boost::json::object scoring;  // normalised (series_scoring.hpp parse_scoring)
  std::uint64_t created_seq = 0;
  std::uint64_t last_seq = 0;
  std::uint64_t version = 0;  // the stream's version

  std::vector<std::string> tournaments;  // of this server, in the order they joined
  std::map<std::string, ImportedTournament, std::less<>> imports;
  std::vector<Person> people;  // in the order added
  std::vector<Link> links;     // the newest decision per (person, tournament, player)

  bool has_tournament(std::string_view tournament) const;
  const Person* person(std::string_view id) const;
  // The person a tournament's player is confirmed as, or null.
  const Person* person_of(std::string_view tournament, std::string_view player) const;
  // The player of `tournament` confirmed as `person`, or null (Q-5: at most one).
  const Link* link_of(std::string_view person, std::string_view tournament) const;
  // Whether the organizer rejected this link (it is not proposed again).
  bool rejected(std::string_view person, std::string_view tournament,
                std::string_view player) const;

  // Folds one event of the series' stream. Returns false for an event that is not one.
  bool apply(const schema::StoredEvent& event);
};

}  // namespace tally::projections
