#include "projections/ratings.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <tuple>
#include <unordered_map>

namespace tally::projections {

namespace json = boost::json;

Rating initial_rating(const RatingModel& model) { return Rating{model.mu, model.sigma, 0}; }

// openskill.js 5.0.1, rate() and models/plackett-luce.ts with the default gamma
// (√σᵢ²/c) and teams of one, step for step and in its order of summation, so that the results
// agree to the last bits rather than only within the contract's 1e-6.
std::vector<Rating> rate_game(const std::vector<Rating>& before,
                              const std::vector<std::uint32_t>& places, const RatingModel& model) {
  const std::size_t n = before.size();
  // rate(): σ² + τ² before the game (with τ = 0 this is σ again, as the reference computes it).
  std::vector<double> mu(n), sigma(n);
  for (std::size_t i = 0; i < n; ++i) {
    mu[i] = before[i].mu;
    sigma[i] = std::sqrt(before[i].sigma * before[i].sigma + model.tau * model.tau);
  }
  // rate() sorts the teams by rank (stably) and the model sums in that order.
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return places[a] < places[b]; });

  const double beta_sq = model.beta * model.beta;
  double c_sq = 0;
  for (std::size_t i : order) c_sq += sigma[i] * sigma[i] + beta_sq;
  const double c = std::sqrt(c_sq);

  // sumQ[q]: Σ exp(μᵢ/c) over the players placed at q or worse; a[q]: how many share q's place.
  std::vector<double> sum_q(n, 0.0);
  std::vector<double> a(n, 0.0);
  for (std::size_t q : order) {
    for (std::size_t i : order) {
      if (places[i] >= places[q]) sum_q[q] += std::exp(mu[i] / c);
      if (places[i] == places[q]) a[q] += 1;
    }
  }

  std::vector<Rating> after(n);
  for (std::size_t i : order) {
    const double sigma_sq = sigma[i] * sigma[i];
    const double mu_over_ce = std::exp(mu[i] / c);
    double omega_sum = 0;
    double delta_sum = 0;
    for (std::size_t q : order) {
      if (places[q] > places[i]) continue;  // only the places at or above i's
      const double quotient = mu_over_ce / sum_q[q];
      omega_sum += (i == q ? 1 - quotient : -quotient) / a[q];
      delta_sum += quotient * (1 - quotient) / a[q];
    }
    const double gamma = std::sqrt(sigma_sq) / c;
    const double omega = omega_sum * (sigma_sq / c);
    const double delta = delta_sum * (sigma_sq / (c * c)) * gamma;
    // A team of one: the player's share of the team's variance is σ²/σ² = 1, kept as written
    // there so that the arithmetic stays the reference's.
    const double share = sigma[i] * sigma[i] / sigma_sq;
    after[i].mu = mu[i] + share * omega;
    after[i].sigma = sigma[i] * std::sqrt(std::max(1 - share * delta, model.kappa));
    after[i].games = before[i].games + 1;
  }
  return after;
}

RatedIdentity tournament_identity(const Tournament& t, std::string_view player) {
  const Player* p = t.player(player);
  return RatedIdentity{.key = t.id + "/" + std::string(player),
                       .name = p != nullptr ? p->name : std::string(player),
                       .person = "",
                       .tournament = t.id,
                       .player = std::string(player)};
}

