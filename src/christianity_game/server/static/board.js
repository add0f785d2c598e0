// The board: one WebSocket per seat token (several in hot-seat), the seat's view drawn from the
// server's JSON, and only the legal actions of `view.pending` offered.
import { el, loadCatalog, cardName, cardInfo, KIND_LABELS, PHASES, abilityName, words, urlSettings, loadAbilities, abilityInfo, reasonWords } from "/static/common.js";
import { eventText as logText, pageSeats, WINNERS } from "/static/events.js";
import { DESCRIPTIONS } from "/static/actions.js";

const $ = (s) => document.querySelector(s);
const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const frag = new URLSearchParams(location.hash.slice(1));
const tokens = (frag.get("tokens") || frag.get("token") || "").split(",").map((t) => t.trim()).filter(Boolean);

/** One connection a token: {token, ws, seat, role, view, seatsInfo, lastState, undo, endOffer} */
const conns = [];
let shownIdx = 0;          // which connection's view is on screen
let coverFor = null;       // hot-seat: the connection waiting behind "pass the device"
let coverFirst = true;     // hot-seat: the first seat to act also gets the cover
let log = [];              // events of the shown log (from the first connection)
let lastCard = null;       // the last card played or resolved (names boosts)
let refCounter = 0;
let explained = null;      // /api/games/{id}/explain for the shown seat at this state: reasons and prices
let explainFor = null;     // "token:state_id" it was asked for
let turnRewards = [];      // duel: micro-rewards and boosts earned this turn, with why
let prevCounts = null;     // duel: the engine's tallies at the previous view (to tell why a reward came)
let fatal = false;         // the seat's link no longer works: stop reconnecting
let table = null;          // the game's public summary (/api/games/{id}): manualAdjust and the seats
const adjustReqs = new Map();   // request id -> adjust_request (waiting for an answer), deduplicated over the connections
const adjustDone = new Set();   // request ids already resolved (each connection hears of it)
const MAX_RETRIES = 8;     // reconnect tries in a row before asking the player (about 40 s)

function cur() { return conns[shownIdx]; }
function view() { return cur() && cur().view; }
function seatInfo(i) { const c = conns[0]; return c && c.seatsInfo ? c.seatsInfo.find((s) => s.seat === i) : null; }
function mySeats() { return new Set(conns.filter((c) => c.seat !== null && c.seat !== undefined).map((c) => c.seat)); }

function seatName(i, { short = false } = {}) {
  if (i === null || i === undefined) return "the Evil deck";
  const v = view();
  const seat = v && v.seats[i];
  const side = seat ? (seat.side === "evil" ? "Evil" : "Righteous") : "";
  const info = seatInfo(i);
  let name = (info && info.name) || `Seat ${i + 1}`;
  if (short) return name;
  const bits = [side];
  if (info && info.kind === "bot") bits.push(`bot`);
  if (cur() && cur().seat === i) bits.push("you");
  return `${name} (${bits.filter(Boolean).join(", ")})`;
}

// ------------------------------------------------------------------ connection
function connect(c) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws/${encodeURIComponent(gameId)}`);
  c.ws = ws;
  ws.addEventListener("open", () => {
    ws.send(JSON.stringify({ type: "hello", token: c.token, state_id: c.lastState ?? 0 }));
  });
  ws.addEventListener("message", (e) => onMessage(c, JSON.parse(e.data)));
  ws.addEventListener("close", (e) => onClose(c, e));
}

/** The server's close codes, in words: final ones say so and lead back; reconnect only where it helps. */
const CLOSES = {
  4403: { code: "origin_refused", text: "The server refuses this page: it was opened from another site's address. Open the game from the server's own address (the seat's link)." },
  4404: { code: "no_such_game", text: "There is no such game on this server: it may have been removed." },
  4408: { code: "not_joined", text: "The connection did not say which seat it is in time, so the server closed it.", retry: true },
  4410: { code: "game_not_resumable", text: "This game cannot go on: it was stored under rules this server no longer plays (an upgrade of the rules). Its record can still be downloaded.", record: true },
  4429: { code: "too_many_connections", text: "Too many connections: this seat is open in too many tabs or windows (4 at most), or this address has too many open. Close some, then try again.", retry: true },
  1011: { code: "game_unavailable", text: "This game is unavailable: its stored record no longer replays or its stored rows are damaged. Other games are not affected." },
};

function onClose(c, e) {
  if (fatal || c.dead || c.ws === null) return;
  const known = CLOSES[e.code];
  const internal = e.code === 1011 && /reconnect/i.test(e.reason || "");   // a failed update: resync helps
  if (known && !internal) {
    const extra = [];
    if (known.record) extra.push(el("button", { type: "button", id: "close-download", onclick: downloadRecord }, "Download the record"));
    if (known.retry) extra.push(el("button", { type: "button", id: "close-retry", onclick: () => location.reload() }, "Try again"));
    linkDead(c, known.code, known.text, extra, e.code);
    return;
  }
  if (e.code >= 4400 && e.code < 4500) { linkDead(c, e.reason || "refused", `The server closed this seat's connection: ${words(e.reason || "refused")}.`, [], e.code); return; }
  // 1013 (the page fell behind), 1011 after a failed update, a network drop (1006), a server restart (1000/1001)
  c.retry = (c.retry || 0) + 1;
  const now = Date.now();   // a connection that keeps dropping right after joining stops too
  c.drops = (c.drops || []).filter((t) => now - t < 120_000).concat([now]);
  if (c.retry > MAX_RETRIES || c.drops.length > 12) {
    c.drops = [];
    setStatus("");
    $("#status").replaceChildren(el("span", { id: "conn-lost", class: "error-banner", dataset: { code: String(e.code) } },
      "The server cannot be reached (tried for about 40 seconds). ",
      el("button", { type: "button", id: "reconnect", onclick: () => { c.retry = 0; setStatus("Reconnecting…"); connect(c); } }, "Try again"),
      el("a", { href: "/", class: "button" }, "Back to the lobby")));
    return;
  }
  setStatus(e.code === 1013 ? "Your connection fell behind the game: reconnecting to catch up…" : "Connection lost: reconnecting…");
  setTimeout(() => connect(c), Math.min(8000, 500 * 2 ** (c.retry - 1)));
}

function onMessage(c, msg) {
  const primary = c === conns[0];
  switch (msg.type) {
    case "welcome":
      c.retry = 0;
      if (primary) adjustReqs.clear();   // the server sends the waiting requests again right after
      c.seat = msg.seat; c.role = msg.role; c.seatsInfo = msg.seats;
      if (primary && msg.since !== null && msg.since !== undefined && (c.lastState ?? 0) === 0) log = [];
      tableState(c, msg);
      setView(c, msg.view, msg.events, primary);
      break;
    case "update":
    case "sync":
      if (msg.type === "sync" && primary && msg.since === 0) log = [];
      tableState(c, msg);
      setView(c, msg.view, msg.events, primary);
      break;
    case "adjust_request":
      onAdjustRequest(msg);
      break;
    case "adjust_resolved":
      onAdjustResolved(msg);
      break;
    case "error":
      if (["too_many_connections", "origin_refused", "not_joined", "game_unavailable", "game_not_resumable"].includes(msg.code)) {
        c.closeNote = msg.message;   // the close that follows says it in words
        break;
      }
      if (c.role === null && ["wrong_token", "missing_token", "no_such_game", "token_revoked", "seat_revoked", "not_invited"].includes(msg.code)) {
        linkDead(c, msg.code, msg.code === "no_such_game" ? "There is no such game on this server."
          : "This link's seat token does not work (any more): the seat may have been given to someone else, or the link was copied incompletely.");
        break;
      }
      if (msg.code === "stale_state") toast("The game moved on before your action arrived; here is where it stands now.");
      else toast(`${reasonWords(msg.reason || msg.code)}: ${pageSeats(msg.message)}`);
      break;
    default:
      break;
  }
}

/** What the server says beside the view: may this seat undo now (else why), and whose offer to end a duel waits. */
function tableState(c, msg) {
  c.undo = msg.undo || null;
  c.endOffer = msg.end_offer || null;
  c.endWaiting = msg.end_waiting || [];
}

/** The seat's link no longer works: say why in words, offer the lobby, stop reconnecting. */
function linkDead(c, code, text, extra = [], closeCode = null) {
  c.dead = true;
  if (conns.every((x) => x.dead)) fatal = true;
  try { c.ws.close(); } catch (e) { /* already closed */ }
  $("#status").replaceChildren(el("span", { id: "link-dead", class: "error-banner", dataset: { code, close: closeCode ?? "" },
    title: c.closeNote || "" }, `${text} `, ...extra,
    el("a", { href: "/", class: "button" }, "Back to the lobby")));
}

// ------------------------------------------------------------------ manual adjustment by request
function badgeWord(kind) { return kind === "humility" ? "Humility" : "Maturity"; }
function adjustWords(req) {
  const a = req.action || {};
  return `${badgeWord(a.badge)} to ${a.badge === "maturity" ? `L${a.value}` : `${a.value}/10`}`;
}
function seatsWords(list) {
  const names = (list || []).map((i) => seatName(i, { short: true }));
  return names.length <= 1 ? (names[0] || "nobody") : `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`;
}
function note(text, cls = "") {
  const v = conns[0] && conns[0].view;
  log.push({ kind: "note", text, cls, state_id: v ? v.state_id : 0 });
}

function onAdjustRequest(msg) {
  if (adjustReqs.has(msg.request) || adjustDone.has(msg.request)) return;
  adjustReqs.set(msg.request, msg);
  note(`${seatName(msg.by, { short: true })} asks to set their ${adjustWords(msg)} by hand: waiting for ${seatsWords(msg.answerers)} to accept or decline.`, "adjust-request");
  if (view()) render();
}

