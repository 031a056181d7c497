#include "daemon/app.hpp"

#include "daemon/api/api.hpp"
#include "daemon/api/routes_command.hpp"
#include "daemon/archive_commands.hpp"
#include "daemon/http/dispatcher.hpp"
#include "daemon/http/pages.hpp"
#include "daemon/http/server.hpp"
#include "daemon/http/tls.hpp"
#include "daemon/live/live.hpp"
#include "daemon/log.hpp"
#include "daemon/organizer_token.hpp"
#include "daemon/replay.hpp"
#include "daemon/replication/follower.hpp"
#include "daemon/replication/promote.hpp"
#include "daemon/replication/replication_source.hpp"
#include "daemon/secrets.hpp"
#include "events/sha256.hpp"
#include "events/store.hpp"
#include "net/http_client.hpp"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>
#include <variant>

namespace tally::daemon {

namespace net = boost::asio;

namespace {

// The organizer's token: read from DATA/organizer.token when the file exists (an operator may
// have placed one), otherwise created there with mode 0600. Only its hash enters the log.
std::string organizer_token(const std::filesystem::path& file) {
  if (std::filesystem::exists(file)) {
    std::ifstream in(file);
    std::string token;
    std::getline(in, token);
    if (!token.empty()) return token;
  }
  std::string token = random_token();
  write_private_file(file, token);
  return token;
}

// The follower of config.follow, when set (not started yet); null on a primary. A follower's copy
// is marked (DATA/follows), and a marked copy starts as a primary only once promoted: started as
// one by mistake, it would take writes its primary never sees.
std::unique_ptr<Follower> make_follower(const Config& config, events::EventStore& store,
                                        const Leadership& leadership) {
  const std::filesystem::path data(config.data);
  if (config.follow.empty()) {
    if (auto primary = read_follows(data)) {
      throw ConfigError(data.string() + " is a follower's copy of " + *primary +
                        ": start it with follow = " + *primary +
                        ", or make it the primary with `tallyd promote --data " + data.string() +
                        "` (tallyd stopped)");
    }
    return nullptr;
  }
  auto parsed = tally::net::parse_server_address(config.follow);
  if (auto* problem = std::get_if<tally::net::AddressProblem>(&parsed)) {
    throw ConfigError("follow: not a server address (" + problem->key + "): " + config.follow);
  }
  if (config.follow_token_file.empty()) {
    throw ConfigError("follow needs follow_token_file: the replica token (POST /v1/replicas)");
  }
  std::ifstream in(config.follow_token_file);
  std::string token;
  std::getline(in, token);
  if (token.empty())
    throw ConfigError("follow_token_file holds no token: " + config.follow_token_file);
  auto address = std::get<tally::net::ServerAddress>(parsed);
  auto tls = address.tls ? tally::net::client_tls(config.follow_ca_file) : nullptr;
  log::info("following a primary", {{"primary", address.url}});
  write_follows(data, address.url);
  return std::make_unique<Follower>(store, leadership, data, address, token, tls);
}

void ensure_organizer(events::EventStore& store, const LiveState& state,
                      const std::filesystem::path& data) {
  bool has_organizer = state.read([](const LiveState& s) {
    for (const auto& j : s.judges()) {
      if (j.role == Role::organizer && !j.revoked) return true;
    }
    return false;
  });
  auto file = data / "organizer.token";
  if (has_organizer) {
    // Deleting the file revokes nothing: the token in the log still works. Say what does.
    if (!std::filesystem::exists(file)) {
      log::warn(
          "no organizer.token in the data directory; the organizer token in the log still "
          "works. To replace it: tallyd reset-organizer --data DIR (server stopped) or "
          "POST /v1/organizer/token",
          {{"path", file.string()}});
    }
    return;
  }
  std::string token = organizer_token(file);
  events::Draft d;
  d.event().setAuthor("system");
  auto added = d.event().getPayload().initJudgeAdded();
  added.setId("organizer");
  added.setName("Organizer");
  added.setRole(schema::Role::ORGANIZER);
  auto hash = events::sha256(token);
  added.setTokenHash(capnp::Data::Reader(hash.data(), hash.size()));
  events::AppendRequest request;
  request.stream = "judges";
  request.events.push_back(std::move(d));
  auto result = store.append(std::move(request));
  if (result.status != events::AppendStatus::appended) {
    throw std::runtime_error("cannot record the organizer token: " + result.error);
  }
  log::info("organizer token created", {{"path", file.string()}});
}

}  // namespace

struct App::Impl {
  Config config;
  std::unique_ptr<projections::GameRegistry> games;
  std::atomic<bool> stopping{false};
};

App::App(Config config, std::unique_ptr<projections::GameRegistry> games)
    : impl_(std::make_unique<Impl>()) {
  impl_->config = std::move(config);
  impl_->games = std::move(games);
}

App::~App() = default;

namespace {

// Every screen and judge is a socket: allow as many as the system lets this process have, and
// fit the connection limits to that.
void raise_open_files_limit(Config& config) {
  rlimit files{};
  if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
    files.rlim_cur = files.rlim_max;
    setrlimit(RLIMIT_NOFILE, &files);
  }
  if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur != RLIM_INFINITY) {
    fit_connections_to_open_files(config, static_cast<std::size_t>(files.rlim_cur));
  }
}

