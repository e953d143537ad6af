// The director's desk: loads a hand record, adjudicates it through the API, and steps through it
// action by action. Each step's table (cards on the table, whose turn, the tally, the legal
// actions) is the engine's own view from `legal-actions` on the record cut at that step; the
// irregularities, trick winners and scores are the adjudication's. Nothing is ruled here.

import { cardEl, cardName, isCard, suitName, suitSymbol } from "./cards.js";
import { actionNumber, api, clubKey, h, keyProblem, objectTable, setClubKey, setTitles, sideTable, titled, value } from "./ui.js";
import { showLeague } from "./league.js";

const $ = (id) => document.getElementById(id);
/** Replaces an element's children; absent (null, false) children are left out, as in `h`. */
const fill = (id, ...children) => $(id).replaceChildren(...children.flat(Infinity).filter((c) => c != null && c !== false));

/** Everything the page shows comes from here. */
const S = {
  games: [],
  record: null, // the hand record being shown
  game: null, // its GameInfo
  adj: null, // its adjudication
  problem: null, // or the problem that refused it
  views: [], // views[k]: the engine's table after k actions ({error} when refused there)
  dealEvents: [], // what happened before any action (an upcard turned), from the record cut there
  seatNames: new Map(), // the engine's name of each seat the record names
  step: 0,
  note: null, // where the record came from
  swap: true, // what-if: exchange the new card with its later play
};

const status = (text, cls) => {
  $("status").textContent = text;
  $("status").className = cls ?? "";
};

// ---------- loading ----------

async function init() {
  const games = await api("/v1/games");
  S.games = games.body ?? [];
  const sel = $("game-select");
  for (const g of S.games) sel.append(h("option", { value: g.id }, g.name ?? g.id));
  sel.addEventListener("change", () => loadExampleList(sel.value));
  $("example-select").addEventListener("change", showWhy);
  $("example-form").addEventListener("submit", (e) => {
    e.preventDefault();
    go({ game: sel.value, example: $("example-select").value });
  });
  $("paste-form").addEventListener("submit", (e) => {
    e.preventDefault();
    openText($("record-text").value, "the pasted record");
  });
  $("record-file").addEventListener("change", async (e) => {
    const f = e.target.files[0];
    if (f) openText(await f.text(), f.name);
  });
  for (const ev of ["dragover", "drop"]) {
    document.addEventListener(ev, async (e) => {
      if (!e.dataTransfer?.types?.includes("Files")) return;
      e.preventDefault();
      if (ev === "drop" && e.dataTransfer.files[0]) {
        const f = e.dataTransfer.files[0];
        openText(await f.text(), f.name);
      }
    });
  }
  // The club's key: kept in this tab's session as it is typed, never put in the link.
  $("club-key").value = clubKey();
  $("club-key").addEventListener("input", (e) => setClubKey(e.target.value));
  $("league-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const q = {};
    for (const [k, v] of new FormData(e.target)) if (v.trim()) q[k] = v.trim();
    go(q);
  });
  wireStepper();
  padBelowStepper();
  $("print").addEventListener("click", () => window.print());
  window.addEventListener("popstate", route);
  await route();
}

/** Puts a query in the address bar (so every view has a link) and shows it. */
function go(query) {
  const url = new URL(location.href);
  url.search = new URLSearchParams(query).toString();
  history.pushState(null, "", url);
  route();
}

async function route() {
  const q = new URLSearchParams(location.search);
  const game = q.get("game") ?? S.games[0]?.id;
  if (game && $("game-select").value !== game) $("game-select").value = game;
  await loadExampleList($("game-select").value, q.get("example"));
  try {
    if (q.get("club") && q.get("hand")) return await openStored(q.get("club"), q.get("hand"), q.get("step"));
    if (q.get("club") && (q.get("league") || q.get("session"))) {
      $("hand").hidden = true;
      return await showLeague(q.get("club"), q.get("league"), q.get("session"), status);
    }
    if (q.get("example")) {
      const ex = S.examples.find((e) => e.name === q.get("example"));
      if (!ex) return status(`No example '${q.get("example")}' for ${game}.`, "error");
      return await openRecord(ex.record, `example ${game} / ${ex.name}`, q.get("step"));
    }
  } catch (err) {
    return status(`Could not load: ${err.message}`, "error");
  }
  $("hand").hidden = true;
  $("league").hidden = true;
  $("load").open = true;
  status("Choose a hand to load.");
}

async function loadExampleList(game, selected) {
  if (!game) return;
  if (S.examplesFor !== game) {
    const res = await api(`/v1/games/${encodeURIComponent(game)}/examples`);
    S.examples = res.ok ? res.body : [];
    S.examplesFor = game;
    const sel = $("example-select");
    sel.replaceChildren(...S.examples.map((e) => h("option", { value: e.name }, e.name)));
  }
  if (selected) $("example-select").value = selected;
  showWhy();
}

function showWhy() {
  const ex = S.examples?.find((e) => e.name === $("example-select").value);
  $("example-why").textContent = ex ? ex.why : "";
}

function openText(text, source) {
  let json;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return status(`${source} is not JSON: ${err.message}`, "error");
  }
  // A fixture carries its record under `record`.
  if (json && json.record && typeof json.record === "object") json = json.record;
  if (Array.isArray(json?.hands)) {
    return status("That is a match record: paste one of its hands (an element of \"hands\").", "error");
  }
  openRecord(json, source).catch((err) => status(`Could not show ${source}: ${err.message}`, "error"));
}

async function openStored(club, hand, step) {
  const res = await api(`/v1/clubs/${encodeURIComponent(club)}/hands/${encodeURIComponent(hand)}`, undefined, { asMember: true });
  if (!res.ok) {
    $("hand").hidden = true;
    $("load").open = true;
    return status(keyProblem(res, club) ?? `Stored hand ${hand} of club ${club}: ${res.body?.detail ?? res.status}`, "error");
  }
  const record = structuredClone(res.body.record);
  // The store adjudicated the hand in its match: replay it from the same match state.
  record.match_state ??= res.body.adjudication?.match_before;
  const source = `club ${club}, hand ${hand} (match ${res.body.match}, hand ${res.body.number})`;
  await openRecord(record, source, step);
  await showContext(club, hand, res.body);
  // The desk shows today's ruling; say so when the one stored with the hand differs.
  const changed = S.adj ? diff(res.body.adjudication, S.adj) : [];
  if (changed.length) {
    status(`Showing ${source}, adjudicated by today's rules: the adjudication stored with it differs at ${changed.map(([p]) => p).slice(0, 5).join(", ")}${changed.length > 5 ? "…" : ""} (the league's readjudicate applies today's rules).`);
  }
}

/**
 * A stored hand's context: the match's players by seat, its session, league and date, and its
 * amendment history with notes. Each is read with the user's key and shown when the API gives it
 * (the API decides who may read what); a part refused is said to be missing, not guessed.
 */
