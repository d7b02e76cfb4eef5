"""Worlds a seat cannot tell from the real one: what a search plays its rollouts in.

A seat sees its own hand and everything face up; of the rest it knows only what the rules
make public: which cards make up each deck and pile (a player knows their decklist, the
scenario's encounter sets, a partner's deck), how many are where, never their order. A
*world* is the true state with every card hidden from the seat dealt again at random among
the places a card of its kind could be, and with a new seed for the chance still to come
(future shuffles, random picks, the Shadow bot's draws): a position the seat cannot tell
from the real one.

To deal, the hidden cards of each *pool* (the cards of one origin, such as "p2's cards"
or "the encounter deck and the face-down shadow cards") are put in a canonical order: their
uids sorted, their identities sorted, their places listed zone by zone. Only then are the
identities shuffled, with the search's own random generator. So a world depends on what the
seat may see, on the pools' contents as multisets, and on the search's seed, and on nothing
else: permuting the hidden cards of the real game, or changing its seed, deals the same
worlds (``tests/test_search.py`` checks it).

A seat forgets what it was once shown of a hidden card (a card looked at and put back):
a world never knows more than the seat sees now.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from statistics import NormalDist
from typing import TYPE_CHECKING, Any

import msgspec

from bots import Bot
from domain.kernel.decisions import Choice, Decision
from domain.kernel.ruleset import Ruleset
from domain.kernel.state import State

if TYPE_CHECKING:
    from domain.lcg.state import LcgState

Pool = Callable[[Any, Any], str | None]
"""For a card hidden from the seat: the pool its identity is dealt from, or None when the
rules fix what it is (the quest deck in order, cards a scenario sets aside by name)."""


@dataclass(frozen=True)
class Searchable:
    """What a search needs to know about one game, besides its rules."""

    name: str
    view: Callable[[Any, str], Any]
    """The seat's view of the table (its game's projection)."""
    visible: Callable[[Any, str, int], bool]
    """May the seat see this card (the projection's own test)?"""
    pool: Pool
    partner_of: Callable[[Any, int, str], str | None]
    """For a card an option names: the other seat whose card it is (a partner's character
    or attachment), or None when it is the seat's own or nobody's."""
    result: Callable[[Any, str], tuple[float, float]]
    """For a seat, in a finished game: (1 if its side won else 0, how far it got in [0, 1])."""
    progress: Callable[[Any, str], float]
    """How far the seat's side has got in a game still going, in [0, 1]."""
    blueprint: Callable[[int, frozenset[str]], Bot]
    """The cheap player rollouts use: (seed, seats that consent to it using their cards)."""
    narrow: Callable[[Decision, Choice], list[Choice] | None] = lambda decision, blueprint: None
    """The answers a search bot compares for a decision, given the blueprint's (a single
    one: not worth a search), or None for every candidate (:func:`bots.search.candidates`)."""
    clock: Callable[[Any], int] = lambda state: 0
    """The game's round: a rollout cut at a horizon stops when it has moved on so far."""
    value: Callable[[Any, str], float] | None = None
    """For a game still going: the seat's side's chance of winning as the position reads
    (progress, threat, hit points, cards), what a rollout cut at its horizon is worth."""
    horizon: int | None = None
    """Rounds a search bot's rollouts play before they are cut and valued (None: to the end)."""
    rollout_view: Callable[[Any, str], Any] | None = None
    """What the blueprint reads inside a rollout, where the state is the search's own world
    (never the real hidden cards): a cheaper view built straight from it, or None for
    ``view``. Decisions at the root are always answered from the seat's projection."""
    shortlist: Callable[[Bot, Decision], list[Choice] | None] = lambda bot, decision: None
    """The answers a search bot compares for a decision its blueprint ``bot`` has just
    answered (when ``narrow`` leaves it open): the blueprint's own few best, best first, or
    None for every candidate. Where a decision has a score of options, a budget of a few
    dozen rollouts spread over all of them decides nothing."""


HORIZON_ROUNDS = 2
"""A search bot's rollouts play out the round and the next before they are valued."""


LCG_VALUE_FEATURES = (
    "progress",
    "health",
    "heroes",
    "threat",
    "engaged",
    "locations",
    "enemies",
    "allies",
    "hand",
    "active",
    "harmful",
    "round",
    "brink",
    "stage1",
    "stage2",
)
"""What the LCG value reads of a position, each in [0, 1] (:func:`lcg_features`)."""
LCG_VALUE_WEIGHTS = (
    -4.383,
    2.727,
    1.306,
    4.11,
    -2.003,
    -0.503,
    -4.995,
    -0.253,
    1.38,
    0.062,
    -0.606,
    -1.69,
    -0.653,
    -0.786,
    0.384,
    0.436,
)
"""The intercept, then a weight per feature of ``LCG_VALUE_FEATURES``: a logistic model of
the greedy bot's chance of winning Passage through Mirkwood from the position, fitted by
``python -m tools.fit_value --games 1000 --seed 1`` (refitted at stop 46 to the blueprint of
main fa4a07c: log-loss on held-out games 5001-6000, 10,376 positions, 0.559 -> 0.554, Brier
0.193 -> 0.191, against stop 41's weights)."""


def lcg_progress(s: LcgState, seat: str) -> float:
    """How far the quest has got: the stages behind and the current one's progress, in [0, 1]."""
    from domain.lcg.cards import CARDS

    stages = {CARDS[s.cards[u].code].stage for z in ("quest", "quest.deck", "quest.done") for u in s.zone(z)}
    last = max(stages, default=1) or 1
    current = s.zone("quest")
    if not current:
        return 0.0
    card = s.cards[current[0]]
    points = CARDS[card.code].quest_points
    done = min(1.0, card.progress / points) if points > 0 else 0.0
    return max(0.0, min(1.0, (CARDS[card.code].stage - 1 + done) / last))


def lcg_features(s: LcgState, seat: str) -> tuple[float, ...]:
    """The position's features (``LCG_VALUE_FEATURES``), the players' averaged: the quest's
    progress, the heroes' hit points left (a dead hero counts none) and the share of heroes
    alive, the threat (of 50), the attack of the enemies engaged (of 8), the threat of the
    locations in the staging area (of 10) and of its enemies (of 10) apart, the allies (of 3),
    the cards in hand (of 5), the quest points the active location still needs (of 5), the
    enemies in the staging area that harm whoever they engage (of 2), the round (of 20), the
    threat above 40 (of 10: each point there is worth more, the game is lost at 50) and
    whether the quest is at stage 1 or at stage 2 (a stage's progress is not worth the same
    at every stage).

    Locations and enemies are apart because they weigh differently: a location stays in the
    staging area, adding its threat to every quest until it is traveled to and explored,
    while most enemies engage in the next encounter phase. The round is there so that the
    threat, which grows with it, is not read as a sign of a game that got far; every answer a
    search compares is valued at the same round. Hummerhorns waiting (5 damage to a hero as
    they engage) cost a hero in most games."""
    from bots.lcg_quest import ENGAGEMENT_HARM
    from domain.lcg.cards import CARDS

    setups = s.options.players if s.options is not None else ()
    seats = list(s.players)
    total_hp = left_hp = 0
    heroes = alive = 0
    threat = allies = hand = engaged = brink = 0.0
    for n, who in enumerate(seats):
        dealt = setups[n].heroes if n < len(setups) else ()
        total_hp += sum(CARDS[code].hit_points or 0 for code in dealt)
        heroes += len(dealt)
        for uid in s.zone(f"{who}.heroes"):
            card = s.cards[uid]
            left_hp += max(0, (CARDS[card.code].hit_points or 0) - card.damage)
            alive += 1
        threat += min(50, s.players[who].threat) / 50
        brink += min(10, max(0, s.players[who].threat - 40)) / 10
        allies += min(3, len(s.zone(f"{who}.allies"))) / 3
        hand += min(5, len(s.zone(f"{who}.hand"))) / 5
        engaged += min(8, sum(CARDS[s.cards[u].code].attack or 0 for u in s.zone(f"{who}.engaged"))) / 8
    k = max(1, len(seats))
    staging = [CARDS[s.cards[u].code] for u in s.zone("staging")]
    locations = min(10, sum(c.threat or 0 for c in staging if c.type == "location")) / 10
    enemies = min(10, sum(c.threat or 0 for c in staging if c.type == "enemy")) / 10
    harmful = min(2, sum(1 for c in staging if c.type == "enemy" and c.name in ENGAGEMENT_HARM)) / 2
    active = sum(max(0, CARDS[s.cards[u].code].quest_points - s.cards[u].progress) for u in s.zone("active"))
    quest = s.zone("quest")
    stage = CARDS[s.cards[quest[0]].code].stage if quest else 0
    return (
        lcg_progress(s, seat),
        left_hp / total_hp if total_hp else 0.0,
        min(1.0, alive / heroes) if heroes else 0.0,
        threat / k,
        engaged / k,
        locations,
        enemies,
        allies / k,
        hand / k,
        min(5, active) / 5,
        harmful,
        min(20, int(s.round)) / 20,
        brink / k,
        1.0 if stage == 1 else 0.0,
        1.0 if stage == 2 else 0.0,
    )


SHIP_VALUE_FEATURES = (*LCG_VALUE_FEATURES, "ships", "dreadnaught")
"""What the value reads of a position of The Hunt for the Dreadnaught: the features of any LCG
position (``LCG_VALUE_FEATURES``), and the ships' (:func:`ship_features`)."""
SHIP_VALUE_WEIGHTS = (
    -4.672,
    0.793,
    1.637,
    1.815,
    -1.155,
    -2.172,
    -0.786,
    -3.456,
    0.652,
    -0.516,
    0.075,
    0.0,
    1.141,
    -1.168,
    -0.938,
    -0.357,
    0.984,
    5.695,
)
"""The intercept, then a weight per feature of ``SHIP_VALUE_FEATURES``: a logistic model of
the greedy bot's chance of winning The Hunt for the Dreadnaught from the position (the
scenario's ships-leadership deck), fitted by ``python -m tools.fit_value --scenario
hunt-for-the-dreadnaught --games 1000 --seed 49001 --check 50001`` (8,551 positions; on
8,617 positions of the held-out games 50001-51000, log-loss 0.644 with the Mirkwood weights
the scenario was valued by before, 0.267 with these)."""
SHIP_HIT_POINTS = 16
"""The hit points a seat's ships are counted out of: the Basic side of the deck's ship, Pride
of Lebennin (the six Basic ships have 13 to 18, their Upgraded sides 15 to 22)."""


def ship_features(s: LcgState, seat: str) -> tuple[float, ...]:
    """A position of The Hunt for the Dreadnaught: :func:`lcg_features`, then the hit points
    the players' ship-objectives have left (of ``SHIP_HIT_POINTS`` per player: a player
    without a ship is eliminated) and the damage on the Dreadnaught (of its hit points; 0
    until it is in play). The Mirkwood features read neither, and the ships are a player's
    life in this scenario."""
    from domain.lcg.cards.hunt_for_the_dreadnaught import DREADNAUGHT
    from domain.lcg.rules import ships, table

    seats = list(s.players)
    k = max(1, len(seats))
    left = 0.0
    for who in seats:
        fleet = ships.ship_objectives(s, who)
        hp = sum(max(0, table.hit_points(s, u) - s.cards[u].damage) for u in fleet)
        left += min(SHIP_HIT_POINTS, hp) / SHIP_HIT_POINTS
    dreadnaught = 0.0
    for zone in ("staging", *(f"{who}.engaged" for who in seats)):
        for uid in s.zone(zone):
            if s.cards[uid].code == DREADNAUGHT:
                dreadnaught = max(dreadnaught, min(1.0, s.cards[uid].damage / max(1, table.hit_points(s, uid))))
    return (*lcg_features(s, seat), left / k, dreadnaught)


@dataclass(frozen=True)
class ValueModel:
    """How a scenario's positions are valued: a logistic model over features of the position."""

    names: tuple[str, ...]
    """The features' names, in the order ``features`` gives them."""
    features: Callable[[LcgState, str], tuple[float, ...]]
    weights: tuple[float, ...]
    """The intercept, then a weight per feature."""
    constant: str
    """Where the weights live in this module (what ``tools.fit_value`` prints to paste)."""

    def value(self, s: LcgState, seat: str) -> float:
        """The seat's side's chance of winning as the position reads."""
        return logistic(self.weights, self.features(s, seat))


def logistic(weights: tuple[float, ...], features: tuple[float, ...]) -> float:
    """A logistic model's probability: ``weights`` the intercept, then one per feature."""
    z = weights[0] + sum(w * x for w, x in zip(weights[1:], features, strict=True))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


LCG_VALUE = ValueModel(LCG_VALUE_FEATURES, lcg_features, LCG_VALUE_WEIGHTS, "LCG_VALUE_WEIGHTS")
LCG_VALUE_MODELS: dict[str, ValueModel] = {
    "hunt-for-the-dreadnaught": ValueModel(
        SHIP_VALUE_FEATURES, ship_features, SHIP_VALUE_WEIGHTS, "SHIP_VALUE_WEIGHTS"
    ),
}
"""Scenarios whose positions have a model of their own; any other is valued by the Passage
through Mirkwood model (``LCG_VALUE_WEIGHTS``)."""


def lcg_value_model(scenario: str) -> ValueModel:
    """The features and weights that value a position of ``scenario``."""
    return LCG_VALUE_MODELS.get(scenario, LCG_VALUE)


def _lcg() -> Searchable:
    from bots.lcg_greedy import GreedyBot
    from projections.lcg import play_view, view, visible

    player_zones = frozenset({"deck", "hand", "under"})

    def pool(s: LcgState, card: Any) -> str | None:
        zone: str = card.zone
        if zone in ("encounter.deck", "shadows"):
            return "encounter"
        if zone in ("corsair.deck", "treasures"):
            return zone
        seat, _, rest = zone.partition(".")
        if seat in s.players and rest in player_zones:
            return f"player:{card.owner or seat}"
        return None

    def partner_of(s: LcgState, uid: int, seat: str) -> str | None:
        card = s.cards.get(uid)
        if card is None or card.owner is None or card.owner == seat:
            return None
        where = card.zone.rpartition(".")[2]
        return card.owner if where in ("heroes", "allies", "attachments") else None

    def result(s: LcgState, seat: str) -> tuple[float, float]:
        if s.over is not None and s.over.result == "won":
            return 1.0, 1.0
        return 0.0, lcg_progress(s, seat)

    def value(s: LcgState, seat: str) -> float:
        """A position read as a chance of winning: the logistic model fitted to greedy
        self-play in the game's scenario (``LCG_VALUE_MODELS``; any other scenario:
        ``LCG_VALUE_WEIGHTS`` over :func:`lcg_features`)."""
        return lcg_value_model(s.options.scenario if s.options is not None else "").value(s, seat)

    def narrow(decision: Decision, blueprint: Choice) -> list[Choice] | None:
        ids = {o.id for o in decision.options}
        if "pass" in ids:
            # an action window: the blueprint's play (if any) against passing
            return [blueprint] if blueprint == ("pass",) else [blueprint, ("pass",)]
        if ids <= {"yes", "no"} or decision.rule in ("lcg.planning.pay", "lcg.event.pay"):
            return [blueprint]
        return None

    return Searchable(
        "lcg",
        view,
        visible,
        pool,
        partner_of,
        result,
        lcg_progress,
        lambda seed, consent: GreedyBot(seed, consent),
        narrow,
        lambda s: int(s.round),
        value,
        HORIZON_ROUNDS,
        play_view,
    )


def _wotr() -> Searchable:
    from bots.wotr_greedy import GreedyBot
    from domain.wotr.cards import CARDS
    from domain.wotr.rules import table
    from domain.wotr.state import FREE, SHADOW, WotrState
    from projections.wotr import view, visible

    seat_zones = frozenset({"deck", "hand", "cycle", "eliminated", "aside"})
    lead_that_wins = float(table.SUDDEN_DEATH)

    def pool(s: WotrState, card: Any) -> str | None:
        zone: str = card.zone
        if zone.startswith("paths.") or zone in ("bg.free", "bg.shadow", "shadow.score"):
            return zone
        seat, _, rest = zone.partition(".")
        if seat in s.players and rest in seat_zones:
            return f"seat:{card.owner or seat}"
        return None

    def partner_of(s: WotrState, uid: int, seat: str) -> str | None:
        card = s.cards.get(uid)
        if card is None or card.owner is None or card.owner == seat or card.owner not in s.players:
            return None
        return card.owner if s.team_of(card.owner) == s.team_of(seat) else None

    def progress(s: WotrState, seat: str) -> float:
        lead = table.score(s, FREE, s.over is not None) - table.score(s, SHADOW, s.over is not None)
        mine = lead if s.team_of(seat) == FREE else -lead
        return max(0.0, min(1.0, 0.5 + mine / (2 * lead_that_wins)))

    def result(s: WotrState, seat: str) -> tuple[float, float]:
        won = s.over is not None and s.over.winner == s.team_of(seat)
        return (1.0, 1.0) if won else (0.0, progress(s, seat))

    def value(s: WotrState, seat: str) -> float:
        """A position read as the Free Peoples' chance of winning on the final score: the
        lead as it would be scored now (unused once-a-game Ring tokens included), plus the
        icons each team holds in reserve (they move to a combat for free, rules §5), with
        an uncertainty that grows with the rounds left. Weights fitted by least squares to
        the final margin of 200 greedy games against the Shadow bots (standard): a Free
        Peoples reserve icon was worth 0.13 points at the end, a Shadow one 0.2; the
        margin's spread about the fit from 2.5 points in the last round to 6 with seven
        rounds left. The score lead alone (``progress``) made playing a card to reserve
        look worse than playing it to a combat now, where rollouts played to the end found it
        better (the first turns of a Trilogy and of a Two-Player Duel)."""
        lead = table.score(s, FREE, True) - table.score(s, SHADOW, True)
        reserve = {
            side: sum(_icons(s.cards[uid].code) for uid in table.reserve_cards(s, side) if s.cards[uid].code in CARDS)
            for side in (FREE, SHADOW)
        }
        expected = lead + FREE_RESERVE * reserve[FREE] - SHADOW_RESERVE * reserve[SHADOW]
        left = max(0, table.scenario_of(s).last_path - s.path_number)
        # a tie goes to the Shadow (rules §8): the Free Peoples need a margin of 1
        free = NormalDist(expected - 0.5, SPREAD_LAST + SPREAD_PER_ROUND * left).cdf(0.0)
        chance = 1.0 - free
        return chance if s.team_of(seat) == FREE else 1.0 - chance

    def narrow(decision: Decision, blueprint: Choice) -> list[Choice] | None:
        # a card to pay with (a play's cost, a forsake, a cycle): the blueprint gives its
        # weakest card or the deck's top, and the budget goes to the action step, where
        # the game is decided (about half a game's decisions are such payments)
        return [blueprint] if decision.rule in PAYMENTS else None

    def shortlist(bot: Bot, decision: Decision) -> list[Choice] | None:
        return bot.shortlist(decision, SHORTLIST) if isinstance(bot, GreedyBot) else None

    return Searchable(
        "wotr",
        view,
        visible,
        pool,
        partner_of,
        result,
        progress,
        lambda seed, consent: GreedyBot(seed, consent),
        narrow,
        clock=lambda s: int(s.round),
        value=value,
        horizon=HORIZON_ROUNDS,
        shortlist=shortlist,
    )


FREE_RESERVE = 0.13
SHADOW_RESERVE = 0.2
SPREAD_LAST = 2.5
SPREAD_PER_ROUND = 0.5
"""See ``value`` in :func:`_wotr`."""
PAYMENTS = frozenset({"wotr.play.cost", "wotr.forsake", "wotr.cycle"})
"""The War of the Ring decisions that choose a card to give up, left to the blueprint."""
SHORTLIST = 4
"""A War of the Ring search compares the blueprint's four best actions: an action step
offers a dozen to two dozen (each card to each place), and rollouts cost 25 ms."""


@cache
def _icons(code: str) -> int:
    from domain.wotr.cards import CARDS

    card = CARDS[code]
    return card.path + card.bg_attack + card.bg_defense + card.lead_attack + card.lead_defense


_GAMES: dict[str, Searchable] = {}


def searchable(game: str) -> Searchable:
    """What a search knows of game ``game`` (``lcg`` or ``wotr``)."""
    if not _GAMES:
        _GAMES.update({"lcg": _lcg(), "wotr": _wotr()})
    try:
        return _GAMES[game]
    except KeyError:
        raise ValueError(f"no search for game {game!r}; known: {', '.join(sorted(_GAMES))}") from None


def copy_state(rules: Ruleset[Any], state: State) -> State:
    """An independent copy of ``state`` (a codec round trip: what a snapshot stores)."""
    codec = rules.codec
    return codec.decode_state(codec.encode(state))


def hidden_places(game: Searchable, state: Any, seat: str) -> dict[str, list[tuple[str, int]]]:
    """The places (zone, index) of the cards hidden from ``seat``, by pool, in canonical order."""
    places: dict[str, list[tuple[str, int]]] = {}
    visible, pool = game.visible, game.pool
    cards = state.cards
    for zone in sorted(state.zones):
        for i, uid in enumerate(state.zones[zone]):
            if visible(state, seat, uid):
                continue
            key = pool(state, cards[uid])
            if key is not None:
                places.setdefault(key, []).append((zone, i))
    return places


def world(rules: Ruleset[Any], game: Searchable, state: Any, seat: str, rng: random.Random) -> Any:
    """A copy of ``state`` with the cards hidden from ``seat`` dealt again and a new seed."""
    out: Any = copy_state(rules, state)
    dealt: dict[int, Any] = {}
    for _pool, places in sorted(hidden_places(game, out, seat).items()):
        uids = sorted(out.zones[zone][i] for zone, i in places)
        at = [out.cards[out.zones[zone][i]] for zone, i in places]
        identities = sorted((card.code, card.owner or "") for card in at)
        rng.shuffle(identities)
        for (zone, i), card, uid, (code, owner) in zip(places, at, uids, identities, strict=True):
            out.zones[zone][i] = uid
            dealt[uid] = msgspec.structs.replace(card, uid=uid, code=code, owner=owner or None)
    if dealt:
        out.cards = {uid: dealt.get(uid, card) for uid, card in out.cards.items()}
    out.seed = rng.getrandbits(62)
    return out


def referee_world(rules: Ruleset[Any], state: Any, rng: random.Random) -> Any:
    """A copy of the true state with a new seed: the hidden cards as they are, the chance
    still to come (which depends on the choices made) sampled."""
    out: Any = copy_state(rules, state)
    out.seed = rng.getrandbits(62)
    return out
