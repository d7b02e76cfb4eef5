// The Westmarch table in a browser: one viewer's table, live, with its timeline.
//
// It speaks the Connect protocol (JSON) to the same GameService any gRPC client uses, with
// the token kept in the address's fragment (#token=...), which the browser never sends to a
// server. It is given only what that token may see; nothing here decides what is hidden.
"use strict";

const SERVICE = "/westmarch.v1.GameService/";
const HEADERS = { "connect-protocol-version": "1" };

// -- the Connect protocol ----------------------------------------------------------------

class RpcError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

async function call(method, request) {
  let response;
  try {
    response = await fetch(SERVICE + method, {
      method: "POST",
      headers: { ...HEADERS, "content-type": "application/json" },
      body: JSON.stringify(request),
    });
  } catch (error) {
    throw new RpcError("unavailable", "the server cannot be reached");
  }
  const text = await response.text();
  let data = {};
  try {
    data = text ? JSON.parse(text) : {};
  } catch (error) {
    throw new RpcError("unknown", `HTTP ${response.status}: ${text.slice(0, 200)}`);
  }
  if (!response.ok) throw new RpcError(data.code || "unknown", data.message || `HTTP ${response.status}`);
  return data;
}

function concat(a, b) {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

// A server-streaming call: yields each message; throws the stream's error, if any.
async function* stream(method, request, signal) {
  const payload = new TextEncoder().encode(JSON.stringify(request));
  const body = new Uint8Array(5 + payload.length);
  new DataView(body.buffer).setUint32(1, payload.length);
  body.set(payload, 5);
  const response = await fetch(SERVICE + method, {
    method: "POST",
    headers: { ...HEADERS, "content-type": "application/connect+json" },
    body,
    signal,
  });
  if (!response.ok) throw new RpcError("unknown", `HTTP ${response.status}`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = new Uint8Array(0);
  for (;;) {
    while (buffer.length >= 5) {
      const flags = buffer[0];
      const length = new DataView(buffer.buffer, buffer.byteOffset).getUint32(1);
      if (buffer.length < 5 + length) break;
      const message = JSON.parse(decoder.decode(buffer.subarray(5, 5 + length)) || "{}");
      buffer = buffer.slice(5 + length);
      if (flags & 2) {
        if (message.error) throw new RpcError(message.error.code, message.error.message || "");
        return;
      }
      yield message;
    }
    const { done, value } = await reader.read();
    if (done) throw new RpcError("unavailable", "the stream was cut");
    buffer = concat(buffer, value);
  }
}

// bytes fields (the table, event bodies) are base64 in protobuf's JSON: here they are JSON text
function jsonBytes(base64) {
  if (!base64) return null;
  const binary = atob(base64);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes));
}

const num = (value) => Number(value || 0);

// -- the page's state ------------------------------------------------------------------------

const S = {
  token: "",
  viewer: "",
  live: null, // the latest view (from Watch or a submitted decision)
  shown: null, // the view on the table: the live one, or one of the past
  at: null, // the version looked at, null when following the game live
  latest: 0,
  events: [], // the viewer's events, in order
  selected: null,
  watching: null,
  busy: false,
  cards: new Map(), // the shown table's cards by uid
};

// -- small DOM helpers ---------------------------------------------------------------------

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

const $ = (id) => document.getElementById(id);

function showError(error) {
  const box = $("error");
  if (!error) {
    box.hidden = true;
    box.textContent = "";
    return;
  }
  box.hidden = false;
  box.textContent = error instanceof RpcError ? `${error.code}: ${error.message}` : String(error);
}

// -- cards ----------------------------------------------------------------------------------

const LCG_STATS = [  // [field, short label, what it is]
  ["cost", "cost", "cost"],
  ["threat", "threat", "threat strength"],
  ["engagement_cost", "engage", "engagement cost"],
  ["willpower", "will", "willpower"],
  ["attack", "atk", "attack strength"],
  ["defense", "def", "defense strength"],
  ["hit_points", "hp", "hit points"],
  ["quest_points", "quest", "quest points"],
];
const WOTR_ICONS = [  // [field, short label, what it is]
  ["path", "path icon", "path icons"],
  ["bg_attack", "bg attack icon", "battleground attack icons"],
  ["bg_defense", "bg defense icon", "battleground defense icons"],
  ["lead_attack", "lead attack icon", "leadership attack icons"],
  ["lead_defense", "lead defense icon", "leadership defense icons"],
];

function stat(label, value, title) {
  return h("span", { class: "stat", title: title || label }, h("b", {}, String(value)), ` ${label}`);
}

