#include "projections/catan/catan_game.hpp"

#include "projections/catan/placing.hpp"
#include "projections/catan/rules.hpp"
#include "projections/catan/seating.hpp"
#include "projections/catan/standings.hpp"
#include "projections/catan/table_record.hpp"
#include "projections/catan/validation.hpp"
#include "projections/table_rules.hpp"
#include "schema/json_codec.hpp"

#include <boost/json.hpp>

#include <algorithm>

namespace tally::projections::catan {

namespace {

namespace json = boost::json;
using Which = schema::Event::Payload::Which;

// The table's result as the API shows it. Per player beyond the API's fields: `score_lines`,
// the VP breakdown of `score`, and `claimed_win`, whether a claim is on record.
json::object result_json(const catan::TableRecord& table,
                         const std::vector<catan::Placing>& placings) {
  const auto claimants = table.claimants();
  json::array players;
  for (const auto& p : placings) {
    const auto& sheets = *table.result;
    const auto sheet = std::find_if(sheets.begin(), sheets.end(),
                                    [&](const auto& s) { return s.player == p.player; });
    json::array score_lines;
    for (const auto& line : catan::vp_lines(*sheet)) {
      score_lines.push_back({{"rule", line.rule}, {"count", line.count}, {"vp", line.vp}});
    }
    json::object line{{"rule", p.by_claim        ? "claimed_win"
                               : p.shared_by > 1 ? "shared_place"
                                                 : "place"},
                      {"points", p.points.to_json()}};
    if (p.shared_by > 1) line["shared_by"] = p.shared_by;
    players.push_back(json::object{
        {"player", p.player},
        {"score", p.vp},
        {"place", p.place_label()},
        {"points", p.points.to_json()},
        {"lines", json::array{std::move(line)}},
        {"score_lines", std::move(score_lines)},
        {"claimed_win", std::find(claimants.begin(), claimants.end(), p.player) != claimants.end()},
    });
  }
  return {{"players", std::move(players)}};
}

GameDescription description() {
  FieldSpec claimant =
      make_field("player", "player", "catan.claimant", "player who claimed the win");
  GameDescription d;
  d.actions.push_back({"result", Which::CATAN_RESULT, true, catan::result_fields()});
  d.actions.push_back({"claims", Which::CLAIMED_WIN, false, {std::move(claimant)}});
  d.rules = {{"round_points_4", "integer_list"},
             {"round_points_3", "integer_list"},
             {"rounds", "integer"}};
  d.standings_criteria = {"round_points", "vp", "vp_share"};  // catan.md §5
  return d;
}

class CatanGame final : public Game {
 public:
  std::string_view id() const override { return "catan"; }

  const GameDescription& describe() const override { return description_; }

  Outcome<json::object> normalize_rules(const json::object& overrides) const override {
    auto rules = catan::parse_rules(overrides);
    if (!rules) return Outcome<json::object>::refused(std::move(rules.errors));
    return Outcome<json::object>::ok(rules.value->to_json());
  }

  // Final tables of 3 or 4; no knockout (a Catan game is never played by two).
  StageShape stage_shape(const json::object&) const override { return {{3, 4}, false}; }

  RuleErrors check_rules(const Tournament& tournament, const TableState& table,
                         schema::Event::Reader proposed) const override {
    RuleErrors errors;
    // The table as it would stand: the superseded action gone, the proposal in effect.
    auto record = catan::read_table(tournament, table, proposed.getSupersedes());
    auto payload = proposed.getPayload();
    RuleErrors found;
    switch (payload.which()) {
      case Which::CATAN_RESULT:
        record.result = catan::read_result(payload.getCatanResult());
        found = catan::check_result_entry(record);
        break;
      case Which::CLAIMED_WIN: {
        auto player = payload.getClaimedWin().getPlayer();
        found = catan::check_claim_entry(record, std::string(player.cStr(), player.size()));
        break;
      }
      default:
        found = {{"game", "", "",
                  i18n::Message("catan.game.not_a_table_action",
                                {{"action", action_term(payload.which())}})}};
    }
    errors.insert(errors.end(), found.begin(), found.end());
    return errors;
  }

  std::optional<json::object> table_result(const Tournament& tournament,
                                           const TableState& table) const override {
    auto record = catan::read_table(tournament, table);
    auto placings = catan::score_table(record, catan::rules_of(tournament));
    if (!placings) return std::nullopt;
    return result_json(record, *placings);
  }

  json::object standings(const Tournament& tournament) const override {
    return catan::standings_json(catan::compute_standings(tournament, catan::rules_of(tournament),
                                                          tournament.qualifying_rounds()));
  }

  Outcome<Seating> seat_round(const Tournament& tournament,
                              const SeatingRequest& request) const override {
    catan::SearchNote note;
    auto seating = catan::seat_catan_round(tournament, request, catan::rules_of(tournament), &note);
    if (seating) seating.value->notice = note.notice;
    return seating;
  }

  // A result stays in effect after a void or a re-seating that no longer fits it; the organizer
  // is told, and the table counts as the rules allow (the exception only with one eligible
  // claimant).
  std::vector<i18n::Message> notices(const Tournament& tournament) const override {
    std::vector<i18n::Message> out;
    for (const auto& round : tournament.rounds) {
      for (const auto& seated : round.tables) {
        const TableState* state = tournament.table(round.number, seated.number);
        if (state == nullptr) continue;
        auto record = catan::read_table(tournament, *state);
        if (!record.result) continue;
        auto errors = catan::check_roster(record, *record.result);
        auto claims = catan::check_claims(*record.result, record.claimants(), "claimed_win");
        errors.insert(errors.end(), claims.begin(), claims.end());
        for (const auto& e : errors) out.push_back(notice(round.number, seated.number, e));
      }
    }
    return out;
  }

 private:
  // A notice is one message: "round 1, table 2: <what the rule says> (C-11)", the rule's own
  // message nested in it, so it reads the same as the refusal it would have been.
  static i18n::Message notice(std::uint32_t round, std::uint32_t table, const RuleError& e) {
    return i18n::Message("catan.notice.table", {{"round", round},
                                                {"table", table},
                                                {"message", i18n::nested(e.message)},
                                                {"rule", e.rule}});
  }

  const GameDescription description_ = description();
};

}  // namespace

std::unique_ptr<Game> make_catan_game() { return std::make_unique<CatanGame>(); }

}  // namespace tally::projections::catan
