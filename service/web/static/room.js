// The room around the table (RoomService): who sits in each seat (names, bots), table talk,
// the take-backs asked and given, auto-pass; and this browser's games, kept in its storage
// (the tokens it holds, never sent anywhere but to this server, in request bodies), so a
// player comes back to a game days later.
"use strict";

const GAMES_KEY = "westmarch.games";
const NAME_KEY = "westmarch.name";
const ROOM = "RoomService";

// -- this browser's games -------------------------------------------------------------------

function myGames() {
  try {
    const list = JSON.parse(localStorage.getItem(GAMES_KEY) || "[]");
    return Array.isArray(list) ? list : [];
  } catch (error) {
    return [];
  }
}

function keepGame(entry) {
  const list = myGames();
  const found = list.find((g) => g.token === entry.token);
  const kept = { ...(found || {}), ...entry, kept: Date.now() };
  localStorage.setItem(GAMES_KEY, JSON.stringify([kept, ...list.filter((g) => g.token !== entry.token)].slice(0, 100)));
}

function forgetGame(token) {
  localStorage.setItem(GAMES_KEY, JSON.stringify(myGames().filter((g) => g.token !== token)));
}

function myName() {
  return localStorage.getItem(NAME_KEY) || "";
}

function setMyName(name) {
  if (name) localStorage.setItem(NAME_KEY, name);
}

// -- the room -------------------------------------------------------------------------------

const R = { watching: null, heard: {}, asked: "" };

function seatPlan(seat) {
  return S.room ? (S.room.seats || []).find((s) => s.seat === seat) : undefined;
}

function stopRoom() {
  if (R.watching) R.watching.abort();
  Object.assign(R, { watching: null, heard: {}, asked: "", organizer: "" });
  if ($("talk").parentElement !== $("side")) $("side").insertBefore($("talk"), $("replay"));
}

// An epic event's organizer: its sheet carries the event's channel between the groups, where
// it reads what the groups' players say and speaks to them all.
async function openOrganizerTalk(token) {
  stopRoom();
  R.organizer = token;
  $("sheet").append($("talk"));
  $("talk-list").replaceChildren();
  $("talk-empty").hidden = false;
  const controller = new AbortController();
  R.watching = controller;
  try {
    for await (const update of stream("WatchRoom", { token, heard: R.heard }, controller.signal, ROOM)) {
      if (!update.room) continue;
      S.room = update.room;
      R.heard = { ...R.heard, ...(update.room.heard || {}) };
      for (const m of update.room.messages || []) addMessage(m);
      renderTalkForm();
    }
  } catch (error) {
    if (controller.signal.aborted) return;
    if (error instanceof RpcError && ["unauthenticated", "permission_denied"].includes(error.code)) return;
  }
  if (R.watching === controller) setTimeout(() => R.watching === controller && openOrganizerTalk(token), 2000);
}

function openRoom() {
  keepGame({ token: S.token, gameId: S.gameId || (S.live && S.live.gameId) || "", viewer: S.viewer });
  watchRoom();
}

async function watchRoom() {
  if (R.watching) R.watching.abort();
  const controller = new AbortController();
  R.watching = controller;
  try {
    for await (const update of stream("WatchRoom", who({ heard: R.heard }), controller.signal, ROOM)) {
      if (update.room) applyRoom(update.room);
    }
  } catch (error) {
    if (controller.signal.aborted) return;
    if (error instanceof RpcError && ["unauthenticated", "permission_denied", "not_found", "invalid_argument", "data_loss"].includes(error.code)) return;
  }
  if (R.watching === controller) setTimeout(() => R.watching === controller && watchRoom(), 2000);
}

