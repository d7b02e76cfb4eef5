"""Game setup: lay out the cards, set threat, shuffle, draw 6, mulligan, reveal the first stage.

Rules (Core Set rulebook, setup): each player puts their heroes into play and sets their
threat to the heroes' total threat cost; shuffles their deck and draws 6 cards; the
encounter deck is shuffled; stage 1A is revealed and its Setup text followed, then it is
flipped to 1B.
Ruling (Core Set rulebook, "Draw Setup Hand"): a player who does not want their setup hand
may take a mulligan once, shuffling the hand back into the deck and drawing 6 new cards;
the second hand is kept. Players decide in turn order, from the first player.
"""

from __future__ import annotations

from domain.kernel.decisions import Option
from domain.kernel.events import Event
from domain.kernel.flow import Ask, Call, Decide, ForEach, If, Node, Seq, register
from domain.kernel.runtime import Runtime
from domain.kernel.zones import NewCard
from domain.lcg import events as ev
from domain.lcg.effects import emit, st
from domain.lcg.rules import table
from domain.lcg.rules.table import cards_in
from domain.lcg.scenarios import scenario
from domain.lcg.state import LcgState

HAND_SIZE = 6


def _lay_out(rt: Runtime) -> Event:
    s = st(rt)
    assert s.options is not None
    chosen = scenario(s.options.scenario)
    cards: list[NewCard] = []

    def add(code: str, zone: str, owner: str | None = None) -> None:
        cards.append(NewCard(len(cards) + 1, code, zone, owner))

    for seat, setup in zip(s.order, s.options.players, strict=True):
        for code in setup.heroes:
            add(code, f"{seat}.heroes", seat)
        if setup.contract:
            add(setup.contract, f"{seat}.contract", seat)
        for code in setup.deck:
            add(code, f"{seat}.deck", seat)
    for code in chosen.quest:
        add(code, "quest.deck")
    for code in chosen.encounter_deck(s.options.difficulty):
        add(code, "encounter.deck")
    return ev.CardsCreated(cards=tuple(cards))


def threat_costs(s: LcgState, seat: str) -> list[tuple[int, int]]:
    """Each of a player's heroes with its threat cost: the starting threat is their total
    (rulebook, Setup: "each player sets his threat dial to his heroes' total threat cost")."""
    return [(h, table.defn(s, h).threat_cost) for h in table.heroes(s, seat)]


def _threat(rt: Runtime) -> Event:
    seat = rt.env["player"]
    total = sum(cost for _, cost in threat_costs(st(rt), seat))
    return ev.ThreatSet(player=seat, threat=total)


def _shuffle_deck(rt: Runtime) -> Event:
    zone = f"{rt.env['player']}.deck"
    return ev.DeckShuffled(zone=zone, order=tuple(rt.shuffle(cards_in(st(rt), zone))))


def _shuffle_encounter(rt: Runtime) -> Event:
    return ev.DeckShuffled(zone="encounter.deck", order=tuple(rt.shuffle(cards_in(st(rt), "encounter.deck"))))


def _opening_hand(rt: Runtime) -> Event:
    seat = rt.env["player"]
    return ev.CardsDrawn(player=seat, cards=tuple(cards_in(st(rt), f"{seat}.deck")[:HAND_SIZE]))


def _ask_mulligan(rt: Runtime) -> Ask | None:
    seat = rt.env["player"]
    if not cards_in(st(rt), f"{seat}.hand"):
        return None
    options = [Option("keep", "Keep this hand"), Option("mulligan", "Mulligan: shuffle it back and draw 6 new cards")]
    return Ask(seat, "Keep your setup hand, or take a mulligan?", options)


def _shuffle_hand_back(rt: Runtime) -> Event:
    seat = rt.env["player"]
    s = st(rt)
    cards = cards_in(s, f"{seat}.hand") + cards_in(s, f"{seat}.deck")
    return ev.DeckShuffled(zone=f"{seat}.deck", order=tuple(rt.shuffle(cards)))


MULLIGAN: Node = Decide(
    _ask_mulligan,
    "mulligan",
    If(lambda rt: rt.env["mulligan"] == "mulligan", Seq(emit(_shuffle_hand_back), emit(_opening_hand))),
    rule="lcg.setup.mulligan",
)


def _seats(rt: Runtime) -> list[str]:
    return list(st(rt).order)


SETUP: Node = register(
    "lcg.setup",
    Seq(
        emit(_lay_out, rule="lcg.setup.cards"),
        ForEach(_seats, "player", emit(_threat), rule="lcg.setup.threat"),
        ForEach(_seats, "player", emit(_shuffle_deck), rule="lcg.setup.shuffle"),
        emit(_shuffle_encounter, rule="lcg.setup.shuffle"),
        ForEach(_seats, "player", emit(_opening_hand), rule="lcg.setup.hand"),
        ForEach(_seats, "player", MULLIGAN, rule="lcg.setup.mulligan"),
        Call("lcg.quest.reveal", lambda rt: {"card": cards_in(st(rt), "quest.deck")[0]}, rule="lcg.setup.quest"),
    ),
    rule="lcg.setup",
)
