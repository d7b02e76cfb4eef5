"""The greedy LCG player's answers to The Hobbit: On the Doorstep's encounter cards.

Questions these cards ask that a random answer gets badly wrong: Fighting Among Friends
(otd-037) takes out of the quest every committed character outside the sphere the first
player names, so the name is the sphere that keeps the most willpower questing; Western
Slopes (otd-047) gives a choice between 2 cards and 1 progress less on Smaug the Golden,
whose 6th token sends the players to stage 4A; Secret Entrance (otd-045) is reached only
when the named type is the encounter deck's top card, so the name is the commonest type
among the encounter cards the seat cannot see (bots/lcg_encounter.py).

At stage 2, where the quests are held and the active location stays for rounds, the travel
choice never takes Great Hall (its progress on Smaug the Golden each round brings stage 4A)
and counts what Hidden Path, Secret Entrance and Desolation of Smaug do while active; the
quest that will take stage 3 keeps allies back for Smaug the Magnificent, who attacks in the
same round; Bilbo Baggins under Dragon-Spell spends no resources that kill him; and Gandalf
waits in hand at stage 2 for stage 3, where his willpower decides a quest, and so does Secret
Paths, whose location's threat taken out of a quest there is progress toward removing Smaug
the Magnificent (unless a failed quest there would eliminate the player, and its location's
threat taken out keeps them in the game).
"""

from __future__ import annotations

from collections import Counter
from typing import Final

from bots import lcg_burgle
from bots.lcg_encounter import composition, stand_in
from bots.lcg_plans import SECOND_ATTACK
from bots.lcg_ships import THREAT_LIMIT
from domain.kernel.decisions import Choice, Decision
from domain.lcg.cards import CARDS
from projections.lcg import CardView, PlayerView, TableView

SMAUG_THE_GOLDEN: Final = "Smaug the Golden"
BAGGINS: Final = "baggins"
GREAT_HALL: Final = "Great Hall"
HIDDEN_PATH: Final = "Hidden Path"
HIDDEN_PATH_COST: Final = 2
"""Hidden Path's travel cost (otd-035): 2 Baggins resources, Bilbo Baggins's."""
SECRET_ENTRANCE: Final = "Secret Entrance"
DESOLATION: Final = "Desolation of Smaug"
THE_LONELY_MOUNTAIN: Final = "The Lonely Mountain"
SURGE_PRICE: Final = 2.0
"""What Desolation of Smaug as the active location costs the travel choice (otd-046: the
round's first treachery surges, a card more most rounds while the quests at stage 2 are held
and it stays active), in the travel's units (threat counted twice): 1 threat. Set, not
tuned; ``travel_bonus`` as a whole, beside the Great Hall rule, won 17 of 800 dev games
(seeds 4001-4800) against 13 with the Great Hall rule alone."""


def _me(view: TableView, seat: str) -> PlayerView:
    return next(p for p in view.players if p.seat == seat)


def _committed(view: TableView) -> list[CardView]:
    return [c for p in view.players for c in (*p.heroes, *p.allies) if c.committed]


def name_sphere(decision: Decision, view: TableView) -> Choice | None:
    """Fighting Among Friends: the sphere whose committed characters bring the most
    willpower (Baggins characters stay whatever is named, so they do not count); on a tie,
    the sphere keeping more characters questing."""
    kept: dict[str, tuple[int, int]] = {}
    for option in decision.options:
        if option.id == BAGGINS:
            continue
        staying = [c for c in _committed(view) if c.sphere == option.id]
        kept[option.id] = (sum(max(0, c.willpower or 0) for c in staying), len(staying))
    if not kept:
        return None
    return (max(kept, key=lambda sphere: kept[sphere]),)


def western_slopes(decision: Decision, view: TableView) -> Choice | None:
    """Western Slopes explored: 1 progress off Smaug the Golden while he holds any (each
    token brings stage 4A nearer), else the first player's 2 cards."""
    ids = {o.id for o in decision.options}
    golden = next((c for c in view.staging if c.name == SMAUG_THE_GOLDEN), None)
    if "smaug" in ids and golden is not None and golden.progress > 0:
        return ("smaug",)
    return ("draw",) if "draw" in ids else None


