// The rules panel: a variant's one-line summary, its restrictions and why, the room's
// options and the pattern values, all from the variant's declarations.

import { optionLabel, pick, t } from "./i18n.js";

function esc(text) {
  return String(text ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** An option's value in words. */
export function optionValue(value) {
  if (value === true) return t("yes");
  if (value === false) return t("no");
  if (value === "random") return t("random");
  return String(value);
}

/** The panel's HTML for a variant declaration (GET /api/variants) and resolved options;
 * `now` (a seat's view only) the restrictions in force for it, `{name, reason}` in HTML. */
export function rulesHtml(info, options, now = null) {
  const inForce = now == null
    ? ""
    : `<h3>${esc(t("in_force"))}</h3><ul class="restrictions in-force">` +
      (now.length ? now.map((r) => `<li><b>${r.name}</b><br>${r.reason}</li>`).join("") : `<li class="muted">${esc(t("none_in_force"))}</li>`) +
      "</ul>";
  const restrictions = (info.restrictions || [])
    .map((r) => `<li><b>${esc(r.zh)}</b> <i>${esc(r.en)}</i><br>${esc(r.rule)}</li>`)
    .join("");
  const opts = (info.options || [])
    .map((o) => {
      const value = options && o.id in options ? options[o.id] : o.default;
      return `<tr><td>${esc(optionLabel(o))}</td><td>${esc(optionValue(value))}</td><td class="muted">${esc(o.doc)}</td></tr>`;
    })
    .join("");
  const patterns = (info.patterns || [])
    .map((p) => `<tr><td>${esc(p.zh)}</td><td>${esc(p.en)}</td><td>${esc(p.value)}</td></tr>`)
    .join("");
  const readings = (info.readings || []).map((r) => `<li>${esc(r)}</li>`).join("");
  return `<h2>${esc(info.zh)} · ${esc(info.name)}</h2>` +
    `<h3>${esc(t("summary"))}</h3><p>${esc(pick(info.summary))}</p>` + inForce +
    `<h3>${esc(t("restrictions"))}</h3><ul class="restrictions">${restrictions}</ul>` +
    `<h3>${esc(t("options_now"))}</h3><table class="opts">${opts}</table>` +
    `<h3>${esc(t("pattern_values"))}</h3><table class="opts">${patterns}</table>` +
    (readings ? `<details><summary>${esc(t("readings"))}</summary><ul>${readings}</ul></details>` : "");
}
