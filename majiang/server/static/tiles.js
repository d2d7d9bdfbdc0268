// Tiles: FORMAT.md notation and the project's own SVG faces (no image files, no fonts
// fetched: the glyphs are drawn with the system's CJK font).

import { GLYPHS, tileName } from "./i18n.js";

const ORDER = { m: 0, p: 1, s: 2, z: 3, f: 4 };

/** Split FORMAT.md notation ("123m55p") into single tiles (["1m","2m","3m","5p","5p"]). */
export function parseTiles(text) {
  const out = [];
  let digits = [];
  for (const ch of (text || "").replace(/ /g, "")) {
    if (ch >= "0" && ch <= "9") digits.push(ch);
    else {
      for (const d of digits) out.push(d + ch);
      digits = [];
    }
  }
  return out;
}

/** A tile's index in canonical order (m, p, s, z, f). */
export function tileIndex(tile) {
  return ORDER[tile[1]] * 9 + Number(tile[0]) - 1;
}

/** Tiles sorted in canonical order. */
export function sortTiles(tiles) {
  return [...tiles].sort((a, b) => tileIndex(a) - tileIndex(b));
}

/** Canonical notation of single tiles (["5p","1m"] -> "1m5p"). */
export function formatTiles(tiles) {
  let out = "";
  let suit = "";
  let run = "";
  for (const t of sortTiles(tiles)) {
    if (t[1] !== suit) {
      out += run + suit;
      run = "";
      suit = t[1];
    }
    run += t[0];
  }
  return out + run + suit;
}

const SUIT_COLOR = { m: "#b3261e", p: "#1a4f9c", s: "#17703a" };
const HONOR_COLOR = ["#222", "#222", "#222", "#222", "#1a4f9c", "#17703a", "#b3261e"];

function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function face(tile) {
  const n = Number(tile[0]);
  const suit = tile[1];
  const font = 'font-family="Noto Sans CJK SC, Noto Sans SC, Source Han Sans SC, PingFang SC, Microsoft YaHei, sans-serif"';
  if (suit === "m" || suit === "p" || suit === "s") {
    const color = SUIT_COLOR[suit];
    return (
      `<text x="15" y="18.5" text-anchor="middle" font-size="15" font-weight="700" fill="#222" ${font}>${GLYPHS.TILE_NUM[n - 1]}</text>` +
      `<text x="15" y="35" text-anchor="middle" font-size="13" font-weight="700" fill="${color}" ${font}>${GLYPHS.SUIT_ZH[suit]}</text>` +
      `<text x="3.2" y="8" font-size="6.5" font-weight="700" fill="${color}" font-family="sans-serif">${n}</text>`
    );
  }
  if (suit === "z") {
    if (n === 5) {
      return `<rect x="7" y="8" width="16" height="24" rx="2" fill="none" stroke="#1a4f9c" stroke-width="2.4"/>` +
        `<rect x="10.5" y="11.5" width="9" height="17" rx="1" fill="none" stroke="#1a4f9c" stroke-width="1"/>`;
    }
    return `<text x="15" y="28" text-anchor="middle" font-size="21" font-weight="700" fill="${HONOR_COLOR[n - 1]}" ${font}>${GLYPHS.HONOR_ZH[n - 1]}</text>`;
  }
  const color = n <= 4 ? "#6b2fa0" : "#b0306b";
  return (
    `<text x="15" y="26" text-anchor="middle" font-size="19" font-weight="700" fill="${color}" ${font}>${GLYPHS.FLOWER_ZH[n - 1]}</text>` +
    `<text x="15" y="37" text-anchor="middle" font-size="7" fill="${color}" font-family="sans-serif">${n}</text>`
  );
}

/**
 * One tile as an inline SVG string.
 * opts.wild: mark it as the hand's wild; opts.back: face down; opts.cls: extra classes;
 * opts.data: a data-tile value (a tile the player can tap); opts.title: its tooltip.
 */
export function tileSvg(tile, opts = {}) {
  const cls = ["tile", opts.cls || ""];
  if (opts.back) {
    cls.push("back");
    return `<svg class="${cls.join(" ")}" viewBox="0 0 30 40" role="img" aria-label="?">` +
      `<rect x="0.75" y="0.75" width="28.5" height="38.5" rx="4" fill="#2f7d5b" stroke="#1d4f39" stroke-width="1.5"/>` +
      `<rect x="4" y="4" width="22" height="32" rx="2.5" fill="none" stroke="#9fd3b9" stroke-width="0.8"/></svg>`;
  }
  if (opts.wild) cls.push("wild");
  const fill = opts.wild ? "#ffe7a3" : "#fdfbf3";
  const stroke = opts.wild ? "#c98a00" : "#9a927c";
  const data = opts.data != null ? ` data-tile="${esc(opts.data)}"` : "";
  const label = esc(opts.title || tileName(tile));
  const badge = opts.wild
    ? `<circle cx="25" cy="6" r="4.3" fill="#d97706"/><text x="25" y="8.4" text-anchor="middle" font-size="6.5" font-weight="700" fill="#fff" font-family="sans-serif">★</text>`
    : "";
  return (
    `<svg class="${cls.join(" ").trim()}" viewBox="0 0 30 40" role="img" aria-label="${label}"${data}><title>${label}</title>` +
    `<rect x="0.75" y="0.75" width="28.5" height="38.5" rx="4" fill="${fill}" stroke="${stroke}" stroke-width="1.5"/>` +
    face(tile) +
    badge +
    `</svg>`
  );
}

/** Several tiles in a row (notation or a list), the wild kind marked. */
export function tilesRow(tiles, wild, cls = "") {
  const list = Array.isArray(tiles) ? tiles : parseTiles(tiles);
  return list.map((t) => tileSvg(t, { wild: t === wild, cls })).join("");
}
