// Shared helpers for the lobby and the board (plain ES module, no build step).
import { REASONS } from "/static/actions.js";

/** Create an element: el("button", {class: "x", onclick: f}, "text", child...). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (k === "class") node.className = v;
    else if (k === "dataset") Object.assign(node.dataset, v);
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

let catalog = {};
/** Load the card catalog (id -> {name, kind, side, ...}) once; `righteous` and `fee`: the table's
 * number of Righteous seats and target-change fee (with one seat the texts read as that seat's, P-7). */
export async function loadCatalog(righteous = null, fee = null) {
  try {
    const r = await fetch(righteous === 1 ? `/api/cards?righteous=1&fee=${fee ?? 1}` : "/api/cards");
    if (r.ok) catalog = await r.json();
  } catch (e) { /* names fall back to ids */ }
  return catalog;
}
export function cardInfo(id) { return catalog[id] || null; }
export function cardName(id) {
  if (!id) return "a hidden card";
  return (catalog[id] && catalog[id].name) || id;
}

export const KIND_LABELS = {
  maturity: "Maturity", resistance: "Resistance", righteous_habitual: "Righteous Habitual",
  action: "Action", instant: "Instant", temptation: "Temptation", evil_habitual: "Evil Habitual",
};
export const PHASES = {
  draw: "Draw", cost_zone: "Cost Zone", evil: "Evil", resistance: "Resistance", main: "Main", end: "End", over: "Game over",
};
export const ABILITIES = {
  benevolence: "Benevolence / Double Resistance", brotherly_love: "Brotherly Love", restoration: "Restoration",
  deliverance: "Deliverance", vibrancy: "Vibrancy", cost_zone_power: "Cost Zone Power", speed: "Speed",
  foresight: "Foresight",
};
export function abilityName(a) { return ABILITIES[a] || String(a).replace(/_/g, " "); }
export function words(s) { return String(s).replace(/_/g, " "); }

/** Settings named in a URL's query (evilInterrupt, matAbilities, soloFee, ...), as {name: value}. */
export function urlSettings(search = location.search) {
  const q = new URLSearchParams(search);
  const out = {};
  const bool = (v) => !(v === "0" || v === "false" || v === "off" || v === "no");
  if (q.has("evilInterrupt")) out.evilInterrupt = bool(q.get("evilInterrupt"));
  if (q.has("matAbilities")) out.matAbilities = bool(q.get("matAbilities"));
  if (q.has("soloFee")) out.soloFee = Number(q.get("soloFee")) || 1;
  if (q.has("humilityRollover")) out.humilityRollover = bool(q.get("humilityRollover"));
  return out;
}

let abilities = {};
/** Load the Maturity Abilities (id -> {name, text, tier, price}) once; `righteous`: the table's
 * number of Righteous seats (with one, no text speaks of a teammate). */
export async function loadAbilities(righteous = null) {
  try {
    const r = await fetch(righteous ? `/api/abilities?righteous=${righteous}` : "/api/abilities");
    if (r.ok) abilities = await r.json();
  } catch (e) { /* texts fall back to names */ }
  return abilities;
}
export function abilityInfo(a) { return abilities[a] || { id: a, name: abilityName(a), text: "", price: null }; }

/** Every refusal and error code in words (generated into actions.js from server/reason_words.py). */
export { REASONS };
export function reasonWords(code) { return REASONS[code] || words(code || "refused").replace(/^./, (c) => c.toUpperCase()); }
