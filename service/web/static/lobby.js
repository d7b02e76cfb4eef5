// The lobby: this browser's games and where they stand, the games with an open seat, and a
// new game set up from the server's catalog (game, scenario, difficulty, players, epic groups,
// and per seat who plays it, a deck, heroes, a contract). Decks are read by the server with
// the importer CreateGame uses (CheckDeck), so a deck's problems show before anything is made.
"use strict";

const EPIC_SCENARIO = "hunt-for-the-dreadnaught";
const L = {
  catalog: null,
  seats: {}, // each seat's setup by its key ("1/p2": group 1, seat p2)
  checks: {}, // each seat's pending deck check
  created: null,
};

function catalogGame(game) {
  return (L.catalog || []).find((g) => g.game === game);
}

function scenarioOf(game, key) {
  const found = catalogGame(game);
  return found ? (found.scenarios || []).find((s) => s.key === key) : undefined;
}

function titleOf(game, key) {
  const found = scenarioOf(game, key);
  return found ? tValue("scenario", found.key, found.title) : key || game;
}

async function openLobby() {
  $("lobby-name").value = myName();
  showMyGames();
  showOpenGames();
  if (!L.catalog) {
    try {
      L.catalog = (await call("GetCatalog", {})).games || [];
    } catch (error) {
      $("new-error").hidden = false;
      $("new-error").textContent = errorText(error);
      return;
    }
    setupForm();
  }
  renderForm();
}

function lobbyName() {
  const name = $("lobby-name").value.trim();
  setMyName(name);
  return name;
}

// -- my games ---------------------------------------------------------------------------------

async function showMyGames() {
  const box = $("my-games-list");
  const kept = myGames();
  if (!kept.length) {
    box.replaceChildren(h("p", { class: "empty" }, t("lobby.my-games.none")));
    return;
  }
  box.replaceChildren(h("p", {}, t("lobby.state.loading")));
  let found = [];
  try {
    found = (await call("GetMyGames", { games: kept.map((g) => ({ gameId: g.gameId || "", token: g.token })) }, ROOM)).games || [];
  } catch (error) {
    box.replaceChildren(h("p", { class: "error" }, errorText(error)));
    return;
  }
  const rows = kept.map((g, i) => {
    const now = found[i] || {};
    if (now.gameId && now.gameId !== g.gameId) keepGame({ ...g, gameId: now.gameId });
    let state;
    if (now.error) state = t("lobby.state.error", { error: now.error });
    else if (now.over) state = t("lobby.state.over", { result: now.outcome && now.outcome.result ? tValue("result", now.outcome.result) : "" });
    else if (now.waitingFor && now.waitingFor === now.viewer) state = t("lobby.state.you");
    else state = t("lobby.state.others", { seat: now.waitingFor || "" });
    const label = `${titleOf(now.game, now.scenario)} · ${viewerName(now.viewer || g.viewer || "")}${now.name ? ` (${now.name})` : ""}`;
    const mine = now.waitingFor && now.waitingFor === now.viewer && !now.over;
    return h(
      "li",
      { class: `my-game${mine ? " yours" : ""}${now.over ? " over" : ""}`, "data-game": now.gameId || g.gameId || "", "data-viewer": now.viewer || g.viewer || "" },
      h("a", { href: tokenLink(g.token, now.gameId || g.gameId), class: "open" }, label),
      " ",
      h("span", { class: "state" }, state),
      " ",
      h("button", { type: "button", class: "forget", onclick: () => { forgetGame(g.token); showMyGames(); } }, t("lobby.my-games.forget")),
    );
  });
  box.replaceChildren(h("ul", {}, rows));
}

// -- open games -------------------------------------------------------------------------------

async function showOpenGames() {
  const box = $("open-games-list");
  let games = [];
  try {
    games = (await call("ListOpenGames", {}, ROOM)).games || [];
  } catch (error) {
    box.replaceChildren(h("p", { class: "empty" }, error.code === "permission_denied" ? t("lobby.open-games.private") : errorText(error)));
    return;
  }
  if (!games.length) {
    box.replaceChildren(h("p", { class: "empty" }, t("lobby.open-games.none")));
    return;
  }
  box.replaceChildren(
    h(
      "ul",
      {},
      games.map((g) =>
        h(
          "li",
          { class: "open-game", "data-game": g.gameId },
          h("b", {}, tValue("scenario", g.scenario, g.title || g.scenario)),
          g.difficulty ? ` (${tValue("difficulty", g.difficulty)})` : "",
          ": ",
          (g.seats || []).map((s, i) => [
            i ? " · " : "",
            s.open
              ? h("button", { type: "button", class: "join", "data-seat": s.seat, onclick: () => join(g, s.seat) }, t("lobby.join", { seat: s.seat }))
              : s.bot
                ? t("lobby.seat-bot", { seat: s.seat, bot: tValue("bot", s.bot) })
                : t("lobby.seat-named", { seat: s.seat, name: s.name || "…" }),
          ]),
        ),
      ),
    ),
  );
}