async function showContext(club, hand, stored) {
  const c = encodeURIComponent(club);
  const read = (path) => api(path, undefined, { asMember: true });
  const [match, session, league, amendments] = await Promise.all([
    read(`/v1/clubs/${c}/matches/${stored.match}`),
    read(`/v1/clubs/${c}/sessions/${stored.session}`),
    read(`/v1/clubs/${c}/leagues/${stored.league}`),
    amendmentsOf(club, Number(hand)),
  ]);
  if (match.ok) {
    S.players = Object.fromEntries(Object.entries(match.body.seats ?? {}).map(([seat, p]) => [seat, p?.name ?? `player ${p?.id}`]));
    render();
  }
  const item = (label, id, ...v) => h("div", { id }, h("dt", {}, label), h("dd", {}, ...v));
  const date = session.ok ? session.body.played_on ?? session.body.created_at?.slice(0, 10) : stored.created_at?.slice(0, 10);
  fill("context", h("h3", {}, "The stored hand"), h("dl", {},
    item("Match", "context-match", `${stored.match}, hand ${stored.number}`),
    session.ok ? item("Session", "context-session", h("a", { href: `?club=${c}&session=${stored.session}` }, session.body.name)) : null,
    league.ok ? item("League", "context-league", h("a", { href: `?club=${c}&league=${stored.league}` }, [league.body.name, league.body.season].filter(Boolean).join(" · "))) : null,
    date ? item("Date", "context-date", date) : null,
    item("Stored", "context-stored", stored.created_at ?? "—"),
  ), amendments === null
    ? h("p", { class: "none" }, "Amendment history: not shown (it needs one of the club's keys).")
    : amendments.length
      ? h("div", { id: "amendments" }, h("h4", {}, `Amendments (${amendments.length})`), h("ol", {}, amendments.map((x) =>
        h("li", { class: "amendment", dataset: { id: x.id } }, `${x.action.replaceAll("_", " ").replace(/^\w/, (c) => c.toUpperCase())} on ${x.at} by ${x.by}`, x.note ? [": ", h("q", { class: "note" }, x.note)] : " (no note)"))))
      : h("p", { class: "none", id: "amendments" }, "Never amended."));
}

/** Stored hand `hand`'s audit trail, oldest first, every page of it; null when refused. */
async function amendmentsOf(club, hand) {
  const out = [];
  let cursor = "";
  do {
    const res = await api(`/v1/clubs/${encodeURIComponent(club)}/hands/${encodeURIComponent(hand)}/amendments?limit=1000&cursor=${encodeURIComponent(cursor)}`, undefined, { asMember: true });
    if (!res.ok) return null;
    out.push(...(res.body.items ?? []));
    cursor = res.body.next_cursor;
  } while (cursor);
  return out;
}

/** Adjudicates `record`, then asks the engine for its table after every prefix of the actions. */
async function openRecord(record, source, step) {
  $("league").hidden = true;
  fill("whatif", );
  status(`Adjudicating ${source}…`);
  const game = record?.game ?? $("game-select").value;
  S.record = record;
  S.note = source;
  S.game = S.games.find((g) => g.id === game) ?? null;
  setTitles(S.game?.titles);
  S.seatNames = seatNames(record);
  S.players = null;
  fill("context");
  const res = await api(`/v1/games/${encodeURIComponent(game)}/adjudications`, record);
  S.adj = res.ok ? res.body : null;
  S.problem = res.ok ? null : res.body;
  const actions = recordActions();
  // Past a record error the engine refuses every longer prefix: ask only up to it.
  const stop = S.adj?.record_error?.action_index ?? actions.length;
  const [views, dealEvents] = res.ok
    ? await Promise.all([
      Promise.all(actions.map((_, k) => k).concat(actions.length)
        .map((k) => (k <= stop ? viewAt(record, k) : { error: S.adj.record_error }))),
      eventsAtDeal(record),
    ])
    : [[], []];
  S.views = views;
  S.dealEvents = dealEvents;
  S.step = Math.max(0, Math.min(Number(step ?? 0) || 0, actions.length));
  $("hand").hidden = false;
  $("load").open = false;
  render();
  status(S.adj ? `Showing ${source}.` : `${source} was refused: ${S.problem?.detail ?? S.problem?.title ?? "error"}`,
    S.adj ? "" : "error");
}

async function viewAt(record, k) {
  const cut = { ...record, actions: record.actions.slice(0, k) };
  const res = await api(`/v1/games/${encodeURIComponent(record.game ?? S.game?.id)}/legal-actions`, cut);
  return res.ok ? res.body : { error: res.body };
}

/**
 * The events before the first action (Bacon's and Couillon's upcard). The adjudication gives them
 * no action index, as it does the events of the hand's end; the record cut before its first
 * action, adjudicated, has only the former.
 */
async function eventsAtDeal(record) {
  const res = await api(`/v1/games/${encodeURIComponent(record.game ?? S.game?.id)}/adjudications`, { ...record, actions: [] });
  return res.ok ? byAction(res.body.events, null) : [];
}

// ---------- stepping ----------

/** The record's actions, or none when the record has none of the right shape (a refused paste). */
const recordActions = () => (Array.isArray(S.record?.actions) ? S.record.actions : []);
const actionCount = () => recordActions().length;

/**
 * Whether the game is played in tricks: Big Two's turns have no trick number and no trick, and
 * their tally of tricks means nothing.
 */
const hasTricks = () => (S.adj?.tricks ?? []).length > 0
  || S.views.some((v) => v && !v.error && v.trick_number != null);

/** A tally without its count of tricks in a game without tricks (null when nothing is left). */
function tallyShown(tally) {
  if (!tally || typeof tally !== "object" || hasTricks()) return tally;
  const out = {};
  for (const [side, t] of Object.entries(tally)) {
    if (t && typeof t === "object") {
      const rest = Object.fromEntries(Object.entries(t).filter(([f]) => f !== "tricks"));
      if (Object.keys(rest).length) out[side] = rest;
    } else if (t != null) {
      out[side] = t;
    }
  }
  return Object.keys(out).length ? out : null;
}

/** Steps after which a trick has just been completed. */
function trickEnds() {
  const out = [];
  for (let k = 1; k < S.views.length; k++) {
    const a = S.views[k - 1], b = S.views[k];
    if (a && b && !a.error && !b.error && (b.trick_number ?? 0) > (a.trick_number ?? 0)) out.push(k);
  }
  return out;
}

function setStep(k) {
  S.step = Math.max(0, Math.min(k, actionCount()));
  const url = new URL(location.href);
  if (url.searchParams.has("example") || url.searchParams.has("hand")) {
    url.searchParams.set("step", S.step);
    history.replaceState(null, "", url);
  }
  render();
}

function wireStepper() {
  const moves = {
    first: () => 0,
    prev: () => S.step - 1,
    next: () => S.step + 1,
    last: () => actionCount(),
    "prev-trick": () => [0, ...trickEnds()].filter((k) => k < S.step).pop() ?? 0,
    "next-trick": () => [...trickEnds(), actionCount()].find((k) => k > S.step) ?? actionCount(),
  };
  for (const [id, to] of Object.entries(moves)) $(id).addEventListener("click", () => setStep(to()));
  const keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last", PageUp: "prev-trick", PageDown: "next-trick" };
  document.addEventListener("keydown", (e) => {
    if ($("hand").hidden || !keys[e.key] || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.target.closest("input, textarea, select")) return;
    e.preventDefault();
    setStep(moves[keys[e.key]]());
  });
}

// ---------- reading the record ----------

/**
 * The engine's name of each seat the record's deal names. A four-seat table may be written with
 * P1..P4, which the engine resolves by position to its own N E S W (Table::resolve); the views,
 * events and irregularities then use N E S W.
 */
function seatNames(record) {
  const dealt = Object.keys(record?.deal ?? {});
  const table = (S.game?.tables ?? []).find((t) => t.players === dealt.length);
  return new Map(dealt.map((seat) => {
    const n = Number(/^P(\d+)$/.exec(seat)?.[1]);
    const named = table && !table.seats.includes(seat) && n >= 1 && n <= table.seats.length;
    return [seat, named ? table.seats[n - 1] : seat];
  }));
}

const engineSeat = (seat) => S.seatNames.get(seat) ?? seat;
const recordSeat = (seat) => [...S.seatNames].find(([, e]) => e === seat)?.[0] ?? seat;
/** A seat as the engine names it, with the record's name where that differs: "E (P2)". */
const seatLabel = (seat) => (recordSeat(seat) === seat ? seat : `${seat} (${recordSeat(seat)})`);

