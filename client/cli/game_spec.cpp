#include "client/cli/game_spec.hpp"

#include "client/cli/exit_codes.hpp"
#include "client/cli/say.hpp"

namespace tally::cli {

namespace json = boost::json;

const FieldSpec* ActionSpec::field(std::string_view name) const {
  for (const auto& f : fields) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

std::string ActionSpec::field_names() const {
  std::vector<std::string> names;
  for (const auto& f : fields) names.push_back(f.name);
  return joined(names);
}

const ActionSpec* GameSpec::action(std::string_view name) const {
  for (const auto& a : actions) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

std::string joined(const std::vector<std::string>& items, const std::string& separator) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : separator) + item;
  return out;
}

namespace {

// `problem` names what is wrong for the message's select: "not_list", "game", "action",
// "fields", "field", "field_name"; `name` the action, when there is one.
[[noreturn]] void malformed(const std::string& problem, const std::string& name = "") {
  throw Failure(kUnavailable,
                i18n::Message("cli.games.malformed", {{"problem", problem}, {"name", name}}));
}

std::string text_of(const json::object& o, const char* key) {
  auto it = o.find(key);
  return it != o.end() && it->value().is_string() ? std::string(it->value().as_string()) : "";
}

bool flag_of(const json::object& o, const char* key, bool fallback) {
  auto it = o.find(key);
  return it != o.end() && it->value().is_bool() ? it->value().as_bool() : fallback;
}

std::optional<long long> integer_of(const json::object& o, const char* key) {
  auto it = o.find(key);
  if (it == o.end()) return std::nullopt;
  if (it->value().is_int64()) return it->value().as_int64();
  if (it->value().is_uint64()) return static_cast<long long>(it->value().as_uint64());
  return std::nullopt;
}

FieldSpec parse_field(const json::value& v) {
  if (!v.is_object()) malformed("field");
  const auto& o = v.as_object();
  FieldSpec f;
  f.name = text_of(o, "name");
  if (f.name.empty()) malformed("field_name");
  f.type = text_of(o, "type");
  f.min = integer_of(o, "min");
  f.max = integer_of(o, "max");
  f.required = flag_of(o, "required", true);
  f.label = text_of(o, "label");
  f.text = text_of(o, "text");
  if (auto it = o.find("choices"); it != o.end() && it->value().is_array()) {
    for (const auto& c : it->value().as_array()) {
      if (c.is_string()) f.choices.emplace_back(c.as_string());
    }
  }
  f.one_holder = flag_of(o, "one_holder", false);
  if (auto it = o.find("derived"); it != o.end() && it->value().is_object()) {
    const auto& d = it->value().as_object();
    f.derived_from = text_of(d, "from");
    if (auto eq = d.find("equals"); eq != d.end()) f.derived_equals = eq->value();
  }
  f.excludes_own = text_of(o, "excludes_own");
  return f;
}

}  // namespace

std::vector<GameSpec> parse_games(const json::value& answer) {
  if (!answer.is_array()) malformed("not_list");
  std::vector<GameSpec> out;
  for (const auto& g : answer.as_array()) {
    if (!g.is_object()) malformed("game");
    const auto& o = g.as_object();
    GameSpec game;
    game.game = text_of(o, "game");
    if (auto it = o.find("actions"); it != o.end() && it->value().is_object()) {
      for (const auto& [name, a] : it->value().as_object()) {
        if (!a.is_object()) malformed("action", std::string(name));
        ActionSpec action;
        action.name = std::string(name);
        action.type = text_of(a.as_object(), "type");
        action.per_player = flag_of(a.as_object(), "per_player", false);
        if (auto f = a.as_object().find("fields"); f != a.as_object().end()) {
          if (!f->value().is_array()) malformed("fields", action.name);
          for (const auto& field : f->value().as_array()) {
            action.fields.push_back(parse_field(field));
          }
        }
        game.actions.push_back(std::move(action));
      }
    }
    if (auto it = o.find("rules"); it != o.end() && it->value().is_array()) {
      game.rules = it->value().as_array();
    }
    out.push_back(std::move(game));
  }
  return out;
}

std::vector<GameSpec> load_games(Session& session) {
  tally::net::HttpReply reply = session.get("/v1/games");
  if (reply.status == 404) return {};
  return parse_games(session.expect(reply));
}

std::optional<GameSpec> load_game(Session& session, const std::string& game) {
  for (auto& g : load_games(session)) {
    if (g.game == game) return std::move(g);
  }
  return std::nullopt;
}

std::string range_hint(i18n::Lang lang, const FieldSpec& field) {
  if (field.min && field.max) {
    return say(lang,
               i18n::Message("cli.form.range_between", {{"min", *field.min}, {"max", *field.max}}));
  }
  if (field.min) return say(lang, i18n::Message("cli.form.range_min", {{"min", *field.min}}));
  if (field.max) return say(lang, i18n::Message("cli.form.range_max", {{"max", *field.max}}));
  return "";
}

bool in_range(const FieldSpec& field, long long n) {
  return (!field.min || n >= *field.min) && (!field.max || n <= *field.max);
}

}  // namespace tally::cli
