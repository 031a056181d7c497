// A tournament as its events make it: settings, players, rounds and their seating, and for every
// table the actions in effect (corrections applied, voided actions gone). Game-independent; the
// games read it through the Game interface. Pure: built by folding events, no I/O.
//
// Thread safety: a value type. The daemon guards the live instance with its own lock.
#pragma once

#include "projections/proposals.hpp"
#include "projections/rational.hpp"
#include "projections/registrations.hpp"
#include "projections/round_clock.hpp"
#include "schema/stored_event.hpp"

#include <boost/json/object.hpp>

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace tally::projections {

struct Player {
  std::string id;
  std::string name;
  bool dropped = false;
  // Rounds seated before the drop: the player is seated in none after this many rounds.
  std::uint32_t dropped_after_round = 0;
  // Earlier drops undone by a reinstatement: the rounds (after, until] the player was away.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> away;
  // Rounds seated before the player registered: a late registrant was in none of them.
  std::uint32_t registered_after_round = 0;
  // S-10: the number this player's table is given in every seating; 0: none.
  std::uint32_t fixed_table = 0;
};

// S-9: players never seated at one table while a seating without that exists (`keptApart`).
struct KeepApart {
  std::uint64_t seq = 0;  // the event (a void names it)
  std::vector<std::string> players;
  std::string reason;
};

// S-11: points added to a player's first standings criterion (`penaltyGiven`): negative a
// penalty, positive a bonus.
struct Penalty {
  std::uint64_t seq = 0;  // the event (a void names it)
  std::string player;
  Rational points;
  std::uint32_t round = 0;  // 0: no round (counted in every standings)
  std::string reason;
};

struct SeatedTable {
  std::uint32_t number = 0;
  std::vector<std::string> players;
  std::string league;                       // "" where the game has no leagues
  std::vector<std::string> rating_leagues;  // per player, or empty (see tally.capnp)
};

struct Round {
  std::uint32_t number = 0;
  schema::SeatingMethod method = schema::SeatingMethod::RANDOM;
  std::uint64_t seed = 0;
  bool forced = false;
  std::vector<SeatedTable> tables;
  std::uint64_t seq = 0;  // the seating event
  RoundClock clock;
  bool closed = false;
  bool final = false;  // closed as the tournament's last round
  std::int64_t closed_at = 0;  // µs since the epoch (recordedAt of the close)
  // Who was not checked in when it was seated (players active then): its no-shows.
  std::vector<std::string> absent;

  const SeatedTable* table(std::uint32_t number) const;
};

// A stage of `rules.stages` that was started (stage_started): who plays it, best seed first.
struct StartedStage {
  std::uint32_t index = 0;          // in rules.stages (never 0: the rounds stage is not started)
  std::vector<std::string> seeded;  // best seed first
  std::uint64_t seq = 0;            // the stage_started event
  std::uint32_t first_round = 0;    // the number its first round has (or would have)
  bool forced = false;

  // The seed of a player of the stage (1 = best), or 0 when the player is not in it.
  std::uint32_t seed_of(std::string_view player) const;
};

// One table action in effect, with the event that made it (readers stay valid with it).
struct Action {
  schema::StoredEvent event;
  schema::Event::Reader envelope() const { return event.event(); }
  schema::Event::Payload::Reader payload() const { return event.event().getPayload(); }
  std::uint64_t seq() const { return event.seq(); }
};

struct TableState {
  std::uint32_t round = 0;
  std::uint32_t table = 0;
  std::uint64_t version = 0;    // the table stream's version (0: nothing entered yet)
  std::vector<Action> actions;  // in effect, oldest first
  // The result entry the result in effect descends from (its first entry, before any
  // correction): its seq and recorded time. 0 while the table has no result in effect. Ratings
  // apply a table's game in the order its result was first entered.
  std::uint64_t first_result_seq = 0;
  std::int64_t first_result_at = 0;

  // The newest result in effect (any game's result payload), or null.
  const Action* result() const;
  // Folds one of the table's own events (an action, a correction or a void) into the state.
  void apply(const schema::StoredEvent& event);
  // The actions in effect of one payload kind, oldest first.
  std::vector<const Action*> of_kind(schema::Event::Payload::Which kind) const;
};

// Whether a payload kind is a table's result (of any game): corrected, never voided.
bool is_result(schema::Event::Payload::Which kind);

// A table nothing has happened at yet: no actions, version 0 — but it knows where it stands.
TableState blank_table(std::uint32_t round, std::uint32_t table);

using TableKey = std::pair<std::uint32_t, std::uint32_t>;  // (round, table)

// Stream names: the tournament's own stream and one per table, so that judges at different
// tables never conflict; a table's proposals have a stream of their own beside it, so that a
// proposal never moves the version a judge's If-Match names.
std::string tournament_stream(std::string_view id);
std::string table_stream(std::string_view id, std::uint32_t round, std::uint32_t table);
std::string proposals_stream(std::string_view id, std::uint32_t round, std::uint32_t table);

// A view into the parsed name: valid as long as the string it was parsed from.
struct StreamName {
  std::string_view tournament;  // empty: not a tournament's stream
  std::uint32_t round = 0;      // 0: the tournament's own stream
  std::uint32_t table = 0;
  bool proposals = false;  // the table's proposals stream (…/table/{n}/proposals)
};
StreamName parse_stream(std::string_view stream);

class Tournament {
 public:
  std::string id;
  std::string name;
  std::string game;
  std::string locale;
  boost::json::object rules;    // normalised by the game when the tournament was created
  bool self_reporting = false;  // players may propose their tables' results
  std::uint64_t created_seq = 0;
  std::uint64_t last_seq = 0;  // the newest event folded in
  std::uint64_t version = 0;   // the version of the tournament's own stream
  std::int64_t last_recorded_at = 0;  // µs since the epoch: when the newest event was recorded

  std::vector<Player> players;  // in registration order
  std::vector<Round> rounds;    // round N at index N-1
  std::map<TableKey, TableState> tables;
  std::map<TableKey, TableProposals> proposals;
  std::vector<StartedStage> stages;   // in the order started (projections/stages.hpp)
  std::vector<KeepApart> keep_apart;  // in effect (voided ones gone), oldest first
  std::vector<Penalty> penalties;     // in effect (voided ones gone), oldest first
  Registrations registrations;        // registration before the day

  const Player* player(std::string_view id) const;
  const Round* round(std::uint32_t number) const;
  const TableState* table(std::uint32_t round, std::uint32_t table) const;
  // The proposals made at a table, or null when none was.
  const TableProposals* proposals_at(std::uint32_t round, std::uint32_t table) const;
  // Players not dropped, in registration order.
  std::vector<const Player*> active_players() const;

  // Check-in for the round to be seated next (rounds.size() + 1): who is present. Open once
  // anyone is checked in for that round; a seating closes it.
  std::uint32_t next_round() const { return static_cast<std::uint32_t>(rounds.size() + 1); }
  bool checkin_open() const { return checkin_round_ == next_round() && !present_.empty(); }
  bool present(std::string_view player) const;
  // The players a seating of the next round takes: the active ones, and once check-in is open
  // only those present. In registration order.
  std::vector<const Player*> seatable_players() const;
  // The active players a seating of the next round leaves out (not checked in).
  std::vector<const Player*> absent_players() const;

  // The rounds of the first stage (the game's own rounds): all of them until a later stage
  // starts. Standings, seatings by standings and the cut count only these.
  std::uint32_t qualifying_rounds() const {
    return stages.empty() ? static_cast<std::uint32_t>(rounds.size())
                          : stages.front().first_round - 1;
  }
  // The stage a round is played in (null: the rounds stage).
  const StartedStage* stage_of_round(std::uint32_t round) const;

  // The last round was closed as the final one: its standings are the final standings.
  bool is_final() const { return !rounds.empty() && rounds.back().closed && rounds.back().final; }

  // Who sat at one table with whom in the rounds before `round`: each pair in both orders.
  using Meetings = std::set<std::pair<std::string, std::string>>;
  Meetings meetings_before(std::uint32_t round) const;
  // The same, only the meetings between players of `among` (one table's: its answer needs no
  // more, and a whole field's meetings cost milliseconds by round 5 of a big event).
  Meetings meetings_before(std::uint32_t round, const std::vector<std::string>& among) const;
  // The pairs of `players` found in `met` (each once, in the order of `players`): the repeat
  // opponents a table seats.
  static std::vector<std::pair<std::string, std::string>> repeats_among(
      const Meetings& met, const std::vector<std::string>& players);

  // S-9: whether `a` and `b` (two different players) are kept apart: named together by a
  // keep-apart in effect, or fixed (S-10) to two different table numbers.
  bool kept_apart(std::string_view a, std::string_view b) const;
  // The kept-apart pairs among `players` (each once, in the order of `players`).
  std::vector<std::pair<std::string, std::string>> kept_apart_among(
      const std::vector<std::string>& players) const;
  // Whether any two players are kept apart at all (a seating then stays exactly the game's).
  bool any_kept_apart() const { return !apart_pairs_.empty(); }
  // S-11: the sum of `player`'s penalties and bonuses counted in standings through round
  // `through_round` (a penalty of a later round is not yet counted; one without a round is).
  Rational penalty_points(
      std::string_view player,
      std::uint32_t through_round = std::numeric_limits<std::uint32_t>::max()) const;
  // Whether any penalty or bonus is in effect: the standings then show a `penalties` column.
  bool has_penalties() const { return !penalties.empty(); }

  // Folds one event of this tournament (its own stream or one of its tables) into the state.
  // Events must come in seq order. Returns false (and changes nothing) for an event that does
  // not belong here, which would be a bug in the caller.
  bool apply(const schema::StoredEvent& event);
  // The same, for a caller that has parsed the event's stream name already.
  // REQUIRES: `stream` is parse_stream() of the event's stream name.
  bool apply(const schema::StoredEvent& event, const StreamName& stream);

  // Builds a tournament from its events (seq order), e.g. `as_of` standings.
  static std::optional<Tournament> fold(const std::vector<schema::StoredEvent>& events);

 private:
  // The kept-apart pairs (first < second) of keep_apart and the fixed tables, made again when
  // either changes: kept_apart() is asked for every pair a seating search tries.
  void index_kept_apart();

  std::uint32_t checkin_round_ = 0;
  std::set<std::string, std::less<>> present_;
  std::set<std::string, std::less<>> apart_players_;  // everyone in apart_pairs_
  std::vector<std::pair<std::string, std::string>> apart_pairs_;
};

}  // namespace tally::projections
