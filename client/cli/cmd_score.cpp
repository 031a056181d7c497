// tally score: one Carcassonne scoring event at a table, or the stateless calculator
// (`tally score calc`). The event is a JSON file or built from flags.
#include "client/cli/command.hpp"
#include "client/cli/numbers.hpp"
#include "client/cli/text_table.hpp"
#include "client/cli/views.hpp"

#include <ostream>

namespace tally::cli {

namespace json = boost::json;
using client::http::verb;

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
  if (key.empty()) throw usage_error(std::string("--") + option + " needs KEY=VALUE");
  return {key, eq == std::string::npos ? json::value(true) : loose(item.substr(eq + 1))};
}

// The scoring event from --file, or from the flags (carcassonne.md §4–§6).
json::object scoring_event(Context& ctx) {
  if (auto file = ctx.args.value("file")) {
    json::value parsed = parse_json_input(read_input_file(ctx, *file), *file);
    if (!parsed.is_object())
      throw Failure(kInvalid, *file + " must hold one scoring event (an object)");
    return parsed.as_object();
  }
  auto feature = ctx.args.value("feature");
  auto event = ctx.args.value("event");
  if (!feature == !event) {
    throw usage_error("give the scoring as --file, or as --feature NAME or --event NAME");
  }
  json::object out;
  if (feature) {
    out["feature"] = *feature;
    if (ctx.args.has("complete") == ctx.args.has("final")) {
      throw usage_error("a feature is --complete (during play) or --final (final scoring)");
    }
    out["complete"] = ctx.args.has("complete");
    for (const char* count : {"tiles", "pennants"}) {
      if (auto v = ctx.args.value(count)) {
        json::value n = loose(*v);
        if (!n.is_int64()) throw usage_error(std::string("--") + count + " must be a whole number");
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
    if (colon == std::string::npos) throw usage_error("--robber is ROBBER:ROBBED, e.g. blue:red");
    robbers.push_back(json::object{{"player", r.substr(0, colon)}, {"robs", r.substr(colon + 1)}});
  }
  if (!robbers.empty()) out["robbers"] = std::move(robbers);
  return out;
}

void print_scoring(Context& ctx, const json::object& answer, const TournamentInfo* info) {
  auto label = [&](const std::string& player) {
    return info != nullptr ? info->label_of(player) : player;
  };
  TextTable lines({{"Player"},
                   {"Rule"},
                   {"Count", TextTable::Align::right},
                   {"Points", TextTable::Align::right}});
  for (const auto& l : answer.at("lines").as_array()) {
    const auto& o = l.as_object();
    lines.add_row({label(text_member(o, "player")), text_member(o, "rule"),
                   o.contains("count") ? cell_text(o.at("count")) : "", cell_text(o.at("points"))});
  }
  if (lines.empty()) {
    ctx.out << "No lines: nobody scores.\n";
  } else {
    lines.print(ctx.out);
  }
  for (const char* member : {"points", "totals"}) {
    if (!answer.contains(member) || !answer.at(member).is_object()) continue;
    std::string line;
    for (const auto& [player, value] : answer.at(member).as_object()) {
      line += (line.empty() ? " " : "; ") + label(std::string(player)) + " " + cell_text(value);
    }
    ctx.out << (std::string(member) == "points" ? "Points:" : "Totals:") << line << "\n";
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
    if (!seq.is_int64() || seq.as_int64() <= 0)
      throw usage_error("--supersedes must be an event number");
    if (!ctx.args.has("reason")) throw usage_error("a correction (--supersedes) needs --reason");
    body["supersedes"] = seq;
  }
  if (auto reason = ctx.args.value("reason")) body["reason"] = *reason;
  json::value answer = ctx.session().expect(
      ctx.session().send(verb::post, table_path(info.id, round, table) + "/scorings", body));
  if (ctx.args.has("json")) {
    ctx.out << json::serialize(answer) << "\n";
    return kOk;
  }
  ctx.out << "Round " << round << ", table " << table << ": scoring recorded (event #"
          << cell_text(answer.at("seq")) << ").\n";
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
      {"file", 0, "FILE", "the scoring event as JSON (- for stdin)"},
      {"feature", 0, "NAME", "a feature event: road, city, monastery, field, castle, …"},
      {"complete", 0, "", "the feature was completed during play"},
      {"final", 0, "", "the feature is scored at final scoring"},
      {"tiles", 0, "N", "the feature's tiles"},
      {"pennants", 0, "N", "a city's pennants"},
      {"figure", 0, "PLAYER[:FIGURE]", "a figure on the feature (default: follower)", true},
      {"modifier", 0, "KEY[=VALUE]", "a modifier, e.g. inn or cathedral (VALUE as JSON)", true},
      {"bonus", 0, "KEY=VALUE", "a bonus, e.g. teacher=p1 (VALUE as JSON or text)", true},
      {"event", 0, "NAME", "a turn event instead: payday, circus, fortune, …"},
      {"set", 0, "KEY=VALUE", "any other member of the event (VALUE as JSON or text)", true},
      {"robber", 0, "ROBBER:ROBBED", "a robber on the score track", true},
      {"json", 0, "", "print the server's JSON answer"},
  };
}

const char* kEventHelp =
    "The event is the JSON object of docs/games/carcassonne.md §4–§6, from --file or built from\n"
    "the flags. Examples:\n"
    "  --feature city --complete --tiles 5 --pennants 2 --figure p1 --figure p2:large\n"
    "  --feature road --final --tiles 4 --figure p1 --modifier inn\n"
    "  --event payday --set player=p1 --set followers=3";

}  // namespace

std::vector<Command> score_commands() {
  std::vector<OptionSpec> at_table = event_options();
  at_table.push_back({"supersedes", 0, "SEQ", "correct this earlier scoring (needs --reason)"});
  at_table.push_back({"reason", 0, "TEXT", "why (required with --supersedes)"});
  std::vector<OptionSpec> calculator = event_options();
  calculator.push_back(
      {"edition", 0, "EDITION", "the edition rule, e.g. C2 (default: the server's)"});
  calculator.push_back({"buildings-variant", 0, "", "with the little buildings variant"});
  calculator.push_back({"spiel-doch-variant", 0, "", "with the Spiel Doch! variant"});
  return {
      {"score", "ROUND TABLE (--file EVENT.json | --feature NAME … | --event NAME …)",
       "Record a Carcassonne scoring event at a table (judge)",
       std::string(kEventHelp) +
           "\nIn a tournament the players are the table's player ids. The answer shows the lines,\n"
           "this event's points and the running totals.",
       at_table, 2, 2, true, score},
      {"score calc", "(--file EVENT.json | --feature NAME … | --event NAME …) [--edition C2]",
       "Score a Carcassonne event without recording it (any player names)",
       std::string(kEventHelp) +
           "\nThe tournament rules are given as flags (`tally games carcassonne` lists them and\n"
           "their defaults); nothing is stored.",
       calculator, 0, 0, false, calc},
  };
}

}  // namespace tally::cli
