"""Game setup (rules §3, seed 004).

Each seat's deck is laid out and shuffled; the path cards go into one pile per number
(the pile's cards are a random pool: each activation picks one of them at random, which
is the same as shuffling each number apart), the battlegrounds into the Free Peoples and
Shadow decks (each draw from them is at random). Each seat draws its opening hand, then
cycles the scenario's number of cards (Trilogy: draw 7, cycle 2).
"""

from __future__ import annotations

from domain.kernel.events import Event
from domain.kernel.flow import ForEach, If, Node, Seq, register
from domain.kernel.runtime import Runtime
from domain.kernel.zones import NewCard
from domain.wotr import events as ev
from domain.wotr.cards import BOT_LOCATIONS, LOCATIONS
from domain.wotr.effects import cycle_from_hand, draw, emit, st
from domain.wotr.rules import table
from domain.wotr.rules.table import cards_in
from domain.wotr.scenarios import Scenario
from domain.wotr.state import Options


def layout(options: Options, chosen: Scenario) -> list[tuple[str, str, str | None]]:
    """Every card as setup lays it out, ``(code, zone, owner)``: decks in their printed order,
    the path cards by number, the battlegrounds. Against the Shadow replaces some locations
    with its own (seed 003, Components)."""
    cards: list[tuple[str, str, str | None]] = []
    for deck in options.decks:
        cards += [(code, f"{deck.seat}.deck", deck.seat) for code in deck.cards]
    swap = BOT_LOCATIONS if options.bots else {}
    for code in sorted(chosen.path_codes(), key=lambda c: LOCATIONS[c].number):
        code = swap.get(code, code)
        cards.append((code, f"paths.{LOCATIONS[code].number}", None))
    for code in chosen.battleground_codes():
        code = swap.get(code, code)
        cards.append((code, f"bg.{LOCATIONS[code].deck}", None))
    return cards


def _lay_out(rt: Runtime) -> Event:
    s = st(rt)
    assert s.options is not None
    laid = layout(s.options, table.scenario_of(s))
    return ev.CardsCreated(cards=tuple(NewCard(i, *card) for i, card in enumerate(laid, start=1)))


def _shuffle(rt: Runtime) -> Event:
    zone = f"{rt.env['player']}.deck"
    return ev.DeckShuffled(zone=zone, order=tuple(rt.shuffle(cards_in(st(rt), zone))))


def _seats(rt: Runtime) -> list[str]:
    return st(rt).seats()


def _player(rt: Runtime) -> str:
    return str(rt.env["player"])


def _bots_seated(rt: Runtime) -> Event | None:
    s = st(rt)
    assert s.options is not None
    if not s.options.bots:
        return None
    return ev.BotsSeated(bots=s.options.bots, difficulty=s.options.difficulty, substitution=substitution(s.options))


def substitution(options: Options) -> str:
    """What stands in for the Against the Shadow cards that are not public (README)."""
    printed = "the 9 bot cards and 2 locations its rulebook prints are played as printed"
    if options.bot_pool == "base":
        return (
            f"Against the Shadow: {printed}; the other bot cards are not public, so the base game's "
            "Shadow faction cards are played in their place (and the base paths and battlegrounds "
            "for the 4 replacement locations not printed)"
        )
    return f"Against the Shadow: {printed}; the other bot cards come from the card file {options.bot_pool}"


def _bot_cycles_last(rt: Runtime) -> Event | None:
    """Seed 003: a bot places the last cards it drew into the cycle pile, unexamined."""
    s = st(rt)
    seat = _player(rt)
    count = table.seat_def(s, seat).setup_cycle
    hand = cards_in(s, f"{seat}.hand")
    return ev.CardsCycled(cards=tuple(hand[-count:])) if hand and count else None


SETUP: Node = register(
    "wotr.setup",
    Seq(
        emit(_bots_seated, rule="wotr.bot.setup"),
        emit(_lay_out, rule="wotr.setup.cards"),
        ForEach(_seats, "player", emit(_shuffle), rule="wotr.setup.shuffle"),
        ForEach(
            _seats,
            "player",
            draw(_player, lambda rt: table.seat_def(st(rt), _player(rt)).setup_draw),
            rule="wotr.setup.hand",
        ),
        ForEach(
            lambda rt: [p for p in _seats(rt) if table.seat_def(st(rt), p).setup_cycle],
            "player",
            If(
                lambda rt: st(rt).is_bot(_player(rt)),
                emit(_bot_cycles_last, rule="wotr.bot.setup.cycle-last"),
                cycle_from_hand(_player, lambda rt: table.seat_def(st(rt), _player(rt)).setup_cycle),
            ),
            rule="wotr.setup.cycle",
        ),
    ),
    rule="wotr.setup",
)
