// tallyd's ratings agree with OpenSkill's Plackett–Luce within 1e-6 on μ and σ. A simulated
// season — 500 tables of 3 or 4 players from a pool of 40, with shared places, drawn from a fixed
// seed — is rated by the `openskill` package (the reference, exact version in package-lock.json)
// and by tallyd's projections::rate_games (the rate_games tool), and every player's μ and σ are
// compared. A difference fails naming the player and both values.
//
// OpenSkill is called with its default options except tau: 0. Its default τ (25/300) widens every
// σ before each game; Q-6 has "no τ", and its numbers win (docs/series.md, "Ratings").
//
// Environment (set by CMake): RATE_GAMES (the tool), TALLY_RATINGS_DEPS (where the ratings-deps
// fixture installed openskill). Optional: RATINGS_PERTURB=1 nudges one game's places on the C++
// side only, to see the test fail.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const TOLERANCE = 1e-6;
const SEED = 0x5eed_0006;
const POOL = 40;
const TABLES = 500;

const tool = process.env.RATE_GAMES;
const depsDir = process.env.TALLY_RATINGS_DEPS;
assert.ok(tool, "RATE_GAMES must name the rate_games tool");
assert.ok(depsDir, "TALLY_RATINGS_DEPS must name the folder with openskill");
const require = createRequire(path.join(depsDir, "package.json"));
let openskill;
try {
  openskill = require("openskill");
} catch (e) {
  throw new Error(`openskill is not installed in ${depsDir} (the ratings-deps test runs npm ci): ${e.message}`);
}
const { rating, rate } = openskill;
// Its package.json is not among its exports: read from where npm put it.
const version = JSON.parse(readFileSync(path.join(depsDir, "node_modules/openskill/package.json"), "utf8")).version;

// mulberry32: a small seeded generator, so that the season is the same on every run.
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// The season: each table's players drawn from the pool, each given a score of 0–5 (so ties are
// frequent), placed as the games place them: 1 + how many scored more (shared places equal).
function season() {
  const random = generator(SEED);
  const pool = Array.from({ length: POOL }, (_, i) => `p${String(i + 1).padStart(2, "0")}`);
  const games = [];
  for (let n = 0; n < TABLES; n += 1) {
    const size = random() < 0.5 ? 3 : 4;
    const left = [...pool];
    const players = [];
    for (let k = 0; k < size; k += 1) players.push(left.splice(Math.floor(random() * left.length), 1)[0]);
    const scores = players.map(() => Math.floor(random() * 6));
    games.push(players.map((player, k) => ({ player, place: 1 + scores.filter((s) => s > scores[k]).length })));
  }
  return games;
}

const games = season();
const tied = games.filter((g) => new Set(g.map((s) => s.place)).size < g.length).length;
const sizes = new Set(games.map((g) => g.length));
// The draw covers what the contract names: both table sizes, and ties.
assert.deepEqual([...sizes].sort(), [3, 4]);
assert.ok(tied >= 100, `only ${tied} tables with shared places`);

// The reference: OpenSkill's rate() game by game.
const reference = new Map();
for (const game of games) {
  const teams = game.map(({ player }) => [reference.get(player)?.rating ?? rating()]);
  const rated = rate(teams, { rank: game.map((s) => s.place), tau: 0 });
  game.forEach(({ player }, k) => {
    const games = (reference.get(player)?.games ?? 0) + 1;
    reference.set(player, { rating: rated[k][0], games });
  });
}

// tallyd's.
const fed = structuredClone(games);
if (process.env.RATINGS_PERTURB === "1") fed[250][0].place += 1;
const run = spawnSync(tool, [], { input: JSON.stringify({ games: fed }), encoding: "utf8", maxBuffer: 1 << 24 });
assert.equal(run.status, 0, `rate_games failed: ${run.stderr}`);
const ours = JSON.parse(run.stdout);

const failures = [];
let worst = 0;
for (const [player, { rating: r, games: played }] of [...reference].sort()) {
  const o = ours[player];
  if (!o) {
    failures.push(`${player}: rated by openskill (μ ${r.mu}, σ ${r.sigma}) but not by tallyd`);
    continue;
  }
  for (const key of ["mu", "sigma"]) {
    const diff = Math.abs(o[key] - r[key]);
    worst = Math.max(worst, diff);
    if (!(diff <= TOLERANCE)) failures.push(`${player}: ${key} tallyd ${o[key]}, openskill ${r[key]} (differ by ${diff})`);
  }
  if (o.games !== played) failures.push(`${player}: games tallyd ${o.games}, openskill ${played}`);
}
for (const player of Object.keys(ours)) {
  if (!reference.has(player)) failures.push(`${player}: rated by tallyd but never by openskill`);
}

console.log(`openskill ${version}: ${TABLES} tables (${tied} with shared places), ${reference.size} players; ` +
  `largest difference ${worst.toExponential(2)}`);
if (failures.length > 0) {
  console.error(`Q-6: ${failures.length} disagreements with openskill beyond ${TOLERANCE}:\n  ${failures.join("\n  ")}`);
  process.exit(1);
}