function onAdjustResolved(msg) {
  if (adjustDone.has(msg.request)) return;
  adjustDone.add(msg.request);
  const req = adjustReqs.get(msg.request) || { action: null, by: msg.by };
  adjustReqs.delete(msg.request);
  const who = seatName(msg.by, { short: true });
  const answer = msg.answered_by !== null && msg.answered_by !== undefined ? seatName(msg.answered_by, { short: true }) : "The other side";
  const what = req.action ? adjustWords(req) : "a badge";
  const text = msg.outcome === "accepted" ? `${answer} accepted: ${who}'s ${what.replace(" to ", " is now ")}.`
    : msg.outcome === "declined" ? `${answer} declined ${who}'s request (${what}): nothing changed.`
      : `${who}'s request (${what}) was withdrawn: it no longer applies (the game moved on or ended); nothing changed.`;
  note(text, `adjust-${msg.outcome}`);
  toast(text);
  if (view()) render();
}

function answerAdjust(req, accept) {
  const c = conns.find((x) => !x.dead && x.seat !== null && x.seat !== undefined && req.answerers.includes(x.seat));
  if (!c || !c.ws || c.ws.readyState !== 1) { toast("Not connected."); return; }
  req.answered = true;
  c.ws.send(JSON.stringify({ type: "adjust_answer", token: c.token, request: req.request, accept, ref: ++refCounter }));
  render();
}

/** Every waiting request, shown to everyone: Accept / Decline for a seat that may answer, else who it waits for. */
function adjustPrompts(v) {
  const out = [];
  for (const req of adjustReqs.values()) {
    const who = seatName(req.by, { short: true });
    const a = req.action || {};
    const seat = v.seats[req.by];
    const now = seat && a.badge ? ` (now ${a.badge === "maturity" ? `L${seat.maturity}` : `${seat.humility}/10`})` : "";
    const mayAnswer = conns.some((x) => !x.dead && x.seat !== null && x.seat !== undefined && req.answerers.includes(x.seat));
    const mine = conns.some((x) => x.seat === req.by);
    const head = mine ? `You asked to set your ${adjustWords(req)}${now}` : `${who} asks to set their ${adjustWords(req)}${now}`;
    let body;
    if (mayAnswer && !req.answered) {
      body = el("div", { class: "row" },
        el("button", { type: "button", class: "primary", id: "adjust-accept", onclick: () => answerAdjust(req, true) }, "Accept"),
        el("button", { type: "button", id: "adjust-decline", onclick: () => answerAdjust(req, false) }, "Decline"));
    } else if (mayAnswer) {
      body = el("p", { class: "note" }, "Answer sent…");
    } else {
      body = el("p", { class: "note", id: mine ? "adjust-waiting" : null },
        `Waiting for the other side: ${seatsWords(req.answerers)} accepts or declines. Nothing changes until then.`);
    }
    out.push(el("div", { class: "adjust-request", id: `adjust-request-${req.request}`, role: "alert", dataset: { request: req.request } },
      el("p", { class: "prompt" }, el("b", {}, head), mayAnswer && !mine ? ". Accept to apply it, or decline." : "."), body));
  }
  return out;
}

/** The table's manual-adjustment setting (from the game's summary); "free" until known. */
function tableAdjust() { return (table && table.manualAdjust) || "free"; }
/** Who would answer this seat's adjustment (as the server decides): people on the other side, else other people. */
function answerersFor(seat) {
  const info = (conns[0] && conns[0].seatsInfo) || (table && table.seats) || [];
  const side = (info.find((s) => s.seat === seat) || {}).side;
  const people = info.filter((s) => s.kind === "human" && s.seat !== seat);
  const other = people.filter((s) => s.side !== side).map((s) => s.seat);
  return other.length ? other : people.map((s) => s.seat);
}
const ADJUST_MENU = {
  ask: "ask: a value set by hand is a request the other side accepts or declines",
  free: "free: a value set by hand applies at once",
  off: "off: nobody can set Maturity or Humility by hand",
};
function renderAdjustMenu() {
  const m = tableAdjust();
  const n = $("#menu-adjust");
  n.textContent = `Maturity/Humility by hand at this table: ${ADJUST_MENU[m] || m}. Chosen when the game was created.`;
  n.dataset.adjust = m;
}

function setView(c, v, events, primary) {
  if (c.view && v.state_id !== c.view.state_id) $("#toast").hidden = true;
  c.view = v;
  c.lastState = v.state_id;
  if (primary && events) {
    for (const e of events) {
      if (e.kind === "played" || e.kind === "resolved" || e.kind === "threat_played") lastCard = e.card || lastCard;
      if (e.kind === "turn_started") turnRewards = [];
      log.push(e);
    }
    if (v.duel) noteRewards(v, events);
  }
  chooseShown();
  render();
}

/** Hot-seat: show the local seat whose decision it is, behind a "pass the device" screen. */
function chooseShown() {
  if (conns.length < 2) return;
  const v = conns[0].view;
  if (!v) return;
  const decider = v.decider;
  const idx = conns.findIndex((c) => c.seat === decider);
  if (idx >= 0 && (idx !== shownIdx || coverFirst)) {
    shownIdx = idx;
    coverFor = idx;
    coverFirst = false;
  }
}

function send(action) {
  const c = cur();
  if (!c || !c.view || !c.ws || c.ws.readyState !== 1) { toast("Not connected."); return; }
  const a = { ...action };
  if (c.seat !== null && c.seat !== undefined) a.seat = c.seat;
  closePopovers();
  c.ws.send(JSON.stringify({ type: "action", token: c.token, state_id: c.view.state_id, action: a, ref: ++refCounter }));
}

// ------------------------------------------------------------------ cards
/** How many Righteous seats the table has (one: no teammate, P-7). */
function righteousCount(v) { return v ? v.seats.filter((s) => s.side === "righteous").length : 0; }

/** A card picture's address: at a table with one Righteous seat, as that seat reads the card
 * (a teammate is "you", the target-change fee is named: P-7). */
function cardSrc(id) {
  const v = view();
  if (righteousCount(v) !== 1) return `/cards/${id}.svg`;
  return `/cards/${id}.svg?righteous=1&fee=${(v.settings || {}).solo_fee ?? 1}`;
}

function cardImg(card, { side, small } = {}) {
  if (!card || card.hidden || !card.id) {
    return el("img", { src: `/cards/back.svg${side ? `?side=${side}` : ""}`, alt: "a face-down card", draggable: "false" });
  }
  return el("img", { src: cardSrc(card.id), alt: card.name || cardName(card.id), draggable: "false", loading: "lazy" });
}

function cardEl(card, opts = {}) {
  const classes = ["card"];
  if (card.tapped) classes.push("tapped");
  if (card.face_up) classes.push("face-up");
  if (opts.playable) classes.push("playable");
  if (opts.extra) classes.push(opts.extra);
  const label = card.hidden ? "face-down card" : (card.name || cardName(card.id));
  const b = el("button", {
    type: "button", class: classes.join(" "), title: label,
    "aria-label": label + (card.tapped ? " (rotated)" : "") + (card.face_up ? " (face up)" : ""),
    dataset: { uid: card.uid ?? "", id: card.id ?? "" },
  }, el("span", { class: "card-inner" }, cardImg(card, opts)));
  if (!card.hidden && card.id) attachPreview(b, card);   // a face-down card never enlarges
  b.addEventListener("click", (e) => { e.stopPropagation(); (opts.onclick || ((ev) => zoomTap(card)))(e); });
  return b;
}

/** A card's words for reading: its kind, Cost and Resistance, and its rules text (from the catalog). */
function cardFacts(card) {
  const info = cardInfo(card.id) || {};
  const kind = KIND_LABELS[card.kind || info.kind] || words(card.kind || info.kind || "");
  const bits = [kind];
  if (info.cost !== undefined && info.cost !== null) bits.push(`Cost C${info.cost}`);
  if (info.resistance !== undefined && info.resistance !== null) bits.push(`Resistance R${info.resistance}`);
  return el("div", { class: "card-facts" },
    el("b", { class: "facts-name" }, card.name || info.name || cardName(card.id)),
    el("span", { class: "facts-kind" }, bits.filter(Boolean).join(" · ")),
    info.text ? el("p", { class: "facts-text" }, info.text) : null);
}

// The tap zoom (a card with nothing to do: its picture and words, until a tap elsewhere)
function showZoom(card) {
  const z = $("#zoom");
  z.replaceChildren(el("img", { src: cardSrc(card.id), alt: card.name || cardName(card.id) }), cardFacts(card));
  z.hidden = false;
  z.classList.add("sticky");
}
function zoomTap(card) {
  if (!card || card.hidden || !card.id) return;
  hidePreview();
  showZoom(card);
}

// ------------------------------------------------------------------ card preview: hover (mouse) or long-press (touch)
// The card drawn large (about 2.5 times its thumbnail, never past the viewport's edges) with its name,
// kind, Cost, Resistance and rules text; gone on mouse leave, touch end, a tap elsewhere or Escape.
// A quick tap still does what it did (the card's actions); a long-press neither taps nor opens the
// browser's context menu. Face-down cards never get one.
const LONG_PRESS_MS = 500;
let preview = null;             // {card, anchor, how: "hover" | "press"}
let suppressClickUntil = 0;     // the click a long-press's touchend would cause
let lastTouch = 0;

function previewBox() {
  let p = document.getElementById("card-preview");
  if (!p) {
    p = el("div", { id: "card-preview", class: "card-preview", role: "tooltip" });
    p.hidden = true;
    document.body.append(p);
  }
  return p;
}