/** The table's seats in playing order, as the engine names them. */
function seats() {
  const dealt = Object.keys(S.record?.deal ?? {}).map(engineSeat);
  const listed = S.game?.seats ?? [];
  if (dealt.length && dealt.every((s) => listed.includes(s))) return listed.filter((s) => dealt.includes(s));
  return dealt.length ? dealt.sort() : listed;
}

/** `[verb, value]` of an action `{seat, <verb>: value}`. */
function verbOf(action) {
  const entry = Object.entries(action ?? {}).find(([k]) => k !== "seat");
  return entry ?? ["?", null];
}

/** An action in words, with its card drawn. */
function describe(action) {
  const [verb, val] = verbOf(action);
  const words = verb.replaceAll("_", " ");
  const what = val === true ? null : isCard(val) ? cardEl(val) : typeof val === "string" && val.length === 1 && suitName(val) !== val
    ? `${suitSymbol(val)} ${suitName(val)}` : val === null ? null : value(val);
  return h("span", { class: "action" }, h("b", {}, action?.seat ?? "?"), ` ${words} `, what);
}

/**
 * Whether two actions are the same, whatever the order of their keys (the examples come back with
 * sorted keys, the legal actions with the seat first) and of the cards of a combination.
 */
const canonical = (x) => (Array.isArray(x) ? JSON.stringify(x.map(canonical).sort())
  : x && typeof x === "object" ? JSON.stringify(Object.keys(x).sort().map((k) => [k, canonical(x[k])])) : JSON.stringify(x));
const sameAction = (a, b) => canonical(a) === canonical(b);

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const byAction = (list, k) => (list ?? []).filter((x) => (x?.action_index ?? null) === k);

// ---------- rendering ----------

function render() {
  renderProblem();
  renderSummary();
  renderStepLabel();
  renderTable();
  renderStepNotes();
  renderLegal();
  renderIrregularities();
  renderActions();
  renderTricks();
  renderScore();
}

function renderProblem() {
  const p = S.problem, err = S.adj?.record_error;
  $("problem").hidden = !p && !err;
  if (p) {
    fill("problem", h("h3", {}, `Refused (${p.status ?? "error"}): ${p.title ?? ""}`), h("p", {}, p.detail ?? ""),
      h("ul", {}, (p.errors ?? []).map((e) => h("li", {}, h("code", {}, e.pointer || "/"), " ", e.detail))));
  } else if (err) {
    fill("problem", h("h3", {}, "Record error: the replay stopped"),
      h("p", { id: "record-error", dataset: { code: err.code ?? "", actionIndex: err.action_index ?? "" } },
        h("b", {}, titled(err.code)), ` at ${actionNumber(err.action_index ?? 0)}${err.seat ? ` (${err.seat})` : ""}: ${err.detail ?? ""} `,
        err.pointer ? ["In the record at ", h("code", {}, err.pointer), " "] : null,
        err.action_index != null ? h("button", { type: "button", onclick: () => showRuling(err.action_index + 1) }, "Show where") : null),
      h("p", {}, "The tricks completed before it are shown; the record needs correcting, so there is no score."));
  }
}

/** A suit as a symbol in its colour, with its name for a screen reader. */
const suitEl = (suit) => h("span", { class: `suit ${"HD".includes(suit) ? "red" : ""}`, title: suitName(suit) }, suitSymbol(suit));

function renderSummary() {
  const r = S.record ?? {}, a = S.adj ?? {};
  const item = (label, ...v) => h("div", {}, h("dt", {}, label), h("dd", {}, ...v));
  const v = S.views[S.step], named = v && !v.error && v.named_card ? v : null;
  const faceUp = [...new Set([...(r.face_up ?? []), ...S.dealEvents.flatMap((e) => e.cards ?? [])])];
  fill("summary", h("p", { class: "source" }, S.note ?? ""), h("dl", {},
    item("Game", S.game?.name ?? r.game ?? "?"),
    item("Dealer", r.dealer ?? "?"),
    players().length ? item("Players", h("span", { id: "players" }, players().map(([s, n], i) => [i ? ", " : "", h("span", { class: "player", dataset: { seat: s } }, `${s} ${n}`)]))) : null,
    Object.keys(r.options ?? {}).length ? item("Options", Object.entries(r.options).map(([k, v]) => `${k} = ${v}`).join(", ")) : null,
    // Royal Porcio: the gallery as it lies at this step, turned-down cards face down.
    a.gallery ? item("Gallery", h("span", { id: "gallery", class: "face-up" }, ((S.views[S.step]?.error ? null : S.views[S.step]?.gallery) ?? a.gallery)
      .map((g) => cardEl(g.card, { faceDown: g.face_down, data: { faceDown: String(g.face_down) } })))) : null,
    faceUp.length && !a.gallery ? item("Face up", h("span", { class: "face-up" }, faceUp.map((c) => cardEl(c)))) : null,
    a.trump ? item("Trump", h("span", { class: `suit ${"HD".includes(a.trump) ? "red" : ""}` }, `${suitSymbol(a.trump)} ${suitName(a.trump)}`)) : null,
    // Personal trump suits, one a player (Calypso).
    a.suits ? item("Trumps", h("span", { id: "own-trumps" }, seats().filter((seat) => a.suits[seat]).map((seat, i) => [i ? ", " : "", `${seat} `, suitEl(a.suits[seat])]))) : null,
    a.mode ? item("Mode", a.mode) : null,
    // Trente et Quarante: the bank, the two rows as dealt so far, and the coup's result.
    a.bank ? item("Bank", a.bank) : null,
    ...[["Black row", "black_row"], ["Red row", "red_row"]].map(([label, key]) => {
      const v = S.views[S.step], row = (v && !v.error && v.bank ? v : a)[key];
      return row ? item(label, h("span", { class: "face-up row", dataset: { row: key } }, row.cards.map((c) => cardEl(c)), ` ${row.total}${row.misdeal ? " (misdeal)" : ""}`)) : null;
    }),
    a.result ? item("Result", h("span", { id: "coup-result" }, a.result + (a.couleur_wins == null ? "" : a.couleur_wins ? " · couleur" : " · inverse"))) : null,
    // The contract in words where the game names it (Auction Solo's "abundance 10 in the turned suit").
    a.contract_name ? item("Contract", h("span", { id: "contract-name" }, `${a.contract_name} by ${a.contract?.declarer ?? a.soloist ?? "?"}`),
      a.contract ? [" · ", value(a.contract)] : null) : a.contract ? item("Contract", value(a.contract)) : null,
    // A pool carried from deal to deal (Colour Whist, Boston de Fontainebleau): before this deal, and after it.
    a.pool != null ? item("Pool", h("span", { id: "pool" }, `${a.pool_before ?? a.match_before?.pool ?? 0} → ${a.pool}`)) : null,
    // Nomination Whist: the card the bidder named, and what play has made known by this step: the
    // ally once he plays it, or the bidder alone.
    named ? item("Named card", h("span", { id: "named-card" }, cardEl(named.named_card),
      named.solo ? " · solo" : named.ally ? ` · ally ${named.ally}` : " · ally not yet known")) : null,
    // Boston de Fontainebleau: the bid with its suit and suit factor.
    a.bid?.contract ? item("Bid", h("span", { id: "bid" }, `${a.bid.contract.replaceAll("_", " ")} in `, suitEl(a.bid.suit),
      a.suit_factor ? ` (×${a.suit_factor})` : "")) : null,
    a.outcome ? item("Outcome", h("span", { id: "outcome", class: `outcome ${a.outcome}`, dataset: { code: a.outcome } }, titled(a.outcome))) : null,
  ));
}

/** The players by seat: the stored match's, else the record's own `players`. */
function players() {
  const named = S.players ?? S.record?.players;
  return named && typeof named === "object" ? Object.entries(named).filter(([, n]) => typeof n === "string") : [];
}

const playerAt = (seat) => Object.fromEntries(players())[seat] ?? Object.fromEntries(players())[recordSeat(seat)];

