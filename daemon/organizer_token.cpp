#include "daemon/organizer_token.hpp"

#include "daemon/secrets.hpp"
#include "daemon/stopped_store.hpp"
#include "deciders/judges.hpp"
#include "events/sha256.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <iostream>
#include <stdexcept>

namespace tally::daemon {

namespace {

constexpr const char* kUsage =
    "usage: tallyd reset-organizer --data DIR\n"
    "  With tallyd stopped: revokes every organizer token, writes a new one to "
    "DIR/organizer.token\n"
    "  (mode 0600) and prints that path.\n";

}  // namespace

bool is_reset_organizer_command(const std::vector<std::string>& args) {
  return !args.empty() && args[0] == "reset-organizer";
}

int run_reset_organizer(const std::vector<std::string>& args) {
  if (args.size() != 3 || args[1] != "--data") {
    std::cerr << kUsage;
    return 2;
  }
  const std::filesystem::path data = args[2];
  auto store = open_stopped_store(data, "reset-organizer", "stop tallyd first");
  if (!store) return 1;
  // The new token is on disk (beside the old file) before the log says it is the one; the old
  // file is replaced only once the log does, so a failure leaves the old token working.
  std::string token = random_token();
  auto file = data / "organizer.token";
  auto pending = data / "organizer.token.pending";
  try {
    write_private_file(pending, token);
  } catch (const std::exception& e) {
    std::cerr << "tallyd reset-organizer: " << e.what() << "\n";
    return 1;
  }
  events::AppendRequest request;
  request.stream = "judges";
  auto draft = deciders::organizer_token_event(events::sha256(token), "system");
  draft.event().setReason("tallyd reset-organizer");
  request.events.push_back(std::move(draft));
  auto result = store->append(std::move(request));
  if (result.status != events::AppendStatus::appended) {
    ::unlink(pending.c_str());
    std::cerr << "tallyd reset-organizer: the log refused the new token: " << result.error
              << " (the old token still works)\n";
    return 1;
  }
  if (::rename(pending.c_str(), file.c_str()) != 0) {
    std::cerr << "tallyd reset-organizer: the new token is in " << pending.string()
              << " (could not rename it to " << file.string() << ")\n";
    return 1;
  }
  std::cout << "every earlier organizer token is revoked; the new one is in " << file.string()
            << "\n";
  return 0;
}

}  // namespace tally::daemon
