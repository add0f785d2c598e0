// Shared helpers for the lobby and the board (plain ES module, no build step).

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

/** The engine's refusal codes, in words (the engine's own sentence follows them). */
export const REASONS = {
  cannot_afford: "Not enough Cost", wrong_timing: "Not at this moment", wrong_phase: "Not in this phase",
  cost_zone_being_laid: "A Cost Zone is being laid", intake_full: "Your Cost Zone is full for this turn",
  choice_open: "Finish the open choice first", must_choose: "Choose first", needs_target: "Say whom it is for",
  cannot_resist: "It cannot resist that", not_your_decision: "It is not your decision now",
  not_your_turn: "It is not your decision now", not_in_hand: "That card is not in your hand",
  game_over: "The game is over", abilities_off: "Maturity Abilities are off", already_held: "That ability is already held",
  ability_not_held: "That ability is not held", ability_not_ready: "The ability cannot be used now",
  no_boosts: "No boost is on offer", boost_not_allowed: "That boost cannot be taken", no_choice: "Nothing to choose",
  not_an_option: "Not one of the options", unknown_ability: "No such ability", no_such_threat: "No such threat",
  not_your_threat: "Only the target resists", wrong_amount: "Not that amount", not_legal: "Not allowed now",
  stale_state: "The game moved on", wrong_token: "This link's token does not work", not_a_player: "Spectators cannot act",
  wrong_seat: "Not your seat", rate_limited: "Too many messages", illegal_action: "Not allowed",
  malformed_action: "Not understood", no_such_card: "No such card", undo_refused: "Cannot take it back",
  nothing_to_undo: "Nothing to take back yet", not_your_action: "The last action was not yours",
  turn_over: "Only actions of your own turn, within it", hidden_revealed: "A hidden card was shown since",
  seen_by_opponent: "In a duel the other side has seen it", already_answered: "You accepted already: waiting for your teammates",
  cannot_undo: "That cannot be taken back", not_a_duel: "Only a duel can end by agreement",
  offer_open: "An offer to end is already waiting", no_offer: "No offer to end is waiting",
  own_offer: "The other side answers your offer",
  adjust_off: "Setting Maturity or Humility by hand is off at this table",
  adjust_pending: "Your earlier request still waits for an answer",
  no_such_request: "That request is no longer waiting", not_your_request: "Only the other side answers this request",
};
export function reasonWords(code) { return REASONS[code] || words(code || "refused").replace(/^./, (c) => c.toUpperCase()); }