function renderStepLabel() {
  const n = actionCount(), k = S.step;
  const label = k === 0 ? `The deal (0 of ${n})` : h("span", {}, `Action ${k} of ${n}: `, describe(recordActions()[k - 1]));
  fill("step-label", label);
  $("first").disabled = $("prev").disabled = $("prev-trick").disabled = k === 0;
  $("last").disabled = $("next").disabled = $("next-trick").disabled = k >= n;
}

/** The trick to draw at this step: the one in progress, or the one just completed. */
function trickAt(k) {
  const v = S.views[k];
  if (!v || v.error) return null;
  if (v.trick?.length) return { number: v.trick_number, leader: v.trick[0].seat, plays: v.trick, complete: false };
  const done = (S.adj?.tricks ?? []).find((t) => t.number === (v.trick_number ?? 0) - 1);
  return done && k > 0 ? { ...done, complete: true } : null;
}

/** The ruling on a card played in a trick, if any. */
function irregularityOn(trick, play) {
  return (S.adj?.irregularities ?? []).find((i) => i.trick === trick.number && i.seat === play.seat && i.card === play.card);
}

function renderTable() {
  // Past a record error nothing more was replayed: the seats hold what they held when it stopped.
  const k = Math.min(S.step, S.adj?.record_error?.action_index ?? S.step), v = S.views[k];
  const compass = seats().join("") === "NESW";
  const table = $("table");
  table.className = `table ${compass ? "compass" : "ring"}`;
  const toAct = v && !v.error ? v.to_act ?? [] : [];
  const legalCards = new Set((v?.legal ?? []).map((a) => playedCard(verbOf(a)[1])).filter(isCard));
  const declarer = S.adj?.contract?.declarer;
  // The declarer as the game names his camp (Auction Solo's soloist), and his hand once exposed
  // (the whist family's open contracts all name it `exposed_hand`).
  const declarerTag = (S.adj?.camps ?? []).find((c) => c.seats?.includes(declarer))?.role ?? "declarer";
  const shownView = v && !v.error ? v : S.adj;
  const exposed = shownView?.exposed_hand?.length ? shownView.exposed_hand : null;
  // The declarer's partners this hand (an acceptor, a Hole partner, a pair's second): his camp's other seats.
  const partners = (S.adj?.camps ?? []).find((c) => (c.seats ?? []).includes(declarer))?.seats?.filter((s) => s !== declarer) ?? [];
  const seatBoxes = seats().map((seat) => {
    // The engine's own hands (cards taken in by spoils, draws, a widow included); a refused
    // record has no position, only its deal as written.
    const held = v && !v.error ? v.hands?.[seat] : S.record.deal?.[recordSeat(seat)];
    const cards = Array.isArray(held) ? held.filter(isCard) : [];
    const acting = toAct.includes(seat);
    const player = playerAt(seat);
    // Calypso: each player's own trump suit and what he has built (calypsos, cards in progress, won).
    const own = (v && !v.error ? v.suits : S.adj?.suits)?.[seat];
    const piles = (v && !v.error ? v.piles : S.adj?.piles)?.[seat];
    // Trente et Quarante: each punter's bets (imprisoned ones carried), with what became of them.
    // Mid-coup the position's bets; at the end the ruling's, with their fates.
    const bets = ((v && !v.error && k < actionCount() ? v.bets : S.adj?.bets) ?? []).filter((b) => b.punter === seat);
    // Stubs & Spoils, Royal Porcio: the stubs in front of the seat so far (a trick's stub once it is
    // complete); Royal Porcio's duone cards in front of him in the auction and spoils turned round.
    const done = v?.phase === "over" || !v || v.error ? Infinity : (v.trick_number ?? 1) - (v.phase === "spoil" ? 0 : 1);
    const stubs = (S.adj?.tricks ?? []).filter((t) => t.stub?.seat === seat && t.number <= done).map((t) => t.stub.card);
    const inFront = ((v && !v.error ? v.duone_cards : null) ?? []).filter((p) => p.seat === seat).map((p) => p.card);
    const reversed = ((v && !v.error ? v.reversed : S.adj?.reversed) ?? []).filter((p) => p.seat === seat).map((p) => p.card);
    return h("section", { class: `seat seat-${seat}${acting ? " acting" : ""}`, dataset: { seat }, "aria-label": `Seat ${seatLabel(seat)}` },
      h("h4", {}, seatLabel(seat), player ? h("span", { class: "player" }, ` · ${player}`) : "",
        seat === engineSeat(S.record.dealer) ? h("span", { class: "tag" }, "dealer") : null,
        seat === declarer ? h("span", { class: "tag" }, v?.solo ? `${declarerTag} · solo` : declarerTag) : null,
        // An open contract (misère ouverte, ouvert, open abundance or slam): the soloist's hand lies exposed.
        seat === declarer && exposed ? h("span", { class: "tag open-hand", title: `exposed: ${exposed.join(" ")}` }, "open hand") : null,
        partners.includes(seat) && v?.ally !== seat ? h("span", { class: "tag partner" }, "partner") : null,
        v?.ally === seat ? h("span", { class: "tag ally" }, "ally") : null,
        // Boston de Fontainebleau: the supporter once he has accepted.
        seat === shownView?.supporter ? h("span", { class: "tag supporter" }, "supporter") : null,
        own ? h("span", { class: "tag own-trump", title: `${seat}'s own trump suit: ${suitName(own)}` }, "trump ", suitEl(own)) : null,
        acting ? h("span", { class: "tag act" }, "to act") : null,
        h("span", { class: "count" }, plural(cards.length, "card"))),
      piles ? h("p", { class: "piles small" }, `${plural(piles.calypsos ?? 0, "calypso")} · building ${(piles.in_progress ?? []).length} · won ${(piles.won ?? []).length}`) : null,
      inFront.length ? h("p", { class: "duone small" }, "duone ", inFront.map((c) => cardEl(c))) : null,
      stubs.length ? h("p", { class: "stubs small" }, `${plural(stubs.length, "stub")} `, stubs.map((c) => cardEl(c))) : null,
      reversed.length ? h("p", { class: "reversed small" }, "turned round ", reversed.map((c) => cardEl(c))) : null,
      bets.length ? h("p", { class: "bets small" }, bets.map((b) => `${b.spot} ${b.stake}${b.insurance ? ` (insured ${b.insurance})` : ""}${b.imprisoned_before ? " imprisoned" : ""}${b.fate === "open" ? "" : ` · ${b.fate.replace("_", " ")}`}`).join(", ")) : null,
      h("div", { class: "hand-cards" }, cards.map((c) => cardEl(c, {
        data: acting && legalCards.has(c) ? { legal: "true" } : {},
        note: acting && legalCards.has(c) ? "a legal play" : undefined,
      }))));
  });
  table.replaceChildren(...seatBoxes, h("div", { class: "centre", "aria-label": "The table" }, centre(S.step)));
}

