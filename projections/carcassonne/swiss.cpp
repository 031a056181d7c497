#include "projections/carcassonne/swiss.hpp"

#include "projections/carcassonne/standings.hpp"
#include "projections/keep_apart.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <set>

namespace tally::projections::carcassonne {

using projections::Outcome;
using projections::RuleError;
using projections::RuleErrors;
using projections::SeatedTable;
using projections::Seating;
using projections::SeatingRequest;
using schema::SeatingMethod;

namespace {

// A uniform draw in [0, bound) without modulo bias.
std::uint64_t draw_below(std::uint64_t bound, std::mt19937_64& rng) {
  std::uint64_t limit =
      std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % bound;
  std::uint64_t x;
  do {
    x = rng();
  } while (x >= limit);
  return x % bound;
}

// How often each pair of players has met at a table.
class Meetings {
 public:
  explicit Meetings(const projections::Tournament& t) {
    for (const auto& round : t.rounds) {
      for (const auto& table : round.tables) {
        for (std::size_t i = 0; i < table.players.size(); ++i) {
          for (std::size_t j = i + 1; j < table.players.size(); ++j) {
            ++met_[key(table.players[i], table.players[j])];
          }
        }
      }
    }
  }
  int times(const std::string& a, const std::string& b) const {
    auto it = met_.find(key(a, b));
    return it == met_.end() ? 0 : it->second;
  }

 private:
  static std::pair<std::string, std::string> key(const std::string& a, const std::string& b) {
    return a < b ? std::pair{a, b} : std::pair{b, a};
  }
  std::map<std::pair<std::string, std::string>, int> met_;
};

// Pairs `ranked` (best first) top-down: the highest unpaired player meets the next one they may
// meet; with at most `allowance` rematches and at most `apart_allowance` kept-apart pairs (S-9)
// in all. Depth-first with a node budget, so that a pathological case cannot run away (the
// caller then relaxes the allowances).
class Pairer {
 public:
  Pairer(const Meetings& meetings, int allowance, const projections::Tournament& t,
         int apart_allowance)
      : meetings_(meetings), allowance_(allowance), t_(t), apart_allowance_(apart_allowance) {}

  bool pair(std::vector<std::string> ranked, std::vector<std::vector<std::string>>& out) {
    out.clear();
    return step(ranked, 0, 0, out);
  }

 private:
  static constexpr long kBudget = 20000;

  bool step(std::vector<std::string>& rest, int rematches, int together,
            std::vector<std::vector<std::string>>& out) {
    if (rest.empty()) return true;
    if (++nodes_ > kBudget) return false;
    std::string first = rest.front();
    for (std::size_t j = 1; j < rest.size(); ++j) {
      int r = meetings_.times(first, rest[j]) > 0 ? 1 : 0;
      if (rematches + r > allowance_) continue;
      int apart = t_.kept_apart(first, rest[j]) ? 1 : 0;
      if (together + apart > apart_allowance_) continue;
      std::string second = rest[j];
      std::vector<std::string> remaining;
      for (std::size_t k = 1; k < rest.size(); ++k) {
        if (k != j) remaining.push_back(rest[k]);
      }
      out.push_back({first, second});
      if (step(remaining, rematches + r, together + apart, out)) return true;
      out.pop_back();
      if (nodes_ > kBudget) return false;
    }
    return false;
  }

