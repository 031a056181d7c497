#include "client/cli/result_form.hpp"

#include "client/cli/exit_codes.hpp"
#include "client/cli/numbers.hpp"
#include "client/cli/text.hpp"

#include <algorithm>
#include <map>
#include <ostream>
#include <sstream>

namespace tally::cli {

namespace json = boost::json;

const std::vector<FormField>* result_form(const std::string& game) {
  static const std::map<std::string, std::vector<FormField>> forms = {
      {"catan",
       {{"settlements", FieldKind::count, "0–5"},
        {"cities", FieldKind::count, "0–4"},
        {"vp_cards", FieldKind::count, "0–5"},
        {"knights", FieldKind::count, "played, 0 or more"},
        {"roads", FieldKind::count, "2–15"},
        {"longest_road", FieldKind::count, "1–roads"},
        {"vp", FieldKind::count, "VP on the score sheet, checked by the server", true},
        {"largest_army", FieldKind::flag, "Largest Army", false, true},
        {"longest_road_holder", FieldKind::flag, "Longest Road", false, true},
        {"claimed_win", FieldKind::flag, "claimed the win during play", true, true}}},
      {"agot",
       {{"house", FieldKind::house, ""},
        {"place", FieldKind::count, "1–6"},
        {"castles", FieldKind::count, "castles and strongholds held, 0–7"},
        {"capitals_captured", FieldKind::houses, "enemy capitals captured, e.g. lannister+tyrell"},
        {"capitals_held", FieldKind::count, "capitals held at the end, 0–6"},
        {"lands_captured", FieldKind::count, "0 or more"},
        {"winner", FieldKind::flag, "won the game (place 1)"}}},
      {"carcassonne", {{"score", FieldKind::count, "the final game score"}}},
  };
  auto it = forms.find(game);
  return it == forms.end() ? nullptr : &it->second;
}

const std::vector<std::string>& houses() {
  static const std::vector<std::string> list = {"stark",   "lannister", "baratheon",
                                                "greyjoy", "tyrell",    "martell"};
  return list;
}

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

std::optional<std::string> parse_house(const std::string& text) {
  std::string h = lower(text);
  for (const auto& known : houses()) {
    if (known == h) return known;
  }
  return std::nullopt;
}

// "lannister+tyrell", "lannister, tyrell", "" → the houses; nullopt when a name is unknown.
std::optional<json::array> parse_houses(const std::string& text) {
  json::array out;
  std::string item;
  std::stringstream in(text);
  while (std::getline(in, item, '+')) {
    std::stringstream parts(item);
    for (std::string part; std::getline(parts, part, ',');) {
      part.erase(0, part.find_first_not_of(" \t"));
      part.erase(part.find_last_not_of(" \t") + 1);
      if (part.empty() || lower(part) == "none" || part == "-") continue;
      auto house = parse_house(part);
      if (!house) return std::nullopt;
      out.emplace_back(*house);
    }
  }
  return out;
}

std::string house_list() {
  std::string out;
  for (const auto& h : houses()) out += (out.empty() ? "" : ", ") + h;
  return out;
}

json::value flag_value(const FormField& field, const std::string& player, const std::string& text,
                       bool bare) {
  auto fail = [&](const std::string& expected) {
    return usage_error("--player " + player + ": " + field.key + " must be " + expected +
                       (bare ? "" : ", not \"" + text + "\""));
  };
  switch (field.kind) {
    case FieldKind::count: {
      auto n = bare ? std::nullopt : parse_count(text);
      if (!n) throw fail("a whole number");
      return *n;
    }
    case FieldKind::flag: {
      std::string t = lower(text);
      if (bare || t == "true" || t == "yes" || t == "1") return true;
      if (t == "false" || t == "no" || t == "0") return false;
      throw fail("true or false");
    }
    case FieldKind::house: {
      auto h = bare ? std::nullopt : parse_house(text);
      if (!h) throw fail("one of " + house_list());
      return json::value(*h);
    }
    case FieldKind::houses: {
      auto list = parse_houses(bare ? "" : text);
      if (!list) throw fail("houses among " + house_list() + ", joined with +");
      return *list;
    }
  }
  return nullptr;
}

// A value for a game without a form: JSON when it parses, a string otherwise.
json::value loose_value(const std::string& text, bool bare) {
  if (bare) return true;
  boost::system::error_code ec;
  json::value v = json::parse(text, ec);
  return ec ? json::value(text) : v;
}

}  // namespace

