// Registration before the day (contract rule Q-7, docs/registration.md): anyone registers while
// `rules.registration` is "open" (each address limited: the dispatcher's registration bucket),
// sees and cancels the registration with its private key, and the organizer lists them and
// turns those holding a place into players through the CSV import's preview and apply.
//
// The private key travels in the `Registration-Key` header (the page keeps it in its URL's
// fragment, which a browser never sends); the log holds only its SHA-256. The e-mail address is
// sealed (daemon/email_seal.hpp) before the decider sees it.
#include "deciders/registrations.hpp"
#include "daemon/api/api.hpp"
#include "daemon/http/body.hpp"
#include "daemon/secrets.hpp"
#include "events/sha256.hpp"
#include "projections/registration.hpp"

namespace tally::daemon {

using events::AppendResult;

namespace {

// The header that carries a registration's private key.
constexpr std::string_view kKeyHeader = "Registration-Key";

std::string digest_bytes(const schema::Digest& d) {
  return std::string(reinterpret_cast<const char*>(d.data()), d.size());
}

// Q-7: an address people can write to — one "@" between a local part and a domain with a dot,
// no spaces or control characters, at most 254 bytes (RFC 5321's path limit). Whether it
// exists is not the server's to know.
bool plausible_email(std::string_view email) {
  if (email.size() < 3 || email.size() > 254) return false;
  const auto at = email.find('@');
  if (at == std::string_view::npos || at == 0 || email.find('@', at + 1) != std::string_view::npos)
    return false;
  const std::string_view domain = email.substr(at + 1);
  if (domain.size() < 3 || domain.find('.') == std::string_view::npos || domain.front() == '.' ||
      domain.back() == '.')
    return false;
  for (unsigned char c : email) {
    if (c <= 0x20 || c == 0x7f || c == '<' || c == '>' || c == '"' || c == ',' || c == ';')
      return false;
  }
  return true;
}

}  // namespace

std::optional<std::string> Api::registration_key_hash(const Exchange& ex) {
  auto it = ex.request.find(kKeyHeader);
  if (it == ex.request.end()) return std::nullopt;
  return digest_bytes(events::sha256(it->value()));
}

void Api::register_for(const ExchangePtr& ex) {
  auto body = body_or_answer(ex);
  if (!body) return;
  BodyFields fields(*body, {"name", "club", "email", "person"});
  // The name's and the club's rule `text` is the decider's (one place for every refusal of it).
  auto name = fields.text("name", true, 1000);
  auto club = fields.text("club", false, 1000).value_or("");
  auto email = fields.text("email", false, 254);
  auto person = fields.text("person", false, 64).value_or("");
  if (email && !email->empty() && !plausible_email(*email))
    fields.fail("email", "api.registration.email", "Q-7");
  if (!person.empty() && !valid_player_id(person))
    fields.fail("person", "api.registration.person", "Q-7");
  if (!fields.ok())
    return ex->respond(unprocessable(*ex, "api.registration.invalid", fields.errors()));
  const std::string t_id = ex->params.at("t");
  // The private key: shown in this answer only; the event keeps its hash.
  const std::string key = random_token();
  deciders::Register command{t_id,
                             *name,
                             club,
                             person,
                             email && !email->empty() ? email_seal_.seal(t_id, *email) : "",
                             digest_bytes(events::sha256(key))};
  run_command<deciders::RegisterFacts>(
      ex,
      [command](const LiveState& s) {
        return deciders::decide(s.tournament(command.tournament), command, deciders::kRegistrant);
      },
      [this, ex, t_id, key](const AppendResult& r, const deciders::RegisterFacts* facts) {
        auto event = store_.read_view().event(r.first_seq);
        const std::string id = event->event().getPayload().getRegistrationReceived().getId().cStr();
        return answer_query(*ex, [&](const LiveState& s) {
          return queries::registration_received(s, t_id, id, r.last_seq, facts ? key : "");
        });
      },
      {.tournament = t_id, .answer_before_standby = true});  // the key is shown once
}

void Api::registration_status(const ExchangePtr& ex) {
  run_query(ex, [t_id = ex->params.at("t")](const LiveState& s) {
    return queries::registration_status(s, t_id);
  });
}

void Api::get_registration(const ExchangePtr& ex) {
  auto key_hash = registration_key_hash(*ex);
  if (!key_hash && !ex->identity.organizer()) {
    return ex->respond(
        problem(*ex, http::status::not_found,
                i18n::Message("api.registration.not_found", {{"id", ex->params.at("r")}})));
  }
  run_query(ex, [t_id = ex->params.at("t"), id = ex->params.at("r"),
                 key_hash = ex->identity.organizer() ? std::nullopt : key_hash](
                    const LiveState& s) { return queries::registration(s, t_id, id, key_hash); });
}

void Api::cancel_registration(const ExchangePtr& ex) {
  auto key_hash = registration_key_hash(*ex);
  const bool organizer = ex->identity.organizer();
  const std::string t_id = ex->params.at("t"), id = ex->params.at("r");
  if (!key_hash && !organizer) {
    return ex->respond(problem(*ex, http::status::not_found,
                               i18n::Message("api.registration.not_found", {{"id", id}})));
  }
  deciders::CancelRegistration command{t_id, id, organizer ? std::nullopt : key_hash, ""};
  run_command<deciders::CancelFacts>(
      ex,
      [command, actor = organizer ? actor_of(*ex) : deciders::kRegistrant](const LiveState& s) {
        return deciders::decide(s.tournament(command.tournament), command, actor);
      },
      [this, ex, t_id, id](const AppendResult& r, const deciders::CancelFacts* facts) {
        return answer_query(*ex, [&](const LiveState& s) {
          return queries::registration_cancelled(s, t_id, id, facts ? facts->moved_up : "",
                                                 r.last_seq);
        });
      },
      {.tournament = t_id});
}

void Api::list_registrations(const ExchangePtr& ex) {
  run_query(ex, [this, t_id = ex->params.at("t")](const LiveState& s) {
    return queries::registrations(s, t_id, email_seal_);
  });
}

void Api::admit_registrations(const ExchangePtr& ex, bool check_only) {
  auto body = body_or_answer(ex);
  if (!body) return;
  BodyFields fields(*body, {"add_possible_duplicates"});
  bool add_duplicates = fields.boolean("add_possible_duplicates").value_or(false);
  if (!fields.ok())
    return ex->respond(unprocessable(*ex, "api.registration.invalid", fields.errors()));
  const std::string t_id = ex->params.at("t");
  // The import of the registrations' file as the state is when it is decided.
  auto command_on = [t_id, add_duplicates](const projections::Tournament& t) {
    return deciders::ImportPlayers{t_id, projections::admission_csv(t), add_duplicates};
  };
  auto nobody = [t_id] {
    return deciders::Refusal{
        deciders::RefusalKind::conflict,
        i18n::Message("api.registration.none_to_admit"),
        {{"Q-7", "", "registrations", i18n::Message("api.registration.none_to_admit")}}};
  };
  if (check_only) {
    return run_query(
        ex,
        [command_on, nobody, t_id, actor = actor_of(*ex)](const LiveState& s) -> Viewed {
          const projections::Tournament* t = s.tournament(t_id);
          if (t == nullptr) return deciders::tournament_not_found(t_id);
          auto command = command_on(*t);
          if (command.csv.empty()) return nobody();
          return queries::import_preview(s, command, actor, {});
        },
        {.tournament = t_id});
  }
  run_command<deciders::ImportFacts>(
      ex,
      [command_on, nobody, t_id,
       actor = actor_of(*ex)](const LiveState& s) -> deciders::Decision<deciders::ImportFacts> {
        const projections::Tournament* t = s.tournament(t_id);
        if (t == nullptr) return deciders::tournament_not_found(t_id);
        auto command = command_on(*t);
        if (command.csv.empty()) return nobody();
        return deciders::decide(t, command, actor);
      },
      [this, ex, t_id](const AppendResult& r, const deciders::ImportFacts* facts) {
        return answer_query(*ex, [&](const LiveState& s) {
          return queries::players_imported(s, t_id, facts, r.last_seq, {});
        });
      },
      {.tournament = t_id});
}

void Api::patch_registration(const ExchangePtr& ex, const json::object& body) {
  BodyFields fields(body, {"registration", "capacity"});
  auto registration = fields.text("registration", false, 16);
  std::optional<std::uint32_t> capacity;
  if (const json::value* given = body.if_contains("capacity")) {
    const auto* n = given->if_int64();
    if (given->is_null()) {
      capacity = 0;  // no limit any more
    } else if (n != nullptr && *n >= 1 && *n <= projections::kMaxCapacity) {
      capacity = static_cast<std::uint32_t>(*n);
    } else {
      fields.fail(
          "capacity",
          i18n::Message("rules.registration.capacity", {{"max", projections::kMaxCapacity}}),
          "Q-7");
    }
  }
  if (registration && *registration != "open" && *registration != "closed")
    fields.fail("registration", "rules.registration.choice", "Q-7");
  if (!fields.ok())
    return ex->respond(unprocessable(*ex, "api.tournament.invalid", fields.errors()));
  const std::string t_id = ex->params.at("t");
  deciders::SetRegistration command{t_id, std::nullopt, capacity};
  if (registration) command.open = *registration == "open";
  run_command(
      ex,
      [command, actor = actor_of(*ex)](const LiveState& s) {
        return deciders::decide(s.tournament(command.tournament), command, actor);
      },
      [this, ex, t_id](const AppendResult& r) {
        return answer_query(*ex, [&](const LiveState& s) {
          return queries::registration_settings(s, t_id, r.last_seq);
        });
      });
}

}  // namespace tally::daemon
