// tally claim | pick | pick auto | void: the table actions other than results and scorings.
#include "client/cli/command.hpp"
#include "client/cli/game_spec.hpp"
#include "client/cli/numbers.hpp"
#include "client/cli/say.hpp"
#include "client/cli/text.hpp"
#include "client/cli/views.hpp"

#include <ostream>

namespace tally::cli {

namespace json = boost::json;
using tally::net::http::verb;

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
      throw usage_error("cli.action.bad_supersedes");
    }
    if (!reason || reason->empty()) throw usage_error("cli.action.supersedes_needs_reason");
  }
  if (reason) body["reason"] = *reason;
}

std::vector<OptionSpec> correction_options() {
  return {{"supersedes", 0, "SEQ", "cli.option.supersedes_action"},
          {"reason", 0, "TEXT", "cli.option.reason_supersedes"},
          {"json", 0, "", "cli.option.json"}};
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
  ctx.out << ctx.say(i18n::Message("cli.claim.recorded",
                                   {{"round", round},
                                    {"table", table},
                                    {"player", info.label_of(player)},
                                    {"seq", cell_text(answer.at("seq"))},
                                    {"version", cell_text(answer.at("version"))}}))
          << "\n";
  return kOk;
}

// The houses at a table after a pick: who has which, and what the others may still take.
void print_houses(Context& ctx, const json::object& table, const TournamentInfo& info) {
  if (table.contains("houses") && table.at("houses").is_object()) {
    for (const auto& [player, house] : table.at("houses").as_object()) {
      ctx.out << "  " << info.label_of(std::string(player)) << ": " << shown(ctx.lang, house)
              << "\n";
    }
  }
  if (table.contains("pickable") && table.at("pickable").is_object()) {
    for (const auto& [player, options] : table.at("pickable").as_object()) {
      ctx.out << "  "
              << ctx.say(i18n::Message("cli.pick.not_yet",
                                       {{"player", info.label_of(std::string(player))},
                                        {"houses", shown(ctx.lang, options)}}))
              << "\n";
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
  throw usage_error(i18n::Message("cli.pick.unknown_house",
                                  {{"houses", joined(field->choices)}, {"text", text}}));
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
  ctx.out << ctx.say(i18n::Message("cli.pick.recorded", {{"round", round},
                                                         {"table", table},
                                                         {"player", info.label_of(player)},
                                                         {"house", house},
                                                         {"seq", cell_text(answer.at("seq"))}}))
          << "\n";
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
  ctx.out << ctx.say(i18n::Message(
                 "cli.pick.auto_done",
                 {{"round", round}, {"table", table}, {"seq", cell_text(answer.at("seq"))}}))
          << "\n";
  print_houses(ctx, answer.as_object(), info);
  return kOk;
}

int void_event(Context& ctx) {
  const std::string& seq = ctx.args.positionals.at(0);
  std::uint64_t target = ctx.number_argument(0, "SEQ");
  auto reason = ctx.args.value("reason");
  if (!reason || reason->empty()) throw usage_error("cli.void.needs_reason");
  json::value answer = ctx.session().expect(ctx.session().send(
      verb::post, "/v1/tournaments/" + url_encode(ctx.tournament()) + "/events/" + seq + "/void",
      json::object{{"reason", *reason}}));
  if (ctx.args.has("json")) {
    ctx.out << json::serialize(answer) << "\n";
    return kOk;
  }
  ctx.out << ctx.say(i18n::Message("cli.void.done", {{"target", std::to_string(target)},
                                                     {"seq", cell_text(answer.at("seq"))}}))
          << "\n";
  return kOk;
}

}  // namespace

std::vector<Command> table_action_commands() {
  return {
      {"claim", "ROUND TABLE PLAYER [--supersedes SEQ --reason TEXT]", "cli.cmd.claim.summary",
       "cli.cmd.claim.details", correction_options(), 3, 3, true, claim},
      {"pick", "ROUND TABLE PLAYER HOUSE [--supersedes SEQ --reason TEXT]", "cli.cmd.pick.summary",
       "cli.cmd.pick.details", correction_options(), 4, 4, true, pick},
      {"pick auto",
       "ROUND TABLE",
       "cli.cmd.pick_auto.summary",
       "cli.cmd.pick_auto.details",
       {{"json", 0, "", "cli.option.json"}},
       2,
       2,
       true,
       pick_auto},
      {"void",
       "SEQ --reason TEXT",
       "cli.cmd.void.summary",
       "cli.cmd.void.details",
       {{"reason", 0, "TEXT", "cli.option.reason_required"}, {"json", 0, "", "cli.option.json"}},
       1,
       1,
       true,
       void_event},
  };
}

}  // namespace tally::cli
