#include "projections/carcassonne/turn_events.hpp"

#include "projections/carcassonne/feature_scoring.hpp"
#include "projections/carcassonne/feature_value.hpp"

#include <algorithm>
#include <array>
#include <vector>

namespace tally::projections::carcassonne {

namespace json = boost::json;

namespace {

struct Input {
  ObjectReader& r;
  const EngineRules& rules;
  Scoring& out;
  Diagnostics& d() { return r.diagnostics(); }
};
using Score = void (*)(Input&);

// {"red": 2, …}: counts per player (followers, monks, …), in order. Required.
PlayerCounts counts_per_player(Input& in, std::string_view key, std::string_view rule) {
  PlayerCounts out;
  const json::value* v = in.r.value(key);
  if (v == nullptr) {
    in.d().error("schema", in.r.path_of(key),
                 i18n::Message("json.required_shaped", {{"shape", R"({"player": count})"}}));
    return out;
  }
  if (!v->is_object()) {
    in.d().error("schema", in.r.path_of(key),
                 i18n::Message("json.expected.object_shaped", {{"shape", R"({"player": count})"}}));
    return out;
  }
  for (const auto& member : v->get_object()) {
    std::string path = in.r.path_of(key) + "." + std::string(member.key());
    if (member.key().empty()) {
      in.d().error("schema", path, "json.expected.player_name");
      continue;
    }
    in.d().players.push_back({std::string(member.key()), path});
    if (auto n = read_count(member.value(), path, rule, in.d())) {
      out.emplace_back(std::string(member.key()), *n);
    }
  }
  return out;
}

// `per` points for each counted unit of each player (no line for a count of 0).
void per_player(Input& in, std::string_view key, std::string rule, std::int64_t per) {
  for (const auto& [player, n] : counts_per_player(in, key, rule)) {
    if (n > 0) in.out.add(player, rule, n, n * per);
  }
}

// A single player's fixed points: {"event":…, "player":"red"}.
void fixed(Input& in, std::string rule, std::int64_t points) {
  if (auto p = in.r.required_player("player"))
    in.out.add(*p, std::move(rule), std::nullopt, points);
}

// --- The events -------------------------------------------------------------------------------

// Circus: the animal token × each player's followers on the big-top tile and the 8 around.
void circus(Input& in) {
  auto animal = in.r.required_count("animal", 1, kMaxCount, "circus");
  if (!animal) {
    counts_per_player(in, "followers", "circus");
    return;
  }
  per_player(in, "followers", "circus", *animal);
}

// Betting office: each token pays when the completed feature has the right number of tiles.
struct BetOutcome {
  std::int64_t tiles;
  bool or_more;  // "7+": 7 or more tiles
  std::int64_t points;
};
struct BettingToken {
  std::string_view token;
  std::array<BetOutcome, 2> outcomes;  // unused outcome: tiles 0
};
constexpr std::array<BettingToken, 6> kBettingTokens = {{
    {"2/6", {{{2, false, 2}, {6, false, 6}}}},
    {"3/5", {{{3, false, 3}, {5, false, 5}}}},
    {"3/6", {{{3, false, 3}, {6, false, 6}}}},
    {"4/7+", {{{4, false, 4}, {7, true, 7}}}},
    {"4", {{{4, false, 8}, {0, false, 0}}}},
    {"5/8+", {{{5, false, 5}, {8, true, 8}}}},
}};

std::int64_t bet_points(const BettingToken& token, std::int64_t tiles) {
  for (const auto& o : token.outcomes) {
    if (o.tiles == 0) continue;
    if (tiles == o.tiles || (o.or_more && tiles > o.tiles)) return o.points;
  }
  return 0;
}

void betting_office(Input& in) {
  auto tiles = in.r.required_count("tiles", 1, kMaxCount, "betting_office");
  std::vector<std::string_view> names;
  for (const auto& t : kBettingTokens) names.push_back(t.token);
  const json::array* bets = in.r.array("bets");
  if (bets == nullptr) {
    if (!in.r.has("bets")) in.d().error("schema", in.r.path_of("bets"), "json.required");
    return;
  }
  for (std::size_t i = 0; i < bets->size(); ++i) {
    std::string path = in.r.path_of("bets") + "[" + std::to_string(i) + "]";
    if (!(*bets)[i].is_object()) {
      in.d().error(
          "schema", path,
          i18n::Message("json.expected.object_shaped", {{"shape", R"({"player","token"})"}}));
      continue;
    }
    ObjectReader br((*bets)[i].get_object(), path, in.d());
    auto player = br.required_player("player");
    auto token = br.required_choice("token", names, "betting_office");
    br.finish("schema");
    if (!player || !token || !tiles) continue;
    const auto* spec = std::find_if(kBettingTokens.begin(), kBettingTokens.end(),
                                    [&](const BettingToken& t) { return t.token == *token; });
    in.out.add(*player, "betting_office", *tiles, bet_points(*spec, *tiles));
  }
}

// Gingerbread man leaving an incomplete city: 1 per tile per own follower, every player.
void gingerbread_man(Input& in) {
  auto tiles = in.r.required_count("tiles", 1, kMaxCount, "gingerbread_man");
  if (!tiles) {
    counts_per_player(in, "followers", "gingerbread_man");
    return;
  }
  per_player(in, "followers", "gingerbread_man", *tiles);
}

// A nested feature valued as at final scoring (dispatch, sweeper).
std::optional<FeatureEvent> nested_feature(Input& in, FeatureSet allowed, std::string_view rule) {
  const json::object* o = in.r.object("feature");
  if (o == nullptr) {
    if (!in.r.has("feature")) in.d().error("schema", in.r.path_of("feature"), "json.required");
    return std::nullopt;
  }
  ObjectReader fr(*o, in.r.path_of("feature"), in.d());
  auto feature = read_feature_event(fr, in.rules, FeatureRole::final_value);
  fr.finish("schema");
  if (feature && !allowed.contains(feature->feature)) {
    in.d().error(std::string(rule), fr.path_of("feature"),
                 not_one_of(allowed.describe(), o->at("feature")));
    return std::nullopt;
  }
  return feature;
}

// Dispatch (letters): 2 points, or a letter's action.
constexpr std::array<std::string_view, 9> kDispatchActions = {
    "points",  "smallest_road", "smallest_city", "smallest_monastery", "pennants",
    "knights", "farmers",       "extra_tile",    "score_follower"};

void dispatch(Input& in) {
  auto player = in.r.required_player("player");
  auto action = in.r.required_choice("action", kDispatchActions, "dispatch");
  if (!player || !action) return;
  const std::string& a = *action;
  if (a == "points") {
    in.out.add(*player, "dispatch.points", std::nullopt, 2);
  } else if (a == "pennants" || a == "knights" || a == "farmers") {
    // 2 per pennant / knight in cities with an own follower, 2 per own farmer.
    if (auto n = in.r.required_count("count", 0, kMaxCount, "dispatch")) {
      in.out.add(*player, "dispatch." + a, *n, 2 * *n);
    }
  } else if (a == "extra_tile") {
    in.out.add(*player, "dispatch.extra_tile", std::nullopt, 0);
  } else if (a == "score_follower") {
    // A follower's feature at final-scoring value, with majority; the follower is removed.
    auto feature = nested_feature(in, FeatureSet::all().without({Feature::castle}), "dispatch");
    if (!feature) return;
    if (std::none_of(feature->figures.begin(), feature->figures.end(), [&](const PlacedFigure& f) {
          return f.player == *player && f.spec->follower;
        })) {
      in.d().error("dispatch", in.r.path_of("feature.figures"),
                   i18n::Message("carcassonne.dispatch.own_follower",
                                 {{"player", i18n::PlayerRef{*player}}}),
                   *player);
      return;
    }
    Scoring scoring = score_feature(*feature);
    for (const auto& line : scoring.lines()) {
      if (line.player == *player) in.out.add(line);
    }
  } else {
    // The smallest road / city / monastery with an own follower, at final-scoring value,
    // without majority.
    FeatureSet allowed = a == "smallest_road"   ? FeatureSet{Feature::road}
                         : a == "smallest_city" ? FeatureSet{Feature::city}
                                                : kMonasteryFamily;
    auto feature = nested_feature(in, allowed, "dispatch");
    if (!feature) return;
    if (std::none_of(feature->figures.begin(), feature->figures.end(), [&](const PlacedFigure& f) {
          return f.player == *player && f.spec->follower;
        })) {
      in.d().error(
          "dispatch", in.r.path_of("feature.figures"),
          i18n::Message("carcassonne.dispatch.no_follower", {{"player", i18n::PlayerRef{*player}}}),
          *player);
      return;
    }
    FeatureValue value = feature_value(*feature);
    for (const auto& item : value.items) in.out.add(*player, item.rule, item.count, item.points);
  }
}

// Fairy at the start of a turn: +1 (for each own acrobat in a pyramid the fairy stands next to).
void fairy_turn_start(Input& in) {
  auto player = in.r.required_player("player");
  auto pyramid = in.r.count("pyramid_followers", 1, kMaxCount, "fairy_turn_start");
  if (player) in.out.add(*player, "fairy_turn_start", pyramid, pyramid.value_or(1));
}

// Wheel of Fortune: the effect of the sector the wheel stops on.
constexpr std::array<std::string_view, 8> kFortuneEffects = {
    "fortuna",     "taxes",  "famine",       "storm",
    "inquisition", "plague", "crown_fields", "peasant_revolt"};

void fortune_taxes(Input& in) {
  // Per city: each knight of a player earns 1 per pennant + 1 per knight in that city.
  const json::array* cities = in.r.array("cities");
  if (cities == nullptr) {
    if (!in.r.has("cities")) in.d().error("schema", in.r.path_of("cities"), "json.required");
    return;
  }
  for (std::size_t i = 0; i < cities->size(); ++i) {
    std::string path = in.r.path_of("cities") + "[" + std::to_string(i) + "]";
    if (!(*cities)[i].is_object()) {
      in.d().error("schema", path,
                   i18n::Message("json.expected.object_shaped",
                                 {{"shape", R"({"pennants","knights":{"player":n}})"}}));
      continue;
    }
    ObjectReader cr((*cities)[i].get_object(), path, in.d());
    Input city{cr, in.rules, in.out};
    std::int64_t pennants = cr.count_or("pennants", 0, 0, kMaxCount, "fortune");
    PlayerCounts knights = counts_per_player(city, "knights", "fortune");
    cr.finish("schema");
    std::int64_t all_knights = 0;
    for (const auto& [p, n] : knights) all_knights += n;
    for (const auto& [p, n] : knights) {
      if (n > 0) in.out.add(p, "fortune.taxes", n, n * (pennants + all_knights));
    }
  }
}

void fortune_famine(Input& in) {
  // Per own field: 1 per completed city, 2 per castle, +1 per city or castle with a pig and
  // with a pig herd.
  const json::array* fields = in.r.array("fields");
  if (fields == nullptr) {
    if (!in.r.has("fields")) in.d().error("schema", in.r.path_of("fields"), "json.required");
    return;
  }
  for (std::size_t i = 0; i < fields->size(); ++i) {
    std::string path = in.r.path_of("fields") + "[" + std::to_string(i) + "]";
    if (!(*fields)[i].is_object()) {
      in.d().error("schema", path,
                   i18n::Message("json.expected.object_shaped",
                                 {{"shape", R"({"player","cities","castles","pig","pig_herd"})"}}));
      continue;
    }
    ObjectReader fr((*fields)[i].get_object(), path, in.d());
    auto player = fr.required_player("player");
    std::int64_t cities = fr.count_or("cities", 0, 0, kMaxCount, "fortune");
    std::int64_t castles = fr.count_or("castles", 0, 0, kMaxCount, "fortune");
    std::int64_t pigs = (fr.flag("pig") ? 1 : 0) + (fr.flag("pig_herd") ? 1 : 0);
    fr.finish("schema");
    if (!player) continue;
    std::int64_t points = cities + 2 * castles + pigs * (cities + castles);
    if (points > 0) in.out.add(*player, "fortune.famine", cities + castles, points);
  }
}

// Crown fields: alone in a one-crown sector 3; alone in a two-crown sector 6; two followers in a
// two-crown sector 3 each.
struct CrownRow {
  std::int64_t crowns;
  std::size_t followers;
  std::int64_t points_each;
};
constexpr std::array<CrownRow, 3> kCrowns = {{{1, 1, 3}, {2, 1, 6}, {2, 2, 3}}};

void fortune_crown_fields(Input& in) {
  auto crowns = in.r.required_count("crowns", 1, 2, "fortune");
  const json::array* players = in.r.array("players");
  if (players == nullptr) {
    if (!in.r.has("players")) in.d().error("schema", in.r.path_of("players"), "json.required");
    return;
  }
  std::vector<std::string> names;
  for (std::size_t i = 0; i < players->size(); ++i) {
    auto p =
        read_player((*players)[i], in.r.path_of("players") + "[" + std::to_string(i) + "]", in.d());
    if (p) names.push_back(*p);
  }
  if (!crowns) return;
  const auto* row = std::find_if(kCrowns.begin(), kCrowns.end(), [&](const CrownRow& c) {
    return c.crowns == *crowns && c.followers == names.size();
  });
  if (row == kCrowns.end()) {
    in.d().error("fortune", in.r.path_of("players"),
                 i18n::Message("carcassonne.fortune.sector", {{"crowns", *crowns}}));
    return;
  }
  for (const auto& p : names) in.out.add(p, "fortune.crown_fields", *crowns, row->points_each);
}

void fortune(Input& in) {
  auto effect = in.r.required_choice("effect", kFortuneEffects, "fortune");
  if (!effect) return;
  const std::string& e = *effect;
  if (e == "fortuna") {
    fixed(in, "fortune.fortuna", 3);  // the player on turn
  } else if (e == "taxes") {
    fortune_taxes(in);
  } else if (e == "famine") {
    fortune_famine(in);
  } else if (e == "storm") {
    per_player(in, "supply", "fortune.storm", 1);  // 1 per follower in the supply
  } else if (e == "inquisition") {
    per_player(in, "monks", "fortune.inquisition", 2);
  } else if (e == "crown_fields") {
    fortune_crown_fields(in);
  } else if (e == "peasant_revolt") {
    per_player(in, "protected", "fortune.peasant_revolt", 2);
  }
  // plague: 0 points (each player removes a follower).
}

// Sweeper: a chosen incomplete road at final-scoring value, with majority.
void sweeper(Input& in) {
  if (auto road = nested_feature(in, {Feature::road}, "sweeper"))
    in.out.append(score_feature(*road));
}

// Payday: 2 per follower of the player on the chosen feature.
void payday(Input& in) {
  auto player = in.r.required_player("player");
  auto followers = in.r.required_count("followers", 1, kMaxCount, "payday");
  if (player && followers) in.out.add(*player, "payday", *followers, 2 * *followers);
}

void compass_rose(Input& in) { fixed(in, "compass_rose", 3); }
void spiel_doch(Input& in) { fixed(in, "spiel_doch", in.rules.spiel_doch_variant ? 5 : 0); }
void jubilee_arrow(Input& in) { fixed(in, "jubilee_arrow", 2); }

// Redeeming a follower from a bathhouse: − the number on it (the score may go negative).
void bathhouse_redeem(Input& in) {
  auto player = in.r.required_player("player");
  auto number = in.r.required_count("number", 0, kMaxCount, "bathhouse_redeem");
  if (player && number) in.out.add(*player, "bathhouse_redeem", *number, -*number);
}

// Abbot returned: 1 per tile in the 3×3 (the abbot cannot leave a surrounded garden/monastery).
void abbot_return(Input& in) {
  auto player = in.r.required_player("player");
  auto around = in.r.required_count("neighbour_tiles", 0, 7, "abbot_return");
  if (player && around) in.out.add(*player, "abbot_return", 1 + *around, 1 + *around);
}

void acrobat_pyramid(Input& in) { per_player(in, "followers", "acrobat_pyramid", 5); }

// Protecting a follower from the peasant revolt: −4 during placement, −2 already placed.
constexpr std::array<std::string_view, 2> kProtectWhen = {"placement", "placed"};
void peasant_revolt_protect(Input& in) {
  auto player = in.r.required_player("player");
  auto when = in.r.required_choice("when", kProtectWhen, "peasant_revolt_protect");
  if (player && when) {
    in.out.add(*player, "peasant_revolt_protect", std::nullopt, *when == "placement" ? -4 : -2);
  }
}

void shepherd(Input& in) {
  auto player = in.r.required_player("player");
  auto sheep = in.r.required_count("sheep", 1, kMaxCount, "shepherd");
  if (player && sheep) in.out.add(*player, "shepherd", *sheep, *sheep);
}

// Fruit-bearing trees: harvest a token (its value) or sell 1–4 tokens for 3/6/10/15.
constexpr std::array<std::string_view, 2> kFruitActions = {"harvest", "sell"};
constexpr std::array<std::int64_t, 5> kFruitSale = {0, 3, 6, 10, 15};
void fruit(Input& in) {
  auto player = in.r.required_player("player");
  auto action = in.r.required_choice("action", kFruitActions, "fruit");
  if (!action) return;
  if (*action == "harvest") {
    auto token = in.r.required_count("token", 1, kMaxCount, "fruit");
    if (player && token) in.out.add(*player, "fruit.harvest", std::nullopt, *token);
  } else {
    auto tokens = in.r.required_count("tokens", 1, 4, "fruit");
    if (player && tokens) {
      in.out.add(*player, "fruit.sell", *tokens, kFruitSale[static_cast<std::size_t>(*tokens)]);
    }
  }
}

// Catapult: archery — the hurler 5 if closest; catch — by outcome, the catcher or the hurler 5.
constexpr std::array<std::string_view, 2> kCatapultTokens = {"archery", "catch"};
struct CatchOutcome {
  std::string_view outcome;
  bool catcher_scores;
};
constexpr std::array<CatchOutcome, 4> kCatch = {{
    {"caught", true},
    {"not_far_enough", true},
    {"far_enough", false},
    {"touched", false},
}};

void catapult(Input& in) {
  auto token = in.r.required_choice("token", kCatapultTokens, "catapult");
  auto hurler = in.r.required_player("hurler");
  if (!token) return;
  if (*token == "archery") {
    auto closest = in.r.required_boolean("closest");
    if (hurler && closest) in.out.add(*hurler, "catapult.archery", std::nullopt, *closest ? 5 : 0);
    return;
  }
  auto catcher = in.r.required_player("catcher");
  std::vector<std::string_view> outcomes;
  for (const auto& c : kCatch) outcomes.push_back(c.outcome);
  auto outcome = in.r.required_choice("outcome", outcomes, "catapult");
  if (!hurler || !catcher || !outcome) return;
  const auto* row = std::find_if(kCatch.begin(), kCatch.end(),
                                 [&](const CatchOutcome& c) { return c.outcome == *outcome; });
  in.out.add(row->catcher_scores ? *catcher : *hurler, "catapult.catch", std::nullopt, 5);
}

// Bazaar: the seller + the bid, the buyer − the bid (may go negative).
void bazaar(Input& in) {
  auto buyer = in.r.required_player("buyer");
  auto seller = in.r.player("seller");
  auto bid = in.r.required_count("bid", 0, kMaxCount, "bazaar");
  if (!buyer || !bid) return;
  if (seller && *seller == *buyer) {
    in.d().error("bazaar", in.r.path_of("seller"), "carcassonne.bazaar.same_player", *buyer);
    return;
  }
  if (seller) in.out.add(*seller, "bazaar.sold", std::nullopt, *bid);
  in.out.add(*buyer, "bazaar.bought", std::nullopt, -*bid);
}

// Tower ransom: the payer −3, the captor +3 (the payer may not go below 0: checked against the
// table's running score, score_track.hpp).
void tower_ransom(Input& in) {
  auto payer = in.r.required_player("payer");
  auto captor = in.r.required_player("captor");
  if (!payer || !captor) return;
  if (*payer == *captor) {
    in.d().error("tower_ransom", in.r.path_of("captor"), "carcassonne.tower_ransom.self", *payer);
    return;
  }
  in.out.add(*payer, "tower_ransom.payer", std::nullopt, -3);
  in.out.add(*captor, "tower_ransom.captor", std::nullopt, 3);
}

struct TurnEventSpec {
  std::string_view event;
  Score score;
  std::vector<std::string_view> members;  // besides "event"
};

// §5: every event kind besides features.
const TurnEventSpec kTurnEvents[] = {
    {"circus", circus, {"animal", "followers"}},
    {"betting_office", betting_office, {"tiles", "bets", "player", "token"}},
    {"gingerbread_man", gingerbread_man, {"tiles", "followers"}},
    {"dispatch", dispatch, {"player", "action", "count", "feature"}},
    {"fairy_turn_start", fairy_turn_start, {"player", "pyramid_followers"}},
    {"fortune",
     fortune,
     {"effect", "player", "cities", "pennants", "knights", "fields", "cities", "castles", "pig",
      "pig_herd", "supply", "monks", "crowns", "players", "protected"}},
    {"sweeper", sweeper, {"feature"}},
    {"payday", payday, {"player", "followers"}},
    {"compass_rose", compass_rose, {"player"}},
    {"spiel_doch", spiel_doch, {"player"}},
    {"jubilee_arrow", jubilee_arrow, {"player"}},
    {"bathhouse_redeem", bathhouse_redeem, {"player", "number"}},
    {"abbot_return", abbot_return, {"player", "neighbour_tiles"}},
    {"acrobat_pyramid", acrobat_pyramid, {"followers"}},
    {"peasant_revolt_protect", peasant_revolt_protect, {"player", "when"}},
    {"shepherd", shepherd, {"player", "sheep"}},
    {"fruit", fruit, {"player", "action", "token", "tokens"}},
    {"catapult", catapult, {"token", "hurler", "catcher", "closest", "outcome"}},
    {"bazaar", bazaar, {"seller", "buyer", "bid"}},
    {"tower_ransom", tower_ransom, {"payer", "captor"}},
};

}  // namespace

std::optional<Scoring> score_turn_event(ObjectReader& r, const EngineRules& rules) {
  Diagnostics& d = r.diagnostics();
  std::vector<std::string_view> kinds;
  for (const auto& e : kTurnEvents) kinds.push_back(e.event);
  auto kind = r.required_choice("event", kinds, "event");
  if (!kind) {
    for (const auto& e : kTurnEvents) {
      for (auto m : e.members) r.has(m);  // one error about the kind is enough
    }
    return std::nullopt;
  }
  std::size_t errors_before = d.errors.size();
  Scoring out;
  Input in{r, rules, out};
  for (const auto& e : kTurnEvents) {
    if (e.event == *kind) e.score(in);
  }
  if (d.errors.size() != errors_before) return std::nullopt;
  return out;
}

std::vector<std::string_view> turn_event_names() {
  std::vector<std::string_view> out;
  for (const auto& e : kTurnEvents) {
    out.push_back(e.event);
    out.insert(out.end(), e.members.begin(), e.members.end());
  }
  out.push_back("event");
  for (const auto& t : kBettingTokens) out.push_back(t.token);
  out.insert(out.end(), kDispatchActions.begin(), kDispatchActions.end());
  out.insert(out.end(), kFortuneEffects.begin(), kFortuneEffects.end());
  out.insert(out.end(), kProtectWhen.begin(), kProtectWhen.end());
  out.insert(out.end(), kFruitActions.begin(), kFruitActions.end());
  out.insert(out.end(), kCatapultTokens.begin(), kCatapultTokens.end());
  for (const auto& c : kCatch) out.push_back(c.outcome);
  return out;
}

std::vector<std::string> turn_event_rule_names() {
  return {"circus",
          "betting_office",
          "gingerbread_man",
          "dispatch.points",
          "dispatch.pennants",
          "dispatch.knights",
          "dispatch.farmers",
          "dispatch.extra_tile",
          "fairy_turn_start",
          "fortune.fortuna",
          "fortune.taxes",
          "fortune.famine",
          "fortune.storm",
          "fortune.inquisition",
          "fortune.crown_fields",
          "fortune.peasant_revolt",
          "payday",
          "compass_rose",
          "spiel_doch",
          "jubilee_arrow",
          "bathhouse_redeem",
          "abbot_return",
          "acrobat_pyramid",
          "peasant_revolt_protect",
          "shepherd",
          "fruit.harvest",
          "fruit.sell",
          "catapult.archery",
          "catapult.catch",
          "bazaar.sold",
          "bazaar.bought",
          "tower_ransom.payer",
          "tower_ransom.captor"};
}

}  // namespace tally::projections::carcassonne
