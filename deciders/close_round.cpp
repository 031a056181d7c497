#include "deciders/close_round.hpp"

#include "deciders/lookup.hpp"
#include "deciders/unreported.hpp"

namespace tally::deciders {

Decision<> decide(const projections::Tournament* t, const projections::Game* game,
                  const CloseRound& command, const Actor& actor) {
  auto found = find_round(t, command.round);
  if (auto* refusal = std::get_if<Refusal>(&found)) return std::move(*refusal);
  const projections::Round& round = *std::get<const projections::Round*>(found);
  if (round.number != t->rounds.size()) {
    return Refusal{RefusalKind::conflict,
                   i18n::Message("api.round.close_not_last",
                                 {{"round", round.number}, {"last", t->rounds.size()}})};
  }
  if (round.closed) {
    return Refusal{RefusalKind::conflict,
                   i18n::Message("api.round.closed_already", {{"round", round.number}})};
  }
  if (!command.force) {
    if (auto open = unreported_tables(*t, *game, round); !open.empty())
      return unreported_refusal(round.number, open, "api.round.close_unreported");
  }
  // The last planned round closes the event unless the organizer says otherwise.
  const boost::json::value* planned = t->rules.if_contains("rounds");
  const bool last_planned = planned != nullptr && planned->is_int64() &&
                            planned->as_int64() == static_cast<std::int64_t>(round.number);
  events::Draft d = authored(actor, command.reason);
  auto closed = d.event().getPayload().initRoundClosed();
  closed.setRound(round.number);
  closed.setFinal(command.final.value_or(last_planned));
  return at_tournament(*t, std::move(d));
}

}  // namespace tally::deciders
