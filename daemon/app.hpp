// tallyd as a whole: opens the store, rebuilds the projections from the log, makes the organizer
// token on first start, serves HTTP and the live feed, and shuts down gracefully.
//
// Thread safety: run() blocks the calling thread until the daemon stops; stop() may be called
// from any thread (the signal handler uses it).
#pragma once

#include "daemon/config.hpp"
#include "projections/game.hpp"

#include <boost/asio/io_context.hpp>

#include <functional>
#include <memory>

namespace tally::daemon {

class IoPool;
class Server;
class Hub;

class App {
 public:
  App(Config config, std::unique_ptr<projections::GameRegistry> games);
  ~App();

  // Serves until SIGINT/SIGTERM or stop(). Throws on a failure to start (store, address).
  void run();
  void stop();

 private:
  // Runs the I/O threads until stop(), then drains (see the comment in app.cpp).
  // `on_drain`: called once when the drain starts (from an I/O thread).
  void serve(IoPool& io, boost::asio::io_context& live_io, Server& server, Hub& hub,
             const std::function<void()>& on_drain);

  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The process: flags, games, logging, exit codes. Shared by tallyd and the test build of it.
int tallyd_main(int argc, char** argv, std::unique_ptr<projections::GameRegistry> games);

}  // namespace tally::daemon