// Where the store is, and whether it can be written.
struct StoreLocation {
  std::filesystem::path dir;
  bool read_only = false;
};

// Makes the data directory (owner only) unless the store is on a read-only file system (a
// failing disk remounted read-only, a backup on read-only media): that one is served for
// reading, every write answering 503 saying why.
StoreLocation prepare_data_dir(const std::filesystem::path& data) {
  StoreLocation at{data / "store", false};
  at.read_only = std::filesystem::exists(at.dir) && ::access(at.dir.c_str(), W_OK) != 0;
  if (at.read_only) {
    log::warn("the data directory is not writable: serving reads only, every write answers 503",
              {{"path", at.dir.string()}});
    return at;
  }
  std::filesystem::create_directories(data);
  std::filesystem::permissions(data, std::filesystem::perms::owner_all,
                               std::filesystem::perm_options::replace);
  return at;
}

// Folds the whole log into the projections, logging the progress of a long replay.
void rebuild_projections(events::EventStore& store, LiveState& state) {
  auto started = std::chrono::steady_clock::now();
  std::uint64_t replayed = replay(store, state, [](const ReplayProgress& p) {
    log::info("replaying the log", {{"events", p.events}, {"of", p.total}});
  });
  std::chrono::duration<double> took = std::chrono::steady_clock::now() - started;
  log::info("projections rebuilt", {{"events", replayed}, {"seconds", took.count()}});
}

// A live feed's request let in: the tournament, `since`, and the hash of the caller's token
// when it identified someone.
using Admitted =
    std::tuple<std::string, std::optional<std::uint64_t>, std::optional<schema::Digest>>;
using LiveAdmission =
    std::function<std::variant<Response, Admitted>(Request&, const std::string& remote)>;