function centre(k) {
  const v = S.views[k];
  const err = S.adj?.record_error;
  if (v?.error || (err && k > err.action_index)) {
    const at = err?.action_index;
    const a = at != null ? recordActions()[at] : null;
    return [h("p", { class: "stopped" }, k > at + 1 ? `✖ The replay stopped at action ${at + 1}` : "✖ The replay stopped here"),
      a ? h("p", {}, describe(a), " was not accepted:") : null,
      h("p", { class: "small" }, err?.detail ?? v?.error?.detail ?? "")];
  }
  const t = trickAt(k);
  const bits = [];
  if (t) {
    bits.push(h("p", { class: "trick-head" }, `Trick ${t.number}`, ` · ${t.leader} leads`,
      // A tied trick (Truco) belongs to nobody: its winner is null.
      t.complete ? h("span", { class: "winner" }, t.winner ? ` · won by ${t.winner}` : " · tied") : null));
    bits.push(h("div", { class: "trick" }, t.plays.map((p) => {
      const irr = irregularityOn(t, p);
      const established = (v?.irregularities ?? []).some((i) => i.action_index === irr?.action_index);
      const note = irr ? `${titled(irr.code)}${established ? "" : " (not yet established)"}` : undefined;
      return h("figure", {
        class: `played played-${p.seat}${t.complete && p.seat === t.winner ? " won" : ""}${irr ? " irregular" : ""}`,
        dataset: { seat: p.seat, card: p.card ?? "" },
      }, cardEl(p.card, { faceDown: p.face_down, note }), h("figcaption", {}, p.seat, p === t.plays[0] ? " (led)" : "",
        irr ? h("span", { class: "mark", dataset: { code: irr.code } }, `⚠ ${titled(irr.code)}`) : null));
    })));
  } else if (v?.current) {
    bits.push(...combination(v, k));
  } else if (Array.isArray(v?.discard_pile)) {
    bits.push(...rummyTable(v, k));
  } else if (v?.piles && v.wastepile != null) { // Zetema's rank piles (Calypso's piles are per seat)
    bits.push(...piles(v, k));
  } else if (v?.bank) {
    bits.push(...coup(v, k));
  } else {
    bits.push(h("p", { class: "trick-head" }, v?.phase ? `Phase: ${v.phase}` : "No trick yet"), ...pots(v, k), ...ownCards(v));
  }
  if (v && !v.error && v.to_act?.length) bits.push(h("p", { class: "small" }, `${v.to_act.map(seatLabel).join(", ")} to act (${v.phase})`));
  const tally = v && !v.error ? tallyShown(v.tally) : null;
  if (tally) bits.push(tallyLine(tally));
  if (v && !v.error) bits.push(...theLine(v));
  return bits;
}

/** The card of a play's value: the value itself, or its `card` (Spinado's `{card, spinado}`). */
const playedCard = (val) => (val && typeof val === "object" && !Array.isArray(val) ? val.card : val);

/**
 * A game of pots (Spinado): the cards the step's action played, a card held back at it (in its
 * holder's name, marked with the irregularity), the pots on the table and the card the sequence
 * waits for.
 */
function pots(v, k) {
  if (!v || v.error || !v.pots || typeof v.pots !== "object") return [];
  const played = byAction(S.adj?.events, k - 1).filter((e) => e.seat && (e.cards ?? []).length && e.code !== "pot_taken");
  const held = byAction(S.adj?.irregularities, k - 1).filter((i) => i.card);
  const figure = (seat, card, caption, irr) => h("figure", { class: `played${irr ? " irregular" : ""}`, dataset: { seat, card } },
    cardEl(card, { note: irr ? titled(irr.code) : undefined }), h("figcaption", {}, caption,
      irr ? h("span", { class: "mark", dataset: { code: irr.code } }, ` ⚠ ${titled(irr.code)}`) : null));
  return [
    played.length || held.length ? h("div", { class: "trick" },
      played.flatMap((e) => e.cards.map((c) => figure(e.seat, c, seatLabel(e.seat)))),
      held.map((i) => figure(i.seat, i.card, `${seatLabel(i.seat)} held back`, i))) : null,
    h("p", { class: "pots", id: "pots" }, "Pots: ", Object.entries(v.pots).map(([pot, n], i) => [i ? " · " : "",
      h("span", { dataset: { pot } }, `${pot} ${n}`)])),
    v.due ? h("p", { class: "small due" }, "Next in sequence: ", cardEl(v.due.card), ` (${seatLabel(v.due.holder)})`)
      : v.last ? h("p", { class: "small due" }, `Play stopped: ${seatLabel(v.last)} starts anew`) : null,
  ];
}

/**
 * Poke: each player's draws and what they cost him (his opponent's tricks ×2, ×4), and the points
 * below the line and games won so far in the rubber, from the match state.
 */
function theLine(v) {
  if (!v.draws) return [];
  const draws = Object.entries(v.draws).map(([seat, d]) => h("span", { dataset: { seat } },
    `${seat} ${plural(d.draws, "draw")}${d.doubling === "undoubled" ? "" : `, ${d.doubling}`}`));
  const m = v.match_state ?? {};
  const below = Object.keys(v.draws).map((seat) =>
    `${seat} ${m.below_line?.[seat] ?? 0} (${plural(m.games?.[seat] ?? 0, "game")})`);
  return [h("p", { class: "draws small", id: "draws" }, "Draws: ", draws.map((d, i) => [i ? " · " : "", d])),
    h("p", { class: "below-line small", id: "below-line" }, `Below the line: ${below.join(" · ")}`)];
}

/** The fields every table view has; the others are the game's own (`TableView.details`). */
const VIEW_FIELDS = new Set(["phase", "to_act", "trick_number", "trick", "trump", "hand", "hands", "hand_sizes", "tally", "irregularities", "match_state", "legal", "error"]);

/**
 * Before the tricks, the game's own cards in the view, by name (Calabrasella's widow, discards and
 * cards set aside; Imperial Tarot's People): what lies on the table beside the hands.
 */
function ownCards(v) {
  if (!v || v.error) return [];
  return Object.entries(v).filter(([k, x]) => !VIEW_FIELDS.has(k) && Array.isArray(x) && x.length && x.every(isCard))
    .map(([k, x]) => h("p", { class: "own-cards", dataset: { field: k } }, `${k.replaceAll("_", " ")}: `, x.map((c) => cardEl(c))));
}

/**
 * A game of turns (Big Two): the combination to beat, as the engine's view has it, marked with
 * the irregularity of the action that played it (an invalid combination stands).
 */
function combination(v, k) {
  const cur = v.current;
  const same = (cards) => Array.isArray(cards) && [...cards].sort().join() === [...cur.cards].sort().join();
  const play = (S.adj?.events ?? []).filter((e) => e.action_index < k && e.seat === cur.seat && same(e.cards)).pop();
  const irr = play ? byAction(S.adj?.irregularities, play.action_index).find((i) => i.seat === cur.seat) : null;
  const note = irr ? titled(irr.code) : undefined;
  return [
    h("p", { class: "trick-head" }, `To beat: ${cur.seat}'s ${cur.shape?.replaceAll("_", " ") ?? "invalid combination"}`,
      v.passes ? ` · ${v.passes} pass${v.passes === 1 ? "" : "es"} since` : ""),
    h("div", { class: "trick" }, h("figure", {
      class: `played combination${irr ? " irregular" : ""}`, dataset: { seat: cur.seat, cards: cur.cards.join(" ") },
    }, h("div", { class: "cards" }, cur.cards.map((c) => cardEl(c, { note }))),
    h("figcaption", {}, cur.seat, play ? ` (${actionNumber(play.action_index)})` : "",
      irr ? h("span", { class: "mark", dataset: { code: irr.code } }, `⚠ ${titled(irr.code)}`) : null))),
  ];
}

/**
 * A rummy game's table, as the engine's view has it: the stock or stocks, the pot, the top of the
 * discard pile and the melds on the table. Tong-Its lists its melds in one row, each with its owner
 * and numbered as a lay-off names it; Hand and Foot by side, a closed pile named by its kind.
 */
