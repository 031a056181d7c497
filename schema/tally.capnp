# The stored format of every tallyd event, and the single source of the JSON field names of the
# API (schema/json_codec turns `lowerCamel` field names into `snake_case` JSON names).
#
# Evolution rules (see README.md in this folder): add fields only at the next ordinal, at the end;
# never renumber, never delete, never reuse an ordinal or change a field's type. A retired field
# keeps its number, renamed `obsoleteX`, with a `# DEPRECATED` note saying when and why.

@0x9a2fe4ca94b8cff2;

$import "/capnp/c++.capnp".namespace("tally::schema");

# --- Annotations read by schema/json_codec -------------------------------------------------------

annotation optional @0x980dfb2193959f90 (field) :Void;
# The JSON member may be absent (or null). A primitive field then keeps its default; a Text, Data,
# List or struct field stays unset (`has` is false). Fields without it are required in requests.

annotation boxed @0xd07b92cb08ff8ee0 (struct) :Void;
# The struct has exactly one field and is written in JSON as that field's bare value. Used for
# optional numbers whose absence must be told apart from 0 (a pointer field has a `has` bit).

annotation jsonText @0x995a8e5d8dbe54c3 (field) :Void;
# A Text field that holds a JSON document (serialised compactly); in JSON it is that document
# itself, not a string. For open-ended vocabularies owned by a game's rule engine.

annotation tableAction @0x9df1c80cb133fe04 (field) :Void;
# On a payload member: an action at a table, folded into that table's state (corrected or voided
# by a later action naming its seq).

annotation tableResult @0xf8d0b1a4a8fef951 (field) :Void;
# On a payload member: a game's result of a table (also a tableAction). The newest in effect is
# the table's result; a result is corrected, never voided. A game's result member carries both.

# --- The envelope ---------------------------------------------------------------------------------

struct Event {
  # One immutable fact in the log. The store fills seq, stream, version, eventId, recordedAt and
  # prevHash; the writer fills author, supersedes, reason and the payload.

  seq @0 :UInt64;
  # Global sequence number, 1-based, gap-free, in the order of the log.

  stream @1 :Text;
  # The stream the event belongs to: `judges`, `t/{id}` for a tournament's own events,
  # `t/{id}/r/{round}/table/{n}` for a table's actions.

  version @2 :UInt64;
  # The stream's version after this event (1 for a stream's first event).

  eventId @3 :Text;
  # The idempotency key of the append that produced the event (empty when none was given).

  recordedAt @4 :Int64;
  # Server time when the event was appended, microseconds since 1970-01-01 UTC (never decreasing).

  author @5 :Text;
  # Who appended it: a judge id, `organizer`, or `system` for events the server makes itself.

  supersedes @6 :UInt64;
  # The seq of the earlier event this one corrects or withdraws; 0 when it corrects nothing.
  # A table action with `supersedes` set is a correction; the projections apply the newest.

  reason @7 :Text;
  # Why: mandatory for corrections, voids, drops, forced or manual seatings.

  prevHash @8 :Data;
  # SHA-256 hash of the previous event (32 zero bytes for seq 1). The event's own hash is
  # SHA-256(prevHash ‖ these encoded bytes) and is kept beside the event in the log.

