// Output shapes: an aligned text table for people (UTF-8 aware: "Čeněk" is five columns wide)
// and CSV for spreadsheets (RFC 4180 quoting).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace tally::cli {

// The number of terminal columns `text` (UTF-8) takes: combining marks take none, East Asian
// wide characters and emoji two, everything else one.
std::size_t display_width(const std::string& text);

class TextTable {
 public:
  enum class Align { left, right };
  struct Column {
    std::string header;
    Align align = Align::left;
  };

  explicit TextTable(std::vector<Column> columns) : columns_(std::move(columns)) {}
  void add_row(std::vector<std::string> cells);
  bool empty() const { return rows_.empty(); }

  // Header, a rule of dashes, then the rows; columns two spaces apart, each line prefixed with
  // `indent`, no trailing spaces.
  void print(std::ostream& out, const std::string& indent = "") const;

 private:
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

// One CSV field, quoted when it holds a comma, a quote, a line break or leading/trailing spaces.
std::string csv_field(const std::string& text);
// A CSV line (ending in "\n").
std::string csv_line(const std::vector<std::string>& fields);

// A cell of text people typed (a name, an id) made safe for a spreadsheet: one that begins with
// =, +, -, @, a tab or a carriage return gets a leading ' so that no spreadsheet runs it as a
// formula (OWASP, "CSV Injection"). Numbers the CLI writes itself are not passed through this.
std::string csv_text(const std::string& cell);

}  // namespace tally::cli
