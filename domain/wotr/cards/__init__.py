"""Card definitions: printed data from the TOML files, what each text does from the modules.

``faction_cards.toml`` holds each faction card's printed values and a paraphrase of its
text (with a ``note`` where the source list is doubtful); ``locations.toml`` the paths and
battlegrounds. The modules beside them (one per Trilogy deck, one for the locations)
declare what the texts do, as programs over :mod:`domain.wotr.effects`, registered under
the card's code with :func:`text`.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

import msgspec

from domain.kernel.flow import Node, register

if TYPE_CHECKING:
    from domain.wotr.state import WotrState

ICONS = ("path", "bg_attack", "bg_defense", "lead_attack", "lead_defense")


class CardDef(msgspec.Struct, frozen=True, kw_only=True):
    """A faction card as printed."""

    code: str
    name: str
    deck: str
    """The Trilogy deck it belongs to (``frodo``, ``witch-king``, ``aragorn``, ``saruman``)."""
    side: str
    faction: str
    type: str
    quantity: int = 1
    paths: tuple[int, ...] = ()
    path: int = 0
    bg_attack: int = 0
    bg_defense: int = 0
    lead_attack: int = 0
    lead_defense: int = 0
    wielders: tuple[str, ...] = ()
    """Who may wield an item: card names, ``faction:<f>`` or ``keyword:<k>``."""
    keywords: tuple[str, ...] = ()
    text: str = ""
    note: str = ""
    expansion: str = ""
    """``against-the-shadow`` for a Shadow bot card (only bot seats play it)."""

    def has(self, keyword: str) -> bool:
        return keyword in self.keywords


class LocationDef(msgspec.Struct, frozen=True, kw_only=True):
    """A path (``number`` 1-9) or a battleground (``deck`` free/shadow, which defends it)."""

    code: str
    name: str
    kind: str
    vp: int
    defense: int = 0
    number: int = 0
    deck: str = ""
    defending: tuple[str, ...] = ()
    attacking: tuple[str, ...] = ()
    text: str = ""
    note: str = ""
    factions: tuple[str, ...] = ()
    """Every faction the location shows (defending, then attacking)."""
    replaces: str = ""
    """An Against the Shadow location: the base location it replaces in games with bots."""


class _FactionCards(msgspec.Struct):
    card: list[CardDef]


class _Path(msgspec.Struct, frozen=True):
    code: str
    name: str
    number: int
    vp: int
    text: str
    defense: int = 0
    note: str = ""
    replaces: str = ""


class _Battleground(msgspec.Struct, frozen=True):
    code: str
    name: str
    deck: str
    vp: int
    defense: int
    defending: tuple[str, ...]
    attacking: tuple[str, ...]
    text: str
    note: str = ""
    replaces: str = ""


class _Locations(msgspec.Struct):
    path: list[_Path]
    battleground: list[_Battleground]


class _Expansion(msgspec.Struct):
    card: list[CardDef]
    path: list[_Path]
    battleground: list[_Battleground]


EXPANSION = "against-the-shadow"


def _data(name: str) -> dict[str, object]:
    return tomllib.loads(resources.files(__package__).joinpath(name).read_text(encoding="utf-8"))


@cache
def _expansion() -> _Expansion:
    return msgspec.convert(_data("against_the_shadow.toml"), _Expansion)


@cache
def _faction_cards() -> dict[str, CardDef]:
    data = msgspec.convert(_data("faction_cards.toml"), _FactionCards)
    bots = [msgspec.structs.replace(c, expansion=EXPANSION) for c in _expansion().card]
    return {c.code: c for c in [*data.card, *bots]}


@cache
def _locations() -> dict[str, LocationDef]:
    data = msgspec.convert(_data("locations.toml"), _Locations)
    more = _expansion()
    out: dict[str, LocationDef] = {}
    for p in [*data.path, *more.path]:
        out[p.code] = LocationDef(
            code=p.code,
            name=p.name,
            kind="path",
            vp=p.vp,
            defense=p.defense,
            number=p.number,
            text=p.text,
            note=p.note,
            replaces=p.replaces,
        )
    for b in [*data.battleground, *more.battleground]:
        out[b.code] = LocationDef(
            code=b.code,
            name=b.name,
            kind="battleground",
            vp=b.vp,
            defense=b.defense,
            deck=b.deck,
            defending=b.defending,
            attacking=b.attacking,
            text=b.text,
            note=b.note,
            factions=b.defending + b.attacking,
            replaces=b.replaces,
        )
    return out


CARDS: dict[str, CardDef] = dict(_faction_cards())
LOCATIONS: dict[str, LocationDef] = dict(_locations())


def name_of(code: str) -> str:
    if code in CARDS:
        return CARDS[code].name
    return LOCATIONS[code].name


def codes_named(name: str) -> list[str]:
    return [c.code for c in CARDS.values() if c.name == name]


BOT_CARDS: dict[str, str] = {c.name: c.code for c in CARDS.values() if c.expansion == EXPANSION}
"""The printed Shadow bot cards by name: in a bot's deck each replaces the base card of that name."""
BOT_LOCATIONS: dict[str, str] = {d.replaces: d.code for d in LOCATIONS.values() if d.replaces}
"""The replacement locations, by the code of the base location each replaces."""


