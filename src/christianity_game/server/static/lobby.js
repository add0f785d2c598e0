import { el, urlSettings } from "/static/common.js";

const $ = (s) => document.querySelector(s);
const params = new URLSearchParams(location.search);
let seats = [];          // [{side: "R"|"E", who: "human"|"random"|"heuristic"|"search"}]
let scenario = params.get("scenario") || null;
let scenarios = [];

function mode() { return document.querySelector("input[name=mode]:checked").value; }

function defaultsFor(m) {
  if (m === "solo") return [{ side: "R", who: "human" }];
  if (m === "coop") return [{ side: "R", who: "human" }, { side: "R", who: "human" }];
  return [{ side: "E", who: "human" }, { side: "R", who: "human" }];
}

function renderSeats() {
  const m = mode();
  const box = $("#seats");
  box.replaceChildren();
  seats.forEach((s, i) => {
    const who = el("select", { "aria-label": `Seat ${i + 1} player`, class: "who",
      onchange: (e) => { s.who = e.target.value; } },
      el("option", { value: "human", selected: s.who === "human" }, "Person"),
      el("option", { value: "heuristic", selected: s.who === "heuristic" }, "Bot (heuristic)"),
      el("option", { value: "search", selected: s.who === "search" }, "Bot (search, thinks ~0.2 s a move)"),
      el("option", { value: "random", selected: s.who === "random" }, "Bot (random)"));
    const side = m === "duel"
      ? el("select", { "aria-label": `Seat ${i + 1} side`, onchange: (e) => { s.side = e.target.value; } },
          el("option", { value: "R", selected: s.side === "R" }, "Righteous"),
          el("option", { value: "E", selected: s.side === "E" }, "Evil"))
      : el("span", { class: "side-r" }, "Righteous");
    const remove = (m !== "solo" && seats.length > (m === "duel" ? 2 : 1))
      ? el("button", { type: "button", class: "small", "aria-label": `Remove seat ${i + 1}`,
          onclick: () => { seats.splice(i, 1); renderSeats(); } }, "✕") : null;
    box.append(el("div", { class: "seat-row" }, el("b", {}, `Seat ${i + 1}`), side, who, remove));
  });
  $("#add-r").hidden = m === "solo";
  $("#add-e").hidden = m !== "duel";
}

function settingsBody() {
  return {
    evilInterrupt: $("#set-evilInterrupt").checked,
    matAbilities: $("#set-matAbilities").checked,
    soloFee: Number($("#set-soloFee").value),
  };
}

async function create(extra = {}) {
  $("#create-error").textContent = "";
  const m = extra.mode || mode();
  const list = extra.lineup ? extra.lineup.split("").map((c) => ({ side: c, who: "human" })) : seats;
  const lineup = list.map((s) => s.side).join("");
  const bots = {};
  list.forEach((s, i) => { if (s.who !== "human") bots[i] = s.who; });
  const body = { mode: m, lineup, settings: settingsBody(), bots };
  const seed = $("#seed").value.trim();
  if (seed !== "") body.seed = Number(seed);
  const name = $("#game-name").value.trim();
  if (name) body.name = name;
  if (extra.scenario) body.scenario = extra.scenario;
  let r;
  try {
    r = await fetch("/api/games", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body) });
  } catch (e) {
    $("#create-error").textContent = "The server cannot be reached.";
    return;
  }
  const data = await r.json();
  if (!r.ok) {
    $("#create-error").textContent = data.message || data.detail || `Error ${r.status}`;
    return;
  }
  showCreated(data);
}

function link(url, label) {
  const a = el("a", { href: url, target: "_blank", rel: "noopener", class: "seat-link" }, label);
  const copy = el("button", { type: "button", class: "small", onclick: async () => {
    try { await navigator.clipboard.writeText(url); copy.textContent = "Copied"; } catch (e) { copy.textContent = "Copy failed"; }
  } }, "Copy");
  return [a, " ", copy, el("input", { class: "link-text", readonly: true, value: url, "aria-label": label })];
}