function attachPreview(b, card) {
  b.addEventListener("pointerenter", (e) => { if (e.pointerType === "mouse") showPreview(card, b, "hover"); });
  b.addEventListener("pointerleave", (e) => { if (e.pointerType === "mouse" && preview && preview.how === "hover") hidePreview(); });
  let press = null;
  const cancel = () => { if (press) clearTimeout(press.timer); press = null; };
  b.addEventListener("touchstart", (e) => {
    lastTouch = Date.now();
    cancel();
    if (e.touches.length !== 1) return;
    const t = e.touches[0];
    const p = { x: t.clientX, y: t.clientY, fired: false };
    p.timer = setTimeout(() => { p.fired = true; showPreview(card, b, "press"); }, LONG_PRESS_MS);
    press = p;
  }, { passive: true });
  b.addEventListener("touchmove", (e) => {
    const t = e.touches[0];
    if (press && !press.fired && t && Math.hypot(t.clientX - press.x, t.clientY - press.y) > 10) cancel();
  }, { passive: true });
  b.addEventListener("touchend", (e) => {
    lastTouch = Date.now();
    if (press && press.fired) {
      e.preventDefault();                        // no click after a long-press
      suppressClickUntil = Date.now() + 500;
      hidePreview();
    }
    cancel();
  });
  b.addEventListener("touchcancel", () => { if (press && press.fired) hidePreview(); cancel(); });
  b.addEventListener("contextmenu", (e) => {     // a long-press on a touch screen: no browser menu
    if (press || Date.now() - lastTouch < 1500) e.preventDefault();
  });
  b.addEventListener("click", (e) => {
    if (Date.now() < suppressClickUntil) { e.preventDefault(); e.stopImmediatePropagation(); }
  }, true);
}

function showPreview(card, anchor, how) {
  if (!card || card.hidden || !card.id) return;
  if (anchor && !anchor.isConnected) anchor = document.querySelector(`.card[data-uid="${card.uid}"]`) || anchor;
  const p = previewBox();
  const r = anchor ? anchor.getBoundingClientRect() : null;
  const thumb = r ? (anchor.classList.contains("tapped") ? r.height : r.width) : 80;
  const vw = window.innerWidth, vh = window.innerHeight;
  const stacked = vw < 640;                        // a phone: the words below the picture
  let w = Math.max(stacked ? 220 : 200, Math.min(300, thumb * 2.6));
  w = stacked ? Math.min(w, vw - 40, (vh - 190) / 1.397) : Math.min(w, (vh - 24) / 1.397, vw - 300);
  p.style.setProperty("--preview-w", `${Math.max(120, Math.round(w))}px`);
  p.classList.toggle("stacked", stacked);
  p.dataset.uid = String(card.uid ?? "");
  p.dataset.id = card.id;
  p.dataset.how = how;
  p.replaceChildren(el("img", { src: cardSrc(card.id), alt: card.name || cardName(card.id), draggable: "false" }), cardFacts(card));
  p.hidden = false;
  preview = { card, anchor, how };
  placePreview(p, r);
}

/** Beside the card, above it where there is room (the hand is low), else below, else to one side; always inside the viewport. */
function placePreview(p, r) {
  const vw = window.innerWidth, vh = window.innerHeight, m = 8;
  const w = p.offsetWidth, h = p.offsetHeight;
  let left, top;
  if (!r) { left = (vw - w) / 2; top = (vh - h) / 2; }
  else if (r.top - m - h >= m) { left = r.left + r.width / 2 - w / 2; top = r.top - m - h; }
  else if (r.bottom + m + h <= vh - m) { left = r.left + r.width / 2 - w / 2; top = r.bottom + m; }
  else {
    left = r.right + m + w <= vw - m ? r.right + m : r.left - m - w;
    top = r.top + r.height / 2 - h / 2;
  }
  p.style.left = `${Math.round(Math.max(m, Math.min(vw - w - m, left)))}px`;
  p.style.top = `${Math.round(Math.max(m, Math.min(vh - h - m, top)))}px`;
}

function hidePreview() {
  const p = document.getElementById("card-preview");
  if (p) p.hidden = true;
  preview = null;
}

/** After the board is drawn again: follow the card to its new element, or let the preview go. */
function refreshPreview() {
  if (!preview || (preview.anchor && preview.anchor.isConnected)) return;
  const again = document.querySelector(`.card[data-uid="${preview.card.uid}"]${preview.how === "hover" ? ":hover" : ""}`);
  if (again) { preview.anchor = again; placePreview(previewBox(), again.getBoundingClientRect()); } else if (preview.how === "hover") hidePreview();
}
// a touch elsewhere lets a preview go; scrolling takes it along with its card (or lets it go with it)
document.addEventListener("touchstart", (e) => {
  if (preview && !(preview.anchor && preview.anchor.contains(e.target))) hidePreview();
}, { passive: true, capture: true });
document.addEventListener("scroll", () => {
  if (!preview || !preview.anchor || !preview.anchor.isConnected) return;
  const r = preview.anchor.getBoundingClientRect();
  if (r.bottom < 0 || r.top > window.innerHeight) hidePreview(); else placePreview(previewBox(), r);
}, { passive: true, capture: true });

// ------------------------------------------------------------------ labels
function passLabel(v) {
  if (v.choice) return "Pass: done choosing";
  if (v.pending.some((a) => a.type === "TakeBoost")) return "Pass: no more boosts";
  if (v.stack && v.stack.length) return "Pass: let the stack resolve";
  if (v.phase === "cost_zone") return "Pass: done with the Cost Zone";
  const me = cur() && cur().seat;
  if (v.pending.some((a) => a.type === "Resist") && v.turn_seat !== me) return "Pass: take the hit";
  if (v.phase === "resistance") return "Pass: done resisting";
  if (v.phase === "main" && v.turn_seat === me) return "Pass: end my turn";
  return "Pass";
}

function uidName(v, uid) {
  const find = (list) => (list || []).find((c) => c.uid === uid);
  let c = find(v.threats) || find(v.stack) || (v.choice && find(v.choice.options));
  for (const s of v.seats) c = c || find(s.hand) || find(s.cost_zone) || find(s.in_play) || find(s.held) || find(s.discard);
  c = c || find(v.field) || find(v.piles.resisted) || find(v.piles.failed);
  return c ? (c.name || cardName(c.id)) : `card ${uid}`;
}

function playLabel(v, a) {
  let s = a.type === "LayCostZone" ? "Lay in Cost Zone" : "Play";
  if (a.type === "PlayCard") {
    if (a.threat !== undefined && a.threat !== null) s += ` against ${uidName(v, a.threat)}`;
    // P-7: with no teammate the card is aimed at its player, for the target-change fee
    if (a.to_seat !== undefined && a.to_seat !== null && a.to_seat !== cur().seat) s += ` at ${seatName(a.to_seat, { short: true })}`;
    else if (a.to_seat !== undefined && a.to_seat !== null) s += ` (aimed at yourself: C${(v.settings || {}).solo_fee ?? 1} target-change fee)`;
  }
  return s;
}

function resistWords(v, a) {
  const t = (v.threats || []).find((x) => x.uid === a.threat);
  const left = t && t.remaining !== undefined && t.remaining !== null ? t.remaining : null;
  return left !== null && a.amount < left ? `pay ${a.amount} (partial)` : `pay ${a.amount}`;
}

function actionLabel(v, a) {
  switch (a.type) {
    case "Pass": return passLabel(v);
    case "Resist": return `Resist ${uidName(v, a.threat)}: ${resistWords(v, a)}`;
    case "TakeBoost": {
      const who = a.payer !== undefined && a.payer !== cur().seat ? `, paid by ${seatName(a.payer, { short: true })}` : "";
      const to = a.to_seat !== undefined && a.to_seat !== null && a.to_seat !== cur().seat ? `, for ${seatName(a.to_seat, { short: true })}` : "";
      return `Take boost ${a.index + 1}${lastCard ? ` of ${cardName(lastCard)}` : ""}${who}${to}`;
    }
    case "UseAbility": return `Use ${abilityName(a.ability)}${a.to_seat === undefined || a.to_seat === null ? ""
      : a.to_seat === cur().seat ? " (on yourself)" : ` for ${seatName(a.to_seat, { short: true })}`}`;
    case "BuyAbility": return `Buy ${abilityName(a.ability)}`;
    case "ChooseAbility": return `Choose ${abilityName(a.ability)}`;
    case "Choose": return `Choose ${uidName(v, a.option)}`;
    case "ChooseReward": return `Reward: ${words(a.reward)}${a.to_seat !== undefined && a.to_seat !== null ? ` for ${seatName(a.to_seat, { short: true })}` : ""}`;
    case "LayCostZone": case "PlayCard": return `${playLabel(v, a)}: ${uidName(v, a.card)}`;
    default: return DESCRIPTIONS[a.type] || words(a.type);   // a kind with no label of its own here
  }
}

// ------------------------------------------------------------------ rendering
function setStatus(text) { $("#status").textContent = text; }

/** Ask the server (once per state) why each card cannot be played and what each play costs. */
async function fetchExplain() {
  const c = cur();
  const v = view();
  if (!c || !v || c.seat === null || c.seat === undefined) return null;
  const key = `${c.token}:${v.state_id}`;
  if (explainFor === key && explained) return explained;
  explainFor = key;
  try {
    const r = await fetch(`/api/games/${encodeURIComponent(gameId)}/explain?token=${encodeURIComponent(c.token)}`);
    const data = r.ok ? await r.json() : null;
    if (explainFor === key) explained = data;
    return data;
  } catch (e) { return null; }
}
function currentExplain() {
  const c = cur(), v = view();
  return c && v && explainFor === `${c.token}:${v.state_id}` ? explained : null;
}
function priceOf(a) {
  const x = currentExplain();
  if (!x) return null;
  const m = x.plays.find((p) => p.card === a.card && (p.threat ?? null) === (a.threat ?? null) && (p.to_seat ?? null) === (a.to_seat ?? null));
  return m ? m.price : null;
}

function render() {
  const c = cur();
  const v = view();
  if (!v) return;
  if (c.seat !== null && c.seat !== undefined && !v.result && explainFor !== `${c.token}:${v.state_id}`) {
    fetchExplain().then(() => { document.body.dataset.explained = String(v.state_id); renderHand(view()); });
  }
  document.body.classList.toggle("is-duel", v.mode === "duel");
  document.body.dataset.stateId = String(v.state_id);
  window.gameView = v;   // for tests and the browser's console
  renderStatus(v);
  renderSettings(v);
  renderSeats(v);
  renderMiddle(v);
  renderHand(v);
  renderDecide(v);
  renderOfferMenu(v);
  renderAdjustMenu();
  renderAbilities(v);
  renderClocks(v);
  renderLog();
  renderEnd(v);
  renderCover();
  refreshPreview();
}

