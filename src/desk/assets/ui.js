// Small helpers the desk's views share: building elements, calling the API, generic tables.

import { cardEl, isCard } from "./cards.js";

/** An element: `h("td", {class: "x", dataset: {k: "v"}}, "text", child, [more])`. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
  return el;
}

/** Where the club's key is kept: this tab's session only, never the address bar. */
const CLUB_KEY = "arbiter.club-key";

export function clubKey() {
  return sessionStorage.getItem(CLUB_KEY) ?? "";
}

export function setClubKey(key) {
  if (key.trim()) sessionStorage.setItem(CLUB_KEY, key.trim());
  else sessionStorage.removeItem(CLUB_KEY);
}

/**
 * Calls the API: `{ok, status, body}`; a problem+json body comes back as `body` with ok false.
 * A read of a club (`asMember`) carries the club's key, when the user gave one.
 */
export async function api(path, body, { asMember = false } = {}) {
  const headers = {};
  if (asMember && clubKey()) headers.authorization = `Bearer ${clubKey()}`;
  const init = body === undefined ? { headers } : {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify(body),
  };
  const res = await fetch(path, init);
  const text = await res.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = { title: "Not JSON", detail: text.slice(0, 200) };
  }
  return { ok: res.ok, status: res.status, body: json };
}

/**
 * What to tell the user when a read of club `club` was refused for want of its key (401, 403, or
 * 404 without a key: a members-only club is not there for a stranger); `null` for any other
 * answer.
 */
export function keyProblem(res, club) {
  const given = Boolean(clubKey());
  const why = "enter one of its keys in Club key, under The league (it stays in this tab)";
  if (res.status === 401 && given) return `Could not load: the club key given is unknown or revoked; ${why}.`;
  if (res.status === 401 || (res.status === 404 && !given)) {
    return `Could not load: this view needs club ${club}'s key (or the club does not exist); ${why}.`;
  }
  if (res.status === 403) return `Could not load: the club key given is another club's; this view needs club ${club}'s key.`;
  return null;
}

/** The titles of the game shown (`GameInfo.titles`): a code in words. */
let TITLES = {};

export function setTitles(titles) {
  TITLES = titles ?? {};
}

/** A code as a person reads it: its title from the game, else the code in words. */
export function titled(code) {
  return TITLES[code] ?? String(code ?? "").replaceAll("_", " ");
}

/** Action numbers are 1-based everywhere on the desk, as in the step label and the list of actions. */
export const actionNumber = (index) => (Number.isInteger(index) ? `action ${index + 1}` : "—");

/** A field of an object as the desk shows it: codes titled, action indexes numbered from 1. */
function field(key, v) {
  if (key === "action_index") return ["action", v == null ? "—" : String(v + 1)];
  if (key === "code" && typeof v === "string") return ["", h("span", { class: "titled", dataset: { code: v } }, titled(v))];
  return [key.replaceAll("_", " "), value(v)];
}

/**
 * A value as the desk shows it: cards as cards, a played card as seat and card, a flat or nested
 * object as a phrase ("declarer S, side NS, alone, made"), so fields the desk does not know yet
 * still read well.
 */
export function value(v) {
  if (isCard(v)) return cardEl(v);
  if (v === null || v === undefined) return "—";
  if (Array.isArray(v)) {
    if (!v.length) return "none";
    return h("span", { class: v.every(isCard) ? "cards" : "list" }, v.map((x, i) => [i && !isCard(x) ? "; " : "", value(x)]));
  }
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (typeof v === "object") {
    if (!Object.keys(v).length) return "none";
    // A played card: its seat and card (and whether face down), nothing else.
    if (typeof v.seat === "string" && isCard(v.card) && Object.keys(v).every((k) => ["seat", "card", "face_down"].includes(k))) {
      return h("span", { class: "seat-card" }, v.seat, " ", cardEl(v.card, { faceDown: v.face_down === true }));
    }
    return h("span", {}, Object.entries(v).map(([k, x], i) => {
      const key = k.replaceAll("_", " ");
      const [name, shownValue] = field(k, x);
      const shown = x === true ? key : x === false ? `not ${key}`
        : x && typeof x === "object" && !Array.isArray(x) && !isCard(x.card) ? [key, " (", value(x), ")"]
          : name ? [name, " ", shownValue] : shownValue;
      return [i ? ", " : "", shown];
    }));
  }
  return String(v);
}

/** A table of objects, one column per key any of them has (new fields show up as they come). */
export function objectTable(rows, opts = {}) {
  if (!rows?.length) return h("p", { class: "none" }, opts.empty ?? "None.");
  const keys = [];
  for (const r of rows) for (const k of Object.keys(r)) if (!keys.includes(k)) keys.push(k);
  return h("div", { class: "scroll" }, h("table", { class: opts.class ?? "data" },
    opts.caption ? h("caption", {}, opts.caption) : null,
    h("thead", {}, h("tr", {}, keys.map((k) => h("th", { scope: "col" }, k === "action_index" ? "action" : k.replaceAll("_", " "))))),
    h("tbody", {}, rows.map((r) => h("tr", {}, keys.map((k) => h("td", { dataset: { key: k }, class: typeof r[k] === "number" ? "num" : null },
      k === "action_index" || k === "code" ? field(k, r[k])[1] : value(r[k])))))),
  ));
}

/**
 * Per-side values (`{"NS": 4, "EW": 0}` or `{"NS": {"tricks": 3}, ...}`) as a table: a row per
 * side, a column per field.
 */
export function sideTable(obj, caption, id) {
  if (!obj || typeof obj !== "object") return h("p", { class: "none" }, `${caption}: none.`);
  const sides = Object.keys(obj);
  const nested = sides.some((s) => obj[s] && typeof obj[s] === "object");
  const fields = nested ? [...new Set(sides.flatMap((s) => Object.keys(obj[s] ?? {})))] : ["points"];
  return h("div", { class: "scroll" }, h("table", { class: "data side", id },
    h("caption", {}, caption),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "side"), fields.map((f) => h("th", { scope: "col" }, f.replaceAll("_", " "))))),
    h("tbody", {}, sides.map((s) => h("tr", { dataset: { side: s } }, h("th", { scope: "row" }, s),
      fields.map((f) => h("td", { dataset: { field: f } }, value(nested ? obj[s]?.[f] : obj[s])))))),
  ));
}
