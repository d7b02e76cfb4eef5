// The Westmarch table in a browser: one viewer's table, live, with its timeline.
//
// It speaks the Connect protocol (JSON) to the same services any gRPC client uses, with
// the token kept in the address's fragment (#token=...), which the browser never sends to a
// server. It is given only what that token may see; nothing here decides what is hidden.
// The page's own words are in phrases.js (t("key")).
"use strict";

const PACKAGE = "/westmarch.v1.";
const HEADERS = { "connect-protocol-version": "1" };

// -- the Connect protocol ----------------------------------------------------------------

class RpcError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

async function call(method, request, service = "GameService") {
  let response;
  try {
    response = await fetch(`${PACKAGE}${service}/${method}`, {
      method: "POST",
      headers: { ...HEADERS, "accept-language": LANG, "content-type": "application/json" },
      body: JSON.stringify(request),
    });
  } catch (error) {
    throw new RpcError("unavailable", t("rpc.unreachable"));
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
async function* stream(method, request, signal, service = "GameService") {
  const payload = new TextEncoder().encode(JSON.stringify(request));
  const body = new Uint8Array(5 + payload.length);
  new DataView(body.buffer).setUint32(1, payload.length);
  body.set(payload, 5);
  let response;
  try {
    response = await fetch(`${PACKAGE}${service}/${method}`, {
      method: "POST",
      headers: { ...HEADERS, "accept-language": LANG, "content-type": "application/connect+json" },
      body,
      signal,
    });
  } catch (error) {
    if (signal && signal.aborted) throw error;
    throw new RpcError("unavailable", t("rpc.unreachable"));
  }
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
    let step;
    try {
      step = await reader.read();
    } catch (error) {
      if (signal && signal.aborted) throw error;
      throw new RpcError("unavailable", t("rpc.cut"));
    }
    if (step.done) throw new RpcError("unavailable", t("rpc.cut"));
    buffer = concat(buffer, step.value);
  }
}

// bytes fields (the table, event bodies) are base64 in protobuf's JSON: here they are JSON text
function jsonBytes(base64) {
  if (!base64) return null;
  return JSON.parse(new TextDecoder().decode(rawBytes(base64)));
}

function rawBytes(base64) {
  const binary = atob(base64);
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

const num = (value) => Number(value || 0);

// -- the page's state ------------------------------------------------------------------------

const S = {
  token: "",
  gameId: "", // the game the token plays now (after a take-back, not the one its prefix names)
  viewer: "",
  live: null, // the latest view (from Watch or a submitted decision)
  liveTable: {}, // its table
  shown: null, // the view on the table: the live one, or one of the past
  at: null, // the version looked at, null when following the game live
  latest: 0,
  events: [], // the viewer's events, in order
  selected: null,
  watching: null,
  answering: null, // the id of the decision whose answer is on its way
  cards: new Map(), // the shown table's cards by uid
  room: null, // the game's room (names, bots, talk, take-backs): room.js
  verdict: null,
  values: null, // the values asked for the pending decision: { id, viewer, game, out, got }
  streamed: false, // the stream's first update is drawn: the table is no longer the first look's
};

// What a call about this table names: the token, and the game it plays now.
function who(extra) {
  return { token: S.token, ...(S.gameId ? { gameId: S.gameId } : {}), ...(extra || {}) };
}

// -- small DOM helpers ---------------------------------------------------------------------

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

const $ = (id) => document.getElementById(id);

function errorText(error) {
  return error instanceof RpcError ? `${error.code}: ${error.message}` : String(error && error.message ? error.message : error);
}

function showError(error) {
  const box = $("error");
  if (!error) {
    box.hidden = true;
    box.textContent = "";
    return;
  }
  box.hidden = false;
  box.textContent = errorText(error);
}

// -- cards ----------------------------------------------------------------------------------

const LCG_STATS = ["cost", "threat", "engagement_cost", "willpower", "attack", "defense", "hit_points", "quest_points"];
const LCG_STAT_KEYS = {
  cost: "cost",
  threat: "threat",
  engagement_cost: "engage",
  willpower: "will",
  attack: "atk",
  defense: "def",
  hit_points: "hp",
  quest_points: "quest",
};
const WOTR_ICONS = { path: "path", bg_attack: "bg-attack", bg_defense: "bg-defense", lead_attack: "lead-attack", lead_defense: "lead-defense" };

function stat(label, value, title) {
  return h("span", { class: "stat", title: title || label }, h("b", {}, String(value)), ` ${label}`);
}

function lcgCard(c) {
  const classes = ["card", `type-${c.type}`, c.sphere ? `sphere-${c.sphere}` : "", c.exhausted ? "exhausted" : ""];
  const stats = LCG_STATS.filter((k) => c[k] !== undefined && c[k] !== null).map((k) =>
    stat(t(`stat.${LCG_STAT_KEYS[k]}`), c[k], t(`stat.${LCG_STAT_KEYS[k]}.title`)),
  );
  const tokens = [];
  if (c.damage) tokens.push(h("span", { class: "token damage" }, t("token.damage", { n: c.damage })));
  // Epic Multiplayer: the other groups' damage or progress counts toward the global value shown
  const others = c.other_groups || 0;
  if ((c.damage || others) && c.hit_points !== undefined)
    tokens.push(h("span", { class: "token left" }, t("token.left", { n: Math.max(0, c.hit_points - c.damage - others) })));
  if (c.resources) tokens.push(h("span", { class: "token resource" }, t("token.resources", { n: c.resources })));
  if (c.progress) tokens.push(h("span", { class: "token progress" }, t("token.progress", { n: c.progress })));
  if (others) tokens.push(h("span", { class: "token other-groups" }, t(c.hit_points !== undefined ? "token.other-groups.damage" : "token.other-groups.progress", { n: others })));
  if (c.exhausted) tokens.push(h("span", { class: "token state" }, t("token.exhausted")));
  if (c.committed) tokens.push(h("span", { class: "token state" }, t("token.committed")));
  if (c.face_down_shadows) tokens.push(h("span", { class: "token shadow" }, t("token.shadow", { n: c.face_down_shadows })));
  const keywords = (c.keywords || []).map((w) => `${keywordWords(w)}.`).join(" ");
  const traits = (c.traits || []).map((w) => `${traitName(w)}.`).join(" ");
  const words = keywords || traits ? [h("span", { class: "keywords" }, keywords), keywords && traits ? " " : "", h("span", { class: "trait-names" }, traits)] : null;
  return h(
    "div",
    { class: classes.join(" "), "data-uid": c.uid, "data-name": c.name },
    h("div", { class: "card-head" }, h("span", { class: "name" }, cardName(c.name)), h("span", { class: "kind" }, [c.sphere && tValue("sphere", c.sphere), c.type && tValue("type", c.type)].filter(Boolean).join(" "))),
    stats.length ? h("div", { class: "stats" }, stats) : null,
    words ? h("div", { class: "traits" }, words) : null,
    c.text ? h("div", { class: "text" }, c.text) : null,
    tokens.length ? h("div", { class: "tokens" }, tokens) : null,
    (c.attachments || []).length ? h("div", { class: "attached" }, h("small", {}, t("card.attached")), c.attachments.map(lcgCard)) : null,
    (c.shadows || []).length ? h("div", { class: "attached shadows" }, h("small", {}, t("card.shadows")), c.shadows.map(lcgCard)) : null,
  );
}

function wotrCard(c) {
  const icons = Object.entries(WOTR_ICONS)
    .filter(([k]) => c[k])
    .map(([k, key]) => stat(t(`icon.${key}`, { n: c[k] }), c[k], t(`icon.${key}.title`)));
  const paths = (c.paths || []).length ? h("div", { class: "paths" }, t("card.paths", { paths: c.paths.join(", ") })) : null;
  return h(
    "div",
    { class: `card type-${c.type} faction-${c.faction}`, "data-uid": c.uid, "data-name": c.name },
    h("div", { class: "card-head" }, h("span", { class: "name" }, cardName(c.name)), h("span", { class: "kind" }, `${tValue("faction", c.faction)} ${tValue("type", c.type)}`)),
    icons.length ? h("div", { class: "stats" }, icons) : null,
    paths,
    (c.keywords || []).length ? h("div", { class: "traits" }, h("span", { class: "trait-names" }, c.keywords.join(". ") + ".")) : null,
    c.text ? h("div", { class: "text" }, c.text) : null,
    c.owner || c.reserved ? h("div", { class: "tokens" }, c.owner ? h("span", { class: "token" }, c.owner) : null, c.reserved ? h("span", { class: "token state" }, t("token.reserved")) : null) : null,
    (c.items || []).length ? h("div", { class: "attached" }, h("small", {}, t("card.items")), c.items.map(wotrCard)) : null,
  );
}

// A zone of cards: ``key`` names it for the page's code (data-zone), ``title`` for people.
function zone(key, title, cards, render, extra) {
  return h(
    "div",
    { class: "zone", "data-zone": key },
    h("h3", {}, title, extra ? h("span", { class: "count" }, ` ${extra}`) : null),
    h("div", { class: "cards" }, cards && cards.length ? cards.map(render) : h("span", { class: "empty" }, t("card.empty"))),
  );
}

function pile(key, title, count, seen) {
  return h("div", { class: "pile", "data-zone": key }, h("b", {}, String(count || 0)), ` ${title}${seen === false ? t("pile.face-down") : ""}`);
}

function details(title, cards, render) {
  return h("details", { class: "pile-cards" }, h("summary", {}, `${title} (${cards.length})`), h("div", { class: "cards" }, cards.map(render)));
}

// A seat's heading: the seat, its player's name (or its bot), "(you)".
function seatTitle(seat) {
  const plan = seatPlan(seat);
  const parts = [seat];
  if (plan && plan.name) parts.push(` · ${plan.name}`);
  else if (plan && plan.bot) parts.push(` · ${plan.bot === "shadow" ? t("player.shadow-bot") : t("player.bot", { bot: tValue("bot", plan.bot) })}`);
  else if (plan && plan.open) parts.push(` · ${t("player.open")}`);
  if (seat === S.viewer) parts.push(t("player.you"));
  return parts.join("");
}

// -- the tables of each game ------------------------------------------------------------------

function lcgTable(tv) {
  const shared = h(
    "section",
    { class: "area shared" },
    h("h2", {}, tv.round ? t("lcg.round", { round: tv.round, phase: tValue("phase", tv.phase) }) : t("lcg.setup")),
    h(
      "div",
      { class: "row" },
      zone("Quest", t("zone.quest"), tv.quest ? [tv.quest] : [], lcgCard, tv.quest_stage ? t("zone.quest.stage", { stage: tv.quest_stage }) : ""),
      zone("Active location", t("zone.active"), tv.active_location ? [tv.active_location] : [], lcgCard),
      zone("Staging area", t("zone.staging"), tv.staging, lcgCard),
    ),
    (tv.revealed || []).length ? zone("Revealed", t("zone.revealed"), tv.revealed, lcgCard) : null,
    h(
      "div",
      { class: "piles" },
      pile("encounter deck", t("pile.encounter"), tv.encounter_deck_size, false),
      pile("encounter discard", t("pile.encounter-discard"), (tv.encounter_discard || []).length),
      pile("victory display", t("pile.victory"), (tv.victory || []).length),
    ),
    (tv.encounter_discard || []).length ? details(t("details.encounter-discard"), tv.encounter_discard, lcgCard) : null,
    (tv.victory || []).length ? details(t("details.victory"), tv.victory, lcgCard) : null,
    tv.encounter_deck ? details(t("details.encounter-deck"), tv.encounter_deck, lcgCard) : null,
  );
  const players = tv.players.map((p) =>
    h(
      "section",
      { class: `area player${p.seat === S.viewer ? " mine" : ""}`, "data-seat": p.seat },
      h("h2", {}, seatTitle(p.seat), h("span", { class: "threat" }, t("player.threat", { threat: p.threat })), p.first ? h("span", { class: "badge" }, t("player.first")) : null, p.eliminated ? h("span", { class: "badge" }, t("player.eliminated")) : null),
      h("div", { class: "row" }, zone("Heroes", t("zone.heroes"), p.heroes, lcgCard), zone("Allies", t("zone.allies"), p.allies, lcgCard), zone("Engaged enemies", t("zone.engaged"), p.engaged, lcgCard)),
      (p.contract || []).length ? zone("Contract", t("zone.contract"), p.contract, lcgCard) : null,
      p.hand ? zone("Hand", t("zone.hand"), p.hand, lcgCard, t("zone.hand.count", { n: p.hand.length })) : null,
      h("div", { class: "piles" }, p.hand ? null : pile("cards in hand", t("pile.hand"), p.hand_size, false), pile("deck", t("pile.deck"), p.deck_size, false), pile("discard", t("pile.discard"), (p.discard || []).length)),
      (p.discard || []).length ? details(t("details.discard", { seat: p.seat }), p.discard, lcgCard) : null,
      p.deck ? details(t("details.deck", { seat: p.seat }), p.deck, lcgCard) : null,
    ),
  );
  return [shared, ...players];
}

function locationFrame(l) {
  return h(
    "div",
    { class: `location kind-${l.kind}`, "data-uid": l.uid, "data-name": l.name },
    h("div", { class: "card-head" }, h("span", { class: "name" }, l.name), h("span", { class: "kind" }, l.kind === "path" ? t("location.path", { n: l.number }) : t("location.battleground", { deck: l.deck ? teamName(l.deck) : "" }))),
    h(
      "div",
      { class: "stats" },
      stat(t("location.vp"), l.vp),
      stat(t("location.defense"), l.defense),
      l.attack_tokens ? stat(t("location.attack-tokens"), l.attack_tokens) : null,
      l.defense_tokens ? stat(t("location.defense-tokens"), l.defense_tokens) : null,
    ),
    (l.defending || []).length ? h("div", { class: "traits" }, t("location.defended", { cards: l.defending.join(", ") })) : null,
    (l.attacking || []).length ? h("div", { class: "traits" }, t("location.attacked", { cards: l.attacking.join(", ") })) : null,
    l.text ? h("div", { class: "text" }, l.text) : null,
    l.ignore_defense ? h("div", { class: "tokens" }, h("span", { class: "token state" }, t("location.ignored"))) : null,
    (l.cards || []).length ? h("div", { class: "cards here" }, l.cards.map(wotrCard)) : null,
    combatNow(l),
  );
}

const teamName = (k) => (k === "free" ? t("team.free") : t("team.shadow"));

// The combat on a location as it stands, card by card: the count the combat step itself
// makes (domain/wotr/rules/combat.py, tally), sent in the view; nothing is counted here.
function combatNow(l) {
  const c = l.count;
  if (!c || (!(l.cards || []).length && !l.attack_tokens)) return null;
  const names = {};
  const walk = (cards) => cards.forEach((x) => { names[x.uid] = x.name; walk(x.items || []); });
  walk(l.cards || []);
  const named = (uid) => names[uid] || t("combat.a-card");
  const share = (s) => {
    if (s.what === "printed") return t("combat.printed", { n: s.value });
    if (s.what === "printed-ignored") return t("combat.printed-ignored");
    if (s.what === "attack-tokens") return t("combat.attack-tokens", { n: s.value });
    if (s.what === "defense-tokens") return t("combat.defense-tokens", { n: s.value });
    if (s.what === "leadership") return t("combat.leadership", { card: named(s.card), n: s.value, by: named(s.by) });
    if (s.what === "support") return t("combat.support", { card: named(s.card), n: s.value, by: named(s.by) });
    if (s.what === "text") return t("combat.text", { card: named(s.card), n: s.value });
    return s.by ? t("combat.wielded", { card: named(s.card), n: s.value, by: named(s.by) }) : t("combat.card", { card: named(s.card), n: s.value });
  };
  const sum = (part) => (c.shares || []).filter((s) => s.part === part).map(share).join(" + ") || t("combat.none");
  const defenders = c.attackers === "free" ? "shadow" : "free";
  const outcome = c.winner ? t("combat.takes", { team: teamName(c.winner) }) : t("combat.nobody");
  return h(
    "div",
    { class: "combat-now" },
    h("div", {}, t("combat.now", { attackers: teamName(c.attackers), attack: c.attack, defenders: teamName(defenders), defense: c.defense, cards: c.defenders, outcome, corruption: c.corruption ? t("combat.corruption", { n: c.corruption }) : "" })),
    h("div", { class: "traits" }, t("combat.attack-sum", { n: c.attack, parts: sum("attack") })),
    h("div", { class: "traits" }, t("combat.defense-sum", { n: c.defense, parts: sum("defense") })),
    h("div", { class: "traits" }, t("combat.defenders-sum", { n: c.defenders, parts: sum("defenders") })),
  );
}

function wotrTable(tv) {
  const teams = h(
    "div",
    { class: "row teams" },
    tv.teams.map((team) =>
      h(
        "div",
        { class: `zone team-${team.team}`, "data-zone": `${team.team} team` },
        h("h3", {}, t("team.score", { team: teamName(team.team), score: team.score }), team.corruption ? h("span", { class: "count" }, t("team.corruption", { n: team.corruption })) : null, team.face_down_paths ? h("span", { class: "count" }, t("team.face-down-paths", { n: team.face_down_paths })) : null),
        h("div", { class: "cards" }, (team.scored || []).length ? team.scored.map(locationFrame) : h("span", { class: "empty" }, t("team.nothing-scored"))),
      ),
    ),
  );
  const fought = tv.combat ? [tv.path, ...(tv.battlegrounds || [])].find((l) => l && l.uid === tv.combat.location) : null;
  const combat = tv.combat
    ? h("div", { class: "combat" }, t("wotr.combat", { kind: tValue("combat-kind", tv.combat.kind), location: fought ? fought.name : t("wotr.a-location"), attackers: teamName(tv.combat.attackers), attack: tv.combat.attack, defense: tv.combat.defense, remaining: tv.combat.remaining }))
    : null;
  const shared = h(
    "section",
    { class: "area shared" },
    h("h2", {}, t("wotr.round", { scenario: tv.scenario ? tValue("scenario", tv.scenario) : t("wotr.title"), round: tv.round, step: tValue("step", tv.step) })),
    teams,
    h("div", { class: "row" }, zone(`Path ${tv.path_number || ""}`, t("wotr.path", { n: tv.path_number || "" }), tv.path ? [tv.path] : [], locationFrame), zone("Battlegrounds", t("wotr.battlegrounds"), tv.battlegrounds, locationFrame)),
    combat,
    h(
      "div",
      { class: "piles" },
      Object.entries(tv.path_decks || {}).map(([n, count]) => pile(`path ${n} deck`, t("wotr.path-deck", { n }), count, false)),
      Object.entries(tv.battleground_decks || {}).map(([side, count]) => pile(`${side} battleground deck`, t("wotr.battleground-deck", { side: teamName(side) }), count, false)),
    ),
    (tv.effects || []).length ? h("div", { class: "effects" }, t("wotr.effects", { effects: tv.effects.join(", ") })) : null,
  );
  const players = tv.players.map((p) =>
    h(
      "section",
      { class: `area player team-${p.team}${p.seat === S.viewer ? " mine" : ""}`, "data-seat": p.seat },
      h("h2", {}, seatTitle(p.seat), h("span", { class: "threat" }, ` ${teamName(p.team)}`), p.starting ? h("span", { class: "badge" }, t("wotr.starting")) : null, p.to_act ? h("span", { class: "badge" }, t("wotr.to-act")) : null, p.ring ? h("span", { class: "badge" }, t("wotr.ring", { n: tValue("ring", p.ring) })) : null, h("span", { class: "badge" }, t("wotr.carryover", { n: p.carryover ?? 2 }))),
      zone("Reserve", t("wotr.reserve"), p.reserve, wotrCard),
      p.hand ? zone("Hand", t("zone.hand"), p.hand, wotrCard, t("zone.hand.count", { n: p.hand.length })) : null,
      p.top_of_deck ? zone("Top of deck", t("wotr.top"), [p.top_of_deck], wotrCard) : null,
      (p.aside || []).length ? zone("Set aside", t("wotr.aside"), p.aside, wotrCard) : null,
      h(
        "div",
        { class: "piles" },
        p.hand ? null : pile("cards in hand", t("pile.hand"), p.hand_size, false),
        pile("deck", t("pile.deck"), p.deck_size, false),
        pile("cycle pile", t("wotr.cycle"), p.cycle_size, !!p.cycle),
        pile("eliminated pile", t("wotr.eliminated"), p.eliminated_size, !!p.eliminated),
        p.aside ? null : p.aside_size ? pile("set aside", t("wotr.set-aside"), p.aside_size, false) : null,
      ),
      (p.cycle || []).length ? details(t("wotr.cycle-of", { seat: p.seat }), p.cycle, wotrCard) : null,
      (p.eliminated || []).length ? details(t("wotr.eliminated-of", { seat: p.seat }), p.eliminated, wotrCard) : null,
      p.deck ? details(t("details.deck", { seat: p.seat }), p.deck, wotrCard) : null,
    ),
  );
  return [shared, ...players];
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
    box.prepend(h("div", { class: "outcome" }, t("game.over", { result: o.result ? tValue("result", o.result) : "", winner: o.winner ? ` (${tValue("winner", o.winner)})` : "", reason: o.reason ? `: ${tValue("reason", o.reason)}` : "" })));
  }
}

// -- the pending decision ------------------------------------------------------------------

function highlight(uid, on) {
  if (uid === undefined || uid === null) return;
  for (const el of document.querySelectorAll(`[data-uid="${Number(uid)}"]`)) el.classList.toggle("lit", on);
}

// A Response the seat may use now (its decision is a card's response, not an action window).
function isResponse(d) {
  return /\.response$/.test(d.rule || "");
}

function renderDecision() {
  const box = $("decision");
  box.replaceChildren();
  const view = S.live;
  if (!view || S.at !== null) return;
  if (view.over) return;
  const d = view.decision;
  if (!d || !d.seat) {
    box.append(h("p", { class: "waiting" }, view.waitingFor ? t("decision.waiting", { seat: seatTitle(view.waitingFor) }) : ""), seatTools());
    return;
  }
  if (d.about !== undefined) highlight(d.about, true);
  const mine = d.seat === S.viewer;
  const kind = d.kind || "KIND_ONE";
  if (mine && isResponse(d)) box.append(h("div", { class: "response", role: "alert" }, t("decision.response", { prompt: d.prompt || "" })));
  const head = h("div", { class: "prompt" }, h("strong", {}, mine ? t("decision.yours") : t("decision.theirs", { seat: d.seat })), d.prompt || "", h("small", { class: "rule" }, ` ${d.rule || ""}`));
  box.append(head);
  const offered = new Map((S.liveTable.offered || []).map((c) => [c.uid, c]));
  const cardOf = (uid) => S.cards.get(num(uid)) || offered.get(num(uid));
  const about = d.about !== undefined ? cardOf(d.about) : undefined;
  if (about) box.append(h("div", { class: "about" }, h("small", {}, t("decision.about")), frame(about)));
  const options = d.options || [];
  const answer = (choice) => submit(d, choice);
  const optionAttrs = (o) => ({
    "data-option": o.id,
    title: o.card !== undefined && cardOf(o.card) ? cardTitle(cardOf(o.card)) : null,
    onmouseenter: () => highlight(o.card, true),
    onmouseleave: () => highlight(o.card, false),
  });
  if (!mine) {
    box.append(h("ul", { class: "options readonly" }, options.map((o) => h("li", optionAttrs(o), o.label))));
    box.append(valuesAsk(d));
    keptBars(d);
    return;
  }
  box.append(valuesAsk(d));
  if (kind === "KIND_ONE") {
    box.append(h("div", { class: "options" }, options.map((o) => h("button", { type: "button", class: "option", ...optionAttrs(o), onclick: () => answer([o.id]) }, o.label))));
  } else if (kind === "KIND_MANY") {
    const min = num(d.min);
    const max = num(d.max) || options.length;
    const range = min === max ? String(min) : t("decision.choose-range", { min, max }).replace(/^\D+/, "");
    const boxes = options.map((o) => h("label", { class: "option", ...optionAttrs(o) }, h("input", { type: "checkbox", value: o.id }), ` ${o.label}`));
    const note = h("small", {}, ` ${min === max ? t("decision.choose", { n: min }) : t("decision.choose-range", { min, max })}`);
    const go = h("button", { type: "button", class: "confirm", onclick: () => {
      const chosen = boxes.map((b) => b.querySelector("input")).filter((i) => i.checked).map((i) => i.value);
      if (chosen.length < min || chosen.length > max) showError(t("decision.choose-error", { range, n: chosen.length }));
      else answer(chosen);
    } }, t("decision.confirm"));
    box.append(h("div", { class: "options many" }, boxes), go, note);
  } else if (kind === "KIND_ORDER") {
    const order = [];
    const shown = h("ol", { class: "order" });
    const buttons = options.map((o) => h("button", { type: "button", class: "option", ...optionAttrs(o), onclick: (e) => {
      order.push(o.id);
      e.target.disabled = true;
      shown.append(h("li", {}, o.label));
    } }, o.label));
    const go = h("button", { type: "button", class: "confirm", onclick: () => (order.length === options.length ? answer(order) : showError(t("decision.order-first"))) }, t("decision.order"));
    const reset = h("button", { type: "button", onclick: () => { order.length = 0; shown.replaceChildren(); buttons.forEach((b) => (b.disabled = false)); } }, t("decision.again"));
    box.append(h("div", { class: "options" }, buttons), shown, go, reset);
  } else if (kind === "KIND_NUMBER") {
    const input = h("input", { type: "number", min: num(d.min), max: num(d.max), value: num(d.min), class: "number" });
    box.append(h("div", { class: "options" }, input, h("button", { type: "button", class: "confirm", onclick: () => answer([String(input.value)]) }, t("decision.number", { min: num(d.min), max: num(d.max) }))));
  }
  const named = options.map((o) => (o.card !== undefined ? offered.get(num(o.card)) : undefined)).filter(Boolean);
  if (named.length) box.append(h("div", { class: "offered", "data-zone": "Offered" }, h("small", {}, t("zone.offered")), h("div", { class: "cards" }, named.map(frame))));
  box.append(seatTools());
  keptBars(d);
}

// -- the value of each answer (AnalyzeDecision), on request ---------------------------------

function valuesAsk(d) {
  const mine = d.seat === S.viewer;
  if (!mine && S.viewer !== "referee") return null;
  // the same decision drawn again (a new view from the stream) keeps the values asked for,
  // and a search still running puts its answer where the viewer sees it
  if (valuesOf(d)) return S.values.out;
  const out = h("div", { class: "values" });
  S.values = { id: num(d.id), viewer: S.viewer, game: S.gameId, out, got: null };
  const ask = (trueCards, label) => h("button", { type: "button", class: "value-ask", onclick: () => showValues(d, trueCards, out) }, label);
  out.append(ask(false, mine ? t("values.ask") : t("values.ask-seat", { seat: d.seat })));
  if (!mine) out.append(ask(true, t("values.ask-true")));
  return out;
}

function percent(v) {
  return `${Math.round(100 * num(v))}%`;
}

function valueBar(o) {
  const filled = h("span", {});
  filled.style.width = percent(o.value); // a style property: the page's policy refuses style attributes
  return h("span", { class: "value-bar", title: t("values.bar", { value: percent(o.value), low: percent(o.low), high: percent(o.high), n: num(o.rollouts) }) }, filled);
}

// Whether the values kept (S.values) were asked for this decision, by this viewer, in this game.
function valuesOf(d) {
  return Boolean(S.values) && S.values.id === num(d.id) && S.values.viewer === S.viewer && S.values.game === S.gameId;
}

// The values asked for this decision before it was drawn again, beside its options again.
function keptBars(d) {
  if (valuesOf(d) && S.values.got) valueBars(S.values.got);
}

// A bar beside each option the values name (one option a choice), in the decision shown now.
function valueBars(got) {
  for (const el of document.querySelectorAll("#decision .value-bar")) el.remove();
  for (const o of got.options || []) {
    if ((o.choice || []).length !== 1) continue;
    const option = document.querySelector(`#decision [data-option="${CSS.escape(o.choice[0])}"]`);
    if (option) option.append(valueBar(o));
  }
}

async function showValues(d, trueCards, out) {
  const buttons = [...out.querySelectorAll("button")];
  buttons.forEach((b) => (b.disabled = true));
  out.querySelectorAll(".value-list, .value-note").forEach((e) => e.remove());
  const note = h("small", { class: "value-note" }, t("values.searching"));
  out.append(note);
  try {
    const got = await call("AnalyzeDecision", who({ version: d.id, trueCards }));
    const now = S.live && S.live.decision;
    if (!now || num(now.id) !== num(d.id)) return; // answered meanwhile: the values are of the past
    if (S.values && S.values.out === out) S.values.got = got;
    valueBars(got);
    const whose = got.knowledge === "referee" ? t("values.true") : t("values.knows", { seat: got.knowledge });
    note.textContent = t("values.note", { seat: d.seat, whose, n: num(got.rollouts) });
    out.append(h("ol", { class: "value-list" }, (got.options || []).map((o) => h("li", { "data-choice": (o.choice || []).join(",") }, valueBar(o), h("strong", {}, percent(o.value)), h("small", {}, ` [${percent(o.low)} – ${percent(o.high)}] `), o.label))));
  } catch (error) {
    note.remove();
    showError(error);
  } finally {
    buttons.forEach((b) => (b.disabled = false));
  }
}

function cardTitle(card) {
  return [cardName(card.name), card.text].filter(Boolean).join(": ");
}

function commandId() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

async function submit(decision, choice) {
  // A second click on the decision being answered is dropped; the next decision, which the
  // stream (Watch) can show before this answer's reply comes, is answered at once.
  const id = num(decision.id);
  if (S.answering === id) return;
  S.answering = id;
  showError(null);
  for (const b of document.querySelectorAll("#decision button")) b.disabled = true;
  try {
    // The answer names its decision (its id), which the server checks: facts told to the game
    // while the seat decides (what an epic event's other groups did) leave the question as it
    // was, so the version is not checked as well.
    const result = await call("SubmitDecision", who({
      decisionId: decision.id,
      choice,
      commandId: commandId(),
      includeView: true,
    }));
    // a view the stream already brought is not drawn again (that would undo a choice being made)
    if (result.view && S.live && num(result.view.version) > num(S.live.version)) setLive(result.view);
  } catch (error) {
    showError(error);
    // aborted: the decision was answered meanwhile; failed_precondition: none is pending (the
    // game ended) or it is not this seat's. The table shown is stale either way: read it anew.
    if (error.code === "aborted" || error.code === "failed_precondition") await reload().catch(() => renderDecision());
    else renderDecision();
  } finally {
    if (S.answering === id) S.answering = null;
  }
}

async function reload() {
  const got = await call("GetView", who());
  setLive(got.view);
}

// -- live updates --------------------------------------------------------------------------

function setLive(view) {
  if (S.live && num(view.version) < num(S.live.version)) return;
  const ended = view.over && !(S.live && S.live.over);
  S.live = view;
  S.liveTable = jsonBytes(view.table) || {};
  S.viewer = view.viewer;
  S.latest = Math.max(S.latest, num(view.latestVersion), num(view.version));
  if (S.at === null) S.shown = view;
  drawSoon();
  if (ended && S.verdict && S.verdict.ok) checkChain(); // the whole game, once it is over
}

// The table is drawn once per frame however many updates came in it (the server passing a
// run of action windows sends one each), and not at all while the page is not on screen.
let drawing = 0;
function drawSoon() {
  if (!drawing) drawing = requestAnimationFrame(() => {
    drawing = 0;
    render();
  });
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
    for await (const update of stream("Watch", who({ fromVersion: from }), controller.signal)) {
      addEvents(update.events);
      if (update.view) setLive(update.view);
      // after the frame that draws it (setLive's, asked for first)
      if (!S.streamed) requestAnimationFrame(() => (S.streamed = S.watching === controller));
    }
    setLiveMark(false, S.live && S.live.over ? "" : t("live.ended"));
    if (!(S.live && S.live.over) && S.watching === controller) setTimeout(() => S.watching === controller && watch(), 1000);
  } catch (error) {
    if (controller.signal.aborted) return;
    if (error instanceof RpcError && error.code === "data_loss") {
      // the stored log no longer verifies: the server will not extend or stream it, so say so and stop
      setLiveMark(false, t("live.damaged"));
      showError(error);
      return;
    }
    setLiveMark(false, t("live.reconnecting"));
    if (error instanceof RpcError && ["unauthenticated", "permission_denied", "not_found", "invalid_argument"].includes(error.code)) {
      showError(error);
      return;
    }
    setTimeout(() => S.watching === controller && reconnect(), 2000);
  }
}

