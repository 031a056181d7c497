// tally score: one Carcassonne scoring event at a table, or the stateless calculator
// (`tally score calc`). The event is a JSON file or built from flags.
#include "client/cli/command.hpp"
#include "client/cli/numbers.hpp"
#include "client/cli/say.hpp"
#include "client/cli/text_table.hpp"
#include "client/cli/views.hpp"

#include <ostream>

namespace tally::cli {

namespace json = boost::json;
using tally::net::http::verb;

namespace {

// A flag's value: JSON when it parses (3, true, {"player":"red"}), a plain string otherwise.
json::value loose(const std::string& text) {
  boost::system::error_code ec;
  json::value v = json::parse(text, ec);
  return ec ? json::value(text) : v;
}

std::pair<std::string, json::value> key_value(const std::string& item, const char* option) {
  auto eq = item.find('=');
  std::string key = item.substr(0, eq);
  if (key.empty()) {
    throw usage_error(
        i18n::Message("cli.score.needs_key_value", {{"option", std::string("--") + option}}));
  }
  return {key, eq == std::string::npos ? json::value(true) : loose(item.substr(eq + 1))};
}

// The scoring event from --file, or from the flags (carcassonne.md §4–§6).
json::object scoring_event(Context& ctx) {
  if (auto file = ctx.args.value("file")) {
    json::value parsed = parse_json_input(read_input_file(ctx, *file), *file);
    if (!parsed.is_object()) {
      throw Failure(kInvalid, i18n::Message("cli.score.file_shape", {{"file", *file}}));
    }
    return parsed.as_object();
  }
  auto feature = ctx.args.value("feature");
  auto event = ctx.args.value("event");
  if (!feature == !event) throw usage_error("cli.score.which_input");
  json::object out;
  if (feature) {
    out["feature"] = *feature;
    if (ctx.args.has("complete") == ctx.args.has("final")) {
      throw usage_error("cli.score.complete_or_final");
    }
    out["complete"] = ctx.args.has("complete");
    for (const char* count : {"tiles", "pennants"}) {
      if (auto v = ctx.args.value(count)) {
        json::value n = loose(*v);
        if (!n.is_int64()) {
          throw usage_error(
              i18n::Message("cli.score.not_whole", {{"option", std::string("--") + count}}));
        }
        out[count] = n;
      }
    }
    json::array figures;
    for (const auto& f : ctx.args.values("figure")) {
      auto colon = f.find(':');
      figures.push_back(
          json::object{{"player", f.substr(0, colon)},
                       {"figure", colon == std::string::npos ? "follower" : f.substr(colon + 1)}});
    }
    out["figures"] = std::move(figures);
    json::object modifiers, bonuses;
    for (const auto& m : ctx.args.values("modifier")) modifiers.insert(key_value(m, "modifier"));
    for (const auto& b : ctx.args.values("bonus")) bonuses.insert(key_value(b, "bonus"));
    if (!modifiers.empty()) out["modifiers"] = std::move(modifiers);
    if (!bonuses.empty()) out["bonuses"] = std::move(bonuses);
  } else {
    out["event"] = *event;
  }
  for (const auto& s : ctx.args.values("set")) {
    auto [key, value] = key_value(s, "set");
    out[key] = std::move(value);
  }
  json::array robbers;
  for (const auto& r : ctx.args.values("robber")) {
    auto colon = r.find(':');
    if (colon == std::string::npos) throw usage_error("cli.score.robber_shape");
    robbers.push_back(json::object{{"player", r.substr(0, colon)}, {"robs", r.substr(colon + 1)}});
  }
  if (!robbers.empty()) out["robbers"] = std::move(robbers);
  return out;
}

void print_scoring(Context& ctx, const json::object& answer, const TournamentInfo* info) {
  auto label = [&](const std::string& player) {
    return info != nullptr ? info->label_of(player) : player;
  };
  TextTable lines({{ctx.say("cli.score.column.player")},
                   {ctx.say("cli.score.column.rule")},
                   {ctx.say("cli.score.column.count"), TextTable::Align::right},
                   {ctx.say("cli.score.column.points"), TextTable::Align::right}});
  for (const auto& l : answer.at("lines").as_array()) {
    const auto& o = l.as_object();
    lines.add_row({label(text_member(o, "player")), text_member(o, "rule"),
                   o.contains("count") ? shown(ctx.lang, o.at("count")) : "",
                   shown(ctx.lang, o.at("points"))});
  }
  if (lines.empty()) {
    ctx.out << ctx.say("cli.score.no_lines") << "\n";
  } else {
    lines.print(ctx.out);
  }
  for (const char* member : {"points", "totals"}) {
    if (!answer.contains(member) || !answer.at(member).is_object()) continue;
    std::string line;
    for (const auto& [player, value] : answer.at(member).as_object()) {
      line +=
          (line.empty() ? "" : "; ") + label(std::string(player)) + " " + shown(ctx.lang, value);
    }
    ctx.out << ctx.say(i18n::Message(
                   std::string(member) == "points" ? "cli.score.points" : "cli.score.totals",
                   {{"players", line}}))
            << "\n";
  }
}

int score(Context& ctx) {
  std::uint64_t round = ctx.number_argument(0, "ROUND");
  std::uint64_t table = ctx.number_argument(1, "TABLE");
  TournamentInfo info = load_tournament(ctx.session(), ctx.tournament());
  json::object body = scoring_event(ctx);
  // The correction members travel beside the event (the server splits them off).
  if (auto supersedes = ctx.args.value("supersedes")) {
    json::value seq = loose(*supersedes);
    if (!seq.is_int64() || seq.as_int64() <= 0) throw usage_error("cli.action.bad_supersedes");
    if (!ctx.args.has("reason")) throw usage_error("cli.action.supersedes_needs_reason");
    body["supersedes"] = seq;
  }
  if (auto reason = ctx.args.value("reason")) body["reason"] = *reason;
  json::value answer = ctx.session().expect(
      ctx.session().send(verb::post, table_path(info.id, round, table) + "/scorings", body));
  if (ctx.args.has("json")) {
    ctx.out << json::serialize(answer) << "\n";
    return kOk;
  }
  ctx.out << ctx.say(i18n::Message(
                 "cli.score.recorded",
                 {{"round", round}, {"table", table}, {"seq", cell_text(answer.at("seq"))}}))
          << "\n";
  print_scoring(ctx, answer.as_object(), &info);
  return kOk;
}

int calc(Context& ctx) {
  json::object body = scoring_event(ctx);
  std::string query;
  auto add = [&](const std::string& part) { query += (query.empty() ? "?" : "&") + part; };
  if (auto edition = ctx.args.value("edition")) add("edition=" + url_encode(*edition));
  if (ctx.args.has("buildings-variant")) add("buildings_variant=true");
  if (ctx.args.has("spiel-doch-variant")) add("spiel_doch_variant=true");
  json::value answer = ctx.session().expect(
      ctx.session().send(verb::post, "/v1/games/carcassonne/score" + query, body));
  if (ctx.args.has("json")) {
    ctx.out << json::serialize(answer) << "\n";
    return kOk;
  }
  print_scoring(ctx, answer.as_object(), nullptr);
  return kOk;
}

std::vector<OptionSpec> event_options() {
  return {
      {"file", 0, "FILE", "cli.option.score_file"},
      {"feature", 0, "NAME", "cli.option.feature"},
      {"complete", 0, "", "cli.option.complete"},
      {"final", 0, "", "cli.option.final"},
      {"tiles", 0, "N", "cli.option.tiles"},
      {"pennants", 0, "N", "cli.option.pennants"},
      {"figure", 0, "PLAYER[:FIGURE]", "cli.option.figure", true},
      {"modifier", 0, "KEY[=VALUE]", "cli.option.modifier", true},
      {"bonus", 0, "KEY=VALUE", "cli.option.bonus", true},
      {"event", 0, "NAME", "cli.option.event"},
      {"set", 0, "KEY=VALUE", "cli.option.set", true},
      {"robber", 0, "ROBBER:ROBBED", "cli.option.robber", true},
      {"json", 0, "", "cli.option.json"},
  };
}

// How a scoring event is given: the same for score and score calc.
const i18n::Term kEventHelp{"cli.help.score_event"};

}  // namespace

std::vector<Command> score_commands() {
  std::vector<OptionSpec> at_table = event_options();
  at_table.push_back({"supersedes", 0, "SEQ", "cli.option.supersedes"});
  at_table.push_back({"reason", 0, "TEXT", "cli.option.reason_supersedes"});
  std::vector<OptionSpec> calculator = event_options();
  calculator.push_back({"edition", 0, "EDITION", "cli.option.edition"});
  calculator.push_back({"buildings-variant", 0, "", "cli.option.buildings_variant"});
  calculator.push_back({"spiel-doch-variant", 0, "", "cli.option.spiel_doch_variant"});
  return {
      {"score", "ROUND TABLE (--file EVENT.json | --feature NAME … | --event NAME …)",
       "cli.cmd.score.summary", i18n::Message("cli.cmd.score.details", {{"event", kEventHelp}}),
       at_table, 2, 2, true, score},
      {"score calc", "(--file EVENT.json | --feature NAME … | --event NAME …) [--edition C2]",
       "cli.cmd.score_calc.summary",
       i18n::Message("cli.cmd.score_calc.details", {{"event", kEventHelp}}), calculator, 0, 0,
       false, calc},
  };
}

}  // namespace tally::cli