function lcgCard(c) {
  const classes = ["card", `type-${c.type}`, c.sphere ? `sphere-${c.sphere}` : "", c.exhausted ? "exhausted" : ""];
  const stats = LCG_STATS.filter(([k]) => c[k] !== undefined && c[k] !== null).map(([k, label, title]) => stat(label, c[k], title));
  const tokens = [];
  if (c.damage) tokens.push(h("span", { class: "token damage" }, `${c.damage} damage`));
  if (c.damage && c.hit_points !== undefined)
    tokens.push(h("span", { class: "token left" }, `${Math.max(0, c.hit_points - c.damage)} hp left`));
  if (c.resources) tokens.push(h("span", { class: "token resource" }, `${c.resources} resources`));
  if (c.progress) tokens.push(h("span", { class: "token progress" }, `${c.progress} progress`));
  if (c.exhausted) tokens.push(h("span", { class: "token state" }, "exhausted"));
  if (c.committed) tokens.push(h("span", { class: "token state" }, "committed"));
  if (c.face_down_shadows) tokens.push(h("span", { class: "token shadow" }, `${c.face_down_shadows} face-down shadow`));
  const words = [...(c.keywords || []), ...(c.traits || [])].map((w) => `${w}.`).join(" ");
  return h(
    "div",
    { class: classes.join(" "), "data-uid": c.uid, "data-name": c.name },
    h("div", { class: "card-head" }, h("span", { class: "name" }, c.name), h("span", { class: "kind" }, [c.sphere, c.type].filter(Boolean).join(" "))),
    stats.length ? h("div", { class: "stats" }, stats) : null,
    words ? h("div", { class: "traits" }, words) : null,
    c.text ? h("div", { class: "text" }, c.text) : null,
    tokens.length ? h("div", { class: "tokens" }, tokens) : null,
    (c.attachments || []).length ? h("div", { class: "attached" }, h("small", {}, "attached"), c.attachments.map(lcgCard)) : null,
    (c.shadows || []).length ? h("div", { class: "attached shadows" }, h("small", {}, "shadow cards"), c.shadows.map(lcgCard)) : null,
  );
}

function wotrCard(c) {
  const icons = WOTR_ICONS.filter(([k]) => c[k]).map(([k, label, title]) => stat(c[k] === 1 ? label : `${label}s`, c[k], title));
  const paths = (c.paths || []).length ? h("div", { class: "paths" }, `playable on paths numbered ${c.paths.join(", ")}`) : null;
  return h(
    "div",
    { class: `card type-${c.type} faction-${c.faction}`, "data-uid": c.uid, "data-name": c.name },
    h("div", { class: "card-head" }, h("span", { class: "name" }, c.name), h("span", { class: "kind" }, `${c.faction} ${c.type}`)),
    icons.length ? h("div", { class: "stats" }, icons) : null,
    paths,
    (c.keywords || []).length ? h("div", { class: "traits" }, c.keywords.join(". ") + ".") : null,
    c.text ? h("div", { class: "text" }, c.text) : null,
    c.owner || c.reserved ? h("div", { class: "tokens" }, c.owner ? h("span", { class: "token" }, c.owner) : null, c.reserved ? h("span", { class: "token state" }, "reserved") : null) : null,
    (c.items || []).length ? h("div", { class: "attached" }, h("small", {}, "items"), c.items.map(wotrCard)) : null,
  );
}

function zone(title, cards, render, extra) {
  return h(
    "div",
    { class: "zone", "data-zone": title },
    h("h3", {}, title, extra ? h("span", { class: "count" }, ` ${extra}`) : null),
    h("div", { class: "cards" }, cards && cards.length ? cards.map(render) : h("span", { class: "empty" }, "none")),
  );
}

function pile(title, count, seen) {
  return h("div", { class: "pile", "data-zone": title }, h("b", {}, String(count || 0)), ` ${title}${seen === false ? " (face down)" : ""}`);
}

// -- the tables of each game ------------------------------------------------------------------