// After the server was away (restarted): the view again, then the stream from where it stopped.
async function reconnect() {
  try {
    await reload();
    showError(null);
  } catch (error) {
    setTimeout(() => S.watching && reconnect(), 2000);
    return;
  }
  watch();
  if (typeof watchRoom === "function") watchRoom();
}

function setLiveMark(on, text) {
  const el = $("live");
  el.className = on ? "live-on" : "live-off";
  el.textContent = on ? t("live.on") : text ?? t("live.off");
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
    const got = await call("GetView", who({ version }));
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
  box.replaceChildren(h("p", {}, `${t("explain.event", { seq })}…`));
  try {
    const got = await call("ExplainEvent", who({ seq }));
    box.replaceChildren(because(got.because || {}));
  } catch (error) {
    box.replaceChildren(h("p", { class: "error" }, errorText(error)));
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
      h("a", { href: "#", onclick: (e) => { e.preventDefault(); select(seq); } }, t("explain.event", { seq })),
      `: ${b.text || ""}`,
      h(
        "div",
        { class: "why" },
        b.rule ? h("code", {}, b.rule) : null,
        b.card ? h("span", { class: "by-card" }, t("explain.by-card", { card: b.card })) : null,
        b.section ? h("span", { class: "section" }, ` (${b.section})`) : null,
      ),
      (b.working || []).length ? h("ul", { class: "working" }, b.working.map((w) => h("li", {}, w))) : null,
      (b.ledBy || []).map(because),
    ),
  );
}

