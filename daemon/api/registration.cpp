// Registration: renaming players, importing a CSV of players with a preview, and the warnings
// when two players (or judges) have the same name.
#include "daemon/api/api.hpp"
#include "daemon/api/views.hpp"
#include "daemon/http/body.hpp"
#include "deciders/players.hpp"
#include "encoding/base64.hpp"
#include "text/csv_encoding.hpp"

#include <algorithm>
#include <variant>

namespace tally::daemon {

using events::AppendResult;

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
        return answer_query(*ex, [&](const LiveState& s) {
          return queries::player_renamed(s, ex->lang, t_id, player, r.last_seq);
        });
      });
}

void Api::import_players(const ExchangePtr& ex, bool check_only) {
  auto body = body_or_answer(ex);
  if (!body) return;
  BodyFields fields(*body, {"csv", "csv_base64", "encoding", "add_possible_duplicates"});
  // The body limit bounds the file; a member of its own size needs no second bound. The file
  // comes as text (`csv`, UTF-8) or as its bytes (`csv_base64`, any of text::kCsvEncodings).
  constexpr auto kAnySize = std::numeric_limits<std::size_t>::max();
  auto csv = fields.text("csv", false, kAnySize);
  auto csv_base64 = fields.text("csv_base64", false, kAnySize);
  auto encoding = fields.text("encoding", false).value_or("auto");
  bool add_duplicates = fields.boolean("add_possible_duplicates").value_or(false);
  if (encoding != "auto" && std::find(text::kCsvEncodings.begin(), text::kCsvEncodings.end(),
                                      encoding) == text::kCsvEncodings.end()) {
    fields.fail("encoding", "api.import.encoding");
  }
  if (csv.has_value() == csv_base64.has_value()) fields.fail("csv", "api.import.csv_or_base64");
  std::optional<std::string> bytes;
  if (csv_base64) {
    bytes = encoding::base64_decode(*csv_base64);
    if (!bytes) fields.fail("csv_base64", "api.import.base64");
  }
  if (!fields.ok()) return ex->respond(unprocessable(*ex, "api.import.invalid", fields.errors()));
  queries::CsvEncoding used;  // what the answer says of the file's encoding
  if (bytes) {
    auto decoded = text::decode_csv(*bytes, encoding);
    if (auto* problem = std::get_if<i18n::Message>(&decoded)) {
      return ex->respond(unprocessable(*ex, "api.import.refused",
                                       {{"csv", "", "csv_base64", std::move(*problem)}}));
    }
    auto& file = std::get<text::DecodedCsv>(decoded);
    csv = std::move(file.utf8);
    used = {file.encoding, file.detected};
  }
  const std::string t_id = ex->params.at("t");
  deciders::ImportPlayers command{t_id, std::move(*csv), add_duplicates};
  if (check_only) {
    // The preview: the plan the import would follow, written nowhere.
    return run_query(ex,
                     [&command, actor = actor_of(*ex), &used](const LiveState& s) {
                       return queries::import_preview(s, command, actor, used);
                     },
                     {.tournament = t_id});
  }
  run_command<deciders::ImportFacts>(
      ex,
      [command, actor = actor_of(*ex)](const LiveState& s) {
        return deciders::decide(s.tournament(command.tournament), command, actor);
      },
      [this, ex, t_id, used](const AppendResult& r, const deciders::ImportFacts* facts) {
        return answer_query(*ex, [&](const LiveState& s) {
          return queries::players_imported(s, t_id, facts, r.last_seq, used);
        });
      },
      {.tournament = t_id});
}

}  // namespace tally::daemon
