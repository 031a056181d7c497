// tally round seat | show.
#include "client/cli/command.hpp"
#include "client/cli/numbers.hpp"
#include "client/cli/views.hpp"

#include <ostream>
#include <sstream>

namespace tally::cli {

namespace json = boost::json;

namespace {

void print_round(Context& ctx, const json::object& round, const TournamentInfo& info) {
  for (const auto& t : round.at("tables").as_array()) print_table(ctx.out, t.as_object(), info);
  for (const char* list : {"variant", "moved"}) {
    if (!round.contains(list) || !round.at(list).is_array() || round.at(list).as_array().empty())
      continue;
    ctx.out << (std::string(list) == "variant" ? "Variant:" : "Moved by the league solver:")
            << "\n";
    for (const auto& item : round.at(list).as_array()) {
      if (item.is_string()) {
        ctx.out << "  - " << item.as_string() << "\n";
      } else {
        const auto& o = item.as_object();
        ctx.out << "  - " << info.label_of(text_member(o, "player")) << " at table "
                << cell_text(o.at("table")) << " (league " << text_member(o, "table_league")
                << "), rated for league " << text_member(o, "rating_league") << "\n";
      }
    }
  }
}

std::string heading(const json::object& round) {
  std::ostringstream out;
  out << "Round " << cell_text(round.at("round")) << " (" << text_member(round, "method");
  if (round.contains("seed")) out << ", seed " << cell_text(round.at("seed"));
  out << "): " << cell_text(round.at("reported")) << " of " << cell_text(round.at("tables_total"))
      << " tables reported";
  if (round.contains("forced") && round.at("forced").as_bool()) out << "; seated by force";
  return out.str();
}

int seat(Context& ctx) {
  json::object body;
  auto method = ctx.args.value("method");
  std::vector<std::string> tables = ctx.args.values("table");
  if (!tables.empty() && !method) method = "manual";
  if (method) body["method"] = *method;
  if (auto seed = ctx.args.value("seed")) {
    try {
      std::size_t used = 0;
      unsigned long long n = std::stoull(*seed, &used);
      if (used != seed->size() || (*seed)[0] == '-') throw std::invalid_argument("seed");
      body["seed"] = n;
    } catch (const std::exception&) {
      throw usage_error("--seed must be a non-negative whole number");
    }
  }
  if (!tables.empty()) {
    json::array list;
    for (const auto& t : tables) {
      json::array players;
      std::stringstream in(t);
      for (std::string id; std::getline(in, id, ',');) {
        if (!id.empty()) players.emplace_back(id);
      }
      list.push_back(std::move(players));
    }
    body["tables"] = std::move(list);
  }
  if (ctx.args.has("force")) {
    body["force"] = true;
    if (!ctx.args.has("reason")) throw usage_error("--force needs a --reason");
  }
  if (auto reason = ctx.args.value("reason")) body["reason"] = *reason;

  TournamentInfo info = load_tournament(ctx.session(), ctx.tournament());
  json::value answer = ctx.session().expect(ctx.session().send(
      client::http::verb::post, "/v1/tournaments/" + url_encode(info.id) + "/rounds", body));
  if (ctx.args.has("json")) {
    ctx.out << json::serialize(answer) << "\n";
    return kOk;
  }
  const auto& round = answer.as_object();
  if (round.contains("superseded")) {
    ctx.out << "Round " << cell_text(round.at("round")) << " was seated (event #"
            << cell_text(round.at("seq")) << ") and withdrawn since.\n";
    return kOk;
  }
  ctx.out << heading(round) << "; event #" << cell_text(round.at("seq")) << "\n";
  print_round(ctx, round, info);
  return kOk;
}

int show(Context& ctx) {
  std::uint64_t number = ctx.number_argument(0, "ROUND");
  TournamentInfo info = load_tournament(ctx.session(), ctx.tournament());
  json::object round = load_round(ctx.session(), info.id, number);
  if (ctx.args.has("json")) {
    ctx.out << json::serialize(round) << "\n";
    return kOk;
  }
  ctx.out << heading(round) << "\n";
  print_round(ctx, round, info);
  return kOk;
}

}  // namespace

std::vector<Command> round_commands() {
  return {
      {"round seat",
       "[--method random|standings|manual] [--seed N] [--table IDS]... [--force --reason TEXT]",
       "Seat the next round (organizer)",
       "Without --method the game's default applies (the server's).\n"
       "Manual seating: one --table per table, the player ids separated by commas, e.g.\n"
       "  tally round seat --table a,b,c,d --table e,f,g\n"
       "A round is seated only when the previous one is fully reported; --force seats it\n"
       "anyway and needs a --reason (kept in the audit trail). A game may want a --reason for a\n"
       "manual seating too (AGoT, when it departs from its own); the server says so.",
       {{"method", 0, "METHOD", "random, standings or manual"},
        {"seed", 0, "N", "the random draw's seed (random only; made by the server otherwise)"},
        {"table", 0, "IDS", "a manual table: player ids separated by commas", true},
        {"force", 0, "", "seat although the previous round has unreported tables"},
        {"reason", 0, "TEXT", "why (for --force, or a manual seating the game asks one for)"},
        {"json", 0, "", "print the server's JSON answer"}},
       0,
       0,
       true,
       seat},
      {"round show",
       "ROUND [--json]",
       "Show a round: tables, players, results and who entered them",
       "",
       {{"json", 0, "", "print the server's JSON answer"}},
       1,
       1,
       true,
       show},
  };
}

}  // namespace tally::cli