function lcgTable(t) {
  const shared = h(
    "section",
    { class: "area shared" },
    h("h2", {}, t.round ? `Round ${t.round} · ${t.phase} phase` : "Setup"),
    h(
      "div",
      { class: "row" },
      zone("Quest", t.quest ? [t.quest] : [], lcgCard, t.quest_stage ? `stage ${t.quest_stage}` : ""),
      zone("Active location", t.active_location ? [t.active_location] : [], lcgCard),
      zone("Staging area", t.staging, lcgCard),
    ),
    (t.revealed || []).length ? zone("Revealed", t.revealed, lcgCard) : null,
    h(
      "div",
      { class: "piles" },
      pile("encounter deck", t.encounter_deck_size, false),
      pile("encounter discard", (t.encounter_discard || []).length),
      pile("victory display", (t.victory || []).length),
    ),
    (t.encounter_discard || []).length ? details("Encounter discard pile", t.encounter_discard, lcgCard) : null,
    (t.victory || []).length ? details("Victory display", t.victory, lcgCard) : null,
    t.encounter_deck ? details("Encounter deck (in order)", t.encounter_deck, lcgCard) : null,
  );
  const players = t.players.map((p) =>
    h(
      "section",
      { class: `area player${p.seat === S.viewer ? " mine" : ""}`, "data-seat": p.seat },
      h("h2", {}, `${p.seat}${p.seat === S.viewer ? " (you)" : ""}`, h("span", { class: "threat" }, ` threat ${p.threat}`), p.first ? h("span", { class: "badge" }, "first player") : null, p.eliminated ? h("span", { class: "badge" }, "eliminated") : null),
      h("div", { class: "row" }, zone("Heroes", p.heroes, lcgCard), zone("Allies", p.allies, lcgCard), zone("Engaged enemies", p.engaged, lcgCard)),
      (p.contract || []).length ? zone("Contract", p.contract, lcgCard) : null,
      p.hand ? zone("Hand", p.hand, lcgCard, `${p.hand.length} cards`) : null,
      h("div", { class: "piles" }, p.hand ? null : pile("cards in hand", p.hand_size, false), pile("deck", p.deck_size, false), pile("discard", (p.discard || []).length)),
      (p.discard || []).length ? details(`${p.seat}'s discard pile`, p.discard, lcgCard) : null,
      p.deck ? details(`${p.seat}'s deck (in order)`, p.deck, lcgCard) : null,
    ),
  );
  return [shared, ...players];
}

function locationFrame(l) {
  return h(
    "div",
    { class: `location kind-${l.kind}`, "data-uid": l.uid, "data-name": l.name },
    h("div", { class: "card-head" }, h("span", { class: "name" }, l.name), h("span", { class: "kind" }, l.kind === "path" ? `path ${l.number}` : `${l.deck || ""} battleground`)),
    h(
      "div",
      { class: "stats" },
      stat("VP", l.vp),
      stat("defense", l.defense),
      l.attack_tokens ? stat("attack tokens", l.attack_tokens) : null,
      l.defense_tokens ? stat("defense tokens", l.defense_tokens) : null,
    ),
    (l.defending || []).length ? h("div", { class: "traits" }, `defended by ${l.defending.join(", ")}`) : null,
    (l.attacking || []).length ? h("div", { class: "traits" }, `attacked by ${l.attacking.join(", ")}`) : null,
    l.text ? h("div", { class: "text" }, l.text) : null,
    l.ignore_defense ? h("div", { class: "tokens" }, h("span", { class: "token state" }, "its defense is ignored")) : null,
    (l.cards || []).length ? h("div", { class: "cards here" }, l.cards.map(wotrCard)) : null,
    combatNow(l),
  );
}

// The combat on a location as it stands, card by card: the count the combat step itself
// makes (domain/wotr/rules/combat.py, tally), sent in the view; nothing is counted here.
function combatNow(l) {
  const c = l.count;
  if (!c || (!(l.cards || []).length && !l.attack_tokens)) return null;
  const names = {};
  const walk = (cards) => cards.forEach((x) => { names[x.uid] = x.name; walk(x.items || []); });
  walk(l.cards || []);
  const team = (k) => (k === "free" ? "Free Peoples" : "Shadow");
  const named = (uid) => names[uid] || "a card";
  const share = (s) => {
    if (s.what === "printed") return `printed defense ${s.value}`;
    if (s.what === "printed-ignored") return "printed defense ignored";
    if (s.what === "attack-tokens") return `${s.value} attack token${s.value === 1 ? "" : "s"}`;
    if (s.what === "defense-tokens") return `${s.value} defense token${s.value === 1 ? "" : "s"}`;
    if (s.what === "leadership") return `${named(s.card)}'s leadership ${s.value} (supported by ${named(s.by)})`;
    if (s.what === "support") return `${named(s.card)} ${s.value} while supporting ${named(s.by)}`;
    if (s.what === "text") return `${named(s.card)} ${s.value} (its text)`;
    return `${named(s.card)} ${s.value}${s.by ? ` (wielded by ${named(s.by)})` : ""}`;
  };
  const sum = (part) => (c.shares || []).filter((s) => s.part === part).map(share).join(" + ") || "none";
  const defenders = c.attackers === "free" ? "shadow" : "free";
  const outcome = c.winner ? `the ${team(c.winner)} would take it` : "nobody would take it";
  return h(
    "div",
    { class: "combat-now" },
    h("div", {}, `If fought now: ${team(c.attackers)} attack ${c.attack} against ${team(defenders)} defense ${c.defense} + cards ${c.defenders}: ${outcome}${c.corruption ? ` and ${c.corruption} corruption` : ""}`),
    h("div", { class: "traits" }, `attack ${c.attack} = ${sum("attack")}`),
    h("div", { class: "traits" }, `defense ${c.defense} = ${sum("defense")}`),
    h("div", { class: "traits" }, `defending cards ${c.defenders} = ${sum("defenders")}`),
  );
}

