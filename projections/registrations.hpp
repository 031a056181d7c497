// Registration before the day (contract rule Q-7, docs/registration.md): who registered, in the
// order they came, and whether each holds a place, waits for one, or was cancelled.
//
//   registered  holds a place: fewer than `rules.capacity` registrations held one when it came
//               (or one was given up later: a cancellation moves the first waiting one up, a
//               raised capacity as many as it adds). A registration turned into a player (a
//               `playerRegistered` with its id) stays registered and is marked `player`.
//   waiting     came when every place was taken; waits in the order it came (position 1, 2 …).
//               At check-in, "drop the absent" moves up as many present waiting registrants as it
//               drops players, in this order (they become players at once).
//   cancelled   by the registrant (with the private key) or the organizer.
//
// Folded by projections::Tournament from its own stream's events; holds no I/O.
//
// Thread safety: a value type (the daemon guards the live tournament with its own lock).
#pragma once

#include "schema/stored_event.hpp"

#include <boost/json/object.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tally::projections {

struct Registration {
  enum class Status { registered, waiting, cancelled };
  std::string id;  // "r<n>"
  std::string name;
  std::string club;
  std::string person;
  std::string email_sealed;  // the sealed e-mail's bytes (empty: none), never the address
  std::string key_hash;      // SHA-256 of the private key (32 bytes)
  std::uint64_t seq = 0;     // the registrationReceived event
  std::int64_t recorded_at = 0;
  Status status = Status::registered;
  bool player = false;  // turned into a player (a player with this id exists)
};

const char* registration_status_name(Registration::Status status);

// The tournament's registration rules, as its `rules` hold them.
bool registration_open(const boost::json::object& rules);
std::uint32_t registration_capacity(const boost::json::object& rules);  // 0: no limit

// The largest capacity accepted (a bound against typos, far beyond any venue).
inline constexpr std::int64_t kMaxCapacity = 100000;

class Registrations {
 public:
  // Every registration, in the order they came.
  const std::vector<Registration>& all() const { return all_; }
  const Registration* find(std::string_view id) const;
  // `rules.registration` is "open": anyone may register (else only the organizer's players).
  bool open() const { return open_; }
  // `rules.capacity`: 0 means no limit.
  std::uint32_t capacity() const { return capacity_; }
  // How many hold a place (registered, players included).
  std::size_t holding() const;
  // The waiting registrations, first in line first.
  std::vector<const Registration*> waiting() const;
  // A waiting registration's place in line (1 = next to move up); 0 when it does not wait.
  std::size_t position(std::string_view id) const;
  // The waiting registration that cancelling `id` would move up, or null (Q-7: only a
  // cancellation of one that holds a place, and only while that frees one under the capacity).
  const Registration* moved_up_by_cancelling(std::string_view id) const;

  // --- folding (projections::Tournament's dispatch) ---
  void received(const schema::RegistrationReceived::Reader& event, std::uint64_t seq,
                std::int64_t recorded_at);
  void cancelled(std::string_view id);
  // The settings from now on; a raised capacity moves up as many waiting ones as it adds (a
  // lowered one moves nobody down).
  void set(bool open, std::uint32_t capacity);
  // A player was registered with this id: a registration (waiting or not) becomes a player.
  void became_player(std::string_view id);

 private:
  // Moves waiting registrations up while a place is free.
  void fill_places();
  Registration* find_mutable(std::string_view id);

  std::vector<Registration> all_;
  bool open_ = false;
  std::uint32_t capacity_ = 0;
};

}  // namespace tally::projections