// Who may open the live feed, and of what: the route, the caller's token and access, `since`.
LiveAdmission live_admission(const Router& router, Dispatcher& dispatcher, const LiveState& state) {
  return [&router, &dispatcher, &state](
             Request& request, const std::string& remote) -> std::variant<Response, Admitted> {
    auto match = router.match(http::verb::get, path_of(request.target()));
    auto t = match.params.find("t");
    // A refusal's language (the tournament is read only for a refusal, and only without a usable
    // Accept-Language).
    auto audience = [&] {
      return Audience{answer_language(request, state, t == match.params.end() ? "" : t->second)};
    };
    if (match.route == nullptr || !match.route->upgrade) {
      return problem(request, audience(), http::status::not_found,
                     i18n::Message("api.live.wrong_path", {{"path", "/v1/tournaments/{t}/live"}}));
    }
    std::string tournament = match.params.at("t");
    Caller caller = dispatcher.identify(request, remote);
    const bool replica = caller.identity.authenticated() && caller.identity.role == Role::replica;
    if (caller.bad_token || replica || !dispatcher.may_read(caller)) {
      return problem(request, audience(), http::status::unauthorized, "api.live.token_needed");
    }
    if (auto refusal = table_token_refusal(caller.identity, Access::public_read, match.params,
                                           dispatcher.public_reads())) {
      return problem(request, audience(), http::status::forbidden, refusal->message, {*refusal});
    }
    auto query = parse_query(request.target());
    std::optional<std::uint64_t> since;
    if (auto it = query.find("since"); it != query.end()) {
      since = parse_number(it->second);
      if (!since) {
        return problem(request, audience(), http::status::bad_request, "api.live.since");
      }
    }
    return Admitted(tournament, since,
                    caller.identity.authenticated() ? caller.token_hash : std::nullopt);
  };
}

// The upgrades to the live feed, plain and over TLS: admitted, then handed to the hub.
// REQUIRES: `hub` outlives the server (run() resets the server first).
UpgradeHandlers live_upgrades(LiveAdmission admit, Hub& hub) {
  UpgradeHandlers upgrade;
  upgrade.plain = [admit, hub = &hub](net::ip::tcp::socket& socket, Request& request,
                                      const std::string& remote,
                                      ConnectionSlot slot) -> std::optional<Response> {
    auto admitted = admit(request, remote);
    if (auto* refusal = std::get_if<Response>(&admitted)) return std::move(*refusal);
    const auto& [tournament, since, holder] = std::get<Admitted>(admitted);
    return hub->accept(socket, request, tournament, since, std::move(slot), holder);
  };
  upgrade.tls = [admit, hub = &hub](beast::ssl_stream<beast::tcp_stream>& stream, Request& request,
                                    const std::string& remote,
                                    ConnectionSlot slot) -> std::optional<Response> {
    auto admitted = admit(request, remote);
    if (auto* refusal = std::get_if<Response>(&admitted)) return std::move(*refusal);
    const auto& [tournament, since, holder] = std::get<Admitted>(admitted);
    return hub->accept(stream, request, tournament, since, std::move(slot), holder);
  };
  return upgrade;
}

// The gauges /metrics reads when asked: connections, screens, refusals, the standby, the fence.
// Weak: a scrape during shutdown finds the server or the hub gone and reads 0.
void watch_gauges(Metrics& metrics, const std::shared_ptr<Server>& server,
                  const std::shared_ptr<Hub>& hub, StandbyAcks& standby_acks,
                  Leadership& leadership) {
  metrics.read_gauges_from(
      {.open_connections = [weak = std::weak_ptr<Server>(server)]() -> std::size_t {
         auto alive = weak.lock();
         return alive ? alive->connections() : 0;
       },
       .http_connections = [weak = std::weak_ptr<Server>(server)]() -> std::size_t {
         auto alive = weak.lock();
         return alive ? alive->http_connections() : 0;
       },
       .live_clients = [weak = std::weak_ptr<Hub>(hub)]() -> std::size_t {
         auto alive = weak.lock();
         return alive ? alive->sessions() : 0;
       },
       .refused_connections =
           [weak = std::weak_ptr<Server>(server)] {
             std::vector<std::pair<std::string, std::uint64_t>> out;
             if (auto alive = weak.lock()) {
               for (auto r : {Admission::Refusal::max_connections, Admission::Refusal::per_address,
                              Admission::Refusal::reserved}) {
                 out.emplace_back(Admission::name(r), alive->admission().refused(r));
               }
             }
             return out;
           },
       .standby = standby_acks.enabled()
                      ? std::function([&standby_acks] { return standby_acks.state(); })
                      : nullptr,
       .fenced = [&leadership] { return leadership.fenced().has_value(); }});
}