  payload :union {
    tournamentCreated @9 :TournamentCreated;
    judgeAdded @10 :JudgeAdded;
    judgeRevoked @11 :JudgeRevoked;
    playerRegistered @12 :PlayerRegistered;
    playerDropped @13 :PlayerDropped;
    roundSeated @14 :RoundSeated;
    catanResult @15 :CatanResult $tableAction $tableResult;
    agotResult @16 :AgotResult $tableAction $tableResult;
    carcassonneResult @17 :CarcassonneResult $tableAction $tableResult;
    claimedWin @18 :ClaimedWin $tableAction;
    housePick @19 :HousePick $tableAction;
    carcassonneScoring @20 :CarcassonneScoring $tableAction;
    void @21 :Void $tableAction;
    # Withdraws the event named by `supersedes` (a claim, pick, scoring or seating) with nothing.
    playerRenamed @22 :PlayerRenamed;
    checkIn @23 :CheckIn;
    roundClock @24 :RoundClock;
    roundClosed @25 :RoundClosed;
    organizerToken @26 :OrganizerToken;
    selfReporting @27 :SelfReporting;
    resultProposed @28 :ResultProposed;
    # Self-reporting (stream `t/{id}/r/{round}/table/{n}/proposals`): a result proposed from the
    # table, waiting for a judge. It changes no result.
    proposalFlagged @29 :ProposalRef;
    # Someone at the table says the proposal is wrong; `reason` holds their note.
    proposalRejected @30 :ProposalRef;
    # A judge turned the proposal down; `reason` says why.
    proposalApproved @31 :ProposalRef;
    # In the table's own stream, appended together with the result it became (the event just
    # before it): which proposal a judge approved.
    primaryPromoted @32 :PrimaryPromoted;
    # Stream `replication` (`tallyd promote`): from this event on, the server holding this log is
    # its primary. A server of an earlier epoch is a former primary: followers refuse it and it
    # takes no write once it hears of this one (docs/operations.md, "Promotion and fencing").
    playerReinstated @33 :PlayerReinstated;
    # A dropped player (by hand or as a no-show) is seated again from the next round; `reason`
    # says why.
    stageStarted @34 :StageStarted;
    # The next stage of `rules.stages` begins (docs/games/stages.md): its seeded players, and —
    # for a stage that plays — the `roundSeated` of its first round right after it.
    keptApart @35 :KeptApart;
    # Stream `t/{id}` (S-9): these players are never seated at one table while a seating without
    # that exists; `reason` says why (family, club …). Voidable.
    fixedTable @36 :FixedTable;
    # Stream `t/{id}` (S-10): the player's table gets this number in every round from now on.
    penaltyGiven @37 :PenaltyGiven;
    # Stream `t/{id}` (S-11): points added to the player's first standings criterion (negative: a
    # penalty, positive: a bonus); `reason` says why. Voidable.
    registrationReceived @38 :RegistrationReceived;
    # Stream `t/{id}` (Q-7): someone registered before the day (anonymously, while
    # `rules.registration` is "open"). Whether it holds a place or waits is the projection's: it
    # holds one while fewer than `rules.capacity` do, else it waits in the order it came.
    registrationCancelled @39 :RegistrationCancelled;
    # Stream `t/{id}` (Q-7): the registrant (with the private key) or the organizer cancelled it; a
    # cancelled registration that held a place gives it to the first one waiting.
    registrationSettings @40 :RegistrationSettings;
    # Stream `t/{id}` (Q-7): the organizer opened or closed registration, or changed the capacity
    # (PATCH /v1/tournaments/{t}); the tournament's `rules` say so from now on.

    # --- A series (stream `s/{id}`, docs/series.md) ---
    seriesCreated @41 :SeriesCreated;
    # A season of tournaments of one game, scored by `scoring` (qualification or a ladder).
    seriesTournamentAdded @42 :SeriesTournamentAdded;
    # A tournament of this server joins the series; it counts once it is final.
    seriesImported @43 :SeriesImported;
    # Q-1: another server's tournament, from an export whose hash chain verified link by link:
    # its events, kept read-only, and where they came from. A later import of the same
    # tournament whose chain extends this one replaces it.
    personAdded @44 :PersonAdded;
    # Q-5: a person, the series' identity of a player across its tournaments.
    personLinked @45 :PersonLinked;
    # Q-5: the organizer's decision on a link between a tournament's player and a person
    # (confirmed, or rejected so that it is not proposed again). The newest decision counts.
  }
}

# --- Tournament-level events (stream `t/{id}`) ----------------------------------------------------

struct TournamentCreated {
  id @0 :Text;
  name @1 :Text;
  game @2 :Text;
  # `catan`, `agot` or `carcassonne`: the rule set, looked up by the daemon's game registry.
  locale @3 :Text $optional;
  # The collation locale for sorting names (`cs`, `it`, `ru`, …); empty: the root collation.
  rules @4 :Text $optional $jsonText;
  # Overrides of the game's defaults, already normalised by the game (a JSON object).
  selfReporting @5 :Bool $optional;
  # Players may propose their tables' results (judges approve them); off by default.
}

struct SelfReporting {
  # The tournament's self-reporting setting from now on.
  enabled @0 :Bool;
}

struct PlayerRegistered {
  id @0 :Text $optional;
  # Generated by the server when the request leaves it out.
  name @1 :Text;
}

struct RegistrationReceived {
  # Q-7. Turned into a player later by a `playerRegistered` with the same id (the console's one
  # step, or "drop the absent" moving a waiting registrant up).
  id @0 :Text;
  # "r<n>", made by the server.
  name @1 :Text;
  # As given (the `text` rule's name).
  club @2 :Text $optional;
  person @3 :Text $optional;
  # The registrant's person id, as given, else empty.
  emailSealed @4 :Data $optional;
  # The e-mail address sealed with AES-256-GCM under a key derived from the server's secret
  # (nonce ‖ ciphertext ‖ tag; docs/registration.md): never the address in the clear. Empty: none.
  keyHash @5 :Data;
  # SHA-256 of the registrant's private key (the link to see and cancel it). The key itself is
  # never stored.
}

