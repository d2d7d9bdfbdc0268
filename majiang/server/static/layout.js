// The table's layout as pure functions (no DOM, no language): where each seat sits for a
// viewer, rivers in rows of six, the hand's order, the claim bar's order, how a meld is
// laid down. table.js draws from these; tests/js/layout.test.mjs checks them with node.

import { parseTiles, sortTiles } from "./faces.js";

/** Screen places counter-clockwise from the viewer: 下家 on the right, 对家 on top, 上家
 * on the left (play goes counter-clockwise on screen, as at a real table). */
export const PLACES = ["me", "right", "top", "left"];

/** Where `seat` sits on the screen of a viewer at `bottom`. */
export function placeOf(seat, bottom) {
  return PLACES[(((seat - bottom) % 4) + 4) % 4];
}

/** The seat at a screen place for a viewer at `bottom`. */
export function seatAt(place, bottom) {
  return (bottom + PLACES.indexOf(place)) % 4;
}

/** A seat's wind index (0 东 … 3 北) in a hand dealt by `dealer`. */
export function windIndex(seat, dealer) {
  return (((seat - dealer) % 4) + 4) % 4;
}

/** A river in rows of `n` (six on every table), oldest first. */
export function rows(tiles, n = 6) {
  const out = [];
  for (let i = 0; i < tiles.length; i += n) out.push(tiles.slice(i, i + n));
  return out;
}

/** The concealed tiles as shown: sorted (万, 筒, 条, honours), the tile just drawn set
 * apart at the right end (one copy of it, if it is in the hand). */
export function handOrder(hand, drawn) {
  const tiles = sortTiles(Array.isArray(hand) ? hand : parseTiles(hand));
  if (drawn && tiles.includes(drawn)) {
    tiles.splice(tiles.lastIndexOf(drawn), 1);
    return { tiles, drawn };
  }
  return { tiles, drawn: null };
}

const CLAIM_RANK = { hu: 0, kong: 1, peng: 2, chi: 3, pass: 9 };

/** The claim bar's order of the legal actions (their indices): 胡 first, then 杠, 碰,
 * 吃, other declarations, 过 last; discards are not on the bar. */
export function claimOrder(legal) {
  return legal
    .map((a, i) => [a, i])
    .filter(([a]) => a.type !== "discard")
    .sort(([a, i], [b, j]) => (CLAIM_RANK[a.type] ?? 5) - (CLAIM_RANK[b.type] ?? 5) || i - j)
    .map(([, i]) => i);
}

/** How a meld lies on the table: per tile {tile, back, turned}. A claimed meld turns one
 * tile sideways on the side of the seat it came from (上家 left, 对家 middle, 下家 right);
 * a concealed kong shows two backs and two faces, all four faces to its owner, four backs
 * when its tiles are hidden. */
export function meldTiles(meld, seat, viewer) {
  const tiles = parseTiles(meld.tiles);
  if (meld.kind === "kong_concealed") {
    if (!tiles.length) return [0, 1, 2, 3].map(() => ({ tile: "1z", back: true, turned: false }));
    const own = seat === viewer;
    return tiles.map((tile, i) => ({ tile, back: !own && (i === 0 || i === 3), turned: false }));
  }
  let turned = -1;
  if (meld.source != null && meld.source !== seat) {
    const from = (((meld.source - seat) % 4) + 4) % 4; // 3 上家, 2 对家, 1 下家
    turned = from === 3 ? 0 : from === 2 ? 1 : tiles.length - 1;
  }
  return tiles.map((tile, i) => ({ tile, back: false, turned: i === turned }));
}

/** The seat the pointer lights: the viewer while it has a decision, else the seat whose
 * turn it is (none once the hand is over). */
export function pointerSeat({ current, phase, mine, deciding }) {
  if (phase === "end") return null;
  if (deciding && mine != null) return mine;
  return current ?? null;
}

/** What is new since the last screen, to animate: a discard (seat and river length), a
 * draw into the viewer's hand, a meld. `before` and `after` are snapshots made by
 * `motionKey`. Returns {discard: seat|null, draw: bool, meld: seat|null}. */
export function newMotion(before, after) {
  const out = { discard: null, draw: false, meld: null };
  if (!before || !after || before.hand !== after.hand) return out;
  for (let s = 0; s < 4; s++) {
    if (after.rivers[s] === before.rivers[s] + 1) out.discard = s;
    if (after.melds[s] === before.melds[s] + 1) out.meld = s;
  }
  out.draw = Boolean(after.drawn) && after.handSize > before.handSize;
  return out;
}

/** The counts `newMotion` compares, from a View (docs/protocol.md 2). */
export function motionKey(view, handIndex, mine) {
  const own = mine != null ? view.seats[mine] : null;
  return {
    hand: handIndex,
    rivers: view.seats.map((s) => (s.discards || []).length),
    melds: view.seats.map((s) => (s.melds || []).length),
    drawn: own ? own.drawn || null : null,
    handSize: own ? own.hand_size : 0,
  };
}
