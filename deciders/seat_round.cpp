#include "deciders/seat_round.hpp"

#include "deciders/errors.hpp"
#include "deciders/stages.hpp"
#include "deciders/unreported.hpp"

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
  events::Draft d = round_seated(t, *outcome.value, command, actor);
  return Accepted<SeatingFacts>{
      one_event(projections::tournament_stream(t.id), events::ExpectedVersion::exactly(t.version),
                std::move(d)),
      SeatingFacts{std::move(*outcome.value)}};
}

}  // namespace tally::deciders