function tokenLink(token, gameId) {
  const params = new URLSearchParams({ token });
  if (gameId) params.set("game", gameId);
  return `#${params.toString()}`;
}

async function fork() {
  const at = S.at === null ? S.latest : S.at;
  const box = $("forked");
  try {
    const got = await call("ForkGame", who({ at }));
    const access = got.access;
    const link = (viewer, token) => h("li", {}, h("a", { href: tokenLink(token), target: "_blank", rel: "noopener", "data-viewer": viewer }, viewer));
    box.hidden = false;
    box.replaceChildren(
      h("p", {}, t("fork.done", { at, game: access.gameId })),
      h("ul", {}, (access.seats || []).map((s) => link(s.seat, s.token)), link("spectator", access.spectatorToken), link("referee", access.refereeToken)),
    );
    showError(null);
  } catch (error) {
    showError(error);
  }
}

// The verdict on the game's record: in the Verify box when asked, and as a banner over the
// page whenever the record does not verify (checked as the page opens and as the game ends).
function verdictText(v) {
  return v.text || (v.ok ? t("verify.ok", { n: num(v.events) }) : t("verify.failed", { reason: v.reason || "" }));
}

function showVerdict(v) {
  const box = $("verdict");
  const bad = num(v.firstBad);
  box.hidden = false;
  box.className = v.ok ? "ok" : "failed";
  const children = [verdictText(v)];
  if (bad) children.push(h("a", { href: "#", onclick: (e) => { e.preventDefault(); select(bad); } }, t("verify.show", { n: bad })));
  box.replaceChildren(...children);
}

