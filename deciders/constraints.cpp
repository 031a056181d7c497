#include "deciders/constraints.hpp"

#include "deciders/lookup.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace tally::deciders {

namespace {

// Points beyond these are a typo, and sums of them must stay exact in 64 bits.
constexpr std::int64_t kMostPoints = 1000;
constexpr std::int64_t kMostDenominator = 1000;

std::vector<RefusalError> keep_apart_errors(const projections::Tournament& t,
                                            const KeepApart& command) {
  std::vector<RefusalError> errors;
  std::set<std::string> named;
  for (const auto& id : command.players) {
    if (t.player(id) == nullptr) {
      errors.push_back({"S-9", id, "players",
                        i18n::Message("api.player.not_found",
                                      {{"id", id}, {"tournament", command.tournament}})});
    } else if (!named.insert(id).second) {
      errors.push_back(
          {"S-9", id, "players",
           i18n::Message("api.keep_apart.named_twice", {{"player", i18n::PlayerRef{id}}})});
    }
  }
  if (command.players.size() < 2)
    errors.push_back({"S-9", "", "players", i18n::Message("api.keep_apart.too_few")});
  if (command.reason.empty())
    errors.push_back({"S-9", "", "reason", i18n::Message("api.keep_apart.needs_reason")});
  return errors;
}

}  // namespace

std::variant<Rational, i18n::Message> penalty_points(const std::string& text) {
  Rational points;
  try {
    points = Rational::parse(text);
  } catch (const std::exception&) {
    return i18n::Message("api.penalty.points_exact", {{"points", text}});
  }
  if (points == Rational(0)) return i18n::Message("api.penalty.points_zero");
  if (points > Rational(kMostPoints) || points < Rational(-kMostPoints) ||
      points.den() > kMostDenominator) {
    return i18n::Message("api.penalty.points_range",
                         {{"points", text}, {"most", kMostPoints}, {"den", kMostDenominator}});
  }
  return points;
}

Decision<> decide(const projections::Tournament* t, const KeepApart& command, const Actor& actor) {
  if (t == nullptr) return tournament_not_found(command.tournament);
  if (!actor.organizer)
    return Refusal{RefusalKind::forbidden, i18n::Message("api.auth.organizer_only")};
  if (auto errors = keep_apart_errors(*t, command); !errors.empty()) {
    return Refusal{RefusalKind::unprocessable, i18n::Message("api.keep_apart.invalid"),
                   std::move(errors)};
  }
  events::Draft d = authored(actor, command.reason);
  auto list = d.event().getPayload().initKeptApart().initPlayers(
      static_cast<unsigned>(command.players.size()));
  for (unsigned i = 0; i < command.players.size(); ++i) list.set(i, command.players[i]);
  return at_tournament(*t, std::move(d));
}

Decision<> decide(const projections::Tournament* t, const PatchPlayer& command,
                  const Actor& actor) {
  if (t == nullptr) return tournament_not_found(command.tournament);
  if (t->player(command.player) == nullptr)
    return player_not_found(command.player, command.tournament);
  if (command.fixed_table && *command.fixed_table == 0u) {
    return Refusal{RefusalKind::unprocessable,
                   i18n::Message("api.player.invalid"),
                   {{"S-10", command.player, "fixed_table",
                     i18n::Message("api.player.fixed_table_positive")}}};
  }
  Append append = at_tournament(*t);
  if (command.name) {
    events::Draft d = authored(actor);
    auto renamed = d.event().getPayload().initPlayerRenamed();
    renamed.setId(command.player);
    renamed.setName(*command.name);
    append.events.push_back(std::move(d));
  }
  if (command.fixed_table) {
    events::Draft d = authored(actor);
    auto fixed = d.event().getPayload().initFixedTable();
    fixed.setPlayer(command.player);
    fixed.setTable(command.fixed_table->value_or(0));
    append.events.push_back(std::move(d));
  }
  return append;
}

Decision<> decide(const projections::Tournament* t, const GivePenalty& command,
                  const Actor& actor) {
  if (t == nullptr) return tournament_not_found(command.tournament);
  if (t->player(command.player) == nullptr)
    return player_not_found(command.player, command.tournament);
  std::vector<RefusalError> errors;
  auto points = penalty_points(command.points);
  if (auto* why = std::get_if<i18n::Message>(&points))
    errors.push_back({"S-11", command.player, "points", std::move(*why)});
  if (command.round && t->round(*command.round) == nullptr) {
    errors.push_back({"S-11", command.player, "round",
                      i18n::Message("api.penalty.round_unknown",
                                    {{"round", *command.round}, {"rounds", t->rounds.size()}})});
  }
  if (command.reason.empty())
    errors.push_back({"S-11", command.player, "reason", i18n::Message("api.penalty.needs_reason")});
  if (!errors.empty()) {
    return Refusal{RefusalKind::unprocessable, i18n::Message("api.penalty.invalid"),
                   std::move(errors)};
  }
  events::Draft d = authored(actor, command.reason);
  auto given = d.event().getPayload().initPenaltyGiven();
  given.setPlayer(command.player);
  given.setPoints(std::get<Rational>(points).str());
  given.setRound(command.round.value_or(0));
  return at_tournament(*t, std::move(d));
}

}  // namespace tally::deciders
