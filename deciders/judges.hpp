// The organizer's commands on the people who hold tokens (stream "judges"):
//
//   - `AddTokenHolder` (POST /v1/judges, POST /v1/replicas): a judge "j<n>" or a replica
//     "r<n>", n the next free number counting from the number ever added; the token's hash only
//     (the token itself is made by the caller and shown once).
//   - `RevokeTokenHolder` (DELETE /v1/judges/{id}, /v1/replicas/{id}): not found when the id
//     names none of that role; conflict `api.judge.already_revoked` when revoked already.
//   - `RotateOrganizerToken` (POST /v1/organizer/token): the new token's hash; every earlier
//     organizer token stops working at once.
//
// Thread safety: pure functions.
#pragma once

#include "deciders/decision.hpp"
#include "projections/judges.hpp"

#include <string>

namespace tally::deciders {

inline constexpr const char* kJudgesStream = "judges";

struct AddTokenHolder {
  projections::Role role = projections::Role::judge;  // judge or replica
  std::string name;
  bool standby = false;  // a replica whose copy counts for replicas_ack
  schema::Digest token_hash{};
};
// Appends `judge_added`.
Decision<> decide(const projections::Judges& judges, const AddTokenHolder& command,
                  const Actor& actor);

struct RevokeTokenHolder {
  projections::Role role = projections::Role::judge;
  std::string id;
};
// Appends `judge_revoked`.
Decision<> decide(const projections::Judges& judges, const RevokeTokenHolder& command,
                  const Actor& actor);

struct RotateOrganizerToken {
  schema::Digest token_hash{};
};
// Appends `organizer_token`.
Decision<> decide(const projections::Judges& judges, const RotateOrganizerToken& command,
                  const Actor& actor);

// The `organizer_token` event that makes the token with `hash` the organizer's (also written by
// `tallyd reset-organizer`, with the server stopped).
events::Draft organizer_token_event(const schema::Digest& hash, const std::string& author);

}  // namespace tally::deciders
