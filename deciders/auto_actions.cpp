#include "deciders/auto_actions.hpp"

#include "deciders/errors.hpp"

namespace tally::deciders {

Decision<> decide(const projections::Tournament* t, const projections::Game* game,
                  const AutoActions& command, const Actor& actor) {
  FoundTable found;
  if (auto missing = find_table(t, command.table, found)) return std::move(*missing);
  const projections::ActionSpec* spec = game->describe().action(command.action);
  if (spec == nullptr || !spec->automatic) {
    return Refusal{
        RefusalKind::not_found,
        i18n::Message("api.table.no_auto_action", {{"game", t->game}, {"action", command.action}})};
  }
  auto outcome = game->auto_actions(*t, *found.state);
  if (!outcome) {
    return Refusal{RefusalKind::unprocessable, i18n::Message("api.table.cannot_complete"),
                   rule_errors(outcome.errors)};
  }
  if (outcome.value->empty()) {
    return Refusal{RefusalKind::conflict, i18n::Message("api.table.all_have_houses")};
  }
  Append append{projections::table_stream(t->id, found.round->number, found.seated->number),
                events::ExpectedVersion::exactly(found.state->version),
                {}};
  for (auto& message : *outcome.value) {
    events::Draft d(message->getRoot<schema::Event>().asReader());
    d.event().setAuthor(actor.id);
    append.events.push_back(std::move(d));
  }
  return append;
}

}  // namespace tally::deciders