function wotrTable(t) {
  const teams = h(
    "div",
    { class: "row teams" },
    t.teams.map((team) =>
      h(
        "div",
        { class: `zone team-${team.team}`, "data-zone": `${team.team} team` },
        h("h3", {}, `${team.team === "free" ? "Free Peoples" : "Shadow"}: ${team.score} VP`, team.corruption ? h("span", { class: "count" }, ` corruption ${team.corruption}`) : null, team.face_down_paths ? h("span", { class: "count" }, ` ${team.face_down_paths} face-down paths`) : null),
        h("div", { class: "cards" }, (team.scored || []).length ? team.scored.map(locationFrame) : h("span", { class: "empty" }, "nothing scored")),
      ),
    ),
  );
  const combat = t.combat
    ? h("div", { class: "combat" }, `Combat (${t.combat.kind}) on ${([t.path, ...(t.battlegrounds || [])].find((l) => l && l.uid === t.combat.location) || { name: "a location" }).name}: ${t.combat.attackers} attack ${t.combat.attack} against defense ${t.combat.defense}; ${t.combat.remaining} to go`)
    : null;
  const shared = h(
    "section",
    { class: "area shared" },
    h("h2", {}, `${t.scenario || "War of the Ring"} · round ${t.round} · ${t.step} step`),
    teams,
    h("div", { class: "row" }, zone(`Path ${t.path_number || ""}`, t.path ? [t.path] : [], locationFrame), zone("Battlegrounds", t.battlegrounds, locationFrame)),
    combat,
    h(
      "div",
      { class: "piles" },
      Object.entries(t.path_decks || {}).map(([n, count]) => pile(`path ${n} deck`, count, false)),
      Object.entries(t.battleground_decks || {}).map(([side, count]) => pile(`${side} battleground deck`, count, false)),
    ),
    (t.effects || []).length ? h("div", { class: "effects" }, `lasting effects: ${t.effects.join(", ")}`) : null,
  );
  const players = t.players.map((p) =>
    h(
      "section",
      { class: `area player team-${p.team}${p.seat === S.viewer ? " mine" : ""}`, "data-seat": p.seat },
      h("h2", {}, `${p.seat}${p.seat === S.viewer ? " (you)" : ""}`, h("span", { class: "threat" }, ` ${p.team === "free" ? "Free Peoples" : "Shadow"}`), p.starting ? h("span", { class: "badge" }, "starting") : null, p.to_act ? h("span", { class: "badge" }, "to act") : null, p.ring ? h("span", { class: "badge" }, `ring ${p.ring}`) : null, h("span", { class: "badge" }, `carryover ${p.carryover ?? 2}`)),
      zone("Reserve", p.reserve, wotrCard),
      p.hand ? zone("Hand", p.hand, wotrCard, `${p.hand.length} cards`) : null,
      p.top_of_deck ? zone("Top of deck", [p.top_of_deck], wotrCard) : null,
      (p.aside || []).length ? zone("Set aside", p.aside, wotrCard) : null,
      h(
        "div",
        { class: "piles" },
        p.hand ? null : pile("cards in hand", p.hand_size, false),
        pile("deck", p.deck_size, false),
        pile("cycle pile", p.cycle_size, !!p.cycle),
        pile("eliminated pile", p.eliminated_size, !!p.eliminated),
        p.aside ? null : p.aside_size ? pile("set aside", p.aside_size, false) : null,
      ),
      (p.cycle || []).length ? details(`${p.seat}'s cycle pile`, p.cycle, wotrCard) : null,
      (p.eliminated || []).length ? details(`${p.seat}'s eliminated pile`, p.eliminated, wotrCard) : null,
      p.deck ? details(`${p.seat}'s deck (in order)`, p.deck, wotrCard) : null,
    ),
  );
  return [shared, ...players];
}