function showCreated(g) {
  const ul = $("#links");
  ul.replaceChildren();
  const humans = g.seats.filter((s) => s.kind === "human");
  if ($("#hotseat").checked && humans.length > 0) {
    const url = `/play/${g.game_id}#tokens=${humans.map((s) => s.token).join(",")}`;
    ul.append(el("li", { class: "hotseat" }, el("a", { href: url, class: "primary button", id: "play-hotseat" },
      `Play here (hot-seat, ${humans.length} seat${humans.length > 1 ? "s" : ""})`)));
  }
  for (const s of g.seats) {
    const side = s.side === "evil" ? "Evil" : "Righteous";
    if (s.kind === "human") {
      ul.append(el("li", { dataset: { seat: s.seat } }, el("b", {}, `Seat ${s.seat + 1} (${side}): `),
        ...link(s.url, `Open seat ${s.seat + 1}`)));
    } else {
      ul.append(el("li", {}, el("b", {}, `Seat ${s.seat + 1} (${side}): `), `bot (${s.bot})`));
    }
  }
  ul.append(el("li", { class: "spectator" }, el("b", {}, "Spectators: "), ...link(g.spectator.url, "Watch")));
  $("#created").hidden = false;
  $("#created").scrollIntoView({ block: "nearest" });
  loadOpen();
}

async function loadScenarios() {
  try {
    const r = await fetch("/api/scenarios");
    scenarios = r.ok ? await r.json() : [];
  } catch (e) { scenarios = []; }
  const ul = $("#scenarios");
  ul.replaceChildren();
  if (!scenarios.length) ul.append(el("li", { class: "note" }, "No scenarios."));
  for (const s of scenarios) {
    ul.append(el("li", { class: "scenario" },
      el("div", {}, el("b", {}, s.title), ` (${s.lineup}) `, el("span", { class: "note" }, s.description)),
      el("button", { type: "button", onclick: () => { $("#hotseat").checked = true; create({ mode: s.mode, lineup: s.lineup, scenario: s.name }); } },
        "Start (hot-seat)")));
  }
  if (scenario) {
    const s = scenarios.find((x) => x.name === scenario);
    if (s) {
      $("#scenario-note").hidden = false;
      $("#scenario-note").replaceChildren(`Scenario: ${s.title}. `,
        el("button", { type: "button", class: "primary", onclick: () => create({ mode: s.mode, lineup: s.lineup, scenario: s.name }) },
          "Start this scenario"));
    }
  }
}

async function loadOpen() {
  let games = [];
  try { const r = await fetch("/api/games?limit=20"); games = r.ok ? await r.json() : []; } catch (e) { /* offline */ }
  const ul = $("#open-games");
  ul.replaceChildren();
  if (!games.length) ul.append(el("li", { class: "note" }, "None yet."));
  for (const g of games) {
    ul.append(el("li", {}, `${g.name || g.game_id}: ${g.mode} ${g.lineup}, round ${g.round ?? 1} `,
      el("button", { type: "button", class: "small", onclick: async () => {
        const r = await fetch(`/api/games/${g.game_id}/join`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
        const d = await r.json();
        if (r.ok) location.href = `/play/${d.game_id}#token=${d.token}`;
        else alert(d.message || "Cannot join");
      } }, "Join")));
  }
}

function init() {
  const m = params.get("mode");
  if (m && ["solo", "coop", "duel"].includes(m)) document.querySelector(`input[name=mode][value=${m}]`).checked = true;
  seats = defaultsFor(mode());
  const lu = (params.get("lineup") || "").toUpperCase();
  if (/^[RE]{1,8}$/.test(lu) && (mode() === "duel" || !lu.includes("E")) && (mode() !== "solo" || lu === "R")) {
    seats = lu.split("").map((side) => ({ side, who: "human" }));   // "New game, same settings"
  }
  document.querySelectorAll("input[name=mode]").forEach((r) => r.addEventListener("change", () => { seats = defaultsFor(mode()); renderSeats(); }));
  $("#add-r").addEventListener("click", () => { seats.push({ side: "R", who: "human" }); renderSeats(); });
  $("#add-e").addEventListener("click", () => { seats.push({ side: "E", who: "human" }); renderSeats(); });
  const us = urlSettings();
  if ("evilInterrupt" in us) $("#set-evilInterrupt").checked = us.evilInterrupt;
  if ("matAbilities" in us) $("#set-matAbilities").checked = us.matAbilities;
  if ("soloFee" in us) $("#set-soloFee").value = String(us.soloFee);
  const named = Object.entries(us).map(([k, v]) => `${k}=${v === true ? "on" : v === false ? "off" : v}`);
  if (named.length) { $("#url-settings").hidden = false; $("#url-settings").textContent = `From the link: ${named.join(", ")}`; }
  if (params.get("seed")) $("#seed").value = params.get("seed");
  if (params.get("hotseat") === "1") $("#hotseat").checked = true;
  $("#create-form").addEventListener("submit", (e) => { e.preventDefault(); create(); });
  renderSeats();
  loadScenarios();
  loadOpen();
}
init();