function showChainBanner(v) {
  const banner = $("chain");
  if (!v || v.ok) {
    banner.hidden = true;
    banner.replaceChildren();
    return;
  }
  const bad = num(v.firstBad);
  const children = [t("verify.banner", { text: verdictText(v) })];
  if (bad) children.push(h("a", { href: "#", onclick: (e) => { e.preventDefault(); select(bad); } }, t("verify.show", { n: bad })));
  banner.replaceChildren(...children);
  banner.hidden = false;
}

async function checkChain() {
  try {
    const v = await call("VerifyGame", who());
    S.verdict = v;
    showChainBanner(v);
    return v;
  } catch (error) {
    return null;
  }
}

async function verifyGame() {
  const box = $("verdict");
  box.hidden = false;
  box.className = "";
  box.textContent = t("verify.running");
  try {
    const v = await call("VerifyGame", who());
    S.verdict = v;
    showVerdict(v);
    showChainBanner(v);
  } catch (error) {
    box.className = "failed";
    box.textContent = errorText(error);
  }
}

// The game's record, as `westmarch export` writes it, saved from the page (the referee's at
// any time; everyone's once the game is over).
async function exportRecord() {
  const box = $("exported");
  box.hidden = false;
  box.replaceChildren(t("export.running"));
  const parts = [];
  try {
    for await (const chunk of stream("ExportGame", who(), undefined)) parts.push(rawBytes(chunk.lines || ""));
    const blob = new Blob(parts, { type: "application/x-ndjson" });
    const lines = (await blob.text()).split("\n").filter(Boolean).length;
    const id = S.gameId || (S.live && S.live.gameId) || "game";
    box.replaceChildren(t("export.done", { lines }), h("a", { href: URL.createObjectURL(blob), download: `${id}.jsonl`, id: "record-link" }, t("export.save")));
  } catch (error) {
    box.replaceChildren(h("span", { class: "error" }, errorText(error)));
  }
}

