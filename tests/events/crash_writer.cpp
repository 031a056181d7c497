// A child process for store-crash-test: appends from several threads until killed, printing
// "SEQ PLAYER" for each acknowledged append (one line, flushed, after the ack).
#include "events/store.hpp"

#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s DIR RUN\n", argv[0]);
    return 2;
  }
  tally::events::EventStore store(argv[1]);
  std::string run = argv[2];
  std::mutex out;
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0;; ++i) {
        std::string player = run + "-" + std::to_string(t) + "-" + std::to_string(i);
        tally::events::AppendRequest r;
        r.stream = "crash/" + std::to_string(t);
        tally::events::Draft d;
        d.event().getPayload().initClaimedWin().setPlayer(player);
        r.events.push_back(std::move(d));
        auto result = store.append(std::move(r));
        if (result.status != tally::events::AppendStatus::appended) std::abort();
        std::lock_guard lock(out);
        std::printf("%llu %s\n", static_cast<unsigned long long>(result.first_seq), player.c_str());
        std::fflush(stdout);
      }
    });
  }
  for (auto& th : threads) th.join();
}
