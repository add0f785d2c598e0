import { el, urlSettings } from "/static/common.js";

const $ = (s) => document.querySelector(s);
const params = new URLSearchParams(location.search);
let seats = [];          // [{side: "R"|"E", who: "human"|a bot level of BOT_LEVELS, access: "invited"|"open"}]
// The bot levels a seat can take (bots/registry.py LEVELS): the value is what the server is sent ("heuristic" is
// the easy level's bot), the label says what each one thinks for.
const BOT_LEVELS = [
  ["heuristic", "Bot: easy (heuristic, instant)"],
  ["normal", "Bot: normal (ISMCTS, thinks 0.03 s a move)"],
  ["hard", "Bot: hard (ISMCTS, thinks 1 s a move)"],
  ["random", "Bot (random)"],
];
let scenario = params.get("scenario") || null;
let scenarios = [];
let variantCatalog = { variants: [], presets: {}, default: {} };   // GET /api/variants (engine/variants.py)

function mode() { return document.querySelector("input[name=mode]:checked").value; }

function seat(side, who = "human") { return { side, who, access: "invited" }; }

const ACCESS_NOTE = {
  invited: "Invited: only this seat's secret link plays it; it is never listed and nobody can join it from the lobby.",
  open: "Open: listed under Open games; the first person to join takes it.",
};

function defaultsFor(m) {
  if (m === "solo") return [seat("R")];
  if (m === "coop") return [seat("R"), seat("R")];
  return [seat("E"), seat("R")];
}

function renderSeats() {
  const m = mode();
  const box = $("#seats");
  box.replaceChildren();
  seats.forEach((s, i) => {
    const who = el("select", { "aria-label": `Seat ${i + 1} player`, class: "who",
      onchange: (e) => { s.who = e.target.value; renderSeats(); } },
      el("option", { value: "human", selected: s.who === "human" }, "Person"),
      ...BOT_LEVELS.map(([value, label]) => el("option", { value, selected: s.who === value }, label)));
    const side = m === "duel"
      ? el("select", { "aria-label": `Seat ${i + 1} side`, onchange: (e) => { s.side = e.target.value; renderAdjustNote(); } },
          el("option", { value: "R", selected: s.side === "R" }, "Righteous"),
          el("option", { value: "E", selected: s.side === "E" }, "Evil"))
      : el("span", { class: "side-r" }, "Righteous");
    const remove = (m !== "solo" && seats.length > (m === "duel" ? 2 : 1))
      ? el("button", { type: "button", class: "small", "aria-label": `Remove seat ${i + 1}`,
          onclick: () => { seats.splice(i, 1); renderSeats(); } }, "✕") : null;
    const human = s.who === "human";
    const access = human ? el("select", { "aria-label": `Seat ${i + 1} access`, class: "access", id: `access-${i}`,
      "aria-describedby": `access-note-${i}`,
      onchange: (e) => { s.access = e.target.value; renderSeats(); } },
      el("option", { value: "invited", selected: s.access !== "open" }, "Invited (link only)"),
      el("option", { value: "open", selected: s.access === "open" }, "Open (listed)")) : null;
    box.append(el("div", { class: "seat-row", dataset: { seat: i } }, el("b", {}, `Seat ${i + 1}`), side, who, access, remove,
      human ? el("p", { class: "note access-note", id: `access-note-${i}` }, ACCESS_NOTE[s.access === "open" ? "open" : "invited"]) : null));
  });
  renderAdjustNote();
  $("#add-r").hidden = m === "solo";
  $("#add-e").hidden = m !== "duel";
  $("#set-evilInterrupt").closest("label").hidden = m !== "duel";   // a duel-only setting (D-INT-6)
  $("#variants-box").hidden = m !== "duel";                          // the duel's play-test variants
}

/** The play-test variants section: one row a declared variant, a switch and (for a number) its value. */
function renderVariants(chosen) {
  const box = $("#variants");
  box.replaceChildren();
  for (const v of variantCatalog.variants) {
    const on = v.alias in chosen;
    const id = `variant-${v.alias}`;
    const value = v.kind === "int"
      ? el("input", { type: "number", id: `${id}-value`, class: "variant-value", min: v.low, max: v.high,
          value: on ? chosen[v.alias] : v.suggested, "aria-label": `${v.title}: value`, oninput: renderVariantSummary })
      : null;
    box.append(el("div", { class: "variant-row", dataset: { variant: v.alias } },
      el("label", {}, el("input", { type: "checkbox", id, checked: on, onchange: renderVariantSummary }), " ", el("b", {}, variantLabel(v))),
      value,
      el("p", { class: "note variant-desc" }, `${v.description} Departs from ${v.rules.join(", ")}.`)));
  }
  renderVariantSummary();
}

