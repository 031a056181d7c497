#include "client/cli/offline_copy.hpp"

#include "client/cli/exit_codes.hpp"
#include "client/cli/private_file.hpp"
#include "client/cli/settings.hpp"
#include "client/cli/views.hpp"

#include <boost/json.hpp>

#include <regex>

namespace tally::cli {

namespace fs = std::filesystem;
namespace json = boost::json;

namespace {

// The answers kept, oldest first; an unreadable or foreign file counts as empty (it is a copy:
// the server has the originals).
json::array load(const fs::path& file) {
  std::optional<std::string> text;
  try {
    text = read_whole_file(file);
  } catch (const Failure&) {
    return {};
  }
  if (!text) return {};
  boost::system::error_code ec;
  json::value v = json::parse(*text, ec);
  if (ec || !v.is_object() || !v.as_object().contains("answers") || !v.at("answers").is_array()) {
    return {};
  }
  return v.at("answers").as_array();
}

bool same(const json::value& answer, const std::string& server, const std::string& target) {
  return answer.is_object() && answer.as_object().contains("server") &&
         answer.as_object().contains("target") && answer.at("server") == server.c_str() &&
         answer.at("target") == target.c_str();
}

}  // namespace

fs::path OfflineCopy::default_path() { return config_path().parent_path() / "offline-copy.json"; }

bool OfflineCopy::worth_keeping(const std::string& target) {
  static const std::regex kKept(R"(/v1/games|/v1/tournaments/[^/?#]+(/rounds/[0-9]+)?)");
  return std::regex_match(target, kKept);
}

void OfflineCopy::remember(const std::string& server, const std::string& target,
                           const std::string& body) {
  if (body.size() > kMaxAnswerBytes) return;
  try {
    ensure_private_directory(file_.parent_path());
    FileLock lock(fs::path(file_) += ".lock");
    json::array answers = load(file_);
    json::array kept;
    for (auto& a : answers) {
      if (!same(a, server, target)) kept.push_back(std::move(a));
    }
    kept.push_back(json::object{
        {"server", server}, {"target", target}, {"saved_at", utc_now()}, {"body", body}});
    // Bounded: the oldest go first.
    auto size = [&] {
      std::size_t bytes = 0;
      for (const auto& a : kept) bytes += a.at("body").as_string().size();
      return bytes;
    };
    while (kept.size() > kMaxAnswers || size() > kMaxBytes) kept.erase(kept.begin());
    write_private_file(file_, json::serialize(json::object{{"format", 1}, {"answers", kept}}));
  } catch (const Failure&) {
    // A copy that cannot be written leaves the older one; the command itself went well.
  }
}

std::optional<OfflineCopy::Answer> OfflineCopy::recall(const std::string& server,
                                                       const std::string& target) const {
  for (const auto& a : load(file_)) {
    if (!same(a, server, target)) continue;
    const auto& o = a.as_object();
    if (!o.contains("body") || !o.at("body").is_string()) return std::nullopt;
    return Answer{std::string(o.at("body").as_string()), text_member(o, "saved_at")};
  }
  return std::nullopt;
}

}  // namespace tally::cli
