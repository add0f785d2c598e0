// The replay viewer: step forward and back through every action of a game record, with the board
// as a chosen seat (or a spectator) saw it, or, once the game is over, with all cards shown. The
// server replays the record (/api/replays) and says each action in words (its describer, the one
// the command line uses). A record travels as the text it was: parsing it here and writing it again
// would round its 128-bit seed to a float (see docs/protocol.md, "Large integers").
import { el, loadCatalog, cardName, PHASES, words } from "/static/common.js";
import { eventText, WINNERS } from "/static/events.js";

const $ = (s) => document.querySelector(s);
const params = new URLSearchParams(location.search);
let rep = null;        // {replay_id, mode, lineup, steps, actions, result}
let step = 0;
let seat = "spectator"; // a seat number (as text), "spectator", or ALL (every card face up)
let shown = null;      // the step's answer {step, view, events, action, text}
const ALL = "all";
const events = {};     // step -> its events (as the chosen seat saw them)

function seatName(i) { return i === null || i === undefined ? "the Evil deck" : `Seat ${Number(i) + 1}`; }

/** The caption of a step: who acted, and the server's sentence for the action. */
function actionText(answer) {
  const a = answer.action;
  if (!a) return "The deal: the game as it started.";
  const text = (answer.text || words(a.type)).replace(/[.\s]+$/, "");
  return `${seatName(a.seat)}: ${text.replace(/^./, (ch) => ch.toUpperCase())}.`;
}

function img(card) {
  const src = !card || card.hidden || !card.id ? "/cards/back.svg" : `/cards/${card.id}.svg`;
  return el("span", { class: `card${card && card.tapped ? " tapped" : ""}`, title: card && card.id ? (card.name || cardName(card.id)) : "face-down card" },
    el("span", { class: "card-inner" }, el("img", { src, alt: card && card.id ? (card.name || cardName(card.id)) : "a face-down card" })));
}
function row(title, cards, cls = "") {
  return el("div", { class: `zone-row ${cls}`.trim() }, el("span", { class: "zone-title" }, title),
    el("div", { class: "cards mini" }, cards.length ? cards.map(img) : el("span", { class: "empty" }, "—")));
}

/** What the score is made of (D-SCORE: the piles count every card that ever entered them). */
function parts(v, side) {
  const p = v.score_parts;
  if (!p) return "";
  return side === "r" ? ` (Maturity ${p.maturity}×5 + ${p.resisted} resisted)` : ` (${p.failed} failed + ${p.evil_habituals}×5 Evil Habituals)`;
}

/** The table the log's sentences follow (one Righteous seat: "you", never "the team"). */
function tableOf(v) {
  const rs = v.seats.filter((s) => s.side === "righteous");
  return { righteous: rs.length, lone: rs.length === 1 ? rs[0].seat : null, mode: v.mode };
}

function roundText(v) {
  if (v.max_rounds && v.round > v.max_rounds) return `Clearing round (after round ${v.max_rounds})`;
  return `Round ${v.round}${v.max_rounds ? ` of ${v.max_rounds}` : ""}`;
}

