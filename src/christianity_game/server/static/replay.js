// The replay viewer: step forward and back through every action of a game record, with the board
// as a chosen seat (or a spectator) saw it. The server replays the record (/api/replays).
import { el, loadCatalog, cardName, PHASES, words } from "/static/common.js";
import { eventText, WINNERS } from "/static/events.js";

const $ = (s) => document.querySelector(s);
const params = new URLSearchParams(location.search);
let rep = null;        // {replay_id, mode, lineup, steps, actions, result}
let step = 0;
let seat = "spectator";
let shown = null;      // the step's answer {step, view, events, action}
const events = {};     // step -> its events (as the chosen seat saw them)

function seatName(i) { return i === null || i === undefined ? "the Evil deck" : `Seat ${Number(i) + 1}`; }

function actionText(a) {
  if (!a) return "The deal: the game as it started.";
  const who = seatName(a.seat);
  const bits = Object.entries(a).filter(([k]) => !["type", "seat"].includes(k))
    .map(([k, v]) => (k === "to_seat" || k === "payer" ? `${words(k)} ${seatName(v)}` : k === "card" || k === "option" || k === "threat" ? `${words(k)} #${v}` : `${words(k)} ${words(v)}`));
  return `${who}: ${words(a.type).replace(/([a-z])([A-Z])/g, "$1 $2")}${bits.length ? ` (${bits.join(", ")})` : ""}.`;
}

function img(card) {
  const src = !card || card.hidden || !card.id ? "/cards/back.svg" : `/cards/${card.id}.svg`;
  return el("span", { class: `card${card && card.tapped ? " tapped" : ""}`, title: card && card.id ? (card.name || cardName(card.id)) : "face-down card" },
    el("span", { class: "card-inner" }, el("img", { src, alt: card && card.id ? (card.name || cardName(card.id)) : "a face-down card" })));
}
function row(title, cards) {
  return el("div", { class: "zone-row" }, el("span", { class: "zone-title" }, title),
    el("div", { class: "cards mini" }, cards.length ? cards.map(img) : el("span", { class: "empty" }, "—")));
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
  $("#status").textContent = `Replay · ${v.mode === "duel" ? "Duel" : v.mode === "solo" ? "Solo" : "Co-op"} ${v.lineup} · ${roundText(v)} · ${seatName(v.turn_seat)}'s turn · ${v.phase === "over" ? "Game over" : `${PHASES[v.phase] || words(v.phase)} phase`} · Score R ${v.score[0]} : E ${v.score[1]}${over}`;
  $("#action").textContent = actionText(shown.action);
  $("#seats").replaceChildren(...v.seats.map((s) => el("div", { class: `seat ${s.side === "evil" ? "evil" : "righteous"}${v.turn_seat === s.seat ? " active" : ""}`, dataset: { seat: s.seat } },
    el("div", { class: "seat-head" }, `${seatName(s.seat)} (${s.side === "evil" ? "Evil" : "Righteous"})`),
    s.side === "evil" ? null : el("div", { class: "counts" }, `Humility ${s.humility}/10 · Maturity L${s.maturity}`),
    el("div", { class: "counts" }, `Hand ${s.hand_size} · Deck ${s.deck_size} · Discard ${s.discard.length}`),
    row("Cost Zone", s.cost_zone), row(s.side === "evil" ? "In play" : "Habituals", s.in_play),
    s.side === "evil" ? null : row("Evil Habituals held", s.held))));
  $("#threats").replaceChildren(...(v.threats.length ? v.threats.map(img) : [el("span", { class: "empty" }, "None")]));
  $("#stack").replaceChildren(...(v.stack.length ? v.stack.map(img) : [el("span", { class: "empty" }, "Empty")]));
  $("#piles").replaceChildren(el("div", { class: "zone-title" }, `Resisted ${v.piles.resisted.length} · Failed ${v.piles.failed.length}`));
  if (seat === "spectator") {
    $("#hand-title").textContent = "Hands are hidden from a spectator";
    $("#hand").replaceChildren();
  } else {
    const s = v.seats[Number(seat)];
    $("#hand-title").textContent = `${seatName(s.seat)}'s hand (${s.hand.length})`;
    $("#hand").replaceChildren(...s.hand.map(img));
  }
  const lines = [];
  for (let i = Math.max(1, step - 30); i <= step; i++) {
    for (const e of events[`${seat}:${i}`] || []) lines.push(el("li", { class: `ev ev-${e.kind}`, dataset: { step: i } }, eventText(e, seatName)));
  }
  $("#log").replaceChildren(...(lines.length ? lines : [el("li", { class: "note" }, step ? "" : "The cards are dealt.")]));
  $("#log").scrollTop = $("#log").scrollHeight;
  document.body.dataset.step = String(step);
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

async function open(record) {
  $("#error").textContent = "";
  const r = await fetch("/api/replays", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(record) });
  const data = await r.json();
  if (!r.ok) { $("#error").textContent = data.message || "This record cannot be replayed."; return; }
  rep = data;
  $("#slider").max = String(rep.steps);
  $("#seat").replaceChildren(el("option", { value: "spectator" }, "a spectator"),
    ...rep.lineup.split("").map((c, i) => el("option", { value: String(i) }, `${seatName(i)} (${c === "E" ? "Evil" : "Righteous"})`)));
  seat = "spectator";
  await go(0);
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
    let record;
    try { record = JSON.parse(await f.text()); } catch (err) { $("#error").textContent = "That file is not JSON: not a game record."; return; }
    open(record);
  });
  const game = params.get("game");
  if (game) {
    const r = await fetch(`/api/games/${encodeURIComponent(game)}/record`);
    const data = await r.json();
    if (!r.ok) { $("#error").textContent = data.message || "The game's record is not available."; return; }
    open(data);
  }
}
init();