/** A row's label says what a ticked box does: a yes/no variant whose printed value is "on" is ticked
 * to turn the rule off ("No combo-finale reward"), never a ticked "Combo-finale reward" that means none. */
function variantLabel(v) {
  return v.kind === "bool" && v.printed ? `No ${v.title.charAt(0).toLowerCase()}${v.title.slice(1)}` : v.title;
}

/** The variants switched on, alias -> value (a yes/no variant on means "not as printed"). */
function chosenVariants() {
  const out = {};
  for (const v of variantCatalog.variants) {
    if (!$(`#variant-${v.alias}`) || !$(`#variant-${v.alias}`).checked) continue;
    out[v.alias] = v.kind === "int" ? Number($(`#variant-${v.alias}-value`).value) : !v.printed;
  }
  return out;
}

function variantsText(values) {
  const pairs = Object.entries(values).map(([k, v]) => `${k}=${v === true ? 1 : v === false ? 0 : v}`);
  return pairs.length ? pairs.join(",") : "printed";
}

function renderVariantSummary() {
  const on = chosenVariants();
  const titles = variantCatalog.variants.filter((v) => v.alias in on)
    .map((v) => (v.kind === "int" ? `${v.title} ${on[v.alias]}` : variantLabel(v)));
  $("#variants-summary").textContent = titles.length
    ? `This table will play ${titles.length} variant${titles.length > 1 ? "s" : ""}: ${titles.join("; ")}.`
    : "This table will play the printed rules.";
}

/** A ``variants`` text (a preset name and/or alias=value pairs) as alias -> value, read as the server reads it. */
function parseVariants(text) {
  const out = {};
  for (const part of (text || "").split(",").map((p) => p.trim()).filter(Boolean)) {
    if (!part.includes("=")) { Object.assign(out, (variantCatalog.presets[part] || {}).values || {}); continue; }
    const [k, v] = part.split("=");
    const decl = variantCatalog.variants.find((d) => d.alias === k.trim());
    if (!decl) continue;
    out[decl.alias] = decl.kind === "int" ? Number(v) : !["0", "false", "off", "no"].includes(v.trim().toLowerCase());
  }
  for (const [k, v] of Object.entries(out)) {
    const decl = variantCatalog.variants.find((d) => d.alias === k);
    if (decl && v === decl.printed) delete out[k];   // the printed value is no variant
  }
  return out;
}

async function loadVariants() {
  try {
    const r = await fetch("/api/variants");
    if (r.ok) variantCatalog = await r.json();
  } catch (e) { /* the section stays empty: the printed rules */ }
  const rec = variantCatalog.presets.recommended;
  $("#variants-recommended").hidden = !rec;
  if (rec) $("#variants-recommended-text").textContent = `Recommended set: ${rec.text}`;
  $("#variants-recommended").onclick = () => renderVariants((rec && rec.values) || {});
  $("#variants-printed").onclick = () => renderVariants({});
  renderVariants(params.has("variants") ? parseVariants(params.get("variants")) : variantCatalog.default || {});
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
  const list = extra.lineup ? extra.lineup.split("").map((c, i) => seat(c, (extra.bots || {})[i] || "human")) : seats;
  const lineup = list.map((s) => s.side).join("");
  const bots = {};
  const access = {};
  list.forEach((s, i) => {
    if (s.who !== "human") bots[i] = s.who;
    else access[i] = s.access === "open" ? "open" : "invited";
  });
  const body = { mode: m, lineup, settings: settingsBody(), bots, access };
  if (m === "duel" || extra.scenario) body.settings.variants = variantsText(chosenVariants());
  const adjust = $("#manual-adjust").value;
  if (adjust) body.manualAdjust = adjust;
  const seed = $("#seed").value.trim();
  // digits go as a decimal string, which keeps every one (a Number keeps 53 bits of a 128-bit seed)
  if (seed !== "") body.seed = /^[0-9]+$/.test(seed) ? seed : Number(seed);
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
    // a refusal has a code and words; a request the schema refused (422) lists what is wrong
    const detail = Array.isArray(data.detail) ? data.detail.map((d) => `${(d.loc || []).slice(1).join(".") || "request"}: ${d.msg}`).join("; ") : data.detail;
    $("#create-error").textContent = data.message || detail || `Error ${r.status}`;
    return;
  }
  showCreated(data, Boolean(extra.here) || $("#hotseat").checked);
}

function link(url, label) {
  const a = el("a", { href: url, target: "_blank", rel: "noopener", class: "seat-link" }, label);
  const copy = el("button", { type: "button", class: "small", onclick: async () => {
    try { await navigator.clipboard.writeText(url); copy.textContent = "Copied"; } catch (e) { copy.textContent = "Copy failed"; }
  } }, "Copy");
  return [a, " ", copy, el("input", { class: "link-text", readonly: true, value: url, "aria-label": label })];
}

