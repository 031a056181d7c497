#include "projections/agot/standings.hpp"

#include "text/collation.hpp"

#include <boost/json/array.hpp>

#include <algorithm>
#include <numeric>
#include <set>
#include <tuple>

namespace tally::projections::agot {

namespace {

StandingsRow row_of(const Ledger& ledger, const projections::Player& player,
                    std::uint32_t last_round) {
  StandingsRow row;
  row.player = &player;
  for (std::uint32_t round = 1; round <= last_round; ++round) {
    const Seat* seat = ledger.seat(player.id, round);
    if (!seat) {
      row.results.push_back(RoundPoints{round, 0, true, false});
      continue;
    }
    if (!seat->result) continue;  // seated, not yet reported
    const PlayerResult& r = *seat->result;
    row.results.push_back(RoundPoints{
        round, game_points(ledger.rules(), r, round, seat->bonus_league).total(), false, false});
    ++row.games;
    if (r.place == 1) ++row.wins;
    std::set<House> captured(r.capitals_captured.begin(), r.capitals_captured.end());
    for (House h : captured) {
      if (is_house(h) && h != r.house) ++row.capitals_captured;
    }
    row.lands_captured += std::max(0, r.lands_captured);
  }
  // Only the best `counted_results` count: drop the worst, the earliest of equal ones first.
  const auto counted = static_cast<std::size_t>(ledger.rules().counted_results);
  if (row.results.size() > counted) {
    std::vector<std::size_t> order(row.results.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return row.results[a].points < row.results[b].points;
    });
    for (std::size_t i = 0; i < row.results.size() - counted; ++i)
      row.results[order[i]].dropped = true;
  }
  for (const auto& r : row.results) {
    if (!r.dropped) row.total += r.points;
  }
  row.penalties = ledger.tournament().penalty_points(player.id, last_round);
  return row;
}

}  // namespace

std::vector<StandingsRow> rank_players(const Ledger& ledger, std::uint32_t before_round) {
  const projections::Tournament& t = ledger.tournament();
  auto last_round = t.qualifying_rounds();  // a later stage's games are no league games
  if (before_round != 0) last_round = std::min(last_round, before_round - 1);

  struct Keyed {
    StandingsRow row;
    std::string name_key;
  };
  text::Collation collation(t.locale);
  std::vector<Keyed> keyed;
  for (const auto& p : t.players)
    keyed.push_back({row_of(ledger, p, last_round), collation.sort_key(p.name)});
  std::sort(keyed.begin(), keyed.end(), [](const Keyed& a, const Keyed& b) {
    const StandingsRow& x = a.row;
    const StandingsRow& y = b.row;
    const Rational xs = x.standing(), ys = y.standing();
    // Higher first for the figures; then name by collation, then id.
    return std::tie(ys, y.wins, y.capitals_captured, y.lands_captured, a.name_key, x.player->id) <
           std::tie(xs, x.wins, x.capitals_captured, x.lands_captured, b.name_key, y.player->id);
  });
  std::vector<StandingsRow> out;
  for (auto& k : keyed) out.push_back(std::move(k.row));
  return out;
}

std::vector<std::string> rating_order(const Ledger& ledger, std::uint32_t round,
                                      const std::vector<std::string>& players) {
  std::vector<std::string> out;
  for (const auto& row : rank_players(ledger, round)) {
    if (std::find(players.begin(), players.end(), row.player->id) != players.end()) {
      out.push_back(row.player->id);
    }
  }
  return out;
}

boost::json::object standings_json(const Ledger& ledger) {
  const projections::Tournament& t = ledger.tournament();
  std::vector<StandingsRow> rows = rank_players(ledger);
  // The league the rating gives each active player for the next round, when there is one
  // seated by standings (round 1 is a random draw).
  const std::size_t seated = t.qualifying_rounds();
  const bool next_by_rating =
      seated >= 1 && seated < static_cast<std::size_t>(ledger.rules().rounds);
  std::size_t active_place = 0;
  int most_captures = 0;
  for (const auto& r : rows) most_captures = std::max(most_captures, r.capitals_captured);

  boost::json::array out_rows;
  boost::json::array conqueror;
  std::int64_t rank = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const StandingsRow& r = rows[i];
    // Equal on every tie-break of agot.md §5 (total, wins, capitals, lands): the same rank; the
    // name orders the list but is no merit.
    auto key = [](const StandingsRow& x) {
      return std::make_tuple(x.standing(), x.wins, x.capitals_captured, x.lands_captured);
    };
    if (i == 0 || key(r) != key(rows[i - 1])) rank = static_cast<std::int64_t>(i + 1);
    boost::json::array results;
    for (const auto& g : r.results) {
      results.push_back(boost::json::object{
          {"round", std::int64_t{g.round}}, {"points", g.points}, {"dropped", g.dropped}});
    }
    boost::json::value next_league = nullptr;
    if (!r.player->dropped) {
      if (next_by_rating)
        next_league = boost::json::string(league_name(active_place / kPlayersPerTable));
      ++active_place;
    }
    boost::json::object row{{"rank", rank},
                            {"player", r.player->id},
                            {"name", r.player->name},
                            {"games", r.games},
                            {"results", std::move(results)}};
    if (t.has_penalties()) {  // S-11
      row["total"] = r.standing().to_json();
      row["penalties"] = r.penalties.to_json();
    } else {
      row["total"] = r.total;
    }
    row["wins"] = r.wins;
    row["capitals_captured"] = r.capitals_captured;
    row["lands_captured"] = r.lands_captured;
    row["next_league"] = std::move(next_league);
    out_rows.push_back(std::move(row));
    // "Conqueror": the most enemy capitals captured with a garrison; ties share it.
    if (most_captures > 0 && r.capitals_captured == most_captures)
      conqueror.emplace_back(r.player->id);
  }
  return boost::json::object{{"rows", std::move(out_rows)}, {"conqueror", std::move(conqueror)}};
}

}  // namespace tally::projections::agot
