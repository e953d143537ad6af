// League views: a league's standings and ratings as a table, and a session's match scores over
// its hands as a chart (SVG), with the same numbers as a table for screen readers and phones.

import { api, h, keyProblem, objectTable } from "./ui.js";

const SVG = "http://www.w3.org/2000/svg";
const s = (tag, attrs = {}, ...children) => {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  el.append(...children);
  return el;
};
const COLOURS = ["#1f5fa8", "#c0392b", "#2e8b57", "#8e44ad", "#d35400", "#555"];

/** A read of the club's results, with its key when the user gave one. */
async function getOf(club, path) {
  const res = await api(path, undefined, { asMember: true });
  if (!res.ok) throw new KeyNeeded(keyProblem(res, club) ?? `Could not load: ${path}: ${res.body?.detail ?? res.status}`);
  return res.body;
}

/** Every item of a paged list of the club's results, following `next_cursor` to the last page. */
async function allOf(club, path) {
  const items = [];
  let cursor = "";
  do {
    const page = await getOf(club, `${path}?limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    items.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor);
  return items;
}

/** A refused read, said as the status line should say it. */
class KeyNeeded extends Error {}

export async function showLeague(club, league, session, status) {
  try {
    await show(club, league, session, status);
  } catch (err) {
    if (!(err instanceof KeyNeeded)) throw err;
    document.getElementById("league").hidden = true;
    document.getElementById("load").open = true;
    status(err.message, "error");
  }
}

async function show(club, league, session, status) {
  const body = document.getElementById("league-body");
  const c = encodeURIComponent(club);
  body.replaceChildren();
  const get = (path) => getOf(club, path);
  if (league) {
    const l = encodeURIComponent(league);
    const [info, table, sessions] = await Promise.all([
      get(`/v1/clubs/${c}/leagues/${l}`), get(`/v1/clubs/${c}/leagues/${l}/standings`), allOf(club, `/v1/clubs/${c}/leagues/${l}/sessions`)]);
    document.getElementById("league").hidden = false;
    document.getElementById("load").open = false;
    const row = (who, x) => ({
      rank: x.rank, [who]: x[who]?.name, matches: x.matches_played, won: x.won, lost: x.lost,
      "points for": x.points_for, "points against": x.points_against, hands: x.hands, irregularities: x.irregularities,
      ...(x.rating ? { rating: x.rating.rating, uncertainty: x.rating.uncertainty, conservative: x.rating.conservative } : {}),
    });
    body.append(
      h("h3", {}, `${info.name} · ${info.season} · ${info.game}`),
      objectTable(table.players.map((p) => row("player", p)), { caption: "Players (ratings: Weng-Lin μ, σ and μ − 3σ)", class: "data standings", empty: "No players yet." }),
      objectTable(table.partnerships.map((p) => row("partnership", p)), { caption: "Partnerships", class: "data standings", empty: "No partnerships sat together yet." }),
      h("h3", {}, "Sessions"),
      sessions.length ? h("ul", {}, sessions.map((x) => h("li", {}, h("a", { href: `?club=${c}&session=${x.id}` }, x.name), x.played_on ? ` (${x.played_on})` : "")))
        : h("p", { class: "none" }, "No sessions yet."));
  }
  if (session) {
    body.append(await sessionChart(club, encodeURIComponent(session)));
    document.getElementById("league").hidden = false;
    document.getElementById("load").open = false;
  }
  status(`Showing club ${club}${league ? `, league ${league}` : ""}${session ? `, session ${session}` : ""}.`);
}

async function sessionChart(club, sid) {
  const c = encodeURIComponent(club);
  const hands = await allOf(club, `/v1/clubs/${c}/sessions/${sid}/hands`);
  const matches = new Map();
  for (const hand of hands) {
    if (!matches.has(hand.match)) matches.set(hand.match, []);
    matches.get(hand.match).push(hand);
  }
  const out = h("section", { id: "session-chart" }, h("h3", {}, `Session ${decodeURIComponent(sid)}: match scores hand by hand`));
  if (!hands.length) out.append(h("p", { class: "none" }, "No hands stored in this session."));
  for (const [id, list] of matches) {
    list.sort((a, b) => a.number - b.number);
    out.append(h("figure", { class: "chart" }, chart(id, list), h("figcaption", {}, `Match ${id}`)),
      h("details", {}, h("summary", {}, `Match ${id} as a table`), objectTable(list.map((x) => ({
        hand: x.number, dealer: x.dealer, outcome: x.outcome,
        "hand score": Object.entries(x.hand_score ?? {}).map(([side, n]) => `${side} ${n}`).join(" · "),
        "match after": Object.entries(x.match_after?.scores ?? {}).map(([side, n]) => `${side} ${n}`).join(" · "),
        irregularities: x.irregularities.join(", ") || "—",
        open: h("a", { href: `?club=${c}&hand=${x.id}` }, `hand ${x.id}`),
      })))));
  }
  return out;
}

/** One match: each side's score after every hand (hand 0 is the start, at the state before hand 1). */
function chart(id, hands) {
  const sides = [...new Set(hands.flatMap((x) => Object.keys(x.match_after?.scores ?? {})))];
  const series = sides.map((side) => [0, ...hands.map((x) => x.match_after?.scores?.[side] ?? 0)]);
  const W = 640, H = 260, L = 44, R = 70, T = 14, B = 34;
  const all = series.flat();
  const lo = Math.min(0, ...all), hi = Math.max(1, ...all);
  const x = (i) => L + (i * (W - L - R)) / Math.max(1, hands.length);
  const y = (v) => T + ((hi - v) * (H - T - B)) / (hi - lo);
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-labelledby": `chart-${id}-t`, class: "score-chart" },
    s("title", { id: `chart-${id}-t` }, `Match ${id}: ${sides.map((side, i) => `${side} ${series[i].at(-1)}`).join(", ")} after ${hands.length} hands`));
  for (const v of ticks(lo, hi)) {
    svg.append(s("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }),
      s("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end", class: "axis" }, String(v)));
  }
  hands.forEach((x0, i) => svg.append(s("text", { x: x(i + 1), y: H - B + 16, "text-anchor": "middle", class: "axis" }, String(x0.number))));
  svg.append(s("text", { x: (L + W - R) / 2, y: H - 4, "text-anchor": "middle", class: "axis" }, "hand"));
  sides.forEach((side, si) => {
    const colour = COLOURS[si % COLOURS.length];
    svg.append(s("polyline", { points: series[si].map((v, i) => `${x(i)},${y(v)}`).join(" "), fill: "none", stroke: colour, "stroke-width": 2.5 }));
    series[si].forEach((v, i) => svg.append(s("circle", { cx: x(i), cy: y(v), r: 3.5, fill: colour }, s("title", {}, `${side} ${v} after hand ${i}`))));
    svg.append(s("text", { x: W - R + 8, y: y(series[si].at(-1)) + 4 + si * 2, fill: colour, class: "label" }, `${side} ${series[si].at(-1)}`));
  });
  return svg;
}

/** About five round values from lo to hi. */
function ticks(lo, hi) {
  const step = [1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000].find((st) => (hi - lo) / st <= 6) ?? Math.ceil((hi - lo) / 5);
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) out.push(v);
  return out;
}