/** The duel's round limit (the roundLimit play-test variant), or 0: the printed duel has none. */
function roundLimit(v) { return v.mode === "duel" ? Number((v.settings || {}).round_limit || 0) : 0; }

function roundText(v) {
  const limit = roundLimit(v);
  if (limit) {
    const left = limit - v.round;
    return v.result ? `Round ${Math.min(v.round, limit)} of ${limit}`
      : `Round ${v.round} of ${limit} (${left > 0 ? `${left} more after this, then` : "the last: then"} the score decides)`;
  }
  if (v.max_rounds && v.round > v.max_rounds) return `Clearing round (after round ${v.max_rounds})`;
  if (v.result && v.max_rounds && v.result.round) return `Round ${Math.min(v.result.round, v.max_rounds)} of ${v.max_rounds}`;
  return `Round ${v.round}${v.max_rounds ? ` of ${v.max_rounds}` : ""}`;
}

/** D-SCORE in words, with the numbers it is made of: the piles count every card that ever entered
 * them (a refill takes cards back out of the piles, never out of the score), so "in all" and
 * "now" differ in a long game. */
function scoreSentence(v) {
  const p = v.score_parts;
  if (!p) return "Stalemate score: Righteous = Maturity ×5 + Resisted; Evil = Failed + Evil Habituals in play ×5";
  const n = (k, one, many) => `${k} ${k === 1 ? one : many}`;
  return `Stalemate score. Righteous ${v.score[0]} = Maturity ${p.maturity} (the Righteous levels summed) ×5`
    + ` + ${n(p.resisted, "card", "cards")} resisted in all (${v.piles.resisted.length} in the Resisted pile now).`
    + ` Evil ${v.score[1]} = ${n(p.failed, "card", "cards")} failed in all (${v.piles.failed.length} in the Failed pile now)`
    + ` + ${n(p.evil_habituals, "Evil Habitual", "Evil Habituals")} in play ×5.`
    + " The piles count every card that ever entered them: a refill takes cards out of the piles, never out of the score.";
}

function renderStatus(v) {
  const parts = [];
  const mode = v.mode === "duel" ? "Duel" : v.mode === "solo" ? "Solo" : "Co-op";
  parts.push(el("span", { class: "mode" }, mode));
  parts.push(el("span", { id: "round" }, roundText(v)));
  parts.push(el("span", { id: "turn" }, `${seatName(v.turn_seat, { short: true })}'s turn`));
  parts.push(el("span", { id: "phase" }, `${v.phase === "over" ? "Game over" : `${PHASES[v.phase] || words(v.phase)} phase`}`));
  const sp = v.score_parts;
  parts.push(el("span", { id: "score", title: scoreSentence(v) },
    `Score R ${v.score[0]}`, sp ? el("span", { class: "score-parts" }, ` (Maturity ${sp.maturity}×5 + ${sp.resisted} resisted)`) : null,
    ` : E ${v.score[1]}`, sp ? el("span", { class: "score-parts" }, ` (${sp.failed} failed + ${sp.evil_habituals}×5 Evil Habituals)`) : null));
  let who;
  if (v.result) {
    who = el("b", { id: "decider", class: "over" }, `Game over: ${WINNERS[v.result.winner] || words(v.result.winner)}`);
  } else if (v.decider === null || v.decider === undefined) {
    who = el("span", { id: "decider" }, "…");
  } else if (cur().seat === v.decider) {
    who = el("b", { id: "decider", class: "yours" }, "Your decision");
  } else {
    who = el("span", { id: "decider" }, `Waiting for ${seatName(v.decider)}`);
  }
  parts.push(who);
  if (cur().role === "spectator") parts.push(el("span", { class: "tag" }, "Watching"));
  $("#status").replaceChildren(...parts.flatMap((p, i) => (i ? [" · ", p] : [p])));
}

let menuSynced = false;
/** The game menu's switches start at this game's settings (a link's settings win: they are for the next game). */
function syncMenu(v) {
  if (menuSynced) return;
  menuSynced = true;
  const s = v.settings || {};
  const us = urlSettings();
  $("#menu-evilInterrupt").checked = us.evilInterrupt ?? !!s.evil_interrupt;
  $("#menu-matAbilities").checked = us.matAbilities ?? !!s.mat_abilities;
  $("#menu-evilInterrupt").dispatchEvent(new Event("change"));
}

function renderSettings(v) {
  syncMenu(v);
  const s = v.settings || {};
  const bits = [];
  if (v.mode === "duel") bits.push(`Evil Interrupt ${s.evil_interrupt ? "on" : "off"}`);   // a duel setting only
  bits.push(`Maturity Abilities ${s.mat_abilities ? "on" : "off"}`);
  if (v.mode === "solo") bits.push(`Solo fee C${s.solo_fee}`);
  $("#settings-line").textContent = bits.join(" · ");
  $("#settings-line").dataset.evilInterrupt = s.evil_interrupt ? "1" : "0";
  $("#settings-line").dataset.matAbilities = s.mat_abilities ? "1" : "0";
  renderVariants(v);
}

/** What this table departs from the printed rules (the game's summary says it, from engine/variants.py). */
function renderVariants(v) {
  const tv = table && table.variants;
  const on = tv && Object.keys(tv.on || {}).length;
  const line = $("#variants-line");
  line.hidden = !on;
  line.textContent = on ? `Play-test variants: ${tv.text.replace(/^This table plays: /, "")}` : "";
  const menu = $("#menu-variants");
  menu.hidden = v.mode !== "duel";
  menu.textContent = on ? tv.text : "This table plays the printed rules (no play-test variant).";
  const q = new URLSearchParams({ mode: "pvp" });
  if (on) q.set("variants", variantsParam(tv.on));
  $("#menu-duel-rules").href = `/rules?${q.toString()}`;
}

/** alias -> value as a ``variants`` text (rewardCap=2,sameTurnBonus=0), as links and the lobby take it. */
function variantsParam(on) {
  return Object.entries(on || {}).map(([k, x]) => `${k}=${x === true ? 1 : x === false ? 0 : x}`).join(",") || "printed";
}

function badge(seat, kind, text, mine) {
  const b = el("button", {
    type: "button", class: `badge badge-${kind}${mine ? " adjustable" : ""}`,
    title: mine ? "Right-click or long-press to set by hand" : "",
    "aria-label": `${kind === "humility" ? "Humility" : "Maturity"} of ${seatName(seat.seat, { short: true })}: ${text}`,
    dataset: { seat: seat.seat, badge: kind },
  }, el("span", { class: "badge-label" }, kind === "humility" ? "Humility" : "Maturity"), el("b", {}, text));
  if (mine) attachBadgeEditor(b, seat, kind);
  return b;
}

function attachBadgeEditor(b, seat, kind) {
  const open = (x, y) => openBadgeEditor(seat, kind, x, y);
  b.addEventListener("contextmenu", (e) => { e.preventDefault(); e.stopPropagation(); open(e.clientX, e.clientY); });
  b.addEventListener("click", (e) => e.stopPropagation());
  let timer = null;
  b.addEventListener("pointerdown", (e) => {
    if (e.pointerType === "mouse") return;
    timer = setTimeout(() => { timer = null; open(e.clientX, e.clientY); }, 550);
  });
  const cancel = () => { if (timer) { clearTimeout(timer); timer = null; } };
  b.addEventListener("pointerup", cancel);
  b.addEventListener("pointerleave", cancel);
  b.addEventListener("pointercancel", cancel);
}

function openBadgeEditor(seat, kind, x, y) {
  closePopovers();
  const box = $("#badge-editor");
  const max = kind === "humility" ? 10 : 3;
  const input = el("input", { type: "number", min: 0, max, value: seat[kind], id: "badge-value", "aria-label": `New ${kind}`, inputmode: "numeric" });
  const go = () => {
    const value = Number(input.value);
    send({ type: "AdjustBadge", badge: kind, value });
  };
  box.onclick = (e) => e.stopPropagation();   // − and + change the value in place
  box.oncontextmenu = (e) => e.stopPropagation();
  const mode = tableAdjust();
  const ask = mode === "ask" && answerersFor(seat.seat).length > 0;
  const off = mode === "off";
  const how = off ? "Setting Maturity or Humility by hand is off at this table."
    : ask ? `At this table it is a request: ${seatsWords(answerersFor(seat.seat))} accepts or declines it, and nothing changes until then.`
      : "House rules or testing: the log shows it as a manual change.";
  box.replaceChildren(
    el("p", {}, el("b", {}, `${ask ? "Ask to set" : "Set"} ${kind === "humility" ? "Humility" : "Maturity"} by hand`)),
    el("p", { class: "note", id: "badge-how", dataset: { adjust: mode } }, how),
    el("div", { class: "row" },
      el("button", { type: "button", class: "small", "aria-label": "minus one", onclick: () => { input.value = Math.max(0, Number(input.value) - 1); } }, "−"),
      input,
      el("button", { type: "button", class: "small", "aria-label": "plus one", onclick: () => { input.value = Math.min(max, Number(input.value) + 1); } }, "+")),
    el("div", { class: "row" },
      el("button", { type: "button", class: "primary", id: "badge-set", onclick: go, disabled: off }, ask ? "Ask" : "Set"),
      el("button", { type: "button", onclick: closePopovers }, "Cancel")));
  input.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); go(); } });
  placeBox(box, x, y);
  input.focus();
  input.select();
}

function placeBox(box, x, y) {
  box.hidden = false;
  const w = box.offsetWidth, h = box.offsetHeight;
  const left = Math.max(8, Math.min(window.innerWidth - w - 8, (x ?? window.innerWidth / 2) - w / 2));
  const top = Math.max(8, Math.min(window.innerHeight - h - 8, (y ?? window.innerHeight / 2) + 8));
  box.style.left = `${left}px`;
  box.style.top = `${top}px`;
}