function rummyTable(v, k) {
  const pile = v.discard_pile ?? [];
  // The last irregularity before this step, marked with the action that made it and its card, or
  // the cards its event names (none for a Tong-Its call, which ends the hand).
  const irr = (v.irregularities ?? []).filter((i) => i.action_index < k).pop();
  const made = irr ? (S.adj?.events ?? []).find((e) => e.action_index === irr.action_index && e.seat === irr.seat) : null;
  const stock = Array.isArray(v.stocks) ? `stocks ${v.stocks.join(" / ")}` : `stock ${plural(v.stock ?? 0, "card")}`;
  const groups = Array.isArray(v.melds) ? (v.melds.length ? [[null, v.melds]] : []) : Object.entries(v.melds ?? {}).filter(([, m]) => m.length);
  return [
    irr ? h("p", { class: "played irregular", dataset: { seat: irr.seat, card: irr.card ?? "", cards: (made?.cards ?? []).join(" ") } },
      `${seatLabel(irr.seat)} (${actionNumber(irr.action_index)}): ${made?.detail ?? ""} `, irr.card ? [cardEl(irr.card), " "] : "",
      h("span", { class: "mark", dataset: { code: irr.code } }, `⚠ ${titled(irr.code)}`)) : null,
    h("p", { class: "trick-head" }, `Phase: ${v.phase}`, ` · ${stock}`,
      v.pot != null ? ` · pot ${v.pot}` : "", v.draw_call ? ` · ${seatLabel(v.draw_call)} called draw` : ""),
    h("p", { class: "discards" }, "Discard pile: ",
      pile.length ? [cardEl(pile[pile.length - 1]), pile.length > 1 ? ` (${plural(pile.length, "card")})` : ""] : "empty"),
    ...groups.map(([side, melds]) => h("ol", { class: "melds", start: "0", dataset: { side: side ?? "" }, "aria-label": side ? `${side} melds` : "Melds on the table" },
      melds.map((m, i) => h("li", { class: `meld${m.face_down ? " face-down" : ""}`, dataset: { owner: m.owner ?? side, index: String(i), pile: m.pile ?? "" } },
        h("span", { class: "owner" }, side ? `${side}${m.pile ? `, ${m.pile} pile` : ""}` : `${i}. ${seatLabel(m.owner)}`),
        h("span", { class: "cards" }, m.cards.map((c) => cardEl(c, { faceDown: m.face_down }))))))),
  ];
}

/**
 * A game of piles (Zetema): the stock and wastepile counts, each rank pile's cards (bottom
 * first), the melds declared in the turn and every side's running total.
 */
function piles(v, k) {
  const melds = v.melds ?? [];
  const last = lastDeclarationOrDiscard(k);
  return [
    h("p", { class: "trick-head" }, `Stock ${v.stock_left} · wastepile ${v.wastepile}`),
    last ? h("div", { class: "trick" }, last) : null,
    h("div", { class: "trick piles", id: "piles" }, Object.entries(v.piles).map(([rank, cards]) =>
      h("figure", { class: "played pile", dataset: { pile: rank } },
        h("div", { class: "cards" }, cards.map((c) => cardEl(c))),
        h("figcaption", {}, `${rank} pile · ${cards.length}`)))),
    melds.length ? h("p", { class: "small", id: "turn-melds" }, "Declared this turn: ",
      melds.map((m, i) => [i ? " · " : "", h("span", { class: "meld" }, m.join(" "))])) : null,
    v.totals ? h("p", { class: "small", id: "totals" }, "Totals: ", Object.entries(v.totals).map(([side, n], i) =>
      [i ? " · " : "", h("span", { dataset: { side } }, `${side} ${n}`)])) : null,
  ];
}

/**
 * The action just recorded when it put cards forward (a discard, a meld, marriages; a false one
 * too), marked with the irregularity it committed.
 */
function lastDeclarationOrDiscard(k) {
  const a = recordActions()[k - 1];
  if (!a || typeof a !== "object") return null;
  const discard = a.discard !== undefined ? (typeof a.discard === "string" ? a.discard : a.discard?.card) : null;
  const cards = discard != null ? [discard]
    : Array.isArray(a.meld?.cards) ? a.meld.cards
    : Array.isArray(a.marriages) ? a.marriages.flatMap((p) => [p?.king, p?.queen]) : null;
  if (!cards) return null;
  const seat = engineSeat(a.seat);
  const irr = byAction(S.adj?.irregularities, k - 1).find((i) => i.seat === seat);
  const note = irr ? titled(irr.code) : undefined;
  const what = discard != null ? "discards" : a.meld ? `declares a ${String(a.meld.type).replaceAll("_", " ")}` : "declares marriages";
  return h("figure", {
    class: `played${irr ? " irregular" : ""}`,
    dataset: discard != null ? { seat, card: discard } : { seat, cards: cards.join(" ") },
  }, h("div", { class: "cards" }, cards.filter(isCard).map((c) => cardEl(c, { note }))),
  h("figcaption", {}, `${seatLabel(seat)} ${what} (${actionNumber(k - 1)})`,
    irr ? h("span", { class: "mark", dataset: { code: irr.code } }, `⚠ ${titled(irr.code)}`) : null));
}

/**
 * Trente et Quarante: the rows dealt so far with their totals, and the action just taken, marked
 * with its irregularity (a misdealt row, an insurance over the limit).
 */
function coup(v, k) {
  const rows = [["black", v.black_row], ["red", v.red_row]].filter(([, r]) => r).map(([name, r]) =>
    h("p", { class: "own-cards", dataset: { field: `${name}_row` } }, `${name} row ${r.total}: `, r.cards.map((c) => cardEl(c))));
  const e = (S.adj?.events ?? []).find((x) => x.action_index === k - 1 && x.seat);
  const irr = e ? byAction(S.adj?.irregularities, e.action_index).find((i) => i.seat === e.seat) : null;
  const last = e ? h("div", { class: "trick" }, h("figure", {
    class: `played combination${irr ? " irregular" : ""}`, dataset: { seat: e.seat, cards: e.cards.join(" ") },
  }, h("div", { class: "cards" }, e.cards.map((c) => cardEl(c, { note: irr ? titled(irr.code) : undefined }))),
  h("figcaption", {}, e.detail, irr ? h("span", { class: "mark", dataset: { code: irr.code } }, ` ⚠ ${titled(irr.code)}`) : null))) : null;
  return [h("p", { class: "trick-head" }, `Coup · ${v.phase}`), ...rows, last];
}

function tallyLine(tally) {
  // The separator stays outside each side's unbreakable span, so that a narrow screen can wrap
  // the line between sides.
  return h("p", { class: "tally", id: "tally" }, "Tally: ", Object.entries(tally).map(([side, t], i) => [i ? " · " : "",
    h("span", { dataset: { side } }, `${side} `,
      typeof t === "object" ? Object.entries(t).map(([f, n]) => `${n} ${f.replaceAll("_", " ")}`).join(", ") : String(t))]));
}

/** What happened at the action just taken: the director's notes. */
function renderStepNotes() {
  const k = S.step - 1, a = S.adj;
  const notes = [];
  for (const irr of byAction(a?.irregularities, k)) notes.push(irregularityCard(irr, "step-irregularity"));
  for (const e of k < 0 ? S.dealEvents : byAction(a?.events, k)) {
    notes.push(h("p", { class: "event", dataset: { code: e.code ?? "" } }, "• ", e.detail ?? titled(e.code), e.cards ? [" ", value(e.cards)] : null));
  }
  for (const c of byAction(a?.corrected_revokes, k)) notes.push(h("p", { class: "event" }, "↺ corrected: ", value(c)));
  // A penalty is the irregularity's: its card above says it once, with its points.
  const penalty = (item) => item.source === "penalty" && byAction(a?.irregularities, k).some((i) => i.code === item.code);
  for (const item of byAction(a?.score_items, k).filter((i) => !penalty(i))) {
    notes.push(h("p", { class: "event score-item" }, "± ", titled(item.code), `: ${item.side} ${signed(item.points)}`));
  }
  for (const i of byAction(a?.ignored_actions, k)) notes.push(h("p", { class: "event ignored" }, "✕ ignored: ", i.reason ?? ""));
  if (a?.record_error && a.record_error.action_index === k) {
    notes.push(h("p", { class: "problem" }, `✖ ${titled(a.record_error.code)}: ${a.record_error.detail ?? ""}`));
  }
  fill("step-notes", ...notes);
}

