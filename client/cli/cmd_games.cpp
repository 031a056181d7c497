// tally games: the games the server scores, as it describes them (GET /v1/games, public): each
// table action's fields (what --player, the prompts and --file take) and the tournament rules
// with their defaults (what --rules overrides).
#include "client/cli/command.hpp"
#include "client/cli/game_spec.hpp"
#include "client/cli/numbers.hpp"
#include "client/cli/text_table.hpp"
#include "client/cli/views.hpp"

#include <ostream>

namespace tally::cli {

namespace json = boost::json;

namespace {

// What the field's values may be: a range, or the choices.
std::string values_of(const FieldSpec& f) {
  if (!f.choices.empty()) return joined(f.choices, f.type == "choices" ? "+" : "|");
  return range_hint(f);
}

// How a form treats the field, beside its type and values.
std::string notes_of(const FieldSpec& f) {
  std::vector<std::string> notes;
  if (!f.required) notes.push_back("optional");
  if (f.one_holder) notes.push_back("one holder per table");
  if (f.derived()) {
    notes.push_back("derived: " + f.derived_from + " = " + json::serialize(f.derived_equals));
  }
  if (!f.excludes_own.empty()) notes.push_back("not the player's own " + f.excludes_own);
  return joined(notes, "; ");
}

void print_game(std::ostream& out, const GameSpec& game) {
  out << game.game << "\n";
  for (const auto& a : game.actions) {
    out << "  " << a.name << (a.per_player ? " (per player)" : "") << ":\n";
    TextTable fields({{"Field"}, {"Type"}, {"Values"}, {"Notes"}, {"Label"}});
    for (const auto& f : a.fields) {
      fields.add_row({f.name, f.type, values_of(f), notes_of(f), f.shown()});
    }
    fields.print(out, "    ");
  }
  if (!game.rules.empty()) {
    out << "  rules (defaults):\n";
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
    print_game(ctx.out, g);
  }
  if (wanted && first) {
    throw Failure(kNotFound,
                  "the server has no game \"" + *wanted + "\" (games: " + joined(names) + ")");
  }
  return kOk;
}

}  // namespace

std::vector<Command> games_commands() {
  return {
      {"games",
       "[GAME] [--json]",
       "The games the server scores: each table action's fields, and the rules' defaults",
       "The fields are what `result enter`/`correct` take (--player ID:field=value,…, prompts,\n"
       "--file) and the other table actions' bodies; their ranges and choices are the server's.\n"
       "The rules are what `tournament create --rules` overrides.",
       {{"json", 0, "", "print the server's JSON answer"}},
       0,
       1,
       false,
       games},
  };
}

}  // namespace tally::cli
