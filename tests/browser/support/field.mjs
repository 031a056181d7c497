// A Catan field for the phone and board tests (phone.test.mjs, board.test.mjs), set up through
// tallyd's API as an event day would: `count` players with Czech names (the first two "Jana
// Nováková" and "Petra Nováková"), round 1 played and closed — Jana's table corrected with a
// reason —, round 2 seated with its clock running and Jana's table reported with a claimed win.
//
//   const field = await catanField(tallyd, judge, "brno24", 24);
//   field.nameOf.p1 === "Jana Nováková"; field.round2 (GET …/rounds/2); field.janaTable2

const FIRST = ["Jana", "Petra", "Čeněk", "Ida", "Přemysl", "Eva", "Hana", "Dana", "Chrudoš", "Šárka", "Ondřej", "Zdeněk"];
const LAST = ["Nováková", "Dvořák", "Veselá", "Kratochvíl", "Králová", "Zelená", "Malá", "Šťastný", "Horák", "Černá", "Růžička", "Blažek"];

// `count` different names; the first two are "Jana Nováková" and "Petra Nováková".
export function fieldNames(count) {
  const names = [];
  for (let i = 0; names.length < count; i++) {
    const name = `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]}`;
    names.push(i < FIRST.length * LAST.length ? name : `${name} ${Math.floor(i / (FIRST.length * LAST.length)) + 1}`);
  }
  names[1] = "Petra Nováková";
  return names;
}

// A valid Catan table in seat order: 10, 8, 6, 5 VP.
export const CATAN_SHEETS = [
  { settlements: 2, cities: 3, vp_cards: 0, knights: 3, roads: 6, longest_road: 4, largest_army: true, longest_road_holder: false },
  { settlements: 3, cities: 1, vp_cards: 1, knights: 1, roads: 10, longest_road: 6, largest_army: false, longest_road_holder: true },
  { settlements: 4, cities: 1, vp_cards: 0, knights: 2, roads: 7, longest_road: 4, largest_army: false, longest_road_holder: false },
  { settlements: 2, cities: 1, vp_cards: 1, knights: 0, roads: 5, longest_road: 3, largest_army: false, longest_road_holder: false },
];

// Two players at 10 VP, the second claimed the win (catan.md: placed first by the claim).
export const CLAIM_SHEETS = [
  { settlements: 2, cities: 3, vp_cards: 0, knights: 3, roads: 6, longest_road: 4, largest_army: true, longest_road_holder: false },
  { settlements: 2, cities: 3, vp_cards: 0, knights: 1, roads: 10, longest_road: 6, largest_army: false, longest_road_holder: true, claimed_win: true },
  { settlements: 4, cities: 1, vp_cards: 1, knights: 2, roads: 7, longest_road: 4, largest_army: false, longest_road_holder: false },
  { settlements: 2, cities: 1, vp_cards: 1, knights: 0, roads: 5, longest_road: 3, largest_army: false, longest_road_holder: false },
];

const rotated = (list, by) => list.map((_, i) => list[(i + by) % list.length]);
const entry = (players, sheets) => ({ players: players.map((player, i) => ({ player, ...sheets[i] })) });

export async function catanField(tallyd, judge, id, count, { locale = "cs" } = {}) {
  const names = fieldNames(count);
  await tallyd.must(201, "POST", "/v1/tournaments", { id, name: `${id} open`, game: "catan", locale });
  for (const [i, name] of names.entries()) {
    await tallyd.must(201, "POST", `/v1/tournaments/${id}/players`, { id: `p${i + 1}`, name });
  }
  const nameOf = Object.fromEntries(names.map((n, i) => [`p${i + 1}`, n]));
  const put = (round, table, body, headers) =>
    tallyd.must(headers["If-Match"] ? 200 : 201, "PUT", `/v1/tournaments/${id}/rounds/${round}/tables/${table}/result`, body, { token: judge.token, headers });

  const round1 = await tallyd.must(201, "POST", `/v1/tournaments/${id}/rounds`, { method: "random", seed: 11 });
  for (const [k, table] of round1.tables.entries()) {
    await put(1, table.table, entry(table.players, rotated(CATAN_SHEETS, k % 4)), { "If-None-Match": "*" });
  }
  // Jana's table of round 1 corrected: the sheets were read in the wrong order.
  const janaTable1 = round1.tables.find((table) => table.players.includes("p1"));
  await put(1, janaTable1.table, { ...entry(janaTable1.players, [...CATAN_SHEETS].reverse()), reason: "the sheets were swapped" }, { "If-Match": '"1"' });
  await tallyd.must(201, "POST", `/v1/tournaments/${id}/rounds/1/close`, { final: false });

  await tallyd.must(201, "POST", `/v1/tournaments/${id}/rounds`, { method: "random", seed: 23 });
  await tallyd.must(201, "POST", `/v1/tournaments/${id}/rounds/2/clock`, { action: "start", minutes: 50 });
  let round2 = await tallyd.must(200, "GET", `/v1/tournaments/${id}/rounds/2`);
  const janaTable2 = round2.tables.find((table) => table.players.includes("p1"));
  await put(2, janaTable2.table, entry(janaTable2.players, CLAIM_SHEETS), { "If-None-Match": "*" });
  round2 = await tallyd.must(200, "GET", `/v1/tournaments/${id}/rounds/2`);
  return {
    id,
    names,
    nameOf,
    round1: await tallyd.must(200, "GET", `/v1/tournaments/${id}/rounds/1`),
    round2,
    janaTable1: janaTable1.table,
    janaTable2: janaTable2.table,
  };
}
