// What a decider answers: the events a command appends to one stream, with the version of that
// stream they were decided on — or why the command is refused. The decide side of event
// sourcing; the projections (projections/) are the evolve side that folds the events back into
// the state the next command is decided on.
//
// A decider is a pure function `decide(state, command, actor)`: no I/O, no clock (a time comes
// in the command), no HTTP. The daemon turns a Refusal into an answer with one table
// (daemon/http/refusal_answer.hpp: kind → status) and appends what was accepted only while the
// stream is still at the version decided on; when it moved, the command is decided again.
#pragma once

#include "events/draft.hpp"
#include "i18n/message.hpp"

#include <boost/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace tally::deciders {

// Who gives the command: the author of its events.
struct Actor {
  std::string id;          // a judge's id, "organizer", a replica's id
  bool organizer = false;  // the organizer may do what a judge may not (void a seating …)
};

// Why a command is refused, by what the caller can do about it.
enum class RefusalKind {
  not_found,      // what the command names does not exist
  forbidden,      // this actor may not do it (another could)
  conflict,       // the state does not allow it now (a round not the last, tables unreported)
  precondition,   // the caller's idea of the state is out of date (If-Match, If-None-Match)
  unprocessable,  // the command itself is wrong (a field, a rule of the game)
};

// One error of a refusal, at a field of the request: the machine fields (never translated) and
// a message for people, rendered in the reader's language when the answer is made.
struct RefusalError {
  std::string rule;
  std::string player;  // the id (the message names the player by name)
  std::string field;
  i18n::Message message;
  boost::json::object extra = {};  // members beside those ("tables", "accepted", …)
  bool operator==(const RefusalError&) const = default;
};

struct Refusal {
  RefusalKind kind;
  i18n::Message message;  // the answer's `detail`
  std::vector<RefusalError> errors = {};
  // The version of the stream the refusal was decided on, for a precondition's ETag.
  std::optional<std::uint64_t> current_version = std::nullopt;
  bool operator==(const Refusal&) const = default;
};

// The events to append, all to one stream, appended only while that stream is still as
// `expected`. No events: the command is accepted and changes nothing (dropping the absent when
// nobody is absent); it is answered without an append.
struct Append {
  std::string stream;
  events::ExpectedVersion expected = events::ExpectedVersion::any();
  std::vector<events::Draft> events;
};

// No facts beside the events.
struct NoFacts {};

// What was accepted: the append, and what the command found out deciding it that its answer
// needs and the events do not say (`Facts`, e.g. that a result replaced another).
template <typename Facts = NoFacts>
struct Accepted {
  Append append;
  Facts facts = {};
};

// Either the events or the refusal.
template <typename Facts = NoFacts>
class Decision {
 public:
  Decision(Refusal refusal) : value_(std::move(refusal)) {}  // NOLINT: a refusal is a decision
  Decision(Accepted<Facts> accepted) : value_(std::move(accepted)) {}      // NOLINT
  Decision(Append append) : value_(Accepted<Facts>{std::move(append)}) {}  // NOLINT

  bool refused() const { return std::holds_alternative<Refusal>(value_); }
  const Refusal& refusal() const { return std::get<Refusal>(value_); }
  const Accepted<Facts>& accepted() const { return std::get<Accepted<Facts>>(value_); }
  Accepted<Facts>& accepted() { return std::get<Accepted<Facts>>(value_); }

 private:
  std::variant<Refusal, Accepted<Facts>> value_;
};

// A draft authored by `actor`, with `reason` when one is given.
inline events::Draft authored(const Actor& actor, const std::string& reason = "") {
  events::Draft d;
  d.event().setAuthor(actor.id);
  if (!reason.empty()) d.event().setReason(reason);
  return d;
}

// One event to `stream` at `expected`.
inline Append one_event(std::string stream, events::ExpectedVersion expected, events::Draft event) {
  Append a{std::move(stream), expected, {}};
  a.events.push_back(std::move(event));
  return a;
}

}  // namespace tally::deciders
