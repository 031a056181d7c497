#include "deciders/seat_round.hpp"

#include "deciders/errors.hpp"
#include "deciders/lookup.hpp"
#include "deciders/stages.hpp"
#include "deciders/unreported.hpp"
#include "projections/keep_apart.hpp"

namespace tally::deciders {

void write_tables(schema::RoundSeated::Builder seated,
                  const std::vector<projections::SeatedTable>& tables) {
  auto list = seated.initTables(static_cast<unsigned>(tables.size()));
  for (unsigned i = 0; i < tables.size(); ++i) {
    const auto& table = tables[i];
    list[i].setTable(table.number);
    auto players = list[i].initPlayers(static_cast<unsigned>(table.players.size()));
    for (unsigned j = 0; j < table.players.size(); ++j) players.set(j, table.players[j]);
    list[i].setLeague(table.league);
    if (!table.rating_leagues.empty()) {
      auto leagues = list[i].initRatingLeagues(static_cast<unsigned>(table.rating_leagues.size()));
      for (unsigned j = 0; j < table.rating_leagues.size(); ++j)
        leagues.set(j, table.rating_leagues[j]);
    }
  }
}

namespace {

events::Draft round_seated(const projections::Tournament& t, const projections::Seating& seating,
                           const SeatRound& command, const Actor& actor) {
  events::Draft d;
  auto e = d.event();
  e.setAuthor(actor.id);
  e.setReason(command.reason);
  auto seated = e.getPayload().initRoundSeated();
  seated.setRound(t.next_round());
  seated.setMethod(seating.method);
  seated.setSeed(seating.method == schema::SeatingMethod::RANDOM ? seating.seed : 0);
  seated.setForced(command.force);
  write_tables(seated, seating.tables);
  return d;
}

// S-9: the kept-apart pairs the seating puts at one table, one error each, naming both players.
std::vector<RefusalError> kept_apart_errors(const std::vector<projections::NotKeptApart>& pairs) {
  std::vector<RefusalError> errors;
  for (const auto& pair : pairs) {
    errors.push_back(
        {"S-9",
         pair.first,
         "tables",
         i18n::Message("api.seating.kept_apart_together", {{"player", i18n::PlayerRef{pair.first}},
                                                           {"other", i18n::PlayerRef{pair.second}},
                                                           {"table", pair.table}}),
         {{"players",
           boost::json::array{boost::json::string(pair.first), boost::json::string(pair.second)}},
          {"table", pair.table}}});
  }
  return errors;
}

// S-9 after the game has seated the round: refused while a kept-apart pair shares a table,
// unless forced (with a reason), and then said in the seating's notes.
std::optional<Refusal> keep_apart_check(const projections::Tournament& t,
                                        projections::Seating& seating, bool force) {
  auto together = projections::not_kept_apart(t, seating.tables);
  if (together.empty()) return std::nullopt;
  if (!force) {
    return Refusal{RefusalKind::unprocessable, i18n::Message("api.seating.kept_apart_refused"),
                   kept_apart_errors(together)};
  }
  for (const auto& pair : together) {
    seating.notes.push_back(
        i18n::Message("api.seating.kept_apart_forced", {{"player", i18n::PlayerRef{pair.first}},
                                                        {"other", i18n::PlayerRef{pair.second}},
                                                        {"table", pair.table}}));
  }
  return std::nullopt;
}

}  // namespace

Decision<SeatingFacts> decide(const projections::Tournament& t, const projections::Game& game,
                              const SeatRound& command, const Actor& actor) {
  if (auto staged = seat_round_refusal(t)) return std::move(*staged);
  if (!t.rounds.empty() && !command.force) {
    const projections::Round& last = t.rounds.back();
    if (auto open = unreported_tables(t, game, last); !open.empty())
      return unreported_refusal(last.number, open, "api.seating.unreported");
  }
  projections::SeatingRequest request = command.request;
  request.round = t.next_round();
  auto outcome = game.seat_round(t, request);
  if (!outcome) {
    return Refusal{RefusalKind::unprocessable, i18n::Message("api.seating.refused"),
                   rule_errors(outcome.errors)};
  }
  projections::Seating& seating = *outcome.value;
  if (auto refusal = keep_apart_check(t, seating, command.force)) return std::move(*refusal);
  projections::renumber_fixed_tables(t, seating.tables, seating.notes);  // S-10
  events::Draft d = round_seated(t, seating, command, actor);
  return Accepted<SeatingFacts>{at_tournament(t, std::move(d)),
                                SeatingFacts{std::move(*outcome.value)}};
}

}  // namespace tally::deciders