def secret_entrance(decision: Decision, view: TableView) -> Choice | None:
    """Secret Entrance's travel cost: exhaust the hero that matters least in a fight, then
    name the commonest type among the encounter cards the seat has not seen."""
    ids = [o.id for o in decision.options]
    left = composition(view)
    if left is not None and all(not i.isdigit() for i in ids):
        types: Counter[str] = Counter()
        for code, n in left.items():
            types[CARDS[code].type] += n
        named = [i for i in ids if types[i] > 0]
        return (max(named, key=lambda kind: types[kind]),) if named else None
    me = _me(view, decision.seat)
    heroes = {str(h.uid): h for h in me.heroes}
    offered = [heroes[i] for i in ids if i in heroes]
    if not offered:
        return None
    weakest = min(offered, key=lambda h: ((h.attack or 0) + (h.defense or 0), h.willpower or 0))
    return (str(weakest.uid),)


def travel_kills(location: CardView, me: PlayerView) -> bool:
    """Hidden Path's travel cost (otd-035: spend 2 Baggins resources) kills a Bilbo Baggins
    under Dragon-Spell with 2 hit points or fewer left."""
    return location.name == HIDDEN_PATH and not lcg_burgle.bilbo_can_spend(me, HIDDEN_PATH_COST)


def pretending_to_sleep(decision: Decision, view: TableView) -> Choice | None:
    """Pretending to Sleep (otd-048): spend X Baggins resources (X the progress on Smaug the
    Golden), or advance to stage 4A; the resources, unless spending them kills Bilbo Baggins
    under Dragon-Spell (the game is lost with him)."""
    ids = {o.id for o in decision.options}
    golden = next((c for c in view.staging if c.name == SMAUG_THE_GOLDEN), None)
    x = golden.progress if golden is not None else 0
    if "pay" in ids and lcg_burgle.bilbo_can_spend(_me(view, decision.seat), x):
        return ("pay",)
    return ("stage-4",) if "stage-4" in ids else None


def golden_clock(location: CardView, view: TableView) -> bool:
    """Great Hall (otd-044) as the active location places a progress on Smaug the Golden at
    the end of each round, and his 6th sends the players to stage 4A (otd-040): never
    traveled to while he is in the staging area (stage 2), where the quests are held (not
    won, ``success_cost``) and an active location stays for rounds."""
    return location.name == GREAT_HALL and any(c.name == SMAUG_THE_GOLDEN for c in view.staging)


