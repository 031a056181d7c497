// tally player add | drop | import.
#include "client/cli/command.hpp"
#include "client/cli/csv.hpp"
#include "client/cli/text.hpp"
#include "client/cli/text_table.hpp"
#include "client/cli/views.hpp"

#include <algorithm>
#include <map>
#include <ostream>
#include <set>

namespace tally::cli {

namespace json = boost::json;
using client::http::verb;

namespace {

std::string players_path(Context& ctx) {
  return "/v1/tournaments/" + url_encode(ctx.tournament()) + "/players";
}

int add(Context& ctx) {
  json::object body{{"name", ctx.args.positionals.at(0)}};
  if (auto id = ctx.args.value("id")) body["id"] = *id;
  json::value answer =
      ctx.session().expect(ctx.session().send(verb::post, players_path(ctx), body));
  ctx.out << "Added " << text_member(answer.as_object(), "name") << " as "
          << text_member(answer.as_object(), "id") << " (event #"
          << json::serialize(answer.at("seq")) << ").\n";
  return kOk;
}

int drop(Context& ctx) {
  auto reason = ctx.args.value("reason");
  if (!reason || reason->empty()) throw usage_error("a drop needs --reason");
  const std::string& player = ctx.args.positionals.at(0);
  json::value answer = ctx.session().expect(
      ctx.session().send(verb::post, players_path(ctx) + "/" + url_encode(player) + "/drop",
                         json::object{{"reason", *reason}}));
  ctx.out << "Dropped " << player << " (event #" << json::serialize(answer.at("seq"))
          << "): not seated from the next round on; their results stay.\n";
  return kOk;
}

// --- import --------------------------------------------------------------------------------

struct ImportRow {
  int line = 0;
  std::string id;  // empty: the server makes one
  std::string name;
};

bool valid_player_id(const std::string& id) {
  if (id.empty() || id.size() > 64) return false;
  return std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_' || c == '.';
  });
}

// Reads and checks the whole file before anything is sent: a header with `name` (and `id`),
// then one player per record. Every problem is listed; any problem stops the import.
std::vector<ImportRow> read_import(const std::string& text, const std::string& file) {
  std::vector<CsvRecord> records;
  try {
    records = parse_csv(text);
  } catch (const std::invalid_argument& e) {
    throw Failure(kInvalid, file + ": " + e.what());
  }
  if (records.empty()) throw Failure(kInvalid, file + ": empty (expected a header: id,name)");
  int id_column = -1, name_column = -1;
  std::vector<std::string> problems;
  const auto& header = records[0].fields;
  for (std::size_t i = 0; i < header.size(); ++i) {
    std::string column = lower(trim(header[i]));
    int& slot = column == "id" ? id_column : column == "name" ? name_column : id_column;
    if (column != "id" && column != "name") {
      problems.push_back("line 1: unknown column \"" + header[i] + "\" (the header is id,name)");
    } else if (slot >= 0) {
      problems.push_back("line 1: column \"" + column + "\" appears twice");
    } else {
      slot = static_cast<int>(i);
    }
  }
  if (name_column < 0) problems.push_back("line 1: the header has no name column (id,name)");

  std::vector<ImportRow> rows;
  std::map<std::string, int> seen;
  for (std::size_t r = 1; r < records.size() && name_column >= 0; ++r) {
    const CsvRecord& rec = records[r];
    std::string at = "line " + std::to_string(rec.line) + ": ";
    if (rec.fields.size() != header.size()) {
      problems.push_back(at + std::to_string(rec.fields.size()) + " fields, the header has " +
                         std::to_string(header.size()));
      continue;
    }
    ImportRow row{rec.line, id_column >= 0 ? trim(rec.fields[id_column]) : "",
                  trim(rec.fields[name_column])};
    if (row.name.empty()) problems.push_back(at + "the name is empty");
    if (!row.id.empty() && !valid_player_id(row.id)) {
      problems.push_back(at + "id \"" + row.id +
                         "\" must be 1–64 letters, digits, '-', '_' or '.'");
    }
    if (!row.id.empty()) {
      auto [it, fresh] = seen.emplace(row.id, rec.line);
      if (!fresh) {
        problems.push_back(at + "id \"" + row.id + "\" is already on line " +
                           std::to_string(it->second));
      }
    }
    rows.push_back(std::move(row));
  }
  if (!problems.empty()) {
    std::string message = file + ": nothing was imported:";
    for (const auto& p : problems) message += "\n  " + p;
    throw Failure(kInvalid, message);
  }
  return rows;
}