function zoneRow(title, cards, opts = {}) {
  if (!cards.length && opts.hideEmpty) return null;
  return el("div", { class: `zone-row ${opts.cls || ""}` }, el("span", { class: "zone-title" }, title),
    el("div", { class: "cards mini" }, cards.length ? cards.map((c) => cardEl(c, { side: opts.side, ...(opts.cardOpts ? opts.cardOpts(c) : {}) })) : el("span", { class: "empty" }, "—")));
}

const CROWDED_ZONE = 12;   // more Cost Zone cards than this: stacked

function renderSeats(v) {
  const box = $("#seats");
  const mine = cur().seat;
  const pend = v.pending || [];
  box.replaceChildren(...v.seats.map((s) => {
    const isMe = s.seat === mine;
    const righteous = s.side !== "evil";
    const head = el("div", { class: "seat-head" },
      el("span", { class: "seat-name" }, seatName(s.seat)),
      v.turn_seat === s.seat ? el("span", { class: "tag turn" }, "turn") : null,
      v.decider === s.seat && !v.result ? el("span", { class: "tag decide" }, "deciding") : null);
    const badges = righteous ? el("div", { class: "badges" },
      badge(s, "humility", `${s.humility}/10`, isMe),
      badge(s, "maturity", `L${s.maturity}`, isMe)) : el("div", { class: "badges" }, el("span", { class: "badge evil" }, "Evil"));
    const counts = el("div", { class: "counts" }, `Hand ${s.hand_size} · Deck ${s.deck_size} · Discard ${s.discard.length} · Cost ${s.untapped}/${s.cost_zone.length} untapped`);
    const czOpts = (c) => {
      const plays = pend.filter((a) => a.type === "PlayCard" && a.card === c.uid);
      return plays.length ? { playable: true, onclick: (e) => openCardActions(c, plays, e) } : {};
    };
    return el("div", { class: `seat ${righteous ? "righteous" : "evil"}${isMe ? " me" : ""}${v.turn_seat === s.seat ? " active" : ""}`, dataset: { seat: s.seat } },
      head, badges, counts,
      // a long game's Cost Zone (an Evil seat's may hold 30+ cards) is stacked, each card overlapping the last
      zoneRow("Cost Zone", s.cost_zone, { cls: `cost-zone${s.cost_zone.length > CROWDED_ZONE ? " crowded" : ""}`, side: s.side, cardOpts: czOpts }),
      zoneRow(righteous ? "Righteous Habituals" : "In play", s.in_play, { cls: "in-play", hideEmpty: !righteous }),
      righteous ? zoneRow("Evil Habituals held", s.held, { cls: "held" }) : null);
  }));
}

function renderMiddle(v) {
  const pend = v.pending || [];
  $("#threats").replaceChildren(...(v.threats.length ? v.threats.map((t) => {
    const resists = pend.filter((a) => a.type === "Resist" && a.threat === t.uid);
    const wrap = el("div", { class: "threat", dataset: { uid: t.uid } },
      cardEl(t),
      el("div", { class: "threat-info" },
        el("b", {}, t.name || cardName(t.id)),
        el("span", {}, `at ${seatName(t.target, { short: true })}`),
        el("span", {}, `resistance ${t.resistance ?? "?"}, paid ${t.paid}${t.remaining !== undefined && t.remaining !== null ? `, ${t.remaining} to go` : ""}`),
        t.finale ? el("span", { class: "tag" }, "combo finale") : null,
        resists.length ? el("span", { class: "tag decide" }, "you may resist (below)") : null));
    return wrap;
  }) : [el("span", { class: "empty" }, "No threats pending")]));
  $("#stack").replaceChildren(...(v.stack.length ? v.stack.map((s, i) => el("div", { class: "stack-item" },
    cardEl(s), el("span", {}, `${i === v.stack.length - 1 ? "top: " : ""}${s.item === "boost" ? `boost ${s.boost + 1} of ` : ""}${s.name || cardName(s.id)}`)))
    : [el("span", { class: "empty" }, "Empty")]));
  if (v.stack.length) $("#stack-box").classList.add("open"); else $("#stack-box").classList.remove("open");
  const all = (id) => (v.score_parts ? v.score_parts[id.slice(5)] : undefined);   // "pile-resisted" -> resisted
  const pile = (title, list, id) => el("div", { class: "pile", id, title: scoreSentence(v) },
    el("span", { class: "zone-title" }, `${title}: ${list.length}${all(id) !== undefined && all(id) !== list.length ? ` now, ${all(id)} in all` : ""}`),
    list.length ? cardEl(list[list.length - 1], { extra: "top-of-pile" }) : null);
  const extra = [];
  if (v.field && v.field.length) extra.push(zoneRow("Field", v.field, {}));
  if (v.foresight && v.foresight.length) extra.push(zoneRow("Foresight: Evil's next", v.foresight, {}));
  $("#piles").replaceChildren(pile("Resisted", v.piles.resisted, "pile-resisted"), pile("Failed", v.piles.failed, "pile-failed"),
    ...(v.mode === "duel" ? [] : [el("div", { class: "pile" }, el("span", { class: "zone-title" }, `Evil deck: ${v.evil_deck_size}`))]), ...extra);
}

function renderHand(v) {
  const me = cur().seat;
  const hand = $("#hand");
  if (me === null || me === undefined) {
    $("#hand-title").textContent = "Watching: hands are hidden";
    hand.replaceChildren();
    return;
  }
  const s = v.seats[me];
  $("#hand-title").textContent = `Your hand (${s.hand.length})`;
  const pend = v.pending || [];
  hand.replaceChildren(...s.hand.map((c) => {
    const acts = pend.filter((a) => (a.type === "LayCostZone" || a.type === "PlayCard") && a.card === c.uid);
    const x = currentExplain();
    const why = x && !acts.length && x.cards[String(c.uid)];
    const b = cardEl(c, { playable: acts.length > 0, onclick: (e) => openCardActions(c, acts, e) });
    if (why) { b.dataset.why = why.code; b.title = `${c.name || cardName(c.id)}: ${reasonWords(why.code)}`; }
    return b;
  }));
}

async function openCardActions(card, acts, e) {
  closePopovers();
  const anchor = e && e.currentTarget ? e.currentTarget.getBoundingClientRect() : null;
  const v = view();
  const x = currentExplain() || await fetchExplain();
  if (view() !== v) return;   // the game moved on while we asked
  const box = $("#popover");
  const me = v.seats[cur().seat];
  const buttons = acts.map((a, i) => {
    const price = a.type === "PlayCard" ? priceOf(a) : null;
    return el("button", { type: "button", class: i === 0 ? "primary" : "", onclick: () => send(a) }, playLabel(v, a),
      price !== null && price !== undefined ? el("span", { class: "price" }, `costs C${price}`) : null);
  });
  const why = x && x.cards ? x.cards[String(card.uid)] : null;
  const none = acts.length ? null : el("div", {},
    el("p", { class: "why-not", id: "why-not", dataset: { code: why ? why.code : "" } },
      el("b", {}, why ? `${reasonWords(why.code)}. ` : "No legal play for this card right now. "),
      why ? pageSeats(why.message).replace(/^./, (ch) => ch.toUpperCase()) + "." : ""),
    el("button", { type: "button", class: "try", onclick: () => send({ type: "PlayCard", card: card.uid }) }, "Try to play it anyway"));
  const have = me ? el("span", { class: "note", id: "cost-have" }, `You have ${me.untapped} untapped Cost Zone card${me.untapped === 1 ? "" : "s"}.`) : null;
  const info = cardInfo(card.id);
  box.replaceChildren(
    el("div", { class: "pop-card" }, cardImg(card)),
    el("div", { class: "pop-actions" },
      el("b", {}, card.name || cardName(card.id)),
      el("span", { class: "note" }, KIND_LABELS[card.kind] || words(card.kind || "")),
      info && info.text ? el("p", { class: "pop-rules" }, info.text) : null,
      ...buttons, none, have,
      el("button", { type: "button", onclick: closePopovers }, "Close")));
  const r = anchor;
  placeBox(box, r ? r.left + r.width / 2 : null, r ? Math.max(8, r.top - 320) : null);
  const first = box.querySelector("button.primary");
  if (first) first.focus();
}

function closePopovers() {
  $("#popover").hidden = true;
  $("#badge-editor").hidden = true;
  const z = $("#zoom"); z.classList.remove("sticky"); z.hidden = true;
  hidePreview();
}

