#include "client/cli/result_form.hpp"

#include "client/cli/exit_codes.hpp"
#include "client/cli/numbers.hpp"
#include "client/cli/say.hpp"
#include "client/cli/text.hpp"

#include <algorithm>
#include <map>
#include <ostream>
#include <sstream>

namespace tally::cli {

namespace json = boost::json;

namespace {

std::optional<long long> parse_count(const std::string& text) {
  try {
    std::size_t used = 0;
    long long n = std::stoll(text, &used);
    if (used == text.size()) return n;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

// The choice `text` names (case-insensitive), as the server spells it.
std::optional<std::string> parse_choice(const std::string& text,
                                        const std::vector<std::string>& choices) {
  std::string wanted = lower(trim(text));
  for (const auto& c : choices) {
    if (lower(c) == wanted) return c;
  }
  return std::nullopt;
}

// "a+b", "a, b", "", "none" → the choices; nullopt when one is not among `choices`.
std::optional<json::array> parse_list(const std::string& text,
                                      const std::vector<std::string>& choices) {
  json::array out;
  std::string item;
  std::stringstream in(text);
  while (std::getline(in, item, '+')) {
    std::stringstream parts(item);
    for (std::string part; std::getline(parts, part, ',');) {
      part = trim(part);
      if (part.empty() || lower(part) == "none" || part == "-") continue;
      auto choice = parse_choice(part, choices);
      if (!choice) return std::nullopt;
      out.emplace_back(*choice);
    }
  }
  return out;
}

// A value that is not one of the described types: JSON when it parses, a string otherwise.
json::value loose_value(const std::string& text, bool bare) {
  if (bare) return true;
  boost::system::error_code ec;
  json::value v = json::parse(text, ec);
  return ec ? json::value(text) : v;
}

json::value flag_value(const FieldSpec& field, const std::string& player, const std::string& text,
                       bool bare) {
  // `expected` is the select of cli.form.flag_must_be: what the value must be.
  auto fail = [&](const char* expected) {
    return usage_error(i18n::Message("cli.form.flag_must_be", {{"player", player},
                                                               {"field", field.name},
                                                               {"expected", expected},
                                                               {"choices", joined(field.choices)},
                                                               {"given", bare ? "no" : "yes"},
                                                               {"text", text}}));
  };
  if (field.type == "integer") {
    auto n = bare ? std::nullopt : parse_count(text);
    if (!n) throw fail("whole_number");
    return *n;
  }
  if (field.type == "boolean") {
    std::string t = lower(text);
    if (bare || t == "true" || t == "yes" || t == "1") return true;
    if (t == "false" || t == "no" || t == "0") return false;
    throw fail("true_false");
  }
  if (field.type == "choice" && !field.choices.empty()) {
    auto c = bare ? std::nullopt : parse_choice(text, field.choices);
    if (!c) throw fail("one_of");
    return json::value(*c);
  }
  if (field.type == "choices" && !field.choices.empty()) {
    auto list = parse_list(bare ? "" : text, field.choices);
    if (!list) throw fail("among");
    return *list;
  }
  if (field.type == "player" || field.type == "choice") {
    if (bare) throw fail("value");
    return json::value(text);
  }
  return loose_value(text, bare);
}

// Fields a form does not ask for: a derived one from its source, when the source is there.
void derive(const ActionSpec& form, json::object& p) {
  for (const auto& f : form.fields) {
    if (!f.derived() || p.contains(f.name)) continue;
    auto source = p.find(f.derived_from);
    if (source != p.end()) p[f.name] = source->value() == f.derived_equals;
  }
}

// Where a table answer already holds a player's value for a result field, offered as the
// prompt's default: the house picked (the table's `houses`) and the running total of the
// recorded scorings (`totals`) for the final score. These are members of the API's table answer,
// not rules: whatever is entered is checked by the server.
std::optional<json::value> table_default(const json::object& table, const std::string& field,
                                         const std::string& player) {
  static const std::map<std::string, std::string> kMembers = {{"house", "houses"},
                                                              {"score", "totals"}};
  auto member = kMembers.find(field);
  if (member == kMembers.end()) return std::nullopt;
  auto it = table.find(member->second);
  if (it == table.end() || !it->value().is_object()) return std::nullopt;
  auto value = it->value().as_object().find(player);
  if (value == it->value().as_object().end()) return std::nullopt;
  return value->value();
}

std::optional<long long> integer_value(const json::value* v) {
  if (v == nullptr) return std::nullopt;
  if (v->is_int64()) return v->as_int64();
  if (v->is_uint64()) return static_cast<long long>(v->as_uint64());
  if (v->is_double()) return static_cast<long long>(v->as_double());
  return std::nullopt;
}

std::optional<std::string> string_value(const json::value* v) {
  if (v == nullptr || !v->is_string()) return std::nullopt;
  return std::string(v->as_string());
}

// The entry of `player` in an earlier list of players, or null.
const json::object* entry_of(const json::array* players, const std::string& player) {
  if (players == nullptr) return nullptr;
  for (const auto& p : *players) {
    if (p.is_object() && p.as_object().contains("player") && p.at("player").is_string() &&
        p.at("player").as_string() == player) {
      return &p.as_object();
    }
  }
  return nullptr;
}

// Asks one field of one player; sets it in `p` unless it is optional and left empty.
void ask_field(Prompter& ask, std::ostream& prompts, const FieldSpec& f, json::object& p,
               const std::string& id, const std::vector<std::string>& seated,
               const json::object& table, const json::object* before) {
  const i18n::Lang lang = ask.lang();
  const json::value* old = before != nullptr ? before->if_contains(f.name) : nullptr;
  std::optional<json::value> from_table = table_default(table, f.name, id);
  std::string question = "  " + f.shown();

  if (f.type == "integer") {
    std::string hint = range_hint(lang, f);
    if (!hint.empty()) question += " (" + hint + ")";
    std::optional<long long> fallback = integer_value(old);
    if (!fallback && from_table) fallback = integer_value(&*from_table);
    for (;;) {
      auto n = ask.integer(question, fallback, !f.required);
      if (!n) return;  // optional, skipped
      if (in_range(f, *n)) {
        p[f.name] = *n;
        return;
      }
      prompts << "  " << say(lang, i18n::Message("cli.form.range_please", {{"range", hint}}))
              << "\n";
    }
  }
  if (f.type == "boolean") {
    bool fallback = old != nullptr && old->is_bool() && old->as_bool();
    bool yes = ask.yes_no(question + "?", fallback);
    if (yes || f.required) p[f.name] = yes;
    return;
  }
  if (f.type == "choice" && !f.choices.empty()) {
    std::optional<std::string> fallback = string_value(old);
    if (!fallback && from_table) fallback = string_value(&*from_table);
    if (fallback) fallback = parse_choice(*fallback, f.choices);
    p[f.name] = ask.choice(question, f.choices, fallback);
    return;
  }
  if (f.type == "choices" && !f.choices.empty()) {
    // A value the player's own `excludes_own` field holds is not offered.
    std::vector<std::string> offered = f.choices;
    if (!f.excludes_own.empty()) {
      if (auto own = string_value(p.if_contains(f.excludes_own))) {
        std::erase(offered, *own);
      }
    }
    std::optional<std::string> fallback;
    if (old != nullptr && old->is_array() && !old->as_array().empty()) {
      std::vector<std::string> items;
      for (const auto& v : old->as_array()) items.push_back(cell_text(v));
      fallback = joined(items, "+");
    }
    std::string shown = question + " " +
                        say(lang, i18n::Message(fallback ? "cli.form.among_or_none"
                                                         : "cli.form.among_enter_for_none",
                                                {{"choices", joined(offered)}}));
    for (;;) {
      auto list = parse_list(ask.text(shown, fallback), offered);
      if (list) {
        if (!list->empty() || f.required) p[f.name] = std::move(*list);
        return;
      }
      prompts << "  "
              << say(lang, i18n::Message("cli.form.among_please", {{"choices", joined(offered)}}))
              << "\n";
    }
  }
  if (f.type == "player") {
    p[f.name] = ask.choice(question, seated, string_value(old));
    return;
  }
  // "object", a "choice" without choices, or a type this CLI does not know: text or JSON.
  std::optional<std::string> fallback;
  if (old != nullptr)
    fallback = old->is_string() ? std::string(old->as_string()) : json::serialize(*old);
  std::string shown = question + (f.type == "object" ? " (JSON)" : "") +
                      (f.required || fallback ? "" : " " + say(lang, "cli.prompt.enter_to_skip"));
  for (;;) {
    std::string answer = ask.text(shown, fallback);
    if (answer.empty() && !f.required) return;
    if (f.type != "object") {
      p[f.name] = loose_value(answer, false);
      return;
    }
    boost::system::error_code ec;
    json::value v = json::parse(answer, ec);
    if (!ec && v.is_object()) {
      p[f.name] = std::move(v);
      return;
    }
    prompts << "  " << say(lang, "cli.form.want_json_object") << "\n";
  }
}

bool asked_once_per_table(const FieldSpec& f) {
  return f.one_holder && f.type == "boolean" && !f.derived();
}

}  // namespace

json::array players_from_flags(const std::vector<std::string>& specs, const ActionSpec* form,
                               const std::string& game) {
  json::array players;
  for (const auto& spec : specs) {
    auto colon = spec.find(':');
    std::string player = spec.substr(0, colon);
    if (player.empty()) {
      throw usage_error(i18n::Message("cli.form.flag_needs_spec", {{"spec", spec}}));
    }
    json::object p{{"player", player}};
    std::string fields = colon == std::string::npos ? "" : spec.substr(colon + 1);
    std::stringstream in(fields);
    for (std::string item; std::getline(in, item, ',');) {
      if (item.empty()) continue;
      auto eq = item.find('=');
      std::string key = item.substr(0, eq);
      bool bare = eq == std::string::npos;
      std::string text = bare ? "" : item.substr(eq + 1);
      if (p.contains(key)) {
        throw usage_error(
            i18n::Message("cli.form.flag_given_twice", {{"player", player}, {"field", key}}));
      }
      if (form == nullptr) {
        p[key] = loose_value(text, bare);
        continue;
      }
      const FieldSpec* field = form->field(key);
      if (field == nullptr) {
        throw usage_error(i18n::Message(
            "cli.form.flag_no_field",
            {{"player", player}, {"game", game}, {"field", key}, {"fields", form->field_names()}}));
      }
      p[key] = flag_value(*field, player, text, bare);
    }
    if (form != nullptr) {
      derive(*form, p);
      for (const auto& f : form->fields) {
        if (p.contains(f.name) || !f.required) continue;
        if (f.type == "boolean") {
          p[f.name] = false;
        } else if (f.type == "choices") {
          p[f.name] = json::array();
        }
        // A missing number or choice is left out: the server names it, player and field.
      }
    }
    players.push_back(std::move(p));
  }
  return players;
}

json::array players_from_prompts(Prompter& ask, std::ostream& prompts, const ActionSpec& form,
                                 const json::object& table, const TournamentInfo& info,
                                 const json::array* previous) {
  std::vector<std::string> seated;
  for (const auto& p : table.at("players").as_array()) seated.emplace_back(p.as_string());

  json::array players;
  for (const auto& id : seated) {
    prompts << info.label_of(id) << "\n";
    json::object p{{"player", id}};
    const json::object* before = entry_of(previous, id);
    for (const auto& f : form.fields) {
      if (asked_once_per_table(f) || f.derived()) continue;
      ask_field(ask, prompts, f, p, id, seated, table, before);
    }
    derive(form, p);
    players.push_back(std::move(p));
  }
  // Titles at most one player holds: asked once for the table.
  const std::string nobody = say(ask.lang(), "cli.form.nobody");
  std::vector<std::string> choices = seated;
  choices.push_back(nobody);
  for (const auto& f : form.fields) {
    if (!asked_once_per_table(f)) continue;
    std::string fallback = nobody;
    for (const auto& id : seated) {
      const json::object* before = entry_of(previous, id);
      const json::value* held = before != nullptr ? before->if_contains(f.name) : nullptr;
      if (held != nullptr && held->is_bool() && held->as_bool()) fallback = id;
    }
    std::string holder =
        ask.choice(say(ask.lang(), i18n::Message("cli.form.who_holds", {{"title", f.shown()}})),
                   choices, fallback);
    for (auto& p : players) {
      bool holds = holder != nobody && p.at("player").as_string() == holder;
      if (holds || f.required) p.as_object()[f.name] = holds;
    }
  }
  return players;
}

void print_entry(std::ostream& out, const json::array& players, const TournamentInfo& info,
                 i18n::Lang lang) {
  for (const auto& p : players) {
    const auto& o = p.as_object();
    std::string id = o.contains("player") ? cell_text(o.at("player")) : "?";
    out << "  " << info.label_of(id) << ":";
    bool first = true;
    for (const auto& [key, value] : o) {
      if (key == "player") continue;
      if (value.is_bool()) {
        if (!value.as_bool()) continue;
        out << (first ? " " : ", ") << std::string(key);
      } else {
        std::string text = value.is_array() && value.as_array().empty()
                               ? say(lang, "cli.form.entry_none")
                               : shown(lang, value);
        out << (first ? " " : ", ") << std::string(key) << " " << text;
      }
      first = false;
    }
    out << "\n";
  }
}

}  // namespace tally::cli
