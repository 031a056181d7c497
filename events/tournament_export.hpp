// A tournament's export from a venue's server, and its verification on the federation's (Q-1,
// docs/series.md "Imports").
//
// The export is JSON Lines: a header naming the tournament, the venue's server, its log and the
// head the export stops at, with the standings the venue computed; then every event of the log
// from seq 1 up to that head as archive.hpp's export lines. Every event, not only the
// tournament's: the log is one hash chain, and a link can only be checked over the bytes of the
// event it covers — leaving other events out would let a result be left out unnoticed.
//
// Verification checks each line against the one before (order, hash over the previous hash and
// the bytes, the envelope in the bytes) and the last against the header's head, and names the
// first line that does not verify: a changed byte, a removed line, two lines swapped and a
// truncated file are all refused, and nothing is kept of a refused file.
//
// Thread safety: pure functions; export reads a consistent ReadView.
#pragma once

#include "events/archive.hpp"
#include "events/store.hpp"

#include <boost/json/object.hpp>

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace tally::events {

inline constexpr std::string_view kTournamentExportFormat = "tallyd-tournament-export";

// What the header says beside the chain's numbers.
struct TournamentExportHeader {
  std::string tournament;
  std::string server;            // the venue's server, as it names itself
  std::int64_t exported_at = 0;  // µs since the epoch
  boost::json::array standings;  // the venue's final standings: {player, name, place}
  bool final = false;            // the tournament had ended when it was exported
};

// Writes the header (with `head` and `events` from `view`) and every event of `view` in seq
// order. Returns the number of events and the head written.
ExportResult export_tournament(const ReadView& view, const TournamentExportHeader& header,
                               std::ostream& out);

// A verified export: the header, the tournament's own events, and the hash of every event of
// the chain (chain[i] is the hash of seq i + 1), to tell whether a later export extends it.
struct VerifiedTournamentExport {
  TournamentExportHeader header;
  Digest log{};   // the hash of the log's first event: which log this is
  Digest head{};  // the hash of the last event
  std::uint64_t events = 0;
  std::vector<schema::StoredEvent> tournament_events;  // streams t/{id} and below, seq order
  std::vector<Digest> chain;
};

// The first line that does not verify (1-based, the header is line 1) and why, in English
// (the technical part of the refusal; the refusal's sentence is translated).
struct BrokenTournamentExport {
  std::uint64_t line = 0;
  std::string problem;
};

std::variant<VerifiedTournamentExport, BrokenTournamentExport> verify_tournament_export(
    std::string_view text);

}  // namespace tally::events
