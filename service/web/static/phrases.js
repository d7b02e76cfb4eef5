// The page's own words, in one table, in English: each text is marked N_("...") (NP_ for one
// that counts something: its singular and plural) so that Babel extracts it into the
// catalog of the page's domain, westmarch_web (service/web/locale; `python -m
// tools.i18n_web` extracts, updates and compiles it). The page asks the server for the
// catalog of its language (/locale/<lang>.json, read from the compiled .mo) and t() shows
// each text through it; a text with no translation is shown in English. What the server
// sends (prompts, options, the story of each event, verdicts, errors) the server words in
// the language the page asks for (the Accept-Language header of every call).
//
// An entry's {name} places are filled by t(key, {name: value}); a counted one takes {n}.
"use strict";

const PHRASES = {
  // -- the Connect protocol
  "rpc.unreachable": N_("the server cannot be reached"),
  "rpc.cut": N_("the stream was cut"),

  // -- the bar
  "bar.as": N_("as {viewer}"),
  "bar.as-named": N_("as {viewer} ({name})"),
  "bar.version": N_("version {version}"),
  "bar.over": N_("game over"),
  "bar.waiting": N_("waiting for {seat}"),
  "bar.lobby": N_("Lobby"),
  "live.on": N_("live"),
  "live.off": N_("not connected"),
  "live.ended": N_("stream ended"),
  "live.reconnecting": N_("reconnecting"),
  "live.damaged": N_("damaged"),
  "bar.language": N_("Language"),
  "label.close": N_("close"),
  "label.channel": N_("channel"),
  "label.version": N_("version"),
  "lobby.by-token.placeholder": N_("token"),

  // -- cards
  "stat.cost": N_("cost"),
  "stat.cost.title": N_("cost"),
  "stat.threat": N_("threat"),
  "stat.threat.title": N_("threat strength"),
  "stat.engage": N_("engage"),
  "stat.engage.title": N_("engagement cost"),
  "stat.will": N_("will"),
  "stat.will.title": N_("willpower"),
  "stat.atk": N_("atk"),
  "stat.atk.title": N_("attack strength"),
  "stat.def": N_("def"),
  "stat.def.title": N_("defense strength"),
  "stat.hp": N_("hp"),
  "stat.hp.title": N_("hit points"),
  "stat.quest": N_("quest"),
  "stat.quest.title": N_("quest points"),
  "icon.path": NP_("path icon", "path icons"),
  "icon.path.title": N_("path icons"),
  "icon.bg-attack": NP_("bg attack icon", "bg attack icons"),
  "icon.bg-attack.title": N_("battleground attack icons"),
  "icon.bg-defense": NP_("bg defense icon", "bg defense icons"),
  "icon.bg-defense.title": N_("battleground defense icons"),
  "icon.lead-attack": NP_("lead attack icon", "lead attack icons"),
  "icon.lead-attack.title": N_("leadership attack icons"),
  "icon.lead-defense": NP_("lead defense icon", "lead defense icons"),
  "icon.lead-defense.title": N_("leadership defense icons"),
  "token.damage": N_("{n} damage"),
  "token.left": N_("{n} hp left"),
  "token.resources": N_("{n} resources"),
  "token.progress": N_("{n} progress"),
  "token.other-groups.damage": N_("{n} damage by the other groups"),
  "token.other-groups.progress": N_("{n} progress by the other groups"),
  "token.exhausted": N_("exhausted"),
  "token.committed": N_("committed"),
  "token.shadow": N_("{n} face-down shadow"),
  "token.reserved": N_("reserved"),
  "card.attached": N_("attached"),
  "card.shadows": N_("shadow cards"),
  "card.items": N_("items"),
  "card.paths": N_("playable on paths numbered {paths}"),
  "card.empty": N_("none"),

  // -- the LCG table
  "lcg.round": N_("Round {round} · {phase} phase"),
  "lcg.setup": N_("Setup"),
  "zone.quest": N_("Quest"),
  "zone.quest.stage": N_("stage {stage}"),
  "zone.active": N_("Active location"),
  "zone.staging": N_("Staging area"),
  "zone.revealed": N_("Revealed"),
  "zone.heroes": N_("Heroes"),
  "zone.allies": N_("Allies"),
  "zone.engaged": N_("Engaged enemies"),
  "zone.contract": N_("Contract"),
  "zone.hand": N_("Hand"),
  "zone.hand.count": NP_("{n} card", "{n} cards"),
  "zone.offered": N_("The cards of your decision"),
  "pile.encounter": N_("encounter deck"),
  "pile.encounter-discard": N_("encounter discard"),
  "pile.victory": N_("victory display"),
  "pile.hand": N_("cards in hand"),
  "pile.deck": N_("deck"),
  "pile.discard": N_("discard"),
  "pile.face-down": N_(" (face down)"),
  "details.encounter-discard": N_("Encounter discard pile"),
  "details.victory": N_("Victory display"),
  "details.encounter-deck": N_("Encounter deck (in order)"),
  "details.discard": N_("{seat}'s discard pile"),
  "details.deck": N_("{seat}'s deck (in order)"),
  "player.you": N_(" (you)"),
  "player.threat": N_(" threat {threat}"),
  "player.first": N_("first player"),
  "player.eliminated": N_("eliminated"),
  "player.bot": N_("{bot} bot"),
  "player.shadow-bot": N_("Shadow bot (the rules)"),
  "player.open": N_("open seat"),

  // -- the War of the Ring table
  "team.free": N_("Free Peoples"),
  "team.shadow": N_("Shadow"),
  "team.score": N_("{team}: {score} VP"),
  "team.corruption": N_(" corruption {n}"),
  "team.face-down-paths": N_(" {n} face-down paths"),
  "team.nothing-scored": N_("nothing scored"),
  "wotr.round": N_("{scenario} · round {round} · {step} step"),
  "wotr.title": N_("War of the Ring"),
  "wotr.path": N_("Path {n}"),
  "wotr.battlegrounds": N_("Battlegrounds"),
  "wotr.path-deck": N_("path {n} deck"),
  "wotr.battleground-deck": N_("{side} battleground deck"),
  "wotr.effects": N_("lasting effects: {effects}"),
  "wotr.combat": N_("Combat ({kind}) on {location}: {attackers} attack {attack} against defense {defense}; {remaining} to go"),
  "wotr.a-location": N_("a location"),
  "wotr.reserve": N_("Reserve"),
  "wotr.top": N_("Top of deck"),
  "wotr.aside": N_("Set aside"),
  "wotr.starting": N_("starting"),
  "wotr.to-act": N_("to act"),
  "wotr.ring": N_("ring {n}"),
  "wotr.carryover": N_("carryover {n}"),
  "wotr.cycle": N_("cycle pile"),
  "wotr.eliminated": N_("eliminated pile"),
  "wotr.set-aside": N_("set aside"),
  "wotr.cycle-of": N_("{seat}'s cycle pile"),
  "wotr.eliminated-of": N_("{seat}'s eliminated pile"),
  "location.path": N_("path {n}"),
  "location.battleground": N_("{deck} battleground"),
  "location.vp": N_("VP"),
  "location.defense": N_("defense"),
  "location.attack-tokens": N_("attack tokens"),
  "location.defense-tokens": N_("defense tokens"),
  "location.defended": N_("defended by {cards}"),
  "location.attacked": N_("attacked by {cards}"),
  "location.ignored": N_("its defense is ignored"),
  "combat.printed": N_("printed defense {n}"),
  "combat.printed-ignored": N_("printed defense ignored"),
  "combat.attack-tokens": NP_("{n} attack token", "{n} attack tokens"),
  "combat.defense-tokens": NP_("{n} defense token", "{n} defense tokens"),
  "combat.leadership": N_("{card}'s leadership {n} (supported by {by})"),
  "combat.support": N_("{card} {n} while supporting {by}"),
  "combat.text": N_("{card} {n} (its text)"),
  "combat.card": N_("{card} {n}"),
  "combat.wielded": N_("{card} {n} (wielded by {by})"),
  "combat.a-card": N_("a card"),
  "combat.none": N_("none"),
  "combat.takes": N_("the {team} would take it"),
  "combat.nobody": N_("nobody would take it"),
  "combat.corruption": N_(" and {n} corruption"),
  "combat.now": N_("If fought now: {attackers} attack {attack} against {defenders} defense {defense} + cards {cards}: {outcome}{corruption}"),
  "combat.attack-sum": N_("attack {n} = {parts}"),
  "combat.defense-sum": N_("defense {n} = {parts}"),
  "combat.defenders-sum": N_("defending cards {n} = {parts}"),
  "game.over": N_("Game over: {result}{winner}{reason}"),

  // -- the decision
  "decision.yours": N_("Your decision: "),
  "decision.theirs": N_("{seat} decides: "),
  "decision.waiting": N_("Waiting for {seat}."),
  "decision.about": N_("about"),
  "decision.confirm": N_("Confirm"),
  "decision.choose": N_("choose {n}"),
  "decision.choose-range": N_("choose {min} to {max}"),
  "decision.choose-error": N_("choose {range} options ({n} chosen)"),
  "decision.order": N_("Confirm order"),
  "decision.order-first": N_("put every option in order first"),
  "decision.again": N_("Start again"),
  "decision.number": N_("Confirm ({min} to {max})"),
  "decision.response": N_("You have a response: {prompt}"),
  "decision.auto-pass-on": N_("Auto-pass: on"),
  "decision.auto-pass-off": N_("Auto-pass: off"),
  "decision.auto-pass.title": N_("the server passes your action windows for you (kept with the game)"),
  "decision.take-back": N_("Take back my last decision"),
  "decision.take-back.title": N_("the other seats agree (or the referee allows it); the game as played is kept"),

  // -- the value of each answer
  "values.ask": N_("Value the answers"),
  "values.ask-seat": N_("Value the answers (what {seat} knows)"),
  "values.ask-true": N_("Value with the true cards"),
  "values.searching": N_(" searching…"),
  "values.bar": N_("{value} [{low} – {high}], {n} rollouts"),
  "values.true": N_("with the true hidden cards"),
  "values.knows": N_("from what {seat} knows"),
  "values.note": N_(" chance {seat}'s side wins after each answer, {whose} ({n} rollouts, 95% interval):"),

  // -- take-backs
  "takeback.asked": N_("You asked to take back your decision of version {at}: waiting for {seats} to agree, or for the referee."),
  "takeback.ask": N_("{who} asks to take back the decision of version {at}."),
  "takeback.agreed": N_("Agreed so far: {seats}."),
  "takeback.agree": N_("Agree"),
  "takeback.allow": N_("Allow it"),
  "takeback.referee": N_("Take back the last decision of"),
  "takeback.referee-go": N_("Take back"),
  "takeback.moved": N_("{seat} took back the decision asked at version {at}: play goes on in this game."),
  "takeback.kept": N_("The game as it was played is kept:"),
  "takeback.open-kept": N_("open it"),
  "takeback.forked": N_("This game was forked from another at event {at}:"),
  "takeback.left": N_("Play went on in another game (a take-back):"),
  "takeback.go": N_("go there"),

  // -- the timeline and the desk
  "timeline.title": N_("Timeline"),
  "timeline.to-live": N_("Back to now"),
  "timeline.fork": N_("Fork here"),
  "timeline.verify": N_("Verify"),
  "timeline.verify.title": N_("check the hash chain and re-execute the decisions"),
  "explain.title": N_("Why"),
  "timeline.past": N_("The table at version {at} of {latest}, as {viewer} saw it. Decisions are made on the table of now."),
  "verify.running": N_("verifying…"),
  "verify.ok": N_("ok: {n} events"),
  "verify.failed": N_("FAILED: {reason}"),
  "verify.show": N_(" (show event {n})"),
  "verify.banner": N_("This game's record does not verify: {text}"),
  "fork.done": N_("Forked at event {at}: game {game}. Open it as (the tokens are shown once):"),
  "explain.event": N_("event {seq}"),
  "explain.by-card": N_(" by {card}"),
  "export.button": N_("Export the record"),
  "export.title": N_("the game's record (JSON Lines): westmarch verify FILE checks it offline"),
  "export.running": N_("exporting…"),
  "export.done": N_("{lines} lines: "),
  "export.save": N_("save the record"),

  // -- table talk
  "talk.title": N_("Table talk"),
  "talk.send": N_("Send"),
  "talk.placeholder": N_("say something"),
  "talk.channel.table": N_("the table"),
  "talk.channel.epic": N_("every group"),
  "talk.channel.watchers": N_("spectator and referee"),
  "talk.none": N_("nothing said yet"),
  "talk.seats": N_("Seats"),
  "talk.name": N_("Your name"),
  "talk.name.save": N_("Save"),

  // -- the lobby
  "lobby.title": N_("Westmarch"),
  "lobby.intro": N_("Start a game with friends or bots, join an open one, or come back to yours."),
  "lobby.name": N_("Your name"),
  "lobby.my-games": N_("My games"),
  "lobby.my-games.none": N_("No games in this browser yet."),
  "lobby.my-games.forget": N_("Forget"),
  "lobby.my-games.open": N_("Open"),
  "lobby.state.you": N_("waiting for you"),
  "lobby.state.others": N_("waiting for {seat}"),
  "lobby.state.over": N_("over: {result}"),
  "lobby.state.error": N_("cannot be opened: {error}"),
  "lobby.state.loading": N_("…"),
  "lobby.open-games": N_("Open games"),
  "lobby.open-games.none": N_("No game has an open seat just now."),
  "lobby.open-games.private": N_("This server lists no games: a game is joined by its link."),
  "lobby.open-games.refresh": N_("Refresh"),
  "lobby.join": N_("Join as {seat}"),
  "lobby.seat-open": N_("{seat}: open"),
  "lobby.seat-named": N_("{seat}: {name}"),
  "lobby.seat-bot": N_("{seat}: {bot} bot"),
  "lobby.new": N_("New game"),
  "lobby.game": N_("Game"),
  "lobby.scenario": N_("Scenario"),
  "lobby.difficulty": N_("Difficulty"),
  "lobby.players": N_("Players"),
  "lobby.epic": N_("Epic Multiplayer: groups that share the global values"),
  "lobby.groups": N_("Groups"),
  "lobby.group": N_("Group {n}"),
  "lobby.group-players": N_("players in group {n}"),
  "lobby.against-shadow": N_("Against the Shadow: the rules play the Shadow seats"),
  "lobby.listed": N_("List this game in the lobby (its open seats can be joined by anyone)"),
  "lobby.seat": N_("Seat {seat}"),
  "lobby.who": N_("Who plays it"),
  "lobby.who.me": N_("me"),
  "lobby.who.link": N_("a person I send the link to"),
  "lobby.who.open": N_("anyone from the lobby"),
  "lobby.who.bot": N_("bot: {bot}"),
  "lobby.who.shadow": N_("Shadow bot (the rules)"),
  "lobby.person-name": N_("their name (optional)"),
  "lobby.deck": N_("Deck"),
  "lobby.deck.default": N_("the ready-made deck of the heroes"),
  "lobby.deck.own": N_("my own deck (paste or upload)"),
  "lobby.deck.paste": N_("A RingsDB deck (JSON), an OCTGN .o8d or a list (\"3x Guard of the Citadel\")"),
  "lobby.deck.upload": N_("or upload a file"),
  "lobby.deck.checking": N_("reading the deck…"),
  "lobby.deck.ok": N_("{format}: {heroes}; {n} cards"),
  "lobby.deck.refused": N_("This deck would be refused:"),
  "lobby.heroes": N_("Heroes"),
  "lobby.heroes.help": N_("names, comma-separated (empty: the deck's, or a default lineup)"),
  "lobby.contract": N_("Contract"),
  "lobby.contract.none": N_("none"),
  "lobby.create": N_("Create the game"),
  "lobby.creating": N_("creating…"),
  "lobby.refused": N_("Nothing was created: {message}"),
  "lobby.part": N_("Refused here: {message}"),
  "lobby.created": N_("Created. Send each seat its link (each is shown only now, and is kept in this browser's games):"),
  "lobby.link.seat": N_("{seat}"),
  "lobby.link.spectator": N_("spectator"),
  "lobby.link.referee": N_("referee"),
  "lobby.link.organizer": N_("organizer's sheet"),
  "lobby.link.group": N_("group {n}: {seat}"),
  "lobby.link.open": N_("open"),
  "lobby.link.copy": N_("copy"),
  "lobby.link.copied": N_("copied"),
  "lobby.by-token": N_("Open a table by its token"),
  "lobby.by-token.help": N_("Paste the token of a seat, the spectator or the referee. It stays in this page's address after #, which the browser never sends to the server."),
  "lobby.by-token.open": N_("Open"),
  "lobby.back": N_("Lobby"),
  "lobby.name-needed": N_("type your name first"),

  // -- the organizer's sheet
  "epic.title": N_("Epic event {id}"),
  "epic.totals": N_("{key}: {counted} of {total}"),
  "epic.group": N_("group {n}: {players} players, {difficulty}; round {round}, stage {stage}{result}"),
  "epic.result": N_(", {result}"),
};