function renderDecide(v) {
  const box = $("#decide");
  const c = cur();
  const pend = v.pending || [];
  const nodes = [];
  let passBtn = null;
  if (v.result) {
    nodes.push(el("p", { class: "prompt" }, `The game is over: ${WINNERS[v.result.winner] || v.result.winner}.`),
      el("button", { type: "button", onclick: () => { $("#end-panel").hidden = false; } }, "Show the result"));
  } else if (c.seat === null || c.seat === undefined) {
    nodes.push(el("p", { class: "prompt" }, `Watching. Waiting for ${seatName(v.decider)}.`));
  } else if (!pend.length) {
    nodes.push(el("p", { class: "prompt" }, v.decider === null || v.decider === undefined ? "…" : `Waiting for ${seatName(v.decider)}.`));
  } else {
    const cardActs = pend.filter((a) => a.type === "LayCostZone" || a.type === "PlayCard");
    const hint = [];
    if (cardActs.some((a) => a.type === "LayCostZone")) hint.push("tap a card in your hand to lay it in your Cost Zone");
    if (cardActs.some((a) => a.type === "PlayCard")) hint.push("tap a highlighted card to play it");
    if (pend.some((a) => a.type === "Resist")) hint.push("resist a threat");
    nodes.push(el("p", { class: "prompt" }, el("b", {}, "Your decision"), hint.length ? `: ${hint.join(", ")}.` : "."));
    if (v.choice) {
      nodes.push(el("p", { class: "note" }, `Choose for ${words(v.choice.purpose)} (up to ${v.choice.count}${v.choice.minimum ? `, at least ${v.choice.minimum}` : ""}).`));
      const chooses = pend.filter((a) => a.type === "Choose");
      nodes.push(el("div", { class: "cards mini choice" }, ...chooses.map((a) => {
        const opt = v.choice.options.find((o) => o.uid === a.option) || { uid: a.option, hidden: true };
        return el("div", { class: "choice-opt" }, cardEl(opt, { onclick: () => send(a), playable: true }),
          el("button", { type: "button", class: "choose", onclick: () => send(a) }, actionLabel(v, a)));
      })));
    }
    const abil = pend.filter((a) => a.type === "ChooseAbility" || a.type === "BuyAbility");
    if (abil.length) nodes.push(abilityChoice(v, abil));
    const row = el("div", { class: "actions" });
    const other = pend.filter((a) => !["LayCostZone", "PlayCard", "Choose", "Pass", "ChooseAbility", "BuyAbility"].includes(a.type));
    for (const a of other) row.append(el("button", { type: "button", class: `act act-${a.type}`, onclick: () => send(a) }, actionLabel(v, a)));
    const pass = pend.find((a) => a.type === "Pass");
    if (pass) passBtn = el("button", { type: "button", class: "act act-Pass pass", id: "pass", title: "Space or P", onclick: () => send(pass) }, passLabel(v), el("kbd", {}, "P"));
    if (row.childElementCount) nodes.push(row);
  }
  const offer = endOfferPrompt(v);
  if (offer) nodes.unshift(offer);
  const asks = adjustPrompts(v);
  nodes.unshift(...asks);
  const undo = undoButton(v);
  // the options scroll (visibly: a scroll bar and "more below"); Pass and Undo stay in view under them
  const sig = `${c.token}:${JSON.stringify(pend)}`;
  const was = $("#decide-body");
  const keep = was && box.dataset.sig === sig ? was.scrollTop : 0;
  const body = el("div", { class: "decide-body", id: "decide-body" }, ...nodes);
  const more = el("button", { type: "button", class: "decide-more small", id: "decide-more", hidden: true, onclick: scrollDecideOn });
  const foot = el("div", { class: "decide-foot", id: "decide-foot" }, more, undo, passBtn);
  box.replaceChildren(body, foot);
  box.dataset.sig = sig;
  body.scrollTop = keep;
  body.addEventListener("scroll", updateDecideMore, { passive: true });
  decideSizes.disconnect();
  decideSizes.observe(body);
  updateDecideMore();
  box.classList.toggle("yours", (pend.length > 0 || !!(offer && offer.id === "end-offer") || asks.some((a) => a.querySelector("#adjust-accept"))) && !v.result);
}

/** The decision's options overflow its box: say how many lie below (or that more lie above), in the box's foot. */
function updateDecideMore() {
  const body = $("#decide-body"), more = $("#decide-more"), foot = $("#decide-foot");
  if (!body || !more || !foot) return;
  const over = body.scrollHeight - body.clientHeight > 1;
  const below = over && body.scrollTop + body.clientHeight < body.scrollHeight - 1;
  const above = over && body.scrollTop > 1;
  const edge = body.getBoundingClientRect();
  const hidden = [...body.querySelectorAll("button")].filter((b) => {
    const r = b.getBoundingClientRect();
    return r.height > 0 && r.bottom > edge.bottom + 1;
  }).length;
  more.hidden = !below && !above;
  more.dataset.dir = below ? "down" : "up";
  more.textContent = below
    ? `↓ ${hidden ? `${hidden} more option${hidden === 1 ? "" : "s"}` : "More"} below: scroll`
    : "↑ More above: scroll up";
  body.classList.toggle("more-below", below);
  body.classList.toggle("more-above", above);
  foot.hidden = foot.querySelectorAll(":scope > :not([hidden])").length === 0;
}
function scrollDecideOn(e) {
  e.stopPropagation();
  const body = $("#decide-body");
  if (!body) return;
  const down = $("#decide-more").dataset.dir !== "up";
  body.scrollBy({ top: (down ? 1 : -1) * Math.max(60, body.clientHeight * 0.8), behavior: "smooth" });
}
const decideSizes = new ResizeObserver(() => updateDecideMore());
// the page scrolls a button into view below the sticky top bar, not under it
new ResizeObserver(() => {
  const bar = document.querySelector(".topbar");
  if (bar) document.documentElement.style.setProperty("--topbar-h", `${bar.offsetHeight}px`);
}).observe(document.querySelector(".topbar"));

/** Undo: enabled only when the server says this seat may take back its last action; else why not. */
function undoButton(v) {
  const c = cur();
  if (v.result || c.seat === null || c.seat === undefined || !c.undo) return null;
  const u = c.undo;
  const why = u.allowed ? "" : `${reasonWords(u.reason)}: ${pageSeats(u.message || "")}`;
  return el("div", { class: "undo-row" },
    el("button", { type: "button", id: "undo", class: "act act-Undo", disabled: !u.allowed,
      title: u.allowed ? "Take back your last action (nothing hidden was shown since)" : why,
      "aria-describedby": u.allowed ? null : "undo-why", dataset: { reason: u.reason || "" },
      onclick: () => send({ type: "Undo" }) }, "↶ Undo"),
    u.allowed ? null : el("span", { class: "note", id: "undo-why" }, `${reasonWords(u.reason)}.`));
}

function sideWords(side) { return side === "evil" ? "The Evil side" : "The Righteous side"; }
function scoreWinner(v) { return v.score[0] > v.score[1] ? "righteous" : v.score[1] > v.score[0] ? "evil" : "draw"; }   // G-8: a tie is a draw
function winsWords(side) { return side === "draw" ? "the duel is a draw" : side === "evil" ? "the Evil side wins" : "the Righteous side wins"; }

/** A duel: the other side's offer to end on the stalemate score, with Accept / Decline; or ours, waiting. */
function endOfferPrompt(v) {
  const c = cur();
  if (v.result || v.mode !== "duel" || !c.endOffer) return null;
  const mySide = c.seat !== null && c.seat !== undefined ? v.seats[c.seat].side : null;
  const score = `Righteous ${v.score[0]} : Evil ${v.score[1]}`;
  if (!mySide || mySide === c.endOffer) {
    return el("p", { class: "note", id: "end-offer-waiting" }, `${mySide ? "You offered" : `${sideWords(c.endOffer)} offered`} to end the duel on the stalemate score (${score}): waiting for the other side's answer.`);
  }
  const waiting = c.endWaiting || [];
  if (!waiting.includes(c.seat)) {   // G-8: this seat accepted; every player of the side must
    return el("p", { class: "note", id: "end-offer-waiting" }, `You accepted to end the duel on the stalemate score (${score}): waiting for ${waiting.map((s) => seatName(s)).join(" and ") || "your teammates"} to answer.`);
  }
  return el("div", { class: "end-offer", id: "end-offer", role: "alert" },
    el("p", { class: "prompt" }, el("b", {}, `${sideWords(c.endOffer)} offers to end the duel now`),
      ` on the stalemate score (${score}). If ${waiting.length > 1 ? "every player of your side accepts" : "you accept"}, ${winsWords(scoreWinner(v))}; if you decline, play goes on.`),
    el("div", { class: "row" },
      el("button", { type: "button", class: "primary", id: "end-accept", onclick: () => send({ type: "AnswerEnd", answer: "accept" }) }, "Accept: end the duel"),
      el("button", { type: "button", id: "end-decline", onclick: () => send({ type: "AnswerEnd", answer: "decline" }) }, "Decline: play on")));
}

/** A duel this many rounds long shows the offer to end on the score on the board itself, not only
 * in the menu (docs/decisions.md: a newcomer's duel ran 104 rounds with nothing pointing to it). */
const LONG_DUEL_ROUNDS = 12;

/** The game menu: in a duel, a player may offer to end on the stalemate score (no clock). */
function renderOfferMenu(v) {
  const btn = $("#menu-offer-end"), note = $("#menu-offer-note");
  const c = cur();
  const player = c.seat !== null && c.seat !== undefined;
  const show = v.mode === "duel" && player && !v.result;
  btn.hidden = !show;
  note.hidden = !show;
  const long = $("#long-duel");
  long.hidden = !show || v.round < LONG_DUEL_ROUNDS;
  if (!long.hidden) {
    const limit = roundLimit(v);
    long.replaceChildren(el("p", {}, `A long duel: round ${v.round}${limit ? ` of ${limit}` : ", and a duel has no round limit"}.`
      + ` Either side may offer to end it now on the stalemate score (${v.score[0]}–${v.score[1]}: ${winsWords(scoreWinner(v))}).`),
      el("button", { type: "button", id: "long-offer-end", disabled: !!c.endOffer,
        onclick: () => { if (!c.endOffer) send({ type: "OfferEnd" }); } },
        c.endOffer ? "An offer to end is waiting for an answer" : "Offer to end on the score"));
  }
  if (!show) return;
  btn.textContent = `Offer to end on the score (${v.score[0]}–${v.score[1]})`;
  btn.disabled = !!c.endOffer;
  const mine = c.endOffer && c.endOffer === v.seats[c.seat].side;
  note.textContent = c.endOffer
    ? (mine ? "Your offer to end waits for the other side's answer." : "The other side has offered to end: answer it in the decision area.")
    : `Duels have no clock: the other side may accept (then the score decides: now ${winsWords(scoreWinner(v))}; a tie goes to Evil) or decline.`;
}

