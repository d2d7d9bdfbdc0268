// The rules panel: a variant's one-line summary, its restrictions and why, the room's
// options and the pattern values, all from the variant's declarations.

import { optionList, pick, pickField, t, variantName } from "./i18n.js";

function esc(text) {
  return String(text ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The panel's HTML for a variant declaration (GET /api/variants) and resolved options;
 * `now` (a seat's view only) the restrictions in force for it, `{name, reason}` in HTML.
 * Every text in the page's language: names, rules, option values by name, readings. */
export function rulesHtml(info, options, now = null) {
  const inForce = now == null
    ? ""
    : `<h3>${esc(t("in_force"))}</h3><ul class="restrictions in-force">` +
      (now.length ? now.map((r) => `<li><b>${r.name}</b><br>${r.reason}</li>`).join("") : `<li class="muted">${esc(t("none_in_force"))}</li>`) +
      "</ul>";
  const restrictions = (info.restrictions || [])
    .map((r) => `<li><b>${esc(pick(r))}</b><br>${esc(pickField(r, "rule"))}</li>`)
    .join("");
  const opts = optionList(info, options)
    .map((o) => `<tr><td>${esc(o.name)}</td><td>${esc(o.value)}</td><td class="muted">${esc(o.hint)}</td></tr>`)
    .join("");
  const patterns = (info.patterns || [])
    .map((p) => `<tr><td>${esc(pick(p))}</td><td>${esc(pickField(p, "value"))}</td></tr>`)
    .join("");
  const readings = (pickField(info, "readings") || []).map((r) => `<li>${esc(r)}</li>`).join("");
  return `<h2>${esc(variantName(info))}</h2>` +
    `<h3>${esc(t("summary"))}</h3><p>${esc(pick(info.summary))}</p>` + inForce +
    `<h3>${esc(t("restrictions"))}</h3><ul class="restrictions">${restrictions}</ul>` +
    `<h3>${esc(t("options_now"))}</h3><table class="opts">${opts}</table>` +
    `<h3>${esc(t("pattern_values"))}</h3><table class="opts">${patterns}</table>` +
    (readings ? `<details><summary>${esc(t("readings"))}</summary><ul>${readings}</ul></details>` : "");
}
