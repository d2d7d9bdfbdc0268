// Tile notation (docs/format.md: 1m 1p 1s, 1z..7z, 1f..8f) and the project's own SVG tile
// art: pure functions with no DOM and no language, so node can import and test them.

const ORDER = { m: 0, p: 1, s: 2, z: 3, f: 4 };

/** Split notation ("123m55p") into single tiles (["1m","2m","3m","5p","5p"]). */
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

/** A tile's index in canonical order (万 m, 筒 p, 条 s, honours z, flowers f). */
export function tileIndex(tile) {
  return ORDER[tile[1]] * 9 + Number(tile[0]) - 1;
}

/** Tiles sorted in canonical order: 万, 筒, 条, then honours and flowers. */
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

export const RED = "#c0261c";
export const GREEN = "#17703a";
export const BLUE = "#1a4f9c";
const INK = "#1b1b1b";
const NUMERALS = "一二三四五六七八九";
const HONORS = ["东", "南", "西", "北", "", "发", "中"];
const FLOWERS = ["春", "夏", "秋", "冬", "梅", "兰", "竹", "菊"];
const FONT = 'font-family="Noto Serif CJK SC, Noto Sans CJK SC, Source Han Serif SC, Songti SC, SimSun, Noto Sans SC, PingFang SC, Microsoft YaHei, serif"';

/** What a tile's face shows: its kind (dots, bamboo, characters, wind, dragon, flower)
 * and the glyph or count drawn. */
export function faceKind(tile) {
  const n = Number(tile[0]);
  const suit = tile[1];
  if (!(suit in ORDER) || !(n >= 1 && n <= (suit === "z" ? 7 : suit === "f" ? 8 : 9))) {
    throw new Error(`not a tile: ${tile}`);
  }
  if (suit === "p") return { kind: "dots", n };
  if (suit === "s") return { kind: "bamboo", n };
  if (suit === "m") return { kind: "characters", n, glyph: NUMERALS[n - 1] };
  if (suit === "z" && n <= 4) return { kind: "wind", n, glyph: HONORS[n - 1], color: INK };
  if (suit === "z") return { kind: "dragon", n, glyph: HONORS[n - 1], color: n === 6 ? GREEN : n === 7 ? RED : BLUE };
  return { kind: n <= 4 ? "season" : "flower", n, glyph: FLOWERS[n - 1], number: ((n - 1) % 4) + 1 };
}

/** Where the circles of 1-9 筒 sit on a 30×40 face, as on real tiles: [x, y, r, colour]. */
export function dotLayout(n) {
  const B = BLUE, G = GREEN, R = RED;
  const layouts = {
    1: [[15, 20, 10, R]],
    2: [[15, 11, 6, G], [15, 29, 6, B]],
    3: [[7.5, 8.5, 4.8, B], [15, 20, 4.8, R], [22.5, 31.5, 4.8, G]],
    4: [[8.5, 11, 5, B], [21.5, 11, 5, G], [8.5, 29, 5, G], [21.5, 29, 5, B]],
    5: [[8, 9.5, 4.6, B], [22, 9.5, 4.6, G], [15, 20, 4.6, R], [8, 30.5, 4.6, G], [22, 30.5, 4.6, B]],
    6: [[9, 8, 4.3, G], [21, 8, 4.3, G], [9, 21, 4.3, R], [21, 21, 4.3, R], [9, 31.5, 4.3, R], [21, 31.5, 4.3, R]],
    7: [[7, 6.5, 3.6, G], [15, 10, 3.6, G], [23, 13.5, 3.6, G], [9, 23, 4, R], [21, 23, 4, R], [9, 32.5, 4, R], [21, 32.5, 4, R]],
    8: [6.5, 14.7, 22.9, 31.1].flatMap((y) => [[9, y, 3.8, B], [21, y, 3.8, B]]),
    9: [7.5, 15, 22.5].flatMap((x) => [[x, 8.5, 3.9, B], [x, 20, 3.9, R], [x, 31.5, 3.9, G]]),
  };
  return layouts[n];
}

/** Where the sticks of 2-9 条 stand on a 30×40 face: [x, y (centre), height, colour]. */
export function bambooLayout(n) {
  const G = GREEN, R = RED, B = BLUE;
  const layouts = {
    2: [[15, 11, 14, G], [15, 29, 14, B]],
    3: [[15, 11, 14, G], [9, 29, 14, G], [21, 29, 14, G]],
    4: [[9, 11, 14, G], [21, 11, 14, B], [9, 29, 14, B], [21, 29, 14, G]],
    5: [[7.5, 11, 14, G], [22.5, 11, 14, B], [15, 20, 14, R], [7.5, 29, 14, B], [22.5, 29, 14, G]],
    6: [7.5, 15, 22.5].flatMap((x) => [[x, 11, 14, G], [x, 29, 14, B]]),
    7: [[15, 7.5, 9.5, R], ...[7.5, 15, 22.5].flatMap((x) => [[x, 20, 9.5, G], [x, 31.5, 9.5, B]])],
    8: [6, 12, 18, 24].flatMap((x) => [[x, 11, 14, G], [x, 29, 14, G]]),
    9: [7.5, 15, 22.5].flatMap((x) => [[x, 8.5, 9.5, G], [x, 20, 9.5, x === 15 ? R : B], [x, 31.5, 9.5, G]]),
  };
  return layouts[n];
}

