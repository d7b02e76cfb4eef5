"""Who plays what: the options a new game is made from, validated.

A game is a scenario (its seats, decks and locations) plus the readings of the disputed
rules (:class:`~domain.wotr.state.RuleOptions`, documented in ``open_questions.md``).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence

import msgspec

from domain.kernel.ruleset import SetupError
from domain.wotr.cards import BOT_CARDS, CARDS, ICONS, CardDef
from domain.wotr.scenarios import SCENARIOS, load, scenario
from domain.wotr.state import SHADOW, DeckSetup, Options, RuleOptions

CHOICES: dict[str, tuple[str, ...]] = {
    "excess_hand": ("cycle", "keep"),
    "play_cost": ("cycle", "cycle-or-forsake"),
    "empty_combat": ("defender", "nobody"),
}


def scenario_keys() -> list[str]:
    load()
    return sorted(SCENARIOS)


def rule_options(values: Mapping[str, object] | None = None) -> RuleOptions:
    values = dict(values or {})
    unknown = set(values) - {*CHOICES, "when_played_in_reserve"}
    if unknown:
        raise SetupError(
            f"unknown rule option(s) {sorted(unknown)}; known: {', '.join([*CHOICES, 'when_played_in_reserve'])}"
        )
    for key, allowed in CHOICES.items():
        if key in values and values[key] not in allowed:
            raise SetupError(f"rule option {key} must be one of {', '.join(allowed)}, not {values[key]!r}")
    flag = values.pop("when_played_in_reserve", False)
    if not isinstance(flag, bool):
        raise SetupError("rule option when_played_in_reserve must be true or false")
    return RuleOptions(**{k: str(v) for k, v in values.items()}, when_played_in_reserve=flag)


def wotr_options(
    scenario_key: str,
    rules: Mapping[str, object] | None = None,
    bots: Sequence[str] = (),
    difficulty: str = "",
    bot_cards: BotCards | None = None,
) -> Options:
    """Validated options for a new game; raises :class:`SetupError` with the reason.

    ``bots`` (Against the Shadow): the Shadow seats the rules play — every Shadow seat of
    the scenario (``shadow`` says so for any scenario); ``difficulty`` ``standard`` or
    ``challenging``; ``bot_cards`` a card file that replaces the substitute pool
    (:func:`read_bot_cards`)."""
    try:
        chosen = scenario(scenario_key)
    except KeyError as error:
        raise SetupError(str(error.args[0])) from None
    bots = tuple(dict.fromkeys(b.strip() for b in bots if b.strip()))
    if not bots:
        if difficulty or bot_cards is not None:
            raise SetupError("--difficulty and --bot-cards are for games against Shadow bots (--bots)")
        decks = tuple(DeckSetup(d.seat, d.team, d.factions, d.cards) for d in chosen.seats)
        return Options(scenario=chosen.key, decks=decks, rules=rule_options(rules))
    shadow = [d.seat for d in chosen.seats if d.team == SHADOW]
    if bots == ("shadow",):
        bots = tuple(shadow)
    if sorted(bots) != sorted(shadow):
        raise SetupError(
            f"--bots must name every Shadow seat of {chosen.key} and nothing else: {','.join(shadow)} "
            f"(got {','.join(bots)})"
        )
    difficulty = difficulty or "standard"
    if difficulty not in DIFFICULTIES:
        raise SetupError(f"difficulty must be one of {', '.join(DIFFICULTIES)}, not {difficulty!r}")
    decks = tuple(
        DeckSetup(d.seat, d.team, d.factions, bot_deck(d.cards, d.factions, bot_cards) if d.seat in bots else d.cards)
        for d in chosen.seats
    )
    return Options(
        scenario=chosen.key,
        decks=decks,
        rules=rule_options(rules),
        bots=tuple(d.seat for d in chosen.seats if d.seat in bots),
        difficulty=difficulty,
        bot_pool="base" if bot_cards is None else bot_cards.name,
        bot_cards=() if bot_cards is None else bot_cards.cards,
    )


DIFFICULTIES = ("standard", "challenging")
BOT_FACTIONS = ("isengard", "monstrous", "southron", "mordor")


def bot_deck(cards: Sequence[str], factions: Sequence[str], pool: BotCards | None) -> tuple[str, ...]:
    """A Shadow bot's deck: the printed bot cards, and the substitute pool for the rest —
    the base deck's cards (each replaced by the bot card of the same name, where one is
    printed), or the cards of a ``--bot-cards`` file of the deck's factions."""
    if pool is None:
        return tuple(BOT_CARDS.get(CARDS[code].name, code) for code in cards)
    printed = [CARDS[code] for code in BOT_CARDS.values() if CARDS[code].faction in factions]
    given = [c for c in pool.cards if c.faction in factions]
    return tuple(c.code for c in [*printed, *given] for _ in range(c.quantity))


class BotCards(msgspec.Struct, frozen=True):
    """The cards of a ``--bot-cards`` file (its name as given, for the setup event)."""

    name: str
    cards: tuple[CardDef, ...]


class _BotCardFile(msgspec.Struct, forbid_unknown_fields=True):
    card: list[CardDef]


def read_bot_cards(name: str, text: str) -> BotCards:
    """Parse a card file in the engine's card-data format (``[[card]]`` tables as in
    ``domain/wotr/cards/faction_cards.toml``): Shadow bot cards that replace the substitute
    pool. Raises :class:`SetupError` naming what is wrong."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise SetupError(f"bot card file {name}: not valid TOML: {error}") from None
    fields = set(CardDef.__struct_fields__) - {"expansion"}
    for i, entry in enumerate(data.get("card", []) if isinstance(data.get("card"), list) else []):
        unknown = sorted(set(entry) - fields) if isinstance(entry, dict) else []
        if unknown:
            raise SetupError(
                f"bot card file {name}: card {i + 1} has unknown field(s) {unknown}; known: {sorted(fields)}"
            )
    try:
        parsed = msgspec.convert(data, _BotCardFile)
    except msgspec.ValidationError as error:
        raise SetupError(
            f"bot card file {name}: {error} (each [[card]] needs code, name, deck, side, "
            "faction and type; see domain/wotr/cards/faction_cards.toml)"
        ) from None
    if not parsed.card:
        raise SetupError(f"bot card file {name}: no [[card]] entries")
    seen: set[str] = set()
    cards = []
    for card in parsed.card:
        where = f"bot card file {name}, card {card.code!r}"
        if card.code in seen:
            raise SetupError(f"{where}: the code is used twice")
        seen.add(card.code)
        if card.side != SHADOW:
            raise SetupError(f"{where}: side must be 'shadow', not {card.side!r}")
        if card.faction not in BOT_FACTIONS:
            raise SetupError(f"{where}: faction must be one of {', '.join(BOT_FACTIONS)}, not {card.faction!r}")
        if card.type not in CARD_TYPES:
            raise SetupError(f"{where}: type must be one of {', '.join(CARD_TYPES)}, not {card.type!r}")
        if card.quantity < 1 or min(getattr(card, icon) for icon in ICONS) < 0:
            raise SetupError(f"{where}: quantity must be at least 1 and icons at least 0")
        if card.paths and (card.type != "character" or not all(1 <= n <= 9 for n in card.paths)):
            raise SetupError(f"{where}: only a character has paths, numbered 1 to 9")
        known = CARDS.get(card.code)
        if known is not None and known != card:
            raise SetupError(f"{where}: the code is already a different card ({known.name}); give it another code")
        cards.append(card)
    return BotCards(name, tuple(cards))


CARD_TYPES = ("army", "character", "item", "event")
