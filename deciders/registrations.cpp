#include "deciders/registrations.hpp"

#include "deciders/lookup.hpp"
#include "text/collation.hpp"
#include "text/text_rule.hpp"

namespace tally::deciders {

namespace {

using projections::Registration;

// Compares two hashes in time that depends only on their length.
bool same_hash(const std::string& a, const std::string& b) {
  if (a.size() != b.size() || a.empty()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

Refusal registration_not_found(const std::string& id) {
  return Refusal{RefusalKind::not_found, i18n::Message("api.registration.not_found", {{"id", id}})};
}

// A free "r<n>": n from the number of registrations + 1 (a player may hold such an id).
std::string next_id(const projections::Tournament& t) {
  std::size_t n = t.registrations.all().size() + 1;
  std::string id;
  do {
    id = "r" + std::to_string(n++);
  } while (t.registrations.find(id) != nullptr || t.player(id) != nullptr);
  return id;
}

}  // namespace

Decision<RegisterFacts> decide(const projections::Tournament* t, const Register& command,
                               const Actor& actor) {
  if (t == nullptr) return tournament_not_found(command.tournament);
  if (!t->registrations.open()) {
    return Refusal{RefusalKind::conflict,
                   i18n::Message("api.registration.closed"),
                   {{"Q-7", "", "registration", i18n::Message("api.registration.closed")}}};
  }
  std::vector<RefusalError> errors;
  if (auto problem = text::name_problem(command.name)) {
    errors.push_back({"text", "", "name", *problem});
  }
  if (!command.club.empty()) {
    if (auto problem = text::name_problem(command.club)) {
      errors.push_back({"text", "", "club", *problem});
    }
  }
  if (!errors.empty()) {
    return Refusal{RefusalKind::unprocessable, i18n::Message("api.registration.invalid"),
                   std::move(errors)};
  }
  // the same name (ignoring case and accents) registers once; the second is told the
  // first's status.
  const std::string key = text::same_name_key(command.name);
  for (const Registration& r : t->registrations.all()) {
    if (r.status == Registration::Status::cancelled || text::same_name_key(r.name) != key) {
      continue;
    }
    const std::size_t position = t->registrations.position(r.id);
    i18n::Message message("api.registration.same_name",
                          {{"name", r.name},
                           {"status", projections::registration_status_name(r.status)},
                           {"position", static_cast<std::int64_t>(position)}});
    RefusalError error{"Q-7", "", "name", message};
    error.extra["status"] = projections::registration_status_name(r.status);
    if (position != 0) error.extra["position"] = position;
    return Refusal{RefusalKind::conflict, std::move(message), {std::move(error)}};
  }

  RegisterFacts facts;
  facts.id = next_id(*t);
  const std::uint32_t capacity = t->registrations.capacity();
  if (capacity != 0 && t->registrations.holding() >= capacity) {
    facts.status = Registration::Status::waiting;
    facts.position = t->registrations.waiting().size() + 1;
  }
  events::Draft d = authored(actor);
  auto received = d.event().getPayload().initRegistrationReceived();
  received.setId(facts.id);
  received.setName(command.name);
  received.setClub(command.club);
  received.setPerson(command.person);
  auto as_data = [](const std::string& s) {
    return capnp::Data::Reader(reinterpret_cast<const capnp::byte*>(s.data()), s.size());
  };
  if (!command.email_sealed.empty()) received.setEmailSealed(as_data(command.email_sealed));
  received.setKeyHash(as_data(command.key_hash));
  return Accepted<RegisterFacts>{at_tournament(*t, std::move(d)), std::move(facts)};
}

Decision<CancelFacts> decide(const projections::Tournament* t, const CancelRegistration& command,
                             const Actor& actor) {
  if (t == nullptr) return tournament_not_found(command.tournament);
  const Registration* r = command.key_hash ? registration_for_key(*t, command.id, *command.key_hash)
                                           : t->registrations.find(command.id);
  if (r == nullptr) return registration_not_found(command.id);
  if (r->status == Registration::Status::cancelled) {
    return Refusal{RefusalKind::conflict,
                   i18n::Message("api.registration.cancelled", {{"name", r->name}})};
  }
  if (r->player) {
    return Refusal{RefusalKind::conflict, i18n::Message("api.registration.already_player",
                                                        {{"player", i18n::PlayerRef{r->id}}})};
  }
  CancelFacts facts;
  if (const Registration* next = t->registrations.moved_up_by_cancelling(r->id)) {
    facts.moved_up = next->id;
  }
  events::Draft d = authored(actor, command.reason);
  d.event().getPayload().initRegistrationCancelled().setId(r->id);
  return Accepted<CancelFacts>{at_tournament(*t, std::move(d)), std::move(facts)};
}

Decision<> decide(const projections::Tournament* t, const SetRegistration& command,
                  const Actor& actor) {
  if (t == nullptr) return tournament_not_found(command.tournament);
  const bool open = command.open.value_or(t->registrations.open());
  const std::uint32_t capacity = command.capacity.value_or(t->registrations.capacity());
  if (open == t->registrations.open() && capacity == t->registrations.capacity()) {
    return Append{};  // already so
  }
  events::Draft d = authored(actor);
  auto settings = d.event().getPayload().initRegistrationSettings();
  settings.setOpen(open);
  settings.setCapacity(capacity);
  return at_tournament(*t, std::move(d));
}

const projections::Registration* registration_for_key(const projections::Tournament& t,
                                                      const std::string& id,
                                                      const std::string& key_hash) {
  const Registration* r = t.registrations.find(id);
  return r != nullptr && same_hash(r->key_hash, key_hash) ? r : nullptr;
}

}  // namespace tally::deciders