// Words the server sends as keys (a phase, a step, a difficulty, a bot): shown through
// these, or as sent when there is no entry.
const VALUE_PHRASES = {
  "phase.resource": N_("resource"),
  "phase.planning": N_("planning"),
  "phase.quest": N_("quest"),
  "phase.travel": N_("travel"),
  "phase.encounter": N_("encounter"),
  "phase.combat": N_("combat"),
  "phase.refresh": N_("refresh"),
  "step.location": N_("location"),
  "step.action": N_("action"),
  "step.combat": N_("combat"),
  "step.victory": N_("victory"),
  "step.draw": N_("draw"),
  "difficulty.standard": N_("standard"),
  "difficulty.easy": N_("easy"),
  "difficulty.hard": N_("hard"),
  "difficulty.challenging": N_("challenging"),
  "bot.random": N_("random"),
  "bot.greedy": N_("greedy"),
  "bot.search": N_("search"),
  "game.lcg": N_("The Lord of the Rings: The Card Game"),
  "game.wotr": N_("War of the Ring: The Card Game"),
  "sphere.leadership": N_("leadership"),
  "sphere.tactics": N_("tactics"),
  "sphere.spirit": N_("spirit"),
  "sphere.lore": N_("lore"),
  "sphere.neutral": N_("neutral"),
  "sphere.baggins": N_("Baggins"),
  "type.hero": N_("hero"),
  "type.ally": N_("ally"),
  "type.attachment": N_("attachment"),
  "type.event": N_("event"),
  "type.enemy": N_("enemy"),
  "type.location": N_("location"),
  "type.treachery": N_("treachery"),
  "type.objective": N_("objective"),
  "type.quest": N_("quest"),
  "type.setup": N_("setup"),
  "type.contract": N_("contract"),
  "type.treasure": N_("treasure"),
  "type.ship-objective": N_("ship-objective"),
  "type.ship-enemy": N_("ship-enemy"),
  "type.character": N_("character"),
  "type.army": N_("army"),
  "type.item": N_("item"),
  "faction.dunedain": N_("Dúnedain"),
  "faction.dwarf": N_("Dwarf"),
  "faction.elf": N_("Elf"),
  "faction.hobbit": N_("Hobbit"),
  "faction.isengard": N_("Isengard"),
  "faction.monstrous": N_("Monstrous"),
  "faction.mordor": N_("Mordor"),
  "faction.rohan": N_("Rohan"),
  "faction.southron": N_("Southron"),
  "faction.wizard": N_("Wizard"),
  "ring.ready": N_("ready"),
  "ring.spent": N_("spent"),
  "ring.used": N_("used"),
  "combat-kind.path": N_("path"),
  "combat-kind.battleground": N_("battleground"),
  "scenario.trilogy": N_("Trilogy"),
  "scenario.fellowship": N_("The Fellowship of the Ring"),
  "scenario.two-player-duel": N_("Two-Player Duel"),
  "scenario.three-player-duel": N_("Three-Player Duel"),
  "result.won": N_("won"),
  "result.lost": N_("lost"),
  "result.free": N_("Free Peoples"),
  "result.shadow": N_("Shadow"),
  "winner.players": N_("the players"),
  "winner.free": N_("Free Peoples"),
  "winner.shadow": N_("Shadow"),
  "reason.threat": N_("threat too high"),
  "reason.heroes": N_("every hero gone"),
  "reason.no-ship": N_("no ship left"),
  "reason.captain-of-the-haven": N_("the captain of the haven"),
  "reason.sudden-death": N_("sudden death"),
  "reason.final-score": N_("final score"),
  "reason.tie-goes-to-shadow": N_("a tie goes to the Shadow"),
  "reason.dreadnaught-destroyed": N_("the Dreadnaught destroyed"),
  "reason.ungoliants-spawn-defeated": N_("Ungoliant's Spawn defeated"),
  "reason.beorns-path": N_("Beorn's Path completed"),
  "reason.out-of-the-dungeons": N_("out of the dungeons"),
  "reason.inside-information": N_("Inside Information"),
  "reason.ambush-on-the-shore": N_("Ambush on the Shore completed"),
  "reason.bilbo-left-play": N_("Bilbo left play"),
  "total.progress": N_("progress"),
  "total.damage": N_("damage"),
};
Object.assign(PHRASES, VALUE_PHRASES);