function details(title, cards, render) {
  return h("details", { class: "pile-cards" }, h("summary", {}, `${title} (${cards.length})`), h("div", { class: "cards" }, cards.map(render)));
}

const TABLES = { lcg: lcgTable, wotr: wotrTable };

// every card (and location) the table shows, by uid
function cardsOf(value, found = new Map()) {
  if (Array.isArray(value)) value.forEach((v) => cardsOf(v, found));
  else if (value && typeof value === "object") {
    if (typeof value.uid === "number" && typeof value.name === "string") found.set(value.uid, value);
    Object.values(value).forEach((v) => cardsOf(v, found));
  }
  return found;
}

function frame(card) {
  if (card.kind !== undefined) return locationFrame(card);
  return S.shown && S.shown.game === "wotr" ? wotrCard(card) : lcgCard(card);
}

function renderTable() {
  const view = S.shown;
  const box = $("table");
  box.replaceChildren();
  if (!view) return;
  const table = jsonBytes(view.table);
  if (!table) return;
  S.cards = cardsOf(table);
  const render = TABLES[view.game];
  box.append(...(render ? render(table) : [h("pre", {}, JSON.stringify(table, null, 1))]));
  if (view.over && view.outcome) {
    const o = view.outcome;
    box.prepend(h("div", { class: "outcome" }, `Game over: ${o.result || ""}${o.winner ? ` (${o.winner})` : ""}${o.reason ? `: ${o.reason}` : ""}`));
  }
}

// -- the pending decision ------------------------------------------------------------------

function highlight(uid, on) {
  if (uid === undefined || uid === null) return;
  for (const el of document.querySelectorAll(`[data-uid="${Number(uid)}"]`)) el.classList.toggle("lit", on);
}

function renderDecision() {
  const box = $("decision");
  box.replaceChildren();
  const view = S.live;
  if (!view || S.at !== null) return;
  if (view.over) return;
  const d = view.decision;
  if (!d || !d.seat) {
    box.append(h("p", { class: "waiting" }, view.waitingFor ? `Waiting for ${view.waitingFor}.` : ""));
    return;
  }
  if (d.about !== undefined) highlight(d.about, true);
  const mine = d.seat === S.viewer;
  const kind = d.kind || "KIND_ONE";
  const head = h("div", { class: "prompt" }, h("strong", {}, mine ? "Your decision: " : `${d.seat} decides: `), d.prompt || "", h("small", { class: "rule" }, ` ${d.rule || ""}`));
  box.append(head);
  const about = d.about !== undefined ? S.cards.get(num(d.about)) : undefined;
  if (about) box.append(h("div", { class: "about" }, h("small", {}, "about"), frame(about)));
  const options = d.options || [];
  const answer = (choice) => submit(d, choice);
  const optionAttrs = (o) => ({
    "data-option": o.id,
    title: o.card !== undefined && S.cards.has(num(o.card)) ? cardTitle(S.cards.get(num(o.card))) : null,
    onmouseenter: () => highlight(o.card, true),
    onmouseleave: () => highlight(o.card, false),
  });
  if (!mine) {
    box.append(h("ul", { class: "options readonly" }, options.map((o) => h("li", optionAttrs(o), o.label))));
    box.append(valuesAsk(d));
    return;
  }
  box.append(valuesAsk(d));
  if (kind === "KIND_ONE") {
    box.append(h("div", { class: "options" }, options.map((o) => h("button", { type: "button", class: "option", ...optionAttrs(o), onclick: () => answer([o.id]) }, o.label))));
  } else if (kind === "KIND_MANY") {
    const min = num(d.min);
    const max = num(d.max) || options.length;
    const boxes = options.map((o) => h("label", { class: "option", ...optionAttrs(o) }, h("input", { type: "checkbox", value: o.id }), ` ${o.label}`));
    const note = h("small", {}, ` choose ${min === max ? min : `${min} to ${max}`}`);
    const go = h("button", { type: "button", class: "confirm", onclick: () => {
      const chosen = boxes.map((b) => b.querySelector("input")).filter((i) => i.checked).map((i) => i.value);
      if (chosen.length < min || chosen.length > max) showError(`choose ${min === max ? min : `${min} to ${max}`} options (${chosen.length} chosen)`);
      else answer(chosen);
    } }, "Confirm");
    box.append(h("div", { class: "options many" }, boxes), go, note);
  } else if (kind === "KIND_ORDER") {
    const order = [];
    const shown = h("ol", { class: "order" });
    const buttons = options.map((o) => h("button", { type: "button", class: "option", ...optionAttrs(o), onclick: (e) => {
      order.push(o.id);
      e.target.disabled = true;
      shown.append(h("li", {}, o.label));
    } }, o.label));
    const go = h("button", { type: "button", class: "confirm", onclick: () => (order.length === options.length ? answer(order) : showError("put every option in order first")) }, "Confirm order");
    const reset = h("button", { type: "button", onclick: () => { order.length = 0; shown.replaceChildren(); buttons.forEach((b) => (b.disabled = false)); } }, "Start again");
    box.append(h("div", { class: "options" }, buttons), shown, go, reset);
  } else if (kind === "KIND_NUMBER") {
    const input = h("input", { type: "number", min: num(d.min), max: num(d.max), value: num(d.min), class: "number" });
    box.append(h("div", { class: "options" }, input, h("button", { type: "button", class: "confirm", onclick: () => answer([String(input.value)]) }, `Confirm (${num(d.min)} to ${num(d.max)})`)));
  }
}

