// Registration before the day (contract rule Q-7, docs/registration.md):
//
//   - `Register` (POST …/registrations, anonymous): only while `rules.registration` is "open"
//     (conflict `api.registration.closed`, field `registration`); the name follows rule `text`
//     (unprocessable, field `name`); the same name as a registration not cancelled, ignoring
//     case and accents (text::same_name_key), is refused (conflict `api.registration.same_name`)
//     with that first registration's status and place in line. Beyond `rules.capacity` the
//     registration waits, in the order it came.
//   - `CancelRegistration` (DELETE …/registrations/{r}, with the private key or the organizer's
//     token): a registration already cancelled (conflict `api.registration.cancelled`) or already
//     a player (conflict `api.registration.already_player`: the organizer drops players) is
//     refused; a key that is not the registration's is answered as if it did not exist. A
//     cancelled registration that held a place moves the first waiting one up.
//   - `SetRegistration` (PATCH /v1/tournaments/{t} with `registration` and/or `capacity`): the
//     settings from now on; the same settings append nothing.
//
// The check-in side (waiting registrants checked in, "drop the absent" moving them up) is in
// deciders/players.hpp. The turning of registrations into players is the CSV import's
// (players.hpp ImportPlayers) with projections::admission_csv().
//
// Thread safety: pure functions.
#pragma once

#include "deciders/decision.hpp"
#include "projections/tournament.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace tally::deciders {

// The author of what a registrant does without a token.
inline const Actor kRegistrant{"registrant", false};

struct Register {
  std::string tournament;
  std::string name;
  std::string club;          // "" when not given
  std::string person;        // "" when not given (the reader checked its pattern)
  std::string email_sealed;  // the sealed address (the reader sealed it), "" when not given
  std::string key_hash;      // SHA-256 of the private key the registrant is given (32 bytes)
};
// What the registration became: its id, status and place in line (0 unless waiting).
struct RegisterFacts {
  std::string id;
  projections::Registration::Status status = projections::Registration::Status::registered;
  std::size_t position = 0;
};
// Appends `registration_received`.
Decision<RegisterFacts> decide(const projections::Tournament* t, const Register& command,
                               const Actor& actor);

struct CancelRegistration {
  std::string tournament;
  std::string id;
  // The SHA-256 of the key the registrant showed; nullopt: the organizer cancels.
  std::optional<std::string> key_hash;
  std::string reason;
};
// Who moved up into the place given up (empty: nobody).
struct CancelFacts {
  std::string moved_up;
};
// Appends `registration_cancelled`.
Decision<CancelFacts> decide(const projections::Tournament* t, const CancelRegistration& command,
                             const Actor& actor);

struct SetRegistration {
  std::string tournament;
  std::optional<bool> open;
  std::optional<std::uint32_t> capacity;  // 0: no limit any more (the reader checked the range)
};
// Appends `registration_settings` (nothing when they are already so).
Decision<> decide(const projections::Tournament* t, const SetRegistration& command,
                  const Actor& actor);

// The registration `id` of `t` as the holder of `key_hash` may see it, or null (no such
// registration, or another key: the same answer for both).
const projections::Registration* registration_for_key(const projections::Tournament& t,
                                                      const std::string& id,
                                                      const std::string& key_hash);

}  // namespace tally::deciders
