// The table drawn from a View (docs/protocol.md 2): four seats around, the viewer at the
// bottom. Shared by the live game and the replay viewer (which shows every hand face up).

import { t, term } from "./i18n.js";
import { parseTiles, tileSvg, tilesRow } from "./tiles.js";
import { countdownHtml } from "./ui.js";

/** Escape text for HTML. */
export function esc(text) {
  return String(text ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Seat names as shown: a name several seats share gets its seat number ("greedy·2"). */
export function uniqueNames(names) {
  return names.map((n, i) => {
    if (n == null) return n;
    return names.filter((m) => m === n).length > 1 ? `${n}·${i}` : n;
  });
}

/** The seat's wind relative to the dealer (东 for the dealer). */
export function windOf(seat, dealer) {
  return t("winds")[(seat - dealer + 4) % 4];
}

/** A seat's name as the viewer reads it ("你" for the viewer's own seat). */
export function seatName(table, seat) {
  if (seat == null) return "";
  if (seat === table.mine) return t("you");
  const s = table.seats[seat];
  return s && s.name ? s.name : t("seat_n", { n: seat });
}

/** The tiles a meld shows: a kong's four, a concealed kong of another seat face down. */
function meldHtml(table, meld, seat) {
  const tiles = parseTiles(meld.tiles);
  const hidden = meld.kind === "kong_concealed";
  let body;
  if (!tiles.length) {
    body = [0, 1, 2, 3].map(() => tileSvg("1z", { back: true, cls: "s" })).join("");
  } else if (hidden) {
    body = tiles.map((x, i) => tileSvg(x, { cls: "s", back: i === 0 || i === 3 })).join("");
  } else {
    body = tiles.map((x) => tileSvg(x, { cls: "s" })).join("");
  }
  const from = meld.source != null && meld.source !== seat
    ? `<span class="src">${esc(t("from_seat", { who: seatName(table, meld.source) }))}</span>`
    : "";
  const wilds = meld.wilds ? `<span class="src">${esc(t("wild"))}×${meld.wilds}</span>` : "";
  return `<span class="meld" title="${esc(term(table.info, meld.kind))}">${body}${from}${wilds}</span>`;
}

function seatHeader(table, seat, view) {
  const s = table.seats[seat];
  const badges = [];
  if (seat === table.dealer) badges.push(`<b class="badge dealer">${esc(t("dealer"))}</b>`);
  if (s.auto) badges.push(`<b class="badge auto">${esc(t("auto_mark"))}</b>`);
  if (s.bot) badges.push(`<b class="badge bot">${esc(t("bot"))}</b>`);
  if (table.live && !s.bot && s.name && !s.connected && seat !== table.mine) {
    badges.push(`<b class="badge off">${esc(t("offline"))}</b>`);
  }
  const vs = table.variantState || {};
  if (Array.isArray(vs.no_win) && vs.no_win.includes(seat)) badges.push(`<b class="badge warn">${esc(t("may_not_win"))}</b>`);
  if (Array.isArray(vs.wild_thrown) && vs.wild_thrown.includes(seat)) badges.push(`<b class="badge warn">${esc(t("threw_wild", { w: term(table.info, "wild") }))}</b>`);
  const turn = table.current === seat && table.phase !== "end" ? " turn" : "";
  const clock = table.clockSeat === seat && table.deadline
    ? countdownHtml(table.deadline) : "";
  return `<div class="seat-head${turn}"><span class="wind">${esc(windOf(seat, table.dealer))}</span>` +
    `<span class="name">${esc(seatName(table, seat))}</span>${badges.join("")}` +
    `<span class="count">${esc(t("in_hand", { n: view.hand_size }))}</span>${clock}</div>`;
}

function riverHtml(table, seat, discards) {
  const last = table.lastDiscard === seat ? discards.length - 1 : -1;
  return discards
    .map((x, i) => tileSvg(x, { wild: x === table.wild, cls: i === last ? "s last" : "s" }))
    .join("");
}

function concealedHtml(table, seat, view) {
  if (view.hand == null) {
    if (!table.faceUp || view.hand_size === 0) {
      return Array.from({ length: view.hand_size }, () => tileSvg("1z", { back: true, cls: "s" })).join("");
    }
  }
  const tiles = parseTiles(view.hand || "");
  let drawn = null;
  if (view.drawn && tiles.includes(view.drawn)) {
    tiles.splice(tiles.lastIndexOf(view.drawn), 1);
    drawn = view.drawn;
  }
  const mine = seat === table.mine && table.canPlay;
  const cls = mine ? "h" : "s";
  const one = (x, extra) => {
    const classes = [cls, extra];
    if (mine && table.selected === x) classes.push("sel");
    if (mine && table.discardable && !table.discardable.has(x)) classes.push("dim");
    if (mine && table.tingTiles && table.tingTiles.has(x)) classes.push("ting");
    return tileSvg(x, { wild: x === table.wild, cls: classes.join(" ").trim(), data: mine ? x : null });
  };
  const body = tiles.map((x) => one(x, "")).join("");
  const apart = drawn ? `<span class="drawn">${one(drawn, "")}</span>` : "";
  return body + apart;
}

/** One seat's panel: name row, flowers, melds, river, and its concealed tiles. */
function seatPanel(table, seat, where) {
  const view = table.seats[seat];
  const flowers = view.flowers && view.flowers.length
    ? `<div class="flowers" title="${esc(t("flowers"))}">${tilesRow(view.flowers, null, "s")}</div>` : "";
  const melds = view.melds && view.melds.length
    ? `<div class="melds">${view.melds.map((m) => meldHtml(table, m, seat)).join("")}</div>` : "";
  const own = seat === table.mine ? (table.discardable ? " own turn" : " own") : "";
  const hand = `<div class="hand${own}" data-seat="${seat}">${concealedHtml(table, seat, view)}</div>`;
  const river = `<div class="river">${riverHtml(table, seat, view.discards || [])}</div>`;
  const mine = where === "me";
  return `<section class="seat ${where}" data-seat="${seat}">${seatHeader(table, seat, view)}` +
    (mine ? `${river}${flowers}${melds}${hand}` : `${flowers}${melds}${hand}${river}`) + `</section>`;
}

/** The info strip: hand number, tiles left, wild and indicator, counters, reserved tiles. */
function infoStrip(table) {
  const parts = [];
  if (table.handLabel) parts.push(`<span>${esc(table.handLabel)}</span>`);
  parts.push(`<span class="left">${esc(t("tiles_left", { n: table.liveTiles }))}</span>`);
  if (table.wild) {
    parts.push(`<span class="wildinfo">${esc(term(table.info, "wild"))} ${tileSvg(table.wild, { wild: true, cls: "s" })}</span>`);
  }
  for (const [purpose, tiles] of Object.entries(table.revealed || {})) {
    parts.push(`<span>${esc(term(table.info, purpose))} ${tilesRow(tiles, null, "s")}</span>`);
  }
  for (const [id, value] of Object.entries(table.counters || {})) {
    parts.push(`<span>${esc(term(table.info, id))} ${esc(value)}</span>`);
  }
  for (const [purpose, n] of Object.entries(table.reservedCounts || {})) {
    if ((table.revealed || {})[purpose]) continue;
    parts.push(`<span>${esc(t("reserved_count", { name: term(table.info, purpose), n }))}</span>`);
  }
  const vs = table.variantState || {};
  if (vs.zhuada != null) parts.push(`<span class="warn">${esc(t("zhuada", { who: seatName(table, vs.zhuada) }))}</span>`);
  if (Array.isArray(vs.known) && vs.known.length) {
    parts.push(`<details class="known"><summary>${esc(t("known"))} ${vs.known.length}</summary>${tilesRow(vs.known, null, "s")}</details>`);
  }
  return `<div class="info">${parts.join("")}</div>`;
}

/**
 * The whole table as HTML. `table` holds: info (variant declaration), seats (per seat:
 * name, bot, auto, connected, hand, drawn, hand_size, melds, discards, flowers), mine (the
 * bottom seat), dealer, current, phase, wild, revealed, counters, liveTiles, handLabel,
 * lastDiscard, faceUp, and for the player: canPlay, selected, discardable, tingTiles,
 * deadline, clockSeat; `center` is HTML put in the middle.
 */
export function tableHtml(table, center = "") {
  const me = table.bottom ?? table.mine ?? 0;
  const at = (k) => (me + k) % 4;
  return `<div class="table${table.live ? " live" : ""}">${infoStrip(table)}` +
    seatPanel(table, at(2), "top") +
    seatPanel(table, at(3), "left") +
    `<section class="center">${center}</section>` +
    seatPanel(table, at(1), "right") +
    seatPanel(table, me, "me") +
    `</div>`;
}