// -- the value of each answer (AnalyzeDecision), on request ---------------------------------

function valuesAsk(d) {
  const mine = d.seat === S.viewer;
  if (!mine && S.viewer !== "referee") return null;
  const out = h("div", { class: "values" });
  const ask = (trueCards, label) => h("button", { type: "button", class: "value-ask", onclick: () => showValues(d, trueCards, out) }, label);
  out.append(ask(false, mine ? "Value the answers" : `Value the answers (what ${d.seat} knows)`));
  if (!mine) out.append(ask(true, "Value with the true cards"));
  return out;
}

async function showValues(d, trueCards, out) {
  const buttons = [...out.querySelectorAll("button")];
  buttons.forEach((b) => (b.disabled = true));
  out.querySelectorAll(".value-list, .value-note").forEach((e) => e.remove());
  const note = h("small", { class: "value-note" }, " searching…");
  out.append(note);
  try {
    const got = await call("AnalyzeDecision", { token: S.token, version: d.id, trueCards });
    const now = S.live && S.live.decision;
    if (!now || num(now.id) !== num(d.id)) return; // answered meanwhile: the values are of the past
    const pct = (v) => `${Math.round(100 * num(v))}%`;
    const bar = (o) => {
      const filled = h("span", {});
      filled.style.width = pct(o.value); // a style property: the page's policy refuses style attributes
      return h("span", { class: "value-bar", title: `${pct(o.value)} [${pct(o.low)} – ${pct(o.high)}], ${num(o.rollouts)} rollouts` }, filled);
    };
    for (const el of document.querySelectorAll("#decision .value-bar")) el.remove();
    for (const o of got.options || []) {
      if ((o.choice || []).length !== 1) continue;
      const option = document.querySelector(`#decision [data-option="${CSS.escape(o.choice[0])}"]`);
      if (option) option.append(bar(o));
    }
    const whose = got.knowledge === "referee" ? "with the true hidden cards" : `from what ${got.knowledge} knows`;
    note.textContent = ` chance ${d.seat}'s side wins after each answer, ${whose} (${num(got.rollouts)} rollouts, 95% interval):`;
    out.append(h("ol", { class: "value-list" }, (got.options || []).map((o) => h("li", { "data-choice": (o.choice || []).join(",") }, bar(o), h("strong", {}, pct(o.value)), h("small", {}, ` [${pct(o.low)} – ${pct(o.high)}] `), o.label))));
  } catch (error) {
    note.remove();
    showError(error);
  } finally {
    buttons.forEach((b) => (b.disabled = false));
  }
}

function cardTitle(card) {
  return [card.name, card.text].filter(Boolean).join(": ");
}

function commandId() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

async function submit(decision, choice) {
  if (S.busy) return;
  S.busy = true;
  showError(null);
  for (const b of document.querySelectorAll("#decision button")) b.disabled = true;
  try {
    const result = await call("SubmitDecision", {
      token: S.token,
      expectedVersion: S.live.version,
      decisionId: decision.id,
      choice,
      commandId: commandId(),
      includeView: true,
    });
    if (result.view && num(result.view.version) >= num(S.live.version)) setLive(result.view);
  } catch (error) {
    showError(error);
    if (error.code === "aborted") await reload();
    else renderDecision();
  } finally {
    S.busy = false;
  }
}

async function reload() {
  const got = await call("GetView", { token: S.token });
  setLive(got.view);
}

// -- live updates --------------------------------------------------------------------------

