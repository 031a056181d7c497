#include "projections/carcassonne/standings.hpp"

#include "text/collation.hpp"

#include <algorithm>
#include <map>

namespace tally::projections::carcassonne {

std::vector<TableOutcome> reported_outcomes(const projections::Tournament& t,
                                            const TournamentRules& rules) {
  std::vector<TableOutcome> out;
  for (const auto& round : t.rounds) {
    if (round.number > t.qualifying_rounds()) break;  // a later stage's games are not Swiss games
    for (const auto& seated : round.tables) {
      if (auto o =
              table_outcome(seated, t.table(round.number, seated.number), round.number, rules)) {
        out.push_back(std::move(*o));
      }
    }
  }
  return out;
}

std::vector<std::pair<std::string, int>> starts_so_far(const projections::Tournament& t) {
  std::vector<std::pair<std::string, int>> out;
  for (const auto& p : t.players) out.emplace_back(p.id, 0);
  for (const auto& round : t.rounds) {
    for (const auto& seated : round.tables) {
      if (seated.players.size() < 2) continue;
      for (auto& [id, n] : out) {
        if (id == seated.players.front()) ++n;
      }
    }
  }
  return out;
}

std::vector<StandingRow> standings_rows(const projections::Tournament& t,
                                        const TournamentRules& rules) {
  std::vector<StandingRow> rows;
  std::map<std::string, std::size_t> index;
  for (const auto& p : t.players) {
    index[p.id] = rows.size();
    rows.push_back(StandingRow{p.id, p.name, p.dropped});
  }
  for (const auto& [id, n] : starts_so_far(t)) {
    if (index.contains(id)) rows[index[id]].starts = n;
  }
  for (const auto& outcome : reported_outcomes(t, rules)) {
    for (const auto& me : outcome.players) {
      auto it = index.find(me.player);
      if (it == index.end()) continue;
      StandingRow& row = rows[it->second];
      ++row.games;
      row.points += me.points;
      row.score += me.score;
      if (outcome.bye) {
        ++row.byes;  // a win with score difference 0
        continue;
      }
      for (const auto& other : outcome.players) {
        if (other.player == me.player) continue;
        row.score_diff += me.score - other.score;
        row.opponents.push_back(other.player);
      }
    }
  }
  // Buchholz: the opponents' points, the weakest opponent's dropped.
  for (auto& row : rows) {
    std::vector<Rational> scores;
    for (const auto& o : row.opponents) {
      if (index.contains(o)) scores.push_back(rows[index[o]].points);
    }
    if (scores.empty()) continue;
    std::sort(scores.begin(), scores.end());
    for (std::size_t i = 1; i < scores.size(); ++i) row.buchholz += scores[i];
  }
  // S-11, after Buchholz: a penalty moves the player, not the players who met them.
  if (t.has_penalties()) {
    for (auto& row : rows) {
      row.penalties = t.penalty_points(row.player);
      row.points += row.penalties;
    }
  }
  text::Collation collation(t.locale);
  std::sort(rows.begin(), rows.end(), [&](const StandingRow& a, const StandingRow& b) {
    if (a.points != b.points) return a.points > b.points;
    if (a.buchholz != b.buchholz) return a.buchholz > b.buchholz;
    if (a.score_diff != b.score_diff) return a.score_diff > b.score_diff;
    if (a.score != b.score) return a.score > b.score;
    if (int c = collation.compare(a.name, b.name); c != 0) return c < 0;
    return a.player < b.player;
  });
  return rows;
}

boost::json::object standings_json(const projections::Tournament& t, const TournamentRules& rules) {
  boost::json::array out;
  auto rows = standings_rows(t, rules);
  int rank = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& row = rows[i];
    // Equal on every sporting criterion: the same rank ("1, 2, 2, 4"); the name orders the list
    // but is no merit.
    bool tie = i > 0 && row.points == rows[i - 1].points && row.buchholz == rows[i - 1].buchholz &&
               row.score_diff == rows[i - 1].score_diff && row.score == rows[i - 1].score;
    if (!tie) rank = static_cast<int>(i + 1);
    boost::json::object r;
    r["rank"] = rank;
    r["player"] = row.player;
    r["name"] = row.name;
    r["games"] = row.games;
    r[rules.by_wins() ? "wins" : "round_points"] = row.points.to_json();
    if (t.has_penalties()) r["penalties"] = row.penalties.to_json();
    r["buchholz"] = row.buchholz.to_json();
    r["score_diff"] = row.score_diff;
    r["score"] = row.score;
    r["byes"] = row.byes;
    r["dropped"] = row.dropped;
    out.push_back(std::move(r));
  }
  return boost::json::object{{"rows", std::move(out)}};
}

}  // namespace tally::projections::carcassonne
