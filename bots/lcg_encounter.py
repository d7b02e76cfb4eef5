"""What a seat may know of the encounter deck: its composition, never its order.

The scenario's encounter sets are public (printed on the quest cards), and every encounter
card face up on the table (the staging area, the engaged enemies and their turned-up
shadows, the conditions attached, the discard pile, the victory display, the active
location) is out of the deck. What is left is what the next reveal is drawn from, as far
as the seat can tell: the encounter deck and the face-down shadow cards together, each
card as likely as another. The quest planner (:mod:`bots.lcg_quest`) prices the staging
step's reveal over this distribution, and in Passage through Mirkwood each attack's shadow
card too (``shadow_odds``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Final

from domain.lcg.cards import CARDS
from domain.lcg.cards.hunt_for_the_dreadnaught import (
    CORSAIRS,
    DREADNAUGHT,
    ELITES,
    FLEET,
    GONDORIAN_WARSHIP,
    SETUP_CARDS,
)
from domain.lcg.cards.the_lonely_mountain import A_BARE_PATCH, SMAUG_THE_GOLDEN, SMAUG_THE_MAGNIFICENT
from domain.lcg.rules.burgle import THE_LONELY_MOUNTAIN
from domain.lcg.scenarios import SCENARIOS, Scenario, load
from projections.lcg import CardView, TableView


@dataclass(frozen=True)
class Reveal:
    """One kind of card the next reveal may turn up, and its chance."""

    chance: float
    threat: int
    """Threat it adds to the staging area (an enemy or a location)."""
    enemy: CardView | None
    """The enemy, when it is one (whether it engages is the planner's reading)."""
    harm: str
    """Its When Revealed effect, as the planner prices it (``REVEALED_HARM``), or ""."""
    more: tuple[CardView, ...] = ()
    """Enemies that come with ``enemy`` when it engages the seat this round and attack with
    it (The Hunt for the Dreadnaught's Boarding Corsairs, bots/lcg_ships.py ``engaging``)."""


EXHAUST_ONE: Final = "exhaust-one"
"""Each player exhausts a character he controls: one fewer ready for the combat."""
WOUND_EXHAUSTED: Final = "wound-exhausted"
"""1 damage to each exhausted character: every quester that did not ready."""
WOUND_QUESTER: Final = "wound-quester"
"""2 damage to a character committed to the quest."""
LOSE_QUESTER: Final = "lose-quester"
"""A character is removed from the quest: its willpower no longer counts."""
LESS_WILLPOWER: Final = "less-willpower"
"""Each committed character gets -1 willpower."""
HERO_STUCK: Final = "hero-stuck"
"""A hero does not ready (a condition): the same whatever the plan."""
REVEALED_HARM: Final = {
    "core-074": EXHAUST_ONE,  # King Spider
    "core-076": LESS_WILLPOWER,  # Ungoliant's Spawn
    "core-080": HERO_STUCK,  # Caught in a Web
    "core-089": WOUND_QUESTER,  # Dol Guldur Orcs
    "core-093": WOUND_EXHAUSTED,  # The Necromancer's Reach
    "core-098": LOSE_QUESTER,  # Black Forest Bats
}
"""The When Revealed effects of Passage through Mirkwood's encounter cards that a round's
plan can answer (commit fewer, keep a spare defender), by card; others count none."""


OUTSIDE_THE_DECK: Final = frozenset(
    {
        *(DREADNAUGHT, *ELITES, *CORSAIRS, *FLEET, GONDORIAN_WARSHIP, *SETUP_CARDS.values()),
        *(SMAUG_THE_GOLDEN, SMAUG_THE_MAGNIFICENT, THE_LONELY_MOUNTAIN, A_BARE_PATCH),
    }
)
"""Cards of an encounter set that its setup keeps out of the encounter deck (The Hunt for the
Dreadnaught: the unique enemies set aside, the 13 Corsairs in their own deck, the fleet and
the Gondorian Warships set aside, the setup cards; The Lonely Mountain: the two Smaugs, The
Lonely Mountain and A Bare Patch, which A Warm Welcome searches out and only quest cards
move, Smaug the Magnificent and A Bare Patch set aside out of the seat's sight): no reveal
turns them up."""


def _codes(view: TableView) -> set[str]:
    return {q.code for q in (view.quest,) if q is not None}


_DECKS: Final[dict[str, tuple[Scenario, int, Counter[str]]]] = {}
"""Each scenario's standard encounter deck less ``OUTSIDE_THE_DECK``, by key, with the
scenario and the size of ``CARDS`` it was reckoned from: ``Scenario.encounter_deck`` reads
every registered card (~340,000 instructions a call compiled, callgrind), and the greedy bot
asks for the composition two or three times a decision."""


def _deck(found: Scenario) -> Counter[str]:
    """``found``'s standard encounter deck less the cards outside it (never changed)."""
    kept = _DECKS.get(found.key)
    if kept is None or kept[0] is not found or kept[1] != len(CARDS):
        base = Counter(code for code in found.encounter_deck("standard") if code not in OUTSIDE_THE_DECK)
        kept = _DECKS[found.key] = (found, len(CARDS), base)
    return kept[2]


def composition(view: TableView) -> Counter[str] | None:
    """The encounter cards (by code) the seat cannot see, as a multiset; None when the quest
    is not one a scenario knows."""
    load()
    quests = _codes(view)
    found = next((s for s in SCENARIOS.values() if any(q in s.quest for q in quests)), None)
    if found is None:
        return None
    deck = _deck(found)
    seen: dict[int, str] = {}

    def mark(card: CardView) -> None:
        seen[card.uid] = card.code
        for other in (*card.attachments, *card.shadows):
            mark(other)

    places = [*view.staging, *view.revealed, *view.encounter_discard, *view.victory, *view.set_aside]
    for card in places:
        mark(card)
    if view.active_location is not None:
        mark(view.active_location)
    for player in view.players:
        for card in (*player.heroes, *player.allies, *player.engaged):
            mark(card)
    # the deck less the cards seen, those left in the deck's order: what ``Counter.subtract``
    # and ``+`` gave, without their interpreted loops
    out: dict[str, int] = {}
    for code in seen.values():
        if code in deck:
            out[code] = out.get(code, 0) + 1
    left: Counter[str] = Counter()
    for code, n in deck.items():
        n -= out.get(code, 0)
        if n > 0:
            left[code] = n
    return left


def stand_in(code: str, uid: int = -1) -> CardView:
    """An enemy not in play (one the encounter deck may reveal, one set aside), as the quest
    plan meets it: its printed stats, keywords and traits (``CARDS``), with a uid no card has."""
    d = CARDS[code]
    return CardView(
        uid=uid,
        code=code,
        name=d.name,
        type=d.type,
        attack=d.attack,
        defense=d.defense,
        hit_points=d.hit_points,
        threat=d.threat,
        engagement_cost=d.engagement_cost,
        keywords=d.keywords,
        traits=d.traits,
    )


def reveals(view: TableView, known: Counter[str] | None = None) -> list[Reveal] | None:
    """The distribution of the next card revealed, grouped by what it does to a round's plan;
    None when the encounter deck's composition is unknown or empty. ``known``: the view's
    ``composition``, when the caller has it."""
    left = composition(view) if known is None else known
    total = sum(left.values()) if left else 0
    if not left or total == 0:
        return None
    grouped: dict[tuple[object, ...], tuple[int, Reveal]] = {}
    for code, n in left.items():
        d = CARDS[code]
        enemy = stand_in(code) if d.type == "enemy" else None
        threat = d.threat if d.type in ("enemy", "location") else 0
        harm = REVEALED_HARM.get(code, "")
        key = (
            (threat, harm, d.attack, d.defense, d.hit_points, d.engagement_cost, "Ship" in d.traits)
            if enemy
            else (threat, harm)
        )
        count, first = grouped.get(key, (0, Reveal(0.0, threat, enemy, harm)))
        grouped[key] = (count + n, first)
    return [
        Reveal(count / total, r.threat, r.enemy, r.harm)
        for count, r in sorted(grouped.values(), key=lambda g: (-g[0], g[1].threat))
    ]


@dataclass(frozen=True)
class Shadow:
    """One kind of shadow card an attack may be dealt, and its chance: what it adds to the
    attack and the threat it raises, when the attack is defended and when it is not."""

    chance: float
    attack: int = 0
    undefended_attack: int = 0
    threat: int = 0
    undefended_threat: int = 0
    each: int = 0
    """Damage dealt to each other character the defending player controls (Hummerhorns: 1)."""
    undefended_each: int = 0
    """The same when the attack is undefended (Hummerhorns: 2)."""


SHADOW_EFFECTS: Final = {
    "core-089": Shadow(1.0, attack=1, undefended_attack=3),  # Dol Guldur Orcs
    "core-097": Shadow(1.0, attack=1, undefended_attack=1, undefended_threat=3),  # East Bight Patrol
    # Hummerhorns: 1 damage to each character (2 if undefended): on the one hit and on the others
    "core-075": Shadow(1.0, attack=1, undefended_attack=2, each=1, undefended_each=2),
    "core-076": Shadow(1.0, threat=4, undefended_threat=8),  # Ungoliant's Spawn
}
"""The shadow effects of Passage through Mirkwood's encounter cards that hurt an attack's
defender or the defending player (their chance is ``shadow_odds``'): attack added
(Hummerhorns' damage to each character counted as attack on the one hit) and threat raised;
the other cards' shadows add none (a discarded attachment, an exhausted character). Of the
36 cards, 5 add attack: a flat +1 on every attack priced a defended attack at seven times
its mean, and an undefended one below its tail (Dol Guldur Orcs' +3 kills a hero that a
Forest Spider's 2 only wounds)."""
MIRKWOOD_ENCOUNTER: Final = "passage-through-mirkwood"


def shadow_odds(view: TableView, known: Counter[str] | None = None) -> tuple[Shadow, ...]:
    """The distribution of a face-down shadow card's effect, grouped by effect, when the
    quest is Passage through Mirkwood's (the only scenario ``SHADOW_EFFECTS`` reads); empty
    otherwise (the planner then adds a flat margin to every attack). ``known``: the view's
    ``composition``, when the caller has it."""
    load()
    quests = _codes(view)
    if not any(q in SCENARIOS[MIRKWOOD_ENCOUNTER].quest for q in quests):
        return ()
    left = composition(view) if known is None else known
    total = sum(left.values()) if left else 0
    if not left or total == 0:
        return ()
    # grouped by the effect's code ("" for no effect: every other card's), in the order each
    # effect is first met: ``SHADOW_EFFECTS``' effects differ from each other and from none,
    # so this is grouping by effect without a Shadow made and hashed for every card
    grouped: dict[str, int] = {}
    for code, n in left.items():
        key = code if code in SHADOW_EFFECTS else ""
        grouped[key] = grouped.get(key, 0) + n
    out = []
    for key, n in sorted(grouped.items(), key=lambda g: -g[1]):
        s = SHADOW_EFFECTS.get(key, _NO_EFFECT)
        out.append(
            Shadow(n / total, s.attack, s.undefended_attack, s.threat, s.undefended_threat, s.each, s.undefended_each)
        )
    return tuple(out)


_NO_EFFECT: Final = Shadow(1.0)
"""The shadow effect of a card not in ``SHADOW_EFFECTS``: none."""