struct RegistrationCancelled {
  id @0 :Text;
  # The registration; `reason` may say why.
}

struct RegistrationSettings {
  open @0 :Bool;
  # `rules.registration`: "open" (true) or "closed".
  capacity @1 :UInt32 $optional;
  # `rules.capacity`: the places; 0: no limit.
}

struct PlayerDropped {
  id @0 :Text;
  # The player is no longer seated from the next round on; results already played stay.
}

struct PlayerReinstated {
  id @0 :Text;
  # The dropped player is seated again from the next round on; the rounds missed stay missed.
}

struct KeptApart {
  players @0 :List(Text);
  # Two or more player ids: no two of them at one table (S-9).
}

struct FixedTable {
  player @0 :Text;
  table @1 :UInt32 $optional;
  # The table number the player's table is given in every seating (S-10); 0: none any more.
}

struct PenaltyGiven {
  player @0 :Text;
  points @1 :Text;
  # Exact, non-zero, as a fraction text: "-1", "-1/2", "2" (S-11).
  round @2 :UInt32 $optional;
  # The round it belongs to (counted in the standings from that round on); 0: none.
}

struct PlayerRenamed {
  id @0 :Text;
  name @1 :Text;
  # The player's name from now on (the earlier name stays in the log).
}

struct CheckIn {
  # Who is present for a round that is still to be seated. Once anyone is checked in for it,
  # seating that round takes only the present players.
  round @0 :UInt32;
  players @1 :List(Text);
  present @2 :Bool;
  # true: these players are here; false: they are no longer marked present.
}

enum ClockAction {
  start @0;
  pause @1;
  resume @2;
  extend @3;
  stop @4;
}

struct RoundClock {
  # One action on a round's clock; the event's `recordedAt` is when it happened.
  round @0 :UInt32;
  action @1 :ClockAction;
  minutes @2 :UInt32 $optional;
  # `start`: the round's length; `extend`: the time added. 0 for the other actions.
}

struct RoundClosed {
  round @0 :UInt32;
  final @1 :Bool $optional;
  # The event is over with this round: the standings after it are the final standings.
}

enum SeatingMethod {
  random @0;
  standings @1;
  manual @2;
  snake @3;
  # A stage's final tables: seeds dealt to tables in snake order (S-4).
  knockout @4;
  # A knockout stage's games: the bracket's pairing (S-6), the better seed first (S-7).
}

struct StageStarted {
  stage @0 :UInt32;
  # The index of the stage in `rules.stages` (0 is the rounds stage, never started by an event).
  players @1 :List(Text);
  # Who plays the stage, best seed first (S-3: the cut's order; S-4: after final tables, by place
  # at their table, then seed).
  forced @2 :Bool $optional;
  # Started although the stage before it was not complete (with a reason).
}

struct SeatedTable {
  table @0 :UInt32;
  players @1 :List(Text);
  # In seat order.
  league @2 :Text $optional;
  # The table's league (AGoT: A, B, …); empty where the game has none.
  ratingLeagues @3 :List(Text) $optional;
  # Per player (same order as `players`), the league the rating put them in, when it differs from
  # the table's league (AGoT: a player moved down keeps that league's bonus). Empty otherwise.
}

struct RoundSeated {
  round @0 :UInt32;
  method @1 :SeatingMethod;
  seed @2 :UInt64;
  # The seed of a random draw, so that the draw can be replayed; 0 for other methods.
  tables @3 :List(SeatedTable);
  forced @4 :Bool;
  # The organizer seated this round although the previous one had unreported tables (with a reason).
}

# --- Judges (stream `judges`) ----------------------------------------------------------------------

enum Role {
  organizer @0;
  judge @1;
  replica @2;
  # A follower's token (tallyd --follow): it reads the log, nothing else.
}

struct JudgeAdded {
  id @0 :Text;
  name @1 :Text;
  role @2 :Role;
  tokenHash @3 :Data;
  # SHA-256 of the bearer token. The token itself is never stored.
  standby @4 :Bool $optional;
  # A replica (role `replica`) whose copy counts for `replicas_ack`: a standby, not a mirror.
}

struct JudgeRevoked {
  id @0 :Text;
}