// -- the language of the page --------------------------------------------------------------

// The languages the page speaks, each by its own name (the picker shows these).
const LANGUAGES = { en: "English", es: "Español", ja: "日本語" };
const LANGUAGE_KEY = "westmarch.language";
// Which plural form a count takes, as each catalog's Plural-Forms header says
// (tests/test_web_i18n.py checks that they agree).
const PLURAL_FORM = { en: (n) => (n === 1 ? 0 : 1), es: (n) => (n === 1 ? 0 : 1), ja: () => 0 };

let LANG = "en";
let CATALOG = {}; // English text -> its translation (a counted text: its forms)
let CARD_NAMES = {}; // a card's English name -> its published name in the page's language
let TRAITS = {}; // a printed trait -> the published edition's word for it

// Marks a text for the catalog; it is translated where it is shown (t).
function N_(text) {
  return text;
}

// Marks a counted text: its English singular and plural.
function NP_(one, other) {
  return { one, other };
}

// The language to speak: the one picked in this browser, else the one the server chose
// from the browser's Accept-Language (<html lang>), else English.
function pageLanguage() {
  let kept = null;
  try {
    kept = localStorage.getItem(LANGUAGE_KEY);
  } catch (error) {
    kept = null;
  }
  if (kept && LANGUAGES[kept]) return kept;
  const offered = document.documentElement.lang;
  return LANGUAGES[offered] ? offered : "en";
}

