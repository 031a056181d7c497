#include "deciders/judges.hpp"

namespace tally::deciders {

using events::ExpectedVersion;
using projections::Role;

namespace {

capnp::Data::Reader bytes_of(const schema::Digest& hash) {
  return capnp::Data::Reader(hash.data(), hash.size());
}

}  // namespace

Decision<> decide(const projections::Judges& judges, const AddTokenHolder& command,
                  const Actor& actor) {
  std::string id;
  std::size_t n = judges.all.size();
  do {
    id = (command.role == Role::replica ? "r" : "j") + std::to_string(n++);
  } while (judges.find(id) != nullptr);
  events::Draft d = authored(actor);
  auto added = d.event().getPayload().initJudgeAdded();
  added.setId(id);
  added.setName(command.name);
  added.setRole(command.role == Role::replica ? schema::Role::REPLICA : schema::Role::JUDGE);
  if (command.standby) added.setStandby(true);
  added.setTokenHash(bytes_of(command.token_hash));
  return one_event(kJudgesStream, ExpectedVersion::exactly(judges.version), std::move(d));
}

Decision<> decide(const projections::Judges& judges, const RevokeTokenHolder& command,
                  const Actor& actor) {
  const projections::Judge* j = judges.find(command.id);
  if (j == nullptr || j->role != command.role) {
    return Refusal{RefusalKind::not_found,
                   i18n::Message("api.judge.not_found", {{"id", command.id}})};
  }
  if (j->revoked) {
    return Refusal{RefusalKind::conflict, i18n::Message("api.judge.already_revoked",
                                                        {{"name", j->name}, {"id", command.id}})};
  }
  events::Draft d = authored(actor);
  d.event().getPayload().initJudgeRevoked().setId(command.id);
  return one_event(kJudgesStream, ExpectedVersion::exactly(judges.version), std::move(d));
}

Decision<> decide(const projections::Judges& judges, const RotateOrganizerToken& command,
                  const Actor& actor) {
  return one_event(kJudgesStream, ExpectedVersion::exactly(judges.version),
                   organizer_token_event(command.token_hash, actor.id));
}

events::Draft organizer_token_event(const schema::Digest& hash, const std::string& author) {
  events::Draft d;
  d.event().setAuthor(author);
  d.event().getPayload().initOrganizerToken().setTokenHash(bytes_of(hash));
  return d;
}

}  // namespace tally::deciders
