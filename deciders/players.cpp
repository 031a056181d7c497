#include "deciders/players.hpp"

#include "deciders/errors.hpp"
#include "deciders/lookup.hpp"

#include <algorithm>

namespace tally::deciders {

Decision<> decide(const projections::Tournament* t, const AddPlayer& command, const Actor& actor) {
  if (t == nullptr) return tournament_not_found(command.tournament);
  std::string chosen;
  if (command.id) {
    if (t->player(*command.id) != nullptr) {
      return Refusal{
          RefusalKind::conflict,
          i18n::Message("api.player.id_taken",
                        {{"id", *command.id}, {"player", i18n::PlayerRef{*command.id}}})};
    }
    chosen = *command.id;
  } else {
    std::size_t n = t->players.size() + 1;
    do {
      chosen = "p" + std::to_string(n++);
    } while (t->player(chosen) != nullptr);
  }
  events::Draft d = authored(actor);
  auto registered = d.event().getPayload().initPlayerRegistered();
  registered.setId(chosen);
  registered.setName(command.name);
  return at_tournament(*t, std::move(d));
}

Decision<> decide(const projections::Tournament* t, const RenamePlayer& command,
                  const Actor& actor) {
  if (t == nullptr) return tournament_not_found(command.tournament);
  if (t->player(command.player) == nullptr)
    return player_not_found(command.player, command.tournament);
  events::Draft d = authored(actor);
  auto renamed = d.event().getPayload().initPlayerRenamed();
  renamed.setId(command.player);
  renamed.setName(command.name);
  return at_tournament(*t, std::move(d));
}

Decision<ImportFacts> decide(const projections::Tournament* t, const ImportPlayers& command,
                             const Actor& actor) {
  if (t == nullptr) return tournament_not_found(command.tournament);
  auto plan = projections::plan_import(*t, command.csv, command.add_possible_duplicates);
  if (!plan) {
    return Refusal{RefusalKind::unprocessable, i18n::Message("api.import.refused"),
                   rule_errors(plan.errors)};
  }
  Append append = at_tournament(*t);
  for (const auto& row : plan.value->rows) {
    if (!row.write) continue;
    events::Draft d = authored(actor);
    if (row.status == projections::ImportRow::Status::changed) {
      auto renamed = d.event().getPayload().initPlayerRenamed();
      renamed.setId(row.id);
      renamed.setName(row.name);
    } else {
      auto registered = d.event().getPayload().initPlayerRegistered();
      registered.setId(row.id);
      registered.setName(row.name);
    }
    append.events.push_back(std::move(d));
  }
  return Accepted<ImportFacts>{std::move(append), ImportFacts{std::move(*plan.value), t->last_seq}};
}

Decision<> decide(const projections::Tournament* t, const ChangeDropped& command,
                  const Actor& actor) {
  if (t == nullptr) return tournament_not_found(command.tournament);
  const projections::Player* player = t->player(command.player);
  if (player == nullptr) return player_not_found(command.player, command.tournament);
  if (player->dropped == command.drop) {
    return Refusal{
        RefusalKind::conflict,
        i18n::Message(command.drop ? "api.player.already_dropped" : "api.player.not_dropped",
                      {{"player", i18n::PlayerRef{command.player}}})};
  }
  events::Draft d = authored(actor, command.reason);
  if (command.drop) {
    d.event().getPayload().initPlayerDropped().setId(command.player);
  } else {
    d.event().getPayload().initPlayerReinstated().setId(command.player);
  }
  return at_tournament(*t, std::move(d));
}

Decision<> decide(const projections::Tournament* t, const CheckIn& command, const Actor& actor) {
  if (t == nullptr) return tournament_not_found(command.tournament);
  std::vector<RefusalError> errors;
  // a waiting registrant is checked in once players are (or with them): a check-in of
  // nobody but waiting registrants would open check-in with every player absent.
  const bool players_checked_in =
      t->checkin_open() || std::any_of(command.players.begin(), command.players.end(),
                                       [&](const std::string& id) { return t->player(id); });
  for (const auto& id : command.players) {
    const projections::Player* player = t->player(id);
    const projections::Registration* waiting = t->registrations.find(id);
    if (player == nullptr && waiting != nullptr &&
        waiting->status == projections::Registration::Status::waiting) {
      if (!players_checked_in && command.present) {
        errors.push_back({"Q-7", id, "players",
                          i18n::Message("api.checkin.waiting_first", {{"name", waiting->name}})});
      }
      continue;  // a waiting registrant who came, in case a place frees
    }
    if (player == nullptr) {
      errors.push_back({"checkin", id, "players",
                        i18n::Message("api.player.not_found",
                                      {{"id", id}, {"tournament", command.tournament}})});
    } else if (player->dropped) {
      errors.push_back({"checkin", id, "players",
                        i18n::Message("api.checkin.dropped", {{"player", i18n::PlayerRef{id}}})});
    }
  }
  if (!errors.empty()) {
    return Refusal{RefusalKind::unprocessable, i18n::Message("api.checkin.invalid"),
                   std::move(errors)};
  }
  events::Draft d = authored(actor);
  auto check_in = d.event().getPayload().initCheckIn();
  check_in.setRound(t->next_round());
  check_in.setPresent(command.present);
  auto list = check_in.initPlayers(static_cast<unsigned>(command.players.size()));
  for (unsigned i = 0; i < command.players.size(); ++i) list.set(i, command.players[i]);
  return at_tournament(*t, std::move(d));
}

Decision<DropAbsentFacts> decide(const projections::Tournament* t, const DropAbsent& command,
                                 const Actor& actor) {
  if (t == nullptr) return tournament_not_found(command.tournament);
  if (!t->checkin_open()) {
    return Refusal{RefusalKind::conflict,
                   i18n::Message("api.checkin.not_open", {{"round", t->next_round()}})};
  }
  Append append = at_tournament(*t);
  DropAbsentFacts facts;
  for (const auto* player : t->absent_players()) {
    events::Draft d = authored(actor, command.reason);
    d.event().getPayload().initPlayerDropped().setId(player->id);
    append.events.push_back(std::move(d));
    facts.dropped.push_back(player->id);
  }
  // as many present waiting registrants as were dropped move up, in registration order.
  for (const auto* waiting : t->registrations.waiting()) {
    if (facts.moved_up.size() == facts.dropped.size()) break;
    if (!t->present(waiting->id) || t->player(waiting->id) != nullptr) continue;
    events::Draft d = authored(actor);
    auto registered = d.event().getPayload().initPlayerRegistered();
    registered.setId(waiting->id);
    registered.setName(waiting->name);
    append.events.push_back(std::move(d));
    facts.moved_up.push_back(waiting->id);
  }
  return Accepted<DropAbsentFacts>{std::move(append), std::move(facts)};
}

}  // namespace tally::deciders
