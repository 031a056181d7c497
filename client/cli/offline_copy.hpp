// The last answers of the reads a result entry needs — the tournament (names, game), its rounds
// (seating, versions) and the games' descriptions (GET /v1/games) — kept on this computer so that
// `tally result enter` can still ask its questions and build its body when the server cannot be
// reached. Public data only (what those GETs answer), in a file beside the config (mode 0600,
// written whole or not at all), bounded: at most kMaxAnswers answers, kMaxBytes in all, the
// oldest dropped first; an answer over kMaxAnswerBytes is not kept.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

namespace tally::cli {

class OfflineCopy {
 public:
  static constexpr std::size_t kMaxAnswers = 64;
  static constexpr std::size_t kMaxAnswerBytes = 1 << 20;
  static constexpr std::size_t kMaxBytes = 8 << 20;

  struct Answer {
    std::string body;
    std::string saved_at;  // ISO-8601 UTC
  };

  explicit OfflineCopy(std::filesystem::path file) : file_(std::move(file)) {}
  // offline-copy.json beside the config file.
  static std::filesystem::path default_path();

  // Whether an answer of GET `target` is one to keep: a tournament, one of its rounds, the games.
  static bool worth_keeping(const std::string& target);

  // Keeps the 200 answer of GET `target` from `server`, replacing an older one. A copy that
  // cannot be written is not worth failing the command for: it is skipped.
  void remember(const std::string& server, const std::string& target, const std::string& body);
  // The kept answer, or nullopt.
  std::optional<Answer> recall(const std::string& server, const std::string& target) const;

 private:
  std::filesystem::path file_;
};

}  // namespace tally::cli
