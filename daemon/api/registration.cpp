// Registration: renaming players, importing a CSV of players with a preview, and the warnings
// when two players (or judges) have the same name.
#include "daemon/api/api.hpp"
#include "daemon/api/views.hpp"
#include "daemon/http/body.hpp"
#include "deciders/players.hpp"
#include "encoding/base64.hpp"
#include "projections/csv_encoding.hpp"
#include "projections/registration.hpp"

#include <algorithm>
#include <variant>

namespace tally::daemon {

using events::AppendResult;
using projections::ImportPlan;
using projections::ImportRow;
using projections::Tournament;

namespace {

// The plan as the API shows it: every row, and the counts.
json::object import_json(const ImportPlan& plan, const Tournament& t, std::uint64_t seq) {
  json::array rows;
  for (const auto& row : plan.rows) {
    json::object r{{"line", row.line},
                   {"id", row.id},
                   {"name", row.name},
                   {"status", projections::import_status_name(row.status)}};
    if (!row.previous_name.empty()) r["previous_name"] = row.previous_name;
    if (!row.matches.empty()) {
      json::array matches;
      for (const auto& id : row.matches) {
        const projections::Player* p = t.player(id);
        std::string name = p != nullptr ? p->name : "";
        if (p == nullptr) {  // a row earlier in the file
          for (const auto& other : plan.rows) {
            if (other.id == id) name = other.name;
          }
        }
        matches.push_back(json::object{{"id", id}, {"name", name}});
      }
      r["matches"] = std::move(matches);
    }
    rows.push_back(std::move(r));
  }
  using S = ImportRow::Status;
  return json::object{{"rows", std::move(rows)},
                      {"added", plan.count(S::added)},
                      {"unchanged", plan.count(S::unchanged)},
                      {"changed", plan.count(S::changed)},
                      {"possible_duplicates", plan.count(S::possible_duplicate)},
                      {"seq", seq}};
}

}  // namespace

void Api::rename_player(const ExchangePtr& ex) {
  auto body = body_or_answer(ex);
  if (!body) return;
  if (body->contains("fixed_table")) return patch_player(ex, *body);  // S-10 (constraints.cpp)
  BodyFields fields(*body, {"name"});
  auto name = fields.name("name", true);
  if (!fields.ok()) return ex->respond(unprocessable(*ex, "api.player.invalid", fields.errors()));
  const std::string t_id = ex->params.at("t"), player = ex->params.at("p");
  run_command(
      ex,
      [command = deciders::RenamePlayer{t_id, player, *name},
       actor = actor_of(*ex)](const LiveState& s) {
        return deciders::decide(s.tournament(command.tournament), command, actor);
      },
      [this, ex, t_id, player](const AppendResult& r) {
        return state_.read([&](const LiveState& s) {
          const Tournament* t = s.tournament(t_id);
          const projections::Player* p = t->player(player);
          json::object out{{"id", player}, {"name", p->name}, {"seq", r.last_seq}};
          out["warnings"] = same_name_warnings(ex->audience(*t), *t, p->name, player);
          Response response = json_response(ex->request, http::status::ok, out);
          set_language(response, ex->lang);
          return response;
        });
      });
}

void Api::import_players(const ExchangePtr& ex, bool check_only) {
  auto body = body_or_answer(ex);
  if (!body) return;
  BodyFields fields(*body, {"csv", "csv_base64", "encoding", "add_possible_duplicates"});
  // The body limit bounds the file; a member of its own size needs no second bound. The file
  // comes as text (`csv`, UTF-8) or as its bytes (`csv_base64`, any of kCsvEncodings).
  constexpr auto kAnySize = std::numeric_limits<std::size_t>::max();
  auto csv = fields.text("csv", false, kAnySize);
  auto csv_base64 = fields.text("csv_base64", false, kAnySize);
  auto encoding = fields.text("encoding", false).value_or("auto");
  bool add_duplicates = fields.boolean("add_possible_duplicates").value_or(false);
  if (encoding != "auto" &&
      std::find(projections::kCsvEncodings.begin(), projections::kCsvEncodings.end(), encoding) ==
          projections::kCsvEncodings.end()) {
    fields.fail("encoding", "api.import.encoding");
  }
  if (csv.has_value() == csv_base64.has_value()) fields.fail("csv", "api.import.csv_or_base64");
  std::optional<std::string> bytes;
  if (csv_base64) {
    bytes = encoding::base64_decode(*csv_base64);
    if (!bytes) fields.fail("csv_base64", "api.import.base64");
  }
  if (!fields.ok()) return ex->respond(unprocessable(*ex, "api.import.invalid", fields.errors()));
  std::string used_encoding = "utf-8";
  bool detected = false;
  if (bytes) {
    auto decoded = projections::decode_csv(*bytes, encoding);
    if (auto* problem = std::get_if<i18n::Message>(&decoded)) {
      return ex->respond(unprocessable(*ex, "api.import.refused",
                                       {{"csv", "", "csv_base64", std::move(*problem)}}));
    }
    auto& file = std::get<projections::DecodedCsv>(decoded);
    csv = std::move(file.utf8);
    used_encoding = file.encoding;
    detected = file.detected;
  }
  const std::string t_id = ex->params.at("t");
  // What the answer says of the file's encoding (the console shows it beside the preview).
  auto with_encoding = [used_encoding, detected](json::object out) {
    out["encoding"] = used_encoding;
    out["encoding_detected"] = detected;
    return out;
  };

  deciders::ImportPlayers command{t_id, std::move(*csv), add_duplicates};
  auto decide = [command, actor = actor_of(*ex)](const LiveState& s) {
    return deciders::decide(s.tournament(command.tournament), command, actor);
  };
  if (check_only) {
    // The preview: the plan the import would follow, written nowhere.
    return ex->respond(state_.read([&](const LiveState& s) {
      auto decision = decide(s);
      if (decision.refused()) {
        const Tournament* t = s.tournament(t_id);
        return refusal_answer(*ex, t ? ex->audience(*t) : ex->audience(), decision.refusal());
      }
      const auto& facts = decision.accepted().facts;
      return json_response(ex->request, http::status::ok,
                           with_encoding(import_json(facts.plan, *s.tournament(t_id), facts.seq)));
    }));
  }
  run_command<deciders::ImportFacts>(
      ex, decide,
      [this, ex, t_id, with_encoding](const AppendResult& r, const deciders::ImportFacts* facts) {
        return state_.read([&](const LiveState& s) {
          const Tournament* t = s.tournament(t_id);
          // Nothing to write (a re-import of the same file): the plan is the answer, 200.
          if (r.last_seq == 0) {
            return json_response(ex->request, http::status::ok,
                                 with_encoding(import_json(facts->plan, *t, facts->seq)));
          }
          // A repeated request (nothing decided here) shows the rows as they stand now.
          ImportPlan shown = facts ? facts->plan : ImportPlan{};
          return json_response(ex->request, http::status::created,
                               with_encoding(import_json(shown, *t, r.last_seq)));
        });
      },
      {.tournament = t_id});
}

}  // namespace tally::daemon
