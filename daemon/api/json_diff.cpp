#include "daemon/api/json_diff.hpp"

#include <boost/json.hpp>

#include <map>

namespace tally::daemon {

namespace json = boost::json;

namespace {

// A leaf's place: (player, field path).
using Leaves = std::vector<std::pair<std::pair<std::string, std::string>, json::value>>;

const json::string* player_of(const json::value& v) {
  if (!v.is_object()) return nullptr;
  const json::value* p = v.as_object().if_contains("player");
  return p != nullptr && p->is_string() ? &p->as_string() : nullptr;
}

// An array whose every element is an object naming a player: compared player by player.
bool keyed_by_player(const json::array& a) {
  if (a.empty()) return false;
  for (const auto& v : a) {
    if (player_of(v) == nullptr) return false;
  }
  return true;
}

void flatten(const json::value& v, const std::string& player, const std::string& path,
             Leaves& out) {
  auto join = [&](std::string_view key) {
    return path.empty() ? std::string(key) : path + "." + std::string(key);
  };
  if (v.is_object()) {
    for (const auto& [key, member] : v.as_object()) {
      if (key == "player" && !player.empty()) continue;  // the key itself, not a value
      flatten(member, player, join(key), out);
    }
    return;
  }
  if (v.is_array() && keyed_by_player(v.as_array())) {
    // The list's own name is dropped: "players" says nothing the player id does not.
    for (const auto& element : v.as_array()) {
      flatten(element, std::string(*player_of(element)), "", out);
    }
    return;
  }
  out.push_back({{player, path}, v});
}

}  // namespace

std::vector<JsonDifference> json_differences(const json::value& before, const json::value& after) {
  Leaves old_leaves, new_leaves;
  flatten(before, "", "", old_leaves);
  flatten(after, "", "", new_leaves);
  std::map<std::pair<std::string, std::string>, const json::value*> old_by_place;
  for (const auto& [place, value] : old_leaves) old_by_place[place] = &value;

  std::vector<JsonDifference> out;
  for (const auto& [place, value] : new_leaves) {
    auto it = old_by_place.find(place);
    if (it == old_by_place.end()) {
      out.push_back({place.second, place.first, nullptr, value});
      continue;
    }
    if (*it->second != value) out.push_back({place.second, place.first, *it->second, value});
    old_by_place.erase(it);
  }
  for (const auto& [place, value] : old_leaves) {
    if (old_by_place.count(place) > 0) out.push_back({place.second, place.first, value, nullptr});
  }
  return out;
}

}  // namespace tally::daemon
