"""Games the service can start, from what a client asks for (kind, scenario, players, decks).

Each game kind turns a request into the event that creates the game; a request that
cannot be set up raises :class:`~domain.lcg.lineups.SetupError` naming the problem.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from domain.kernel.events import Event
from domain.lcg.decks import Deck
from domain.lcg.lineups import SetupError
from projections.i18n import gettext, say
from service.room import SeatPlan


@dataclass(frozen=True)
class PlayerSetup:
    heroes: Sequence[str] = ()
    deck: Sequence[str] = ()
    """The deck's text, whole or one line per entry (see :mod:`domain.lcg.decks.formats`)."""
    deck_format: str = ""
    contract: str = ""
    """A contract to put into play with the heroes, by name or code (empty: none)."""


@dataclass(frozen=True)
class GameRequest:
    game: str
    scenario: str = ""
    options: Mapping[str, str] = field(default_factory=dict)
    players: Sequence[PlayerSetup] = ()
    unlisted: bool = False
    """Kept out of the public listing (ListGames); see :class:`service.records.SeatsAssigned`."""
    seating: Sequence[SeatPlan] = ()
    """Who plays each seat: names, open seats, bots (``service/room.py``)."""


def created_event(request: GameRequest, seed: int) -> Event:
    """The creation event of the game ``request`` describes (SetupError if it cannot be)."""
    if request.game == "lcg":
        return _lcg(request, seed)
    if request.game == "wotr":
        return _wotr(request, seed)
    raise SetupError(say("unknown game %(game)s; known: lcg, wotr", game=repr(request.game)))


def warm() -> None:
    """Make the creation event of each game kind's default request once (thrown away): it
    fills the caches every first game fills (the ready-made decks read and parsed, the
    engine's version read from the installed package's metadata). A server does this before
    it takes calls; otherwise the first calls of each of its worker threads, all missing
    those caches at once, would each fill them again (some 30 ms apiece: a 12-thread server
    under 50 clients parsed the decks 11 times)."""
    for game in ("lcg", "wotr"):
        created_event(GameRequest(game=game), 1)


def _wotr(request: GameRequest, seed: int) -> Event:
    """War of the Ring: the scenario fixes the seats and decks; options are rule readings.

    Option values are strings on the wire; ``when_played_in_reserve`` takes true/false.
    Against the Shadow: ``bots`` (the Shadow seats the rules play, comma-separated),
    ``difficulty`` (standard or challenging) and ``bot_cards`` (the text of a bot card file).
    """
    from domain.wotr.options import read_bot_cards, wotr_options
    from domain.wotr.ruleset import WOTR

    if request.players:
        raise SetupError(gettext("wotr scenarios fix their seats and decks; do not send players"))
    rules: dict[str, object] = dict(request.options)
    bots = [seat for seat in str(rules.pop("bots", "")).split(",") if seat.strip()]
    difficulty = str(rules.pop("difficulty", ""))
    card_file = rules.pop("bot_cards", None)
    pool = read_bot_cards("sent with the game", str(card_file)) if card_file is not None else None
    if "when_played_in_reserve" in rules:
        flag = str(rules["when_played_in_reserve"]).casefold()
        if flag not in ("true", "false"):
            raise SetupError(gettext("option when_played_in_reserve must be true or false"))
        rules["when_played_in_reserve"] = flag == "true"
    return WOTR.created(wotr_options(request.scenario or "trilogy", rules, bots, difficulty, pool), seed)


def player_deck(player: PlayerSetup) -> Deck | None:
    """The deck a player brings: its text, or the key of a ready-made deck (GetCatalog)."""
    from domain.lcg.decks.formats import read_deck
    from domain.lcg.decks.ready_made import ready_made

    if not player.deck:
        return None
    if len(player.deck) == 1 and not player.deck_format and player.deck[0].strip() in ready_made():
        return ready_made()[player.deck[0].strip()]
    return read_deck("\n".join(player.deck), player.deck_format)


def _lcg(request: GameRequest, seed: int) -> Event:
    from domain.lcg.lineups import lcg_options
    from domain.lcg.ruleset import LCG

    unknown = sorted(set(request.options) - {"difficulty"})
    if unknown:
        raise SetupError(say("unknown option %(unknown)s; lcg takes: difficulty", unknown=repr(unknown[0])))
    players = list(request.players) or [PlayerSetup()]
    heroes = [list(p.heroes) for p in players]
    decks = [player_deck(p) for p in players]
    options = lcg_options(
        request.scenario or "passage-through-mirkwood",
        len(players),
        heroes,
        request.options.get("difficulty", "standard"),
        decks,
        [p.contract or None for p in players],
    )
    return LCG.created(options, seed)
