"""Lay out an exact LCG position from a plain description (fixtures, rule disputes).

A position names the cards in each zone, top of a deck first; a card is given by name
or code, or as a table with its state::

    "p1.heroes" = [{ card = "Aragorn", damage = 2, resources = 1 }, "Gimli", "Legolas"]
    "encounter.deck" = ["King Spider", "Forest Spider"]
    shadows = [{ card = "Dol Guldur Orcs", on = "Forest Spider" }]

Each card gets a label, its name (``Forest Spider``, then ``Forest Spider 2``, ...) or
the ``as`` given, by which scripts and expectations refer to it. Zones not given are
empty, except that each player's heroes default to their lineup (none for a player
already eliminated) and the quest to its first stage. Any card of the whole card pool may
be placed, whatever the scenario.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Collection, Mapping, Sequence
from typing import Any

import msgspec

from domain.kernel.events import Frame
from domain.kernel.position import Position, card_entry, label, lasting, round_frames, stack_frames, zone_seat
from domain.lcg import events as ev
from domain.lcg.cards import CARDS, CardDef
from domain.lcg.epic import PER_PLAYER
from domain.lcg.lineups import SetupError, contract_named, lcg_options
from domain.lcg.rules.encounter import ENGAGED_BY_A_TEXT
from domain.lcg.ruleset import LCG
from domain.lcg.scenarios import scenario
from domain.lcg.state import Attack, Card, Options, Player

PLAYER_ZONES = ("deck", "hand", "heroes", "allies", "discard", "engaged", "prisoner", "shackles", "contract", "under")
SHARED_ZONES = (
    "staging",
    "encounter.deck",
    "encounter.discard",
    "revealed",
    "active",
    "quest",
    "quest.deck",
    "quest.done",
    "quest.unused",
    "removed",
    "victory",
    "set-aside",
    "set-aside.face-up",
    "shadows",
    "attachments",
    "corsair.deck",
    "corsair.discard",
    "setup",
    "treasures",
)
SCOPES = ("attack", "phase", "round", "game")
"""What a lasting effect or a used limit may last until (``game``: it never lapses)."""
CARD_FIELDS = {
    "card",
    "as",
    "damage",
    "resources",
    "progress",
    "exhausted",
    "committed",
    "on",
    "face",
    "shown",
    "owner",
    "uid",
    "surge",
    "cancelled",
    "claimed",
    "known",
}


def _fold(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return plain.casefold().replace("'", "").replace("!", "").strip()


def card_code(name: str, prefer: Collection[str] = (), pool: Mapping[str, CardDef] = CARDS) -> str:
    """A card's code from its code, its name or (quests) the name of either side.

    Names are looked up in the whole card pool. A name several cards share (a card
    reprinted, a hero and an ally of one name) stands for the one among ``prefer`` (the
    scenario's own cards) if there is exactly one; otherwise the code must be given.
    """
    if name in pool:
        return name
    matches = [c.code for c in pool.values() if _fold(name) in (_fold(c.name), _fold(c.name_a))]
    if not matches:
        raise SetupError(f"unknown card {name!r}")
    if len(matches) > 1:
        preferred = [code for code in matches if code in prefer]
        if len(preferred) != 1:
            which = ", ".join(f"{c} ({pool[c].type}, {pool[c].encounter_set or pool[c].sphere})" for c in matches)
            raise SetupError(f"{name!r} names several cards: {which}; give the code")
        return preferred[0]
    return matches[0]


def _epic_options(options: Options, epic: Mapping[str, Any]) -> Options:
    """A group of an epic event (``[game.epic]``: ``id``, ``players`` among all groups,
    this ``group``'s number and how many ``groups``)."""
    groups = int(epic.get("groups", 2))
    group = int(epic.get("group", 1))
    if not 1 <= group <= groups:
        raise SetupError(f"epic: group {group} is not one of groups 1 to {groups}")
    return msgspec.structs.replace(
        options,
        epic=str(epic.get("id", "00000000-0000-0000-0000-000000000000")),
        epic_players=int(epic.get("players", 0)),
        epic_group=group,
        epic_groups=groups,
    )


def _contracts(options: Options, names: Sequence[Any]) -> Options:
    """The contract each player chose at setup (``contracts`` in ``[game]``, "" for none). A
    position states its decks in its zones, so setup's deck restriction (rulebook, Contracts:
    "those restrictions must be met in order to choose that contract") is not checked here."""
    if len(names) > len(options.players):
        raise SetupError(f"contracts were given for {len(names)} players but the game has {len(options.players)}")
    players = list(options.players)
    for i, name in enumerate(names):
        if name:
            players[i] = msgspec.structs.replace(players[i], contract=contract_named(str(name)))
    return msgspec.structs.replace(options, players=tuple(players))


def build(game: Mapping[str, Any], position: Mapping[str, Any]) -> Position[ev.GameCreated, ev.PositionSet]:
    players = int(game.get("players", len(game.get("heroes", [])) or 1))
    options = lcg_options(
        str(game.get("scenario", "passage-through-mirkwood")),
        players,
        [list(h) for h in game.get("heroes", [])] or None,
        str(game.get("difficulty", "standard")),
    )
    options = _contracts(options, game.get("contracts", []))
    epic = game.get("epic")
    if epic is not None:
        options = _epic_options(options, epic)
    created = LCG.created(options, int(game.get("seed", 1)))
    seats = list(created.seats)
    eliminated = [str(seat) for seat in position.get("eliminated", [])]
    for seat in eliminated:
        if seat not in seats:
            raise SetupError(f"eliminated: no seat {seat!r}; the seats are {', '.join(seats)}")
    first = str(position.get("first", next((s for s in seats if s not in eliminated), seats[0])))
    if first not in seats:
        raise SetupError(f"first: no seat {first!r}; the seats are {', '.join(seats)}")
    if first in eliminated and len(eliminated) < len(seats):
        # Rules (Core Set, player elimination): the first-player token passes on.
        raise SetupError(f"first: {first} is eliminated; the first-player token would have passed on")
    chosen = scenario(options.scenario)
    scenario_cards = {*chosen.quest, *chosen.encounter_deck("standard")}
    decks = {seat: {*setup.heroes, *setup.deck} for seat, setup in zip(seats, options.players, strict=True)}
    zones_spec: dict[str, Sequence[Any]] = dict(position.get("zones", {}))
    for seat, setup in zip(seats, options.players, strict=True):
        zones_spec.setdefault(f"{seat}.heroes", [] if seat in eliminated else list(setup.heroes))
    if "quest" not in zones_spec:
        zones_spec["quest"] = [{"card": chosen.quest[0], "face": "B"}]

    cards: list[Card] = []
    zones: dict[str, list[int]] = {}
    labels: dict[str, int] = {}
    pending_hosts: list[tuple[Card, str]] = []
    by_uid: dict[int, Card] = {}
    for zone, entries in zones_spec.items():
        owner = _zone_owner(zone, seats)
        zones[zone] = []
        for entry in entries:
            spec = card_entry(zone, entry, CARD_FIELDS)
            code = card_code(str(spec["card"]), prefer=scenario_cards | decks.get(owner or "", set()))
            uid = int(spec.get("uid", len(cards) + 1))  # a captured position keeps the game's uids
            if uid in by_uid:
                raise SetupError(f"zone {zone}: uid {uid} is given twice")
            card = Card(
                uid=uid,
                code=code,
                owner=str(spec["owner"]) if "owner" in spec else owner if CARDS[code].encounter_set is None else None,
                zone=zone,
                exhausted=bool(spec.get("exhausted", False)),
                damage=int(spec.get("damage", 0)),
                resources=int(spec.get("resources", 0)),
                progress=int(spec.get("progress", 0)),
                committed=bool(spec.get("committed", False)),
                face=str(spec.get("face", "B" if zone == "quest" else "A")),
                shown=bool(spec.get("shown", False)),
                claimed=bool(spec.get("claimed", zone == "attachments" and CARDS[code].type == "objective")),
                surge=bool(spec.get("surge", False)),
                cancelled=bool(spec.get("cancelled", False)),
                known=bool(spec.get("known", False)),
            )
            cards.append(card)
            by_uid[uid] = card
            zones[zone].append(uid)
            labels[label(spec.get("as") or CARDS[code].name, labels)] = uid
            if "on" in spec:
                pending_hosts.append((card, str(spec["on"])))
    for card, host in pending_hosts:
        if host not in labels:
            raise SetupError(f"{CARDS[card.code].name} is put on {host!r}, which is not on the table")
        card.attached_to = labels[host]
        if card.owner is None and CARDS[card.code].sphere is not None:
            # a player's attachment belongs, unless told, to the player of the card it is on
            on = by_uid[card.attached_to]
            card.owner = on.owner if on.zone.partition(".")[2] != "engaged" else on.zone.partition(".")[0]

    threat = dict(position.get("threat", {}))
    player_list = []
    for seat in seats:
        heroes = zones.get(f"{seat}.heroes", [])
        start = sum(CARDS[by_uid[u].code].threat_cost for u in heroes)
        player_list.append(Player(seat=seat, threat=int(threat.get(seat, start)), eliminated=seat in eliminated))
    unknown = set(position) - POSITION_KEYS
    if unknown:
        raise SetupError(f"position: unknown key(s) {sorted(unknown)}; known: {', '.join(sorted(POSITION_KEYS))}")
    shared, relays = _shared(position, options)
    running = lasting(position, labels, SCOPES, seats)
    placed = ev.PositionSet(
        modifiers=running.modifiers,
        limits=running.limits,
        delayed=running.delayed,
        cards=tuple(cards),
        zones=zones,
        players=tuple(player_list),
        first=first,
        round=int(position.get("round", 1)),
        phase=str(position.get("phase", "")),
        attack=_attack(position["attack"], labels, seats) if "attack" in position else None,
        rng=int(position.get("rng", 0)),
        shared=shared,
        relays=relays,
    )
    if "stack" in position:
        frames = stack_frames(position, "lcg.game")
    else:
        frames = round_frames("lcg.game", "lcg.round", str(position.get("at", "lcg.round")))
    frames += _engaging(position, labels, seats)
    return Position(created, placed, frames, labels)


POSITION_KEYS = frozenset(
    {"at", "stack", "round", "phase", "first", "threat", "eliminated", "modifiers", "limits", "delayed"}
    | {"rng", "zones", "attack", "shared", "relays", "engage"}
)
ENGAGE_FIELDS = frozenset({"enemy", "player"})


def _shared(position: Mapping[str, Any], options: Options) -> tuple[dict[str, int], int]:
    """What the other groups of an epic event have contributed to each global value, as this
    group last learned it (``shared``: ``progress`` on stage 1B, ``damage`` on the
    Dreadnaught), and how many effects they sent have arrived here (``relays``)."""
    shared = {str(key): int(n) for key, n in dict(position.get("shared", {})).items()}
    relays = int(position.get("relays", 0))
    if (shared or relays) and not options.epic:
        raise SetupError("shared and relays are a group's part of an epic event: give [game.epic] too")
    unknown = set(shared) - set(PER_PLAYER)
    if unknown:
        raise SetupError(f"shared: unknown global value(s) {sorted(unknown)}; known: {', '.join(PER_PLAYER)}")
    return shared, relays


def _engaging(position: Mapping[str, Any], labels: Mapping[str, int], seats: Sequence[str]) -> list[Frame]:
    """Enemies that engage a player as the position begins, from the zone they are laid out
    in, as a card's text engages them (``engage``, in order); then the rules go on from ``at``."""
    frames = []
    for n, spec in enumerate(position.get("engage", []), start=1):
        unknown = set(spec) - ENGAGE_FIELDS
        if unknown or not set(spec) >= ENGAGE_FIELDS:
            raise SetupError(f"engage {n}: give exactly the fields {', '.join(sorted(ENGAGE_FIELDS))}")
        enemy, seat = str(spec["enemy"]), str(spec["player"])
        if enemy not in labels:
            raise SetupError(f"engage {n}: {enemy!r} is not on the table")
        if seat not in seats:
            raise SetupError(f"engage {n}: no seat {seat!r}; the seats are {', '.join(seats)}")
        frames.append(Frame(ENGAGED_BY_A_TEXT.key, 0, {"enemy": labels[enemy], "player": seat}))
    return frames[::-1]  # the top of the stack runs first


ATTACK_FIELDS = frozenset({"enemy", "player", "defender", "attackers", "defenders", "outer"})


def _attack(spec: Mapping[str, Any], labels: Mapping[str, int], seats: Sequence[str]) -> Attack:
    """The attack being resolved (``[position.attack]``): cards by label."""
    unknown = set(spec) - ATTACK_FIELDS
    if unknown:
        raise SetupError(f"attack: unknown field(s) {sorted(unknown)}; known: {', '.join(sorted(ATTACK_FIELDS))}")

    def uid(name: object) -> int:
        if str(name) not in labels:
            raise SetupError(f"attack: no card labelled {name!r} on the table")
        return labels[str(name)]

    player = str(spec.get("player", ""))
    if player not in seats:
        raise SetupError(f"attack: no seat {player!r}; the seats are {', '.join(seats)}")
    return Attack(
        enemy=uid(spec.get("enemy")),
        player=player,
        defender=uid(spec["defender"]) if "defender" in spec else None,
        attackers=[uid(x) for x in spec.get("attackers", [])],
        defenders=[uid(x) for x in spec.get("defenders", [])],
        outer=_attack(spec["outer"], labels, seats) if "outer" in spec else None,
    )


def _zone_owner(zone: str, seats: list[str]) -> str | None:
    seat = zone_seat(zone, seats, PLAYER_ZONES, "a player's")
    if seat is None and zone not in SHARED_ZONES:
        raise SetupError(
            f"unknown zone {zone!r}; shared zones are {', '.join(SHARED_ZONES)}, "
            f"player zones are <seat>.<{'|'.join(PLAYER_ZONES)}> for seats {', '.join(seats)}"
        )
    return seat
