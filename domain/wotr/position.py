"""Lay out an exact War of the Ring position from a plain description (fixtures, disputes).

A position names the cards in each zone, top of a deck first; a card is given by name or
code, or as a table with its state::

    path = ["Egladil"]
    "at.egladil" = ["The Commander", "The Destroyer", { card = "Black Rider's Mount", on = "The Destroyer" }]
    "frodo.hand" = ["Gimli", "Sting"]
    battlegrounds = [{ card = "Dol Guldur", defense_tokens = 1 }]

Each card gets a label, its name (``Mordor Orcs``, then ``Mordor Orcs 2``, ...) or the
``as`` given, by which scripts and expectations refer to it. Any card of the whole pool may
be placed, whatever the scenario. A faction card belongs to the seat whose zone it is in,
or (on a location or in a shared zone) to the seat whose deck holds it in the scenario,
else to a seat of its side, unless ``owner`` says otherwise. Zones not given are empty;
a game set at a step of its setup (``wotr.setup``: shuffle, draw, cycle) starts from the
table setup lays out, the zones given replacing its own.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from domain.kernel.position import (
    Position,
    card_entry,
    label,
    lasting,
    round_frames,
    setup_frames,
    stack_frames,
    zone_seat,
)
from domain.kernel.ruleset import SetupError
from domain.wotr import events as ev
from domain.wotr.cards import BOT_CARDS, BOT_LOCATIONS, CARDS, LOCATIONS, name_of
from domain.wotr.options import wotr_options
from domain.wotr.rules.setup import layout
from domain.wotr.ruleset import WOTR
from domain.wotr.scenarios import Scenario, scenario
from domain.wotr.state import Card, Combat, Options, Player

PLAYER_ZONES = ("deck", "hand", "cycle", "eliminated", "reserve", "aside")
SHARED_ZONES = ("path", "battlegrounds", "bg.free", "bg.shadow", "free.score", "shadow.score", "out", "resolving")
SCOPES = ("round", "game")
"""What a lasting effect or a used limit may last until (``game``: it never lapses)."""
SETUP = "wotr.setup"
CARD_FIELDS = {
    "card",
    "as",
    "on",
    "owner",
    "reserved",
    "attack_tokens",
    "defense_tokens",
    "ignore_defense",
    "uid",
    "known",
}


def _fold(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return plain.casefold().replace("'", "").replace("!", "").replace(",", "").strip()


def card_code(name: str, bots: bool = False) -> str:
    """A card's (or location's) code from its code or its name (accents and case optional);
    in a game against Shadow bots a name means the bot card or replacement location."""
    if name in CARDS or name in LOCATIONS:
        return name
    preferred = [*BOT_CARDS.values(), *BOT_LOCATIONS.values()] if bots else []
    for code in [*preferred, *CARDS, *LOCATIONS]:
        if _fold(name_of(code)) == _fold(name):
            return code
    raise SetupError(f"unknown card {name!r}")


def build(game: Mapping[str, Any], position: Mapping[str, Any]) -> Position[ev.GameCreated, ev.PositionSet]:
    options = wotr_options(
        str(game.get("scenario", "trilogy")),
        dict(game.get("rules", {})),
        [str(b) for b in game.get("bots", ())],
        str(game.get("difficulty", "")),
    )
    created = WOTR.created(options, int(game.get("seed", 1)))
    chosen = scenario(options.scenario)
    seats = [d.seat for d in chosen.seats]
    decks = {d.seat: set(d.cards) for d in options.decks}
    at = str(position.get("at", "wotr.round"))
    at_setup = at == SETUP or at.startswith(SETUP + ".")

    cards: list[Card] = []
    zones: dict[str, list[int]] = {}
    labels: dict[str, int] = {}
    hosts: list[tuple[Card, str]] = []
    by_uid: dict[int, Card] = {}
    for zone, entries in _zones(position, options, chosen, at_setup).items():
        seat = _zone_seat(zone, seats)
        zones[zone] = []
        for entry in entries:
            spec = card_entry(zone, entry, CARD_FIELDS)
            code = card_code(str(spec["card"]), bool(options.bots))
            owner = _owner(code, seat, spec, decks, chosen)
            uid = int(spec.get("uid", len(cards) + 1))  # a captured position keeps the game's uids
            if uid in by_uid:
                raise SetupError(f"zone {zone}: uid {uid} is given twice")
            card = Card(
                uid=uid,
                code=code,
                owner=owner,
                zone=zone,
                reserved=bool(spec.get("reserved", False)),
                attack_tokens=int(spec.get("attack_tokens", 0)),
                defense_tokens=int(spec.get("defense_tokens", 0)),
                ignore_defense=bool(spec.get("ignore_defense", False)),
                known=bool(spec.get("known", False)),
            )
            cards.append(card)
            by_uid[uid] = card
            zones[zone].append(card.uid)
            labels[label(str(spec.get("as") or name_of(code)), labels)] = card.uid
            if "on" in spec:
                hosts.append((card, str(spec["on"])))
    for card, host in hosts:
        if host not in labels:
            raise SetupError(f"{name_of(card.code)} is put on {host!r}, which is not on the table")
        wielder = by_uid[labels[host]]
        if wielder.zone != card.zone:
            raise SetupError(f"{name_of(card.code)} must be listed in the zone of {host!r} ({wielder.zone})")
        card.wielder = wielder.uid

    rings = dict(position.get("rings", {}))
    players = tuple(
        Player(seat=d.seat, team=d.team, ring=str(rings.get(d.seat, "ready" if d.seat in created.rings else "")))
        for d in chosen.seats
    )
    order = list(chosen.order)
    if position.get("delayed"):
        raise SetupError("delayed: no War of the Ring text waits for the end of a scope")
    running = lasting(position, labels, SCOPES, seats)
    placed = ev.PositionSet(
        modifiers=running.modifiers,
        limits=running.limits,
        delayed=running.delayed,
        cards=tuple(cards),
        zones=zones,
        players=players,
        start=_position_of(order, position.get("start", order[0])),
        turn=_position_of(order, position.get("turn", position.get("start", order[0]))),
        round=int(position.get("round", 0 if at_setup else 1)),
        step=str(position.get("step", "")),
        path_number=int(position.get("path_number", 0)),
        corruption=int(position.get("corruption", 0)),
        played=tuple(labels[str(x)] for x in position.get("played", [])),
        effects=tuple(str(x) for x in position.get("effects", [])),
        passes=int(position.get("passes", 0)),
        combat=_combat(position["combat"], labels) if "combat" in position else None,
        rng=int(position.get("rng", 0)),
    )
    if "stack" in position:
        frames = stack_frames(position, "wotr.game")
    elif at_setup:
        # The position is the table setup lays out: play resumes after the lay-out.
        frames = setup_frames("wotr.game", SETUP, "wotr.setup.shuffle" if at == SETUP else at)
    else:
        frames = round_frames("wotr.game", "wotr.round", at)
    return Position(created, placed, frames, labels)


COMBAT_FIELDS = frozenset(
    {"location", "kind", "attackers", "attack", "defense", "remaining", "defenders", "empty", "supports", "losses"}
)


def _combat(spec: Mapping[str, Any], labels: Mapping[str, int]) -> Combat:
    """The combat being resolved (``[position.combat]``): cards by label."""
    unknown = set(spec) - COMBAT_FIELDS
    if unknown:
        raise SetupError(f"combat: unknown field(s) {sorted(unknown)}; known: {', '.join(sorted(COMBAT_FIELDS))}")

    def uid(name: object) -> int:
        if str(name) not in labels:
            raise SetupError(f"combat: no card labelled {name!r} on the table")
        return labels[str(name)]

    return Combat(
        location=uid(spec.get("location")),
        kind=str(spec.get("kind", "path")),
        attackers=str(spec.get("attackers", "")),
        attack=int(spec.get("attack", 0)),
        defense=int(spec.get("defense", 0)),
        remaining=int(spec.get("remaining", 0)),
        defenders=int(spec.get("defenders", 0)),
        empty=bool(spec.get("empty", False)),
        supports=[[uid(x) for x in pair] for pair in spec.get("supports", [])],
        losses=[uid(x) for x in spec.get("losses", [])],
    )


def _zones(position: Mapping[str, Any], options: Options, chosen: Scenario, at_setup: bool) -> dict[str, list[Any]]:
    """The zones to lay out: the position's, over the table setup lays out when at setup."""
    given = {zone: list(entries) for zone, entries in dict(position.get("zones", {})).items()}
    if not at_setup:
        return given
    laid: dict[str, list[Any]] = {}
    for code, zone, owner in layout(options, chosen):
        laid.setdefault(zone, []).append({"card": code, "owner": owner} if owner else code)
    return {**laid, **given}


