#include "events/archive.hpp"

#include "encoding/base64.hpp"
#include "events/sha256.hpp"
#include "schema/json_codec.hpp"
#include "schema/text.hpp"

#include <boost/json.hpp>

#include <filesystem>
#include <optional>

namespace tally::events {

namespace json = boost::json;

namespace {

using schema::text;

// The readable form of an event in an export: the whole envelope through the schema codec.
json::object readable(const schema::StoredEvent& e) { return schema::encode_struct(e.event()); }

// One line's fields, checked for presence and type.
struct Line {
  std::uint64_t seq;
  std::string stream;
  std::uint64_t version;
  Digest hash;
  Digest prev_hash;
  std::string bytes;
  json::value event;
  std::optional<std::tuple<std::string, std::uint64_t, Digest>> idempotency;
};

std::variant<Line, std::string> parse_line(std::string_view raw) {
  boost::system::error_code ec;
  json::value v = json::parse(raw, ec);
  if (ec || !v.is_object()) return std::string("not a JSON object");
  const auto& o = v.as_object();
  auto number = [&](std::string_view key) -> std::optional<std::uint64_t> {
    auto it = o.find(key);
    if (it == o.end()) return std::nullopt;
    if (it->value().is_uint64()) return it->value().as_uint64();
    if (it->value().is_int64() && it->value().as_int64() >= 0) return it->value().as_int64();
    return std::nullopt;
  };
  auto string = [&](std::string_view key) -> std::optional<std::string> {
    auto it = o.find(key);
    if (it == o.end() || !it->value().is_string()) return std::nullopt;
    return std::string(it->value().as_string());
  };
  Line line;
  auto seq = number("seq"), version = number("version");
  auto stream = string("stream"), hash = string("hash"), prev = string("prev_hash"),
       bytes = string("bytes");
  if (!seq || !version || !stream || !hash || !prev || !bytes || !o.contains("event")) {
    return std::string(
        "a member is missing or has the wrong type (seq, stream, version, hash, prev_hash, bytes, "
        "event)");
  }
  auto h = digest_from_hex(*hash), p = digest_from_hex(*prev);
  auto decoded = encoding::base64_decode(*bytes);
  if (!h || !p) return std::string("hash and prev_hash must be 64 lowercase hex digits");
  if (!decoded) return std::string("bytes is not base64");
  line.seq = *seq;
  line.stream = *stream;
  line.version = *version;
  line.hash = *h;
  line.prev_hash = *p;
  line.bytes = std::move(*decoded);
  line.event = o.at("event");
  if (auto it = o.find("idempotency"); it != o.end()) {
    const json::value& i = it->value();
    if (!i.is_object() || !i.as_object().contains("key") || !i.at("key").is_string() ||
        !i.as_object().contains("count") || !i.at("count").is_number() ||
        !i.as_object().contains("digest") || !i.at("digest").is_string()) {
      return std::string("idempotency must be {key, count, digest}");
    }
    auto digest = digest_from_hex(i.at("digest").as_string());
    if (!digest) return std::string("idempotency.digest must be 64 lowercase hex digits");
    line.idempotency.emplace(std::string(i.at("key").as_string()),
                             i.at("count").to_number<std::uint64_t>(), *digest);
  }
  return line;
}

// Why `line` cannot follow the line before (whose hash is `previous`) as event `expected_seq`:
// its order, its hash over previous ‖ bytes, the envelope inside the bytes, the readable event.
std::optional<std::string> broken(const Line& line, std::uint64_t expected_seq,
                                  const Digest& previous) {
  if (line.seq != expected_seq) {
    return "seq " + std::to_string(line.seq) + " where " + std::to_string(expected_seq) +
           " was expected";
  }
  if (line.prev_hash != previous) return "prev_hash does not match the hash of the line before";
  Digest computed = Sha256().update(previous.data(), previous.size()).update(line.bytes).finish();
  if (computed != line.hash) return "the hash does not match the event's bytes";
  try {
    schema::StoredEvent event(line.seq, line.hash, line.bytes);
    auto e = event.event();
    auto prev = e.getPrevHash();
    bool linked =
        prev.size() == previous.size() && std::equal(prev.begin(), prev.end(), previous.begin());
    if (e.getSeq() != line.seq || text(e.getStream()) != line.stream ||
        e.getVersion() != line.version || !linked) {
      return "seq, stream, version or prev_hash differ from the event's bytes";
    }
    if (json::value(readable(event)) != line.event)
      return "the readable event differs from the event's bytes";
  } catch (const kj::Exception&) {
    return "the bytes are not an event";
  }
  return std::nullopt;
}

}  // namespace

std::string export_line(const ReadView& view, const schema::StoredEvent& e,
                        const Digest& previous) {
  auto envelope = e.event();
  json::object line{{"seq", e.seq()},
                    {"stream", text(envelope.getStream())},
                    {"version", envelope.getVersion()},
                    {"hash", hex(e.hash())},
                    {"prev_hash", hex(previous)},
                    {"bytes", encoding::base64_encode(e.bytes())},
                    {"event", readable(e)}};
  std::string key = text(envelope.getEventId());
  if (!key.empty()) {
    if (auto record = view.idempotency(key); record && record->first_seq == e.seq()) {
      line["idempotency"] = json::object{{"key", key},
                                         {"count", record->last_seq - record->first_seq + 1},
                                         {"digest", hex(record->digest)}};
    }
  }
  return json::serialize(line);
}

std::variant<EventStore::RestoredEvent, std::string> verify_line(std::string_view raw,
                                                                 std::uint64_t expected_seq,
                                                                 const Digest& previous) {
  auto parsed = parse_line(raw);
  if (auto* problem = std::get_if<std::string>(&parsed)) return std::move(*problem);
  Line& line = std::get<Line>(parsed);
  if (auto problem = broken(line, expected_seq, previous)) return std::move(*problem);
  EventStore::RestoredEvent restored{line.seq, line.hash, std::move(line.bytes), line.stream,
                                     line.version};
  if (line.idempotency) {
    std::tie(restored.idempotency_key, restored.idempotency_count, restored.idempotency_digest) =
        *line.idempotency;
  }
  return restored;
}

ExportResult export_log(const ReadView& view, std::ostream& out) {
  ExportResult result;
  Digest previous{};
  view.scan(1, [&](const schema::StoredEvent& e) {
    out << export_line(view, e, previous) << '\n';
    previous = e.hash();
    result.events = e.seq();
    return true;
  });
  result.head = previous;
  return result;
}

ImportResult import_log(std::istream& in, const std::string& dir) {
  ImportResult result;
  std::error_code ec;
  if (std::filesystem::exists(std::filesystem::path(dir) / "CURRENT", ec)) {
    result.problem = dir + " already holds a store; import into an empty directory";
    return result;
  }
  bool created = !std::filesystem::exists(dir, ec);
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    result.problem = "cannot create " + dir + ": " + ec.message();
    return result;
  }
  bool failed = false;
  auto fail = [&](std::uint64_t line, std::string problem) {
    failed = true;
    result.line = line;
    result.problem = std::move(problem);
  };