# -- what texts do -----------------------------------------------------------------------

Where = str
"""Where a card must be for an ability: ``reserve`` (its controller's reserve), ``path``
(on the active path), ``location`` (on a path or a battleground) or ``play`` (in play)."""


@dataclass(frozen=True)
class Action:
    """A "use your action" text: ``available`` says whether it can be used (its cost paid)."""

    effect: Node
    label: str
    where: Where = "reserve"
    available: Callable[[WotrState, int], bool] | None = None


IconHook = Callable[["WotrState", int, str], int]
"""Extra icons of a card (``state, uid, icon``), from its own text."""


@dataclass
class Text:
    """What one card's (or location's) text does, keyed by ability."""

    when_played: Node | None = None
    """Text "when played": resolves when played onto a path or a battleground."""
    when_played_reserve: Node | None = None
    """Text that resolves when the card is played into reserve (it says so)."""
    on_play: Node | None = None
    """Resolves whatever the destination (events; "when played" texts that remove a card)."""
    entered: Node | None = None
    """Text "whenever played or moved onto a path or a battleground"."""
    actions: list[Action] = field(default_factory=list)
    icons: IconHook | None = None
    location_defense: Callable[[WotrState, int], int] | None = None
    """Defense tokens this card gives the location it is on (Sting, Phial)."""
    instead: Callable[[WotrState, int, str], str | None] | None = None
    """Replacement when this card (or, for an item, its wielder) would be eliminated
    (``how``: ``path-combat``, ``battleground-combat``, ``forsake-hand``, ``forsake-reserve``,
    ``forsake-deck``, ``text``): ``cycle`` (with its items), ``cycle-alone`` (its items
    are eliminated), or None."""
    may_enter: Callable[[WotrState, int, int], bool | None] | None = None
    """This card onto a location (``state, card, location``): True allows it beyond the
    faction icons, False forbids it, None leaves it to the rules."""
    grants: Callable[[WotrState, int, int, int], bool] | None = None
    """While this card is in its controller's reserve, another card (``state, self,
    card, location``) may be played or moved onto a location."""
    supported_by: Callable[[WotrState, int, int], bool] | None = None
    """This character may be supported by an army (``state, self, army``) of another faction."""
    support_bonus: Callable[[WotrState, int, int], int] | None = None
    """Extra attack and defense icons this army has while supporting a character."""
    carryover: int = 0
    carryover_where: Where = "reserve"
    extra_draw: int = 0
    """Cards drawn in the draw step while in reserve."""
    cycle_after_draw: int = 0
    """Cards cycled from hand after the draw step while in reserve (Galadriel)."""
    activation: Node | None = None
    """Locations: the activation text."""
    battleground_losses: Node | None = None
    """Runs when this card is about to be eliminated after a battleground combat (Ioreth)."""
    excludes: str = ""
    """Items: a wielder of this item may not wield another item with this keyword."""
    boosts: Callable[[WotrState, int, int, str], int] | None = None
    """While this card is in its controller's reserve, extra icons for another card
    (``state, self, card, icon``)."""


