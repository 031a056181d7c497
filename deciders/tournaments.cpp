#include "deciders/tournaments.hpp"

#include "deciders/errors.hpp"
#include "deciders/lookup.hpp"

namespace tally::deciders {

Decision<> decide(const projections::Tournament* existing, const projections::Game& game,
                  const CreateTournament& command, const Actor& actor) {
  auto rules = game.normalize_rules(command.rules);
  if (!rules) {
    return Refusal{RefusalKind::unprocessable, i18n::Message("api.rules.invalid"),
                   rule_errors(rules.errors)};
  }
  if (existing != nullptr) {
    return Refusal{RefusalKind::conflict,
                   i18n::Message("api.tournament.exists", {{"id", command.id}})};
  }
  events::Draft d = authored(actor);
  auto created = d.event().getPayload().initTournamentCreated();
  created.setId(command.id);
  created.setName(command.name);
  created.setGame(capnp::Text::Reader(game.id().data(), game.id().size()));
  created.setLocale(command.locale);
  created.setRules(boost::json::serialize(*rules.value));
  created.setSelfReporting(command.self_reporting);
  return one_event(projections::tournament_stream(command.id), events::ExpectedVersion::no_stream(),
                   std::move(d));
}

Decision<> decide(const projections::Tournament* t, const SetSelfReporting& command,
                  const Actor& actor) {
  if (t == nullptr) return tournament_not_found(command.tournament);
  if (t->self_reporting == command.enabled) return Append{};  // already so
  events::Draft d = authored(actor);
  d.event().getPayload().initSelfReporting().setEnabled(command.enabled);
  return one_event(projections::tournament_stream(t->id),
                   events::ExpectedVersion::exactly(t->version), std::move(d));
}

}  // namespace tally::deciders