const KNOWN = new Set(["code", "action_index", "trick", "seat", "card", "rule", "explanation", "consequence", "effect"]);

const signed = (n) => (typeof n === "number" && n > 0 ? `+${n}` : String(n));

/** A penalty's numbers, once: the points it moved and what it decided ("NS +2 · decides the game"). */
function effectLine(effect) {
  const points = Object.entries(effect?.points ?? {}).map(([side, n]) => `${side} ${signed(n)}`);
  const decides = effect?.decides ? `decides the ${effect.decides}` : null;
  const parts = [...points, decides].filter(Boolean);
  return parts.length ? h("p", { class: "effect" }, "Penalty: ", parts.join(" · ")) : null;
}

function irregularityCard(irr, cls) {
  const extra = Object.entries(irr).filter(([k]) => !KNOWN.has(k));
  return h("article", { class: `irregularity ${cls ?? ""}`, dataset: { code: irr.code, seat: irr.seat ?? "", card: irr.card ?? "", actionIndex: irr.action_index ?? "" } },
    h("h4", {}, irr.card ? cardEl(irr.card) : null, " ", h("span", { class: "title", title: irr.code }, titled(irr.code)), ` by ${irr.seat ?? "?"}`,
      irr.trick ? ` in trick ${irr.trick}` : "", irr.action_index != null ? `, ${actionNumber(irr.action_index)}` : ""),
    irr.explanation ? h("p", {}, irr.explanation) : null,
    irr.rule ? h("p", { class: "rule" }, "Rule: ", irr.rule) : null,
    irr.consequence ? h("p", { class: "consequence" }, "Consequence: ", irr.consequence) : null,
    effectLine(irr.effect),
    extra.length ? h("dl", { class: "extra" }, extra.map(([k, v]) => h("div", {}, h("dt", {}, k.replaceAll("_", " ")), h("dd", {}, value(v))))) : null,
  );
}

function renderIrregularities() {
  const list = S.adj?.irregularities ?? [];
  fill("irregularities", list.length
    ? h("div", {}, list.map((irr) => {
      const card = irregularityCard(irr);
      if (irr.action_index != null) {
        card.append(h("button", { type: "button", class: "goto", onclick: () => showRuling(irr.action_index + 1) }, "Go to the card"));
      }
      return card;
    }))
    : h("p", { class: "none" }, S.adj ? "None: the hand was played by the rules." : "—"));
}

function renderActions() {
  const a = S.adj, err = a?.record_error;
  fill("actions", ...recordActions().map((act, i) => {
    const irr = byAction(a?.irregularities, i);
    const ignored = byAction(a?.ignored_actions, i).length > 0;
    const stopped = err?.action_index === i;
    return h("li", { class: `${i + 1 === S.step ? "current" : ""}${ignored ? " ignored" : ""}`, "aria-current": i + 1 === S.step ? "step" : false },
      h("button", { type: "button", class: "link", onclick: () => setStep(i + 1) }, describe(act)),
      irr.map((x) => h("span", { class: "mark", dataset: { code: x.code } }, ` ⚠ ${titled(x.code)}`)),
      ignored ? h("span", { class: "small" }, " (ignored)") : null,
      stopped ? h("span", { class: "mark", dataset: { code: err.code } }, ` ✖ ${titled(err.code)}`) : null);
  }));
}

function renderTricks() {
  const tricks = S.adj?.tricks ?? [];
  // A game of turns (Big Two) has no tricks to list.
  $("tricks-section").hidden = Boolean(S.adj) && !hasTricks();
  if (!tricks.length) return fill("tricks", h("p", { class: "none" }, "No trick completed."));
  const ends = trickEnds();
  const extraKeys = [...new Set(tricks.flatMap((t) => Object.keys(t)))].filter((k) => !["number", "leader", "plays", "winner"].includes(k));
  const current = trickAt(S.step)?.number;
  fill("tricks", h("div", { class: "scroll" }, h("table", { class: "data tricks" },
    h("thead", {}, h("tr", {}, ["#", "led by", "plays", "won by", ...extraKeys.map((k) => k.replaceAll("_", " "))].map((x) => h("th", { scope: "col" }, x)))),
    h("tbody", {}, tricks.map((t, i) => h("tr", { class: t.number === current ? "current" : "" },
      h("td", {}, ends[i] !== undefined ? h("button", { type: "button", class: "link", onclick: () => setStep(ends[i]), "aria-label": `Go to trick ${t.number}` }, t.number) : t.number),
      h("td", {}, t.leader),
      h("td", { class: "plays" }, (t.plays ?? []).map((p) => {
        const irr = irregularityOn(t, p);
        return h("span", { class: `seat-card${irr ? " irregular" : ""}` }, p.seat, " ", cardEl(p.card, { faceDown: p.face_down, note: irr ? titled(irr.code) : undefined }));
      })),
      h("td", {}, t.winner ?? "tied"),
      extraKeys.map((k) => h("td", {}, value(t[k])))))))));
}

function renderScore() {
  const a = S.adj;
  if (!a) return fill("score", h("p", { class: "none" }, "No adjudication."));
  const m0 = a.match_before, m1 = a.match_after;
  fill("score", 
    a.hand_winner !== undefined ? h("p", {}, "Hand winner: ", h("b", { id: "hand-winner" }, a.hand_winner ?? "none")) : null,
    sideTable(a.hand_score, "Hand score", "hand-score"),
    a.score_items ? objectTable(a.score_items, { caption: "Score items", empty: "No score items." }) : null,
    objectTable(a.bonuses, { caption: "Bonuses", empty: "No bonuses." }),
    tallyShown(a.tally) ? sideTable(tallyShown(a.tally), "Tally", "final-tally") : null,
    h("div", { class: "scroll" }, h("table", { class: "data", id: "match-state" }, h("caption", {}, "Match state"),
      h("thead", {}, h("tr", {}, h("th", {}), h("th", { scope: "col" }, "before"), h("th", { scope: "col" }, "after"))),
      h("tbody", {}, [...new Set([...Object.keys(m0 ?? {}), ...Object.keys(m1 ?? {})])].map((k) =>
        h("tr", {}, h("th", { scope: "row" }, k.replaceAll("_", " ")), h("td", {}, value(m0?.[k])), h("td", {}, value(m1?.[k]))))))),
    a.events?.length ? objectTable(a.events, { caption: "Events" }) : null,
    a.ignored_actions?.length ? objectTable(a.ignored_actions, { caption: "Ignored actions" }) : null,
    a.corrected_revokes?.length ? objectTable(a.corrected_revokes, { caption: "Corrected revokes" }) : null,
    a.details ? h("p", {}, "Details: ", value(a.details)) : null,
  );
}

/** Steps to `k` and brings the table, its marked trick and the ruling below the step bar. */
function showRuling(k) {
  setStep(k);
  scrollBelowBar($("table"));
}

/** Scrolls `el` to just below the sticky step bar (however the bar wraps). */
function scrollBelowBar(el) {
  const bar = document.querySelector(".stepper").getBoundingClientRect().height;
  window.scrollTo({ top: el.getBoundingClientRect().top + window.scrollY - bar - 8 });
}

/**
 * The sticky step bar's height as the page's scroll padding, so that whatever the desk scrolls to
 * (the what-if, the ruling) is never under the bar, however the bar wraps on a narrow screen.
 */
function padBelowStepper() {
  const bar = document.querySelector(".stepper");
  const pad = () => document.documentElement.style.setProperty("--stepper-h", `${bar.offsetHeight}px`);
  new ResizeObserver(pad).observe(bar);
  pad();
}

// ---------- what if ----------

