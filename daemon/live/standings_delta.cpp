#include "daemon/live/standings_delta.hpp"

#include <boost/json.hpp>

#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_map>

namespace tally::daemon {

namespace json = boost::json;

namespace {

const json::array* rows_of(const json::object& standings) {
  auto it = standings.find("rows");
  return it != standings.end() && it->value().is_array() ? &it->value().as_array() : nullptr;
}

std::string_view player_of(const json::value& row) {
  if (!row.is_object()) return {};
  auto it = row.as_object().find("player");
  return it != row.as_object().end() && it->value().is_string()
             ? std::string_view(it->value().as_string())
             : std::string_view();
}

// The row's rank when it is a whole number (a game may write it signed or unsigned).
std::optional<std::int64_t> rank_of(const json::object& row) {
  auto it = row.find("rank");
  if (it == row.end()) return std::nullopt;
  if (it->value().is_int64()) return it->value().as_int64();
  if (it->value().is_uint64() && it->value().as_uint64() <= INT64_MAX) {
    return static_cast<std::int64_t>(it->value().as_uint64());
  }
  return std::nullopt;
}

// Equal but for "rank" (both with an integer rank).
bool same_but_rank(const json::object& a, const json::object& b) {
  if (a.size() != b.size() || !rank_of(a) || !rank_of(b)) return false;
  for (const auto& [key, value] : a) {
    if (key == "rank") continue;
    auto it = b.find(key);
    if (it == b.end() || it->value() != value) return false;
  }
  return true;
}

}  // namespace

json::object standings_delta(const json::object& before, const json::object& after) {
  static const json::array kNoRows;
  const json::array& old_rows = rows_of(before) ? *rows_of(before) : kNoRows;
  const json::array& new_rows = rows_of(after) ? *rows_of(after) : kNoRows;

  std::unordered_map<std::string_view, std::size_t> old_index;
  old_index.reserve(old_rows.size());
  for (std::size_t i = 0; i < old_rows.size(); ++i) {
    if (auto p = player_of(old_rows[i]); !p.empty()) old_index.emplace(p, i);
  }

  json::array order;
  json::array ranks;
  std::int64_t run_from = -1, run_count = 0;   // the run of old rows being extended
  std::int64_t shift_begin = 0, shift_by = 0;  // the range of rank shifts being extended
  auto close_run = [&] {
    if (run_count > 0) order.push_back(json::array{run_from, run_count});
    run_count = 0;
  };
  auto close_shift = [&](std::int64_t end) {
    if (shift_by != 0 && end > shift_begin)
      ranks.push_back(json::array{shift_begin, end, shift_by});
    shift_by = 0;
  };

  for (std::size_t i = 0; i < new_rows.size(); ++i) {
    const json::value& row = new_rows[i];
    std::optional<std::size_t> from;
    if (auto p = player_of(row); !p.empty()) {
      if (auto it = old_index.find(p); it != old_index.end()) from = it->second;
    } else if (i < old_rows.size()) {
      from = i;
    }
    bool copied = from && row.is_object() && old_rows[*from].is_object() &&
                  same_but_rank(old_rows[*from].as_object(), row.as_object());
    const auto n = static_cast<std::int64_t>(i);
    if (!copied) {
      close_run();
      close_shift(n);
      order.push_back(json::object{{"row", row}});
      continue;
    }
    const auto f = static_cast<std::int64_t>(*from);
    if (run_count > 0 && run_from + run_count == f) {
      ++run_count;
    } else {
      close_run();
      run_from = f;
      run_count = 1;
    }
    std::int64_t by = *rank_of(row.as_object()) - *rank_of(old_rows[*from].as_object());
    if (by != shift_by) {
      close_shift(n);
      shift_begin = n;
      shift_by = by;
    }
  }
  close_run();
  close_shift(static_cast<std::int64_t>(new_rows.size()));

  json::object set;
  json::array unset;
  for (const auto& [key, value] : after) {
    if (key == "rows") continue;
    auto it = before.find(key);
    if (it == before.end() || it->value() != value) set[key] = value;
  }
  for (const auto& [key, value] : before) {
    if (key != "rows" && !after.contains(key)) unset.emplace_back(key);
  }
  return {{"rows", new_rows.size()},
          {"order", std::move(order)},
          {"ranks", std::move(ranks)},
          {"set", std::move(set)},
          {"unset", std::move(unset)}};
}

bool apply_standings_delta(const json::object& before, const json::object& delta,
                           json::object& out) {
  static const json::array kNoRows;
  const json::array& old_rows = rows_of(before) ? *rows_of(before) : kNoRows;
  json::array rows;
  for (const auto& part : delta.at("order").as_array()) {
    if (part.is_array()) {
      auto from = part.as_array().at(0).as_int64(), count = part.as_array().at(1).as_int64();
      if (from < 0 || count < 0 || static_cast<std::size_t>(from + count) > old_rows.size()) {
        return false;
      }
      for (auto i = from; i < from + count; ++i) rows.push_back(old_rows[i]);
    } else {
      rows.push_back(part.as_object().at("row"));
    }
  }
  if (rows.size() != delta.at("rows").to_number<std::size_t>()) return false;
  for (const auto& shift : delta.at("ranks").as_array()) {
    auto begin = shift.as_array().at(0).as_int64(), end = shift.as_array().at(1).as_int64();
    auto by = shift.as_array().at(2).as_int64();
    if (begin < 0 || end > static_cast<std::int64_t>(rows.size())) return false;
    for (auto i = begin; i < end; ++i) {
      auto& row = rows[i].as_object();
      auto rank = rank_of(row);
      if (!rank) return false;
      row["rank"] = *rank + by;
    }
  }
  out = before;
  for (const auto& [key, value] : delta.at("set").as_object()) out[key] = value;
  for (const auto& key : delta.at("unset").as_array()) out.erase(key.as_string());
  out["rows"] = std::move(rows);
  return true;
}

}  // namespace tally::daemon