/** The Maturity Abilities on offer: each one's text, and what buying it costs against what you have. */
function abilityChoice(v, acts) {
  const me = v.seats[cur().seat];
  const choosing = acts.some((a) => a.type === "ChooseAbility");
  const lone = righteousCount(v) === 1;
  const head = choosing
    ? el("p", { class: "note", id: "ability-choice-head" }, el("b", {}, v.mode === "duel" || lone ? "A new level: " : "A new shared level: "),
      lone ? "choose one Maturity Ability, free." : v.mode === "duel" ? "choose one Maturity Ability for the Righteous side, free."
        : "choose one Maturity Ability for the whole team, free.")
    : el("p", { class: "note" }, el("b", {}, "You may buy a Maturity Ability now "), `by rotating Cost Zone cards: 11 for a high-tier one, 7 for a low-tier one. You have ${me.untapped} untapped.`);
  return el("div", { class: "ability-choice", id: "ability-choice" }, head,
    el("div", { class: "ability-options" }, ...acts.map((a) => {
      const info = abilityInfo(a.ability);
      const price = a.type === "BuyAbility" ? (info.price ?? "?") : 0;
      return el("div", { class: "ability-option", dataset: { ability: a.ability } },
        el("b", {}, info.name || abilityName(a.ability)),
        el("span", { class: "ability-text" }, info.text ? info.text.replace(/^./, (ch) => ch.toUpperCase()) + "." : ""),
        el("span", { class: "ability-price" }, a.type === "BuyAbility" ? `Price ${price} Cost (you have ${me.untapped})` : "Free"),
        el("button", { type: "button", class: `act act-${a.type}`, onclick: () => send(a) }, actionLabel(v, a)));
    })));
}

/** Whose level the abilities go by: in co-op the team's shared level (A-2: the engine's
 * team_level), alone just the level; in a duel each Righteous seat's own (A-3: Evil seats have none). */
function abilityLevelWords(v, ab) {
  const rs = v.seats.filter((s) => s.side === "righteous");
  if (v.mode === "duel") {
    return rs.length === 1 ? `Righteous L${rs[0].maturity}` : rs.map((s) => `${seatName(s.seat, { short: true })} L${s.maturity}`).join(", ");
  }
  return rs.length === 1 ? `L${ab.team_level}` : `team L${ab.team_level}`;
}

function renderAbilities(v) {
  const box = $("#abilities");
  const ab = v.abilities || { held: [], charged: [] };
  const pend = (v.pending || []).filter((a) => ["UseAbility", "BuyAbility", "ChooseAbility"].includes(a.type));
  if (!(v.settings || {}).mat_abilities) { box.replaceChildren(el("span", { class: "note" }, "Maturity Abilities off")); return; }
  const me = cur().seat;
  if (me !== null && me !== undefined && v.seats[me].side === "evil" && !ab.held.length) {
    box.replaceChildren(el("span", { class: "note" }, "Maturity Abilities: the Righteous side's (none yet)"));
    return;
  }
  const held = ab.held.map((a) => {
    const uses = pend.filter((p) => p.type === "UseAbility" && p.ability === a);
    const info = abilityInfo(a);
    return el("span", { class: `ability${ab.charged.includes(a) ? " charged" : ""}`, dataset: { ability: a },
      title: `${info.text || ""}${ab.charged.includes(a) ? " (charged: usable this level)" : ""}` },
      abilityName(a), ...uses.map((u) => el("button", { type: "button", class: "small", onclick: () => send(u) }, u.to_seat !== undefined && u.to_seat !== null ? `use → ${seatName(u.to_seat, { short: true })}` : "use")));
  });
  box.replaceChildren(el("span", { class: "zone-title", id: "abilities-level" }, `Abilities (${abilityLevelWords(v, ab)})`),
    ...(held.length ? held : [el("span", { class: "note" }, "none yet")]));
}

const REWARD_WHY = {
  mr_four_plays: "every 4th card played", mr_habitual_pair: "a pair of own Habituals in play",
  mr_three_failed: "3 Temptations got through", mr_finale: "a combo carried to a free finale",
  mr_same_turn_bonus: "two rewards in one turn", mb_cards_per_phase: "cards played in one phase",
  mb_clean_streak: "a clean streak of 3 resisted",
};
/** Duel: note the micro-rewards and boosts of this turn, with why (from the engine's tallies). */
function noteRewards(v, events) {
  const counts = v.duel.counts || {};
  if (prevCounts) {
    for (const [k, why] of Object.entries(REWARD_WHY)) {
      const n = (counts[k] || 0) - (prevCounts[k] || 0);
      for (let i = 0; i < n; i++) turnRewards.push({ why, side: k.startsWith("mr") ? "evil" : "righteous" });
    }
  }
  prevCounts = { ...counts };
}

function evilInPlay(v) {
  return (v.field || []).length + v.seats.reduce((n, s) => n + (s.held || []).length, 0);
}

function renderClocks(v) {
  const out = [];
  const clock = (id, text, cls = "") => el("div", { class: `clock ${cls}`, id }, text);
  if (v.result) {   // over: the result, not a countdown that will never run out
    const r = v.result;
    $("#clocks").replaceChildren(clock("clock-result", `Game over in round ${r.round}: ${WINNERS[r.winner] || words(r.winner)}: ${r.reason}.`, "over"));
    return;
  }
  if (v.clearing) out.push(clock("clock-clearing", `Clearing round open since ${seatName(v.clearing.seat, { short: true })}'s turn: it is judged at the start of their next turn.`));
  else if (v.mode !== "duel") out.push(clock("clock-clearing", "Clearing round: not open (all Righteous at L3 opens it)"));
  if (v.duel) {
    const d = v.duel;
    const me = cur().seat;
    const mySide = me !== null && me !== undefined ? v.seats[me].side : null;
    const evilSeats = v.seats.filter((s) => s.side === "evil").map((s) => s.seat);
    // the Righteous turns Evil's hold must last: one round as printed (D-W-E), more with the evilHold variant
    const rCount = v.seats.filter((s) => s.side !== "evil").length * Number((v.settings || {}).evil_hold || 1);
    const evilBox = [];
    const chain = d.chain && d.chain.count ? `Combo chain: ${d.chain.count} back-to-back` : "Combo chain: none";
    const nextFor = mySide === "evil" ? [me] : evilSeats;
    evilBox.push(clock("duel-combo", `${chain}; next threat ${nextFor.map((s) => `${evilSeats.length > 1 || mySide !== "evil" ? seatName(s, { short: true }) + ": " : ""}C${d.next_discount[String(s)] || 0} off`).join(", ")}.`));
    evilBox.push(clock("duel-dominance", `Dominance (C1 off per 3 own Habituals holding): ${evilSeats.map((s) => `${seatName(s, { short: true })} C${d.dominance[String(s)] || 0}`).join(", ")}.`));
    const er = turnRewards.filter((r) => r.side === "evil");
    const why = {};
    er.forEach((r) => { why[r.why] = (why[r.why] || 0) + 1; });
    evilBox.push(clock("duel-rewards", `Micro-rewards this turn: ${d.rewards_this_turn || 0}${er.length ? ` (${Object.entries(why).map(([k, n]) => `${k}${n > 1 ? ` ×${n}` : ""}`).join("; ")})` : ""}. Next: 4th card played, ${3 - ((d.failed_temptations_this_turn || 0) % 3)} more Temptation${3 - ((d.failed_temptations_this_turn || 0) % 3) === 1 ? "" : "s"} through.`));
    if (d.round_threats_left !== null && d.round_threats_left !== undefined) {   // the roundThreats variant
      const left = d.round_threats_left;
      evilBox.push(clock("duel-round-threats", `Threats left to the Evil side this round: ${left} (roundThreats: ${v.settings.round_threats} a round for each Righteous seat).`, left === 0 ? "armed" : ""));
    }
    const inPlay = d.evil_clock ? d.evil_clock.in_play : evilInPlay(v);
    evilBox.push(clock("duel-evil-progress", d.evil_clock
      ? `Evil win: ${inPlay} of ${d.evil_limit} Habituals in play, held: Evil wins unless the count drops within ${Math.max(0, rCount - d.evil_clock.righteous_turns_since)} more Righteous turn${rCount - d.evil_clock.righteous_turns_since === 1 ? "" : "s"}.`
      : `Evil win: ${inPlay} of ${d.evil_limit} Habituals in play (then held for ${Number((v.settings || {}).evil_hold || 1) > 1 ? `${v.settings.evil_hold} rounds` : "a full round"}).`, d.evil_clock ? "armed" : ""));
    const rBox = [];
    rBox.push(clock("duel-clean", d.righteous_clock
      ? `Clean round running since ${seatName(d.righteous_clock.seat, { short: true })}'s turn: Righteous win at the start of their next turn if it stays clean.`
      : "Clean round: not started (every Righteous player at L3 with no Evil Habitual in play starts it)."));
    const rs = v.seats.filter((s) => s.side !== "evil");
    rBox.push(clock("duel-boosts", `Micro-boosts: ${d.phase_plays || 0} of ${d.boost_every} cards this phase; clean streaks ${rs.map((s) => `${seatName(s.seat, { short: true })} ${((d.streaks || [])[s.seat] || 0) % 3}/3`).join(", ")}; earned this turn ${turnRewards.filter((r) => r.side === "righteous").length}.`));
    const first = mySide === "righteous" ? [rBox, evilBox] : [evilBox, rBox];
    out.push(el("div", { class: `duel-panel ${mySide || "spectator"}`, id: "duel-panel" },
      el("h3", {}, mySide === "evil" ? "Your duel (Evil)" : mySide === "righteous" ? "Your duel (Righteous)" : "Duel"),
      ...first[0], el("details", { class: "duel-other" }, el("summary", {}, mySide === "evil" ? "The Righteous side" : mySide === "righteous" ? "The Evil side" : "More"), ...first[1])));
    if (d.answering !== null && d.answering !== undefined && d.answering !== false) out.push(clock("duel-answering", typeof d.answering === "number" ? `Answering: ${seatName(d.answering, { short: true })}` : "A threat is being answered"));
  }
  $("#clocks").replaceChildren(...out);
}

