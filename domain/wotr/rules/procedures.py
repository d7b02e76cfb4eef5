"""Shared procedures: the recurring rule steps that the round and card texts call by name.

``wotr.draw`` (rules §7: an empty draw deck is rebuilt from the shuffled cycle pile),
``wotr.cycle-from-hand`` (forsake instead of a card the hand lacks), ``wotr.forsake``,
``wotr.eliminate`` (with "cycle instead" texts), ``wotr.take`` (a named card into hand),
``wotr.activate`` (a location, by text), ``wotr.play`` (a card with its cost),
``wotr.move``, ``wotr.draw-play-cycle``, ``wotr.ring`` (the Ring token).
"""

from __future__ import annotations

from collections.abc import Callable

from domain.kernel.decisions import Option
from domain.kernel.events import Event, ScopeEnded
from domain.kernel.flow import Ask, Break, Call, Case, Decide, Do, ForEach, If, Let, Seq, register
from domain.kernel.runtime import Runtime
from domain.wotr import events as ev
from domain.wotr.effects import card_option, choose, chosen, emit, st
from domain.wotr.rules import table
from domain.wotr.rules.table import cards_in, text_of
from domain.wotr.state import Uid, WotrState

# -- draw --------------------------------------------------------------------------------


def _eliminated_by_text(rt: Runtime) -> dict[str, object]:
    """A card a rule or text eliminates goes through ``wotr.eliminate`` ("cycle instead")."""
    return {"card": rt.env["gone-card"], "how": "text"}


def _recycle(rt: Runtime) -> Event | None:
    """Rules §7: the cycle pile, shuffled, becomes the draw deck (under what is left)."""
    s = st(rt)
    seat = rt.env["player"]
    pile = cards_in(s, f"{seat}.cycle")
    if not pile:
        return None
    deck = cards_in(s, f"{seat}.deck")
    return ev.DeckShuffled(zone=f"{seat}.deck", order=tuple(deck) + tuple(rt.shuffle(pile)))


def _draw_first(rt: Runtime) -> Event | None:
    s = st(rt)
    seat = rt.env["player"]
    cards = tuple(cards_in(s, f"{seat}.deck")[: int(rt.env["drawn"])])
    return ev.CardsDrawn(player=seat, cards=cards, aside=bool(rt.env.get("aside"))) if cards else None


def _draw_rest(rt: Runtime) -> Event | None:
    s = st(rt)
    seat = rt.env["player"]
    cards = tuple(cards_in(s, f"{seat}.deck")[: int(rt.env["count"]) - int(rt.env["drawn"])])
    return ev.CardsDrawn(player=seat, cards=cards, aside=bool(rt.env.get("aside"))) if cards else None


def _short(rt: Runtime) -> bool:
    return int(rt.env["drawn"]) < int(rt.env["count"]) and bool(cards_in(st(rt), f"{rt.env['player']}.cycle"))


register(
    "wotr.draw",
    Let(
        lambda rt: {"drawn": min(int(rt.env["count"]), len(cards_in(st(rt), f"{rt.env['player']}.deck")))},
        Seq(
            emit(_draw_first),
            If(_short, Seq(emit(_recycle, rule="wotr.draw.recycle"), emit(_draw_rest))),
        ),
    ),
    rule="wotr.draw",
)


# -- cycling and eliminating -------------------------------------------------------------


def _hand(rt: Runtime) -> list[Uid]:
    return [u for u in cards_in(st(rt), f"{rt.env['player']}.hand") if u != rt.env.get("except")]


register(
    "wotr.cycle-from-hand",
    Let(
        lambda rt: {"short": max(0, int(rt.env["count"]) - len(_hand(rt)))},
        Seq(
            choose(
                lambda rt: rt.env["player"],
                "Cycle a card from your hand",
                _hand,
                "cycled",
                emit(lambda rt: ev.CardsCycled(cards=tuple(chosen(rt, "cycled")))),
                count=lambda rt: int(rt.env["count"]),
            ),
            ForEach(
                lambda rt: list(range(int(rt.env["short"]))),
                "n",
                Call("wotr.forsake", lambda rt: {"player": rt.env["player"]}),
                rule="wotr.cycle.empty-hand",
            ),
        ),
    ),
    rule="wotr.cycle",
)