function renderTimeline() {
  const slider = $("slider");
  slider.max = Math.max(1, S.latest);
  if (S.at === null) slider.value = S.latest;
  $("slider-value").textContent = `${S.at === null ? S.latest : S.at} / ${S.latest}`;
  $("to-live").disabled = S.at === null;
  const everyone = S.viewer === "referee" || (S.live && S.live.over);
  $("fork").hidden = !everyone;
  $("export").hidden = !everyone;
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
  past.textContent = S.at === null ? "" : t("timeline.past", { at: S.at, latest: S.latest, viewer: viewerName(S.viewer) });
}

function renderHeader() {
  const view = S.live;
  if (!view) return;
  $("game").textContent = `${tValue("game", view.game)} ${String(view.gameId || "").slice(0, 8)}`;
  const plan = seatPlan(view.viewer);
  $("viewer").textContent = plan && plan.name ? t("bar.as-named", { viewer: viewerName(view.viewer), name: plan.name }) : t("bar.as", { viewer: viewerName(view.viewer) });
  $("version").textContent = t("bar.version", { version: view.version });
  $("status").textContent = view.over ? t("bar.over") : view.waitingFor ? t("bar.waiting", { seat: view.waitingFor }) : "";
}

function render() {
  renderHeader();
  renderTimeline();
  renderTable();
  renderDecision();
}

