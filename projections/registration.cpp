#include "projections/registration.hpp"

#include "text/collation.hpp"
#include "text/csv.hpp"
#include "text/text_rule.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace tally::projections {

namespace {

std::string trim(std::string_view s) {
  auto space = [](char c) { return c == ' ' || c == '\t'; };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return std::string(s);
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return s;
}

RuleError file_problem(int line, const char* key, std::vector<i18n::NamedArg> args = {}) {
  args.emplace_back("line", std::to_string(line));
  return RuleError{"csv", "", "csv", i18n::Message(key, std::move(args))};
}

// Semicolons when the header has them and no comma (a spreadsheet saved in a locale with the
// decimal comma), commas otherwise.
char separator_of(const std::string& csv) {
  std::string_view header(csv);
  header = header.substr(0, header.find('\n'));
  bool semicolon = header.find(';') != std::string_view::npos;
  bool comma = header.find(',') != std::string_view::npos;
  return semicolon && !comma ? ';' : ',';
}

struct Columns {
  int id = -1;
  int name = -1;
  std::size_t count = 0;
};

Columns read_header(const text::CsvRecord& header, RuleErrors& problems) {
  Columns columns;
  columns.count = header.fields.size();
  for (std::size_t i = 0; i < header.fields.size(); ++i) {
    std::string column = lower(trim(header.fields[i]));
    int* slot = column == "id" ? &columns.id : column == "name" ? &columns.name : nullptr;
    if (slot == nullptr) {
      problems.push_back(
          file_problem(header.line, "rules.import.unknown_column", {{"column", header.fields[i]}}));
    } else if (*slot >= 0) {
      problems.push_back(
          file_problem(header.line, "rules.import.column_twice", {{"column", column}}));
    } else {
      *slot = static_cast<int>(i);
    }
  }
  if (columns.name < 0)
    problems.push_back(file_problem(header.line, "rules.import.no_name_column"));
  return columns;
}

// The rows of the file, each with its line, id (maybe empty) and name; problems collected.
std::vector<ImportRow> read_rows(const std::vector<text::CsvRecord>& records,
                                 const Columns& columns, RuleErrors& problems) {
  std::vector<ImportRow> rows;
  std::map<std::string, int> id_lines;
  for (std::size_t r = 1; r < records.size(); ++r) {
    const text::CsvRecord& record = records[r];
    if (record.fields.size() != columns.count) {
      problems.push_back(
          file_problem(record.line, "rules.import.field_count",
                       {{"fields", record.fields.size()}, {"header", columns.count}}));
      continue;
    }
    ImportRow row;
    row.line = record.line;
    row.id = columns.id >= 0 ? trim(record.fields[columns.id]) : "";
    row.name = trim(record.fields[columns.name]);
    if (row.name.empty()) {
      problems.push_back(file_problem(row.line, "rules.import.empty_name"));
    } else if (auto problem = text::name_problem(row.name)) {
      problems.push_back(
          {"text", "", "csv",
           i18n::Message("rules.import.text", {{"line", std::to_string(row.line)},
                                               {"problem", i18n::nested(*problem)}})});
    }
    if (!row.id.empty() && !valid_player_id(row.id)) {
      problems.push_back(file_problem(row.line, "rules.import.bad_id", {{"id", row.id}}));
    }
    if (!row.id.empty()) {
      auto [it, fresh] = id_lines.emplace(row.id, row.line);
      if (!fresh) {
        problems.push_back(file_problem(row.line, "rules.import.id_twice",
                                        {{"id", row.id}, {"other", std::to_string(it->second)}}));
      }
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace

bool valid_player_id(std::string_view id) {
  if (id.empty() || id.size() > 64) return false;
  // "." and ".." name folders wherever an id becomes part of a path or a file name.
  if (id.find_first_not_of('.') == std::string_view::npos) return false;
  for (char c : id) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '-' || c == '_' || c == '.';
    if (!ok) return false;
  }
  return true;
}

int ImportPlan::count(ImportRow::Status status) const {
  return static_cast<int>(std::count_if(rows.begin(), rows.end(),
                                        [&](const ImportRow& r) { return r.status == status; }));
}

std::vector<const Player*> same_name_players(const Tournament& t, std::string_view name,
                                             std::string_view except) {
  std::string key = text::same_name_key(name);
  std::vector<const Player*> out;
  for (const auto& p : t.players) {
    if (p.id != except && text::same_name_key(p.name) == key) out.push_back(&p);
  }
  return out;
}

Outcome<ImportPlan> plan_import(const Tournament& t, const std::string& csv,
                                bool add_possible_duplicates) {
  std::vector<text::CsvRecord> records;
  try {
    records = text::parse_csv(csv, separator_of(csv));
  } catch (const text::CsvError& e) {
    return Outcome<ImportPlan>::refused({RuleError{"csv", "", "csv", e.message()}});
  }
  if (records.empty()) return Outcome<ImportPlan>::refused("csv", "rules.import.empty", "csv");
  RuleErrors problems;
  Columns columns = read_header(records[0], problems);
  std::vector<ImportRow> rows;
  if (columns.name >= 0) rows = read_rows(records, columns, problems);
  if (problems.empty() && rows.empty())
    problems.push_back(RuleError{"csv", "", "csv", i18n::Message("rules.import.no_players")});
  if (!problems.empty()) return Outcome<ImportPlan>::refused(std::move(problems));

  // Names already in play: the registered players', then each row's as it is decided.
  std::multimap<std::string, std::string> ids_by_key;  // text::same_name_key → id
  std::set<std::string> taken;                         // ids registered or given to a row
  for (const auto& p : t.players) {
    ids_by_key.emplace(text::same_name_key(p.name), p.id);
    taken.insert(p.id);
  }
  for (const auto& row : rows) {
    if (!row.id.empty()) taken.insert(row.id);
  }
  std::size_t next_id = t.players.size() + 1;
  auto fresh_id = [&] {
    std::string id;
    do {
      id = "p" + std::to_string(next_id++);
    } while (taken.count(id) > 0);
    taken.insert(id);
    return id;
  };

  for (auto& row : rows) {
    std::string key = text::same_name_key(row.name);
    const Player* registered = row.id.empty() ? nullptr : t.player(row.id);
    if (registered == nullptr && row.id.empty()) {
      // No id: the registered player with exactly this name is this row.
      auto same = std::find_if(t.players.begin(), t.players.end(),
                               [&](const Player& p) { return p.name == row.name; });
      if (same != t.players.end()) registered = &*same;
    }
    if (registered != nullptr) {
      row.id = registered->id;
      if (registered->name == row.name) {
        row.status = ImportRow::Status::unchanged;
      } else {
        row.status = ImportRow::Status::changed;
        row.previous_name = registered->name;
        row.write = true;
        ids_by_key.emplace(key, row.id);
      }
      continue;
    }
    auto [first, last] = ids_by_key.equal_range(key);
    for (auto it = first; it != last; ++it) row.matches.push_back(it->second);
    if (row.id.empty()) row.id = fresh_id();
    row.status = row.matches.empty() || add_possible_duplicates
                     ? ImportRow::Status::added
                     : ImportRow::Status::possible_duplicate;
    row.write = row.status == ImportRow::Status::added;
    ids_by_key.emplace(key, row.id);
  }
  return Outcome<ImportPlan>::ok(ImportPlan{std::move(rows)});
}

std::string admission_csv(const Tournament& t) {
  std::string csv;
  for (const Registration& r : t.registrations.all()) {
    if (r.status != Registration::Status::registered || r.player) continue;
    if (csv.empty()) csv = "id,name\n";
    csv += r.id + ",\"";
    for (char c : r.name) csv += c == '"' ? std::string("\"\"") : std::string(1, c);
    csv += "\"\n";
  }
  return csv;
}

const char* import_status_name(ImportRow::Status status) {
  switch (status) {
    case ImportRow::Status::added:
      return "added";
    case ImportRow::Status::unchanged:
      return "unchanged";
    case ImportRow::Status::changed:
      return "changed";
    case ImportRow::Status::possible_duplicate:
      return "possible_duplicate";
  }
  return "added";
}

}  // namespace tally::projections
