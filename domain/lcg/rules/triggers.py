"""What each event sets off: framework checks, Forced effects, then Responses.

After every event the runtime calls :func:`after`, which pushes programs on the cursor.
The last pushed runs first, so the order of resolution is: framework checks (lethal
damage, 50 threat, a stage or location with enough progress), then Forced effects, then
Responses (FAQ 1.09: Forced effects resolve before Responses to the same moment). The
Forced effects of one moment resolve together, as do its Responses, in a chosen order,
each checked when its turn comes (:class:`~domain.kernel.flow.InChosenOrder`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache
from typing import Any, Final

from domain.kernel.decisions import Option
from domain.kernel.events import Event
from domain.kernel.flow import Ask, InChosenOrder, register
from domain.kernel.runtime import Runtime
from domain.lcg import encounter_events as xev
from domain.lcg import events as ev
from domain.lcg.cards import TEXTS, Trigger
from domain.lcg.effects import st
from domain.lcg.rules import attachments, table
from domain.lcg.rules.attachments import HOST_MAY_LEAVE
from domain.lcg.rules.procedures import explorable, stage_defeatable
from domain.lcg.rules.table import cards_in, seats_in_turn
from domain.lcg.state import SET_ASIDE_FACE_UP, LcgState, Seat, Uid

DESTROYING = "lcg.damage.destroy"
"""The rule of the destroy procedure (rules/procedures.py), which discards the card's
attachments before the card itself leaves play."""

ELIMINATION_THREAT = 50
"""Rules: a player whose threat reaches 50 is eliminated (seed 001: "Out: threat ≥ 50")."""

Check = Callable[[Runtime, Event], None]


def _check(rt: Runtime, program: str, event: Event, **args: object) -> None:
    """Queue a framework procedure, caused by ``event``."""
    rt.call(program, {**args, "_by": event.seq}, caller={})


def _damage(rt: Runtime, event: Event) -> None:
    assert isinstance(event, ev.DamageDealt)
    s = st(rt)
    if s.cards[event.card].damage >= table.hit_points(s, event.card):
        _check(rt, "lcg.destroy", event, card=event.card)


def _attachment_lost(rt: Runtime, event: Event) -> None:
    """A character whose damage reaches its hit points is destroyed whenever that happens
    (Core Set rulebook, Damage): an attachment that gave hit points (Citadel Plate) leaving
    play can do it as well as damage (Rules Reference, Restricted: discarding Citadel Plate
    can destroy its damaged hero)."""
    assert isinstance(event, ev.CardsDiscarded)
    s = st(rt)
    cards = s.cards
    if not any(table.definition_in(cards, u).type == "attachment" for u in event.cards):
        return
    if event.cause.rule == DESTROYING:
        # the attachments left with the card being destroyed: that destroy is under way, and a
        # second check here destroyed a hero twice (two CharacterDestroyed, a hero's attachment)
        return
    for uid in table.all_characters(s):
        damage = cards[uid].damage
        if damage and damage >= table.hit_points(s, uid):
            _check(rt, "lcg.destroy", event, card=uid)


ELIMINATION_REPLACEMENTS: list[Callable[[LcgState, str], str | None]] = []
"""Texts that replace a player's elimination by threat ("flip this contract instead"): each
gives the program to run instead, or None."""


def _threat(rt: Runtime, event: Event) -> None:
    assert isinstance(event, ev.ThreatRaised)
    player = st(rt).players[event.player]
    if player.threat >= ELIMINATION_THREAT and not player.eliminated:
        instead = next((p for r in ELIMINATION_REPLACEMENTS if (p := r(st(rt), event.player))), None)
        _check(rt, instead or "lcg.eliminate", event, player=event.player, reason="threat")


def _destroyed(rt: Runtime, event: Event) -> None:
    assert isinstance(event, ev.CharacterDestroyed)
    s = st(rt)
    owner = s.cards[event.card].owner
    if owner and table.definition_of(s, event.card).type == "hero" and not cards_in(s, f"{owner}.heroes"):
        _check(rt, "lcg.eliminate", event, player=owner, reason="heroes")


def _progress(rt: Runtime, event: Event) -> None:
    assert isinstance(event, ev.ProgressPlaced)
    s = st(rt)
    zone = s.cards[event.card].zone
    if explorable(s, event.card):
        _check(rt, "lcg.explore", event, card=event.card)
    elif zone == "quest" and stage_defeatable(s, event.card):
        _check(rt, "lcg.quest.advance", event, card=event.card)


def _defeated(rt: Runtime, event: Event) -> None:
    """A stage that an enemy in play held back (Beorn's Path) may fall once it is gone."""
    s = st(rt)
    stage = table.quest_card(s)
    if stage is not None and stage_defeatable(s, stage):
        _check(rt, "lcg.quest.advance", event, card=stage)


HOOKS: Final[dict[type[Event], list[Check]]] = {}
"""Checks a scenario's rules add, run like the framework checks (keywords such as
Boarding, per-round caps): each queues its own program when it applies."""

FRAMEWORK: Final[dict[type[Event], Check]] = {
    ev.DamageDealt: _damage,
    ev.CardsDiscarded: _attachment_lost,
    ev.ThreatRaised: _threat,
    ev.CharacterDestroyed: _destroyed,
    ev.ProgressPlaced: _progress,
    ev.EnemyDefeated: _defeated,
    ev.AttachmentPlayed: attachments.check_restricted,
    ev.AttachmentAttached: attachments.check_restricted,
    xev.ObjectiveClaimed: attachments.check_restricted,
}

# -- card triggers -----------------------------------------------------------------------

Listener = tuple[str, str, int, Trigger]  # code, kind ("forced"/"response"), index, trigger


@cache
def _listeners() -> dict[type[Event], list[Listener]]:
    """For each event type, its listeners: forced effects, then responses."""
    by_type: dict[type[Event], list[Listener]] = {}
    for kind in ("forced", "response"):
        for code, text in TEXTS.items():
            for i, trig in enumerate(text.forced if kind == "forced" else text.responses):
                for on in trig.on if isinstance(trig.on, tuple) else (trig.on,):
                    by_type.setdefault(on, []).append((code, kind, i, trig))
    return by_type


class _InGame:
    """The listeners of the cards of the game last asked about (:func:`_in_game`)."""

    def __init__(self) -> None:
        self.codes: frozenset[str] | None = None
        self.by_type: dict[type[Event], tuple[list[Listener], list[Listener]]] = {}


_IN_GAME: Final = _InGame()


def _in_game(s: LcgState) -> dict[type[Event], tuple[list[Listener], list[Listener]]]:
    """For each event type, the listeners among the game's cards (forced effects, then
    responses): a card not in the game never sets anything off, so its listeners are left
    out once per game instead of being looked at after every event. Kept while the game's
    codes are the same set (``table.codes_in_game``, new when a card joins the game)."""
    codes = table.codes_in_game(s)
    cached = _IN_GAME
    if cached.codes is not codes:
        by_type: dict[type[Event], tuple[list[Listener], list[Listener]]] = {}
        for on, listeners in _listeners().items():
            forced = [x for x in listeners if x[1] == "forced" and x[0] in codes]
            responses = [x for x in listeners if x[1] == "response" and x[0] in codes]
            if forced or responses:
                by_type[on] = (forced, responses)
        cached.codes, cached.by_type = codes, by_type
    return cached.by_type


def _subjects(event: Event) -> Iterator[Uid]:
    for field in ("card", "enemy"):
        value = getattr(event, field, None)
        if isinstance(value, int):
            yield value
    yield from getattr(event, "cards", ())


_SEAT_ZONES: dict[Seat, tuple[str, ...]] = {}
"""Each seat's zones whose cards listen, as keys (made once, not four strings an event)."""
_SHARED_ZONES = ("staging", "active", "quest", "attachments", "setup")


def _in_play(s: LcgState) -> list[Uid]:
    """The cards in play, in table order: each seat's heroes, allies, engaged enemies and
    contract from the first player, then the shared zones."""
    zones = s.zones
    out: list[Uid] = []
    for seat in seats_in_turn(s):
        keys = _SEAT_ZONES.get(seat)
        if keys is None:
            keys = _SEAT_ZONES[seat] = (f"{seat}.heroes", f"{seat}.allies", f"{seat}.engaged", f"{seat}.contract")
        for key in keys:
            found = zones.get(key)
            if found:
                out += found
    for key in _SHARED_ZONES:
        found = zones.get(key)
        if found:
            out += found
    return out


def _hands(s: LcgState) -> list[Uid]:
    return [u for seat in seats_in_turn(s) for u in cards_in(s, f"{seat}.hand")]


Due = list[Any]
"""A triggered ability waiting to resolve, as ``[n, card, kind, i, controller, bindings]``:
the ``n``-th of its moment, the card's ``i``-th trigger of ``kind`` ("forced" or
"response"), and what its event bound."""


Pool = tuple[list[Uid], set[str]]
"""The cards a trigger listens among (in table order), and the codes among them."""


def _pool(s: LcgState, event: Event, zone: str) -> Pool:
    if zone == "subject":
        uids = list(_subjects(event))
    elif zone == "hand":
        uids = _hands(s)
    elif zone == "set-aside":
        uids = list(cards_in(s, SET_ASIDE_FACE_UP))
    else:
        uids = _in_play(s)
    cards = s.cards
    return uids, {cards[uid].code for uid in uids}


_SEAT_PLAY: Final = frozenset(("heroes", "allies", "engaged", "contract"))
_SHARED_PLAY: Final = frozenset(_SHARED_ZONES)


def _listens_from(s: LcgState, zone: str, where: str) -> bool:
    """Whether a card lying in ``where`` is in the pool of a trigger of ``zone`` (not
    "subject"): the same cards as :func:`_pool` gathers, told from the card's zone."""
    if zone == "set-aside":
        return where == SET_ASIDE_FACE_UP
    if zone != "hand" and where in _SHARED_PLAY:
        return True
    seat, _, rest = where.partition(".")
    listens = rest == "hand" if zone == "hand" else rest in _SEAT_PLAY
    if not listens:
        return False
    player = s.players.get(seat)
    return player is not None and not player.eliminated and seat in s.order


def triggered(s: LcgState, event: Event, kind: str, pools: dict[str, Pool] | None = None) -> list[Due]:
    """The abilities of ``kind`` this event sets off, in table order (first player first).

    ``pools`` (shared by the forced and the response pass over one event) keeps each zone's
    cards and their codes: a listener whose card is not among them is skipped without
    looking at each card (an event type has up to a dozen listeners, the table 30 cards)."""
    listeners = _in_game(s).get(type(event))
    if listeners is None:
        return []
    return _triggered(s, event, kind, listeners[0] if kind == "forced" else listeners[1], pools)


def _triggered(
    s: LcgState, event: Event, kind: str, listeners: list[Listener], pools: dict[str, Pool] | None = None
) -> list[Due]:
    """:func:`triggered` among ``listeners`` (the game's of ``kind`` for the event's type)."""
    if pools is None:
        pools = {}
    out: list[Due] = []
    cards = s.cards
    for code, _, i, trig in listeners:
        zone = trig.zone
        if zone == "subject":
            pool = pools.get(zone)
            if pool is None:
                pool = pools[zone] = _pool(s, event, zone)
            if code not in pool[1]:
                continue
            uids = [u for u in pool[0] if cards[u].code == code]
        else:
            # the cards with the listener's code that lie in the zones it listens from; in
            # table order (the pool's) when there are several
            uids = [u for u in table.uids_of(s, code) if _listens_from(s, zone, cards[u].zone)]
            if not uids:
                continue
            if len(uids) > 1:
                pool = pools.get(zone)
                if pool is None:
                    pool = pools[zone] = _pool(s, event, zone)
                uids = [u for u in pool[0] if u in uids]
        for uid in uids:
            card = cards[uid]
            if table.blank(s, uid) or not trig.test(s, event, uid):
                continue
            seat = card.owner or table.holder(s, uid) or s.first
            out.append([len(out), uid, kind, i, seat, trig.bind(s, event, uid) if trig.bind is not None else {}])
    return out


def _ident(due: Due) -> str:
    """Its option id: by its place, not its card (a card in hand stays unnamed to others)."""
    return f"{due[2]}-{due[0]}"


def _controller(due: Due) -> Seat:
    return str(due[4])


def _trigger(s: LcgState, due: Due) -> Trigger:
    text = TEXTS[s.cards[due[1]].code]
    return (text.forced if due[2] == "forced" else text.responses)[due[3]]


def _can_resolve(rt: Runtime, due: Due) -> bool:
    """Checked when the ability's turn comes: its card is still where it listens from, a
    Response's controller is still in the game, and its condition (a cost it can pay, a
    target) holds now."""
    s = st(rt)
    trig = _trigger(s, due)
    uid = int(due[1])
    card = s.cards[uid]
    if due[2] == "response" and s.players[_controller(due)].eliminated:
        return False  # a Forced effect still resolves: the cards of an eliminated player leave
    if trig.zone == "play" and not table.is_in_play(s, uid):
        return False
    if trig.zone == "hand" and card.zone != f"{card.owner}.hand":
        return False
    if trig.zone == "set-aside" and card.zone != SET_ASIDE_FACE_UP:
        return False
    return trig.condition is None or trig.condition(s, uid)


def _chooser(s: LcgState, due: list[Due]) -> Seat:
    """Who orders them: the controller of them all, else the first player (FAQ 1.02)."""
    seats = {_controller(d) for d in due}
    if len(seats) == 1 and due[0][2] == "response":
        return seats.pop()
    return s.first


_KIND_NAMES = {"forced": "Forced effect", "response": "Response"}


def _ask_order(rt: Runtime, due: list[Due]) -> Ask:
    s = st(rt)
    seat = _chooser(s, due)
    several = len({_controller(d) for d in due}) > 1
    options = []
    for d in due:
        trig, owner = _trigger(s, d), _controller(d)
        if trig.zone == "hand" and owner != seat:  # another player's hand stays hidden
            options.append(Option(_ident(d), f"{owner}: a Response from hand"))
            continue
        label = trig.prompt or f"{table.name(s, d[1])}: {_KIND_NAMES[d[2]]}"
        options.append(Option(_ident(d), f"{owner}: {label}" if several else label, d[1]))
    if due[0][2] == "forced":
        prompt = "Forced effects due at once: the first player chooses which resolves next"
        return Ask(seat, prompt, options)
    if all(_controller(d) == seat and _trigger(s, d).optional for d in due):
        options.append(Option("none", "Use none of them"))
    return Ask(seat, "Responses to the same moment: choose which resolves next", options)


def _run(rt: Runtime, due: Due, by: str | None) -> tuple[str, dict[str, Any]]:
    """A response its controller chose in the ordering question is used without asking again."""
    _, uid, kind, i, seat, bound = due
    env: dict[str, Any] = {"self": uid, "player": seat, "_card": uid, **bound}
    if by is not None and by == seat:
        env["accepted"] = True
    return f"{st(rt).cards[uid].code}.{kind}.{i}", env


# Responses (and forced effects) set off by one moment are offered together and
# resolve one at a time in the order their controller chooses, each checked when it
# resolves (FAQ: responses to committing, "in the order of that player's choice").
# The first player orders Forced effects due at once (FAQ 1.02, simultaneous effects).
for _kind in ("forced", "response"):
    register(
        f"lcg.{_kind}",
        InChosenOrder(None, _can_resolve, _ask_order, _ident, _run),
        rule=f"lcg.{_kind}",
    )


def after(rt: Runtime, event: Event) -> None:
    """Queue what ``event`` sets off. The last queued runs first: framework checks, then
    Forced effects, then Responses (FAQ 1.09: forced effects before responses to the same
    moment), then keyword checks. Responses wait until a step held as one (quest progress)
    is done."""
    # Keyword checks are pushed first, so they resolve after the cards' Forced effects and
    # Responses to the same event (a ship that gains Boarding as it engages boards with it).
    s = st(rt)
    hooks = HOOKS.get(type(event))
    if hooks is not None:
        for hook in table.in_game(s, hooks):
            hook(rt, event)
    listeners = _in_game(s).get(type(event))
    if listeners is not None:
        pools: dict[str, Pool] = {}
        responses = _triggered(s, event, "response", listeners[1], pools) if listeners[1] else []
        if responses:
            rt.defer("lcg.response", {"_by": event.seq}, caller={}, items=responses)
        forced = _triggered(s, event, "forced", listeners[0], pools) if listeners[0] else []
        if forced:
            rt.call("lcg.forced", {"_by": event.seq}, caller={}, items=forced)
    check = FRAMEWORK.get(type(event))
    if check is not None:
        check(rt, event)
    if type(event) in HOST_MAY_LEAVE and s.zones.get("attachments"):
        attachments.check_orphans(rt, event)