async function join(game, seat) {
  const name = lobbyName();
  const error = $("open-error");
  if (!name) {
    error.hidden = false;
    error.textContent = t("lobby.name-needed");
    $("lobby-name").focus();
    return;
  }
  try {
    const got = await call("JoinGame", { gameId: game.gameId, seat, name }, ROOM);
    keepGame({ token: got.token, gameId: got.gameId, viewer: seat });
    location.hash = tokenLink(got.token, got.gameId);
  } catch (failure) {
    error.hidden = false;
    error.textContent = errorText(failure);
    showOpenGames();
  }
}

// -- a new game -------------------------------------------------------------------------------

function setupForm() {
  const game = $("new-game");
  game.replaceChildren(...L.catalog.map((g) => h("option", { value: g.game }, g.title)));
  for (const id of ["new-game", "new-scenario", "new-players", "new-epic", "new-groups", "new-shadow"]) {
    $(id).addEventListener("change", (e) => {
      if (e.target.id === "new-game") $("new-scenario").value = "";
      renderForm();
    });
  }
}

function renderForm() {
  if (!L.catalog) return;
  const game = catalogGame($("new-game").value) || L.catalog[0];
  $("new-game").value = game.game;
  const scenarioSelect = $("new-scenario");
  const wanted = scenarioSelect.value || game.defaultScenario;
  scenarioSelect.replaceChildren(...(game.scenarios || []).map((s) => h("option", { value: s.key }, tValue("scenario", s.key, s.title))));
  scenarioSelect.value = (game.scenarios || []).some((s) => s.key === wanted) ? wanted : game.defaultScenario;
  const scenario = scenarioOf(game.game, scenarioSelect.value);
  const lcg = game.game === "lcg";
  const epic = lcg && scenario.key === EPIC_SCENARIO && $("new-epic").checked;
  $("new-epic-row").hidden = !(lcg && scenario.key === EPIC_SCENARIO);
  $("new-groups-row").hidden = !epic;
  $("new-players-row").hidden = !lcg;
  $("new-shadow-row").hidden = lcg;
  const shadow = !lcg && $("new-shadow").checked;
  const difficulty = $("new-difficulty");
  const chosen = difficulty.value;
  const modes = lcg || shadow ? scenario.difficulties || [] : [];
  difficulty.replaceChildren(...modes.map((m) => h("option", { value: m }, tValue("difficulty", m))));
  if (modes.includes(chosen)) difficulty.value = chosen;
  $("new-difficulty-row").hidden = !modes.length;
  const groups = epic ? Math.max(1, Math.min(16, num($("new-groups").value) || 2)) : 1;
  const box = $("new-seats");
  const kept = new Set();
  const blocks = [];
  for (let g = 1; g <= groups; g++) {
    const sizeInput = epic ? groupSize(g) : null;
    const players = lcg ? Math.max(1, Math.min(scenario.maxPlayers || 4, num(epic ? sizeInput.value : $("new-players").value) || 1)) : 0;
    const seats = lcg ? Array.from({ length: players }, (_, i) => `p${i + 1}`) : scenario.seats || [];
    const rows = seats.map((seat, i) => {
      const key = `${g}/${seat}`;
      kept.add(key);
      return seatBlock(game, key, seat, shadow && (scenario.shadowSeats || []).includes(seat), g === 1 && i === 0);
    });
    blocks.push(epic ? h("fieldset", { class: "group", "data-group": g }, h("legend", {}, t("lobby.group", { n: g }), " ", h("label", {}, t("lobby.group-players", { n: g }), " ", sizeInput)), rows) : rows);
  }
  for (const key of Object.keys(L.seats)) if (!kept.has(key)) delete L.seats[key];
  box.replaceChildren(...blocks.flat());
}

const groupSizes = {};
function groupSize(g) {
  if (!groupSizes[g]) {
    groupSizes[g] = h("input", { type: "number", min: 1, max: 4, value: 2, class: "group-size", "data-group": g });
    groupSizes[g].addEventListener("change", renderForm);
  }
  return groupSizes[g];
}

