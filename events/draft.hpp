// An event before it is appended, and what an append expects of its stream: the values a
// decider (deciders/) produces and the store (events/store.hpp) takes. No I/O here, so that
// the deciders can build events without depending on RocksDB.
#pragma once

#include "schema/tally.capnp.h"

#include <capnp/message.h>

#include <cstdint>
#include <memory>

namespace tally::events {

// What an append expects of its stream before it is applied.
class ExpectedVersion {
 public:
  static ExpectedVersion any() { return ExpectedVersion(Kind::any, 0); }
  static ExpectedVersion no_stream() { return ExpectedVersion(Kind::exact, 0); }
  static ExpectedVersion exactly(std::uint64_t version) {
    return ExpectedVersion(Kind::exact, version);
  }

  // True when a stream currently at `current` (0: no stream yet) satisfies the expectation.
  bool accepts(std::uint64_t current) const { return kind_ == Kind::any || current == version_; }
  // Whether it names one version (a test reads which one with accepts()).
  bool exact() const { return kind_ == Kind::exact; }

 private:
  enum class Kind { any, exact };
  ExpectedVersion(Kind kind, std::uint64_t version) : kind_(kind), version_(version) {}
  Kind kind_;
  std::uint64_t version_;
};

// An event before it is appended: the caller sets the payload, author, supersedes and reason;
// the store stamps seq, stream, version, event id, time and previous hash.
class Draft {
 public:
  Draft();
  // A copy of an event a game built (the store fills its envelope's log fields as usual).
  explicit Draft(schema::Event::Reader event);
  schema::Event::Builder event() { return message_->getRoot<schema::Event>(); }
  schema::Event::Reader reader() const { return message_->getRoot<schema::Event>().asReader(); }

 private:
  friend class EventStore;
  std::unique_ptr<capnp::MallocMessageBuilder> message_;
};

}  // namespace tally::events
