// Why a choice is not open to the seat now, from the variant's restriction declarations
// (GET /api/variants `restrictions`, each with the `limits` it takes away) and the
// restrictions a message says are in force (docs/protocol.md). Pure: no DOM, no language;
// the page puts the words in (game.js).

/** What a restriction may limit (majiang.rules.base.RESTRICTION_LIMITS). */
export const LIMITS = ["discard", "win", "claim", "kong"];

/** The restrictions in force (`[{id, detail}]`) that limit `what`, each with its
 * declaration: `[{id, detail, declared}]`; one in force but undeclared is kept (its id). */
export function limiting(inForce, declared, what) {
  const out = [];
  for (const r of inForce || []) {
    const d = (declared || []).find((x) => x.id === r.id) || null;
    if (!d || (d.limits || []).includes(what)) out.push({ id: r.id, detail: r.detail || "", declared: d });
  }
  return out;
}

/** Whether it is the seat's moment to discard: a discard among its legal actions. */
export function discardTurn(legal) {
  return (legal || []).some((a) => a.type === "discard");
}

/** The tiles of `hand` (single tiles) that may not be discarded now: none outside the
 * seat's discard turn, else those no legal discard names. */
export function blockedTiles(hand, legal) {
  const out = new Set();
  if (!discardTurn(legal)) return out;
  const open = new Set(legal.filter((a) => a.type === "discard").map((a) => a.tile));
  for (const x of hand) if (!open.has(x)) out.add(x);
  return out;
}

/** Why `tile` may not be discarded now: null if it may (or it is no discard turn), else
 * the restrictions in force that limit discards (possibly none: the engine's own rule). */
export function discardWhy(tile, legal, inForce, declared) {
  if (!discardTurn(legal) || legal.some((a) => a.type === "discard" && a.tile === tile)) return null;
  return limiting(inForce, declared, "discard");
}

/** The declared restrictions that say, whenever a complete hand is refused a discard win,
 * why (a variant whose discard win needs 番, or that wins by self-draw only). */
function standingWinRules(declared) {
  return (declared || [])
    .filter((d) => d.id === "no_discard_win" && (d.limits || []).includes("win"))
    .map((d) => ({ id: d.id, detail: "", declared: d }));
}

/** Whether the hand (single tiles) holds two tiles that make a run with `tile` (a suit tile:
 * 1m-9m, 1p-9p, 1s-9s): the shape a 吃 of it needs. */
export function canChi(hand, tile) {
  const m = /^([1-9])([mps])$/.exec(tile || "");
  if (!m) return false;
  const n = Number(m[1]);
  const has = (k) => k >= 1 && k <= 9 && (hand || []).includes(`${k}${m[2]}`);
  return (has(n - 2) && has(n - 1)) || (has(n - 1) && has(n + 1)) || (has(n + 1) && has(n + 2));
}

/**
 * The wins and claims the seat might expect but is not offered now, each with the reasons
 * in force: `[{what: "hu" | "kong" | "peng" | "chi", tile, reasons}]`.
 *
 * `s` is the moment: `phase` ("turn", "claim", "rob" …), `seat`, `current`, `windowTile`,
 * `windowFrom`, `drawn` (the tile the seat drew, in its turn), `hand` (its single tiles),
 * `wild`, `chi` (false where the variant has no 吃), `legal` (its legal actions), `inForce`,
 * `declared`, and `waits`: the tiles that
 * complete the hand without the tile in question (in a claim window the hand's waits, in
 * the seat's turn those of the hand without its drawn tile; null: not known yet).
 * A win is expected when that tile is among the waits (a drawn wild completes any ready
 * hand); a peng when the hand holds two of the discarded tile, a kong three, a chi (of the
 * previous seat's discard) two that make a run with it. Each is told with its
 * reasons only: those in force that limit it, and for a discard win the variant's declared
 * rule (`no_discard_win`) when nothing in force says more; with no reason, nothing.
 */
export function missedOffers(s) {
  const legal = s.legal || [];
  const offered = (type) => legal.some((a) => a.type === type);
  const out = [];
  const waits = s.waits || null;
  const window = (s.phase === "claim" || s.phase === "rob") && s.windowTile && s.windowFrom !== s.seat;
  if (window && legal.length) {
    const tile = s.windowTile;
    if (waits && waits.includes(tile) && !offered("hu")) {
      let reasons = limiting(s.inForce, s.declared, "win");
      if (!reasons.length) reasons = standingWinRules(s.declared);
      if (reasons.length) out.push({ what: "hu", tile, reasons });
    }
    const same = (s.hand || []).filter((x) => x === tile).length;
    if (s.phase === "claim" && tile !== s.wild) {
      const expected = [];
      if (same >= 3 && !offered("kong")) expected.push("kong");
      if (same >= 2 && !offered("peng")) expected.push("peng");
      if (s.chi !== false && s.windowFrom === (s.seat + 3) % 4 && canChi(s.hand, tile) && !offered("chi")) {
        expected.push("chi");
      }
      const reasons = expected.length ? limiting(s.inForce, s.declared, "claim") : [];
      if (reasons.length) for (const what of expected) out.push({ what, tile, reasons });
    }
  } else if (s.phase === "turn" && s.current === s.seat && s.drawn && discardTurn(legal)) {
    const tile = s.drawn;
    const wins = waits && waits.length && (waits.includes(tile) || (s.wild && tile === s.wild));
    if (wins && !offered("hu")) {
      const reasons = limiting(s.inForce, s.declared, "win");
      if (reasons.length) out.push({ what: "hu", tile, reasons });
    }
  }
  return out;
}

/** A restriction's sentence for the seat now: its declared `now` in the language (`{}`
 * filled by `fill(detail)`), else its name. `lang` is "zh" or "en"; text, not HTML:
 * `escape` is applied to the declared words (pass the identity for plain text). */
export function reasonText(reason, lang, fill, escape = (x) => x) {
  const d = reason.declared;
  if (!d) return escape(reason.id);
  const name = lang === "zh" ? d.zh : d.en;
  if (!d.now) return escape(name);
  const words = lang === "zh" ? d.now.zh : d.now.en;
  return String(words).split("{}").map((p) => escape(p)).join(fill(reason.detail));
}
