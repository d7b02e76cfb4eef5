"""The effect vocabulary: the closed set of steps card texts and rules are written in.

Each function returns a program node. Arguments that depend on the table are functions
of the runtime (``Get``); plain values are accepted where a text prints a number. A text
runs with ``self`` (the card), ``player`` (the seat using or playing it) and, for texts
about a location, ``location`` bound.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import cast

from domain.kernel.choices import card_question
from domain.kernel.choices import chosen as chosen
from domain.kernel.decisions import Kind, Option
from domain.kernel.events import Event
from domain.kernel.flow import Ask, Call, Decide, Do, ForEach, If, Let, Node, Seq
from domain.kernel.runtime import Runtime

# The game-agnostic steps, re-exported: card texts import their whole vocabulary from here.
from domain.kernel.steps import Get, resolve
from domain.kernel.steps import card_var as card_var
from domain.kernel.steps import emit as emit
from domain.kernel.steps import var as var
from domain.wotr import events as ev
from domain.wotr.rules import table
from domain.wotr.rules.table import cards_in
from domain.wotr.state import Seat, Team, Uid, WotrState


def st(rt: Runtime) -> WotrState:
    """The War of the Ring state the runtime is running."""
    return cast(WotrState, rt.state)


SELF: Get[Uid] = card_var("self")
PLAYER: Get[Seat] = var("player")


def wielder(rt: Runtime) -> Uid | None:
    """The character the item whose text is running is on (None if it is on none)."""
    return st(rt).cards[SELF(rt)].wielder


def card_option(s: WotrState, uid: Uid, prefix: str = "") -> Option:
    label = prefix + table.name(s, uid)
    owner = s.cards[uid].owner
    if owner:
        label += f" ({owner})"
    return Option(str(uid), label, uid)


def choose(
    seat: Get[Seat],
    prompt: str,
    candidates: Callable[[Runtime], Iterable[Uid]],
    bind: str,
    then: Node | None,
    *,
    count: int | Get[int] = 1,
    optional: bool = False,
    otherwise: Node | None = None,
    rule: str | None = None,
) -> Decide:
    """``seat`` chooses ``count`` of ``candidates`` (all of them if fewer exist).

    With ``optional`` the seat may choose none. Nothing is asked when there is no
    candidate (``otherwise`` runs then) or when the choice is forced.
    """

    ask = card_question(
        seat, prompt, candidates, lambda rt, u: card_option(st(rt), u), count, optional, skip_if_none_wanted=True
    )

    def forced(rt: Runtime) -> Ask | None:
        asked = ask(rt)
        if asked is not None and asked.kind is Kind.MANY and asked.min == len(asked.options):
            return Ask(asked.seat, asked.prompt, [Option(",".join(o.id for o in asked.options), "All")])
        return asked

    return Decide(forced, bind, then, otherwise=otherwise, auto_single=True, rule=rule)


def yes_no(seat: Get[Seat], prompt: str, then: Node, rule: str | None = None) -> Decide:
    """Ask ``seat`` whether to do an optional thing ("you may")."""
    return Decide(
        lambda rt: Ask(seat(rt), prompt, [Option("yes", "Yes"), Option("no", "No")]),
        "use",
        If(lambda rt: rt.env["use"] == "yes", then),
        rule=rule,
    )


def each_player(side: Team, body: Node, rule: str | None = None) -> ForEach:
    """Run ``body`` for "each <side> player" (a lone Duel deck twice), bound to ``player``."""
    return ForEach(lambda rt: table.each_player(st(rt), side), "player", body, rule)


def faction_player(faction: str, body: Node, rule: str | None = None) -> Let:
    """Run ``body`` for "the <faction> player", if a seat holds that faction."""
    return Let(
        lambda rt: {"player": table.faction_player(st(rt), faction)},
        If(lambda rt: rt.env["player"] is not None, body),
        rule,
    )


# -- procedures cards call ---------------------------------------------------------------


def draw(seat: Get[Seat], count: int | Get[int]) -> Call:
    return Call("wotr.draw", lambda rt: {"player": seat(rt), "count": resolve(count, rt)})


def cycle_from_hand(seat: Get[Seat], count: int | Get[int] = 1) -> Call:
    """Cycle cards from hand (forsaking instead for each card the hand lacks)."""
    return Call("wotr.cycle-from-hand", lambda rt: {"player": seat(rt), "count": resolve(count, rt)})


def forsake(seat: Get[Seat]) -> Call:
    return Call("wotr.forsake", lambda rt: {"player": seat(rt)})


def eliminate(target: Get[Uid | None], how: str = "text") -> Call:
    """Eliminate a card (with its items), minding "cycle instead" texts."""
    return Call(
        lambda rt: "wotr.eliminate" if target(rt) is not None else None,
        lambda rt: {"card": target(rt), "how": how},
    )


def cycle_unit(target: Get[Uid]) -> Do:
    """Cycle a card in play with its items (each to its owner's cycle pile)."""
    return emit(lambda rt: ev.CardsCycled(cards=tuple(table.unit(st(rt), target(rt)))))


def eliminate_self_unit() -> Do:
    """The card eliminates itself as a cost (its items go with it)."""
    return emit(lambda rt: ev.CardsEliminated(cards=tuple(table.unit(st(rt), SELF(rt)))))


def take(seat: Get[Seat], target: Get[Uid]) -> Call:
    """Take a named card into the hand (reshuffling the deck if it came from there)."""
    return Call("wotr.take", lambda rt: {"player": seat(rt), "card": target(rt)})


def search(
    seat: Get[Seat],
    prompt: str,
    candidates: Callable[[Runtime], Iterable[Uid]],
    *,
    optional: bool = True,
    count: int = 1,
) -> Node:
    """Choose cards among ``candidates`` (in a deck or pile) and take them into hand."""
    return choose(
        seat,
        prompt,
        candidates,
        "found",
        ForEach(lambda rt: chosen(rt, "found"), "taken", take(seat, card_var("taken"))),
        optional=optional,
        count=count,
    )


def pile(
    seat: Get[Seat], name: str, *names: str, keyword: str = "", faction: str = "", type_: str = ""
) -> Get[list[Uid]]:
    """The cards in ``seat``'s pile ``name`` (``deck``, ``cycle``) matching names or traits."""

    def get(rt: Runtime) -> list[Uid]:
        s = st(rt)
        out = []
        for uid in cards_in(s, f"{seat(rt)}.{name}"):
            d = table.defn(s, uid)
            if names and d.name not in names:
                continue
            if keyword and not d.has(keyword):
                continue
            if faction and d.faction != faction:
                continue
            if type_ and d.type != type_:
                continue
            out.append(uid)
        return out

    return get


def add_tokens(location: Get[Uid | None], attack: int = 0, defense: int = 0) -> Do:
    def make(rt: Runtime) -> Event | None:
        where = location(rt)
        if where is None or where not in table.active_locations(st(rt)):
            return None
        return ev.TokensAdded(location=where, attack=attack, defense=defense)

    return emit(make)


def active_path(rt: Runtime) -> Uid | None:
    return table.active_path(st(rt))


def corruption(amount: int | Get[int]) -> Do:
    """Add corruption tokens (a negative amount removes them; never below none)."""

    def make(rt: Runtime) -> Event | None:
        n = resolve(amount, rt)
        n = max(n, -st(rt).corruption)
        return ev.CorruptionChanged(amount=n) if n else None

    return emit(make)


def activate(target: Get[Uid | None]) -> Call:
    """Activate (or reactivate) a location: a path replaces the active one, which is
    fought first; an already active battleground stays as it is."""
    return Call(
        lambda rt: "wotr.activate" if target(rt) is not None else None,
        lambda rt: {"location": target(rt)},
    )


def move(seat: Get[Seat], card: Get[Uid], location: Get[Uid]) -> Call:
    return Call("wotr.move", lambda rt: {"player": seat(rt), "card": card(rt), "location": location(rt)})


def ability_used(name: str = "action") -> Do:
    """Record that the seat used this card's text (the cause of what follows)."""
    return emit(lambda rt: ev.AbilityUsed(card=SELF(rt), player=PLAYER(rt), ability=name))


def draw_play_cycle(
    seat: Get[Seat],
    count: int,
    kind: str,
    plays: int = 1,
    where: str = "any",
    eliminate_one: bool = False,
) -> Call:
    """Draw ``count`` cards; (eliminate 1 of them;) you may play up to ``plays`` of kind
    ``kind`` from among them (``where``: ``any``, ``reserve``, or ``at:<location code>``);
    cycle the rest. The leftovers cycled pay for the plays (rules §5.1)."""
    return Call(
        "wotr.draw-play-cycle",
        lambda rt: {
            "player": seat(rt),
            "count": count,
            "kind": kind,
            "plays": plays,
            "where": where,
            "eliminate": eliminate_one,
        },
    )


def round_effect(name: str) -> Do:
    return emit(lambda rt: ev.RoundEffectBegan(effect=name))


def same_number_paths(rt: Runtime) -> list[Uid]:
    """Paths of the active path's number not yet activated ("a different path with the
    same number")."""
    s = st(rt)
    path = table.active_path(s)
    if path is None:
        return []
    return list(cards_in(s, f"paths.{table.loc(s, path).number}"))


def next_number_paths(rt: Runtime) -> list[Uid]:
    """Paths numbered one higher than the active path ("the next higher number")."""
    s = st(rt)
    path = table.active_path(s)
    if path is None:
        return []
    return list(cards_in(s, f"paths.{table.loc(s, path).number + 1}"))


def activate_chosen_path(
    seat: Get[Seat],
    candidates: Callable[[Runtime], list[Uid]],
    prompt: str,
    then: Node | None = None,
    optional: bool = False,
) -> Decide:
    """The seat chooses which eligible path to activate (rules §4.1: a text lets you choose);
    ``then`` runs once the new path is active."""
    body: Node = activate(card_var("new-path")) if then is None else Seq(activate(card_var("new-path")), then)
    return choose(
        seat, prompt, candidates, "new-path", If(lambda rt: bool(chosen(rt, "new-path")), body), optional=optional
    )


# -- helpers for card texts --------------------------------------------------------------


def on_location(code: str, icon: str, amount: int = 1) -> Callable[[WotrState, Uid, str], int]:
    """An icon hook: ``amount`` more ``icon`` while the card is on the location ``code``."""

    def hook(s: WotrState, uid: Uid, which: str) -> int:
        return amount if which == icon and s.cards[uid].zone == f"at.{code}" else 0

    return hook


def cycle_self() -> Do:
    """The card cycles itself (with its items) as the cost of its text."""
    return cycle_unit(SELF)


def location(rt: Runtime) -> Uid | None:
    value = rt.env.get("location")
    return int(value) if value is not None else None


def location_code(rt: Runtime) -> str:
    where = location(rt)
    return st(rt).cards[where].code if where is not None else ""


BATTLEGROUND_ZONES = ("bg.free", "bg.shadow", "battlegrounds", "free.score", "shadow.score", "out")


def battlegrounds(test: Callable[[WotrState, Uid], bool]) -> Callable[[Runtime], list[Uid]]:
    """Battlegrounds a text may activate or reactivate: in a deck, a scoring area or active."""

    def get(rt: Runtime) -> list[Uid]:
        s = st(rt)
        return [
            u
            for zone in BATTLEGROUND_ZONES
            for u in cards_in(s, zone)
            if table.loc(s, u).kind == "battleground" and test(s, u)
        ]

    return get


def showing(faction: str) -> Callable[[WotrState, Uid], bool]:
    """A battleground showing ``faction`` ("a Dúnedain battleground")."""
    return lambda s, u: faction in table.loc(s, u).factions


def battleground_named(code: str, zones: tuple[str, ...] = BATTLEGROUND_ZONES) -> Get[Uid | None]:
    def get(rt: Runtime) -> Uid | None:
        s = st(rt)
        return next((u for z in zones for u in cards_in(s, z) if s.cards[u].code == code), None)

    return get


def _removed(rt: Runtime) -> Event | None:
    s = st(rt)
    uid = int(rt.env["gone"])
    return ev.CardsEliminated(cards=tuple(table.unit(s, uid)))


def remove(name: str) -> Node:
    """Remove a card from the game wherever it is (rules §7; a deck it was in is shuffled)."""

    def find(rt: Runtime) -> dict[str, object]:
        s = st(rt)
        found = [u for u in table.find(s, name) if not s.cards[u].zone.endswith(".eliminated")]
        uid = found[0] if found else None
        return {
            "gone": uid,
            "deck": s.cards[uid].zone if uid is not None and s.cards[uid].zone.endswith(".deck") else "",
        }

    def reshuffle(rt: Runtime) -> Event:
        zone = str(rt.env["deck"])
        return ev.DeckShuffled(zone=zone, order=tuple(rt.shuffle(cards_in(st(rt), zone))))

    return Let(
        find,
        If(
            lambda rt: rt.env["gone"] is not None,
            Seq(emit(_removed), If(lambda rt: bool(rt.env["deck"]), emit(reshuffle))),
        ),
    )


def activate_and_move(
    prompt: str,
    candidates: Callable[[Runtime], list[Uid]],
    mover: Get[Uid | None],
    optional_move: bool,
) -> Node:
    """Choose a battleground to activate or reactivate, then move ``mover`` there (a move
    by text: allowed even for a card played to reserve this round)."""
    move_there = move(PLAYER, lambda rt: cast(Uid, mover(rt)), card_var("target"))
    then = Seq(
        activate(card_var("target")),
        If(
            lambda rt: mover(rt) is not None and table.in_reserve(st(rt), cast(Uid, mover(rt))),
            yes_no(PLAYER, "Move it there?", move_there) if optional_move else move_there,
        ),
    )
    return choose(PLAYER, prompt, candidates, "target", then)