  const Meetings& meetings_;
  int allowance_;
  const projections::Tournament& t_;
  int apart_allowance_;
  long nodes_ = 0;
};

struct Plan {
  std::vector<std::vector<std::string>> tables;
  std::optional<std::string> bye;
};

// One pairing within the allowances: of everyone, or of everyone but a bye candidate (the first
// that leaves a pairing); false when none was found.
bool try_pairing(const projections::Tournament& t, const std::vector<std::string>& ranked,
                 const Meetings& meetings, const std::vector<std::string>& bye_candidates,
                 int allowance, int together, Plan& plan) {
  if (bye_candidates.empty())
    return Pairer(meetings, allowance, t, together).pair(ranked, plan.tables);
  for (const auto& candidate : bye_candidates) {
    std::vector<std::string> rest;
    for (const auto& p : ranked) {
      if (p != candidate) rest.push_back(p);
    }
    if (Pairer(meetings, allowance, t, together).pair(rest, plan.tables)) {
      plan.bye = candidate;
      return true;
    }
  }
  return false;
}

// 2-player tables: the pairing with the fewest rematches (the game's own rule first), among
// those the fewest kept-apart pairs (S-9); for an odd count the bye goes to the lowest-ranked
// player without one (then with the fewest byes) among those choices.
Plan pair_swiss(const projections::Tournament& t, const std::vector<std::string>& ranked,
                const Meetings& meetings, const std::map<std::string, int>& byes) {
  Plan plan;
  std::vector<std::string> bye_candidates;
  if (ranked.size() % 2 == 1) {
    bye_candidates.assign(ranked.rbegin(), ranked.rend());  // lowest-ranked first
    std::stable_sort(
        bye_candidates.begin(), bye_candidates.end(),
        [&](const std::string& a, const std::string& b) { return byes.at(a) < byes.at(b); });
  }
  int max_allowance = static_cast<int>(ranked.size() / 2);
  // Without kept-apart pairs this is the one pass the pairing always made.
  const int max_together =
      std::min(max_allowance, static_cast<int>(t.kept_apart_among(ranked).size()));
  for (int allowance = 0; allowance <= max_allowance; ++allowance) {
    for (int together = 0; together <= max_together; ++together) {
      if (try_pairing(t, ranked, meetings, bye_candidates, allowance, together, plan)) return plan;
    }
  }
  // Unreachable in practice (the last allowance admits every pairing); pair in order.
  plan.tables.clear();
  std::vector<std::string> rest = ranked;
  if (!bye_candidates.empty()) {
    plan.bye = bye_candidates.front();
    std::erase(rest, *plan.bye);
  }
  for (std::size_t i = 0; i + 1 < rest.size(); i += 2)
    plan.tables.push_back({rest[i], rest[i + 1]});
  return plan;
}

// Larger tables: sizes differing by at most one, filled top-down; each next seat goes to the
// best-ranked remaining player with the fewest earlier meetings with those already seated, a
// kept-apart player there (S-9) weighing more than any repeats; then the swaps that part what
// is still together, each at the least rise in repeats.
Plan group_tables(const projections::Tournament& tournament, const std::vector<std::string>& ranked,
                  int table_size, const Meetings& meetings, std::uint64_t seed) {
  constexpr int kApartWeight = 1'000'000;
  Plan plan;
  std::size_t n = ranked.size();
  std::size_t count =
      (n + static_cast<std::size_t>(table_size) - 1) / static_cast<std::size_t>(table_size);
  std::vector<std::string> rest = ranked;
  for (std::size_t t = 0; t < count; ++t) {
    std::size_t size = n / count + (t < n % count ? 1 : 0);
    std::vector<std::string> table{rest.front()};
    rest.erase(rest.begin());
    while (table.size() < size) {
      std::size_t best = 0;
      int best_repeats = -1;
      for (std::size_t i = 0; i < rest.size(); ++i) {
        int repeats = 0;
        for (const auto& seated : table) {
          repeats += meetings.times(seated, rest[i]);
          if (tournament.kept_apart(seated, rest[i])) repeats += kApartWeight;
        }
        if (best_repeats < 0 || repeats < best_repeats) {
          best = i;
          best_repeats = repeats;
        }
      }
      table.push_back(rest[best]);
      rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(best));
    }
    plan.tables.push_back(std::move(table));
  }
  projections::SeparateOptions options;
  options.seed = seed;
  options.table_cost = [&meetings](const std::vector<std::string>& table) {
    std::int64_t n = 0;
    for (std::size_t i = 0; i < table.size(); ++i) {
      for (std::size_t j = i + 1; j < table.size(); ++j) n += meetings.times(table[i], table[j]);
    }
    return n;
  };
  projections::separate_kept_apart(tournament, plan.tables, options);
  return plan;
}

// Seat order: the player who has started fewer games first; equal → random.
void order_seats(std::vector<std::string>& table, const std::map<std::string, int>& starts,
                 std::mt19937_64& rng) {
  std::map<std::string, std::uint64_t> tie_break;
  for (const auto& p : table) tie_break[p] = rng();
  std::sort(table.begin(), table.end(), [&](const std::string& a, const std::string& b) {
    if (starts.at(a) != starts.at(b)) return starts.at(a) < starts.at(b);
    return tie_break.at(a) < tie_break.at(b);
  });
}

// A seed for the start-order draw of a standings round when the request brings none: a pure
// function of the tournament and the round (FNV-1a).
std::uint64_t derived_seed(const projections::Tournament& t, std::uint32_t round) {
  std::uint64_t h = 1469598103934665603ull;
  for (char c : t.id + "/" + std::to_string(round)) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  return h;
}

RuleErrors check_manual(const projections::Tournament& t, const TournamentRules& rules,
                        const std::vector<std::vector<std::string>>& tables) {
  RuleErrors errors;
  std::map<std::string, int> seen;
  int byes = 0;
  for (std::size_t i = 0; i < tables.size(); ++i) {
    std::string field = "tables[" + std::to_string(i) + "]";
    const auto& table = tables[i];
    if (table.size() == 1) {
      if (!rules.by_wins()) {
        errors.push_back({"seating", table[0], field, "carcassonne.seating.bye_size"});
      } else if (++byes > 1) {
        errors.push_back({"seating", table[0], field, "carcassonne.seating.one_bye"});
      }
    } else if (table.empty() || table.size() > 6) {
      errors.push_back({"seating", "", field, "carcassonne.seating.table_size"});
    }
    for (const auto& p : table) {
      const projections::Player* player = t.player(p);
      if (player == nullptr) {
        // Not a player: the id as it was sent (there is no name to show).
        errors.push_back({"seating", p, field,
                          i18n::Message("carcassonne.seating.unknown_player", {{"id", p}})});
      } else if (player->dropped) {
        errors.push_back(
            {"seating", p, field,
             i18n::Message("carcassonne.seating.dropped", {{"player", i18n::PlayerRef{p}}})});
      }
      if (++seen[p] == 2) {
        errors.push_back(
            {"seating", p, field,
             i18n::Message("carcassonne.seating.seated_twice", {{"player", i18n::PlayerRef{p}}})});
      }
    }
  }
  for (const auto* p : t.seatable_players()) {
    if (!seen.contains(p->id)) {
      errors.push_back(
          {"seating", p->id, "tables",
           i18n::Message("carcassonne.seating.not_seated", {{"player", i18n::PlayerRef{p->id}}})});
    }
  }
  return errors;
}

}  // namespace