function applyRoom(room) {
  const before = S.room;
  S.room = room;
  R.heard = { ...R.heard, ...(room.heard || {}) };
  for (const m of room.messages || []) addMessage(m);
  renderSeats();
  renderAsks();
  renderTalkForm();
  renderLineage();
  const names = (r) => JSON.stringify((r && r.seats) || []);
  if (names(before) !== names(room)) render();
  if (room.movedTo && !addressParams().get("stay")) moveTo(room.movedTo);
}

// Play went on in another game (a take-back): the same token opens it.
function moveTo(gameId) {
  keepGame({ token: S.token, gameId, viewer: S.viewer });
  location.hash = tokenLink(S.token, gameId);
}

// -- seats ------------------------------------------------------------------------------------

function renderSeats() {
  const box = $("seats");
  const room = S.room;
  if (!room) return;
  const mine = seatPlan(S.viewer);
  const rows = (room.seats || []).map((s) =>
    h("li", { "data-seat": s.seat }, seatTitle(s.seat), s.autoPass ? h("small", {}, ` · ${t("decision.auto-pass-on")}`) : null),
  );
  const children = [h("h2", {}, t("talk.seats")), h("ul", { class: "seat-list" }, rows)];
  if (mine && !mine.bot) {
    const input = h("input", { id: "seat-name", value: mine.name || myName(), maxlength: 40, "aria-label": t("talk.name") });
    const save = h("button", { type: "button", id: "seat-name-save", onclick: () => nameSeat(input.value) }, t("talk.name.save"));
    children.push(h("div", { class: "seat-name" }, h("label", {}, t("talk.name"), " ", input), " ", save));
  }
  box.replaceChildren(...children);
}

async function nameSeat(name) {
  name = name.trim();
  if (!name) return;
  try {
    await call("SetSeat", who({ name }), ROOM);
    setMyName(name);
    showError(null);
  } catch (error) {
    showError(error);
  }
}

async function setAutoPass(on) {
  try {
    await call("SetSeat", who({ autoPass: on }), ROOM);
    showError(null);
  } catch (error) {
    showError(error);
  }
}

// Under the decision: a seat's auto-pass and its take-back.
function seatTools() {
  const mine = seatPlan(S.viewer);
  if (!mine || mine.bot || !S.live || S.live.over) return null;
  const on = !!mine.autoPass;
  return h(
    "div",
    { class: "seat-tools" },
    h("button", { type: "button", id: "auto-pass", "aria-pressed": on ? "true" : "false", title: t("decision.auto-pass.title"), onclick: () => setAutoPass(!on) }, on ? t("decision.auto-pass-on") : t("decision.auto-pass-off")),
    h("button", { type: "button", id: "take-back", title: t("decision.take-back.title"), onclick: () => takeBack("") }, t("decision.take-back")),
    R.asked ? h("span", { class: "asked" }, R.asked) : null,
  );
}

// -- take-backs -------------------------------------------------------------------------------

async function takeBack(seat) {
  try {
    const got = await call("TakeBack", who(seat ? { seat } : {}));
    showError(null);
    if (got.gameId) {
      moveTo(got.gameId);
      return;
    }
    if (!seat) R.asked = t("takeback.asked", { at: num(got.at), seats: (got.waitingFor || []).join(", ") });
    renderDecision();
  } catch (error) {
    showError(error);
  }
}

