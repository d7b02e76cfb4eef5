"""Card definitions: printed data from the pack files, abilities from the text modules.

``core_set.toml`` holds each card's printed values and a paraphrase of its text. The
modules beside it (one per sphere or encounter set) declare what the text does, as
programs over the effect vocabulary in :mod:`domain.lcg.effects`, registered under
the card's code with :func:`text`.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

import msgspec

from domain.kernel.flow import Node, register

if TYPE_CHECKING:
    from domain.kernel.events import Event
    from domain.lcg.state import LcgState


class CardDef(msgspec.Struct, frozen=True, kw_only=True):
    code: str
    name: str
    type: str
    sphere: str | None = None
    encounter_set: str | None = None
    unique: bool = False
    quantity: int = 1
    easy_quantity: int | None = None
    ringsdb_code: str = ""
    """The card's code on RingsDB (deck exports key cards by it); from ``core_set_player_ids.toml``."""
    octgn_id: str = ""
    """The card's OCTGN id (``.o8d`` decks name cards by it); from ``core_set_player_ids.toml``."""
    threat_cost: int = 0
    cost: int = 0
    willpower: int = 0
    attack: int = 0
    defense: int = 0
    hit_points: int = 0
    engagement_cost: int = 0
    threat: int = 0
    quest_points: int = 0
    victory_points: int = 0
    stage: int = 0
    traits: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    name_a: str = ""
    text: str = ""
    text_a: str = ""
    text_b: str = ""
    attach_to: str = ""
    """Attachments: what they may be attached to ("hero", "Noble hero", "character",
    "location", "engaged enemy"), as printed ("Attach to a hero.")."""

    def has(self, keyword: str) -> bool:
        return keyword in self.keywords

    def is_a(self, trait: str) -> bool:
        return trait in self.traits

    @property
    def is_character(self) -> bool:
        return self.type in ("hero", "ally", "ship-objective")


class _Pack(msgspec.Struct):
    card: list[CardDef]


class PlayerCardIds(msgspec.Struct, frozen=True):
    """A player card as deck lists name it, and how many copies of it one box holds."""

    code: str
    name: str
    type: str
    quantity: int
    ringsdb: str
    octgn: str
    aliases: tuple[str, ...] = ()


class _Ids(msgspec.Struct):
    card: list[PlayerCardIds]


def _read(name: str) -> dict[str, Any]:
    return tomllib.loads(resources.files(__package__).joinpath(name).read_bytes().decode())


PLAYER_CARD_IDS: dict[str, PlayerCardIds] = {
    c.code: c for c in msgspec.convert(_read("core_set_player_ids.toml"), _Ids).card
}
"""Every Core Set player card by code, whether or not the engine plays it yet."""


@cache
def _pack(name: str) -> dict[str, CardDef]:
    pack = msgspec.convert(_read(name), _Pack)
    return {c.code: _with_ids(c) for c in pack.card}


def _with_ids(card: CardDef) -> CardDef:
    ids = PLAYER_CARD_IDS.get(card.code)
    if ids is None:
        return card
    return msgspec.structs.replace(card, ringsdb_code=ids.ringsdb, octgn_id=ids.octgn)


def card(code: str) -> CardDef:
    return CARDS[code]


def by_name(name: str) -> list[CardDef]:
    return [c for c in CARDS.values() if c.name == name]


# -- abilities ---------------------------------------------------------------------------

TriggerTest = Callable[["LcgState", "Event", int], bool]
TriggerBind = Callable[["LcgState", "Event", int], dict[str, Any]]
Available = Callable[["LcgState", int, str], bool]


