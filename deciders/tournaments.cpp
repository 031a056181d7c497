#include "deciders/tournaments.hpp"

#include "deciders/errors.hpp"
#include "deciders/lookup.hpp"
#include "projections/registrations.hpp"
#include "projections/stages.hpp"

namespace tally::deciders {

namespace {

// The tournament's rules: the game's own, and `stages` (S-1) checked against what the game's
// tables allow. The rounds stage's count is the game's `rounds` where the game has that rule.
projections::Outcome<boost::json::object> normalize(const projections::Game& game,
                                                    boost::json::object overrides) {
  const boost::json::value stages = overrides.contains("stages") ? overrides.at("stages") : nullptr;
  overrides.erase("stages");
  if (stages.is_null()) return game.normalize_rules(overrides);

  projections::RuleErrors errors;
  auto game_rules = game.normalize_rules(overrides);
  if (!game_rules) errors = game_rules.errors;
  auto read = projections::read_stages(
      stages,
      game.stage_shape(game_rules ? *game_rules.value : game.normalize_rules({}).value.value()));
  if (!read) errors.insert(errors.end(), read.errors.begin(), read.errors.end());
  if (!errors.empty()) return projections::Outcome<boost::json::object>::refused(std::move(errors));

  boost::json::object rules = std::move(*game_rules.value);
  const std::uint32_t rounds = read.value->front().rounds;
  if (rules.contains("rounds")) {
    const boost::json::value* given = overrides.if_contains("rounds");
    if (given != nullptr && !given->is_null() &&
        *given != boost::json::value(static_cast<std::int64_t>(rounds))) {
      return projections::Outcome<boost::json::object>::refused(
          "S-1", i18n::Message("stages.rounds_differ", {{"rounds", rounds}}), "rounds");
    }
    overrides["rounds"] = static_cast<std::int64_t>(rounds);  // as a client would send it
    auto with_rounds = game.normalize_rules(overrides);
    if (!with_rounds) return with_rounds;  // the game's own range of rounds (AGoT: 1–6)
    rules = std::move(*with_rounds.value);
  }
  rules["stages"] = projections::stages_json(*read.value);
  return projections::Outcome<boost::json::object>::ok(std::move(rules));
}

// takes `registration` ("open" or "closed"; absent: closed) and `capacity` (optional, a
// positive integer) out of the organizer's `overrides` (the game's own rules refuse keys they
// do not know) into `rules`; each bad value is an error naming its key.
projections::RuleErrors take_registration_rules(boost::json::object& overrides,
                                                boost::json::object& rules) {
  projections::RuleErrors errors;
  if (auto* v = overrides.if_contains("registration"); v != nullptr && !v->is_null()) {
    if (v->is_string() && (v->as_string() == "open" || v->as_string() == "closed")) {
      rules["registration"] = v->as_string();
    } else {
      errors.push_back({"Q-7",
                        "",
                        "registration",
                        i18n::Message("rules.registration.choice"),
                        {"open", "closed"}});
    }
  }
  if (auto* v = overrides.if_contains("capacity"); v != nullptr && !v->is_null()) {
    const auto n = v->if_int64();
    if (n != nullptr && *n >= 1 && *n <= projections::kMaxCapacity) {
      rules["capacity"] = *n;
    } else {
      errors.push_back(
          {"Q-7", "", "capacity",
           i18n::Message("rules.registration.capacity", {{"max", projections::kMaxCapacity}})});
    }
  }
  overrides.erase("registration");
  overrides.erase("capacity");
  return errors;
}

}  // namespace

Decision<> decide(const projections::Tournament* existing, const projections::Game& game,
                  const CreateTournament& command, const Actor& actor) {
  // Q-7's `registration` and `capacity` are the tournament's, not the game's.
  boost::json::object overrides = command.rules, registration;
  auto registration_errors = take_registration_rules(overrides, registration);
  auto rules = normalize(game, std::move(overrides));
  if (!rules || !registration_errors.empty()) {
    auto errors = rules ? projections::RuleErrors{} : rules.errors;
    errors.insert(errors.end(), registration_errors.begin(), registration_errors.end());
    return Refusal{RefusalKind::unprocessable, i18n::Message("api.rules.invalid"),
                   rule_errors(errors)};
  }
  for (const auto& [key, value] : registration) (*rules.value)[key] = value;
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
  return at_tournament(*t, std::move(d));
}

}  // namespace tally::deciders
