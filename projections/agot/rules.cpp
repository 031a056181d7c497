#include "projections/agot/rules.hpp"

#include <boost/json/array.hpp>

#include <optional>

namespace tally::projections::agot {

namespace {

using projections::RuleError;
using projections::RuleErrors;

// No points value needs more; keeps every sum far from overflow.
constexpr int kMaxPoints = 1000;

struct Reader {
  RuleErrors errors;

  void refuse(std::string_view key, i18n::Message message) {
    errors.push_back(RuleError{"rules", "", std::string(key), std::move(message)});
  }

  // `entry`: the value is one entry of the list `key`.
  std::optional<int> integer(std::string_view key, const boost::json::value& v, int lo, int hi,
                             bool entry = false) {
    if (!v.is_int64() || v.as_int64() < lo || v.as_int64() > hi) {
      refuse(key, i18n::Message(entry ? "agot.rules.entry_range" : "agot.rules.range",
                                {{"rule", std::string(key)}, {"min", lo}, {"max", hi}}));
      return std::nullopt;
    }
    return static_cast<int>(v.as_int64());
  }

  // An array of points of exactly `size` entries (or 1..size when `up_to`).
  std::optional<std::vector<int>> points(std::string_view key, const boost::json::value& v,
                                         std::size_t size, bool up_to) {
    const boost::json::array* a = v.if_array();
    bool size_ok = a && (up_to ? a->size() <= size : a->size() == size);
    if (!size_ok) {
      refuse(key, i18n::Message(up_to ? "agot.rules.points_at_most" : "agot.rules.points",
                                {{"rule", std::string(key)}, {"size", size}}));
      return std::nullopt;
    }
    std::vector<int> out;
    for (const auto& item : *a) {
      auto p = integer(key, item, 0, kMaxPoints, true);
      if (!p) return std::nullopt;
      out.push_back(*p);
    }
    return out;
  }
};

bool is_league_name(std::string_view s) {
  if (s.empty() || s.size() > 2) return false;
  for (char c : s) {
    if (c < 'A' || c > 'Z') return false;
  }
  return true;
}

struct Parsed {
  Rules rules;
  RuleErrors errors;
};

Parsed parse(const boost::json::object& in) {
  Reader r;
  Rules rules;
  for (const auto& [key_sv, value] : in) {
    std::string_view key = key_sv;
    if (key == "rounds") {
      if (auto v = r.integer(key, value, 1, 6)) rules.rounds = *v;
    } else if (key == "counted_results") {
      if (auto v = r.integer(key, value, 1, 6)) rules.counted_results = *v;
    } else if (key == "place_points") {
      if (auto v = r.points(key, value, 6, false))
        std::copy(v->begin(), v->end(), rules.place_points.begin());
    } else if (key == "castle_points") {
      if (auto v = r.points(key, value, kMaxCastles + 1, false)) {
        std::copy(v->begin(), v->end(), rules.castle_points.begin());
      }
    } else if (key == "league_bonus") {
      const boost::json::object* leagues = value.if_object();
      if (!leagues) {
        r.refuse(key, "agot.rules.league_bonus");
        continue;
      }
      std::map<std::string, std::vector<int>> bonus;
      bool ok = true;
      for (const auto& [league, points] : *leagues) {
        if (!is_league_name(league)) {
          r.refuse(key,
                   i18n::Message("agot.rules.not_a_league", {{"league", std::string(league)}}));
          ok = false;
          continue;
        }
        auto p = r.points(key, points, kPlayersPerTable, true);
        if (!p)
          ok = false;
        else
          bonus[std::string(league)] = *p;
      }
      if (ok) rules.league_bonus = std::move(bonus);
    } else if (key == "capitals_cap") {
      // 5 first captures + 6 capitals held is the most a game can give.
      if (auto v = r.integer(key, value, 0, 11)) rules.capitals_cap = *v;
    } else if (key == "league_bonus_from_round") {
      if (auto v = r.integer(key, value, 1, 7)) rules.league_bonus_from_round = *v;
    } else if (key == "players_per_table" || key == "players_per_league" || key == "leagues" ||
               key == "tables") {
      r.refuse(key, "agot.rules.not_configurable");
    } else {
      r.refuse(key, i18n::Message("agot.rules.unknown", {{"rule", std::string(key)}}));
    }
  }
  return Parsed{std::move(rules), std::move(r.errors)};
}

boost::json::array to_array(const auto& values) {
  boost::json::array out;
  for (int v : values) out.emplace_back(v);
  return out;
}

}  // namespace

int Rules::league_bonus_points(const std::string& league, int place) const {
  auto it = league_bonus.find(league);
  if (it == league_bonus.end() || place < 1 || place > static_cast<int>(it->second.size()))
    return 0;
  return it->second[place - 1];
}

boost::json::object Rules::to_json() const {
  boost::json::object bonus;
  for (const auto& [league, points] : league_bonus) bonus[league] = to_array(points);
  return boost::json::object{{"rounds", rounds},
                             {"counted_results", counted_results},
                             {"place_points", to_array(place_points)},
                             {"castle_points", to_array(castle_points)},
                             {"league_bonus", std::move(bonus)},
                             {"capitals_cap", capitals_cap},
                             {"league_bonus_from_round", league_bonus_from_round}};
}

projections::Outcome<boost::json::object> normalize_rules(const boost::json::object& overrides) {
  Parsed p = parse(overrides);
  if (!p.errors.empty())
    return projections::Outcome<boost::json::object>::refused(std::move(p.errors));
  return projections::Outcome<boost::json::object>::ok(p.rules.to_json());
}

Rules rules_of(const boost::json::object& stored) { return parse(stored).rules; }

std::string league_name(std::size_t index) {
  std::string out;
  ++index;  // bijective base 26: 1 → A, 26 → Z, 27 → AA
  while (index > 0) {
    --index;
    out.insert(out.begin(), static_cast<char>('A' + index % 26));
    index /= 26;
  }
  return out;
}

}  // namespace tally::projections::agot
