#include "daemon/replication/leadership.hpp"

#include "daemon/log.hpp"
#include "daemon/secrets.hpp"
#include "daemon/api/views.hpp"

#include <boost/json.hpp>

#include <chrono>
#include <fstream>
#include <sstream>

namespace tally::daemon {

namespace {

namespace json = boost::json;

std::optional<Leadership::Fence> read_fence(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  Leadership::Fence fence;
  fence.epoch = 1;  // a file that cannot be read still fences: it was written for a reason
  try {
    auto v = json::parse(text.str()).as_object();
    fence.epoch = v.at("epoch").to_number<std::uint64_t>();
    fence.by = json::value_to<std::string>(v.at("by"));
    fence.at = json::value_to<std::string>(v.at("at"));
  } catch (const std::exception& e) {
    log::warn("the fence file cannot be read; this server stays fenced",
              {{"path", file.string()}, {"error", e.what()}});
  }
  return fence;
}

}  // namespace

Leadership::Leadership(std::filesystem::path data, const LiveState& state)
    : data_(std::move(data)), state_(state), fence_(read_fence(fence_file(data_))) {
  if (fence_) {
    log::error("this server is a former primary: it takes no write (docs/operations.md)",
               {{"epoch", fence_->epoch}, {"by", fence_->by}, {"since", fence_->at}});
  }
}

std::uint64_t Leadership::epoch() const {
  return state_.read([](const LiveState& s) { return s.epoch(); });
}

std::optional<Leadership::Fence> Leadership::fenced() const {
  std::lock_guard lock(mutex_);
  return fence_;
}

bool Leadership::hear_of(std::uint64_t seen, const std::string& who) {
  if (seen <= epoch()) return false;
  std::lock_guard lock(mutex_);
  if (fence_ && fence_->epoch >= seen) return true;
  auto now = std::chrono::duration_cast<std::chrono::microseconds>(
                 std::chrono::system_clock::now().time_since_epoch())
                 .count();
  fence_ = Fence{seen, who, iso_time(now)};
  bool kept = true;
  try {
    write_private_file(fence_file(data_),
                       json::serialize(json::object{
                           {"epoch", fence_->epoch}, {"by", fence_->by}, {"at", fence_->at}}));
  } catch (const std::exception&) {
    kept = false;  // fenced until the process ends all the same
  }
  log::error("a follower has seen a newer primary (epoch " + std::to_string(seen) +
                 "): this server is a former primary and takes no write from now on",
             {{"epoch", seen}, {"by", who}, {"kept_across_restarts", kept}});
  return true;
}

std::optional<Leadership::Fence> Leadership::lift(const std::string& reason,
                                                  const std::string& who) {
  std::lock_guard lock(mutex_);
  if (!fence_) return std::nullopt;
  std::filesystem::remove(fence_file(data_));  // throws: then the fence stays
  auto lifted = std::move(*fence_);
  fence_.reset();
  log::warn("the fence was lifted: this server takes writes again", {{"epoch", lifted.epoch},
                                                                     {"fenced_by", lifted.by},
                                                                     {"since", lifted.at},
                                                                     {"lifted_by", who},
                                                                     {"reason", reason}});
  return lifted;
}

}  // namespace tally::daemon
