#include "events/tournament_export.hpp"

#include "events/archive.hpp"
#include "events/sha256.hpp"

#include <boost/json.hpp>

#include <optional>

namespace tally::events {

namespace json = boost::json;

namespace {

constexpr std::uint64_t kFormatVersion = 1;

bool of_tournament(std::string_view stream, std::string_view tournament) {
  if (!stream.starts_with("t/")) return false;
  stream.remove_prefix(2);
  if (!stream.starts_with(tournament)) return false;
  stream.remove_prefix(tournament.size());
  return stream.empty() || stream.front() == '/';
}

std::optional<std::string> string_member(const json::object& o, std::string_view key) {
  auto it = o.find(key);
  if (it == o.end() || !it->value().is_string()) return std::nullopt;
  return std::string(it->value().as_string());
}

std::optional<std::uint64_t> count_member(const json::object& o, std::string_view key) {
  auto it = o.find(key);
  if (it == o.end()) return std::nullopt;
  if (it->value().is_uint64()) return it->value().as_uint64();
  if (it->value().is_int64() && it->value().as_int64() >= 0) return it->value().as_int64();
  return std::nullopt;
}

struct ParsedHeader {
  TournamentExportHeader header;
  Digest log{};
  Digest head{};
  std::uint64_t events = 0;
};

std::variant<ParsedHeader, std::string> parse_header(std::string_view raw) {
  boost::system::error_code ec;
  json::value v = json::parse(raw, ec);
  if (ec || !v.is_object()) return std::string("the header is not a JSON object");
  const json::object& o = v.as_object();
  if (string_member(o, "format") != std::string(kTournamentExportFormat)) {
    return "the header's format is not " + std::string(kTournamentExportFormat) +
           " (a whole log's export is imported with `tallyd import`, not into a series)";
  }
  if (count_member(o, "version") != kFormatVersion) {
    return std::string("the header's version is not 1");
  }
  ParsedHeader parsed;
  auto tournament = string_member(o, "tournament");
  auto server = string_member(o, "server");
  auto log = string_member(o, "log");
  auto head = string_member(o, "head");
  auto events = count_member(o, "events");
  auto exported_at = o.find("exported_at");
  auto standings = o.find("standings");
  auto final = o.find("final");
  if (!tournament || tournament->empty() || !server || !log || !head || !events ||
      exported_at == o.end() || !exported_at->value().is_int64() || standings == o.end() ||
      !standings->value().is_array() || final == o.end() || !final->value().is_bool()) {
    return std::string(
        "a header member is missing or has the wrong type (tournament, server, log, head, "
        "events, exported_at, standings, final)");
  }
  auto log_digest = digest_from_hex(*log), head_digest = digest_from_hex(*head);
  if (!log_digest || !head_digest) {
    return std::string("the header's log and head must be 64 lowercase hex digits");
  }
  parsed.header.tournament = *tournament;
  parsed.header.server = *server;
  parsed.header.exported_at = exported_at->value().as_int64();
  parsed.header.standings = standings->value().as_array();
  parsed.header.final = final->value().as_bool();
  parsed.log = *log_digest;
  parsed.head = *head_digest;
  parsed.events = *events;
  return parsed;
}

}  // namespace

ExportResult export_tournament(const ReadView& view, const TournamentExportHeader& header,
                               std::ostream& out) {
  Head head = view.head();
  Digest log{};
  if (auto first = view.event(1)) log = first->hash();
  json::object line{{"format", kTournamentExportFormat},
                    {"version", kFormatVersion},
                    {"tournament", header.tournament},
                    {"server", header.server},
                    {"exported_at", header.exported_at},
                    {"log", hex(log)},
                    {"head", hex(head.hash)},
                    {"events", head.seq},
                    {"final", header.final},
                    {"standings", header.standings}};
  out << json::serialize(line) << '\n';
  return export_log(view, out);  // the same view: up to the head the header names
}

std::variant<VerifiedTournamentExport, BrokenTournamentExport> verify_tournament_export(
    std::string_view text) {
  auto broken = [](std::uint64_t line, std::string problem) {
    return BrokenTournamentExport{line, std::move(problem)};
  };
  VerifiedTournamentExport out;
  std::uint64_t number = 0;
  std::optional<ParsedHeader> header;
  Digest previous{};
  std::uint64_t expected_seq = 1;
  bool created = false;
  while (!text.empty()) {
    std::size_t end = text.find('\n');
    std::string_view raw = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    ++number;
    if (!header) {
      auto parsed = parse_header(raw);
      if (auto* problem = std::get_if<std::string>(&parsed)) return broken(number, *problem);
      header = std::move(std::get<ParsedHeader>(parsed));
      out.chain.reserve(header->events);
      continue;
    }
    if (raw.empty()) {
      if (text.empty()) break;  // the file's last newline
      return broken(number, "an empty line inside the chain");
    }
    if (expected_seq > header->events) {
      return broken(number,
                    "a line after the header's head (seq " + std::to_string(header->events) + ")");
    }
    auto verified = verify_line(raw, expected_seq, previous);
    if (auto* problem = std::get_if<std::string>(&verified)) return broken(number, *problem);
    auto& event = std::get<EventStore::RestoredEvent>(verified);
    if (of_tournament(event.stream, header->header.tournament)) {
      schema::StoredEvent stored(event.seq, event.hash, event.bytes);
      if (!created) {
        created = stored.event().getPayload().isTournamentCreated();
        if (!created) return broken(number, "the tournament's first event is not its creation");
      }
      out.tournament_events.push_back(std::move(stored));
    }
    previous = event.hash;
    out.chain.push_back(event.hash);
    ++expected_seq;
  }
  if (!header) return broken(1, "the export is empty");
  if (expected_seq - 1 != header->events) {
    return broken(number + 1, "the export ends at seq " + std::to_string(expected_seq - 1) +
                                  " but its header's head is seq " +
                                  std::to_string(header->events) + ": lines are missing");
  }
  if (previous != header->head) {
    return broken(number, "the last line's hash is not the header's head");
  }
  if (!out.chain.empty() && out.chain.front() != header->log) {
    return broken(2, "the first line's hash is not the header's log");
  }
  if (!created) {
    return broken(1, "the log holds no tournament " + header->header.tournament);
  }
  out.header = std::move(header->header);
  out.log = header->log;
  out.head = header->head;
  out.events = header->events;
  return out;
}

}  // namespace tally::events
