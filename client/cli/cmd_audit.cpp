// tally audit: who did what, when and why, with the chains of corrections; tally verify: the
// hash chain of the whole log.
#include "client/cli/command.hpp"
#include "client/cli/numbers.hpp"
#include "client/cli/result_form.hpp"
#include "client/cli/say.hpp"
#include "client/cli/text.hpp"
#include "client/cli/views.hpp"

#include <map>
#include <ostream>
#include <sstream>

namespace tally::cli {

namespace json = boost::json;

namespace {

// "t/brno/r/1/table/2" → "round 1, table 2" in `lang`; the tournament's own stream → "".
std::string place_of(i18n::Lang lang, const std::string& stream) {
  auto r = stream.find("/r/");
  auto t = stream.find("/table/");
  if (r == std::string::npos || t == std::string::npos) return "";
  // A table's proposals stream ("…/table/3/proposals") is that table's too.
  std::string table = stream.substr(t + 7);
  table = table.substr(0, table.find('/'));
  return say(lang, i18n::Message("cli.place.round_table",
                                 {{"round", stream.substr(r + 3, t - r - 3)}, {"table", table}}));
}

std::string seq_text(const json::value& v) { return "#" + cell_text(v); }

class AuditView {
 public:
  AuditView(const json::array& events, std::map<std::string, std::string> judges,
            const TournamentInfo& info, i18n::Lang lang)
      : events_(events), judges_(std::move(judges)), info_(info), lang_(lang) {
    for (const auto& e : events_) by_seq_[e.at("seq").to_number<std::uint64_t>()] = &e.as_object();
  }

  void print(std::ostream& out) const {
    for (const auto& e : events_) print_event(out, e.as_object());
    print_chains(out);
  }

 private:
  std::string who(const json::object& e) const {
    std::string id = text_member(e, "by");
    if (id == "table") return say("cli.audit.by_table");  // a table token (self-reporting)
    auto it = judges_.find(id);
    return it == judges_.end() ? id : it->second + " (" + id + ")";
  }

  // The kind of action an event is: "result", "claim", "pick", "scoring", "seating", or its
  // type as it is.
  std::string kind(const json::object& e) const {
    std::string type = text_member(e, "type");
    if (type.size() > 7 && type.substr(type.size() - 7) == "_result") return "result";
    if (type == "claimed_win") return "claim";
    if (type == "house_pick") return "pick";
    if (type == "carcassonne_scoring") return "scoring";
    if (type == "round_seated") return "seating";
    return type;
  }

  std::string say(const i18n::Message& message) const { return cli::say(lang_, message); }

