#include "projections/tournament.hpp"

#include "schema/json_codec.hpp"
#include "schema/text.hpp"

#include <boost/json/parse.hpp>

#include <algorithm>
#include <charconv>

namespace tally::projections {

using schema::text;
using Which = schema::Event::Payload::Which;

namespace {

std::optional<std::uint32_t> parse_number(std::string_view text) {
  std::uint32_t n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return n;
}

std::vector<std::string> texts(capnp::List<capnp::Text>::Reader list) {
  std::vector<std::string> out;
  out.reserve(list.size());  // a seating makes many small vectors: one allocation each
  for (auto t : list) out.push_back(text(t));
  return out;
}

}  // namespace

const SeatedTable* Round::table(std::uint32_t number) const {
  // Seatings number their tables 1, 2, … in order: the table is almost always at number - 1.
  if (number >= 1 && number <= tables.size() && tables[number - 1].number == number) {
    return &tables[number - 1];
  }
  for (const auto& t : tables) {
    if (t.number == number) return &t;
  }
  return nullptr;
}

bool is_result(Which w) { return schema::is_table_result(w); }

const Action* TableState::result() const {
  for (auto it = actions.rbegin(); it != actions.rend(); ++it) {
    if (is_result(it->payload().which())) return &*it;
  }
  return nullptr;
}

void TableState::apply(const schema::StoredEvent& stored) {
  auto event = stored.event();
  version = event.getVersion();
  // A correction or a void replaces what it supersedes; the newest applies.
  if (event.getSupersedes() != 0) {
    std::erase_if(actions, [&](const Action& a) { return a.seq() == event.getSupersedes(); });
  }
  if (event.getPayload().which() != Which::VOID) actions.push_back(Action{stored});
  // A correction keeps the first entry; a table whose result is gone starts again.
  if (result() == nullptr) {
    first_result_seq = 0;
    first_result_at = 0;
  } else if (first_result_seq == 0) {
    first_result_seq = stored.seq();
    first_result_at = event.getRecordedAt();
  }
}

std::vector<const Action*> TableState::of_kind(Which kind) const {
  std::vector<const Action*> out;
  for (const auto& a : actions) {
    if (a.payload().which() == kind) out.push_back(&a);
  }
  return out;
}

TableState blank_table(std::uint32_t round, std::uint32_t table) {
  TableState state;
  state.round = round;
  state.table = table;
  return state;
}

const Player* Tournament::player(std::string_view player_id) const {
  for (const auto& p : players) {
    if (p.id == player_id) return &p;
  }
  return nullptr;
}

const Round* Tournament::round(std::uint32_t number) const {
  if (number == 0 || number > rounds.size()) return nullptr;
  return &rounds[number - 1];
}

const TableState* Tournament::table(std::uint32_t round_number, std::uint32_t table_number) const {
  auto it = tables.find({round_number, table_number});
  return it == tables.end() ? nullptr : &it->second;
}

const TableProposals* Tournament::proposals_at(std::uint32_t round_number,
                                               std::uint32_t table_number) const {
  auto it = proposals.find({round_number, table_number});
  return it == proposals.end() ? nullptr : &it->second;
}

std::vector<const Player*> Tournament::active_players() const {
  std::vector<const Player*> out;
  for (const auto& p : players) {
    if (!p.dropped) out.push_back(&p);
  }
  return out;
}

bool Tournament::present(std::string_view player) const {
  return checkin_open() && present_.find(player) != present_.end();
}

std::vector<const Player*> Tournament::seatable_players() const {
  std::vector<const Player*> out;
  for (const Player* p : active_players()) {
    if (!checkin_open() || present(p->id)) out.push_back(p);
  }
  return out;
}

std::vector<const Player*> Tournament::absent_players() const {
  std::vector<const Player*> out;
  if (!checkin_open()) return out;
  for (const Player* p : active_players()) {
    if (!present(p->id)) out.push_back(p);
  }
  return out;
}

namespace {

// Who sat at one table with whom in the rounds before `round`, among the players `counted`
// accepts: each pair in both orders.
template <typename Counted>
Tournament::Meetings meetings_of(const std::vector<Round>& rounds, std::uint32_t round,
                                 Counted counted) {
  Tournament::Meetings met;
  std::vector<const std::string*> here;  // the counted players at one earlier table
  for (const auto& r : rounds) {
    if (r.number >= round) continue;
    for (const auto& table : r.tables) {
      here.clear();
      for (const auto& p : table.players) {
        if (counted(p)) here.push_back(&p);
      }
      for (const std::string* a : here) {
        for (const std::string* b : here) {
          if (*a != *b) met.emplace(*a, *b);
        }
      }
    }
  }
  return met;
}

}  // namespace

Tournament::Meetings Tournament::meetings_before(std::uint32_t round) const {
  return meetings_of(rounds, round, [](const std::string&) { return true; });
}

Tournament::Meetings Tournament::meetings_before(std::uint32_t round,
                                                 const std::vector<std::string>& among) const {
  return meetings_of(rounds, round, [&among](const std::string& p) {
    return std::find(among.begin(), among.end(), p) != among.end();
  });
}

std::vector<std::pair<std::string, std::string>> Tournament::repeats_among(
    const Meetings& met, const std::vector<std::string>& players) {
  std::vector<std::pair<std::string, std::string>> out;
  for (std::size_t i = 0; i < players.size(); ++i) {
    for (std::size_t j = i + 1; j < players.size(); ++j) {
      if (met.count({players[i], players[j]}) > 0) out.emplace_back(players[i], players[j]);
    }
  }
  return out;
}

bool Tournament::kept_apart(std::string_view a, std::string_view b) const {
  if (a == b || !apart_players_.contains(a) || !apart_players_.contains(b)) return false;
  if (b < a) std::swap(a, b);
  return std::any_of(apart_pairs_.begin(), apart_pairs_.end(),
                     [&](const auto& pair) { return pair.first == a && pair.second == b; });
}

void Tournament::index_kept_apart() {
  std::set<std::pair<std::string, std::string>> pairs;
  auto add = [&pairs](const std::string& a, const std::string& b) {
    if (a != b) pairs.insert(a < b ? std::pair{a, b} : std::pair{b, a});
  };
  for (const auto& k : keep_apart) {
    for (const auto& a : k.players) {
      for (const auto& b : k.players) add(a, b);
    }
  }
  // S-10: two players fixed to different numbers sit at two different tables.
  std::vector<const Player*> fixed;
  for (const auto& p : players) {
    if (p.fixed_table != 0) fixed.push_back(&p);
  }
  for (const Player* a : fixed) {
    for (const Player* b : fixed) {
      if (a->fixed_table != b->fixed_table) add(a->id, b->id);
    }
  }
  apart_pairs_.assign(pairs.begin(), pairs.end());
  apart_players_.clear();
  for (const auto& [a, b] : apart_pairs_) {
    apart_players_.insert(a);
    apart_players_.insert(b);
  }
}

std::vector<std::pair<std::string, std::string>> Tournament::kept_apart_among(
    const std::vector<std::string>& among) const {
  std::vector<std::pair<std::string, std::string>> out;
  for (std::size_t i = 0; i < among.size(); ++i) {
    for (std::size_t j = i + 1; j < among.size(); ++j) {
      if (kept_apart(among[i], among[j])) out.emplace_back(among[i], among[j]);
    }
  }
  return out;
}

Rational Tournament::penalty_points(std::string_view player_id, std::uint32_t through_round) const {
  Rational sum;
  for (const auto& p : penalties) {
    if (p.player == player_id && p.round <= through_round) sum += p.points;
  }
  return sum;
}

bool Tournament::apply(const schema::StoredEvent& stored) {
  auto stream = stored.event().getStream();
  return apply(stored, parse_stream(std::string_view(stream.cStr(), stream.size())));
}

bool Tournament::apply(const schema::StoredEvent& stored, const StreamName& stream) {
  auto event = stored.event();
  auto payload = event.getPayload();
  if (stream.tournament.empty()) return false;
  if (!id.empty() && stream.tournament != id) return false;

  if (stream.proposals) {
    if (!proposals[{stream.round, stream.table}].apply(stored)) return false;
    last_seq = stored.seq();
    last_recorded_at = event.getRecordedAt();
    return true;
  }
  if (stream.round != 0) {
    const bool approval = payload.which() == Which::PROPOSAL_APPROVED;
    if (!approval && !schema::is_table_action(payload.which())) return false;
    TableState& table = tables[{stream.round, stream.table}];
    table.round = stream.round;
    table.table = stream.table;
    if (approval) {
      // Not an action of the table: it names the proposal the result just before it came from.
      table.version = event.getVersion();
      proposals[{stream.round, stream.table}].approve(stored);
    } else {
      table.apply(stored);
    }
    last_seq = stored.seq();
    last_recorded_at = event.getRecordedAt();
    return true;
  }

  switch (payload.which()) {
    case Which::TOURNAMENT_CREATED: {
      auto created = payload.getTournamentCreated();
      id = text(created.getId());
      name = text(created.getName());
      game = text(created.getGame());
      locale = text(created.getLocale());
      rules = created.getRules().size() == 0
                  ? boost::json::object()
                  : boost::json::parse(created.getRules().cStr()).as_object();
      self_reporting = created.getSelfReporting();
      created_seq = stored.seq();
      registrations.set(registration_open(rules), registration_capacity(rules));
      break;
    }
    case Which::SELF_REPORTING:
      self_reporting = payload.getSelfReporting().getEnabled();
      break;
    case Which::PLAYER_REGISTERED: {
      auto p = payload.getPlayerRegistered();
      Player player{text(p.getId()), text(p.getName())};
      player.registered_after_round = static_cast<std::uint32_t>(rounds.size());
      players.push_back(std::move(player));
      registrations.became_player(players.back().id);
      break;
    }
    case Which::REGISTRATION_RECEIVED:
      registrations.received(payload.getRegistrationReceived(), stored.seq(),
                             event.getRecordedAt());
      break;
    case Which::REGISTRATION_CANCELLED:
      registrations.cancelled(schema::text_view(payload.getRegistrationCancelled().getId()));
      break;
    case Which::REGISTRATION_SETTINGS: {
      auto settings = payload.getRegistrationSettings();
      rules["registration"] = settings.getOpen() ? "open" : "closed";
      if (settings.getCapacity() == 0) {
        rules.erase("capacity");
      } else {
        rules["capacity"] = settings.getCapacity();
      }
      registrations.set(settings.getOpen(), settings.getCapacity());
      break;
    }
    case Which::PLAYER_DROPPED: {
      for (auto& p : players) {
        if (p.id == text(payload.getPlayerDropped().getId())) {
          p.dropped = true;
          p.dropped_after_round = static_cast<std::uint32_t>(rounds.size());
        }
      }
      break;
    }
    case Which::PLAYER_REINSTATED: {
      for (auto& p : players) {
        if (p.id == text(payload.getPlayerReinstated().getId()) && p.dropped) {
          p.dropped = false;
          p.away.emplace_back(p.dropped_after_round, static_cast<std::uint32_t>(rounds.size()));
        }
      }
      break;
    }
    case Which::ROUND_SEATED: {
      auto seated = payload.getRoundSeated();
      Round round;
      round.number = seated.getRound();
      round.method = seated.getMethod();
      round.seed = seated.getSeed();
      round.forced = seated.getForced();
      round.seq = stored.seq();
      if (round.number == next_round()) {
        for (const Player* p : absent_players()) round.absent.push_back(p->id);
      }
      auto tables = seated.getTables();
      round.tables.reserve(tables.size());
      for (auto t : tables) {
        SeatedTable table;
        table.number = t.getTable();
        table.players = texts(t.getPlayers());
        table.league = text(t.getLeague());
        table.rating_leagues = texts(t.getRatingLeagues());
        round.tables.push_back(std::move(table));
      }
      if (round.number >= 1 && round.number <= rounds.size()) {
        // A re-seating of that round: its clock runs on.
        round.clock = rounds[round.number - 1].clock;
        round.absent = rounds[round.number - 1].absent;
        rounds[round.number - 1] = std::move(round);
      } else {
        rounds.push_back(std::move(round));
      }
      break;
    }
    case Which::STAGE_STARTED: {
      auto started = payload.getStageStarted();
      StartedStage stage;
      stage.index = started.getStage();
      stage.seeded = texts(started.getPlayers());
      stage.seq = stored.seq();
      stage.first_round = next_round();
      stage.forced = started.getForced();
      stages.push_back(std::move(stage));
      break;
    }
    case Which::PLAYER_RENAMED: {
      auto renamed = payload.getPlayerRenamed();
      for (auto& p : players) {
        if (p.id == text(renamed.getId())) p.name = text(renamed.getName());
      }
      break;
    }
    case Which::CHECK_IN: {
      auto check_in = payload.getCheckIn();
      if (check_in.getRound() != checkin_round_) {
        checkin_round_ = check_in.getRound();
        present_.clear();
      }
      for (auto p : check_in.getPlayers()) {
        if (check_in.getPresent()) {
          present_.insert(text(p));
        } else {
          present_.erase(text(p));
        }
      }
      break;
    }
    case Which::ROUND_CLOCK: {
      auto clock = payload.getRoundClock();
      if (clock.getRound() >= 1 && clock.getRound() <= rounds.size()) {
        rounds[clock.getRound() - 1].clock.apply(clock.getAction(), clock.getMinutes(),
                                                 event.getRecordedAt());
      }
      break;
    }
    case Which::ROUND_CLOSED: {
      auto closed = payload.getRoundClosed();
      if (closed.getRound() >= 1 && closed.getRound() <= rounds.size()) {
        Round& round = rounds[closed.getRound() - 1];
        round.closed = true;
        round.final = closed.getFinal();
        round.closed_at = event.getRecordedAt();
        round.clock.apply(schema::ClockAction::STOP, 0, event.getRecordedAt());
      }
      break;
    }
    case Which::VOID: {
      // A voided seating withdraws its round (the daemon allows it only for the last round); a
      // voided keep-apart or penalty is no longer in effect.
      const std::uint64_t voided = event.getSupersedes();
      std::erase_if(rounds, [&](const Round& r) { return r.seq == voided; });
      std::erase_if(keep_apart, [&](const KeepApart& k) { return k.seq == voided; });
      std::erase_if(penalties, [&](const Penalty& p) { return p.seq == voided; });
      index_kept_apart();
      break;
    }
    case Which::KEPT_APART:
      keep_apart.push_back(KeepApart{stored.seq(), texts(payload.getKeptApart().getPlayers()),
                                     text(event.getReason())});
      index_kept_apart();
      break;
    case Which::FIXED_TABLE: {
      auto fixed = payload.getFixedTable();
      for (auto& p : players) {
        if (p.id == text(fixed.getPlayer())) p.fixed_table = fixed.getTable();
      }
      index_kept_apart();
      break;
    }
    case Which::PENALTY_GIVEN: {
      auto given = payload.getPenaltyGiven();
      penalties.push_back(Penalty{stored.seq(), text(given.getPlayer()),
                                  Rational::parse(text(given.getPoints())), given.getRound(),
                                  text(event.getReason())});
      break;
    }
    default:
      return false;
  }
  version = event.getVersion();
  last_seq = stored.seq();
  last_recorded_at = event.getRecordedAt();
  return true;
}

std::uint32_t StartedStage::seed_of(std::string_view player) const {
  for (std::size_t i = 0; i < seeded.size(); ++i) {
    if (seeded[i] == player) return static_cast<std::uint32_t>(i + 1);
  }
  return 0;
}

const StartedStage* Tournament::stage_of_round(std::uint32_t round) const {
  const StartedStage* found = nullptr;
  for (const StartedStage& s : stages) {
    if (s.first_round <= round) found = &s;
  }
  return found;
}

std::optional<Tournament> Tournament::fold(const std::vector<schema::StoredEvent>& events) {
  Tournament t;
  for (const auto& e : events) t.apply(e);
  if (t.id.empty()) return std::nullopt;
  return t;
}

std::string tournament_stream(std::string_view tournament_id) {
  return "t/" + std::string(tournament_id);
}

std::string table_stream(std::string_view tournament_id, std::uint32_t round, std::uint32_t table) {
  return "t/" + std::string(tournament_id) + "/r/" + std::to_string(round) + "/table/" +
         std::to_string(table);
}

std::string proposals_stream(std::string_view tournament_id, std::uint32_t round,
                             std::uint32_t table) {
  return table_stream(tournament_id, round, table) + "/proposals";
}

StreamName parse_stream(std::string_view stream) {
  StreamName out;
  if (!stream.starts_with("t/")) return out;
  std::string_view rest = stream.substr(2);
  std::size_t slash = rest.find('/');
  if (slash == std::string_view::npos) {
    out.tournament = rest;
    return out;
  }
  std::string_view id = rest.substr(0, slash);
  std::string_view tail = rest.substr(slash);  // "/r/{round}/table/{n}"
  if (!tail.starts_with("/r/")) return out;
  tail.remove_prefix(3);
  std::size_t table_at = tail.find("/table/");
  if (table_at == std::string_view::npos) return out;
  auto round = parse_number(tail.substr(0, table_at));
  std::string_view table_part = tail.substr(table_at + 7);
  constexpr std::string_view kProposals = "/proposals";
  if (table_part.ends_with(kProposals)) {
    table_part.remove_suffix(kProposals.size());
    out.proposals = true;
  }
  auto table = parse_number(table_part);
  if (!round || !table || *round == 0 || *table == 0) {
    out.proposals = false;
    return out;
  }
  out.tournament = id;
  out.round = *round;
  out.table = *table;
  return out;
}

}  // namespace tally::projections
