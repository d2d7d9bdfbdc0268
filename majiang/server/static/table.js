// The table drawn from a View (docs/protocol.md 2): four seats around a centre, the viewer
// at the bottom, 下家 right, 对家 top, 上家 left; each seat's river in front of it in rows
// of six; the compass in the middle lights the seat to act. Shared by the live game and
// the replay viewer (which shows every hand face up). Where things go is layout.js's.

import { t, term } from "./i18n.js";
import { handOrder, meldTiles, pointerSeat, rows, seatAt, windIndex } from "./layout.js";
import { tileSvg, tilesRow } from "./tiles.js";
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
  return t("winds")[windIndex(seat, dealer)];
}

/** A seat's name as the viewer reads it ("你" for the viewer's own seat). */
export function seatName(table, seat) {
  if (seat == null) return "";
  if (seat === table.mine) return t("you");
  const s = table.seats[seat];
  return s && s.name ? s.name : t("seat_n", { n: seat });
}

/** A meld as it lies: the claimed tile turned toward the seat it came from, a concealed
 * kong two backs and two faces (its owner sees four faces). */
function meldHtml(table, meld, seat, fresh) {
  const from = meld.source != null && meld.source !== seat
    ? t("from_seat", { who: seatName(table, meld.source) }) : "";
  const body = meldTiles(meld, seat, table.mine).map((x) => tileSvg(x.tile, {
    back: x.back,
    wild: !x.back && x.tile === table.wild,
    cls: `m${x.turned ? " turned" : ""}`,
  })).join("");
  const wilds = meld.wilds ? `<span class="src">${esc(term(table.info, "wild"))}×${meld.wilds}</span>` : "";
  const title = [term(table.info, meld.kind), from].filter(Boolean).join(" · ");
  return `<span class="meld${fresh ? " fresh" : ""}" data-kind="${esc(meld.kind)}" title="${esc(title)}">${body}${wilds}</span>`;
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
  const turn = table.pointer === seat ? " turn" : "";
  const clock = table.clockSeat === seat && table.deadline ? countdownHtml(table.deadline) : "";
  return `<div class="seat-head${turn}"><span class="wind">${esc(windOf(seat, table.dealer))}</span>` +
    `<span class="name">${esc(seatName(table, seat))}</span>${badges.join("")}` +
    `<span class="count">${esc(t("in_hand", { n: view.hand_size }))}</span>${clock}</div>`;
}

/** A seat's river in rows of six, the last discard marked (until the next one). */
function riverHtml(table, seat, place) {
  const discards = table.seats[seat].discards || [];
  const last = table.lastDiscard === seat ? discards.length - 1 : -1;
  const fresh = table.motion && table.motion.discard === seat;
  const body = rows(discards).map((row, r) => `<div class="rrow">${row.map((x, i) => {
    const n = r * 6 + i;
    const cls = ["r", n === last ? "last" : "", n === last && fresh ? "fresh" : ""].filter(Boolean).join(" ");
    return tileSvg(x, { wild: x === table.wild, cls });
  }).join("")}</div>`).join("");
  return `<div class="river r-${place}" data-seat="${seat}">${body}</div>`;
}

function concealedHtml(table, seat, view) {
  if (view.hand == null && (!table.faceUp || view.hand_size === 0)) {
    return Array.from({ length: view.hand_size }, () => tileSvg("1z", { back: true, cls: "b" })).join("");
  }
  const { tiles, drawn } = handOrder(view.hand || "", view.drawn);
  const mine = seat === table.mine && table.canPlay;
  const cls = mine ? "h" : "o";
  const one = (x, extra) => {
    const classes = [cls, extra];
    if (mine && table.selected === x) classes.push("sel");
    if (mine && table.discardable && !table.discardable.has(x)) classes.push("dim");
    if (mine && table.tingTiles && table.tingTiles.has(x)) classes.push("ting");
    return tileSvg(x, { wild: x === table.wild, cls: classes.filter(Boolean).join(" "), data: mine ? x : null });
  };
  const body = tiles.map((x) => one(x, "")).join("");
  const fresh = mine && table.motion && table.motion.draw ? " fresh" : "";
  const apart = drawn ? `<span class="drawn${fresh}">${one(drawn, "")}</span>` : "";
  return body + apart;
}

