// Redis Streams as a peer: every result is `XADD <tournament> * stream <table stream> body <json>`
// on one connection per writer; the subscriber follows the tournament's stream with XREAD BLOCK.
// Durability is Redis's `appendonly yes` + `appendfsync always`: Redis writes and fsyncs the
// append-only file before it answers (once per event-loop turn, for all clients served in it).
#include "peer.hpp"

#include <hiredis/hiredis.h>

#include <stdexcept>
#include <vector>

namespace tally::bench {

namespace {

struct ReplyDeleter {
  void operator()(redisReply* r) const { freeReplyObject(r); }
};
using Reply = std::unique_ptr<redisReply, ReplyDeleter>;

struct ContextDeleter {
  void operator()(redisContext* c) const { redisFree(c); }
};
using Context = std::unique_ptr<redisContext, ContextDeleter>;

Context connect(const std::string& host, int port) {
  timeval timeout{10, 0};
  Context c(redisConnectWithTimeout(host.c_str(), port, timeout));
  if (!c || c->err) {
    throw std::runtime_error("redis: cannot connect to " + host + ":" + std::to_string(port) +
                             (c ? std::string(": ") + c->errstr : std::string()));
  }
  return c;
}

// Runs a command given as separate arguments (binary-safe); throws on a connection error or an
// error reply.
Reply command(redisContext* c, std::initializer_list<std::string_view> args) {
  std::vector<const char*> argv;
  std::vector<size_t> lengths;
  for (auto a : args) {
    argv.push_back(a.data());
    lengths.push_back(a.size());
  }
  Reply r(static_cast<redisReply*>(
      redisCommandArgv(c, static_cast<int>(argv.size()), argv.data(), lengths.data())));
  if (!r) throw std::runtime_error(std::string("redis: ") + c->errstr);
  if (r->type == REDIS_REPLY_ERROR) throw std::runtime_error("redis: " + std::string(r->str));
  return r;
}

std::string config_get(redisContext* c, const std::string& name) {
  auto r = command(c, {"CONFIG", "GET", name});
  if (r->type != REDIS_REPLY_ARRAY || r->elements != 2) return "";
  return r->element[1]->str;
}

class RedisWriter : public Writer {
 public:
  RedisWriter(Context c, std::string key) : c_(std::move(c)), key_(std::move(key)) {}

  std::string append(const std::string& stream, const std::string& body) override {
    auto r = command(c_.get(), {"XADD", key_, "*", "stream", stream, "body", body});
    return std::string(r->str, r->len);
  }

 private:
  Context c_;
  std::string key_;
};

class RedisSubscriber : public Subscriber {
 public:
  RedisSubscriber(Context c, std::string key) : c_(std::move(c)), key_(std::move(key)) {}

  void poll(std::chrono::milliseconds timeout,
            const std::function<void(std::string_view)>& on_event) override {
    auto r = command(c_.get(), {"XREAD", "COUNT", "10000", "BLOCK", std::to_string(timeout.count()),
                                "STREAMS", key_, last_id_});
    if (r->type != REDIS_REPLY_ARRAY) return;  // nil: nothing arrived in time
    // [[key, [[id, [field, value, …]], …]]]
    const redisReply* entries = r->element[0]->element[1];
    for (size_t i = 0; i < entries->elements; ++i) {
      const redisReply* id = entries->element[i]->element[0];
      on_event(std::string_view(id->str, id->len));
      last_id_.assign(id->str, id->len);
    }
  }

 private:
  Context c_;
  std::string key_;
  std::string last_id_ = "0-0";  // the stream is emptied by prepare(): read it from its start
};

class RedisPeer : public Peer {
 public:
  RedisPeer(std::string host, int port, std::string key)
      : host_(std::move(host)), port_(port), key_(std::move(key)) {}

  std::map<std::string, std::string> prepare() override {
    auto c = connect(host_, port_);
    std::map<std::string, std::string> settings{
        {"appendonly", config_get(c.get(), "appendonly")},
        {"appendfsync", config_get(c.get(), "appendfsync")}};
    if (settings["appendonly"] != "yes" || settings["appendfsync"] != "always") {
      throw std::runtime_error("redis: not durable (needs appendonly yes, appendfsync always)");
    }
    auto info = command(c.get(), {"INFO", "server"});
    std::string text(info->str, info->len);
    auto at = text.find("redis_version:");
    if (at != std::string::npos) {
      settings["version"] = text.substr(at + 14, text.find('\r', at) - at - 14);
    }
    command(c.get(), {"DEL", key_});
    return settings;
  }

  std::unique_ptr<Writer> writer() override {
    return std::make_unique<RedisWriter>(connect(host_, port_), key_);
  }

  std::unique_ptr<Subscriber> subscriber() override {
    return std::make_unique<RedisSubscriber>(connect(host_, port_), key_);
  }

 private:
  std::string host_;
  int port_;
  std::string key_;
};

}  // namespace

std::unique_ptr<Peer> make_redis_peer(std::string host, int port, std::string key) {
  return std::make_unique<RedisPeer>(std::move(host), port, std::move(key));
}

}  // namespace tally::bench
