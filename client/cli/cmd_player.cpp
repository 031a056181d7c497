// tally player add | drop | import.
#include "client/cli/command.hpp"
#include "client/cli/csv.hpp"
#include "client/cli/numbers.hpp"
#include "client/cli/say.hpp"
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
  ctx.out << ctx.say(i18n::Message("cli.player.added",
                                   {{"name", text_member(answer.as_object(), "name")},
                                    {"id", text_member(answer.as_object(), "id")},
                                    {"seq", cell_text(answer.at("seq"))}}))
          << "\n";
  return kOk;
}

int drop(Context& ctx) {
  auto reason = ctx.args.value("reason");
  if (!reason || reason->empty()) throw usage_error("cli.player.drop_needs_reason");
  const std::string& player = ctx.args.positionals.at(0);
  json::value answer = ctx.session().expect(
      ctx.session().send(verb::post, players_path(ctx) + "/" + url_encode(player) + "/drop",
                         json::object{{"reason", *reason}}));
  ctx.out << ctx.say(i18n::Message("cli.player.dropped",
                                   {{"player", player}, {"seq", cell_text(answer.at("seq"))}}))
          << "\n";
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

// What is wrong on a line of the file: "line 3: the name is empty".
i18n::Message line_problem(int line, const char* key, std::vector<i18n::NamedArg> args = {}) {
  args.emplace_back("line", std::to_string(line));
  return i18n::Message(key, std::move(args));
}

// Prints "tally: FILE: nothing was imported:" and the problems below it, one a line, and stops
// with `code`.
[[noreturn]] void nothing_imported(Context& ctx, ExitCode code, const std::string& file,
                                   const std::vector<i18n::Message>& problems) {
  ctx.err << "tally: " << ctx.say(i18n::Message("cli.import.nothing_imported", {{"file", file}}));
  for (const auto& p : problems) ctx.err << "\n  " << ctx.say(p);
  ctx.err << "\n";
  throw Failure(code, {});
}

// Reads and checks the whole file before anything is sent: a header with `name` (and `id`),
// then one player per record. Every problem is listed; any problem stops the import.
std::vector<ImportRow> read_import(Context& ctx, const std::string& text, const std::string& file) {
  std::vector<CsvRecord> records;
  try {
    records = parse_csv(text);
  } catch (const CsvError& e) {
    throw Failure(kInvalid, i18n::Message("cli.import.file_problem",
                                          {{"file", file}, {"problem", ctx.say(e.message())}}));
  }
  if (records.empty()) throw Failure(kInvalid, i18n::Message("cli.import.empty", {{"file", file}}));
  int id_column = -1, name_column = -1;
  std::vector<i18n::Message> problems;
  const auto& header = records[0].fields;
  for (std::size_t i = 0; i < header.size(); ++i) {
    std::string column = lower(trim(header[i]));
    int& slot = column == "id" ? id_column : column == "name" ? name_column : id_column;
    if (column != "id" && column != "name") {
      problems.push_back(line_problem(1, "cli.import.unknown_column", {{"column", header[i]}}));
    } else if (slot >= 0) {
      problems.push_back(line_problem(1, "cli.import.column_twice", {{"column", column}}));
    } else {
      slot = static_cast<int>(i);
    }
  }
  if (name_column < 0) problems.push_back(line_problem(1, "cli.import.no_name_column"));

  std::vector<ImportRow> rows;
  std::map<std::string, int> seen;
  for (std::size_t r = 1; r < records.size() && name_column >= 0; ++r) {
    const CsvRecord& rec = records[r];
    if (rec.fields.size() != header.size()) {
      problems.push_back(line_problem(rec.line, "cli.import.field_count",
                                      {{"fields", rec.fields.size()}, {"header", header.size()}}));
      continue;
    }
    ImportRow row{rec.line, id_column >= 0 ? trim(rec.fields[id_column]) : "",
                  trim(rec.fields[name_column])};
    if (row.name.empty()) problems.push_back(line_problem(rec.line, "cli.import.empty_name"));
    if (!row.id.empty() && !valid_player_id(row.id)) {
      problems.push_back(line_problem(rec.line, "cli.import.bad_id", {{"id", row.id}}));
    }
    if (!row.id.empty()) {
      auto [it, fresh] = seen.emplace(row.id, rec.line);
      if (!fresh) {
        problems.push_back(line_problem(rec.line, "cli.import.id_twice",
                                        {{"id", row.id}, {"other", std::to_string(it->second)}}));
      }
    }
    rows.push_back(std::move(row));
  }
  if (!problems.empty()) nothing_imported(ctx, kInvalid, file, problems);
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
  std::vector<ImportRow> rows = read_import(ctx, read_input_file(ctx, file), file);
  if (rows.empty()) {
    throw Failure(kInvalid, i18n::Message("cli.import.no_players", {{"file", file}}));
  }

  // Players registered before (by an earlier run of this import): the same id and name are
  // skipped, the same id with another name is a conflict — found before anything is sent.
  TournamentInfo info = load_tournament(ctx.session(), ctx.tournament());
  std::map<std::string, std::string> registered;
  for (const auto& p : info.players) registered[p.id] = p.name;
  std::vector<i18n::Message> conflicts;
  for (const auto& row : rows) {
    auto it = row.id.empty() ? registered.end() : registered.find(row.id);
    if (it != registered.end() && it->second != row.name) {
      conflicts.push_back(
          line_problem(row.line, "cli.import.registered_otherwise",
                       {{"id", row.id}, {"registered", it->second}, {"name", row.name}}));
    }
  }
  if (!conflicts.empty()) nothing_imported(ctx, kConflict, file, conflicts);

  TextTable table(
      {{ctx.say("cli.column.id")}, {ctx.say("cli.column.name")}, {ctx.say("cli.column.status")}});
  int added = 0, already = 0;
  for (const auto& row : rows) {
    if (!row.id.empty() && registered.count(row.id) > 0) {
      table.add_row({row.id, row.name, ctx.say("cli.import.status_already")});
      ++already;
      continue;
    }
    json::object body{{"name", row.name}};
    if (!row.id.empty()) body["id"] = row.id;
    client::HttpReply reply = ctx.session().send(verb::post, players_path(ctx), body,
                                                 {{"Idempotency-Key", import_key(info.id, row)}});
    if (reply.status >= 400) {
      table.print(ctx.out);
      ctx.err << "tally: "
              << ctx.say(i18n::Message(
                     "cli.import.refused",
                     {{"line", std::to_string(row.line)}, {"name", row.name}, {"added", added}}))
              << "\n";
      ctx.session().expect(reply);  // prints the problem and fails with its exit code
    }
    json::value answer = reply.json();
    table.add_row(
        {text_member(answer.as_object(), "id"), row.name, ctx.say("cli.import.status_added")});
    ++added;
  }
  table.print(ctx.out);
  ctx.out << ctx.say(i18n::Message("cli.import.done", {{"added", added}, {"already", already}}))
          << "\n";
  return kOk;
}

}  // namespace

std::vector<Command> player_commands() {
  return {
      {"player add",
       "NAME [--id ID]",
       "cli.cmd.player_add.summary",
       "cli.cmd.player_add.details",
       {{"id", 0, "ID", "cli.option.player_id"}},
       1,
       1,
       true,
       add},
      {"player drop",
       "PLAYER --reason TEXT",
       "cli.cmd.player_drop.summary",
       "",
       {{"reason", 0, "TEXT", "cli.option.reason_audit"}},
       1,
       1,
       true,
       drop},
      {"player import",
       "FILE.csv",
       "cli.cmd.player_import.summary",
       "cli.cmd.player_import.details",
       {},
       1,
       1,
       true,
       import},
  };
}

}  // namespace tally::cli