def instead(s: WotrState, uid: Uid, how: str) -> str | None:
    """What a "cycle instead" text makes of an elimination (the card's own, then its items')."""
    own = text_of(s.cards[uid].code).instead
    if own is not None:
        verdict = own(s, uid, how)
        if verdict is not None:
            return verdict
    for item in table.items_of(s, uid):
        hook = text_of(s.cards[item].code).instead
        if hook is not None:
            verdict = hook(s, item, how)
            if verdict is not None:
                return verdict
    return None


def _verdict(rt: Runtime) -> dict[str, object]:
    s = st(rt)
    uid = int(rt.env["card"])
    return {"verdict": instead(s, uid, str(rt.env["how"])) or "eliminate"}


def _unit(rt: Runtime) -> tuple[Uid, ...]:
    return tuple(table.unit(st(rt), int(rt.env["card"])))


def _items(rt: Runtime) -> tuple[Uid, ...]:
    return tuple(table.items_of(st(rt), int(rt.env["card"])))


register(
    "wotr.eliminate",
    Let(
        _verdict,
        Case(
            "verdict",
            {
                "cycle": emit(lambda rt: ev.CardsCycled(cards=_unit(rt)), rule="wotr.eliminate.cycle-instead"),
                "cycle-alone": Seq(
                    emit(lambda rt: ev.CardsEliminated(cards=_items(rt)) if _items(rt) else None),
                    emit(lambda rt: ev.CardsCycled(cards=(int(rt.env["card"]),)), rule="wotr.eliminate.cycle-instead"),
                ),
            },
            emit(lambda rt: ev.CardsEliminated(cards=_unit(rt))),
        ),
    ),
    rule="wotr.eliminate",
)

# -- forsake -----------------------------------------------------------------------------


def _forsake_ask(rt: Runtime) -> Ask | None:
    """Rules §7: eliminate a card from your hand, your reserve (an item on its own too), or
    the top of your draw deck (unseen)."""
    s = st(rt)
    seat = rt.env["player"]
    options = [card_option(s, u, "Hand: ") for u in _hand(rt)]
    options += [card_option(s, u, "Reserve: ") for u in cards_in(s, f"{seat}.reserve")]
    if table.can_draw(s, seat):
        options.append(Option("deck", "The top card of your draw deck"))
    if not options:
        return None
    return Ask(seat, "Forsake a card", options)


def _top(rt: Runtime) -> dict[str, object]:
    return {"card": cards_in(st(rt), f"{rt.env['player']}.deck")[0]}


def _how(rt: Runtime) -> dict[str, object]:
    s = st(rt)
    uid = int(rt.env["forsaken"])
    return {"card": uid, "how": "forsake-reserve" if table.in_reserve(s, uid) else "forsake-hand"}


register(
    "wotr.forsake",
    If(
        lambda rt: st(rt).is_bot(str(rt.env["player"])),
        Call("wotr.bot.forsake", lambda rt: {"player": rt.env["player"], "except": rt.env.get("except")}),
        Decide(
            _forsake_ask,
            "forsaken",
            If(
                lambda rt: rt.env["forsaken"] == "deck",
                Seq(
                    If(
                        lambda rt: not cards_in(st(rt), f"{rt.env['player']}.deck"),
                        emit(_recycle, rule="wotr.draw.recycle"),
                    ),
                    Let(_top, Call("wotr.eliminate", lambda rt: {"card": rt.env["card"], "how": "forsake-deck"})),
                ),
                Let(_how, Call("wotr.eliminate", lambda rt: {"card": rt.env["card"], "how": rt.env["how"]})),
            ),
            auto_single=True,
        ),
    ),
    rule="wotr.forsake",
)

# -- taking a named card -----------------------------------------------------------------


def _from_deck(rt: Runtime) -> bool:
    return st(rt).cards[int(rt.env["card"])].zone.endswith(".deck")


def _reshuffle(rt: Runtime) -> Event:
    zone = f"{rt.env['player']}.deck"
    return ev.DeckShuffled(zone=zone, order=tuple(rt.shuffle(cards_in(st(rt), zone))))


register(
    "wotr.take",
    Let(
        lambda rt: {"searched": _from_deck(rt)},
        Seq(
            emit(lambda rt: ev.CardTaken(player=rt.env["player"], card=int(rt.env["card"]))),
            If(lambda rt: bool(rt.env["searched"]), emit(_reshuffle, rule="wotr.search.reshuffle")),
        ),
    ),
    rule="wotr.take",
)

