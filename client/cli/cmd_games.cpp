// tally games: the games the server scores, as it describes them (GET /v1/games, public): each
// table action's fields (what --player, the prompts and --file take) and the tournament rules
// with their defaults (what --rules overrides).
#include "client/cli/command.hpp"
#include "client/cli/game_spec.hpp"
#include "client/cli/numbers.hpp"
#include "client/cli/say.hpp"
#include "client/cli/text_table.hpp"
#include "client/cli/views.hpp"

#include <ostream>

namespace tally::cli {

namespace json = boost::json;

namespace {

// What the field's values may be: a range, or the choices.
std::string values_of(i18n::Lang lang, const FieldSpec& f) {
  if (!f.choices.empty()) return joined(f.choices, f.type == "choices" ? "+" : "|");
  return range_hint(lang, f);
}

// How a form treats the field, beside its type and values.
std::string notes_of(i18n::Lang lang, const FieldSpec& f) {
  std::vector<std::string> notes;
  if (!f.required) notes.push_back(say(lang, "cli.games.note.optional"));
  if (f.one_holder) notes.push_back(say(lang, "cli.games.note.one_holder"));
  if (f.derived()) {
    notes.push_back(say(lang, i18n::Message("cli.games.note.derived",
                                            {{"from", f.derived_from},
                                             {"value", json::serialize(f.derived_equals)}})));
  }
  if (!f.excludes_own.empty()) {
    notes.push_back(
        say(lang, i18n::Message("cli.games.note.excludes_own", {{"field", f.excludes_own}})));
  }
  return joined(notes, "; ");
}

void print_game(std::ostream& out, i18n::Lang lang, const GameSpec& game) {
  out << game.game << "\n";
  for (const auto& a : game.actions) {
    out << "  "
        << say(lang,
               i18n::Message(a.per_player ? "cli.games.action_per_player" : "cli.games.action",
                             {{"action", a.name}}))
        << "\n";
    TextTable fields({{say(lang, "cli.games.column.field")},
                      {say(lang, "cli.games.column.type")},
                      {say(lang, "cli.games.column.values")},
                      {say(lang, "cli.games.column.notes")},
                      {say(lang, "cli.games.column.label")}});
    for (const auto& f : a.fields) {
      fields.add_row({f.name, f.type, values_of(lang, f), notes_of(lang, f), f.shown()});
    }
    fields.print(out, "    ");
  }
  if (!game.rules.empty()) {
    out << "  " << say(lang, "cli.games.rules") << "\n";
    for (const auto& r : game.rules) {
      if (!r.is_object()) continue;
      const auto& o = r.as_object();
      out << "    " << text_member(o, "name") << " (" << text_member(o, "type")
          << "): " << (o.contains("default") ? json::serialize(o.at("default")) : "-") << "\n";
    }
  }
}

int games(Context& ctx) {
  std::vector<GameSpec> all = load_games(ctx.session());
  std::optional<std::string> wanted;
  if (!ctx.args.positionals.empty()) wanted = ctx.args.positionals.at(0);
  if (ctx.args.has("json")) {
    json::value answer = ctx.session().read("/v1/games");
    if (wanted && answer.is_array()) {
      for (const auto& g : answer.as_array()) {
        if (g.is_object() && text_member(g.as_object(), "game") == *wanted) {
          ctx.out << json::serialize(g) << "\n";
          return kOk;
        }
      }
    } else {
      ctx.out << json::serialize(answer) << "\n";
      return kOk;
    }
  }
  std::vector<std::string> names;
  bool first = true;
  for (const auto& g : all) {
    names.push_back(g.game);
    if (wanted && g.game != *wanted) continue;
    if (!first) ctx.out << "\n";
    first = false;
    print_game(ctx.out, ctx.lang, g);
  }
  if (wanted && first) {
    throw Failure(kNotFound, i18n::Message("cli.games.unknown",
                                           {{"game", *wanted}, {"games", joined(names)}}));
  }
  return kOk;
}

}  // namespace

std::vector<Command> games_commands() {
  return {
      {"games",
       "[GAME] [--json]",
       "cli.cmd.games.summary",
       "cli.cmd.games.details",
       {{"json", 0, "", "cli.option.json"}},
       0,
       1,
       false,
       games},
  };
}

}  // namespace tally::cli