// One seat's setup: who plays it, and for the LCG its deck, heroes and contract.
function seatBlock(game, key, seat, shadow, first) {
  const setup = (L.seats[key] = L.seats[key] || { who: first ? "me" : "link", name: "", deck: "", text: "", heroes: "", contract: "" });
  const group = key.split("/")[0];
  if (shadow) {
    return h("div", { class: "seat-setup", "data-seat": seat, "data-group": group, "data-key": key }, h("b", {}, t("lobby.seat", { seat })), " ", t("lobby.who.shadow"));
  }
  const who = h("select", { class: "who", "aria-label": t("lobby.who") },
    h("option", { value: "me" }, t("lobby.who.me")),
    h("option", { value: "link" }, t("lobby.who.link")),
    h("option", { value: "open" }, t("lobby.who.open")),
    (game.bots || []).map((b) => h("option", { value: `bot:${b}` }, t("lobby.who.bot", { bot: tValue("bot", b) }))),
  );
  who.value = setup.who;
  const name = h("input", { class: "person-name", placeholder: t("lobby.person-name"), maxlength: 40, value: setup.name });
  name.hidden = setup.who !== "link";
  who.addEventListener("change", () => { setup.who = who.value; name.hidden = who.value !== "link"; });
  name.addEventListener("input", () => (setup.name = name.value));
  const parts = [h("b", {}, t("lobby.seat", { seat })), " ", h("label", {}, t("lobby.who"), " ", who), " ", name];
  if (game.game === "lcg") parts.push(deckPart(game, key, setup));
  return h("div", { class: "seat-setup", "data-seat": seat, "data-group": group, "data-key": key }, parts, h("div", { class: "part-error", hidden: true }));
}

function deckPart(game, key, setup) {
  const deck = h("select", { class: "deck", "aria-label": t("lobby.deck") },
    h("option", { value: "" }, t("lobby.deck.default")),
    (game.decks || []).map((d) => h("option", { value: d.key }, `${d.title} (${(d.heroes || []).join(", ")})`)),
    h("option", { value: "own" }, t("lobby.deck.own")),
  );
  deck.value = setup.deck;
  const text = h("textarea", { class: "deck-text", rows: 4, cols: 50, placeholder: t("lobby.deck.paste") });
  text.value = setup.text;
  const file = h("input", { type: "file", class: "deck-file", accept: ".json,.o8d,.txt,.xml,text/*" });
  const own = h("div", { class: "own-deck" }, text, h("label", {}, t("lobby.deck.upload"), " ", file));
  own.hidden = setup.deck !== "own";
  const checked = h("div", { class: "deck-check" });
  const heroes = h("input", { class: "heroes", size: 40, value: setup.heroes, placeholder: t("lobby.heroes.help") });
  const contract = h("select", { class: "contract", "aria-label": t("lobby.contract") },
    h("option", { value: "" }, t("lobby.contract.none")),
    (game.contracts || []).map((c) => h("option", { value: c.key, title: c.sideA }, c.title)),
  );
  contract.value = setup.contract;
  const check = () => checkDeck(key, setup, checked);
  deck.addEventListener("change", () => { setup.deck = deck.value; own.hidden = deck.value !== "own"; check(); });
  text.addEventListener("input", () => { setup.text = text.value; clearTimeout(L.checks[key]); L.checks[key] = setTimeout(check, 400); });
  file.addEventListener("change", async () => {
    const chosen = file.files && file.files[0];
    if (!chosen) return;
    text.value = setup.text = await chosen.text();
    check();
  });
  heroes.addEventListener("input", () => (setup.heroes = heroes.value));
  contract.addEventListener("change", () => (setup.contract = contract.value));
  if (setup.deck) setTimeout(check, 0);
  return h(
    "div",
    { class: "seat-deck" },
    h("label", {}, t("lobby.deck"), " ", deck),
    own,
    checked,
    h("label", {}, t("lobby.heroes"), " ", heroes),
    (game.contracts || []).length ? h("label", {}, ` ${t("lobby.contract")} `, contract) : null,
  );
}

