// tiles.js: FORMAT.md notation read and written, canonical order, the SVG face's name.
import "./shim.mjs";
import assert from "node:assert/strict";
import { test } from "node:test";
import { formatTiles, parseTiles, sortTiles, tileIndex, tileSvg } from "../../majiang/server/static/tiles.js";

test("notation splits into single tiles, spaces ignored", () => {
  assert.deepEqual(parseTiles("123m55p"), ["1m", "2m", "3m", "5p", "5p"]);
  assert.deepEqual(parseTiles("1m 7z 2f"), ["1m", "7z", "2f"]);
  assert.deepEqual(parseTiles(""), []);
  assert.deepEqual(parseTiles(null), []);
  assert.deepEqual(parseTiles("12"), []); // digits without a suit name no tile
});

test("canonical order is m, p, s, z, f then the number", () => {
  assert.deepEqual(sortTiles(["1f", "7z", "9s", "1p", "5m", "1m"]), ["1m", "5m", "1p", "9s", "7z", "1f"]);
  assert.ok(tileIndex("9m") < tileIndex("1p"));
  assert.equal(tileIndex("1m"), 0);
});

test("single tiles write back as canonical notation", () => {
  assert.equal(formatTiles(["5p", "1m", "2m", "5p", "7z"]), "12m55p7z");
  assert.equal(formatTiles([]), "");
  for (const text of ["1112345678999m5p", "19m19p19s1234567z", "1234f"]) {
    assert.equal(formatTiles(parseTiles(text)), text);
  }
});

test("a tile's SVG names it and carries what the page taps", () => {
  const svg = tileSvg("5p", { data: "5p", wild: true, cls: "h sel" });
  assert.match(svg, /aria-label="五筒"/);
  assert.match(svg, /data-tile="5p"/);
  assert.match(svg, /class="[^"]*\bsel\b[^"]*\bwild\b/);
  assert.match(tileSvg("1z", { back: true }), /class="[^"]*\bback\b/);
  assert.doesNotMatch(tileSvg("1z", { back: true }), /东/); // a face-down tile tells nothing
});
