#include "client/cli/outbox.hpp"

#include "client/cli/exit_codes.hpp"
#include "client/cli/private_file.hpp"
#include "client/cli/session.hpp"
#include "client/cli/settings.hpp"
#include "client/cli/views.hpp"
#include "encoding/hex.hpp"

#include <openssl/evp.h>

#include <algorithm>
#include <cstdlib>

#include <pwd.h>
#include <unistd.h>

namespace tally::cli {

namespace fs = std::filesystem;
namespace json = boost::json;

namespace {

constexpr int kFormat = 1;

struct Contents {
  std::uint64_t next_id = 1;
  std::vector<OutboxEntry> entries;
};

Failure unreadable(const fs::path& file, const std::string& problem) {
  return usage_error(
      i18n::Message("cli.outbox.unreadable", {{"path", file.string()}, {"problem", problem}}));
}

std::string text_of(const json::object& o, const char* key) {
  auto it = o.find(key);
  return it != o.end() && it->value().is_string() ? std::string(it->value().as_string()) : "";
}

json::object to_json(const OutboxEntry& e) {
  json::object precondition;
  if (e.correction()) {
    precondition["If-Match"] = "\"" + e.if_match + "\"";
  } else {
    precondition["If-None-Match"] = "*";
  }
  return {{"id", e.id},
          {"server", e.server},
          {"tournament", e.tournament},
          {"round", e.round},
          {"table", e.table},
          {"body", e.body},
          {"idempotency_key", e.idempotency_key},
          {"precondition", precondition},
          {"entered_at", e.entered_at},
          {"entered_by", json::object{{"user", e.entered_by}, {"token", e.token}}}};
}

OutboxEntry from_json(const json::value& v) {
  const json::object& o = v.as_object();
  OutboxEntry e;
  e.id = o.at("id").to_number<std::uint64_t>();
  e.server = text_of(o, "server");
  e.tournament = text_of(o, "tournament");
  e.round = o.at("round").to_number<std::uint64_t>();
  e.table = o.at("table").to_number<std::uint64_t>();
  e.body = o.at("body").as_object();
  e.idempotency_key = text_of(o, "idempotency_key");
  std::string if_match = text_of(o.at("precondition").as_object(), "If-Match");
  if (if_match.size() >= 2 && if_match.front() == '"' && if_match.back() == '"') {
    if_match = if_match.substr(1, if_match.size() - 2);
  }
  e.if_match = if_match;
  e.entered_at = text_of(o, "entered_at");
  if (auto by = o.if_contains("entered_by"); by != nullptr && by->is_object()) {
    e.entered_by = text_of(by->as_object(), "user");
    e.token = text_of(by->as_object(), "token");
  }
  if (e.server.empty() || e.tournament.empty() || e.idempotency_key.empty()) {
    throw std::invalid_argument("an entry lacks its server, tournament or key");
  }
  return e;
}

Contents load(const fs::path& file) {
  Contents contents;
  std::optional<std::string> text = read_whole_file(file);
  if (!text) return contents;
  boost::system::error_code ec;
  json::value v = json::parse(*text, ec);
  if (ec) throw unreadable(file, ec.message());
  try {
    const json::object& o = v.as_object();
    if (o.at("format").to_number<int>() != kFormat) throw std::invalid_argument("unknown format");
    contents.next_id = o.at("next_id").to_number<std::uint64_t>();
    for (const auto& e : o.at("entries").as_array()) contents.entries.push_back(from_json(e));
  } catch (const std::exception& e) {
    throw unreadable(file, e.what());
  }
  return contents;
}

std::string serialize(const Contents& contents) {
  json::array entries;
  for (const auto& e : contents.entries) entries.push_back(to_json(e));
  return json::serialize(json::object{
      {"format", kFormat}, {"next_id", contents.next_id}, {"entries", std::move(entries)}});
}

// Reads, changes and rewrites the outbox under the lock every `tally` process takes for it.
template <typename Change>
auto transaction(const fs::path& file, Change change) {
  ensure_private_directory(file.parent_path());
  FileLock lock(fs::path(file) += ".lock");
  Contents contents = load(file);
  auto outcome = change(contents);
  if (outcome) write_private_file(file, serialize(contents));
  return outcome;
}

}  // namespace

std::string OutboxEntry::target() const { return table_path(tournament, round, table) + "/result"; }

std::map<std::string, std::string> OutboxEntry::headers() const {
  std::map<std::string, std::string> out{{"Idempotency-Key", idempotency_key}};
  if (correction()) {
    out["If-Match"] = "\"" + if_match + "\"";
  } else {
    out["If-None-Match"] = "*";
  }
  return out;
}

fs::path Outbox::default_path() { return config_path().parent_path() / "outbox.json"; }

std::vector<OutboxEntry> Outbox::entries() const {
  if (!fs::exists(file_)) return {};
  FileLock lock(fs::path(file_) += ".lock");
  return load(file_).entries;
}

OutboxEntry Outbox::add(OutboxEntry entry) {
  transaction(file_, [&](Contents& contents) {
    entry.id = contents.next_id;
    contents.entries.push_back(entry);
    if (contents.entries.size() > kMaxEntries || serialize(contents).size() > kMaxBytes) {
      throw Failure(kUnavailable, i18n::Message("cli.outbox.full", {{"entries", kMaxEntries},
                                                                    {"path", file_.string()}}));
    }
    ++contents.next_id;
    return true;
  });
  return entry;
}

bool Outbox::replace(const OutboxEntry& entry) {
  return transaction(file_, [&](Contents& contents) {
    for (auto& e : contents.entries) {
      if (e.id == entry.id) {
        e = entry;
        return true;
      }
    }
    return false;
  });
}

bool Outbox::remove(std::uint64_t id) {
  return transaction(file_, [&](Contents& contents) {
    for (auto it = contents.entries.begin(); it != contents.entries.end(); ++it) {
      if (it->id == id) {
        contents.entries.erase(it);
        return true;
      }
    }
    return false;
  });
}

std::string token_fingerprint(const std::string& token) {
  if (token.empty()) return "";
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_Digest(token.data(), token.size(), digest, &length, EVP_sha256(), nullptr) != 1) {
    return "";
  }
  // The first 6 bytes: enough to tell tokens apart, too few to be one.
  return "sha256:" + encoding::hex_encode(std::span(digest, std::min(length, 6u)));
}

std::string local_user() {
  if (const char* user = std::getenv("USER"); user != nullptr && *user != '\0') return user;
  if (const passwd* pw = getpwuid(getuid()); pw != nullptr && pw->pw_name != nullptr) {
    return pw->pw_name;
  }
  return "";
}

}  // namespace tally::cli