// Speak lang: its catalog from the server (English needs none).
async function useLanguage(lang) {
  LANG = LANGUAGES[lang] ? lang : "en";
  document.documentElement.lang = LANG;
  CATALOG = {};
  CARD_NAMES = {};
  TRAITS = {};
  if (LANG === "en") return;
  try {
    const answer = await fetch(`/locale/${LANG}.json`);
    if (answer.ok) {
      const got = await answer.json();
      CATALOG = got.messages || {};
      CARD_NAMES = got.card_names || {};
      TRAITS = got.traits || {};
    }
  } catch (error) {
    CATALOG = {};
  }
}

// A printed trait as the page shows it: the published edition's word where known.
function traitName(english) {
  return TRAITS[english] || english;
}

// A card's name as the page shows it: a published edition's in the page's language where
// one is known, else the English name (which stays the card's data-name everywhere).
function cardName(english) {
  return CARD_NAMES[english] || english;
}

// Keep lang for this browser and show the page again in it (the token stays in the address).
function pickLanguage(lang) {
  try {
    localStorage.setItem(LANGUAGE_KEY, lang);
  } catch (error) {
    // a browser that keeps nothing: the page is shown in lang this once
  }
  location.reload();
}

// The picker in the bar, on every page.
function wireLanguagePicker() {
  const picker = $("language");
  picker.replaceChildren(
    ...Object.entries(LANGUAGES).map(([code, name]) => {
      const option = document.createElement("option");
      option.value = code;
      option.lang = code;
      option.textContent = name;
      return option;
    })
  );
  picker.value = LANG;
  picker.addEventListener("change", () => pickLanguage(picker.value));
}