def _position_of(order: Sequence[str], value: object) -> int:
    """A turn-order position: an index, or a seat (its first position)."""
    if isinstance(value, int):
        return value
    if str(value) not in order:
        raise SetupError(f"no seat {value!r}; the seats are {', '.join(order)}")
    return order.index(str(value))


def _owner(
    code: str, seat: str | None, spec: Mapping[str, Any], decks: Mapping[str, set[str]], chosen: Scenario
) -> str | None:
    if code in LOCATIONS:
        return None
    if "owner" in spec:
        return str(spec["owner"])
    if seat is not None:
        return seat
    holders = [s for s, cards in decks.items() if code in cards]
    if holders:
        return holders[0]
    # A card of another scenario's deck: a seat of its side (its Trilogy deck if playing).
    card = CARDS[code]
    sides = [d.seat for d in chosen.seats if d.team == card.side]
    return card.deck if card.deck in sides else sides[0]


def _zone_seat(zone: str, seats: list[str]) -> str | None:
    seat = zone_seat(zone, seats, PLAYER_ZONES)
    if seat is not None:
        return seat
    if zone in SHARED_ZONES or zone.startswith("at.") or zone.startswith("paths."):
        if zone.startswith("at.") and zone[3:] not in LOCATIONS:
            raise SetupError(f"unknown location {zone[3:]!r} in zone {zone!r}")
        return None
    raise SetupError(
        f"unknown zone {zone!r}; shared zones are {', '.join(SHARED_ZONES)}, paths.<n> and at.<location code>; "
        f"a seat's zones are <seat>.<{'|'.join(PLAYER_ZONES)}> for seats {', '.join(seats)}"
    )
