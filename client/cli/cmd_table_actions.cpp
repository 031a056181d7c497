// tally claim | pick | pick auto | void: the table actions other than results and scorings.
#include "client/cli/command.hpp"
#include "client/cli/game_spec.hpp"
#include "client/cli/numbers.hpp"
#include "client/cli/text.hpp"
#include "client/cli/views.hpp"

#include <ostream>

namespace tally::cli {

namespace json = boost::json;
using client::http::verb;

namespace {

// --supersedes SEQ (with its --reason) turns an action into the correction of an earlier one.
void add_correction(Context& ctx, json::object& body) {
  auto reason = ctx.args.value("reason");
  if (auto supersedes = ctx.args.value("supersedes")) {
    try {
      std::size_t used = 0;
      unsigned long long seq = std::stoull(*supersedes, &used);
      if (used != supersedes->size() || seq == 0) throw std::invalid_argument("seq");
      body["supersedes"] = seq;
    } catch (const std::exception&) {
      throw usage_error("--supersedes must be an event number (the seq the audit shows)");
    }
    if (!reason || reason->empty()) throw usage_error("a correction (--supersedes) needs --reason");
  }
  if (reason) body["reason"] = *reason;
}

std::vector<OptionSpec> correction_options() {
  return {{"supersedes", 0, "SEQ", "correct this earlier action (needs --reason)"},
          {"reason", 0, "TEXT", "why (required with --supersedes)"},
          {"json", 0, "", "print the server's JSON answer"}};
}

int claim(Context& ctx) {
  std::uint64_t round = ctx.number_argument(0, "ROUND");
  std::uint64_t table = ctx.number_argument(1, "TABLE");
  const std::string& player = ctx.args.positionals.at(2);
  TournamentInfo info = load_tournament(ctx.session(), ctx.tournament());
  json::object body{{"player", player}};
  add_correction(ctx, body);
  json::value answer = ctx.session().expect(
      ctx.session().send(verb::post, table_path(info.id, round, table) + "/claims", body));
  if (ctx.args.has("json")) {
    ctx.out << json::serialize(answer) << "\n";
    return kOk;
  }
  ctx.out << "Round " << round << ", table " << table << ": the claimed win of "
          << info.label_of(player) << " is recorded (event #" << cell_text(answer.at("seq"))
          << ", version " << cell_text(answer.at("version")) << ").\n";
  return kOk;
}

// The houses at a table after a pick: who has which, and what the others may still take.
void print_houses(Context& ctx, const json::object& table, const TournamentInfo& info) {
  if (table.contains("houses") && table.at("houses").is_object()) {
    for (const auto& [player, house] : table.at("houses").as_object()) {
      ctx.out << "  " << info.label_of(std::string(player)) << ": " << cell_text(house) << "\n";
    }
  }
  if (table.contains("pickable") && table.at("pickable").is_object()) {
    for (const auto& [player, options] : table.at("pickable").as_object()) {
      ctx.out << "  " << info.label_of(std::string(player)) << ": not picked yet (may take "
              << cell_text(options) << ")\n";
    }
  }
}

// HOUSE as the server spells it among the choices its description of the game's picks gives
// (GET /v1/games), case-insensitively; a usage error naming them when it is none of them. The
// text as given when the server describes no such choice (it answers for itself then).
std::string pick_choice(Context& ctx, const std::string& game, const std::string& text) {
  std::optional<GameSpec> spec = load_game(ctx.session(), game);
  const ActionSpec* picks = spec ? spec->action("picks") : nullptr;
  const FieldSpec* field = picks != nullptr ? picks->field("house") : nullptr;
  if (field == nullptr || field->choices.empty()) return text;
  for (const auto& c : field->choices) {
    if (lower(c) == lower(text)) return c;
  }
  throw usage_error("HOUSE must be one of " + joined(field->choices) + ", not \"" + text + "\"");
}

int pick(Context& ctx) {
  std::uint64_t round = ctx.number_argument(0, "ROUND");
  std::uint64_t table = ctx.number_argument(1, "TABLE");
  const std::string& player = ctx.args.positionals.at(2);
  TournamentInfo info = load_tournament(ctx.session(), ctx.tournament());
  std::string house = pick_choice(ctx, info.game, ctx.args.positionals.at(3));
  json::object body{{"player", player}, {"house", house}};
  add_correction(ctx, body);
  json::value answer = ctx.session().expect(
      ctx.session().send(verb::post, table_path(info.id, round, table) + "/picks", body));
  if (ctx.args.has("json")) {
    ctx.out << json::serialize(answer) << "\n";
    return kOk;
  }
  ctx.out << "Round " << round << ", table " << table << ": " << info.label_of(player) << " plays "
          << house << " (event #" << cell_text(answer.at("seq")) << ").\n";
  print_houses(ctx, table_of(load_round(ctx.session(), info.id, round), table), info);
  return kOk;
}

int pick_auto(Context& ctx) {
  std::uint64_t round = ctx.number_argument(0, "ROUND");
  std::uint64_t table = ctx.number_argument(1, "TABLE");
  TournamentInfo info = load_tournament(ctx.session(), ctx.tournament());
  json::value answer = ctx.session().expect(ctx.session().send(
      verb::post, table_path(info.id, round, table) + "/picks/auto", json::object{}));
  if (ctx.args.has("json")) {
    ctx.out << json::serialize(answer) << "\n";
    return kOk;
  }
  ctx.out << "Round " << round << ", table " << table
          << ": the remaining houses are assigned (event #" << cell_text(answer.at("seq"))
          << ").\n";
  print_houses(ctx, answer.as_object(), info);
  return kOk;
}

int void_event(Context& ctx) {
  const std::string& seq = ctx.args.positionals.at(0);
  std::uint64_t target = ctx.number_argument(0, "SEQ");
  auto reason = ctx.args.value("reason");
  if (!reason || reason->empty()) throw usage_error("a void needs --reason");
  json::value answer = ctx.session().expect(ctx.session().send(
      verb::post, "/v1/tournaments/" + url_encode(ctx.tournament()) + "/events/" + seq + "/void",
      json::object{{"reason", *reason}}));
  if (ctx.args.has("json")) {
    ctx.out << json::serialize(answer) << "\n";
    return kOk;
  }
  ctx.out << "Event #" << target << " is voided (event #" << cell_text(answer.at("seq")) << ").\n";
  return kOk;
}

}  // namespace

std::vector<Command> table_action_commands() {
  return {
      {"claim", "ROUND TABLE PLAYER [--supersedes SEQ --reason TEXT]",
       "Record a claimed win at a Catan table (judge)",
       "A claim may come before or after the result. Withdraw one with `tally void SEQ`.",
       correction_options(), 3, 3, true, claim},
      {"pick", "ROUND TABLE PLAYER HOUSE [--supersedes SEQ --reason TEXT]",
       "Record an AGoT house pick (judge)",
       "HOUSE is one of the houses the server describes for the game's picks (`tally games\n"
       "agot`), in any case. A refused pick names the houses that would be accepted.",
       correction_options(), 4, 4, true, pick},
      {"pick auto",
       "ROUND TABLE",
       "Assign the remaining houses at an AGoT table (organizer)",
       "The server gives each player without a house one, by the game's own rule; the answer\n"
       "shows the houses of the table.",
       {{"json", 0, "", "print the server's JSON answer"}},
       2,
       2,
       true,
       pick_auto},
      {"void",
       "SEQ --reason TEXT",
       "Withdraw a claim, pick, scoring, or the newest round's seating (judge; seating: organizer)",
       "SEQ is the event's number as `tally audit` shows it. A result is never voided: correct\n"
       "it with `tally correct`.",
       {{"reason", 0, "TEXT", "why (required)"}, {"json", 0, "", "print the server's JSON answer"}},
       1,
       1,
       true,
       void_event},
  };
}

}  // namespace tally::cli
