// Settlements: a hand's result laid out (winning hand, patterns, horses or birds, every
// payment as "who → whom, points, why", deltas and totals) and the match's 总结算.

import { marksFilled, noteText, pick, pickField, t, term } from "./i18n.js";
import { parseTiles, tileSvg, tilesRow } from "./tiles.js";

function esc(text) {
  return String(text ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

/** A meld's tiles (the kinds it stands for: a wild in it is no longer a wild). */
function meldTiles(meld) {
  return `<span class="meld">${parseTiles(meld.tiles).map((x) => tileSvg(x, { cls: "s" })).join("")}</span>`;
}

/** A seat's tiles at the end of a hand: concealed, melds, the winning tile apart. */
function handLine(hand, wild, winTile) {
  const concealed = tilesRow(hand.concealed, wild, "s");
  const melds = hand.melds.map(meldTiles).join("");
  const flowers = hand.flowers.length ? `<span class="meld">${tilesRow(hand.flowers, null, "s")}</span>` : "";
  const win = winTile ? `<span class="drawn win">${tileSvg(winTile, { cls: "s", wild: winTile === wild })}</span>` : "";
  return `<div class="endhand">${concealed}${melds}${win}${flowers}</div>`;
}

/** Why a payment was made: its kind, and its reason when that says more. */
function why(info, item) {
  const kind = term(info, item.kind);
  if (item.reason && item.reason !== item.kind) return `${kind} · ${term(info, item.reason)}`;
  return kind;
}

/**
 * One hand's settlement. `ctx`: {info, names, mine, hands}; `s`: the explained settlement
 * (GET /api/rooms/{room}/settlements), or null while it loads, then `fallback` (the
 * hand_end message's result, without reasons) is shown.
 */
export function settlementHtml(ctx, s, fallback) {
  const info = ctx.info;
  const r = s || fallback;
  if (!r) return "";
  const plain = (seat) => ctx.names[seat] ?? t("seat_n", { n: seat });
  const name = (seat) => esc(plain(seat));
  const out = [`<h2>${esc(t("settlement", { n: r.index + 1 }))}</h2>`];
  if (r.outcome === "win") {
    const how = term(info, r.win_type);
    const from = r.from != null ? t("from_who", { who: name(r.from) }) : "";
    out.push(`<p class="result win">${t("wins_by", { who: `<b>${name(r.winner)}</b>`, how: esc(how) })}${from}</p>`);
  } else if (s && s.escaped != null) {
    out.push(`<p class="result">${t("escaped", { who: name(s.escaped) })}</p>`);
  } else {
    out.push(`<p class="result">${esc(t("draw_hand"))}</p>`);
  }
  if (s && r.outcome === "win") {
    const hand = s.hands[s.winner];
    out.push(`<div class="winhand">${handLine(hand, s.wild, s.tile)}</div>`);
  }
  if (r.patterns && r.patterns.length) {
    const values = new Map((info.patterns || []).map((p) => [p.id, pickField(p, "value")]));
    const chips = r.patterns
      .map((p) => `<span class="chip" title="${esc(values.get(p) || "")}">${esc(term(info, p))}</span>`)
      .join("");
    out.push(`<div class="patterns"><b>${esc(t("patterns"))}</b> ${chips}</div>`);
  }
  if (s && s.reserved.length) {
    for (const group of s.reserved) {
      const tiles = group.tiles
        .map((x) => `<span class="reserved">${tileSvg(x.tile, { cls: "s", wild: x.tile === s.wild })}<small>${esc(marksFilled(pick(x), plain))}</small></span>`)
        .join("");
      out.push(`<div class="reserved-row"><b>${esc(term(info, group.purpose))}</b> ${tiles}</div>`);
    }
  }
  const items = r.items || [];
  const rows = items.map((it) => {
    const reason = s ? why(info, it) : term(info, it.kind);
    const words = noteText(it, plain);
    const note = words ? `<div class="note">${esc(words)}</div>` : "";
    return `<li class="item"><span class="who">${esc(t("pays", { a: ctx.names[it.from] ?? it.from, b: ctx.names[it.to] ?? it.to }))}</span>` +
      `<span class="pts">${esc(t("points", { n: it.points }))}</span><span class="why">${esc(reason)}</span>${note}</li>`;
  });
  out.push(`<h3>${esc(t("payments"))}</h3>` + (rows.length ? `<ol class="items">${rows.join("")}</ol>` : `<p class="muted">${esc(t("no_payments"))}</p>`));
  const totals = s ? s.totals : null;
  const table = ctx.names.map((n, seat) =>
    `<tr class="${seat === ctx.mine ? "me" : ""}"><td>${esc(n)}</td><td class="num ${r.deltas[seat] > 0 ? "up" : r.deltas[seat] < 0 ? "down" : ""}">${signed(r.deltas[seat])}</td>` +
    `<td class="num">${totals ? signed(totals[seat]) : ""}</td></tr>`).join("");
  out.push(`<table class="scores"><thead><tr><th>${esc(t("player"))}</th><th>${esc(t("delta"))}</th><th>${esc(t("total"))}</th></tr></thead><tbody>${table}</tbody></table>`);
  if (s) {
    const others = s.hands
      .filter((h) => h.seat !== s.winner)
      .map((h) => `<div class="other"><span class="name">${name(h.seat)}</span>${handLine(h, s.wild, null)}</div>`)
      .join("");
    out.push(`<details class="allhands"><summary>${esc(t("all_hands"))}</summary>${others}</details>`);
  }
  return out.join("");
}

/** 总结算: totals, 大赢家, wins / self-draws / deal-ins per seat, the replay link. */
export function finalHtml(ctx, settlements, end, room) {
  const totals = end && end.totals ? end.totals : [0, 0, 0, 0];
  const best = Math.max(...totals);
  const stats = [0, 1, 2, 3].map(() => ({ wins: 0, self: 0, dealin: 0 }));
  for (const s of settlements) {
    if (s.outcome !== "win" || s.winner == null) continue;
    stats[s.winner].wins += 1;
    if (s.from == null) stats[s.winner].self += 1;
    else stats[s.from].dealin += 1;
  }
  const reason = end && end.reason === "escape" ? t("reason_escape")
    : end && end.reason === "dissolved" ? t("reason_dissolved")
    : t("reason_hands", { n: settlements.length });
  const rows = ctx.names.map((n, seat) => {
    const star = totals[seat] === best && best > 0 ? ` <b class="badge win">${esc(t("big_winner"))}</b>` : "";
    return `<tr class="${seat === ctx.mine ? "me" : ""}"><td>${esc(n)}${star}</td><td class="num">${signed(totals[seat])}</td>` +
      `<td class="num">${stats[seat].wins}</td><td class="num">${stats[seat].self}</td><td class="num">${stats[seat].dealin}</td></tr>`;
  }).join("");
  return `<h2>${esc(t("final"))}</h2><p class="muted">${esc(reason)}</p>` +
    `<table class="scores final"><thead><tr><th>${esc(t("player"))}</th><th>${esc(t("total"))}</th><th>${esc(t("wins"))}</th><th>${esc(t("self_draws"))}</th><th>${esc(t("deal_ins"))}</th></tr></thead><tbody>${rows}</tbody></table>` +
    `<div class="row"><a class="button primary" href="/replay/${encodeURIComponent(room)}">${esc(t("watch_replay"))}</a><a class="button" href="/">${esc(t("back_lobby"))}</a></div>`;
}