std::vector<RatedGame> tournament_games(const Tournament& t, const Game& game,
                                        const IdentityOf& identity) {
  std::vector<RatedGame> games;
  // Each player's identity once: a player plays many tables, and finding one is a search.
  std::unordered_map<std::string, RatedIdentity> identities;
  auto identity_of = [&](std::string_view player) -> const RatedIdentity& {
    auto it = identities.find(std::string(player));
    if (it == identities.end()) {
      it = identities.emplace(std::string(player), identity(t, player)).first;
    }
    return it->second;
  };
  for (const auto& [key, state] : t.tables) {
    if (state.result() == nullptr) continue;  // nothing in effect: no game (yet, or any more)
    // The game's own placing of the table; a game's rule is never read here.
    auto result = game.table_result(t, state);
    if (!result) continue;
    const json::value* players = result->if_contains("players");
    if (players == nullptr || !players->is_array() || players->as_array().size() < 2) continue;
    RatedGame g{t.id, key.first, key.second, state.first_result_seq, state.first_result_at, {}};
    for (const json::value& entry : players->as_array()) {
      const json::object& p = entry.as_object();
      const std::int64_t place = place_number(p.if_contains("place"));
      g.seats.push_back({identity_of(p.at("player").as_string()),
                         static_cast<std::uint32_t>(std::max<std::int64_t>(place, 0))});
    }
    games.push_back(std::move(g));
  }
  // in the order the results were first entered (a table's key orders those entered in
  // one event, which cannot happen today but keeps the order total).
  std::sort(games.begin(), games.end(), [](const RatedGame& a, const RatedGame& b) {
    return std::tie(a.first_seq, a.round, a.table) < std::tie(b.first_seq, b.round, b.table);
  });
  return games;
}

std::vector<RatedGame> merge_games(std::vector<std::vector<RatedGame>> tournaments) {
  std::vector<RatedGame> all;
  for (auto& games : tournaments) {
    std::move(games.begin(), games.end(), std::back_inserter(all));
  }
  std::stable_sort(all.begin(), all.end(), [](const RatedGame& a, const RatedGame& b) {
    return std::tie(a.first_at, a.tournament, a.first_seq) <
           std::tie(b.first_at, b.tournament, b.first_seq);
  });
  return all;
}

std::vector<RatedPlayer> rate_games(const std::vector<RatedGame>& games, const RatingModel& model) {
  std::vector<RatedPlayer> players;
  std::unordered_map<std::string, std::size_t> index;
  std::vector<std::size_t> seats;
  std::vector<Rating> before;
  std::vector<std::uint32_t> places;
  for (const RatedGame& game : games) {
    seats.clear();
    before.clear();
    places.clear();
    for (const RatedSeat& seat : game.seats) {
      auto [it, added] = index.try_emplace(seat.identity.key, players.size());
      if (added) players.push_back({seat.identity, initial_rating(model)});
      players[it->second].identity = seat.identity;  // named as the newest game names them
      seats.push_back(it->second);
      before.push_back(players[it->second].rating);
      places.push_back(seat.place);
    }
    const std::vector<Rating> after = rate_game(before, places, model);
    for (std::size_t k = 0; k < seats.size(); ++k) players[seats[k]].rating = after[k];
  }
  return players;
}

std::vector<RankedPlayer> ranked(std::vector<RatedPlayer> players,
                                 const text::Collation& collation) {
  // The collation's keys once per player, not once per comparison.
  struct Keyed {
    double rating;
    std::string name_key;
    RatedPlayer* player;
  };
  std::vector<Keyed> keyed;
  keyed.reserve(players.size());
  for (RatedPlayer& p : players) {
    keyed.push_back({p.rating.display(), collation.sort_key(p.identity.name), &p});
  }
  std::sort(keyed.begin(), keyed.end(), [](const Keyed& a, const Keyed& b) {
    if (a.rating != b.rating) return a.rating > b.rating;
    return std::tie(a.name_key, a.player->identity.key) <
           std::tie(b.name_key, b.player->identity.key);
  });
  std::vector<RankedPlayer> out;
  out.reserve(keyed.size());
  for (std::size_t i = 0; i < keyed.size(); ++i) {
    const bool shared = i > 0 && keyed[i].rating == keyed[i - 1].rating;
    out.push_back({shared ? out.back().rank : static_cast<std::uint32_t>(i + 1),
                   std::move(*keyed[i].player)});
  }
  return out;
}

}  // namespace tally::projections