def travel_bonus(location: CardView, view: TableView) -> float:
    """What the location's active text is worth to the travel choice (threat counted twice):
    Hidden Path takes 1 threat off each other location in the staging area, Secret Entrance
    halves The Lonely Mountain's, Desolation of Smaug surges the round's first treachery."""
    if location.name == HIDDEN_PATH:
        return 2.0 * sum(1 for c in view.staging if c.type == "location" and c.uid != location.uid)
    if location.name == SECRET_ENTRANCE:
        mountain = next((c.threat or 0 for c in view.staging if c.name == THE_LONELY_MOUNTAIN), 0)
        return 2.0 * (mountain // 2)
    if location.name == DESOLATION:
        return -SURGE_PRICE
    return 0.0


SECRET_PATHS: Final = "Secret Paths"
HELD_FOR_STAGE_3_BELOW: Final = 47
"""The threat below which Gandalf and Secret Paths stay in hand at The Burglar's Turn
(``kept_for_stage_3``).

Gandalf held below 44, the greedy row won, paired by seed with the old bot that played him when
affordable, 21 -> 41 of 800 games on seeds 6401-7200, 18 -> 52 on 7201-8000, 20 -> 46 on
8001-8800; on 6401-6800 the players reached stage 3 in 231 games rather than 144 (his 5
resources went on other cards first), failed quests at stage 2 raised the threat by 7049
rather than 8093, and the stage-3 quests were begun at 37.7 threat rather than 38.9. Below
47 rather than 44: 41 -> 47 on 6401-7200, 52 -> 57 on 7201-8000, 46 -> 48 on 8001-8800.

Secret Paths: the old bot played it at 2B whenever the staging area held 2 threat (in 100
games of seeds 14401-14500: 88 times at stage 2, 21 at stage 3; held, 2 and 59). Held below
47 (Gandalf's figure; no other tried), the greedy row won, paired by seed with the old bot,
51 -> 60 of 800 games on seeds 14401-15200 (12 seeds won only by the old bot, 21 only by the
new), 50 -> 54 on 15201-16000 (17 / 21), 41 -> 49 on 16001-16800 (13 / 21).

With Secret Paths played to stay in the game (``ELIMINATION``), both cards held below 49 won
63 -> 64 of 800 on seeds 17601-18400 (2 gained, 1 lost), 65 -> 62 on 18401-19200 (0 / 3),
56 -> 56 on 19201-20000 (1 / 1); below 44, 63 -> 64 (5 / 4), 65 -> 63 (2 / 4), 56 -> 52
(1 / 5): 47 kept. The Galadhrim's Greeting also kept in hand here won 62 -> 60 on
17601-18400 (13 / 15), played at 2B only when a failed quest would eliminate, the same."""


def kept_for_stage_3(view: TableView, me: PlayerView) -> bool:
    """Whether a card for Inside Information (3B) stays in hand at The Burglar's Turn (2B):
    at 3B a quest is won only when the ready willpower beats the staging area's threat by 6
    or more, and at 2B the quests are held (tied, or lost by a point or two, ``success_cost``).
    Gandalf (core-073: 4 willpower for the round he is played in, and 5 threat off) is worth
    more there, his threat coming off there as well; so is Secret Paths (core-066: a location
    in the staging area contributes no threat until the end of the quest phase), each point
    of it a point of progress toward the 21 that remove Smaug the Magnificent in the two or
    three quests the threat leaves. Both are played at 2B once the threat reaches
    ``HELD_FOR_STAGE_3_BELOW``."""
    return view.quest is not None and view.quest.name == BURGLARS_TURN and me.threat < HELD_FOR_STAGE_3_BELOW


def shortfall(view: TableView) -> int:
    """What the quest being resolved falls short by (the staging area's threat against the
    committed characters' willpower; 0 when it is tied or won): each player's threat rise."""
    return max(0, view.staging_threat - view.committed_willpower)


ELIMINATION: Final = THREAT_LIMIT
"""The threat that eliminates a player (Core Set rulebook). Below ``HELD_FOR_STAGE_3_BELOW``
Secret Paths is still played at The Burglar's Turn when the quest, failed, raises the threat to
this, on a location that keeps the player in the game (``saving_location``). Paired by seed
with the bot that kept it in hand, the greedy row won 62 -> 63 of 800 games on seeds
17601-18400 (1 gained, 0 lost), 62 -> 65 on 18401-19200 (3 gained, 0 lost), 56 -> 56 on
19201-20000 (0 gained, 0 lost); Passage through Mirkwood seeds 1-200 unchanged (82 of 200).
Played instead only when it ties the failing quest (its location's threat just what the quest
falls short by, at any threat below 47), it won 62 -> 52 on 17601-18400 (13 gained, 23 lost)."""


def saving_location(view: TableView, me: PlayerView) -> CardView | None:
    """At The Burglar's Turn, when the quest being resolved, failed, raises the threat to
    ``ELIMINATION``: a location in the staging area whose threat taken out of the quest
    (Secret Paths) keeps the player in the game; the one that leaves the quest failed by the
    least (a won quest brings a burgle attempt), else the least that wins it."""
    if view.quest is None or view.quest.name != BURGLARS_TURN:
        return None
    short = shortfall(view)
    needed = me.threat + short - (ELIMINATION - 1)
    if needed <= 0:
        return None
    saving = [
        c
        for c in view.staging
        # otd-043: with a card stacked under it The Lonely Mountain is immune to player card effects
        if c.type == "location" and (c.threat or 0) >= needed and not (c.name == THE_LONELY_MOUNTAIN and view.treasures)
    ]
    if not saving:
        return None
    return min(saving, key=lambda c: ((c.threat or 0) > short, abs(short - (c.threat or 0))))


ARKENSTONE: Final = "The Arkenstone"
THREAT_TO_SPARE: Final = 40
"""The Arkenstone raises its controller's threat: not past this (50 eliminates the player)."""


def _arkenstone_host(me: PlayerView) -> CardView | None:
    return next((h for h in me.heroes if any(a.name == ARKENSTONE for a in h.attachments)), None)


def arkenstone_shortfall(view: TableView, seat: str) -> int | None:
    """The X worth paying for The Arkenstone (otd-020: the next ally of the attached hero's
    sphere costs X less, for X threat): what the cheapest ally in hand of that sphere lacks
    to be played now; None when every such ally is affordable already, none is in hand, or
    the threat would climb too high."""
    me = _me(view, seat)
    host = _arkenstone_host(me)
    if host is None:
        return None
    pool = sum(h.resources for h in me.heroes if h.sphere == host.sphere)
    short = [(c.cost or 0) - pool for c in me.hand or [] if c.type == "ally" and c.sphere == host.sphere]
    lacking = [x for x in short if x > 0]
    if not lacking or me.threat + min(lacking) > THREAT_TO_SPARE:
        return None
    return min(lacking)


def arkenstone_x(decision: Decision, view: TableView) -> Choice | None:
    """The Arkenstone's X: just what the ally to be played lacks (each X is 1 threat)."""
    wanted = arkenstone_shortfall(view, decision.seat) or 1
    offered = sorted(int(o.id) for o in decision.options if o.id.isdigit())
    fitting = [x for x in offered if x >= wanted] or offered
    return (str(fitting[0]),) if fitting else None


GOLDEN_CUP: Final = "Thrór's Golden Cup"


def cup_for_a_burgle(decision: Decision, view: TableView, cards: dict[int, CardView]) -> Choice | None:
    """In a burgle attempt's action window, when the hand cannot match the turned-up card:
    Thrór's Golden Cup (otd-024) draws 3 cards for nothing but itself, before The Lonely
    Mountain's Action spends 2 of Bilbo's resources on one card."""
    if decision.rule != "lcg.burgle.window" or lcg_burgle.can_succeed(view, _me(view, decision.seat)):
        return None
    cup = next((o for o in decision.options if o.card in cards and cards[o.card].name == GOLDEN_CUP), None)
    return (cup.id,) if cup is not None else None


STAGE_3_POWER: Final = 40
"""Willpower and attack of the characters in play (Bilbo Baggins's too) that the players
take to Inside Information (otd-073). There the staging area holds 10 threat or more (Smaug
the Magnificent's 6, The Lonely Mountain's 4 or more, the locations left from stage 2), the
stage needs 21 progress while Smaug keeps his 20 hit points, and his 8 attack, often twice a
round, takes an ally (or a hero) each time. Advancing after the first successful burgle, in
round 3 or 4 with 0 to 2 allies, the greedy bot reached stage 3 in 90 of 100 games and never
made more than 3 of the 21 progress (seeds 1-100)."""
THREAT_TO_ADVANCE: Final = 40
"""From this threat on, the players advance when they may: staying at stage 2 only raises it
further, and stage 3 is the only way to win."""
GOLDEN_LAST: Final = 5
"""Progress on Smaug the Golden at which the players advance when they may: his 6th, placed
by the next successful quest before its burgle attempt, sends them to stage 4A (otd-040)."""


def _power(me: PlayerView) -> int:
    return sum(max(0, c.willpower or 0) + max(0, c.attack or 0) for c in (*me.heroes, *me.allies))


def _golden_full(view: TableView) -> bool:
    """Smaug the Golden holds the progress that ends the burgling (``GOLDEN_LAST``)."""
    golden = next((c for c in view.staging if c.name == SMAUG_THE_GOLDEN), None)
    return golden is not None and golden.progress >= GOLDEN_LAST


def _ready(view: TableView, me: PlayerView) -> bool:
    """The players would advance to stage 3 now (``advance``)."""
    return _power(me) >= STAGE_3_POWER or me.threat >= THREAT_TO_ADVANCE or _golden_full(view)


BURGLARS_TURN: Final = "The Burglar's Turn"
HOLD: Final = 8.0
"""What a successful quest at The Burglar's Turn (otd-072) costs, in threat, while the
players will not advance after it (``advance``): its burgle attempt takes a treasure from
under The Lonely Mountain (2 threat more on it in every later quest at stages 2 and 3) or
fails (Smaug the Golden's attack), and it places a progress on Smaug the Golden. With 4
treasures under it the greedy bot failed 344 of 548 stage-2 quests (seeds 1001-1200). Held
so, it won 15 of 600 games instead of 1 (seeds 3001-3600); a cost of 4 won 4 of 400 on
seeds 1001-1400 where 8 won 5 and the old plan 2, one of 1.5 none of 200."""
TO_STAGE_4: Final = 10.0
"""A successful quest that places Smaug the Golden's 6th progress: stage 4A, where Smaug
the Magnificent's 6 threat and attacks come back and no burgle attempt is made."""


def success_cost(view: TableView, me: PlayerView) -> float | None:
    """What questing successfully costs at The Burglar's Turn beyond its progress (None at
    other stages): ``TO_STAGE_4`` when it sends the players to stage 4A; ``HOLD`` while the
    board is not ready for stage 3, so the quest is tied (or lost by less) instead; nothing
    once the players would advance."""
    if view.quest is None or view.quest.name != BURGLARS_TURN:
        return None
    if _golden_full(view):
        return TO_STAGE_4
    return 0.0 if _ready(view, me) else HOLD


def useful_progress(view: TableView) -> float:
    """The progress a quest at The Burglar's Turn can use: only what the active location
    lacks (the stage has no quest points; progress placed on it does nothing)."""
    location = view.active_location
    if location is None or location.quest_points is None:
        return 0.0
    return float(max(0, location.quest_points - location.progress))


SMAUG_THE_MAGNIFICENT: Final = "otd-041"
"""The set-aside Smaug the Magnificent, whom the quest plan meets (``lcg_encounter.stand_in``)
before he is in play: Inside Information (otd-073) adds him to the staging area, engaged with
the first player, and he attacks in that round's combat phase."""


def arriving(view: TableView, me: PlayerView) -> tuple[CardView, ...]:
    """Smaug the Magnificent's attacks in this round's combat phase when the players will
    take stage 3 after a successful quest at The Burglar's Turn (``advance``): Inside
    Information adds him, engaged with the first player, and he attacks twice when his
    shadow card has a burgle effect (bots/lcg_plans.py ``SECOND_ATTACK``). A plan that
    committed everyone left no ally to give up to him, and his 8 damage killed a hero. Reckoned
    with whatever the quest's outcome, so that no plan fails the quest to keep him away."""
    if (
        not me.first
        or view.quest is None
        or view.quest.name != BURGLARS_TURN
        or _golden_full(view)
        or not _ready(view, me)
    ):
        return ()
    return (stand_in(SMAUG_THE_MAGNIFICENT, -41),) * SECOND_ATTACK


def advance(decision: Decision, view: TableView) -> Choice | None:
    """The Burglar's Turn (otd-072) offers stage 3 after each successful burgle: taken with a
    board that can hold Inside Information (``STAGE_3_POWER``), or when waiting costs more
    than it builds (``THREAT_TO_ADVANCE``, ``GOLDEN_LAST``); otherwise the players stay at
    stage 2 and play allies."""
    ids = {o.id for o in decision.options}
    if ids != {"yes", "no"}:
        return None
    return ("yes",) if _ready(view, _me(view, decision.seat)) else ("no",)