void seeded_shuffle(std::vector<std::string>& items, std::mt19937_64& rng) {
  for (std::size_t i = items.size(); i > 1; --i) {
    std::size_t j = draw_below(i, rng);
    std::swap(items[i - 1], items[j]);
  }
}

Outcome<Seating> seat_round(const projections::Tournament& t, const TournamentRules& rules,
                            const SeatingRequest& request) {
  SeatingMethod method = request.method.value_or(request.round <= 1 ? SeatingMethod::RANDOM
                                                                    : SeatingMethod::STANDINGS);
  Seating seating;
  seating.method = method;

  if (method == SeatingMethod::MANUAL) {
    if (auto errors = check_manual(t, rules, request.tables); !errors.empty()) {
      return Outcome<Seating>::refused(std::move(errors));
    }
    for (std::size_t i = 0; i < request.tables.size(); ++i) {
      seating.tables.push_back({static_cast<std::uint32_t>(i + 1), request.tables[i], "", {}});
    }
    return Outcome<Seating>::ok(std::move(seating));
  }

  std::vector<std::string> ranked;
  if (method == SeatingMethod::RANDOM) {
    for (const auto* p : t.seatable_players()) ranked.push_back(p->id);
  } else {
    std::set<std::string, std::less<>> seatable;
    for (const auto* p : t.seatable_players()) seatable.insert(p->id);
    for (const auto& row : standings_rows(t, rules)) {
      if (seatable.contains(row.player)) ranked.push_back(row.player);
    }
  }
  if (ranked.empty()) {
    return Outcome<Seating>::refused("seating", "carcassonne.seating.no_players");
  }
  if (!rules.by_wins() && ranked.size() < 2) {
    return Outcome<Seating>::refused("seating", "carcassonne.seating.too_few");
  }

  // Only a random round takes the request's seed (stored with the seating). A standings round's
  // start-order draw uses the derived seed: the API takes no seed for it and stores none, so a
  // seed the daemon makes up for every request must not decide it.
  std::uint64_t seed = method == SeatingMethod::RANDOM && request.seed != 0
                           ? request.seed
                           : derived_seed(t, request.round);
  std::mt19937_64 rng(seed);
  if (method == SeatingMethod::RANDOM) {
    seeded_shuffle(ranked, rng);
    seating.seed = request.seed;
  }

  std::map<std::string, int> byes;
  std::map<std::string, int> starts;
  for (const auto& p : ranked) byes[p] = starts[p] = 0;
  for (const auto& round : t.rounds) {
    for (const auto& table : round.tables) {
      if (table.players.size() == 1 && byes.contains(table.players[0])) ++byes[table.players[0]];
    }
  }
  for (const auto& [id, n] : starts_so_far(t)) {
    if (starts.contains(id)) starts[id] = n;
  }

  Meetings meetings(t);
  Plan plan = rules.by_wins() ? pair_swiss(t, ranked, meetings, byes)
                              : group_tables(t, ranked, rules.table_size, meetings, seed);
  std::uint32_t number = 0;
  for (auto& table : plan.tables) {
    order_seats(table, starts, rng);
    seating.tables.push_back({++number, std::move(table), "", {}});
  }
  if (plan.bye) seating.tables.push_back({++number, {*plan.bye}, "", {}});
  return Outcome<Seating>::ok(std::move(seating));
}

}  // namespace tally::projections::carcassonne