// The deck read by the server's importer: its heroes and size, or every problem it has.
async function checkDeck(key, setup, box) {
  const sent = setup.deck === "own" ? setup.text : setup.deck;
  if (!sent.trim()) {
    box.replaceChildren();
    return;
  }
  box.replaceChildren(t("lobby.deck.checking"));
  try {
    const got = await call("CheckDeck", { deck: [sent] }, ROOM);
    if ((setup.deck === "own" ? setup.text : setup.deck) !== sent) return; // changed meanwhile
    const problems = got.problems || [];
    box.className = `deck-check ${problems.length ? "refused" : "ok"}`;
    box.replaceChildren(
      t("lobby.deck.ok", { format: got.deckFormat || "", heroes: (got.heroes || []).join(", ") || "—", n: num(got.cards) }),
      problems.length ? h("div", {}, t("lobby.deck.refused"), h("ul", {}, problems.map((p) => h("li", {}, p)))) : null,
    );
  } catch (error) {
    box.className = "deck-check refused";
    box.replaceChildren(errorText(error));
  }
}

function playerSetup(setup) {
  const out = {};
  const heroes = setup.heroes.split(",").map((x) => x.trim()).filter(Boolean);
  if (heroes.length) out.heroes = heroes;
  if (setup.deck === "own" && setup.text.trim()) out.deck = [setup.text];
  else if (setup.deck && setup.deck !== "own") out.deck = [setup.deck];
  if (setup.contract) out.contract = setup.contract;
  return out;
}

function seatPlanOf(seat, setup, me) {
  if (setup.who === "me") return { seat, name: me };
  if (setup.who === "open") return { seat, open: true };
  if (setup.who.startsWith("bot:")) return { seat, bot: setup.who.slice(4) };
  return setup.name.trim() ? { seat, name: setup.name.trim() } : null;
}

async function createGame(event) {
  event.preventDefault();
  const errorBox = $("new-error");
  errorBox.hidden = true;
  for (const el of document.querySelectorAll(".seat-setup .part-error")) el.hidden = true;
  for (const el of document.querySelectorAll("#new-form .refused-part")) el.classList.remove("refused-part");
  const me = lobbyName();
  const game = $("new-game").value;
  const scenario = $("new-scenario").value;
  const lcg = game === "lcg";
  const epic = lcg && scenario === EPIC_SCENARIO && $("new-epic").checked;
  const blocks = [...document.querySelectorAll("#new-seats .seat-setup")];
  if (!me && blocks.some((b) => (L.seats[b.dataset.key] || {}).who === "me")) {
    errorBox.hidden = false;
    errorBox.textContent = t("lobby.name-needed");
    $("lobby-name").focus();
    return;
  }
  const groups = {};
  for (const block of blocks) {
    const g = block.dataset.group;
    const setup = L.seats[block.dataset.key];
    const group = (groups[g] = groups[g] || { players: [], seating: [] });
    if (!setup) continue; // a Shadow seat the rules play
    if (lcg) group.players.push(playerSetup(setup));
    const plan = seatPlanOf(block.dataset.seat, setup, me);
    if (plan) group.seating.push(plan);
  }
  const difficulty = $("new-difficulty-row").hidden ? "" : $("new-difficulty").value;
  const unlisted = !$("new-listed").checked;
  const button = $("new-create");
  button.disabled = true;
  button.textContent = t("lobby.creating");
  try {
    let accesses;
    let organizer = "";
    if (epic) {
      const setups = Object.keys(groups).sort((a, b) => a - b).map((g) => groups[g]);
      const got = await call("CreateEpic", { setups, difficulty, unlisted }, "EpicService");
      accesses = got.groups || [];
      organizer = got.organizerToken;
    } else {
      const options = {};
      if (lcg && difficulty) options.difficulty = difficulty;
      if (!lcg && $("new-shadow").checked) Object.assign(options, { bots: "shadow", difficulty });
      const request = { game, scenario, options, seating: groups["1"].seating, unlisted, requestId: commandId() };
      if (lcg) request.players = groups["1"].players;
      accesses = [(await call("CreateGame", request)).access];
    }
    showCreated(accesses, organizer, blocks, me);
    showMyGames();
    showOpenGames();
  } catch (error) {
    refused(error);
  } finally {
    button.disabled = false;
    button.textContent = t("lobby.create");
  }
}

