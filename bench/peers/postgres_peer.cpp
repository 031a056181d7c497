// PostgreSQL as a peer: every result is one autocommitted statement that inserts the event into
// an `events` table and NOTIFYs its seq; the subscriber LISTENs. Durability is PostgreSQL's
// `synchronous_commit = on` with `fsync = on`: a commit returns once its WAL is flushed (one flush
// serves every commit waiting for it).
#include "peer.hpp"

#include <libpq-fe.h>
#include <sys/select.h>

#include <stdexcept>

namespace tally::bench {

namespace {

struct ConnectionDeleter {
  void operator()(PGconn* c) const { PQfinish(c); }
};
using Connection = std::unique_ptr<PGconn, ConnectionDeleter>;

struct ResultDeleter {
  void operator()(PGresult* r) const { PQclear(r); }
};
using Result = std::unique_ptr<PGresult, ResultDeleter>;

Connection connect(const std::string& conninfo) {
  Connection c(PQconnectdb(conninfo.c_str()));
  if (PQstatus(c.get()) != CONNECTION_OK) {
    throw std::runtime_error("postgres: cannot connect: " + std::string(PQerrorMessage(c.get())));
  }
  return c;
}

// Runs `sql`; throws unless it succeeded.
Result exec(PGconn* c, const std::string& sql) {
  Result r(PQexec(c, sql.c_str()));
  auto status = PQresultStatus(r.get());
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
    throw std::runtime_error("postgres: " + sql + ": " + PQerrorMessage(c));
  }
  return r;
}

std::string show(PGconn* c, const std::string& setting) {
  return PQgetvalue(exec(c, "SHOW " + setting).get(), 0, 0);
}

constexpr const char* kChannel = "tally_events";

// One round trip, one transaction: the insert and its notification (on kChannel) commit
// together, and the notification is delivered only once the commit is durable.
//
// PostgreSQL serializes the commits of transactions that NOTIFY (PreCommit_Notify takes a
// database-wide lock and holds it until the commit, WAL flush included, is done), so with NOTIFY
// every commit waits for a flush of its own. kAppendOnly measures the same insert without it.
constexpr const char* kAppendAndNotify =
    "WITH e AS (INSERT INTO events (stream, body) VALUES ($1, $2::jsonb) RETURNING seq) "
    "SELECT seq, pg_notify('tally_events', seq::text) FROM e";
constexpr const char* kAppendOnly =
    "INSERT INTO events (stream, body) VALUES ($1, $2::jsonb) RETURNING seq";

class PostgresWriter : public Writer {
 public:
  PostgresWriter(Connection c, bool notify) : c_(std::move(c)) {
    Result r(PQprepare(c_.get(), "append", notify ? kAppendAndNotify : kAppendOnly, 2, nullptr));
    if (PQresultStatus(r.get()) != PGRES_COMMAND_OK) {
      throw std::runtime_error("postgres: prepare: " + std::string(PQerrorMessage(c_.get())));
    }
  }

  std::string append(const std::string& stream, const std::string& body) override {
    const char* values[] = {stream.c_str(), body.c_str()};
    Result r(PQexecPrepared(c_.get(), "append", 2, values, nullptr, nullptr, 0));
    if (PQresultStatus(r.get()) != PGRES_TUPLES_OK || PQntuples(r.get()) != 1) {
      throw std::runtime_error("postgres: append: " + std::string(PQerrorMessage(c_.get())));
    }
    return PQgetvalue(r.get(), 0, 0);
  }

 private:
  Connection c_;
};

class PostgresSubscriber : public Subscriber {
 public:
  explicit PostgresSubscriber(Connection c) : c_(std::move(c)) {
    exec(c_.get(), std::string("LISTEN ") + kChannel);
  }

  void poll(std::chrono::milliseconds timeout,
            const std::function<void(std::string_view)>& on_event) override {
    if (drain(on_event) > 0) return;
    int socket = PQsocket(c_.get());
    fd_set readable;
    FD_ZERO(&readable);
    FD_SET(socket, &readable);
    timeval wait{static_cast<time_t>(timeout.count() / 1000),
                 static_cast<suseconds_t>(timeout.count() % 1000 * 1000)};
    if (select(socket + 1, &readable, nullptr, nullptr, &wait) > 0) drain(on_event);
  }

 private:
  int drain(const std::function<void(std::string_view)>& on_event) {
    if (!PQconsumeInput(c_.get())) {
      throw std::runtime_error("postgres: listen: " + std::string(PQerrorMessage(c_.get())));
    }
    int count = 0;
    while (PGnotify* n = PQnotifies(c_.get())) {
      on_event(n->extra);
      PQfreemem(n);
      ++count;
    }
    return count;
  }

  Connection c_;
};

class PostgresPeer : public Peer {
 public:
  PostgresPeer(std::string conninfo, bool notify)
      : conninfo_(std::move(conninfo)), notify_(notify) {}

  std::map<std::string, std::string> prepare() override {
    auto c = connect(conninfo_);
    std::map<std::string, std::string> settings;
    for (const char* name : {"synchronous_commit", "fsync", "wal_sync_method", "server_version"}) {
      settings[name] = show(c.get(), name);
    }
    if (settings["synchronous_commit"] != "on" || settings["fsync"] != "on") {
      throw std::runtime_error("postgres: not durable (needs synchronous_commit on, fsync on)");
    }
    // What an organizer would build: the log in order, an index to read one table's actions.
    exec(c.get(), "DROP TABLE IF EXISTS events");
    exec(c.get(),
         "CREATE TABLE events (seq bigserial PRIMARY KEY, stream text NOT NULL, "
         "body jsonb NOT NULL, at timestamptz NOT NULL DEFAULT now())");
    exec(c.get(), "CREATE INDEX events_by_stream ON events (stream, seq)");
    return settings;
  }

  std::unique_ptr<Writer> writer() override {
    return std::make_unique<PostgresWriter>(connect(conninfo_), notify_);
  }

  std::unique_ptr<Subscriber> subscriber() override {
    if (!notify_) return nullptr;
    return std::make_unique<PostgresSubscriber>(connect(conninfo_));
  }

 private:
  std::string conninfo_;
  bool notify_;
};

}  // namespace

std::unique_ptr<Peer> make_postgres_peer(std::string conninfo, bool notify) {
  return std::make_unique<PostgresPeer>(std::move(conninfo), notify);
}

}  // namespace tally::bench
