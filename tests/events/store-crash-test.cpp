// Kill -9 a process that is appending, many times over, and check that every append it had
// acknowledged is in the log, with its content, and that the hash chain still verifies.
#include "events/store.hpp"
#include "tests/support/temp_dir.hpp"

#include <gtest/gtest.h>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <csignal>
#include <cstdio>
#include <map>
#include <random>

extern char** environ;

namespace tally::events {
namespace {

// Runs the writer on `dir` until it has acknowledged `acks` appends, then SIGKILLs it.
// Returns the acknowledged seq → player lines it printed.
std::map<std::uint64_t, std::string> run_and_kill(const std::string& dir, int run, int acks) {
  int pipe_fds[2];
  EXPECT_EQ(pipe(pipe_fds), 0);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
  std::string run_name = "run" + std::to_string(run);
  char* argv[] = {const_cast<char*>(CRASH_WRITER), const_cast<char*>(dir.c_str()),
                  const_cast<char*>(run_name.c_str()), nullptr};
  pid_t pid = 0;
  EXPECT_EQ(posix_spawn(&pid, CRASH_WRITER, &actions, nullptr, argv, environ), 0);
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);

  std::map<std::uint64_t, std::string> acked;
  FILE* in = fdopen(pipe_fds[0], "r");
  char line[256];
  while (static_cast<int>(acked.size()) < acks && std::fgets(line, sizeof line, in)) {
    unsigned long long seq = 0;
    char player[200];
    if (std::sscanf(line, "%llu %199s", &seq, player) == 2) acked[seq] = player;
  }
  kill(pid, SIGKILL);
  // Lines already written before the kill were acknowledged too.
  while (std::fgets(line, sizeof line, in)) {
    unsigned long long seq = 0;
    char player[200];
    if (std::sscanf(line, "%llu %199s", &seq, player) == 2) acked[seq] = player;
  }
  fclose(in);
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFSIGNALED(status));
  return acked;
}

TEST(EventStoreCrash, EveryAcknowledgedAppendSurvivesSigkill) {
  tally::testing::TempDir dir;
  std::mt19937 rng(20261130);
  std::map<std::uint64_t, std::string> all_acked;
  constexpr int kKills = 6;
  for (int run = 0; run < kKills; ++run) {
    int acks = std::uniform_int_distribution<int>(20, 400)(rng);
    auto acked = run_and_kill(dir.str(), run, acks);
    ASSERT_GE(static_cast<int>(acked.size()), acks);
    all_acked.insert(acked.begin(), acked.end());

    EventStore store(dir.str());
    auto v = store.verify();
    ASSERT_TRUE(v.ok) << "after kill " << run << ": seq " << v.first_bad << ": " << v.problem;
    auto view = store.read_view();
    for (const auto& [seq, player] : all_acked) {
      auto event = view.event(seq);
      ASSERT_TRUE(event.has_value()) << "acknowledged seq " << seq << " lost after kill " << run;
      EXPECT_EQ(std::string(event->event().getPayload().getClaimedWin().getPlayer().cStr()),
                player);
    }
  }
}

}  // namespace
}  // namespace tally::events