/** A loopback address (127.x, localhost, [::1]): a link to it opens only on this computer. */
function isLoopback(url) {
  let host;
  try { host = new URL(url, location.href).hostname.toLowerCase(); } catch (e) { return false; }
  host = host.replace(/^\[|\]$/g, "");
  return host === "localhost" || host.endsWith(".localhost") || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Said under the links when they point at a loopback address (the server knows no public URL). */
function localLinksNote(url) {
  const host = new URL(url, location.href).host;
  return el("li", { class: "links-local", id: "links-local", role: "note" },
    el("b", {}, "These links work only on this computer"), ` (they point at ${host}, which another device cannot reach). `,
    "To play with a friend on another device, stop the server and start it with ",
    el("code", {}, "scripts/run.sh --host 0.0.0.0 --public-url http://YOUR-ADDRESS:8000"),
    " (YOUR-ADDRESS: this computer's address on your network), then create the game again: its links then start with that address.");
}

function showCreated(g, here) {
  const ul = $("#links");
  ul.replaceChildren();
  const humans = g.seats.filter((s) => s.kind === "human");
  if (here && humans.length > 0) {
    const url = `/play/${g.game_id}#tokens=${humans.map((s) => s.token).join(",")}`;
    ul.append(el("li", { class: "hotseat" }, el("a", { href: url, class: "primary button", id: "play-hotseat" },
      humans.length > 1 ? `Play here (hot-seat, ${humans.length} seats)` : "Play here")));
  }
  if (isLoopback(g.spectator.url)) ul.append(localLinksNote(g.spectator.url));   // the links all share one address
  for (const s of g.seats) {
    const side = s.side === "evil" ? "Evil" : "Righteous";
    if (s.kind === "human") {
      const open = s.access === "open";
      ul.append(el("li", { dataset: { seat: s.seat, access: s.access || "invited" } }, el("b", {}, `Seat ${s.seat + 1} (${side}): `),
        ...link(s.url, `Open seat ${s.seat + 1}`),
        el("span", { class: "note access-tag" }, open
          ? " open: listed under Open games, the first to join takes it (share this link or leave the seat open, not both)"
          : " invited: only this link plays it")));
    } else {
      ul.append(el("li", {}, el("b", {}, `Seat ${s.seat + 1} (${side}): `), `bot (${s.bot})`));
    }
  }
  ul.append(el("li", { class: "spectator" }, el("b", {}, "Spectators: "), ...link(g.spectator.url, "Watch")));
  if (g.manualAdjust) ul.append(el("li", { class: "note", id: "created-adjust" }, `Maturity/Humility by hand: ${ADJUST_WORDS[g.manualAdjust] || g.manualAdjust}.`));
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
    ul.append(el("li", { class: "scenario", dataset: { scenario: s.name } },
      el("div", {}, el("b", {}, s.title), ` (${s.lineup}) `, el("span", { class: "note" }, s.description),
        s.goal && s.goal !== s.description ? el("span", { class: "note scenario-goal" }, ` Goal: ${s.goal}`) : null),
      el("div", { class: "scenario-start" },
        el("button", { type: "button", onclick: () => { $("#hotseat").checked = true; create({ mode: s.mode, lineup: s.lineup, scenario: s.name }); } },
          "Start (hot-seat)"),
        ...againstBot(s))));
  }
  if (scenario) {
    const s = scenarios.find((x) => x.name === scenario);
    if (s) {
      $("#scenario-note").hidden = false;
      $("#scenario-note").replaceChildren(`Scenario: ${s.title}. `,
        el("button", { type: "button", class: "primary", onclick: () => create({ mode: s.mode, lineup: s.lineup, scenario: s.name }) },
          "Start this scenario"), " ", ...againstBot(s));
    }
  }
}

/** A scenario against bots: the side (every seat of it) played here, a bot of the chosen kind in each other seat. */
function againstBot(s) {
  const side = el("select", { "aria-label": `Play ${s.title} as`, class: "scenario-side" },
    el("option", { value: "R" }, "Righteous"), el("option", { value: "E" }, "Evil"));
  const bot = el("select", { "aria-label": `Bot for ${s.title}`, class: "scenario-bot" },
    ...BOT_LEVELS.map(([value, label]) => el("option", { value }, label)));
  const start = () => {
    const bots = {};
    s.lineup.split("").forEach((c, i) => { if (c !== side.value) bots[i] = bot.value; });
    create({ mode: s.mode, lineup: s.lineup, scenario: s.name, bots, here: true });
  };
  return [el("label", { class: "scenario-as" }, "Play as ", side), el("label", { class: "scenario-as" }, "against ", bot),
    el("button", { type: "button", class: "primary", onclick: start }, "Start against a bot")];
}

