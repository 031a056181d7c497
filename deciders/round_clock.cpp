#include "deciders/round_clock.hpp"

#include "deciders/lookup.hpp"

namespace tally::deciders {

Decision<> decide(const projections::Tournament* t, const RoundClock& command, const Actor& actor) {
  auto found = find_round(t, command.round);
  if (auto* refusal = std::get_if<Refusal>(&found)) return std::move(*refusal);
  const projections::Round& round = *std::get<const projections::Round*>(found);
  if (auto refusal = round.clock.refusal(command.action, command.now_us)) {
    i18n::Message why(std::string(*refusal), {{"round", round.number}});
    return Refusal{RefusalKind::conflict, why, {{"clock", "", "action", why}}};
  }
  events::Draft d = authored(actor, command.reason);
  auto clock = d.event().getPayload().initRoundClock();
  clock.setRound(round.number);
  clock.setAction(command.action);
  clock.setMinutes(command.minutes);
  return at_tournament(*t, std::move(d));
}

}  // namespace tally::deciders