// A key that names this row of this import, so that running the same import again (after an
// interruption) recognises the rows already recorded instead of registering them twice.
std::string import_key(const std::string& tournament, const ImportRow& row) {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a
  std::string text = tournament + "\n" + std::to_string(row.line) + "\n" + row.id + "\n" + row.name;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string key = "tally-import-";
  for (int shift = 60; shift >= 0; shift -= 4) key += kHex[(h >> shift) & 15];
  return key;
}

int import(Context& ctx) {
  const std::string& file = ctx.args.positionals.at(0);
  std::vector<ImportRow> rows = read_import(read_input_file(ctx, file), file);
  if (rows.empty()) throw Failure(kInvalid, file + ": no players below the header");

  // Players registered before (by an earlier run of this import): the same id and name are
  // skipped, the same id with another name is a conflict — found before anything is sent.
  TournamentInfo info = load_tournament(ctx.session(), ctx.tournament());
  std::map<std::string, std::string> registered;
  for (const auto& p : info.players) registered[p.id] = p.name;
  std::vector<std::string> conflicts;
  for (const auto& row : rows) {
    auto it = row.id.empty() ? registered.end() : registered.find(row.id);
    if (it != registered.end() && it->second != row.name) {
      conflicts.push_back("line " + std::to_string(row.line) + ": " + row.id +
                          " is registered as \"" + it->second + "\", not \"" + row.name + "\"");
    }
  }
  if (!conflicts.empty()) {
    std::string message = file + ": nothing was imported:";
    for (const auto& c : conflicts) message += "\n  " + c;
    throw Failure(kConflict, message);
  }

  TextTable table({{"ID"}, {"Name"}, {"Status"}});
  int added = 0, already = 0;
  for (const auto& row : rows) {
    if (!row.id.empty() && registered.count(row.id) > 0) {
      table.add_row({row.id, row.name, "already registered"});
      ++already;
      continue;
    }
    json::object body{{"name", row.name}};
    if (!row.id.empty()) body["id"] = row.id;
    client::HttpReply reply = ctx.session().send(verb::post, players_path(ctx), body,
                                                 {{"Idempotency-Key", import_key(info.id, row)}});
    if (reply.status >= 400) {
      table.print(ctx.out);
      ctx.err << "tally: line " << row.line << " (" << row.name << ") was refused; " << added
              << " player(s) were added before it. Fix the file and run the import again:\n"
                 "  the players already added are recognised.\n";
      ctx.session().expect(reply);  // prints the problem and fails with its exit code
    }
    json::value answer = reply.json();
    table.add_row({text_member(answer.as_object(), "id"), row.name, "added"});
    ++added;
  }
  table.print(ctx.out);
  ctx.out << "Imported " << added << " player(s)";
  if (already > 0) ctx.out << "; " << already << " were already registered";
  ctx.out << ".\n";
  return kOk;
}

}  // namespace

std::vector<Command> player_commands() {
  return {
      {"player add",
       "NAME [--id ID]",
       "Register a player (organizer)",
       "ID is 1–64 letters, digits, '-', '_' or '.'; without --id the server makes one.",
       {{"id", 0, "ID", "the player's id"}},
       1,
       1,
       true,
       add},
      {"player drop",
       "PLAYER --reason TEXT",
       "Drop a player: no longer seated, results kept (organizer)",
       "",
       {{"reason", 0, "TEXT", "why (kept in the audit trail)"}},
       1,
       1,
       true,
       drop},
      {"player import",
       "FILE.csv",
       "Register the players of a CSV file with a header id,name (organizer)",
       "The file is UTF-8 CSV (RFC 4180): a header naming the columns id and name (in any\n"
       "order; id may be left out or empty, then the server makes one), one player per line;\n"
       "fields with commas, quotes or line breaks are quoted (\"Novák, Jan\"), a quote inside\n"
       "is doubled. The whole file is checked first: any problem and nothing is sent. Running\n"
       "the same import again skips the players already registered. FILE - reads stdin.",
       {},
       1,
       1,
       true,
       import},
  };
}

}  // namespace tally::cli