function setLive(view) {
  if (S.live && num(view.version) < num(S.live.version)) return;
  S.live = view;
  S.viewer = view.viewer;
  S.latest = Math.max(S.latest, num(view.latestVersion), num(view.version));
  if (S.at === null) S.shown = view;
  render();
}

function addEvents(events) {
  const known = S.events.length ? num(S.events[S.events.length - 1].seq) : 0;
  const fresh = (events || []).filter((e) => num(e.seq) > known);
  if (!fresh.length) return;
  S.events.push(...fresh);
  const list = $("events");
  for (const e of fresh) {
    const last = list.lastElementChild;
    // an event that says what the one before it said, of another card, joins its line (runText: the server's words for the run)
    if (e.runText && last && num(last.dataset.seq) === num(e.seq) - 1) joinRun(last, e);
    else list.append(eventItem(e));
  }
  if (S.at === null) list.scrollTop = list.scrollHeight;
}

function eventItem(e) {
  const seq = num(e.seq);
  const item = h(
    "li",
    { "data-seq": seq, "data-from": seq, "data-type": e.type, class: "event", onclick: () => select(num(item.dataset.seq)) },
    h("span", { class: "seq" }, String(seq)),
    " ",
    h("span", { class: "text" }, e.text || e.type),
  );
  return item;
}

function joinRun(item, e) {
  const seq = num(e.seq);
  item.dataset.seq = seq;
  item.querySelector(".seq").textContent = `${item.dataset.from}–${seq}`;
  item.querySelector(".text").textContent = e.runText;
}

async function watch() {
  const from = S.events.length ? num(S.events[S.events.length - 1].seq) : 0;
  const controller = new AbortController();
  S.watching = controller;
  setLiveMark(true);
  try {
    for await (const update of stream("Watch", { token: S.token, fromVersion: from }, controller.signal)) {
      addEvents(update.events);
      if (update.view) setLive(update.view);
    }
    setLiveMark(false, S.live && S.live.over ? "" : "stream ended");
    if (!(S.live && S.live.over)) setTimeout(watch, 1000);
  } catch (error) {
    if (controller.signal.aborted) return;
    if (error instanceof RpcError && error.code === "data_loss") {
      // the stored log no longer verifies: the server will not extend or stream it, so say so and stop
      setLiveMark(false, "damaged");
      showError(error);
      return;
    }
    setLiveMark(false, "reconnecting");
    if (error instanceof RpcError && ["unauthenticated", "permission_denied", "not_found", "invalid_argument"].includes(error.code)) {
      showError(error);
      return;
    }
    setTimeout(watch, 2000);
  }
}

function setLiveMark(on, text) {
  const el = $("live");
  el.className = on ? "live-on" : "live-off";
  el.textContent = on ? "live" : text ?? "not connected";
  el.hidden = !on && text === "";
}

// -- replay and time travel ----------------------------------------------------------------

async function showVersion(version) {
  version = Math.max(1, Math.min(version, S.latest));
  if (version >= S.latest) {
    toLive();
    return;
  }
  S.at = version;
  $("slider").value = version;
  renderTimeline();
  try {
    const got = await call("GetView", { token: S.token, version });
    if (S.at !== version) return; // the slider moved on meanwhile
    S.shown = got.view;
    showError(null);
  } catch (error) {
    showError(error);
  }
  render();
}

function toLive() {
  S.at = null;
  S.shown = S.live;
  render();
}

async function select(seq) {
  S.selected = seq;
  await Promise.all([showVersion(seq), explainEvent(seq)]);
}

async function explainEvent(seq) {
  const box = $("explain-tree");
  $("explain").hidden = false;
  box.replaceChildren(h("p", {}, `event ${seq}…`));
  try {
    const got = await call("ExplainEvent", { token: S.token, seq });
    box.replaceChildren(because(got.because || {}));
  } catch (error) {
    box.replaceChildren(h("p", { class: "error" }, `${error.code || ""}: ${error.message}`));
  }
}

function because(b) {
  const seq = num(b.seq);
  return h(
    "ul",
    { class: "because" },
    h(
      "li",
      { "data-seq": seq },
      h("a", { href: "#", onclick: (e) => { e.preventDefault(); select(seq); } }, `event ${seq}`),
      `: ${b.text || ""}`,
      h(
        "div",
        { class: "why" },
        b.rule ? h("code", {}, b.rule) : null,
        b.card ? h("span", { class: "by-card" }, ` by ${b.card}`) : null,
        b.section ? h("span", { class: "section" }, ` (${b.section})`) : null,
      ),
      (b.working || []).length ? h("ul", { class: "working" }, b.working.map((w) => h("li", {}, w))) : null,
      (b.ledBy || []).map(because),
    ),
  );
}