# -- activating locations by text --------------------------------------------------------


def _activated(rt: Runtime) -> Event | None:
    s = st(rt)
    uid = int(rt.env["location"])
    where = table.loc(s, uid)
    zone = s.cards[uid].zone
    if where.kind == "path":
        return ev.LocationActivated(location=uid, to="path", number=where.number)
    if zone == "battlegrounds":
        return None
    scored = zone.endswith(".score")
    return ev.LocationActivated(
        location=uid,
        to="battlegrounds",
        reactivated=scored,
        ignore_defense=scored and zone != f"{where.deck}.score",
    )


def _fight_old_path(rt: Runtime) -> dict[str, object]:
    s = st(rt)
    uid = int(rt.env["location"])
    old = table.active_path(s)
    fight = old is not None and table.loc(s, uid).kind == "path" and old != uid
    return {"old": old if fight else None}


register(
    "wotr.activate",
    Let(
        _fight_old_path,
        Seq(
            If(
                lambda rt: rt.env["old"] is not None,
                Call("wotr.combat.resolve", lambda rt: {"location": rt.env["old"]}),
                rule="wotr.location.path-replaced",
            ),
            emit(_activated),
        ),
    ),
    rule="wotr.location.activate",
)

# -- playing and moving ------------------------------------------------------------------


def _cost_ask(rt: Runtime) -> Ask | None:
    """Rules §5.1: cycle a different card from your hand (forsake if there is none)."""
    s = st(rt)
    seat = rt.env["player"]
    uid = int(rt.env["card"])
    others = [u for u in cards_in(s, f"{seat}.hand") if u != uid]
    options = [card_option(s, u, "Cycle ") for u in others]
    assert s.options is not None
    if not others or s.options.rules.play_cost == "cycle-or-forsake":
        options.append(Option("forsake", "Forsake a card"))
    return Ask(seat, f"Pay for {table.name(s, uid)}: cycle a card from your hand", options, about=uid)


def _played(rt: Runtime) -> Event:
    s = st(rt)
    seat = rt.env["player"]
    zone, wielder = table.destination_zone(s, seat, str(rt.env["dest"]))
    return ev.CardPlayed(player=seat, card=int(rt.env["card"]), to=zone, wielder=wielder)


def _resolved(rt: Runtime) -> Event | None:
    """Rules §5.5: an event is eliminated once its text has resolved."""
    uid = int(rt.env["card"])
    return ev.CardsEliminated(cards=(uid,)) if st(rt).cards[uid].zone == "resolving" else None


register(
    "wotr.play",
    Seq(
        If(
            lambda rt: bool(rt.env.get("cost")),
            Decide(
                _cost_ask,
                "pay",
                If(
                    lambda rt: rt.env["pay"] == "forsake",
                    Call("wotr.forsake", lambda rt: {"player": rt.env["player"], "except": rt.env["card"]}),
                    emit(lambda rt: ev.CardsCycled(cards=(int(rt.env["pay"]),))),
                ),
                auto_single=True,
                rule="wotr.play.cost",
            ),
        ),
        emit(_played),
        emit(_resolved, rule="wotr.play.event"),
    ),
    rule="wotr.play",
)

register(
    "wotr.move",
    emit(
        lambda rt: (
            ev.CardMoved(
                player=rt.env["player"],
                card=int(rt.env["card"]),
                to=table.location_zone(st(rt), int(rt.env["location"])),
            )
            if int(rt.env["location"]) in table.active_locations(st(rt))
            and table.in_reserve(st(rt), int(rt.env["card"]))
            else None
        )
    ),
    rule="wotr.move",
)

# -- draw N, play some of them, cycle the rest -------------------------------------------

KINDS: dict[str, Callable[[WotrState, Uid], bool]] = {
    "army": lambda s, u: table.is_a(s, u, "army"),
    "army-or-character": lambda s, u: table.is_a(s, u, "army") or table.is_a(s, u, "character"),
    "rohan": lambda s, u: table.defn(s, u).faction == "rohan",
    "rohan-army": lambda s, u: table.defn(s, u).faction == "rohan" and table.is_a(s, u, "army"),
    "nazgul": lambda s, u: table.defn(s, u).has("Nazgul") and table.is_a(s, u, "character"),
}
"""The kinds of card a "play up to N of them" text allows."""