@dataclass(frozen=True)
class RoundEffect:
    """What an effect lasting until the end of the round permits."""

    may_enter: Callable[[WotrState, int, int], bool] | None = None
    """A card (``state, card, location``) may be played or moved onto a battleground."""
    supports: Callable[[WotrState, int, int], bool] | None = None
    """An army may support a character of another faction (``state, army, character``)."""


ROUND_EFFECTS: dict[str, RoundEffect] = {}


TEXTS: dict[str, Text] = {}


def text(
    code: str,
    *,
    when_played: Node | None = None,
    when_played_reserve: Node | None = None,
    on_play: Node | None = None,
    entered: Node | None = None,
    actions: tuple[Action, ...] = (),
    icons: IconHook | None = None,
    location_defense: Callable[[WotrState, int], int] | None = None,
    instead: Callable[[WotrState, int, str], str | None] | None = None,
    may_enter: Callable[[WotrState, int, int], bool | None] | None = None,
    grants: Callable[[WotrState, int, int, int], bool] | None = None,
    supported_by: Callable[[WotrState, int, int], bool] | None = None,
    support_bonus: Callable[[WotrState, int, int], int] | None = None,
    carryover: int = 0,
    carryover_where: Where = "reserve",
    extra_draw: int = 0,
    cycle_after_draw: int = 0,
    activation: Node | None = None,
    battleground_losses: Node | None = None,
    excludes: str = "",
    boosts: Callable[[WotrState, int, int, str], int] | None = None,
) -> Text:
    """Register what the text of card (or location) ``code`` does; its programs get stable
    names ``wotr.<code>.<ability>``."""
    if code in TEXTS:
        raise ValueError(f"{code} has two texts")
    if code not in CARDS and code not in LOCATIONS:
        raise KeyError(f"{code} is not a known card")
    entry = Text(
        when_played=when_played,
        when_played_reserve=when_played_reserve,
        on_play=on_play,
        entered=entered,
        actions=list(actions),
        icons=icons,
        location_defense=location_defense,
        instead=instead,
        may_enter=may_enter,
        grants=grants,
        supported_by=supported_by,
        support_bonus=support_bonus,
        carryover=carryover,
        carryover_where=carryover_where,
        extra_draw=extra_draw,
        cycle_after_draw=cycle_after_draw,
        activation=activation,
        battleground_losses=battleground_losses,
        excludes=excludes,
        boosts=boosts,
    )
    for ability in ("when_played", "when_played_reserve", "on_play", "entered", "activation", "battleground_losses"):
        node = getattr(entry, ability)
        if node is not None:
            name = f"wotr.{code}.{ability.replace('_', '-')}"
            register(name, node, rule=name)
    for i, act in enumerate(entry.actions):
        register(f"wotr.{code}.action.{i}", act.effect, rule=f"wotr.{code}.action")
    TEXTS[code] = entry
    return entry


def text_of(code: str) -> Text:
    return TEXTS.get(code, NO_TEXT)


def program_of(code: str, ability: str) -> str | None:
    """The registered program of one ability of ``code``'s text, if it has one."""
    node = getattr(text_of(code), ability.replace("-", "_"), None)
    return f"wotr.{code}.{ability}" if node is not None else None


NO_TEXT = Text()


def load_texts() -> None:
    """Import the modules that register card texts (once)."""
    from domain.wotr.cards import against_the_shadow, aragorn, frodo, locations, saruman, witch_king  # noqa: F401