/** One seat: its name row (wind, 庄, marks, tiles in hand), flowers, melds and hand. */
function seatPanel(table, seat, place) {
  const view = table.seats[seat];
  const flowers = view.flowers && view.flowers.length
    ? `<div class="flowers" title="${esc(t("flowers"))}">${tilesRow(view.flowers, null, "m")}</div>` : "";
  const freshMeld = table.motion && table.motion.meld === seat ? view.melds.length - 1 : -1;
  const melds = view.melds && view.melds.length
    ? `<div class="melds">${view.melds.map((m, i) => meldHtml(table, m, seat, i === freshMeld)).join("")}</div>` : "";
  const own = seat === table.mine ? (table.discardable ? " own turn" : " own") : "";
  const hand = `<div class="hand${own}" data-seat="${seat}">${concealedHtml(table, seat, view)}</div>`;
  const extra = place === "me" ? (table.meExtra || "") : "";
  return `<section class="seat ${place}" data-seat="${seat}">${seatHeader(table, seat, view)}` +
    `<div class="tiles">${hand}${melds}${flowers}</div>${extra}</section>`;
}

/** The centre: the four winds around it as they sit, the seat to act lit, its countdown
 * (the viewer's own deadline; others' are not sent) or the tiles left. */
function compassHtml(table, me) {
  const winds = ["me", "right", "top", "left"].map((place) => {
    const seat = seatAt(place, me);
    const lit = table.pointer === seat ? " lit" : "";
    const dealer = seat === table.dealer ? " dealer" : "";
    return `<b class="w w-${place}${lit}${dealer}" data-seat="${seat}">${esc(windOf(seat, table.dealer))}</b>`;
  }).join("");
  const left = `<span class="left-n" title="${esc(t("tiles_left", { n: table.liveTiles }))}">${esc(table.liveTiles)}</span>`;
  const clock = table.clockSeat != null && table.deadline ? countdownHtml(table.deadline, "big") + left : left;
  const wild = table.wild ? `<span class="cwild" title="${esc(term(table.info, "wild"))}">${tileSvg(table.wild, { wild: true, cls: "m" })}</span>` : "";
  return `<div class="compass" data-pointer="${table.pointer ?? ""}">${winds}<div class="dial">${clock}</div>${wild}</div>`;
}

/** The info strip: hand number, tiles left, wild and indicator, counters, reserved tiles. */
function infoStrip(table) {
  const parts = [];
  if (table.handLabel) parts.push(`<span>${esc(table.handLabel)}</span>`);
  parts.push(`<span class="left">${esc(t("tiles_left", { n: table.liveTiles }))}</span>`);
  if (table.wild) {
    parts.push(`<span class="wildinfo">${esc(term(table.info, "wild"))} ${tileSvg(table.wild, { wild: true, cls: "m" })}</span>`);
  }
  for (const [purpose, tiles] of Object.entries(table.revealed || {})) {
    parts.push(`<span class="revealed">${esc(term(table.info, purpose))} ${tilesRow(tiles, null, "m")}</span>`);
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
    parts.push(`<details class="known"><summary>${esc(t("known"))} ${vs.known.length}</summary>${tilesRow(vs.known, null, "m")}</details>`);
  }
  return `<div class="info">${parts.join("")}</div>`;
}

/**
 * The whole table as HTML. `table` holds: info (variant declaration), seats (per seat:
 * name, bot, auto, connected, hand, drawn, hand_size, melds, discards, flowers), mine (the
 * viewer's seat), bottom (the seat drawn at the bottom), dealer, current, phase, wild,
 * revealed, counters, liveTiles, handLabel, lastDiscard, faceUp, and for the player:
 * canPlay, selected, discardable, tingTiles, deadline, clockSeat (the viewer while it
 * decides), motion (what to animate, layout.js newMotion), meExtra (HTML in the own seat:
 * the claim bar). `center` is HTML for the line above the own seat (prompt, replay step).
 */
export function tableHtml(table, center = "") {
  const me = table.bottom ?? table.mine ?? 0;
  const pointer = table.pointer !== undefined ? table.pointer
    : pointerSeat({ current: table.current, phase: table.phase, mine: table.mine, deciding: table.clockSeat != null });
  const model = { ...table, pointer };
  const places = ["top", "left", "right"];
  return `<div class="table${table.live ? " live" : ""}" data-bottom="${me}">${infoStrip(model)}` +
    places.map((p) => seatPanel(model, seatAt(p, me), p)).join("") +
    ["top", "left", "right", "me"].map((p) => riverHtml(model, seatAt(p, me), p)).join("") +
    compassHtml(model, me) +
    `<section class="center">${center}</section>` +
    seatPanel(model, me, "me") +
    `</div>`;
}
