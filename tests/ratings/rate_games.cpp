// The ratings test's C++ side: reads games as JSON on stdin,
//   {"games":[[{"player":"p01","place":1}, …], …]}   (places: 1 = best, equal places a tie)
// rates them in order with projections::rate_games and writes every player's rating,
//   {"p01":{"mu":…,"sigma":…,"games":…}, …}
// for agreement.test.mjs to hold against the openskill package fed the same games.
#include "projections/ratings.hpp"

#include <boost/json.hpp>

#include <iostream>
#include <iterator>
#include <string>

namespace json = boost::json;
using namespace tally::projections;

int main() {
  const std::string input{std::istreambuf_iterator<char>(std::cin),
                          std::istreambuf_iterator<char>()};
  boost::system::error_code ec;
  const json::value parsed = json::parse(input, ec);
  if (ec || !parsed.is_object() || !parsed.as_object().contains("games")) {
    std::cerr << "rate_games: expected {\"games\":[[{\"player\",\"place\"}…]…]} on stdin\n";
    return 2;
  }
  std::vector<RatedGame> games;
  for (const json::value& table : parsed.at("games").as_array()) {
    RatedGame game;
    game.first_seq = games.size() + 1;
    for (const json::value& seat : table.as_array()) {
      std::string player(seat.at("player").as_string());
      game.seats.push_back({RatedIdentity{player, player, "", "", player},
                            seat.at("place").to_number<std::uint32_t>()});
    }
    games.push_back(std::move(game));
  }
  json::object out;
  for (const RatedPlayer& p : rate_games(games)) {
    out[p.identity.key] =
        json::object{{"mu", p.rating.mu}, {"sigma", p.rating.sigma}, {"games", p.rating.games}};
  }
  std::cout << json::serialize(out) << "\n";
  return 0;
}