async function fork() {
  const at = S.at === null ? S.latest : S.at;
  const box = $("forked");
  try {
    const got = await call("ForkGame", { token: S.token, at });
    const access = got.access;
    const link = (who, token) => h("li", {}, h("a", { href: `#token=${token}`, target: "_blank", rel: "noopener", "data-viewer": who }, who));
    box.hidden = false;
    box.replaceChildren(
      h("p", {}, `Forked at event ${at}: game ${access.gameId}. Open it as (the tokens are shown once):`),
      h("ul", {}, (access.seats || []).map((s) => link(s.seat, s.token)), link("spectator", access.spectatorToken), link("referee", access.refereeToken)),
    );
    showError(null);
  } catch (error) {
    showError(error);
  }
}

async function verifyGame() {
  const box = $("verdict");
  box.hidden = false;
  box.className = "";
  box.textContent = "verifying…";
  try {
    const v = await call("VerifyGame", { token: S.token });
    const bad = num(v.firstBad);
    box.className = v.ok ? "ok" : "failed";
    box.replaceChildren(
      v.text || (v.ok ? `ok: ${num(v.events)} events` : `FAILED: ${v.reason || ""}`),
      bad ? h("a", { href: "#", onclick: (e) => { e.preventDefault(); select(bad); } }, ` (show event ${bad})`) : null,
    );
  } catch (error) {
    box.className = "failed";
    box.textContent = `${error.code || ""}: ${error.message}`;
  }
}

function renderTimeline() {
  const slider = $("slider");
  slider.max = Math.max(1, S.latest);
  if (S.at === null) slider.value = S.latest;
  $("slider-value").textContent = `${S.at === null ? S.latest : S.at} / ${S.latest}`;
  $("to-live").disabled = S.at === null;
  $("fork").hidden = !(S.viewer === "referee" || (S.live && S.live.over));
  for (const el of document.querySelectorAll("#events li.current")) el.classList.remove("current");
  const current = S.at === null ? S.latest : S.at;
  const item = [...document.querySelectorAll("#events li")].find((li) => num(li.dataset.from) <= current && current <= num(li.dataset.seq));
  if (item) {
    item.classList.add("current");
    const list = $("events");
    if (S.at !== null) list.scrollTop = item.offsetTop - list.offsetTop - list.clientHeight / 2;
  }
  const past = $("past");
  past.hidden = S.at === null;
  past.textContent = S.at === null ? "" : `The table at version ${S.at} of ${S.latest}, as ${S.viewer} saw it. Decisions are made on the table of now.`;
}

function renderHeader() {
  const view = S.live;
  if (!view) return;
  $("game").textContent = `${view.game} ${String(view.gameId || "").slice(0, 8)}`;
  $("viewer").textContent = `as ${view.viewer}`;
  $("version").textContent = `version ${view.version}`;
  $("status").textContent = view.over ? "game over" : view.waitingFor ? `waiting for ${view.waitingFor}` : "";
}

function render() {
  renderHeader();
  renderTimeline();
  renderTable();
  renderDecision();
}

// -- starting ------------------------------------------------------------------------------

function tokenFromAddress() {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  return params.get("token") || "";
}

async function start() {
  if (S.watching) S.watching.abort();
  Object.assign(S, { live: null, shown: null, at: null, latest: 0, events: [], selected: null, watching: null });
  $("events").replaceChildren();
  $("forked").hidden = true;
  $("verdict").hidden = true;
  $("explain").hidden = true;
  S.token = tokenFromAddress();
  $("open").hidden = !!S.token;
  $("main").hidden = !S.token;
  if (!S.token) return;
  try {
    await reload();
  } catch (error) {
    showError(error);
    if (error instanceof RpcError && error.code === "data_loss") setLiveMark(false, "damaged");
    return;
  }
  watch();
}

function wire() {
  $("open-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const token = $("open-token").value.trim();
    if (token) location.hash = `token=${encodeURIComponent(token)}`;
  });
  let pending = null;
  $("slider").addEventListener("input", (e) => {
    const version = Number(e.target.value);
    $("slider-value").textContent = `${version} / ${S.latest}`;
    clearTimeout(pending);
    pending = setTimeout(() => showVersion(version), 120);
  });
  $("to-live").addEventListener("click", toLive);
  $("fork").addEventListener("click", fork);
  $("verify").addEventListener("click", verifyGame);
  $("explain-close").addEventListener("click", () => ($("explain").hidden = true));
  window.addEventListener("hashchange", start);
}

wire();
start();