async function loadOpen() {
  let games = [];
  try { const r = await fetch("/api/games?limit=20"); games = r.ok ? await r.json() : []; } catch (e) { /* offline */ }
  const ul = $("#open-games");
  ul.replaceChildren();
  if (!games.length) ul.append(el("li", { class: "note" }, "None yet."));
  for (const g of games) {
    const sides = (g.seats || []).map((x) => `${x.side === "evil" ? "E" : "R"}${x.kind === "bot" ? " bot" : ""}`);
    const open = (g.open_seats || []).map((i) => {
      const info = (g.seats || []).find((x) => x.seat === i) || { side: "righteous" };
      return el("button", { type: "button", class: "small join", dataset: { seat: i },
        "aria-label": `Join ${g.name || g.game_id} as seat ${i + 1} (${info.side === "evil" ? "Evil" : "Righteous"})`,
        onclick: () => join(g.game_id, i) }, `Join seat ${i + 1} (${info.side === "evil" ? "Evil" : "Righteous"})`);
    });
    ul.append(el("li", { class: "open-game", dataset: { game: g.game_id } },
      el("span", {}, `${g.name || g.game_id}: ${g.mode} ${g.lineup}, round ${g.round ?? 1}`),
      el("span", { class: "note" }, ` · seats ${sides.join(", ")} · open: ${(g.open_seats || []).map((i) => `seat ${i + 1}`).join(", ")}`
        + ` · by hand: ${g.manualAdjust || "free"} `),
      ...open));
  }
}

async function join(gameId, seatNo) {
  let r, d;
  try {
    r = await fetch(`/api/games/${encodeURIComponent(gameId)}/join`, { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ seat: seatNo }) });
    d = await r.json();
  } catch (e) { $("#open-error").textContent = "The server cannot be reached."; return; }
  if (r.ok) { location.href = `/play/${encodeURIComponent(d.game_id)}#token=${d.token}`; return; }
  $("#open-error").textContent = `${d.message || "Cannot join"}.`;
  loadOpen();
}

const ADJUST_WORDS = {
  ask: "ask: a request the other side accepts or declines",
  free: "free: applied at once",
  off: "off: nobody can set them by hand",
};

/** The manual-adjustment choice: what its default means for the seats as they stand. */
function renderAdjustNote() {
  const note = $("#manual-adjust-note");
  if (!note) return;
  const people = seats.filter((s) => s.who === "human").map((s) => s.side);
  const both = mode() === "duel" && people.includes("R") && people.includes("E");
  const chosen = $("#manual-adjust").value;
  note.textContent = chosen
    ? `This table: ${ADJUST_WORDS[chosen]}.`
    : `Default for these seats: ${both ? ADJUST_WORDS.ask : ADJUST_WORDS.free} (ask when people sit on both sides of a duel, free otherwise).`;
}

function init() {
  const m = params.get("mode");
  if (m && ["solo", "coop", "duel"].includes(m)) document.querySelector(`input[name=mode][value=${m}]`).checked = true;
  seats = defaultsFor(mode());
  const lu = (params.get("lineup") || "").toUpperCase();
  if (/^[RE]{1,8}$/.test(lu) && (mode() === "duel" || !lu.includes("E")) && (mode() !== "solo" || lu === "R")) {
    seats = lu.split("").map((side) => seat(side));   // "New game, same settings"
  }
  document.querySelectorAll("input[name=mode]").forEach((r) => r.addEventListener("change", () => { seats = defaultsFor(mode()); renderSeats(); }));
  $("#add-r").addEventListener("click", () => { seats.push(seat("R")); renderSeats(); });
  $("#add-e").addEventListener("click", () => { seats.push(seat("E")); renderSeats(); });
  const us = urlSettings();
  if ("evilInterrupt" in us) $("#set-evilInterrupt").checked = us.evilInterrupt;
  if ("matAbilities" in us) $("#set-matAbilities").checked = us.matAbilities;
  if ("soloFee" in us) $("#set-soloFee").value = String(us.soloFee);
  const named = Object.entries(us).map(([k, v]) => `${k}=${v === true ? "on" : v === false ? "off" : v}`);
  if (named.length) { $("#url-settings").hidden = false; $("#url-settings").textContent = `From the link: ${named.join(", ")}`; }
  if (params.get("seed")) $("#seed").value = params.get("seed");
  if (params.get("hotseat") === "1") $("#hotseat").checked = true;
  $("#manual-adjust").addEventListener("change", renderAdjustNote);
  const ma = params.get("manualAdjust");
  if (ma && ["ask", "free", "off"].includes(ma)) $("#manual-adjust").value = ma;
  $("#create-form").addEventListener("submit", (e) => { e.preventDefault(); create(); });
  renderSeats();
  loadVariants();
  loadScenarios();
  loadOpen();
}
init();