// A refusal: nothing was made. Its message names the part (a group, a player, a seat, the
// scenario, the difficulty); that part is marked and says why.
function refused(error) {
  const box = $("new-error");
  box.hidden = false;
  box.textContent = t("lobby.refused", { message: errorText(error) });
  const message = error.message || "";
  const group = (message.match(/^group (\d+)/) || [])[1] || "1";
  const player = (message.match(/player (\d+)/) || [])[1];
  const seat = player ? `p${player}` : (message.match(/\bseat '?([a-z0-9-]+)/) || [])[1];
  let part = null;
  if (seat) part = document.querySelector(`#new-seats .seat-setup[data-group="${group}"][data-seat="${seat}"]`);
  if (!part && /scenario/.test(message)) part = $("new-scenario-row");
  if (!part && /difficulty/.test(message)) part = $("new-difficulty-row");
  if (part) {
    part.classList.add("refused-part");
    const why = part.querySelector(".part-error");
    if (why) {
      why.hidden = false;
      why.textContent = t("lobby.part", { message });
    }
    part.scrollIntoView({ block: "nearest" });
  }
}

function showCreated(accesses, organizer, blocks, me) {
  const box = $("created");
  const mine = new Set(blocks.filter((b) => (L.seats[b.dataset.key] || {}).who === "me").map((b) => b.dataset.key));
  const epic = accesses.length > 1 || !!organizer;
  const link = (label, token, gameId, viewer) =>
    h(
      "li",
      { "data-viewer": viewer },
      `${label}: `,
      h("a", { href: tokenLink(token, gameId), class: "token-link", "data-viewer": viewer, "data-game": gameId }, t("lobby.link.open")),
      " ",
      h("button", { type: "button", class: "copy", onclick: (e) => copyLink(e.target, token, gameId) }, t("lobby.link.copy")),
    );
  const items = [];
  accesses.forEach((access, i) => {
    const g = i + 1;
    for (const s of access.seats || []) {
      items.push(link(epic ? t("lobby.link.group", { n: g, seat: s.seat }) : t("lobby.link.seat", { seat: s.seat }), s.token, access.gameId, s.seat));
      if (mine.has(`${g}/${s.seat}`)) keepGame({ token: s.token, gameId: access.gameId, viewer: s.seat, name: me });
    }
    items.push(link(epic ? t("lobby.link.group", { n: g, seat: t("lobby.link.spectator") }) : t("lobby.link.spectator"), access.spectatorToken, access.gameId, "spectator"));
    items.push(link(epic ? t("lobby.link.group", { n: g, seat: t("lobby.link.referee") }) : t("lobby.link.referee"), access.refereeToken, access.gameId, "referee"));
    keepGame({ token: access.refereeToken, gameId: access.gameId, viewer: "referee" });
  });
  const children = [h("p", {}, t("lobby.created")), h("ul", { class: "links" }, items)];
  if (organizer) children.push(h("p", {}, h("a", { href: `#organizer=${encodeURIComponent(organizer)}`, class: "organizer-link" }, t("lobby.link.organizer"))));
  box.replaceChildren(...children);
  box.hidden = false;
  L.created = accesses;
}

async function copyLink(button, token, gameId) {
  const address = `${location.origin}${location.pathname}${tokenLink(token, gameId)}`;
  try {
    await navigator.clipboard.writeText(address);
    button.textContent = t("lobby.link.copied");
  } catch (error) {
    window.prompt(t("lobby.link.copy"), address);
  }
}

// -- the organizer's sheet of an epic event ---------------------------------------------------

const SHEET = { watching: null };

async function openSheet(token) {
  if (SHEET.watching) SHEET.watching.abort();
  const controller = new AbortController();
  SHEET.watching = controller;
  const box = $("sheet-body");
  try {
    for await (const sheet of stream("WatchEpic", { organizerToken: token }, controller.signal, "EpicService")) {
      const totals = Object.entries(sheet.totals || {}).map(([k, total]) => h("li", { "data-total": k }, t("epic.totals", { key: tValue("total", k), counted: num((sheet.counted || {})[k]), total: num(total) })));
      const groups = (sheet.groups || []).map((g, i) =>
        h("li", { "data-game": g.gameId }, t("epic.group", { n: i + 1, players: g.players, difficulty: tValue("difficulty", g.difficulty), round: num(g.round), stage: num(g.stage), result: g.result ? t("epic.result", { result: tValue("result", g.result) }) : "" })),
      );
      box.replaceChildren(h("h1", {}, t("epic.title", { id: String(sheet.epicId || "").slice(0, 8) })), h("ul", {}, totals), h("ol", {}, groups));
    }
  } catch (error) {
    if (!controller.signal.aborted) box.replaceChildren(h("p", { class: "error" }, errorText(error)));
  }
}

function wireLobby() {
  $("new-form").addEventListener("submit", createGame);
  $("open-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const token = $("open-token").value.trim();
    if (token) location.hash = tokenLink(token);
  });
  $("open-refresh").addEventListener("click", showOpenGames);
  $("lobby-name").addEventListener("change", lobbyName);
}