// A text of the table in the page's language, its {places} filled from params.
function t(key, params) {
  const entry = PHRASES[key];
  if (entry === undefined) return key;
  let text;
  if (typeof entry === "object") {
    const n = params && typeof params.n === "number" ? params.n : 0;
    const forms = CATALOG[entry.one];
    text = Array.isArray(forms) && forms.length ? forms[Math.min(PLURAL_FORM[LANG](n), forms.length - 1)] : n === 1 ? entry.one : entry.other;
  } else {
    const found = CATALOG[entry];
    text = typeof found === "string" && found ? found : entry;
  }
  return text.replace(/\{(\w+)\}/g, (whole, name) => (params && params[name] !== undefined ? String(params[name]) : whole));
}

// The LCG's keywords as printed (the Spanish edition's words, seed 002: Oleada, Maldito):
// a card's keyword in the page's language, its number kept ("Doomed 1", "Archery 1 per player").
const KEYWORDS = {
  surge: N_("Surge"),
  doomed: N_("Doomed"),
  indestructible: N_("Indestructible"),
  sentinel: N_("Sentinel"),
  ranged: N_("Ranged"),
  archery: N_("Archery"),
  boarding: N_("Boarding"),
  massive: N_("Massive"),
  pillage: N_("Pillage"),
  restricted: N_("Restricted"),
  guarded: N_("Guarded"),
  "immune to player card effects": N_("Immune to player card effects"),
};
PHRASES["keyword.per-player"] = N_("{keyword} {n} per player");
PHRASES["keyword.numbered"] = N_("{keyword} {n}");