// Says where the server listens: in the log at once (an operator is watching for it) and in
// config.ready_file (written whole: a reader never sees half an address).
void announce_listening(const Server& server, const Config& config) {
  auto endpoint = server.local_endpoint();
  std::string address = endpoint.address().to_string() + ":" + std::to_string(endpoint.port());
  log::info("listening",
            {{"address", address}, {"threads", config.threads}, {"data", config.data}});
  log::flush();
  if (!config.ready_file.empty()) {
    std::ofstream(config.ready_file + ".tmp") << address << "\n";
    std::filesystem::rename(config.ready_file + ".tmp", config.ready_file);
  }
}

}  // namespace

void App::run() {
  Impl& app = *impl_;
  raise_open_files_limit(app.config);
  const Config& config = app.config;
  // The API's I/O threads (a context each) and one context for the live screens, so that a
  // judge's answer never waits behind the fan-out of an update to a thousand screens. Both are
  // destroyed explicitly at the end, before the objects their pending handlers refer to.
  std::optional<IoPool> io_holder(std::in_place, config.threads);
  std::optional<net::io_context> live_io_holder(std::in_place,
                                                static_cast<int>(config.live_threads));
  IoPool& io = *io_holder;
  net::io_context& live_io = *live_io_holder;
  std::filesystem::path data(config.data);
  const StoreLocation at = prepare_data_dir(data);
  events::EventStore store(at.dir.string(),
                           events::StoreOptions{.read_only = at.read_only,
                                                .min_free_bytes = config.min_free_space_mib << 20});
  LiveState state(*app.games);
  rebuild_projections(store, state);

  // The store's subscribers, in the order an appended event reaches them: the projections, the
  // live screens, the followers waiting for it.
  Metrics metrics;
  auto hub = std::make_shared<Hub>(live_io, state, store, config);
  store.subscribe([&state](const schema::StoredEvent& e) { state.apply(e); });
  auto hub_subscription = store.subscribe([hub](const schema::StoredEvent& e) { hub->publish(e); });
  Leadership leadership(data, state);
  StandbyAcks standby_acks({.required = config.replicas_ack,
                            .timeout = config.replicas_ack_timeout,
                            .continue_alone = config.replicas_ack_alone});
  ReplicationSource replication(store, leadership, standby_acks);
  auto replication_subscription = store.subscribe(
      [&replication](const schema::StoredEvent& e) { replication.appended(e.seq()); });
  // A follower writes nothing of its own: its organizer is the primary's, in the copied log.
  std::unique_ptr<Follower> follower = make_follower(config, store, leadership);
  if (!follower) ensure_organizer(store, state, data);

  // The routes: the API, the pages, and the live feed (a WebSocket; reads may need a token).
  Router router;
  const TableKeys table_keys = TableKeys::load_or_create(data);
  Api api(store, state, *app.games, metrics, config, table_keys,
          ReplicationRole{replication, leadership, standby_acks, follower.get()});
  api.add_routes(router);
  Pages pages(config.web_root);
  pages.add_routes(router);
  router.add_upgrade(Api::kLiveFeedRoute, Api::kLiveFeedAccess);
  Dispatcher dispatcher(router, state, metrics, config, table_keys);

  std::unique_ptr<net::ssl::context> tls;
  if (!config.tls_cert.empty()) tls = make_tls_context(config.tls_cert, config.tls_key);
  auto server = std::make_shared<Server>(
      io, config, dispatcher, live_upgrades(live_admission(router, dispatcher, state), *hub),
      tls.get());
  watch_gauges(metrics, server, hub, standby_acks, leadership);
  server->start();
  announce_listening(*server, config);

  if (follower) follower->start();
  serve(io, live_io, *server, *hub, [&replication, &standby_acks] {
    replication.release_all();
    standby_acks.release_all();
  });
  if (follower) follower->stop();  // before what its events reach (the hub, the projections) goes
  api.finish_background_work();
  // Appends still queued (a drain that ran out of time) are answered now, while the Api and the
  // I/O contexts their completions post to still exist; the posted answers are then dropped.
  store.flush();
  store.unsubscribe(hub_subscription);
  store.unsubscribe(replication_subscription);
  server.reset();
  hub.reset();
  live_io_holder.reset();  // drops the handlers still queued while what they refer to is alive
  io_holder.reset();
  log::info("stopped", {{"seq", store.head().seq}});
}

