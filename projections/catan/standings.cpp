#include "projections/catan/standings.hpp"

#include "projections/catan/placing.hpp"
#include "projections/catan/table_record.hpp"
#include "text/collation.hpp"

#include <boost/json.hpp>
#include <boost/multiprecision/cpp_int.hpp>

#include <algorithm>
#include <map>
#include <numeric>

namespace tally::projections::catan {

namespace {

// Unbounded, so that the sum of shares over any number of games stays exact.
using Share = boost::multiprecision::cpp_rational;

struct Tally {
  std::uint32_t games = 0;
  Rational round_points;
  std::int64_t vp = 0;
  Share share_sum = 0;
};

}  // namespace

std::vector<StandingsRow> compute_standings(const Tournament& tournament, const CatanRules& rules,
                                            std::uint32_t through_round) {
  std::map<std::string, Tally> tallies;
  for (const auto& round : tournament.rounds) {
    if (round.number > through_round) continue;
    for (const auto& seated : round.tables) {
      const TableState* state = tournament.table(round.number, seated.number);
      if (state == nullptr) continue;
      auto placings = score_table(read_table(tournament, *state), rules);
      if (!placings) continue;
      std::int64_t table_vp = 0;
      for (const auto& p : *placings) table_vp += p.vp;
      for (const auto& p : *placings) {
        Tally& t = tallies[p.player];
        ++t.games;
        t.round_points += p.points;
        t.vp += p.vp;
        // Every player has at least 2 VP (C-3), so a checked table's total is never 0.
        if (table_vp > 0) t.share_sum += Share(p.vp) / Share(table_vp);
      }
    }
  }

  std::vector<StandingsRow> rows;
  std::vector<Share> mean_share;
  for (const auto& player : tournament.players) {
    StandingsRow row;
    row.player = player.id;
    row.name = player.name;
    row.active = !player.dropped;
    Share mean = 0;
    if (auto it = tallies.find(player.id); it != tallies.end()) {
      const Tally& t = it->second;
      row.games = t.games;
      row.round_points = t.round_points;
      row.vp = t.vp;
      mean = t.share_sum / t.games;
    }
    if (tournament.has_penalties()) {
      row.penalties = tournament.penalty_points(player.id, through_round);  // S-11
      row.round_points += *row.penalties;
    }
    row.vp_share = mean.str();
    row.vp_share_value = mean.convert_to<double>();
    rows.push_back(std::move(row));
    mean_share.push_back(std::move(mean));
  }

  const text::Collation collation(tournament.locale);
  std::vector<std::size_t> order(rows.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const StandingsRow &x = rows[a], &y = rows[b];
    if (x.round_points != y.round_points) return x.round_points > y.round_points;  // §5.1
    if (x.vp != y.vp) return x.vp > y.vp;                                          // §5.2
    if (mean_share[a] != mean_share[b]) return mean_share[a] > mean_share[b];      // §5.3
    if (int c = collation.compare(x.name, y.name); c != 0) return c < 0;           // §5.4
    return x.player < y.player;  // ids are unique: the order is total
  });

  // Rows equal on §5.1–§5.3 share a rank ("1, 2, 2, 4"): the name order of §5.4 orders them on
  // the list, it does not make one better than the other.
  auto sporting_tie = [&](std::size_t a, std::size_t b) {
    return rows[a].round_points == rows[b].round_points && rows[a].vp == rows[b].vp &&
           mean_share[a] == mean_share[b];
  };
  std::vector<std::uint32_t> ranks(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    ranks[i] = i > 0 && sporting_tie(order[i - 1], order[i]) ? ranks[i - 1]
                                                             : static_cast<std::uint32_t>(i + 1);
  }
  std::vector<StandingsRow> out;
  for (std::size_t i = 0; i < order.size(); ++i) {
    out.push_back(std::move(rows[order[i]]));
    out.back().rank = ranks[i];
  }
  return out;
}

boost::json::object standings_json(const std::vector<StandingsRow>& rows) {
  boost::json::array out;
  for (const auto& r : rows) {
    boost::json::object row{
        {"rank", r.rank},
        {"player", r.player},
        {"name", r.name},
        {"games", r.games},
        {"round_points", r.round_points.to_json()},
    };
    if (r.penalties) row["penalties"] = r.penalties->to_json();
    row["vp"] = r.vp;
    row["vp_share"] = boost::json::object{{"value", r.vp_share_value}, {"exact", r.vp_share}};
    row["dropped"] = !r.active;
    out.push_back(std::move(row));
  }
  return {{"rows", std::move(out)}};
}

}  // namespace tally::projections::catan
