#include "daemon/replication/promote.hpp"

#include "daemon/secrets.hpp"
#include "daemon/stopped_store.hpp"
#include "events/store.hpp"

#include <fstream>
#include <iostream>

namespace tally::daemon {

namespace {

constexpr const char* kUsage =
    "usage: tallyd promote --data DIR\n"
    "  With this follower stopped: makes DIR the primary of its log. The server it followed is a\n"
    "  former primary from then on: it is refused by followers and takes no write once it hears\n"
    "  of the promotion.\n";

// The newest epoch in the log's `replication` stream (0: never promoted).
std::uint32_t current_epoch(const events::EventStore& store) {
  std::uint32_t epoch = 0;
  for (const auto& e : store.read_view().stream("replication")) {
    auto payload = e.event().getPayload();
    if (payload.isPrimaryPromoted())
      epoch = std::max(epoch, payload.getPrimaryPromoted().getEpoch());
  }
  return epoch;
}

}  // namespace

std::filesystem::path follows_file(const std::filesystem::path& data) { return data / "follows"; }

std::optional<std::string> read_follows(const std::filesystem::path& data) {
  std::ifstream in(follows_file(data));
  if (!in) return std::nullopt;
  std::string url;
  std::getline(in, url);
  return url;
}

void write_follows(const std::filesystem::path& data, const std::string& primary_url) {
  // Never torn: a torn mark would let the copy start as a primary.
  write_private_file(follows_file(data), primary_url);
}

bool is_promote_command(const std::vector<std::string>& args) {
  return !args.empty() && args[0] == "promote";
}

int run_promote(const std::vector<std::string>& args) {
  if (args.size() != 3 || args[1] != "--data") {
    std::cerr << kUsage;
    return 2;
  }
  const std::filesystem::path data = args[2];
  auto former = read_follows(data);
  if (!former) {
    std::cerr << "tallyd promote: " << data.string()
              << " is not a follower's copy (no follows file): it is a primary already\n";
    return 1;
  }
  auto store = open_stopped_store(data, "promote", "stop the follower first");
  if (!store) return 1;
  const std::uint32_t epoch = current_epoch(*store) + 1;
  events::Draft d;
  d.event().setAuthor("system");
  d.event().setReason("tallyd promote");
  auto promoted = d.event().getPayload().initPrimaryPromoted();
  promoted.setEpoch(epoch);
  promoted.setFormerPrimary(*former);
  events::AppendRequest request;
  request.stream = "replication";
  request.events.push_back(std::move(d));
  auto result = store->append(std::move(request));
  if (result.status != events::AppendStatus::appended) {
    std::cerr << "tallyd promote: the log refused the promotion: " << result.error << "\n";
    return 1;
  }
  std::error_code ec;
  std::filesystem::remove(follows_file(data), ec);
  if (ec) {
    std::cerr << "tallyd promote: promoted (epoch " << epoch << "), but " << follows_file(data)
              << " could not be removed: remove it before starting tallyd\n";
    return 1;
  }
  std::cout << data.string() << " is the primary of its log now (epoch " << epoch << ", "
            << result.last_seq << " events); " << *former << " is a former primary.\n"
            << "Start it without `follow`: tallyd --data " << data.string() << " …\n"
            << "Judges' tokens work as before. If the organizer's token was lost with the old\n"
            << "primary: tallyd reset-organizer --data " << data.string() << "\n"
            << "Point the other followers at this server.\n";
  return 0;
}

}  // namespace tally::daemon