void App::serve(IoPool& io, net::io_context& live_io, Server& server, Hub& hub,
                const std::function<void()>& on_drain) {
  auto live_work = net::make_work_guard(live_io);
  net::signal_set signals(io.first(), SIGINT, SIGTERM);
  signals.async_wait([this](boost::system::error_code ec, int signal) {
    if (!ec) log::info("signal received; shutting down", {{"signal", signal}});
    if (!ec) stop();
  });

  // Graceful: stop accepting, let answers in flight finish and close live clients with 1001 —
  // bounded by a deadline; run() then lets the store finish what it queued (store.flush()).
  net::steady_timer drain(io.first());
  auto deadline = std::make_shared<std::chrono::steady_clock::time_point>();
  std::function<void()> wait_for_drain = [&] {
    drain.expires_after(std::chrono::milliseconds(50));
    drain.async_wait([&](boost::system::error_code) {
      if (!impl_->stopping) return wait_for_drain();
      if (*deadline == std::chrono::steady_clock::time_point{}) {
        *deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        signals.cancel();
        server.stop();
        hub.close_all();
        on_drain();  // followers waiting for events are answered now, not at their timeout
      }
      if (server.connections() == 0 || std::chrono::steady_clock::now() > *deadline) {
        live_work.reset();
        live_io.stop();
        io.stop();
        return;
      }
      wait_for_drain();
    });
  };
  wait_for_drain();

  auto worker = [](net::io_context& context) {
    for (;;) {
      try {
        context.run();
        return;
      } catch (const std::exception& e) {
        log::error("uncaught exception in an I/O thread", {{"error", e.what()}});
      }
    }
  };
  std::vector<std::thread> live_threads;
  for (unsigned i = 0; i < impl_->config.live_threads; ++i)
    live_threads.emplace_back(worker, std::ref(live_io));
  io.run(worker);
  for (auto& t : live_threads) t.join();
}

void App::stop() { impl_->stopping = true; }

int tallyd_main(int argc, char** argv, std::unique_ptr<projections::GameRegistry> games) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (is_archive_command(args)) return run_archive_command(args);
  if (is_reset_organizer_command(args)) return run_reset_organizer(args);
  if (is_promote_command(args)) return run_promote(args);
  if (is_routes_command(args)) return run_routes_command(args);
  for (const auto& a : args) {
    if (a == "--help" || a == "-h") {
      std::cout << "tallyd — tournament scoring server\n\n"
                   "usage: tallyd [--config FILE] [--KEY VALUE …]\n"
                   "       tallyd export [--data DIR] [--out FILE]\n"
                   "       tallyd import --data NEWDIR [--in FILE]\n"
                   "       tallyd reset-organizer --data DIR   (stopped) a new organizer token\n"
                   "       tallyd promote --data DIR           (a stopped follower) the primary "
                   "now\n"
                   "       tallyd routes [--markdown]          the API's routes and who may use "
                   "them\n\n"
                   "Every setting is a flag `--key value` (`-` or `_` in the key) and a line\n"
                   "`key = value` of the --config file; a flag wins over the file.\n"
                   "See docs/configuration.md.\n\n"
                << settings_help();
      return 0;
    }
  }
  try {
    Config config = Config::from_args(args);
    App app(std::move(config), std::move(games));
    app.run();
    return 0;
  } catch (const ConfigError& e) {
    log::error("bad configuration", {{"error", e.what()}});
    return 2;
  } catch (const std::exception& e) {
    log::error("tallyd cannot run", {{"error", e.what()}});
    return 1;
  }
}

}  // namespace tally::daemon