function renderAsks() {
  const box = $("asks");
  const room = S.room;
  if (!room || !S.live || S.live.over) {
    box.replaceChildren();
    return;
  }
  const items = (room.takeBacks || []).map((a) => {
    const name = seatTitle(a.seat);
    const waiting = a.waitingFor || [];
    const mine = a.seat === S.viewer;
    let action = null;
    if (S.viewer === "referee") action = h("button", { type: "button", class: "allow", "data-seat": a.seat, onclick: () => takeBack(a.seat) }, t("takeback.allow"));
    else if (!mine && waiting.includes(S.viewer)) action = h("button", { type: "button", class: "agree", "data-seat": a.seat, onclick: () => takeBack(a.seat) }, t("takeback.agree"));
    return h(
      "li",
      { class: "ask", "data-seat": a.seat, "data-at": num(a.at) },
      mine ? t("takeback.asked", { at: num(a.at), seats: waiting.join(", ") }) : t("takeback.ask", { who: name, at: num(a.at) }),
      (a.agreed || []).length ? ` ${t("takeback.agreed", { seats: a.agreed.join(", ") })}` : "",
      action ? " " : null,
      action,
    );
  });
  const children = items.length ? [h("ul", { class: "asks" }, items)] : [];
  if (S.viewer === "referee") {
    const people = (room.seats || []).filter((s) => !s.bot).map((s) => s.seat);
    const choice = h("select", { id: "take-back-seat" }, people.map((seat) => h("option", { value: seat }, seatTitle(seat))));
    children.push(h("div", { class: "referee-take-back" }, t("takeback.referee"), " ", choice, " ", h("button", { type: "button", id: "referee-take-back", onclick: () => takeBack(choice.value) }, t("takeback.referee-go"))));
  }
  box.replaceChildren(...children);
}

// Where this game came from (a take-back or a fork), and where play went on from it.
function renderLineage() {
  const box = $("moved");
  const room = S.room;
  const children = [];
  if (room.cameFrom && room.cameWhy === "take-back") {
    children.push(h("p", {}, t("takeback.moved", { seat: room.cameSeat || "", at: num(room.cameAt) }), " ", t("takeback.kept"), " ", h("a", { href: `${tokenLink(S.token, room.cameFrom)}&stay=1`, class: "kept" }, t("takeback.open-kept"))));
  } else if (room.cameFrom) {
    children.push(h("p", {}, t("takeback.forked", { at: num(room.cameAt) }), " ", room.cameFrom));
  }
  if (room.movedTo && addressParams().get("stay")) {
    children.push(h("p", {}, t("takeback.left"), " ", h("a", { href: tokenLink(S.token, room.movedTo), class: "went-on" }, t("takeback.go"))));
  }
  box.replaceChildren(...children);
  box.hidden = !children.length;
}

// -- table talk -------------------------------------------------------------------------------

function addMessage(m) {
  const list = $("talk-list");
  const key = `${m.channel}/${num(m.seq)}`;
  if (list.querySelector(`li[data-key="${CSS.escape(key)}"]`)) return;
  const when = m.at ? new Date(num(m.at)).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : "";
  const who = m.name && m.name !== m.by ? `${m.name} (${m.by})` : m.by;
  list.append(
    h(
      "li",
      { "data-key": key, "data-channel": m.channel, "data-by": m.by, class: `said channel-${m.channel}` },
      h("small", { class: "when" }, when),
      " ",
      h("b", {}, who),
      m.channel !== "table" ? h("small", { class: "channel" }, ` [${t(`talk.channel.${m.channel}`)}]`) : null,
      ": ",
      h("span", { class: "text" }, m.text),
    ),
  );
  $("talk-empty").hidden = true;
  list.scrollTop = list.scrollHeight;
}

function renderTalkForm() {
  const select = $("talk-channel");
  const says = (S.room && S.room.says) || [];
  const now = select.value;
  select.replaceChildren(...says.map((c) => h("option", { value: c }, t(`talk.channel.${c}`))));
  if (says.includes(now)) select.value = now;
  select.hidden = says.length < 2;
  $("talk").hidden = !says.length;
}

async function sayIt(event) {
  event.preventDefault();
  const input = $("talk-text");
  const text = input.value.trim();
  if (!text) return;
  try {
    const asked = { channel: $("talk-channel").value, text };
    const got = await call("Say", R.organizer ? { token: R.organizer, ...asked } : who(asked), ROOM);
    if (got.message) addMessage(got.message);
    input.value = "";
    showError(null);
  } catch (error) {
    showError(error);
  }
}

function wireRoom() {
  $("talk-form").addEventListener("submit", sayIt);
}