json::array players_from_flags(const std::vector<std::string>& specs, const std::string& game) {
  const std::vector<FormField>* form = result_form(game);
  json::array players;
  for (const auto& spec : specs) {
    auto colon = spec.find(':');
    std::string player = spec.substr(0, colon);
    if (player.empty()) throw usage_error("--player needs ID:field=value,…, not \"" + spec + "\"");
    json::object p{{"player", player}};
    std::string fields = colon == std::string::npos ? "" : spec.substr(colon + 1);
    std::stringstream in(fields);
    for (std::string item; std::getline(in, item, ',');) {
      if (item.empty()) continue;
      auto eq = item.find('=');
      std::string key = item.substr(0, eq);
      bool bare = eq == std::string::npos;
      std::string text = bare ? "" : item.substr(eq + 1);
      if (p.contains(key)) throw usage_error("--player " + player + ": " + key + " is given twice");
      if (form == nullptr) {
        p[key] = loose_value(text, bare);
        continue;
      }
      auto field = std::find_if(form->begin(), form->end(),
                                [&](const FormField& f) { return f.key == key; });
      if (field == form->end()) {
        std::string known;
        for (const auto& f : *form) known += (known.empty() ? "" : ", ") + f.key;
        throw usage_error("--player " + player + ": " + game + " has no field \"" + key +
                          "\" (fields: " + known + ")");
      }
      p[key] = flag_value(*field, player, text, bare);
    }
    if (form != nullptr) {
      for (const auto& f : *form) {
        if (p.contains(f.key) || f.optional) continue;
        if (f.kind == FieldKind::flag && f.key == "winner" && p.contains("place")) {
          p["winner"] = p.at("place").is_int64() && p.at("place").as_int64() == 1;
        } else if (f.kind == FieldKind::flag) {
          p[f.key] = false;
        } else if (f.kind == FieldKind::houses) {
          p[f.key] = json::array();
        }
        // A missing number or house is left out: the server names it, player and field.
      }
    }
    players.push_back(std::move(p));
  }
  return players;
}

json::array players_from_prompts(Prompter& ask, std::ostream& prompts, const std::string& game,
                                 const json::object& table, const TournamentInfo& info) {
  const std::vector<FormField>* form = result_form(game);
  if (form == nullptr) {
    throw usage_error("there are no prompts for " + game + " results: use --file or --player");
  }
  std::vector<std::string> seated;
  for (const auto& p : table.at("players").as_array()) seated.emplace_back(p.as_string());
  const json::object* picked = table.contains("houses") && table.at("houses").is_object()
                                   ? &table.at("houses").as_object()
                                   : nullptr;
  const json::object* totals = table.contains("totals") && table.at("totals").is_object()
                                   ? &table.at("totals").as_object()
                                   : nullptr;

  json::array players;
  for (const auto& id : seated) {
    prompts << info.label_of(id) << "\n";
    json::object p{{"player", id}};
    for (const auto& f : *form) {
      if (f.one_per_table || (game == "agot" && f.key == "winner")) continue;
      std::string question = "  " + f.key + (f.hint.empty() ? "" : " (" + f.hint + ")");
      switch (f.kind) {
        case FieldKind::count: {
          std::optional<long long> fallback;
          if (f.key == "score" && totals != nullptr && totals->contains(id)) {
            fallback = totals->at(id).to_number<long long>();  // the scorings' running total
          }
          if (auto n = ask.integer(question, fallback, f.optional)) p[f.key] = *n;
          break;
        }
        case FieldKind::house: {
          std::optional<std::string> fallback;
          if (picked != nullptr && picked->contains(id)) fallback = cell_text(picked->at(id));
          p[f.key] = ask.choice(question, houses(), fallback);
          break;
        }
        case FieldKind::houses:
          for (;;) {
            auto list = parse_houses(ask.text(question + ", Enter for none", std::nullopt));
            if (list) {
              p[f.key] = std::move(*list);
              break;
            }
            prompts << "  houses among " << house_list() << ", joined with + or commas\n";
          }
          break;
        case FieldKind::flag:
          p[f.key] = ask.yes_no(question, false);
          break;
      }
    }
    if (game == "agot") p["winner"] = p.contains("place") && p.at("place").as_int64() == 1;
    players.push_back(std::move(p));
  }
  // Titles held by one player: asked once for the table.
  std::vector<std::string> choices = seated;
  choices.push_back("none");
  for (const auto& f : *form) {
    if (!f.one_per_table) continue;
    std::string holder =
        ask.choice("Who " + std::string(f.key == "claimed_win" ? "" : "holds ") + f.hint + "?",
                   choices, std::string("none"));
    for (auto& p : players) {
      bool holds = holder != "none" && p.at("player").as_string() == holder;
      if (holds || !f.optional) p.as_object()[f.key] = holds;
    }
  }
  return players;
}

void print_entry(std::ostream& out, const json::array& players, const TournamentInfo& info) {
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
        std::string shown =
            value.is_array() && value.as_array().empty() ? "none" : cell_text(value);
        out << (first ? " " : ", ") << std::string(key) << " " << shown;
      }
      first = false;
    }
    out << "\n";
  }
}

}  // namespace tally::cli