  // What the event did, in a line (and, for results, one line per player below it).
  void describe(std::ostream& out, const json::object& e) const {
    std::string type = text_member(e, "type");
    const json::value& payload = e.at("payload");
    const json::object empty;
    const json::object& p = payload.is_object() ? payload.as_object() : empty;
    bool corrects = !e.at("supersedes").is_null();
    // " (replaces #7)" after the action, for a correction.
    std::string replaces =
        corrects ? say(i18n::Message("cli.audit.replaces", {{"seq", seq_text(e.at("supersedes"))}}))
                 : "";
    if (type == "tournament_created") {
      out << say(i18n::Message("cli.audit.created", {{"name", text_member(p, "name")},
                                                     {"game", text_member(p, "game")}}));
    } else if (type == "player_registered") {
      out << say(i18n::Message("cli.audit.registered",
                               {{"name", text_member(p, "name")}, {"id", text_member(p, "id")}}));
    } else if (type == "player_dropped") {
      out << say(
          i18n::Message("cli.audit.dropped", {{"player", info_.label_of(text_member(p, "id"))}}));
    } else if (type == "round_seated") {
      std::string how =
          say(i18n::Message("cli.audit.method", {{"method", text_member(p, "method")}}));
      if (text_member(p, "method") == "random") {
        how += ", " + say(i18n::Message("cli.audit.seed", {{"seed", cell_text(p.at("seed"))}}));
      }
      if (p.contains("forced") && p.at("forced").as_bool()) how += ", " + say("cli.audit.forced");
      out << say(
          i18n::Message("cli.audit.seated", {{"round", cell_text(p.at("round"))}, {"how", how}}));
      if (p.contains("tables")) {
        for (const auto& t : p.at("tables").as_array()) {
          out << "; "
              << say(i18n::Message("cli.audit.seated_table",
                                   {{"table", cell_text(t.at("table"))},
                                    {"players", cell_text(t.at("players"))}}));
        }
      }
    } else if (kind(e) == "result" || type == "result_proposed") {
      out << (type == "result_proposed" ? say("cli.audit.proposed")
              : corrects                ? say("cli.audit.result_corrected") + replaces
                                        : say("cli.audit.result_entered"))
          << "\n";
      const json::value* body = type == "result_proposed" ? p.if_contains("body") : &payload;
      if (body != nullptr && body->is_object() && body->as_object().contains("players")) {
        std::ostringstream players;
        print_entry(players, body->as_object().at("players").as_array(), info_, lang_);
        std::string line;
        for (std::istringstream in(players.str()); std::getline(in, line);) {
          out << "      " << line << "\n";
        }
      }
      return;
    } else if (type == "proposal_flagged" || type == "proposal_approved" ||
               type == "proposal_rejected") {
      out << say(i18n::Message("cli.audit." + type, {{"seq", seq_text(p.at("proposal"))}}));
    } else if (type == "self_reporting") {
      out << say(p.contains("enabled") && p.at("enabled").as_bool()
                     ? "cli.audit.self_reporting_on"
                     : "cli.audit.self_reporting_off");
    } else if (type == "claimed_win") {
      out << say(i18n::Message("cli.audit.claim",
                               {{"player", info_.label_of(text_member(p, "player"))}}))
          << replaces;
    } else if (type == "house_pick") {
      out << say(i18n::Message("cli.audit.pick",
                               {{"player", info_.label_of(text_member(p, "player"))},
                                {"house", text_member(p, "house")}}))
          << replaces;
    } else if (type == "carcassonne_scoring") {
      const json::value& event = p.contains("event") ? p.at("event") : payload;
      out << say(i18n::Message(
          "cli.audit.scoring",
          {{"replaces", replaces},
           {"event", event.is_string() ? printable(event.as_string()) : json::serialize(event)}}));
    } else if (type == "void") {
      out << say(i18n::Message("cli.audit.voided", {{"seq", seq_text(e.at("supersedes"))}}));
    } else {
      out << type << ": " << json::serialize(payload);
    }
    out << "\n";
  }

  void print_event(std::ostream& out, const json::object& e) const {
    out << seq_text(e.at("seq")) << "  " << local_time(text_member(e, "at")) << "  " << who(e);
    std::string place = place_of(lang_, text_member(e, "stream"));
    if (!place.empty()) out << "  " << place;
    out << "\n    ";
    describe(out, e);
    if (std::string reason = text_member(e, "reason"); !reason.empty()) {
      out << "    " << say(i18n::Message("cli.audit.why", {{"reason", reason}})) << "\n";
    }
    if (e.contains("superseded_by") && !e.at("superseded_by").is_null()) {
      const json::object* later = find(e.at("superseded_by"));
      bool voided = later != nullptr && text_member(*later, "type") == "void";
      out << "    "
          << say(i18n::Message(voided ? "cli.audit.voided_by" : "cli.audit.superseded_by",
                               {{"seq", seq_text(e.at("superseded_by"))}}))
          << "\n";
    }
  }

  const json::object* find(const json::value& seq) const {
    auto it = by_seq_.find(seq.to_number<std::uint64_t>());
    return it == by_seq_.end() ? nullptr : it->second;
  }

  // Every chain of corrections: the first action, each replacement (who, why), and what is in
  // effect now.
  void print_chains(std::ostream& out) const {
    bool any = false;
    for (const auto& v : events_) {
      const json::object& first = v.as_object();
      if (!first.at("supersedes").is_null() || !first.contains("superseded_by") ||
          first.at("superseded_by").is_null()) {
        continue;
      }
      if (!any) out << "\n" << say("cli.audit.chains") << "\n";
      any = true;
      std::string place = place_of(lang_, text_member(first, "stream"));
      out << "  " << (place.empty() ? "" : place + ": ")
          << say(i18n::Message(
                 "cli.audit.chain_start",
                 {{"kind", kind(first)}, {"seq", seq_text(first.at("seq"))}, {"who", who(first)}}));
      const json::object* link = &first;
      while (link->contains("superseded_by") && !link->at("superseded_by").is_null()) {
        const json::object* next = find(link->at("superseded_by"));
        if (next == nullptr) {
          out << " → "
              << say(i18n::Message("cli.audit.chain_not_shown",
                                   {{"seq", seq_text(link->at("superseded_by"))}}));
          break;
        }
        bool voided = text_member(*next, "type") == "void";
        out << " → "
            << say(i18n::Message(voided ? "cli.audit.chain_voided" : "cli.audit.chain_corrected",
                                 {{"who", who(*next)}, {"seq", seq_text(next->at("seq"))}}));
        if (std::string reason = text_member(*next, "reason"); !reason.empty()) {
          out << " (\"" << reason << "\")";
        }
        link = next;
      }
      bool withdrawn = text_member(*link, "type") == "void";
      out << "; "
          << (withdrawn ? say("cli.audit.chain_nothing")
                        : say(i18n::Message("cli.audit.chain_in_effect",
                                            {{"seq", seq_text(link->at("seq"))}})))
          << "\n";
    }
  }

