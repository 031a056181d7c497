#include "projections/carcassonne/feature_scoring.hpp"

#include <algorithm>
#include <array>
#include <map>

namespace tally::projections::carcassonne {

namespace {

bool contains(const std::vector<std::string>& list, const std::string& s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

// Players with at least one figure matching `pred`, in order of first appearance.
template <typename Pred>
std::vector<std::string> players_with(const FeatureEvent& e, Pred pred) {
  std::vector<std::string> out;
  for (const auto& f : e.figures) {
    if (pred(f) && !contains(out, f.player)) out.push_back(f.player);
  }
  return out;
}

std::int64_t followers_of(const FeatureEvent& e, const std::string& player) {
  return std::count_if(e.figures.begin(), e.figures.end(), [&](const PlacedFigure& f) {
    return f.player == player && f.spec->follower;
  });
}

// §4.6 Watchtower: points per symbol counted over the watchtower tile and the 8 around.
struct WatchtowerSymbol {
  std::string_view symbol;
  std::int64_t points;  // per follower / tile / building / pennant counted
};
constexpr std::array<WatchtowerSymbol, 5> kWatchtower = {{
    {"meeple", 2},     // per follower, all players'
    {"road", 1},       // per tile with a road segment (bridges count)
    {"monastery", 3},  // per monastic building
    {"pennant", 2},    // per pennant
    {"city", 1},       // per tile with a city segment
}};

std::int64_t watchtower_points(std::string_view symbol) {
  for (const auto& w : kWatchtower) {
    if (w.symbol == symbol) return w.points;
  }
  return 0;
}

void prolog(const FeatureEvent& e, Scoring& out) {
  const Bonuses& b = e.bonuses;
  // Watchtower next to a follower's segment: the player must have that follower here.
  for (const auto& w : b.watchtowers) {
    if (followers_of(e, w.player) == 0) continue;
    out.add(w.player, "watchtower." + w.symbol, w.count, w.count * watchtower_points(w.symbol));
  }
  // Tollkeepers: toll 1 gives 1 per farmhouse, stable, garden and highwayman and 3 per group of
  // travellers; toll 2 doubles that.
  for (const auto& t : b.tollkeepers) {
    if (t.roadside > 0) out.add(t.player, "tollkeeper.roadside", t.roadside, t.toll * t.roadside);
    if (t.travellers > 0) {
      out.add(t.player, "tollkeeper.travellers", t.travellers, 3 * t.toll * t.travellers);
    }
  }
  // Gingerbread man leaving a completed city: each player 1 per tile per own follower.
  if (b.gingerbread_man) {
    for (const auto& player :
         players_with(e, [](const PlacedFigure& f) { return f.spec->follower; })) {
      std::int64_t n = followers_of(e, player);
      out.add(player, "gingerbread_man", n, n * actual_tiles(e));
    }
  }
}

// The per-player adjustments of a majority holder: they change what the player receives, not the
// feature's value.
void adjust(const FeatureEvent& e, const std::string& player, std::int64_t value, Scoring& out) {
  const Modifiers& m = e.modifiers;
  // §4.4 Pig: +1 per city or castle for the pig's owner (a besieged city counts double).
  if (e.feature == Feature::field && m.barn != Barn::final) {
    bool pig = std::any_of(e.figures.begin(), e.figures.end(), [&](const PlacedFigure& f) {
      return f.player == player && f.spec->figure == Figure::pig;
    });
    if (pig) {
      std::int64_t cities = static_cast<std::int64_t>(m.cities.size());
      std::int64_t besieged = std::count(m.cities.begin(), m.cities.end(), true);
      if (cities + m.castles > 0)
        out.add(player, "field.pig", cities + m.castles, cities + besieged + m.castles);
    }
  }
  // §4.6 Ghosts: −2 per ghost next to this majority holder's followers.
  for (const auto& [ghost_player, ghosts] : m.ghosts) {
    if (ghost_player == player && ghosts > 0) out.add(player, "ghosts", ghosts, -2 * ghosts);
  }
  // §4.1 Markets of Leipzig: a player who sends their only follower on the road to Leipzig
  // receives ×0 for the feature (the majority is not recomputed).
  if (const auto& sent = e.bonuses.leipzig_sent) {
    if (sent->player == player && followers_of(e, player) == 1 && value != 0) {
      out.add(player, "leipzig_sent", std::nullopt, -value);
    }
  }
}

void epilog(const FeatureEvent& e, const std::vector<std::string>& holders, std::int64_t value,
            Scoring& out) {
  const Bonuses& b = e.bonuses;
  // Teacher: the same as the feature scored — nothing when nobody scored it in full.
  if (b.teacher) {
    bool scored = std::any_of(holders.begin(), holders.end(), [&](const std::string& h) {
      return !(b.leipzig_sent && b.leipzig_sent->player == h && followers_of(e, h) == 1);
    });
    out.add(*b.teacher, "teacher", std::nullopt, scored ? value : 0);
  }
  // Markets of Leipzig. Wainwrights: +1 per actual tile, road majority required.
  for (const auto& p : b.wainwrights) {
    if (contains(holders, p)) out.add(p, "wainwrights", actual_tiles(e), actual_tiles(e));
  }
  // Coiners: +3 per pennant, presence in the city required (no majority).
  for (const auto& p : b.coiners) {
    if (followers_of(e, p) > 0 && e.pennants > 0) out.add(p, "coiners", e.pennants, 3 * e.pennants);
  }
  // Bookbinders: +4 per scored monastery; the feature must be occupied.
  for (const auto& p : b.bookbinders) {
    if (!holders.empty()) out.add(p, "bookbinders", 1, 4);
  }
  // Darmstadt church: +3 to the majority of followers on the church tile and the 8 around.
  if (!b.darmstadt_church.empty()) {
    std::int64_t top = 0;
    for (const auto& [p, n] : b.darmstadt_church) top = std::max(top, n);
    for (const auto& [p, n] : b.darmstadt_church) {
      if (top > 0 && n == top) out.add(p, "darmstadt_church", n, 3);
    }
  }
  // Ringmaster: 2 per circus or acrobat tile, even if the feature scored nothing.
  for (const auto& r : b.ringmasters) {
    if (r.circus_tiles > 0) out.add(r.player, "ringmaster", r.circus_tiles, 2 * r.circus_tiles);
  }
  // Fairy next to the player's follower: +3 (during play only, D-4).
  if (b.fairy && followers_of(e, *b.fairy) > 0) out.add(*b.fairy, "fairy", std::nullopt, 3);
  // Fortune teller: the player who completed the tent +3.
  if (b.completer) out.add(*b.completer, "fortune_teller.completer", std::nullopt, 3);
}

}  // namespace

std::vector<std::string> majority_holders(const FeatureEvent& e) {
  if (e.feature == Feature::field && e.modifiers.barn == Barn::final) {
    return players_with(e, [](const PlacedFigure& f) { return f.spec->figure == Figure::barn; });
  }
  if (e.feature == Feature::city && e.modifiers.surveyor_is(Surveyor::citizens_jury)) {
    return players_with(e, [](const PlacedFigure& f) { return f.spec->follower; });
  }
  std::vector<std::pair<std::string, std::int64_t>> strength;
  for (const auto& f : e.figures) {
    std::int64_t s = f.spec->strength == kPennantStrength ? e.pennants : f.spec->strength;
    auto it = std::find_if(strength.begin(), strength.end(),
                           [&](const auto& p) { return p.first == f.player; });
    if (it == strength.end()) {
      strength.emplace_back(f.player, s);
    } else {
      it->second += s;
    }
  }
  std::int64_t top = 0;
  for (const auto& [p, s] : strength) top = std::max(top, s);
  std::vector<std::string> out;
  if (top < 1) return out;
  for (const auto& [p, s] : strength) {
    if (s == top) out.push_back(p);
  }
  return out;
}

Scoring score_feature(const FeatureEvent& e) {
  Scoring out;
  prolog(e, out);
  FeatureValue value = feature_value(e);
  std::int64_t total = value.total();
  std::vector<std::string> holders = majority_holders(e);
  for (const auto& holder : holders) {
    for (const auto& item : value.items) out.add(holder, item.rule, item.count, item.points);
    adjust(e, holder, total, out);
  }
  epilog(e, holders, total, out);
  return out;
}

std::vector<std::string> feature_scoring_rule_names() {
  std::vector<std::string> out;
  for (const auto& w : kWatchtower) out.push_back("watchtower." + std::string(w.symbol));
  for (auto n : {"tollkeeper.roadside", "tollkeeper.travellers", "gingerbread_man", "field.pig",
                 "ghosts", "leipzig_sent", "teacher", "wainwrights", "coiners", "bookbinders",
                 "darmstadt_church", "ringmaster", "fairy", "fortune_teller.completer"}) {
    out.emplace_back(n);
  }
  return out;
}

}  // namespace tally::projections::carcassonne
