// Which epoch of the log this server holds, and whether a newer one has fenced it
// (docs/operations.md, "Promotion and fencing").
//
// `tallyd promote` appends a `primary_promoted` event with the next epoch to a stopped follower's
// log; from then on the server it followed is a former primary. Every follower request names the
// follower's epoch (`epoch=N`) and every answer the primary's (`Tally-Epoch`): a follower refuses a
// primary of an older epoch, and a primary that hears of a newer epoch than its own is fenced — it
// writes DATA/fenced and takes no write again, across restarts, until the organizer lifts the fence
// (with a reason) or an operator removes the file. Only a standby with the promotion's proof is
// heard (ReplicationSource, promotion_proof.hpp).
//
// Thread safety: every method from any thread.
#pragma once

#include "daemon/live_state.hpp"

#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>

namespace tally::daemon {

class Leadership {
 public:
  // Reads DATA/fenced when it is there.
  Leadership(std::filesystem::path data, const LiveState& state);

  // This log's epoch: how many times its primary has been replaced.
  std::uint64_t epoch() const;

  // What fenced this server: the newer epoch, who told of it and when (ISO time).
  struct Fence {
    std::uint64_t epoch = 0;
    std::string by;
    std::string at;
  };
  std::optional<Fence> fenced() const;

  // A follower `who` of epoch `seen` asked this server for its log. True when `seen` is newer
  // than this log's epoch: this server is a former primary and is fenced from now on.
  bool hear_of(std::uint64_t seen, const std::string& who);

  // The organizer lifts the fence (DELETE /v1/replication/fence, with a reason): DATA/fenced is
  // removed and this server takes writes again. The fence that was lifted, or nullopt when there
  // was none. Throws std::filesystem::filesystem_error when the file cannot be removed (then
  // nothing changes).
  std::optional<Fence> lift(const std::string& reason, const std::string& who);

  static std::filesystem::path fence_file(const std::filesystem::path& data) {
    return data / "fenced";
  }

 private:
  const std::filesystem::path data_;
  const LiveState& state_;
  mutable std::mutex mutex_;
  std::optional<Fence> fence_;  // GUARDED_BY(mutex_)
};

}  // namespace tally::daemon