function render() {
  const v = shown.view;
  $("#step-label").textContent = `Step ${step} of ${rep.steps}`;
  $("#slider").value = String(step);
  $("#back").disabled = $("#first").disabled = step === 0;
  $("#forward").disabled = $("#last").disabled = step === rep.steps;
  const over = v.result ? ` · Game over: ${WINNERS[v.result.winner] || v.result.winner} (${v.result.reason})` : "";
  $("#status").textContent = `Replay · ${v.mode === "duel" ? "Duel" : v.mode === "solo" ? "Solo" : "Co-op"} ${v.lineup} · ${roundText(v)} · ${seatName(v.turn_seat)}'s turn · ${v.phase === "over" ? "Game over" : `${PHASES[v.phase] || words(v.phase)} phase`} · Score R ${v.score[0]}${parts(v, "r")} : E ${v.score[1]}${parts(v, "e")}${over}`;
  $("#action").textContent = actionText(shown);
  $("#seats").replaceChildren(...v.seats.map((s) => el("div", { class: `seat ${s.side === "evil" ? "evil" : "righteous"}${v.turn_seat === s.seat ? " active" : ""}`, dataset: { seat: s.seat } },
    el("div", { class: "seat-head" }, `${seatName(s.seat)} (${s.side === "evil" ? "Evil" : "Righteous"})`),
    s.side === "evil" ? null : el("div", { class: "counts" }, `Humility ${s.humility}/10 · Maturity L${s.maturity}`),
    el("div", { class: "counts" }, `Hand ${s.hand_size} · Deck ${s.deck_size} · Discard ${s.discard.length}`),
    v.all_shown ? row("Hand", s.hand, "hand-row") : null,
    row("Cost Zone", s.cost_zone), row(s.side === "evil" ? "In play" : "Habituals", s.in_play),
    s.side === "evil" ? null : row("Evil Habituals held", s.held),
    v.all_shown ? row("Deck (top first)", s.deck_cards || [], "deck-row") : null)));
  $("#threats").replaceChildren(...(v.threats.length ? v.threats.map(img) : [el("span", { class: "empty" }, "None")]));
  $("#stack").replaceChildren(...(v.stack.length ? v.stack.map(img) : [el("span", { class: "empty" }, "Empty")]));
  const sp = v.score_parts;
  const pile = (now, all) => (sp && all !== now ? `${now} now, ${all} in all` : `${now}`);
  $("#piles").replaceChildren(el("div", { class: "zone-title" },
    `Resisted ${pile(v.piles.resisted.length, sp && sp.resisted)} · Failed ${pile(v.piles.failed.length, sp && sp.failed)}`),
    v.all_shown && v.evil_deck.length ? row("Evil deck (top first)", v.evil_deck, "deck-row evil-deck") : null);
  if (seat === ALL) {
    $("#hand-title").textContent = "All cards shown: every hand and deck is in its seat's panel";
    $("#hand").replaceChildren();
  } else if (seat === "spectator") {
    $("#hand-title").textContent = "Hands are hidden from a spectator";
    $("#hand").replaceChildren();
  } else {
    const s = v.seats[Number(seat)];
    $("#hand-title").textContent = `${seatName(s.seat)}'s hand (${s.hand.length})`;
    $("#hand").replaceChildren(...s.hand.map(img));
  }
  const lines = [];
  for (let i = Math.max(1, step - 30); i <= step; i++) {
    for (const e of events[`${seat}:${i}`] || []) lines.push(el("li", { class: `ev ev-${e.kind}`, dataset: { step: i } }, eventText(e, seatName, tableOf(v))));
  }
  $("#log").replaceChildren(...(lines.length ? lines : [el("li", { class: "note" }, step ? "" : "The cards are dealt.")]));
  $("#log").scrollTop = $("#log").scrollHeight;
  document.body.dataset.step = String(step);
  document.body.dataset.seat = seat;   // whose point of view is drawn (tests wait on it)
}

async function go(n) {
  if (!rep) return;
  n = Math.max(0, Math.min(rep.steps, n));
  const r = await fetch(`/api/replays/${rep.replay_id}/${n}?seat=${seat}`);
  const data = await r.json();
  if (!r.ok) { $("#error").textContent = data.message || "This step cannot be shown."; return; }
  step = n;
  shown = data;
  events[`${seat}:${n}`] = data.events;
  // fill in the steps just before, so the log reads on when stepping
  render();
}

/** Open a record for stepping: ``text`` is the record's JSON exactly as it was served or saved. */
async function open(text) {
  $("#error").textContent = "";
  const r = await fetch("/api/replays", { method: "POST", headers: { "Content-Type": "application/json" }, body: text });
  const data = await r.json();
  if (!r.ok) { $("#error").textContent = data.message || "This record cannot be replayed."; return; }
  rep = data;
  $("#slider").max = String(rep.steps);
  // every seat of the line-up, a spectator, and (the record shows it all once the game is over) all cards
  $("#seat").replaceChildren(el("option", { value: "spectator" }, "a spectator"),
    ...rep.lineup.split("").map((c, i) => el("option", { value: String(i) }, `${seatName(i)} (${c === "E" ? "Evil" : "Righteous"})`)),
    rep.result ? el("option", { value: ALL }, "all cards shown (the game is over)") : null);
  seat = "spectator";
  $("#seat").value = seat;
  await go(0);
}

/** The JSON error message of an answer's text, or null. */
function messageOf(text) {
  try { return JSON.parse(text).message || null; } catch (e) { return null; }
}

async function init() {
  await loadCatalog();
  $("#first").addEventListener("click", () => go(0));
  $("#back").addEventListener("click", () => go(step - 1));
  $("#forward").addEventListener("click", () => go(step + 1));
  $("#last").addEventListener("click", () => go(rep ? rep.steps : 0));
  $("#slider").addEventListener("change", (e) => go(Number(e.target.value)));
  $("#seat").addEventListener("change", (e) => { seat = e.target.value; go(step); });
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") go(step + 1);
    else if (e.key === "ArrowLeft") go(step - 1);
  });
  $("#file").addEventListener("change", async (e) => {
    const f = e.target.files[0];
    if (!f) return;
    const text = await f.text();
    try { JSON.parse(text); } catch (err) { $("#error").textContent = "That file is not JSON: not a game record."; return; }
    open(text);   // the file's own bytes: a parsed and re-written record would lose a large seed's digits
  });
  const game = params.get("game");
  if (game) {
    const r = await fetch(`/api/games/${encodeURIComponent(game)}/record`);
    const text = await r.text();
    if (!r.ok) { $("#error").textContent = messageOf(text) || "The game's record is not available."; return; }
    open(text);   // forwarded as served, never parsed and written again
  }
}
init();
