// Tiles as the page draws them: notation (docs/format.md) and the project's own SVG faces
// (faces.js; no image files, no fonts fetched), named in the page's language.

import { parseTiles, sortTiles, formatTiles, tileIndex, tileArt } from "./faces.js";
import { tileName } from "./i18n.js";

export { parseTiles, sortTiles, formatTiles, tileIndex };

function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * One tile as an inline SVG string.
 * opts.wild: mark it as the hand's wild (corner badge); opts.back: face down; opts.cls:
 * extra classes; opts.data: a data-tile value (a tile the player can tap); opts.title: its
 * tooltip and accessible name.
 */
export function tileSvg(tile, opts = {}) {
  const cls = ["tile", opts.cls || ""];
  if (opts.back) {
    cls.push("back");
    return `<svg class="${cls.join(" ").trim()}" viewBox="0 0 30 40" role="img" aria-label="?">${tileArt(tile, { back: true })}</svg>`;
  }
  if (opts.wild) cls.push("wild");
  const data = opts.data != null ? ` data-tile="${esc(opts.data)}"` : "";
  const label = esc(opts.title || tileName(tile));
  return `<svg class="${cls.join(" ").trim()}" viewBox="0 0 30 40" role="img" aria-label="${label}"${data}><title>${label}</title>` +
    `${tileArt(tile, { wild: opts.wild })}</svg>`;
}

/** Several tiles in a row (notation or a list), the wild kind marked. */
export function tilesRow(tiles, wild, cls = "") {
  const list = Array.isArray(tiles) ? tiles : parseTiles(tiles);
  return list.map((t) => tileSvg(t, { wild: t === wild, cls })).join("");
}