@dataclass(frozen=True)
class Trigger:
    """Forced effect or Response: runs ``effect`` after an event of type ``on``.

    ``zone`` says where the card must be to listen: ``play`` (in play), ``hand`` (in
    its owner's hand), ``subject`` (the card the event is about, wherever it went) or
    ``set-aside`` (set aside face up, out of play: Nazgûl of Dol Guldur).
    ``test`` says whether an event sets it off, at that moment; ``condition`` what must
    still hold when its turn to resolve comes (a cost it can pay, a target to choose):
    another ability resolved first may have changed it.
    """

    on: type[Event] | tuple[type[Event], ...]
    """The event type it follows, or several ("enters play": played or put into play)."""
    test: TriggerTest
    effect: Node
    zone: str = "play"
    optional: bool = False
    prompt: str = ""
    bind: TriggerBind | None = None
    condition: Callable[[LcgState, int], bool] | None = None

    def program(self) -> Node:
        """The effect; a Response is first offered to its controller, who may decline."""
        if not self.optional:
            return self.effect
        from domain.lcg.effects import offer

        return offer(self.prompt, self.effect, in_play=self.zone == "play")


@dataclass(frozen=True)
class Action:
    """An Action ability: ``available`` says whether its cost can be paid now."""

    available: Available
    effect: Node
    label: str
    anyone: bool = False
    """Any player may use it, not only the card's controller (Éowyn)."""
    planning: bool = False
    """Offered in the planning step too, between the cards its controller plays: a text that
    changes what playing a card costs (The Arkenstone)."""


@dataclass
class Text:
    """What one card's text does, keyed by ability."""

    when_revealed: Node | None = None
    shadow: Node | None = None
    travel: Node | None = None
    can_travel: Callable[[LcgState, int], bool] | None = None
    setup: Node | None = None
    forced: list[Trigger] = field(default_factory=list)
    responses: list[Trigger] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    stat: Callable[[LcgState, int, str], int] | None = None
    while_active: frozenset[str] = frozenset()
    """Game actions this location forbids while it is the active location."""
    can_defeat: Callable[[LcgState, int], bool] | None = None
    """Quest stages: whether the players may defeat this stage now."""
    wins_when_defeated: str | None = None
    """Quest stages: defeating this stage wins the game; the outcome's reason."""
    staging_attack_bonus: int | None = None
    """Characters that may attack an enemy in the staging area alone, with this bonus."""
    holds_in_refresh: int | None = None
    """Attachments: the host does not ready in the refresh phase unless this many
    resources are paid from its pool (Caught in a Web)."""
    host: Host | None = None
    """Attachments: what they do to the card they are attached to."""
    steady_stat: bool = False
    """``stat`` reads nothing but the card's own code, side and tokens (Gimli's damage): a
    search rollout's view gives again the card's view it built while those are unchanged,
    in a game where no text can blank it (``projections/lcg_view.py``)."""


@dataclass(frozen=True)
class Host:
    """What an attachment's passive text does to its host (the card it is attached to)."""

    stat: Callable[[LcgState, int, int, str], int] | None = None
    """The bonus to one stat of the host: ``stat(state, attachment, host, which)``."""
    traits: tuple[str, ...] = ()
    """Traits the host gains (Steward of Gondor: Gondor)."""
    spheres: Callable[[LcgState, int], tuple[str, ...]] | None = None
    """Resource icons the host gains: ``spheres(state, host)`` (Celebrían's Stone)."""
    cannot_attack: bool = False
    """The host (an enemy) cannot attack (Forest Snare)."""
    steady: bool = False
    """``stat`` reads nothing but the attachment's and the host's own cards (their codes, sides
    and tokens) and the host's traits (printed, or given by its attachments): a search
    rollout's view gives again the host's view it built while those are unchanged
    (``projections/lcg_view.py``)."""
    in_attacks: bool = False
    """``stat`` gives nothing while no attack is being made (``s.attack`` is None): outside
    attacks the host's view is kept as a :attr:`steady` one's is."""


TEXTS: dict[str, Text] = {}


