// Export and import of a whole log as JSON Lines, and online backups.
//
// An export line holds one event: its seq, stream, version, hash, the previous hash, its exact
// encoded bytes (base64) and, for people, the event as JSON; the first event of an append made
// with an Idempotency-Key also carries that key and the request digest, so that retries are still
// recognised after an import. An import rebuilds a new store from such lines and refuses the
// whole file, naming the line, when anything does not verify: the order of seqs, each hash
// against the bytes and the previous hash, each readable event against the bytes.
//
// Thread safety: export reads a consistent ReadView and may run while others append; import
// writes a directory nobody else uses.
#pragma once

#include "events/store.hpp"

#include <cstdint>
#include <istream>
#include <ostream>
#include <string>
#include <string_view>
#include <variant>

namespace tally::events {

struct ExportResult {
  std::uint64_t events = 0;
  Digest head{};
};

// Writes every event of `view` to `out`, one JSON object per line, in seq order.
ExportResult export_log(const ReadView& view, std::ostream& out);

struct ImportResult {
  bool ok = false;
  std::uint64_t events = 0;
  Digest head{};
  std::uint64_t line =
      0;                // !ok: the first line that did not verify (1-based; 0: not a line's fault)
  std::string problem;  // !ok: what did not verify
};

// Builds a store in `dir` (which must hold no store yet) from an export. On any failure nothing
// is left in `dir` and the result names the line and the problem.
ImportResult import_log(std::istream& in, const std::string& dir);

// One export line: event `e` of `view`, whose previous event's hash is `previous`. (Replication
// sends the log in the same lines.)
std::string export_line(const ReadView& view, const schema::StoredEvent& e, const Digest& previous);

// An export line checked as the next event after the one whose hash is `previous`, at
// `expected_seq`: the event to restore, or what did not verify.
std::variant<EventStore::RestoredEvent, std::string> verify_line(std::string_view raw,
                                                                 std::uint64_t expected_seq,
                                                                 const Digest& previous);

}  // namespace tally::events