  const json::array& events_;
  std::map<std::string, std::string> judges_;
  const TournamentInfo& info_;
  i18n::Lang lang_;
  std::map<std::uint64_t, const json::object*> by_seq_;
};

int audit(Context& ctx) {
  std::string query;
  auto add = [&](const char* key, const char* option) {
    if (auto v = ctx.args.value(option))
      query += (query.empty() ? "?" : "&") + std::string(key) + "=" + url_encode(*v);
  };
  add("round", "round");
  add("table", "table");
  add("player", "player");
  TournamentInfo info = load_tournament(ctx.session(), ctx.tournament());
  json::value answer =
      ctx.session().read("/v1/tournaments/" + url_encode(info.id) + "/audit" + query);
  if (ctx.args.has("json")) {
    ctx.out << json::serialize(answer) << "\n";
    return kOk;
  }
  // Judges' names, when the token may read them (the organizer's); ids otherwise.
  std::map<std::string, std::string> judges;
  tally::net::HttpReply list = ctx.session().get("/v1/judges");
  if (list.status == 200) {
    json::value listed = list.json();  // kept alive for the loop
    for (const auto& j : listed.as_array()) {
      judges[text_member(j.as_object(), "id")] = text_member(j.as_object(), "name");
    }
  }
  const json::array& events = answer.at("events").as_array();
  ctx.out << ctx.say(i18n::Message("cli.audit.heading", {{"tournament", info.name},
                                                         {"count", events.size()},
                                                         {"filtered", query.empty() ? "no" : "yes"},
                                                         {"seq", cell_text(answer.at("seq"))}}))
          << "\n\n";
  AuditView(events, judges, info, ctx.lang).print(ctx.out);
  return kOk;
}

// The number of events a verification answer counted.
std::int64_t event_count(const json::value& answer) {
  const json::value& events = answer.at("events");
  return events.is_number() ? events.to_number<std::int64_t>() : 0;
}

int verify(Context& ctx) {
  json::value answer = ctx.session().read("/v1/verify");
  if (ctx.args.has("json")) ctx.out << json::serialize(answer) << "\n";
  if (answer.at("ok").as_bool()) {
    if (!ctx.args.has("json")) {
      ctx.out << ctx.say(i18n::Message(
                     "cli.verify.intact",
                     {{"events", event_count(answer)}, {"head", cell_text(answer.at("head"))}}))
              << "\n";
    }
    return kOk;
  }
  ctx.err << "tally: "
          << ctx.say(
                 i18n::Message("cli.verify.broken", {{"seq", cell_text(answer.at("first_bad"))},
                                                     {"problem", cell_text(answer.at("problem"))},
                                                     {"events", event_count(answer)}}))
          << "\n";
  return kInvalid;
}

}  // namespace

std::vector<Command> audit_commands() {
  return {
      {"audit",
       "[--round R] [--table N] [--player ID] [--json]",
       "cli.cmd.audit.summary",
       "cli.cmd.audit.details",
       {{"round", 0, "R", "cli.option.only_round"},
        {"table", 0, "N", "cli.option.only_table"},
        {"player", 0, "ID", "cli.option.only_player"},
        {"json", 0, "", "cli.option.json"}},
       0,
       0,
       true,
       audit},
      {"verify",
       "[--json]",
       "cli.cmd.verify.summary",
       "cli.cmd.verify.details",
       {{"json", 0, "", "cli.option.json"}},
       0,
       0,
       false,
       verify},
  };
}

}  // namespace tally::cli