def _aside(rt: Runtime) -> list[Uid]:
    return list(cards_in(st(rt), f"{rt.env['player']}.aside"))


def _dests(s: WotrState, seat: str, uid: Uid, where: str) -> list[str]:
    dests = table.play_destinations(s, seat, uid)
    if where == "reserve":
        return [d for d in dests if d == "reserve"]
    if where.startswith("at:"):
        code = where[3:]
        return [d for d in dests if d.startswith("L") and s.cards[int(d[1:])].code == code]
    return dests


def _pick_ask(rt: Runtime) -> Ask | None:
    s = st(rt)
    seat = rt.env["player"]
    kind = KINDS[str(rt.env["kind"])]
    options = []
    for uid in _aside(rt):
        if not kind(s, uid) or uid in s.played:
            continue
        for dest in _dests(s, seat, uid, str(rt.env["where"])):
            options.append(Option(f"{uid}.{dest}", f"Play {table.name(s, uid)} {table.dest_label(s, dest)}", uid))
    if not options:
        return None
    return Ask(seat, "You may play one of the cards you drew", [*options, Option("none", "Play no (more) card")])


def _play_args(rt: Runtime) -> dict[str, object]:
    uid, dest = str(rt.env["pick"]).split(".", 1)
    return {"player": rt.env["player"], "card": int(uid), "dest": dest, "cost": False}


register(
    "wotr.draw-play-cycle",
    Seq(
        Call(
            "wotr.draw",
            lambda rt: {"player": rt.env["player"], "count": rt.env["count"], "aside": True},
        ),
        If(
            lambda rt: bool(rt.env["eliminate"]),
            choose(
                lambda rt: rt.env["player"],
                "Eliminate 1 of the cards you drew",
                _aside,
                "gone",
                ForEach(lambda rt: chosen(rt, "gone"), "gone-card", Call("wotr.eliminate", _eliminated_by_text)),
            ),
        ),
        ForEach(
            lambda rt: list(range(int(rt.env["plays"]))),
            "n",
            Decide(
                _pick_ask,
                "pick",
                If(lambda rt: rt.env["pick"] == "none", Break(), Call("wotr.play", _play_args)),
                otherwise=Break(),
            ),
        ),
        emit(
            lambda rt: ev.CardsCycled(cards=tuple(_aside(rt))) if _aside(rt) else None, rule="wotr.draw-play.cycle-rest"
        ),
    ),
    rule="wotr.draw-play",
)

# -- the Ring token ----------------------------------------------------------------------


def _ring_rule(rt: Runtime) -> str:
    return table.seat_def(st(rt), rt.env["player"]).ring


register(
    "wotr.ring",
    Let(
        lambda rt: {"rule": _ring_rule(rt)},
        Case(
            "rule",
            {
                "game": Seq(
                    emit(lambda rt: ev.RingTokenUsed(player=rt.env["player"])),
                    Call("wotr.draw", lambda rt: {"player": rt.env["player"], "count": 2}),
                    rule="wotr.ring.trilogy",
                ),
                "round": Seq(
                    emit(lambda rt: ev.RingTokenUsed(player=rt.env["player"], spent=True)),
                    Call("wotr.draw", lambda rt: {"player": rt.env["player"], "count": 3}),
                    choose(
                        lambda rt: rt.env["player"],
                        "Ring token: eliminate a card from your hand",
                        lambda rt: cards_in(st(rt), f"{rt.env['player']}.hand"),
                        "gone",
                        ForEach(
                            lambda rt: chosen(rt, "gone"), "gone-card", Call("wotr.eliminate", _eliminated_by_text)
                        ),
                    ),
                    Call("wotr.cycle-from-hand", lambda rt: {"player": rt.env["player"], "count": 1}),
                    rule="wotr.ring.duel",
                ),
            },
        ),
    ),
    rule="wotr.ring",
)


def end_of(scope: str) -> Do:
    """Limits and modifiers lasting until the end of ``scope`` lapse (one event, if any)."""

    def step(rt: Runtime) -> None:
        s = st(rt)
        if any(x.until == scope for x in s.limits) or any(m.until == scope for m in s.modifiers):
            rt.emit(ScopeEnded(scope=scope))

    return Do(step)