def text(
    code: str,
    *,
    when_revealed: Node | None = None,
    shadow: Node | None = None,
    travel: Node | None = None,
    can_travel: Callable[[LcgState, int], bool] | None = None,
    setup: Node | None = None,
    forced: tuple[Trigger, ...] = (),
    responses: tuple[Trigger, ...] = (),
    actions: tuple[Action, ...] = (),
    stat: Callable[[LcgState, int, str], int] | None = None,
    while_active: frozenset[str] = frozenset(),
    can_defeat: Callable[[LcgState, int], bool] | None = None,
    wins_when_defeated: str | None = None,
    staging_attack_bonus: int | None = None,
    holds_in_refresh: int | None = None,
    host: Host | None = None,
    steady_stat: bool = False,
) -> Text:
    """Register what the text of card ``code`` does; its programs get stable names."""
    if code in TEXTS:
        raise ValueError(f"{code} has two texts")
    if code not in CARDS:
        raise KeyError(f"{code} is not a known card")
    programs: dict[str, Node | None] = {
        "when-revealed": when_revealed,
        "shadow": shadow,
        "travel": travel,
        "setup": setup,
    }
    for name, node in programs.items():
        if node is not None:
            register(f"{code}.{name}", node, rule=f"{code}.{name}")
    for kind, triggers in (("forced", forced), ("response", responses)):
        for i, trig in enumerate(triggers):
            register(f"{code}.{kind}.{i}", trig.program(), rule=f"{code}.{kind}")
    for i, act in enumerate(actions):
        register(f"{code}.action.{i}", act.effect, rule=f"{code}.action")
    entry = Text(
        when_revealed,
        shadow,
        travel,
        can_travel,
        setup,
        list(forced),
        list(responses),
        list(actions),
        stat,
        while_active,
        can_defeat,
        wins_when_defeated,
        staging_attack_bonus,
        holds_in_refresh,
        host,
        steady_stat,
    )
    TEXTS[code] = entry
    REGISTRY.version += 1
    return entry


def text_of(code: str) -> Text:
    return TEXTS.get(code, NO_TEXT)


NO_TEXT = Text()
"""The text of a card without one (the compiled rules read it through ``table.text_of``)."""


class Registry:
    """The version of the card registry (:data:`CARDS` and :data:`TEXTS`): it moves on
    whenever a card or a card's text is registered (:func:`register_cards`, :func:`text`), so what
    was read of a code's card and text may be kept while it is unchanged (a view's faces,
    ``projections/lcg_view.py``: a search's rollouts build a view for every decision of the
    greedy player, and a lookup of each card's definition by code to check it was still the
    one registered cost ~0.9 M instructions of a rollout's ~40 M). Change :data:`CARDS` through
    :func:`register_cards` only."""

    version = 0


REGISTRY = Registry()


def register_cards(*defs: CardDef) -> None:
    """Register each card of ``defs`` under its code, replacing the card of that code if
    there was one (a test's changed card): the registry's version moves on, and what was
    read of the cards by code (:data:`READ_BY_CODE`) is forgotten."""
    for d in defs:
        CARDS[d.code] = d
    REGISTRY.version += 1
    for read in READ_BY_CODE:
        read.clear()


READ_BY_CODE: list[dict[Any, Any]] = []
"""Dicts of what was read of :data:`CARDS` (``table.definition``'s native copies, by code and
by a card's uid), emptied whenever a card is registered."""


CARDS: dict[str, CardDef] = {}
"""Every card by code: change it through :func:`register_cards` (which moves :data:`REGISTRY`'s
version on), never directly."""
_PACKS = (
    "core_set.toml",
    "core_set_player.toml",
    "core_set_events.toml",
    "core_set_scenarios.toml",
    "hunt_for_the_dreadnaught.toml",
    "the_lonely_mountain.toml",
    "hobbit_player.toml",
)
register_cards(*(d for pack in _PACKS for d in _pack(pack).values()))


def load_texts() -> None:
    """Import the modules that register card texts (once)."""
    from domain.lcg.cards import (  # noqa: F401
        allies,
        allies_spirit_lore,
        attachments,
        core_set_events,
        corsairs,
        dol_guldur_orcs,
        escape_from_dol_guldur,
        heroes,
        hobbit_player,
        hobbit_treasures,
        hunt_for_the_dreadnaught,
        journey_along_the_anduin,
        passage_through_mirkwood,
        saurons_reach,
        spiders_of_mirkwood,
        the_lonely_mountain,
        wilderland_hobbit,
        wilderlands,
    )
