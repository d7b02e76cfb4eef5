"""Games the service can start, from what a client asks for (kind, scenario, players, decks).

Each game kind turns a request into the event that creates the game; a request that
cannot be set up raises :class:`~domain.lcg.lineups.SetupError` naming the problem.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from domain.kernel.events import Event
from domain.lcg.lineups import SetupError

MAX_DECK = 200


@dataclass(frozen=True)
class PlayerSetup:
    heroes: Sequence[str] = ()
    deck: Sequence[str] = ()


@dataclass(frozen=True)
class GameRequest:
    game: str
    scenario: str = ""
    options: Mapping[str, str] = field(default_factory=dict)
    players: Sequence[PlayerSetup] = ()


def created_event(request: GameRequest, seed: int) -> Event:
    """The creation event of the game ``request`` describes (SetupError if it cannot be)."""
    if request.game == "lcg":
        return _lcg(request, seed)
    if request.game == "wotr":
        return _wotr(request, seed)
    raise SetupError(f"unknown game {request.game!r}; known: lcg, wotr")


def _wotr(request: GameRequest, seed: int) -> Event:
    """War of the Ring: the scenario fixes the seats and decks; options are rule readings.

    Option values are strings on the wire; ``when_played_in_reserve`` takes true/false.
    """
    from domain.wotr.options import wotr_options
    from domain.wotr.ruleset import WOTR

    if request.players:
        raise SetupError("wotr scenarios fix their seats and decks; do not send players")
    rules: dict[str, object] = dict(request.options)
    if "when_played_in_reserve" in rules:
        flag = str(rules["when_played_in_reserve"]).casefold()
        if flag not in ("true", "false"):
            raise SetupError("option when_played_in_reserve must be true or false")
        rules["when_played_in_reserve"] = flag == "true"
    return WOTR.created(wotr_options(request.scenario or "trilogy", rules), seed)


def _fold(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return plain.casefold().replace(" ", "").replace("-", "").replace("'", "")


def _lcg(request: GameRequest, seed: int) -> Event:
    import msgspec

    from domain.lcg.cards import CARDS
    from domain.lcg.lineups import lcg_options
    from domain.lcg.ruleset import LCG

    unknown = sorted(set(request.options) - {"difficulty"})
    if unknown:
        raise SetupError(f"unknown option {unknown[0]!r}; lcg takes: difficulty")
    players = list(request.players) or [PlayerSetup()]
    heroes: list[list[str]] = []
    for i, player in enumerate(players):
        if player.heroes:
            if len(heroes) != i:
                raise SetupError(f"player {i + 1} names heroes but player {len(heroes) + 1} does not")
            heroes.append(list(player.heroes))
    options = lcg_options(
        request.scenario or "passage-through-mirkwood",
        len(players),
        heroes or None,
        request.options.get("difficulty", "standard"),
    )
    allies = {c.code: c for c in CARDS.values() if c.type in ("ally", "attachment")}
    by_name = {_fold(c.name): c.code for c in allies.values()}
    setups = []
    for i, (player, setup) in enumerate(zip(players, options.players, strict=True)):
        if not player.deck:
            setups.append(setup)
            continue
        if not 6 <= len(player.deck) <= MAX_DECK:
            raise SetupError(f"player {i + 1}'s deck must have 6 to {MAX_DECK} cards, not {len(player.deck)}")
        codes = []
        for name in player.deck:
            code = name if name in allies else by_name.get(_fold(name))
            if code is None:
                raise SetupError(f"player {i + 1}'s deck: {name!r} is not an ally or an attachment card")
            codes.append(code)
        setups.append(msgspec.structs.replace(setup, deck=tuple(codes)))
    return LCG.created(msgspec.structs.replace(options, players=tuple(setups)), seed)