  try {
    EventStore store(dir);
    Digest previous{};
    std::uint64_t expected_seq = 1;
    std::vector<EventStore::RestoredEvent> batch;
    std::string raw;
    std::uint64_t number = 0;
    while (!failed && std::getline(in, raw)) {
      ++number;
      if (raw.empty()) continue;
      auto verified = verify_line(raw, expected_seq, previous);
      if (auto* problem = std::get_if<std::string>(&verified)) {
        fail(number, *problem);
        break;
      }
      auto& restored = std::get<EventStore::RestoredEvent>(verified);
      previous = restored.hash;
      batch.push_back(std::move(restored));
      ++expected_seq;
      if (batch.size() == 1000) {
        if (auto error = store.restore(batch)) {
          fail(0, "the store could not write: " + *error);
          break;
        }
        batch.clear();
      }
    }
    if (!failed && !batch.empty()) {
      if (auto error = store.restore(batch)) {
        fail(0, "the store could not write: " + *error);
      }
    }
    if (!failed) {
      result.ok = true;
      result.events = expected_seq - 1;
      result.head = previous;
    }
  } catch (const std::exception& e) {
    fail(0, e.what());
  }
  if (!result.ok) {
    // Leave nothing half-imported behind.
    if (created) {
      std::filesystem::remove_all(dir, ec);
    } else {
      for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
        std::filesystem::remove_all(entry.path(), ec);
    }
  }
  return result;
}

}  // namespace tally::events