struct OrganizerToken {
  # The organizer's token from now on: every earlier organizer token stops working.
  tokenHash @0 :Data;
  # SHA-256 of the bearer token.
}

struct PrimaryPromoted {
  epoch @0 :UInt32;
  # How many promotions this log has seen, this one included (a log that never had one: 0).
  formerPrimary @1 :Text $optional;
  # The URL the promoted follower copied from, for the audit.
}

# --- Self-reporting (stream `t/{id}/r/{round}/table/{n}/proposals`, approvals in the table's) -----

struct ResultProposed {
  body @0 :Text $jsonText;
  # The body of `PUT …/result` as proposed (a JSON object, checked by the game's rules when it was
  # proposed and again when it is approved). The proposer's note, if any, is the event's `reason`.
}

struct ProposalRef {
  proposal @0 :UInt64;
  # The seq of the `resultProposed` event.
}

# --- Table actions (stream `t/{id}/r/{round}/table/{n}`) ------------------------------------------

struct OptionalInt32 $boxed {
  value @0 :Int32;
}

struct CatanPlayerResult {
  # catan.md §1. Counts are signed so that a negative number reaches the rules and is reported
  # with its rule id (C-1 …) rather than as a type error.
  player @0 :Text;
  settlements @1 :Int32;
  cities @2 :Int32;
  vpCards @3 :Int32;
  knights @4 :Int32;
  roads @5 :Int32;
  longestRoad @6 :Int32;
  largestArmy @7 :Bool;
  longestRoadHolder @8 :Bool;
  vp @9 :OptionalInt32 $optional;
  # The VP the table wrote down, when given (C-10).
  claimedWin @10 :Bool $optional;
  # The claim of a win recorded in the same append as the result (catan.md §3).
}

struct CatanResult {
  players @0 :List(CatanPlayerResult);
}

enum House {
  stark @0;
  lannister @1;
  baratheon @2;
  greyjoy @3;
  tyrell @4;
  martell @5;
}

struct AgotPlayerResult {
  # agot.md §3.
  player @0 :Text;
  house @1 :House;
  place @2 :Int32;
  castles @3 :Int32;
  capitalsCaptured @4 :List(House);
  capitalsHeld @5 :Int32;
  landsCaptured @6 :Int32;
  winner @7 :Bool;
}

struct AgotResult {
  players @0 :List(AgotPlayerResult);
}

struct CarcassonnePlayerScore {
  player @0 :Text;
  score @1 :Int32;
  # The final game score.
}

struct CarcassonneResult {
  players @0 :List(CarcassonnePlayerScore);
}

struct ClaimedWin {
  player @0 :Text;
}

struct HousePick {
  player @0 :Text;
  house @1 :House;
}

struct CarcassonneScoring {
  event @0 :Text $jsonText;
  # One scoring event in the vocabulary of carcassonne.md §2–§6 (a JSON object), as validated by
  # the engine. Kept as JSON because its modifier names are owned by the engine's rule table.
}

# --- Series events (stream `s/{id}`) ----------------------------------------------------------------

struct SeriesCreated {
  id @0 :Text;
  name @1 :Text;
  game @2 :Text;
  locale @3 :Text $optional;
  scoring @4 :Text $jsonText;
  # Normalised: every default written out (docs/series.md, "Scoring").
}

struct SeriesTournamentAdded {
  tournament @0 :Text;
}

struct ImportedEvent {
  # One event of the imported tournament as the venue's log holds it.
  seq @0 :UInt64;
  hash @1 :Data;
  bytes @2 :Data;
}

struct SeriesImported {
  tournament @0 :Text;
  server @1 :Text;
  # The venue's server as its export names it.
  log @2 :Data;
  # The hash of the venue log's first event: which log the chain belongs to.
  head @3 :Data;
  # The hash of the export's last line: the chain was verified up to here.
  events @4 :UInt64;
  # The number of events of the venue's log up to `head` (the seq of the head).
  tournamentEvents @5 :List(ImportedEvent);
  # The tournament's own events, in seq order: folded into a read-only tournament.
  venueStandings @6 :Text $jsonText;
  # The final standings the export's header claims, kept to compare with ours (Q-1).
}

struct PersonAdded {
  id @0 :Text;
  name @1 :Text;
  club @2 :Text $optional;
}

struct PersonLinked {
  person @0 :Text;
  tournament @1 :Text;
  player @2 :Text;
  rejected @3 :Bool $optional;
  # The organizer said this player is not this person: not proposed again.
}