function renderLegal() {
  const k = S.step, v = S.views[k];
  
  if (!S.adj) return fill("legal", h("p", { class: "none" }, "Load a hand that adjudicates to question it."));
  if (!v || v.error) return fill("legal", h("p", { class: "none" }, "The replay stopped before this step: no legal actions."));
  const next = recordActions()[k];
  // In the record's own seat names, as the recorded action and a what-if's record are written.
  const legal = (v.legal ?? []).map((act) => ({ ...act, seat: recordSeat(act.seat) }));
  fill("legal", 
    h("p", {}, legal.length ? `${v.to_act.map(seatLabel).join(", ")} to act. Legal actions (${legal.length}):` : "Nobody is to act: the hand is over."),
    legal.length ? h("div", { class: "legal", id: "legal-actions" }, legal.map((act) => {
      const [verb, val] = verbOf(act);
      const same = sameAction(act, next);
      const label = isCard(val) ? [act.seat, " ", cardEl(val), verb === "play" ? null : ` ${verb.replaceAll("_", " ")}`] : describe(act);
      return h("button", {
        type: "button", class: `legal-action${same ? " recorded" : ""}`, dataset: { action: JSON.stringify(act) },
        "aria-label": `What if ${act.seat} ${verb.replaceAll("_", " ")} ${isCard(val) ? cardName(val) : val === true ? "" : JSON.stringify(val)}${same ? " (as recorded)" : ""}`,
        onclick: () => whatIf(k, act),
      }, label);
    })) : null,
    next ? h("p", { class: "small" }, "Recorded next: ", describe(next)) : null,
    next ? h("label", { class: "small" }, h("input", { type: "checkbox", id: "swap", checked: S.swap }), " where the seat plays the new card later, play the recorded card there instead (keeps the rest of the record possible)") : null,
    (legal.length || next) && h("form", { class: "row", onsubmit: (e) => {
      e.preventDefault();
      try {
        whatIf(k, JSON.parse(e.target.elements.act.value));
      } catch (err) {
        status(`That action is not JSON: ${err.message}`, "error");
      }
    } },
    h("label", {}, `Or action ${k + 1} as JSON `, h("input", { name: "act", size: 28, value: next ? JSON.stringify(next) : "" })),
    h("button", { type: "submit" }, "Try it")),
  );
}

async function whatIf(k, action) {
  fill("whatif", h("p", {}, "Adjudicating the what-if…"));
  const record = structuredClone(S.record);
  record.actions = [...(record.actions ?? [])];
  const recorded = record.actions[k];
  record.actions[k] = action;
  // Otherwise the new card's own later play would be a card played twice, and the what-if would
  // only say that the record is now wrong.
  S.swap = $("swap")?.checked ?? S.swap;
  const later = S.swap ? swapLater(record.actions, k, recorded, action) : null;
  const res = await api(`/v1/games/${encodeURIComponent(record.game ?? S.game?.id)}/adjudications`, record);
  const changed = res.ok ? diff(S.adj, res.body) : [];
  const col = (title, adj, problem, id) => h("section", { class: "side-by-side", id },
    h("h4", {}, title),
    adj ? h("dl", {},
      h("dt", {}, "outcome"), h("dd", { dataset: { field: "outcome", code: adj.outcome ?? "" } }, adj.outcome ? titled(adj.outcome) : "—"),
      h("dt", {}, "hand score"), h("dd", { dataset: { field: "hand_score" } }, adj.hand_score ? Object.entries(adj.hand_score).map(([s, n]) => `${s} ${n}`).join(" · ") : "—"),
      h("dt", {}, "irregularities"), h("dd", { dataset: { field: "irregularities" } }, (adj.irregularities ?? []).map((i) => `${titled(i.code)} (${[i.seat, i.card].filter(Boolean).join(" ")})`).join(", ") || "none"),
      adj.record_error ? [h("dt", {}, "record error"), h("dd", { dataset: { field: "record_error", code: adj.record_error.code } }, `${titled(adj.record_error.code)}: ${adj.record_error.detail ?? ""}`)] : null,
      hasTricks() ? [h("dt", {}, "trick winners"), h("dd", {}, (adj.tricks ?? []).map((t) => t.winner ?? "tied").join(" ") || "—")] : null,
      h("dt", {}, "match after"), h("dd", {}, adj.match_after ? Object.entries(adj.match_after.scores ?? {}).map(([s, n]) => `${s} ${n}`).join(" · ") : "—"),
    ) : h("p", { class: "problem" }, `Refused: ${problem?.detail ?? problem?.title ?? "error"}`));
  // The record stops where the what-if's hand would go on (it ended at a deciding foul, or the
  // change was the last action): not a fault of the record, and the director may play it on.
  const err = res.ok ? res.body.record_error : null;
  const goesOn = err?.code === "incomplete_hand" && err.action_index === record.actions.length;
  fill("whatif", h("div", { id: "whatif-result" },
    h("p", {}, k < recordActions().length ? `Action ${k + 1} changed to ` : `Action ${k + 1} added: `, describe(action),
      later != null ? [`, and action ${later + 1} to `, describe(record.actions[later]), "; the rest of the record kept as it was."] : "; the rest of the record kept as it was."),
    goesOn ? h("div", { id: "whatif-goes-on", class: "goes-on" },
      h("p", {}, h("b", {}, "The hand would go on. "),
        `The record stops after action ${record.actions.length}, so there is nothing to score yet${err.seat ? `: ${err.seat} is to act next` : ""}.`),
      h("button", { type: "button", id: "whatif-continue", onclick: () => openRecord(record, `what-if of ${S.note}, continued`, record.actions.length) },
        "Continue it: play the rest at the desk")) : null,
    h("div", { class: "pair" }, col("As recorded", S.adj, null, "whatif-before"), col("What if", res.ok ? res.body : null, res.body, "whatif-after")),
    res.ok ? h("details", { open: true }, h("summary", {}, `What changed (${changed.length})`),
      changed.length ? h("div", { class: "scroll" }, h("table", { class: "data", id: "whatif-changes" },
        h("thead", {}, h("tr", {}, ["where", "as recorded", "what if"].map((x) => h("th", { scope: "col" }, x)))),
        h("tbody", {}, changed.slice(0, 60).map(([p, a, b]) => h("tr", {}, h("td", {}, h("code", {}, p)), h("td", {}, value(a)), h("td", {}, value(b)))))))
        : h("p", {}, "Nothing: the adjudication is the same.")) : null,
    h("button", { type: "button", onclick: () => openRecord(record, `what-if of ${S.note}`, k + 1) }, "Open the what-if at the desk"),
  ));
  scrollBelowBar($("whatif"));
}

/**
 * When `action` plays a card its seat plays later in the record, that later play becomes the card
 * `recorded` played (same seat, both cards): returns its index, having changed `actions`.
 */
function swapLater(actions, k, recorded, action) {
  const [, card] = verbOf(action);
  const [, oldCard] = verbOf(recorded);
  if (!isCard(card) || !isCard(oldCard) || recorded?.seat !== action.seat || card === oldCard) return null;
  const j = actions.findIndex((a, i) => i > k && a?.seat === action.seat && verbOf(a)[1] === card);
  if (j < 0) return null;
  actions[j] = { ...actions[j], [verbOf(actions[j])[0]]: oldCard };
  return j;
}

/** Every leaf where two adjudications differ: `[pointer, before, after]`. */
function diff(a, b, path = "", out = []) {
  const obj = (x) => x && typeof x === "object";
  if (obj(a) && obj(b) && Array.isArray(a) === Array.isArray(b)) {
    const keys = Array.isArray(a) ? [...Array(Math.max(a.length, b.length)).keys()] : [...new Set([...Object.keys(a), ...Object.keys(b)])];
    for (const key of keys) diff(a[key], b[key], `${path}/${key}`, out);
  } else if (JSON.stringify(a) !== JSON.stringify(b)) {
    out.push([path || "/", a, b]);
  }
  return out;
}

init().catch((err) => status(`The desk could not start: ${err.message}`, "error"));