function keywordWords(keyword) {
  const found = /^(.*?)(?: (\d+|X)( per player)?)?\.?$/i.exec(keyword);
  const english = found ? KEYWORDS[found[1].toLowerCase()] : undefined;
  if (english === undefined) return keyword;
  const word = typeof CATALOG[english] === "string" && CATALOG[english] ? CATALOG[english] : english;
  if (!found[2]) return word;
  return t(found[3] ? "keyword.per-player" : "keyword.numbered", { keyword: word, n: found[2] });
}

// A value the server sends as a key (a phase, a step, a difficulty, a bot's kind), in words;
// shown as otherwise (the value itself) when the table has no words for it.
function tValue(kind, value, otherwise = value) {
  const key = `${kind}.${value}`;
  return PHRASES[key] === undefined ? otherwise : t(key);
}

// Who a viewer is, in words: a seat by its name, the spectator and the referee by theirs.
function viewerName(viewer) {
  if (viewer === "spectator") return t("lobby.link.spectator");
  if (viewer === "referee") return t("lobby.link.referee");
  return viewer;
}

// The page's own words written in index.html, from the table (data-phrase: the text,
// data-phrase-placeholder, data-phrase-title and data-phrase-label: those attributes,
// the last aria-label).
function translatePage() {
  for (const el of document.querySelectorAll("[data-phrase]")) el.textContent = t(el.dataset.phrase);
  for (const el of document.querySelectorAll("[data-phrase-placeholder]")) el.placeholder = t(el.dataset.phrasePlaceholder);
  for (const el of document.querySelectorAll("[data-phrase-title]")) el.title = t(el.dataset.phraseTitle);
  for (const el of document.querySelectorAll("[data-phrase-label]")) el.setAttribute("aria-label", t(el.dataset.phraseLabel));
}
