#include "projections/carcassonne/robbers.hpp"

#include <algorithm>

namespace tally::projections::carcassonne {

namespace json = boost::json;

std::vector<Robbery> read_robbers(ObjectReader& r) {
  std::vector<Robbery> out;
  Diagnostics& d = r.diagnostics();
  const json::array* list = r.array("robbers");
  if (list == nullptr) return out;
  for (std::size_t i = 0; i < list->size(); ++i) {
    std::string path = r.path_of("robbers") + "[" + std::to_string(i) + "]";
    if (!(*list)[i].is_object()) {
      d.error("schema", path,
              i18n::Message("json.expected.object_shaped", {{"shape", R"({"player","robs"})"}}));
      continue;
    }
    ObjectReader rr((*list)[i].get_object(), path, d);
    auto robber = rr.required_player("player");
    auto robbed = rr.required_player("robs");
    rr.finish("schema");
    if (!robber || !robbed) continue;
    if (*robber == *robbed) {
      d.error("robbers", path, "carcassonne.robbers.own", *robber);
      continue;
    }
    if (std::any_of(out.begin(), out.end(),
                    [&](const Robbery& o) { return o.robbed == *robbed; })) {
      d.error(
          "robbers", path,
          i18n::Message("carcassonne.robbers.one_per_move", {{"player", i18n::PlayerRef{*robbed}}}),
          *robbed);
      continue;
    }
    out.push_back({*robber, *robbed, path});
  }
  return out;
}

void apply_robbers(const std::vector<Robbery>& robberies, Scoring& scoring, Diagnostics& d) {
  std::vector<Line> taken;
  for (const auto& robbery : robberies) {
    bool moved = false;
    std::int64_t primary = 0;
    std::int64_t teacher = 0;
    for (const auto& line : scoring.lines()) {
      if (line.player != robbery.robbed || line.rule == "robber") continue;
      moved = true;
      (line.rule == "teacher" ? teacher : primary) += line.points;
    }
    if (!moved) {
      d.error("robbers", robbery.field,
              i18n::Message("carcassonne.robbers.no_move",
                            {{"player", i18n::PlayerRef{robbery.robbed}}}),
              robbery.robbed);
      continue;
    }
    // D-5: the teacher's copy is a later event; it is the first move only when nothing else is.
    std::int64_t robbed = primary != 0 ? primary : teacher;
    std::int64_t half = robbed > 0 ? (robbed + 1) / 2 : 0;  // negative points are not robbed
    taken.push_back({robbery.robber, "robber", robbed, half});
  }
  for (auto& line : taken) scoring.add(std::move(line));
}

}  // namespace tally::projections::carcassonne