function circle([x, y, r, c]) {
  const inner = r > 6 ? `<circle cx="${x}" cy="${y}" r="${r * 0.62}" fill="none" stroke="#fff" stroke-width="1.1"/>` +
    `<circle cx="${x}" cy="${y}" r="${r * 0.32}" fill="${GREEN}"/>` : "";
  return `<circle cx="${x}" cy="${y}" r="${r}" fill="${c}"/>` +
    `<circle cx="${x}" cy="${y}" r="${(r * 0.45).toFixed(2)}" fill="#fff"/>` +
    `<circle cx="${x}" cy="${y}" r="${(r * 0.2).toFixed(2)}" fill="${c}"/>` + inner;
}

function stick([x, y, h, c]) {
  const top = y - h / 2;
  return `<rect x="${x - 2}" y="${top}" width="4" height="${h}" rx="1.8" fill="${c}"/>` +
    `<rect x="${x - 2.3}" y="${y - 0.6}" width="4.6" height="1.2" rx="0.5" fill="${c}" stroke="#fff" stroke-width="0.3"/>` +
    `<line x1="${x}" y1="${top + 1.2}" x2="${x}" y2="${top + h - 1.2}" stroke="#fff" stroke-width="0.6" opacity="0.8"/>`;
}

/** 1 条: a bird on a stick, as on most sets. */
function bird() {
  return `<path d="M8 27 Q6 19 12 15 Q15 9 20 10 Q24 11 23 15 L27 15 L23 17 Q24 24 17 28 Z" fill="${GREEN}"/>` +
    `<path d="M11 27 L6 35 M14 28 L11 36 M17 28 L17 36" stroke="${GREEN}" stroke-width="2" stroke-linecap="round"/>` +
    `<circle cx="20.5" cy="13" r="1.3" fill="#fff"/><path d="M12 21 Q16 18 20 21" fill="none" stroke="${RED}" stroke-width="1.6"/>` +
    `<path d="M15 5 Q19 3 21 7" fill="none" stroke="${RED}" stroke-width="1.5"/>`;
}

function glyph(text, y, size, color, weight = 700) {
  return `<text x="15" y="${y}" text-anchor="middle" font-size="${size}" font-weight="${weight}" fill="${color}" ${FONT}>${text}</text>`;
}

/** The face of a tile (inside a 30×40 box) as SVG markup. */
export function faceSvg(tile) {
  const f = faceKind(tile);
  if (f.kind === "dots") return dotLayout(f.n).map(circle).join("");
  if (f.kind === "bamboo") return f.n === 1 ? bird() : bambooLayout(f.n).map(stick).join("");
  if (f.kind === "characters") return glyph(f.glyph, 17.5, 16, INK) + glyph("萬", 35.5, 15, RED);
  if (f.kind === "wind") return glyph(f.glyph, 28, 22, INK, 900);
  if (f.kind === "dragon" && f.n === 5) {
    return `<rect x="6.5" y="7.5" width="17" height="25" rx="1.5" fill="none" stroke="${BLUE}" stroke-width="2.2"/>` +
      `<rect x="9.5" y="10.5" width="11" height="19" rx="1" fill="none" stroke="${BLUE}" stroke-width="0.9"/>`;
  }
  if (f.kind === "dragon") return glyph(f.glyph, 28.5, 23, f.color, 900);
  const color = f.kind === "season" ? "#2563a8" : "#b0306b";
  return glyph(f.glyph, 26, 19, color) +
    `<text x="25" y="9" text-anchor="middle" font-size="8" font-weight="700" fill="${RED}" font-family="sans-serif">${f.number}</text>`;
}

/** A whole tile: a light face with a visible edge, the face drawn, a wild's corner badge;
 * or a back, all one colour. `label` is the accessible name (escaped by the caller). */
export function tileArt(tile, { back = false, wild = false } = {}) {
  if (back) {
    return `<rect x="0.6" y="0.6" width="28.8" height="38.8" rx="3.5" fill="#1f5f99" stroke="#123a60" stroke-width="1.2"/>` +
      `<rect x="3.5" y="3.5" width="23" height="30" rx="2.2" fill="none" stroke="#8fb8e0" stroke-width="0.8"/>`;
  }
  const badge = wild
    ? `<circle cx="24.5" cy="6" r="5.2" fill="#d97706" stroke="#fff" stroke-width="0.9"/>` +
      `<path d="M24.5 2.6 L25.5 5 L28 5.1 L26 6.6 L26.8 9 L24.5 7.6 L22.2 9 L23 6.6 L21 5.1 L23.5 5 Z" fill="#fff"/>`
    : "";
  return `<rect x="0.6" y="0.6" width="28.8" height="38.8" rx="3.5" fill="#c9bd98" stroke="#7d7358" stroke-width="1.2"/>` +
    `<rect x="1.4" y="1.2" width="27.2" height="35.4" rx="3" fill="${wild ? "#fff1c4" : "#fbf8ee"}"/>` +
    faceSvg(tile) + badge;
}
