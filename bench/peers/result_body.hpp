// The request body tally-loadgen sends for one table result, byte for byte, so that the peers
// store exactly what tallyd is sent. tally-loadgen builds it with Boost.JSON (bench/loadgen.cpp,
// the `writer` lambda); this writes the same bytes without a JSON library:
//
//   {"players":[{"player":"p33","score":57},{"player":"p34","score":103}]}
//   {"players":[…],"reason":"load test correction"}            (a correction)
//
// Writer w draws its scores from std::mt19937(w), two per write, first player first — the same
// sequence tally-loadgen's writer w draws.
#pragma once

#include <random>
#include <string>

namespace tally::bench {

// Which table writer `w` of `writers` enters on its `n`-th write overall (n counts all writers'
// writes), as tally-loadgen picks it: each writer cycles over tables of its own.
inline int table_of_write(int n, int w, int writers, int tables_per_writer) {
  int local = n / writers % tables_per_writer;
  return w * tables_per_writer + local + 1;
}

inline std::string result_body(int table, std::mt19937& rng, bool correction) {
  std::string first = std::to_string(2 * table - 1), second = std::to_string(2 * table);
  std::string first_score = std::to_string(static_cast<int>(rng() % 120));
  std::string second_score = std::to_string(static_cast<int>(rng() % 120));
  std::string body = "{\"players\":[{\"player\":\"p" + first + "\",\"score\":" + first_score +
                     "},{\"player\":\"p" + second + "\",\"score\":" + second_score + "}]";
  if (correction) body += ",\"reason\":\"load test correction\"";
  return body + "}";
}

// The stream tallyd appends a table's actions to (projections::table_stream), used by the peers
// as the event's stream column/field.
inline std::string table_stream(const std::string& tournament, int table) {
  return "t/" + tournament + "/r/1/table/" + std::to_string(table);
}

}  // namespace tally::bench