// -- starting ------------------------------------------------------------------------------

function addressParams() {
  return new URLSearchParams(location.hash.replace(/^#/, ""));
}

function clearTable() {
  Object.assign(S, { live: null, shown: null, at: null, latest: 0, events: [], selected: null, watching: null, room: null, verdict: null, values: null, streamed: false });
  for (const id of ["events", "table", "decision", "talk-list", "asks", "moved", "seats"]) $(id).replaceChildren();
  for (const id of ["forked", "verdict", "explain", "chain", "exported", "error", "past"]) $(id).hidden = true;
  for (const id of ["game", "viewer", "version", "status"]) $(id).textContent = "";
  setLiveMark(false);
}

async function start() {
  if (S.watching) S.watching.abort();
  if (typeof stopRoom === "function") stopRoom();
  clearTable();
  const params = addressParams();
  S.token = params.get("token") || "";
  S.gameId = params.get("game") || "";
  const organizer = params.get("organizer") || "";
  $("lobby").hidden = !!(S.token || organizer);
  $("main").hidden = !S.token;
  $("sheet").hidden = !organizer;
  $("live").hidden = !S.token;
  if (organizer) {
    if (typeof openSheet === "function") openSheet(organizer);
    if (typeof openOrganizerTalk === "function") openOrganizerTalk(organizer);
    return;
  }
  if (!S.token) {
    if (typeof openLobby === "function") openLobby();
    return;
  }
  try {
    await reload();
  } catch (error) {
    showError(error);
    if (error instanceof RpcError && error.code === "data_loss") {
      setLiveMark(false, t("live.damaged"));
      checkChain();
    }
    return;
  }
  watch();
  checkChain();
  if (typeof openRoom === "function") openRoom();
}

function wire() {
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
  $("export").addEventListener("click", exportRecord);
  $("explain-close").addEventListener("click", () => ($("explain").hidden = true));
  window.addEventListener("hashchange", start);
}
