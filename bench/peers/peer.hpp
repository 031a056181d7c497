// A peer: a server an organizer could use instead of tallyd — Redis Streams or PostgreSQL —
// reached over its own native protocol, with every acknowledged write synced to disk.
//
// Thread safety: a Peer is used from one thread; each Writer and each Subscriber is a connection
// of its own, used by one thread at a time.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

namespace tally::bench {

// One client connection that appends events.
class Writer {
 public:
  virtual ~Writer() = default;
  // Appends one event (the table's stream and the result body) and returns once the peer has
  // acknowledged it, i.e. synced it. Returns the id the subscriber will see for it. Throws
  // std::runtime_error when the peer refuses or the connection fails.
  virtual std::string append(const std::string& stream, const std::string& body) = 0;
};

// One client connection that is told of every appended event, as a venue screen would be.
class Subscriber {
 public:
  virtual ~Subscriber() = default;
  // Waits up to `timeout` for events and calls `on_event(id)` for each one that arrived, in the
  // order the peer delivered them. Returning with none is not an error.
  virtual void poll(std::chrono::milliseconds timeout,
                    const std::function<void(std::string_view id)>& on_event) = 0;
};

class Peer {
 public:
  virtual ~Peer() = default;
  // Checks that the server syncs every acknowledged write (throws if not) and empties the event
  // log. Returns the durability settings read from the server, for the report.
  virtual std::map<std::string, std::string> prepare() = 0;
  virtual std::unique_ptr<Writer> writer() = 0;
  // Subscribed when returned: every event appended afterwards reaches it. Null when this peer
  // tells nobody of its events.
  virtual std::unique_ptr<Subscriber> subscriber() = 0;
};

// Redis Streams: XADD to one stream per tournament (`key`), XREAD BLOCK for the subscriber.
std::unique_ptr<Peer> make_redis_peer(std::string host, int port, std::string key);

// PostgreSQL: INSERT into an `events` table in autocommit, NOTIFY in the same statement,
// LISTEN for the subscriber. `conninfo` is a libpq connection string. Without `notify`: the
// INSERT alone and no subscriber — not a peer of tallyd (nobody is told of a result), but what
// PostgreSQL's group commit does when nothing serializes the commits.
std::unique_ptr<Peer> make_postgres_peer(std::string conninfo, bool notify = true);

}  // namespace tally::bench