/** The end of the game: who won and why, how long it took, the score, and what next. */
function renderEnd(v) {
  const box = $("#end-panel");
  if (!v.result) { box.hidden = true; return; }
  if (box.dataset.shown === String(v.state_id)) return;
  box.dataset.shown = String(v.state_id);
  const r = v.result;
  const settings = v.settings || {};
  const q = new URLSearchParams({ mode: v.mode });
  if (!settings.evil_interrupt) q.set("evilInterrupt", "0");
  if (!settings.mat_abilities) q.set("matAbilities", "0");
  if (v.mode === "solo") q.set("soloFee", String(settings.solo_fee || 1));
  const tv = table && table.variants;
  if (v.mode === "duel" && tv && Object.keys(tv.on || {}).length) q.set("variants", variantsParam(tv.on));
  q.set("lineup", v.lineup);
  const length = v.mode === "duel" ? `${r.round} round${r.round === 1 ? "" : "s"} (a round is every seat's turn)`
    : (v.max_rounds && v.round > v.max_rounds ? `${v.max_rounds} rounds and the clearing round` : `${r.round} of ${v.max_rounds} rounds`);
  const decided = /round limit/i.test(r.reason) ? "decided on the score at the round limit (the roundLimit play-test variant)"
    : /agreement/i.test(r.reason) ? "agreement: both sides ended the duel on the stalemate score"
    : /stalemate|score/i.test(r.reason) ? "the stalemate score"
    : r.winner === "righteous" ? "every Righteous player at L3 with no Evil Habitual, held for a full round"
      : v.mode === "duel" ? "Evil's Habituals held in play for a full round" : "the rounds ran out without a Righteous win";
  box.replaceChildren(el("div", { class: "end-box" },
    el("h2", { id: "end-winner" }, WINNERS[r.winner] || words(r.winner)),
    el("p", { id: "end-reason" }, `Why: ${r.reason.replace(/^./, (ch) => ch.toUpperCase())}.`),
    el("dl", { class: "end-facts" },
      el("dt", {}, "Length"), el("dd", { id: "end-length" }, length),
      el("dt", {}, "Stalemate score"), el("dd", { id: "end-score" }, `Righteous ${v.score[0]} : Evil ${v.score[1]}`,
        el("span", { class: "note", id: "end-score-parts" }, ` (${scoreSentence(v).replace(/^Stalemate score\. /, "")})`)),
      el("dt", {}, "Decided by"), el("dd", { id: "end-decided" }, decided),
      ...(v.mode === "duel" ? [el("dt", {}, "Rules"), el("dd", { id: "end-variants" },
        tv && Object.keys(tv.on || {}).length ? tv.text : "This table played the printed rules.")] : [])),
    el("div", { class: "row" },
      el("a", { class: "button primary", id: "end-again", href: `/?${q.toString()}` }, "New game, same settings"),
      el("button", { type: "button", id: "end-download", onclick: downloadRecord }, "Download the record"),
      el("a", { class: "button", id: "end-replay", href: `/replay?game=${encodeURIComponent(gameId)}` }, "Watch the replay"),
      el("button", { type: "button", id: "end-close", onclick: () => { box.hidden = true; } }, "Look at the board"))));
  box.hidden = false;
}

/** Save the game's record: the server's bytes as they came. Parsing and writing it again here would
 * round its 128-bit seed to a float that no longer replays (docs/protocol.md, "Large integers"). */
async function downloadRecord() {
  const r = await fetch(`/api/games/${encodeURIComponent(gameId)}/record`);
  if (!r.ok) { toast("The record is not available yet."); return; }
  const blob = await r.blob();
  const a = el("a", { href: URL.createObjectURL(blob), download: `game-${gameId}.json` });
  document.body.append(a);
  a.click();
  a.remove();
}

function eventText(e) {
  const v = view();
  const rs = v ? v.seats.filter((s) => s.side === "righteous") : [];
  return logText(e, (i) => seatName(i, { short: true }), v ? { righteous: rs.length, lone: rs.length === 1 ? rs[0].seat : null, mode: v.mode } : {});
}

function renderLog() {
  const ol = $("#log");
  const shown = log.slice(-200).filter((e, i, all) => !(e.kind === "played" && all[i + 1] && all[i + 1].kind === "threat_played" && all[i + 1].uid === e.uid));
  ol.replaceChildren(...scenarioLog(), ...shown.map((e) => (e.kind === "note"
    ? el("li", { class: `ev ev-note ${e.cls ? `ev-${e.cls}` : ""}` }, e.text)
    : el("li", { class: `ev ev-${e.kind}` }, eventText(e)))));
  ol.scrollTop = ol.scrollHeight;
}

function renderCover() {
  const cover = $("#cover");
  if (coverFor === null || conns.length < 2) { cover.hidden = true; document.body.classList.remove("covered"); return; }
  const c = conns[coverFor];
  document.body.classList.add("covered");
  cover.hidden = false;
  cover.replaceChildren(el("div", { class: "cover-box" },
    el("h2", {}, `Pass the device to ${seatName(c.seat, { short: true })}`),
    el("p", {}, "The other seats look away. Hands stay hidden until you are ready."),
    el("button", { type: "button", class: "primary", id: "cover-ready", onclick: () => { coverFor = null; render(); } },
      `I am ${seatName(c.seat, { short: true })}: show my hand`)));
}

function toast(text) {
  const t = $("#toast");
  t.textContent = text;
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { t.hidden = true; }, 6000);
}

// ------------------------------------------------------------------ menu and keys
function setupMenu() {
  const btn = $("#menu-button"), menu = $("#menu");
  btn.addEventListener("click", (e) => { e.stopPropagation(); menu.hidden = !menu.hidden; btn.setAttribute("aria-expanded", String(!menu.hidden)); });
  menu.addEventListener("click", (e) => e.stopPropagation());
  document.addEventListener("click", () => { menu.hidden = true; closePopovers(); });
  const us = urlSettings();
  $("#menu-evilInterrupt").checked = us.evilInterrupt ?? true;
  $("#menu-matAbilities").checked = us.matAbilities ?? true;
  const named = Object.entries(us).map(([k, v]) => `${k}=${v === true ? "on" : v === false ? "off" : v}`);
  if (named.length) {
    const n = $("#url-settings-note");
    n.hidden = false;
    n.textContent = `This link names ${named.join(", ")}: settings in a link apply only to a new game (the menu's New game links carry them); this game keeps the settings it was created with.`;
  }
  const update = () => {
    const q = [];
    if (!$("#menu-evilInterrupt").checked) q.push("evilInterrupt=0");
    if (!$("#menu-matAbilities").checked) q.push("matAbilities=0");
    const tail = q.length ? `&${q.join("&")}` : "";
    const m = (view() && view().mode) || "solo";
    $("#menu-new").href = `/?mode=${m === "duel" ? "solo" : m}${tail}`;
    $("#menu-duel").href = `/?mode=duel${tail}`;
    document.querySelectorAll("#menu-scenarios a").forEach((a) => { a.href = `/?mode=duel&scenario=${a.dataset.name}${tail}`; });
  };
  $("#menu-offer-end").addEventListener("click", () => {
    menu.hidden = true;
    btn.setAttribute("aria-expanded", "false");
    send({ type: "OfferEnd" });
  });
  $("#menu-evilInterrupt").addEventListener("change", update);
  $("#menu-matAbilities").addEventListener("change", update);
  fetch("/api/scenarios").then((r) => (r.ok ? r.json() : [])).then((list) => {
    $("#menu-scenarios").replaceChildren(...list.map((s) => el("a", { href: "#", dataset: { name: s.name } }, s.title)));
    update();
  }).catch(() => update());
}

function setupKeys() {
  document.addEventListener("keydown", (e) => {
    const tag = (e.target && e.target.tagName) || "";
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    if (e.key === "Escape") { closePopovers(); $("#menu").hidden = true; return; }
    if (!$("#cover").hidden) {
      if (e.key === "Enter") { e.preventDefault(); $("#cover-ready").click(); }
      return;
    }
    if (e.key === " " || e.key === "p" || e.key === "P") {
      const pass = $("#pass");
      if (pass) { e.preventDefault(); pass.click(); }
    } else if (e.key === "Enter") {
      const target = (!$("#popover").hidden && $("#popover button.primary")) || (!$("#badge-editor").hidden && $("#badge-set"))
        || $("#decide .actions button:not(.pass)");
      if (target) { e.preventDefault(); target.click(); }
    }
  });
}

async function loadTable() {
  try {
    const r = await fetch(`/api/games/${encodeURIComponent(gameId)}`);
    if (r.ok) table = await r.json();
  } catch (e) { /* the menu then says free */ }
  renderAdjustMenu();
  renderScenario();
}

/** A scenario game keeps the scenario's name and goal in view: a line in the top bar, and the log's first line. */
function renderScenario() {
  const sc = table && table.scenario;
  const line = $("#scenario-line");
  line.hidden = !sc;
  if (!sc) return;
  line.replaceChildren(el("b", {}, `Scenario: ${sc.title}`), sc.goal ? el("span", { class: "goal" }, ` · Goal: ${sc.goal}`) : "");
  line.title = `Scenario: ${sc.title}. Goal: ${sc.goal}`;
  line.onclick = () => line.classList.toggle("open");   // a narrow screen shows two lines of it until tapped
  document.title = `${sc.title} - Christianity Strategy Card Game`;
}
function scenarioLog() {
  const sc = table && table.scenario;
  return sc ? [el("li", { class: "ev ev-note ev-scenario", id: "log-scenario" }, `Scenario: ${sc.title}.${sc.goal ? ` Goal: ${sc.goal}` : ""}`)] : [];
}

async function main() {
  setupMenu();
  setupKeys();
  if (!tokens.length) {
    setStatus("This link has no seat token (it should end with #token=...). Ask for your seat's link, or start a game in the lobby.");
    return;
  }
  await loadTable();
  const rs = table && table.lineup ? [...table.lineup].filter((ch) => ch === "R").length : null;   // texts for the table
  await Promise.all([loadCatalog(rs, table && table.settings ? table.settings.solo_fee : null), loadAbilities(rs)]);
  for (const t of tokens) conns.push({ token: t, ws: null, seat: null, role: null, view: null, seatsInfo: null, lastState: 0 });
  conns.forEach(connect);
  window.addEventListener("resize", () => closePopovers());
}
main();
