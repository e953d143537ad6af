// Cards as a card player reads them: rank and suit symbol in the suit's colour, tarot trumps by
// number, the Fool and jokers by name; every card carries its name as a text alternative.

const SUITS = {
  S: { symbol: "♠", name: "spades", red: false },
  H: { symbol: "♥", name: "hearts", red: true },
  D: { symbol: "♦", name: "diamonds", red: true },
  C: { symbol: "♣", name: "clubs", red: false },
};
const RANKS = {
  A: ["A", "ace"], K: ["K", "king"], Q: ["Q", "queen"], C: ["C", "cavalier"], J: ["J", "jack"],
  T: ["10", "ten"], 9: ["9", "nine"], 8: ["8", "eight"], 7: ["7", "seven"], 6: ["6", "six"],
  5: ["5", "five"], 4: ["4", "four"], 3: ["3", "three"], 2: ["2", "two"],
};
const SPECIAL = {
  JK: ["★", "Joker", "the joker"],
  BJ: ["★", "Big joker", "the big joker"],
  LJ: ["☆", "Little joker", "the little joker"],
  FOOL: ["✦", "Fool", "the Fool"],
};

export const suitSymbol = (s) => SUITS[s]?.symbol ?? s;
export const suitName = (s) => SUITS[s]?.name ?? s;

/** What a card is called, e.g. "ten of hearts", "trump 21", "the joker". */
export function cardName(code) {
  if (typeof code !== "string") return "a card";
  if (SPECIAL[code]) return SPECIAL[code][2];
  const tarot = /^T(\d{1,2})$/.exec(code);
  if (tarot) return `trump ${tarot[1]}`;
  const rank = RANKS[code.slice(0, -1)];
  const suit = SUITS[code.slice(-1)];
  return rank && suit ? `${rank[1]} of ${suit.name}` : code;
}

/** Does this string look like a card? (Actions carry cards, booleans, numbers and suits.) */
export function isCard(v) {
  return typeof v === "string" &&
    (SPECIAL[v] !== undefined || /^T\d{1,2}$/.test(v) ||
      (v.length >= 2 && RANKS[v.slice(0, -1)] !== undefined && SUITS[v.slice(-1)] !== undefined));
}

/**
 * A card element. `opts.note` is added to its text alternative (e.g. "revoke"); `opts.tag`
 * chooses the element; `opts.faceDown` marks a card played face down.
 */
export function cardEl(code, opts = {}) {
  const el = document.createElement(opts.tag ?? "span");
  el.className = "card";
  el.dataset.card = code;
  let face;
  // A card played face down is drawn face up but marked: the director sees what it was.
  if (opts.faceDown) el.classList.add("face-down");
  if (SPECIAL[code]) {
    el.classList.add("special");
    face = [SPECIAL[code][0], SPECIAL[code][1]];
  } else if (/^T\d{1,2}$/.test(code)) {
    el.classList.add("tarot");
    face = [code.slice(1), "trump"];
  } else {
    const suit = SUITS[code.slice(-1)];
    const rank = RANKS[code.slice(0, -1)];
    if (suit?.red) el.classList.add("red");
    face = [rank ? rank[0] : code.slice(0, -1), suit ? suit.symbol : code.slice(-1)];
  }
  const r = document.createElement("span");
  r.className = "rank";
  r.textContent = face[0];
  const s = document.createElement("span");
  s.className = "pip";
  s.textContent = face[1];
  el.append(r, s);
  const name = (opts.faceDown ? "face down: " : "") + cardName(code) + (opts.note ? `, ${opts.note}` : "");
  if (el.tagName === "SPAN") el.setAttribute("role", "img");
  el.setAttribute("aria-label", name);
  el.title = name;
  for (const [k, v] of Object.entries(opts.data ?? {})) el.dataset[k] = v;
  return el;
}
