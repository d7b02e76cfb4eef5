"""A greedy LCG player: simple, sound heuristics for each kind of decision.

It sees only its seat's view. It quests with every character it does not keep back for
the combat to come (a defender that survives each enemy that will attack, a hard hitter
when enemies are about), travels where the threat is and the travel cost low, engages
an enemy it can defend against and kill, defends with characters that survive (or chumps
with its cheapest ally rather than lose a hero), shares out its attackers so enemies die,
puts damage where it kills nobody (its own characters first when equal), uses Actions and
plays events when they help (bots/lcg_events.py), and always takes free benefits.

It never chooses another seat's character or attachment unless that seat consents
(``consent``: a bot of the same kind in that seat, see ``bots.make_bot``) or the rules
leave no other answer.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Callable
from typing import Final

import msgspec

from bots import View, lcg_burgle, lcg_hobbit, lcg_plans, lcg_quest, lcg_ships, random_choice, without_cards
from bots.lcg_burgle import essential
from bots.lcg_encounter import Reveal, composition, reveals, shadow_odds
from bots.lcg_events import TARGETS, play_event, respond
from bots.lcg_quest import Round, commit
from domain.kernel.decisions import Choice, Decision, Kind, Option
from domain.lcg.rules.burgle import MOUNTAIN_COST
from domain.lcg.rules.planning import ACTION as ACTION_OPTION
from projections.lcg import CardView, PlayerView, TableView

Handler = Callable[[Decision, TableView], Choice | None]

EXPECTED_THREAT_PER_REVEAL: Final = 2
"""What one staging reveal adds on average when the encounter deck's composition is not
known (bots/lcg_encounter.py knows it for every scenario's quest)."""
SHADOW_MARGIN: Final = 1
"""Attack a shadow card may add: a defender is counted safe only with this much to spare."""
WINS_WHEN_DEFEATED: Final = ("Ungoliant's Spawn",)
"""Enemies whose defeat wins the game at some stage (Don't Leave the Path!): a search for a
card brings one into play, to be fought, rather than leave it in the encounter deck."""
PROGRESS_ON_KILL: Final = frozenset({"Legolas", "Blade of Gondolin"})
"""Cards that place progress on the quest when the character attacks and destroys an enemy:
such attackers join every attack that kills."""
HARMFUL_ENGAGEMENT: Final = {"Hummerhorns": 5}
"""Enemies that hurt whoever engages them (damage dealt to a hero): never engaged by choice
unless a hero can take it."""
DAMAGE_RULES: Final = {
    "lcg.keyword.archery": 1,
    "core-089.when-revealed": 2,
    "core-083.forced": 1,
    "core-075.forced": 5,
    "thftd-031.forced": 1,
    "thftd-040.shadow": 1,
    "thftd-046.when-revealed": 1,
}
"""Decisions that put damage on a character of the seat's choice, with the damage dealt."""
ALLIES_FIRST: Final = frozenset(
    {"lcg.keyword.archery", "thftd-040.shadow", "thftd-046.when-revealed", "core-083.forced"}
)
"""Damage spread a point at a time round after round (Archery: the Dreadnaught's each combat
phase, Black Sails' and the War Galleys'; Ballista Barrage; Violent Tempest; Goblin Sniper's
point each combat phase it waits in the staging area, where the Anduin's Evil Storm and
Necromancer's Reach later find the hero it wounded: on seeds 9401-10200 and 10201-11000 the
greedy Anduin row won 65 and 80 games with it first on an ally, 61 and 74 without): an ally that
survives the point takes it before a hero, whose hit points the Leadership and Spirit decks cannot heal and
whose loss costs the game sooner."""
WORST_FIRST: Final = frozenset(
    {
        "core-074.when-revealed",
        "core-074.shadow",
        "core-098.when-revealed",
        "core-096.shadow",
        "thftd-021.forced",
        "core-118.when-revealed",
    }
)
"""Decisions that take something from the seat (exhaust a character, attach Caught in a Web,
remove a questing character, discard an attachment or a card): it gives the least useful."""
GANDALF_DRAWS: Final = 3
"""Gandalf's "draw 3 cards" (core-073)."""
GANDALF_THREAT_OFF: Final = 5
"""Gandalf's "lower your threat by 5" (core-073)."""
HARMFUL_KILL_THREAT: Final = 45
"""Below this threat Gandalf's 4 damage ("deal 4 damage to 1 enemy in play", core-073; the
staging area is in play) kills a harmful enemy waiting there (``HARMFUL_ENGAGEMENT``:
Hummerhorns, 3 hit points) before it engages, rather than take 5 threat off, which only
puts its engagement off (the threat rises every round)."""
KEEPABLE_HAND: Final = 2
"""Setup hands with fewer cards the heroes can pay for in two rounds are mulliganed."""


def without_ids(decision: Decision, ids: set[str]) -> Decision:
    """The decision without the options ``ids``."""
    return msgspec.structs.replace(decision, options=tuple(o for o in decision.options if o.id not in ids))


def visible_cards(view: TableView) -> dict[int, CardView]:
    """Every card the seat can see, by uid."""
    out: dict[int, CardView] = {}
    for player in view.players:
        for group in (player.heroes, player.allies, player.engaged, player.hand or []):
            for card in group:
                out[card.uid] = card
                for a in card.attachments:
                    out[a.uid] = a
    for card in [*view.staging, *view.revealed]:
        out[card.uid] = card
    for extra in (view.active_location, view.quest):
        if extra is not None:
            out[extra.uid] = extra
    return out


NOT_WORTH_PLAYING: Final = frozenset({"Dark Knowledge", "Protector of Lórien"})
"""Cards the greedy bot keeps in hand: what they give is not worth what they cost it (it
never discards cards for Protector of Lórien's bonus)."""
FIRST_ATTACHMENTS: Final = frozenset({"Steward of Gondor", "Celebrían's Stone", "Blade of Gondolin"})
"""Attachments worth more than an ally; the others are played with what allies leave. Blade
of Gondolin costs 1 and places a progress token on each kill of its hero (Legolas: one more
on his own), the quest's progress in a deck of little willpower."""

KEPT_EVENTS: Final = frozenset(
    {"A Test of Will", "The Galadhrim's Greeting", "Feint", "Hasty Stroke", "For Gondor!", "Will of the West"}
)
"""Events kept in hand over allies when a card must be discarded (Éowyn's willpower): they
cancel a When Revealed effect, an attack or a shadow effect, take 6 threat off, add an
attack to every character (the Dreadnaught's 5 a round), or give back a pillaged deck."""

WILLPOWER_ATTACHMENTS: Final = frozenset({"Celebrían's Stone", "The Favor of the Lady", "Unexpected Courage"})
ATTACK_ATTACHMENTS: Final = frozenset({"Dwarven Axe", "Blade of Gondolin"})
DEFENSE_ATTACHMENTS: Final = frozenset({"Citadel Plate", "Protector of Lórien"})
CITADEL_PLATE: Final = "Citadel Plate"
"""+4 hit points (core-040). While an enemy that hurts whoever engages it waits in the staging
area (``HARMFUL_ENGAGEMENT``: Hummerhorns' 5 damage, which kills any hero of 5 hit points or
fewer) it is played before allies, on a hero of ``DAMAGE_TO_ATTACK``, who then takes the 5
damage and lives: on Passage through Mirkwood seeds 17201-18000 and 18001-18800 the greedy bot
won 354 and 364 games of 800 with both, 339 and 351 without (the plate was in hand at 27 of 74
of Hummerhorns' engagements, behind allies)."""
DAMAGE_TO_ATTACK: Final = frozenset({"Gimli"})
"""Heroes whose attack grows with their damage (Gimli: +1 attack for each damage token): a
Citadel Plate goes on them first, the damage they take turned into attack."""
HARMFUL_CONDITIONS: Final = frozenset({"Caught in a Web", "Dark Knowledge"})
OBJECTIVES: Final = ("core-108", "core-109", "core-110")
"""Escape from Dol Guldur's objectives, whose claim asks for a hero."""


def partner_cards(view: TableView, seat: str, consent: frozenset[str]) -> set[int]:
    """The characters (and their attachments) of the other seats that have not consented to
    this bot choosing them."""
    out: set[int] = set()
    for player in view.players:
        if player.seat == seat or player.seat in consent:
            continue
        for card in (*player.heroes, *player.allies):
            out.add(card.uid)
            out.update(a.uid for a in card.attachments)
    return out


def _attackers(me: PlayerView) -> list[CardView]:
    """The enemies engaged with a player that will attack them (not one under Forest Snare)."""
    return [e for e in me.engaged if not any(a.name == "Forest Snare" for a in e.attachments)]


WEB: Final = "Caught in a Web"
"""The condition that keeps its hero exhausted in the refresh phase unless 2 of his
resources are paid for each copy (core-080)."""
WEB_COST: Final = 2
"""What a Caught in a Web costs its hero's pool to ready in the refresh phase."""


def webbed(card: CardView) -> bool:
    """A hero under Caught in a Web who cannot pay to ready in the refresh phase: once
    exhausted (an attack, a defence, a quest he does not ready after) he stays exhausted,
    round after round, until his pool holds the price (Aragorn stayed so for 5-6 rounds)."""
    webs = sum(1 for a in card.attachments if a.name == WEB)
    return webs > 0 and card.resources < WEB_COST * webs


def _restricted(card: CardView) -> int:
    return sum(1 for a in card.attachments if "Restricted" in a.keywords)


def _me(view: TableView, seat: str) -> PlayerView:
    return next(p for p in view.players if p.seat == seat)


def _left(card: CardView) -> int:
    # in an epic group the hit points shown are a global value, the other groups' damage counted in it
    return (card.hit_points or 0) - card.damage - card.other_groups


def _value(card: CardView) -> int:
    """What a card is worth keeping: heroes most, then by cost and stats."""
    stats = (card.willpower or 0) + (card.attack or 0) + (card.defense or 0)
    if essential(card):
        return 1000
    return (20 if card.type == "hero" else 0) + 2 * (card.cost or 0) + stats + len(card.attachments)


def _kill_cost(enemy: CardView, ready: list[CardView]) -> int | None:
    """The attack that destroys ``enemy`` now (its hit points left plus its defense), when the
    ready characters that may attack it have that much; None otherwise (the Dreadnaught's
    damage a round is capped: it is worn down, never killed at once)."""
    if enemy.name == lcg_ships.DREADNAUGHT:
        return None
    able = [c for c in ready if not lcg_ships.is_ship(c) or "Ship" in enemy.traits]
    need = _left(enemy) + (enemy.defense or 0)
    return need if sum(c.attack or 0 for c in able) >= need else None


def _progress_on_kill(card: CardView) -> bool:
    return card.name in PROGRESS_ON_KILL or any(a.name in PROGRESS_ON_KILL for a in card.attachments)


def _readies_after_commit(card: CardView, me: PlayerView | None = None) -> bool:
    """Aragorn: "after Aragorn commits to a quest, spend 1 resource from his pool to ready him"
    (unless his resources are saved for a Steward of Gondor, see ``_saving_for_steward``)."""
    if me is not None and _saving_for_steward(card, me):
        return False
    return card.name == "Aragorn" and card.type == "hero" and card.resources > 0


STEWARD: Final = "Steward of Gondor"
SNEAK_ATTACK: Final = "Sneak Attack"
"""Sneak Attack (core-023): "Action: put an ally from your hand into play; at the end of the
phase, if that ally is still in play, return it to your hand." Kept with a Gandalf from Pride
of Lebennin's 11-card setup hand (thftd-008), the pair ranks with the cheap allies: Gandalf's
entry (4 damage, 3 cards or 5 threat off, core-073) for 1 resource rather than 5. Paired by
seed against the shuffle back that sent them back as dear and as events (greedy,
ships-leadership): 186 -> 192 on 41001-43400 (56 gained, 50 lost), 208 -> 224 on
43401-45800 (70 / 54), 208 -> 210 on 45801-48200 (59 / 57)."""


def _saving_for_steward(hero: CardView, me: PlayerView) -> bool:
    """Whether ``hero``'s resources are kept for a Steward of Gondor in hand: it costs 2
    Leadership, and once on a Leadership hero it adds 2 resources every round (Core Set
    card 26), which pays for the Leadership allies and Gandalf. Aragorn readying each
    round for 1 resource would otherwise keep his pool below 2 for the whole game."""
    if hero.sphere != "leadership" or hero.resources >= 3:
        return False
    in_play = any(a.name == STEWARD for c in me.heroes for a in c.attachments)
    return not in_play and any(c.name == STEWARD for c in me.hand or [])


def _will_engage(enemy: CardView, me: PlayerView, view: TableView) -> bool:
    """Will this staging enemy engage this player in the coming engagement checks (if the
    quest stage makes them, bots/lcg_plans.py)?"""
    if enemy.engagement_cost is None or enemy.engagement_cost > me.threat or not lcg_plans.engagement_checks(view):
        return False
    others = [p.threat for p in view.players if not p.eliminated and p.seat != me.seat]
    return all(me.threat >= t for t in others)


def _last_to_engage(me: PlayerView, view: TableView) -> bool:
    """Whether this player's threat is the highest, so that an enemy its threat reaches
    engages it (the engagement checks go to the highest threat)."""
    return all(me.threat >= p.threat for p in view.players if not p.eliminated and p.seat != me.seat)


def _location_left(view: TableView) -> int:
    """The progress that explores the active location, when locations wait in the staging
    area to be traveled to after it (else 0)."""
    active = view.active_location
    if active is None or not any(c.type == "location" for c in view.staging):
        return 0
    return max(0, (active.quest_points or 0) - active.progress)


def _attacker(view: TableView, seat: str) -> CardView | None:
    """The enemy whose undefended attack is being dealt, when the decision does not name it
    (lcg.combat.undefended-damage): the one whose shadow card is turned up, else the hardest
    hitter that can attack the seat (engaged, or a Dragon attacking from the staging area), so
    that a lethal attack is never reckoned harmless."""
    me = _me(view, seat)
    enemies = [*me.engaged, *(c for c in view.staging if c.type == "enemy")]
    shown = [e for e in enemies if e.shadows]
    return max(shown or enemies, key=lambda e: e.attack or 0, default=None)


def _travel_cost(location: CardView) -> float:
    text = location.text
    if "Travel:" not in text:
        return 0.0
    cost = text.split("Travel:", 1)[1].lower()
    if "reveal" in cost:
        return 3.0
    return 1.5


def _beorn_kills(beorn: CardView, me: PlayerView) -> bool:
    """Beorn's +5 attack (then he is shuffled back into the deck, core-031) only when he is
    ready to attack and it makes a kill that the ready characters cannot make without it:
    on an exhausted Beorn (he defended) it bought nothing and threw away a 6-cost ally."""
    if beorn.exhausted:
        return False
    power = sum(c.attack or 0 for c in [*me.heroes, *me.allies] if not c.exhausted)
    return any(power - (e.defense or 0) < _left(e) <= power + 5 - (e.defense or 0) for e in _attackers(me))


def _feints(me: PlayerView) -> int:
    """The attacks this round the seat can cancel with the Feints in its hand (core-034, cost
    1 Tactics), one a Tactics resource."""
    feints = sum(1 for c in me.hand or [] if c.name == "Feint")
    return min(feints, sum(h.resources for h in me.heroes if h.sphere == "tactics"))


def _engaging_reveal(reveal: Reveal, view: TableView) -> Reveal:
    """``reveal``, whose enemy engages the seat this round, with what attacks with it
    (bots/lcg_ships.py ``engaging``)."""
    if reveal.enemy is None:
        return reveal
    first, *more = lcg_ships.engaging(reveal.enemy, view)
    if first is reveal.enemy and not more:
        return reveal
    return Reveal(reveal.chance, reveal.threat, first, reveal.harm, tuple(more))


class GreedyBot:
    """Plays well enough to win some games of Passage through Mirkwood."""

    def __init__(self, seed: int, consent: frozenset[str] = frozenset()) -> None:
        self.rng = random.Random(seed)
        self.consent = consent
        """The other seats whose cards this bot may choose (see ``bots.make_bot``)."""
        self.rules: dict[str, Handler] = {
            "lcg.setup.mulligan": self._mulligan,
            "lcg.planning.play-ally": self._play,
            "lcg.planning.pay": self._pay,
            "lcg.planning.attach": self._attach,
            "lcg.keyword.restricted": self._drop_restricted,
            **{f"{code}.action": self._claim_on for code in OBJECTIVES},
            "core-001.response": self._aragorn,
            "core-061.response": self._miner,
            "core-073.response": self._gandalf,
            "core-007.action": self._eowyn_discard,
            "lcg.quest.commit": self._commit,
            "lcg.travel": self._travel,
            "lcg.encounter.optional-engagement": self._engage,
            "lcg.combat.declare-defender": self._defend,
            "lcg.combat.undefended-damage": self._take_damage,
            "lcg.combat.attack-target": self._attack_target,
            "lcg.combat.player-attack": self._attack,
            "lcg.combat.staging-attack": self._staging_attack,
            "lcg.combat.declare-defenders": lambda d, v: ("done",),
            "lcg.combat.defended-damage": self._take_damage,
            "lcg.event.pay": self._pay,
            "lcg.event.response": lambda d, v: respond(d, v, visible_cards(v)),
            **{rule: self._target(pick) for rule, pick in TARGETS.items()},
            **{rule: self._damage for rule in DAMAGE_RULES},
            **{rule: self._least_useful for rule in WORST_FIRST},
            "core-121.when-revealed": self._spider,
            "core-080.when-revealed": self._caught,
            "lcg.burgle.step-3": lambda d, v: lcg_burgle.step(d, v),
            "otd-037.when-revealed": lcg_hobbit.name_sphere,
            "otd-045.travel": lcg_hobbit.secret_entrance,
            "otd-047.response": lcg_hobbit.western_slopes,
            "otd-020.action": lcg_hobbit.arkenstone_x,
            "otd-072.forced": lcg_hobbit.advance,
            "otd-048.when-revealed": lcg_hobbit.pretending_to_sleep,
            "thftd.setup.fleet": lambda d, v: lcg_ships.fleet(d, v),
            "thftd-008.setup": self._shuffle_back,
            "thftd-027.forced": lambda d, v: lcg_ships.threat_or_boarding(d, v),
            "thftd-032.forced": lambda d, v: lcg_ships.threat_or_boarding(d, v),
            "thftd-043.shadow": lambda d, v: lcg_ships.threat_or_boarding(d, v),
            "thftd-005.response": lambda d, v: lcg_ships.cancel_dreadnaught(d, v),
            "thftd-042.action": self._crew,
            "thftd-045.action": self._crew,
            "thftd-001.action": lcg_ships.ten_damage_target,
            "thftd-002.action": lcg_ships.ten_damage_target,
            lcg_ships.TWILIGHT_RULE: self._twilight,
        }

    def choose(self, decision: Decision, view: View) -> Choice:
        table: TableView | None = None
        if any(o.card is not None for o in decision.options):
            table = view()
            decision = without_cards(decision, partner_cards(table, decision.seat, self.consent))
        handler = self.rules.get(decision.rule)
        if handler is None and any(o.id == "pass" for o in decision.options):
            handler = self._window
        picked = handler(decision, table or view()) if handler else None
        return picked if picked is not None else self._generic(decision)

    def _generic(self, decision: Decision) -> Choice:
        ids = [o.id for o in decision.options]
        for preferred in ("yes", "pay", "keep"):
            if preferred in ids:
                return (preferred,)
        if decision.kind is Kind.MANY:
            # "choose up to n": take as many as allowed (searches, free readies)
            return tuple(ids[: decision.max]) if decision.min == 0 else tuple(ids[: decision.min])
        real = [i for i in ids if i not in ("none", "skip", "pass", "no")]
        if decision.kind is Kind.ONE and real:
            return (self.rng.choice(real),)
        return random_choice(decision, self.rng)

    @staticmethod
    def _target(pick: Callable[[Decision, TableView, dict[int, CardView]], Choice | None]) -> Handler:
        return lambda decision, view: pick(decision, view, visible_cards(view))

    def _twilight(self, decision: Decision, view: TableView) -> Choice | None:
        """Twilight's Call's Action (thftd-011): the ally it plays (``lcg_ships.twilight_choice``);
        an attachment's target as in the planning step."""
        if decision.about is not None:
            return self._attach(decision, view)
        return lcg_ships.twilight_choice(decision, view)

    def _staging_attack(self, decision: Decision, view: TableView) -> Choice | None:
        """Dúnhere attacks alone into the staging area (core-009) the enemy he kills or wears
        down there (bots/lcg_plans.py ``staging_prey``); the old rule never attacked, and his
        text went unused."""
        cards = visible_cards(view)
        for option in decision.options:
            hitter, _, enemy = option.id.partition(">")
            card = cards.get(int(hitter)) if hitter.isdigit() else None
            if card is None:
                continue
            prey = lcg_plans.staging_prey(view, card)
            if prey is not None and str(prey.uid) == enemy:
                return (option.id,)
        return ("skip",)

    def _skip(self, decision: Decision, view: TableView) -> Choice | None:
        ids = {o.id for o in decision.options}
        return ("skip",) if "skip" in ids else None

    # -- setup -----------------------------------------------------------------------

    def _mulligan(self, decision: Decision, view: TableView) -> Choice | None:
        """Keep a hand with at least two cards the heroes can pay for in the first two rounds."""
        me = _me(view, decision.seat)
        income: dict[str | None, int] = {}
        for hero in me.heroes:
            income[hero.sphere] = income.get(hero.sphere, 0) + 2
        early = [
            c
            for c in me.hand or []
            if (c.cost or 0) <= (len(me.heroes) * 2 if c.sphere == "neutral" else income.get(c.sphere, 0))
        ]
        return ("keep",) if len(early) >= KEEPABLE_HAND else ("mulligan",)

    def _shuffle_back(self, decision: Decision, view: TableView) -> Choice | None:
        """Pride of Lebennin's 5 cards shuffled back from an 11-card hand (thftd-008): those
        the first rounds can least use. Kept first: Steward of Gondor (2 resources a round),
        the allies one round's resources pay for, then the dearer allies and the cheap
        attachments, then the cheap events; a second copy of a title ranks a tier lower. A
        Sneak Attack and a Gandalf both in hand stay with the cheap allies (``SNEAK_ATTACK``)."""
        me = _me(view, decision.seat)
        hand = {c.uid: c for c in me.hand or []}
        offered = [o for o in decision.options if o.card in hand]
        if len(offered) < decision.min:
            return None
        income = len(me.heroes)
        seen: set[str] = set()
        names = {hand[o.card or 0].name for o in offered}
        pair: tuple[str, ...] = (SNEAK_ATTACK, lcg_plans.GANDALF) if {SNEAK_ATTACK, lcg_plans.GANDALF} <= names else ()

        def tier(c: CardView) -> int:
            cost = c.cost or 0
            if c.name == STEWARD:
                return 4
            if c.type == "ally":
                return 3 if cost <= income else 2 if cost <= 2 * income else 0
            if c.type == "attachment":
                return 2 if cost <= income else 0
            return 1 if cost <= 1 else 0

        def keep(o: Option) -> tuple[int, int]:
            c = hand[o.card or 0]
            again = c.name in seen
            seen.add(c.name)
            if c.name in pair and not again:
                return (3, -(c.cost or 0))
            return (tier(c) - int(again), -(c.cost or 0))

        ranked = sorted(offered, key=keep)
        # the rules shuffle the deck with the chosen cards appended in the chosen order
        # (_shuffle_five_back), so answer in card order: the ranking picks which cards go back,
        # never how the deck comes out of the shuffle
        back = sorted(ranked[: decision.min], key=lambda o: o.card or 0)
        return tuple(o.id for o in back)

    # -- planning --------------------------------------------------------------------

    def _play(self, decision: Decision, view: TableView) -> Choice | None:
        cards = visible_cards(view)
        me = _me(view, decision.seat)
        kept = lcg_plans.reserve(view, me)

        def affordable(c: CardView) -> bool:
            # what stays in the card's sphere after paying for it covers the cards kept for the troll
            pool = sum(h.resources for h in me.heroes if h.sphere == c.sphere)
            return c.sphere not in kept or c.name in lcg_plans.RESERVES or pool - (c.cost or 0) >= kept[c.sphere]

        # The Arkenstone's Action (for threat) only when it lets an ally in hand be played
        arkenstone = lcg_hobbit.arkenstone_shortfall(view, decision.seat) is not None

        def discount(o: Option) -> bool:
            return o.id.startswith(ACTION_OPTION) and cards[o.card or 0].name == lcg_hobbit.ARKENSTONE

        plays = [
            o
            for o in decision.options
            if o.card in cards
            and cards[o.card].name not in NOT_WORTH_PLAYING
            and affordable(cards[o.card])
            and (arkenstone or not discount(o))
            and not lcg_burgle.play_kills(cards[o.card], me)
        ]
        snares = [o for o in plays if cards[o.card or 0].name == lcg_plans.FOREST_SNARE]
        if snares and lcg_plans.snare(view, me) is not None:
            return (snares[0].id,)
        if lcg_plans.troll_about(view):
            plays = [o for o in plays if o not in snares]
        if lcg_plans.hold_gandalf(view, me) or lcg_hobbit.kept_for_stage_3(view, me):
            plays = [o for o in plays if cards[o.card or 0].name != lcg_plans.GANDALF]
        if not plays:
            return ("done",)

        # a hero's hit points against the damage a harmful enemy deals as it engages: the plate
        # waited behind allies (and the resources saved for them) and was still in hand
        braced = any(c.name in HARMFUL_ENGAGEMENT for c in view.staging)

        def worth(o: Option) -> tuple[int, int, int]:
            c = cards[o.card or 0]
            first = c.type == "ally" or c.name in FIRST_ATTACHMENTS or discount(o)
            first = first or (braced and c.name == CITADEL_PLATE)
            return (int(first), c.cost or 0, 2 * (c.willpower or 0) + (c.attack or 0) + (c.defense or 0))

        best = max(plays, key=worth)
        if not worth(best)[0] and self._saving_for_an_ally(cards[best.card or 0], view, decision.seat):
            return ("done",)
        return (best.id,)

    @staticmethod
    def _saving_for_an_ally(attachment: CardView, view: TableView, seat: str) -> bool:
        """Keep the resources a lesser attachment would take when they are needed for an ally
        in hand that is not yet affordable: a body on the table is worth more."""
        me = _me(view, seat)
        return any(
            c.type == "ally"
            and c.sphere in (attachment.sphere, "neutral")
            and (c.cost or 0) > lcg_plans.sphere_pool(me, c.sphere)
            for c in me.hand or []
        )

    def _attach(self, decision: Decision, view: TableView) -> Choice | None:
        """Put an attachment where it helps: stats on the hero that uses them, Forest Snare on
        the hardest hitter, Power in the Earth on the worst location; never a third Restricted."""
        cards = visible_cards(view)
        attachment = cards.get(decision.about or -1)
        targets = [cards[o.card] for o in decision.options if o.card in cards]
        if attachment is None or not targets:
            return None
        mine = {c.uid for c in [*_me(view, decision.seat).heroes, *_me(view, decision.seat).allies]}
        name = attachment.name
        if "Restricted" in attachment.keywords:
            targets = [c for c in targets if _restricted(c) < 2] or targets
        if name == lcg_plans.FOREST_SNARE:
            key = lambda c: (lcg_plans.unsnared(c), not lcg_plans.snared(c), c.attack or 0)  # noqa: E731
            return (str(max(targets, key=key).uid),)
        if name == "Power in the Earth":
            return (str(max(targets, key=lambda c: c.threat or 0).uid),)
        own = [c for c in targets if c.uid in mine] or targets

        def score(c: CardView) -> tuple[int, int]:
            if name in WILLPOWER_ATTACHMENTS:
                return (int(name == "Celebrían's Stone" and c.name == "Aragorn"), c.willpower or 0)
            if name == "Blade of Gondolin":
                # its progress on a kill adds to Legolas' own: the hero that kills most
                return (int(c.name in PROGRESS_ON_KILL), c.attack or 0)
            if name in ATTACK_ATTACHMENTS:
                return (int(name == "Dwarven Axe" and "Dwarf" in c.traits), c.attack or 0)
            if name in DEFENSE_ATTACHMENTS:
                return (int(name == CITADEL_PLATE and c.name in DAMAGE_TO_ATTACK), c.defense or 0)
            if name == STEWARD:
                # its resources are of the host's sphere: Leadership pays for the allies in the deck
                return (int(c.sphere == "leadership"), (c.willpower or 0) + (c.attack or 0))
            if name == "Self Preservation":
                return (c.damage, c.hit_points or 0)
            return (0, (c.willpower or 0) + (c.attack or 0) + (c.defense or 0))

        return (str(max(own, key=score).uid),)

    def _drop_restricted(self, decision: Decision, view: TableView) -> Choice | None:
        """Discard the cheapest Restricted attachments, a claimed objective last (it would go
        back to the staging area and the threat paid to claim it would be lost)."""
        cards = visible_cards(view)
        held = sorted(
            (o for o in decision.options if o.card in cards),
            key=lambda o: (cards[o.card or 0].type == "objective", cards[o.card or 0].cost or 0),
        )
        return tuple(o.id for o in held[: decision.min]) if held else None

    def _claim_on(self, decision: Decision, view: TableView) -> Choice | None:
        """A claimed objective goes to the hero with the fewest Restricted attachments."""
        cards = visible_cards(view)
        heroes = [cards[o.card] for o in decision.options if o.card in cards]
        return (str(min(heroes, key=_restricted).uid),) if heroes else None

    def _aragorn(self, decision: Decision, view: TableView) -> Choice | None:
        """Ready Aragorn after he commits, unless his resources are saved for a Steward of Gondor."""
        me = _me(view, decision.seat)
        aragorn = next((h for h in me.heroes if h.name == "Aragorn"), None)
        if aragorn is not None and _saving_for_steward(aragorn, me):
            return ("no",)
        return ("yes",)

    def _miner(self, decision: Decision, view: TableView) -> Choice | None:
        """Discard a harmful condition (Caught in a Web, Dark Knowledge), never a helpful one."""
        cards = visible_cards(view)
        harmful = [o for o in decision.options if o.card in cards and cards[o.card or 0].name in HARMFUL_CONDITIONS]
        ids = {o.id for o in decision.options}
        if "yes" in ids:
            attached = [a for p in view.players for c in [*p.heroes, *p.allies] for a in c.attachments]
            return ("yes",) if any(a.name in HARMFUL_CONDITIONS for a in attached) else ("no",)
        return (harmful[0].id,) if harmful else None

    def _gandalf(self, decision: Decision, view: TableView) -> Choice | None:
        """Kill Hummerhorns waiting in the staging area, else lower a high threat (or one a
        ship-enemy's engagement cost is near, ``lcg_ships.keeps_ship_enemy_away``), else kill
        the strongest enemy engaged with anyone, else draw."""
        ids = {o.id for o in decision.options}
        waiting = {c.uid for c in view.staging if c.name in HARMFUL_ENGAGEMENT and _left(c) <= lcg_plans.GANDALF_DAMAGE}
        if "draw" not in ids:
            cards = visible_cards(view)
            enemies = [cards[o.card] for o in decision.options if o.card in cards and cards[o.card].type == "enemy"]
            key = lambda e: (e.uid in waiting, e.name in lcg_plans.MUST_DIE, e.attack or 0)  # noqa: E731
            return (str(max(enemies, key=key).uid),) if enemies else None
        me = _me(view, decision.seat)
        if "damage" in ids and waiting and me.threat < HARMFUL_KILL_THREAT:
            return ("damage",)
        # a Hill Troll about to engage by check at full hit points is kept in the staging area:
        # his 4 damage on it (the old choice here) left it 5 hit points and 3 defense, more
        # than the board got through before it killed a hero
        if lcg_plans.troll_coming(view, me):
            return ("threat",)
        if "damage" in ids and lcg_plans.troll_to_wound(view, me):
            return ("damage",)
        if me.threat >= 35 or lcg_ships.keeps_ship_enemy_away(view, me, GANDALF_THREAT_OFF):
            return ("threat",)
        if "damage" in ids and any(p.engaged for p in view.players):
            return ("damage",)
        return ("draw",) if lcg_ships.draw_worth(view, GANDALF_DRAWS) else ("threat",)

    def _eowyn_discard(self, decision: Decision, view: TableView) -> Choice | None:
        """Éowyn's +1 willpower costs a card from the hand: the one worth least (the
        cheapest other card, then allies, and the events that cancel or lower threat last),
        never one picked at random."""
        hand = {c.uid: c for c in _me(view, decision.seat).hand or []}
        given = [o for o in decision.options if o.card in hand]
        if not given:
            return None

        def keep(o: Option) -> tuple[int, int]:
            c = hand[o.card or 0]
            tier = 3 if c.name in KEPT_EVENTS or c.name in lcg_plans.RESERVES else 2 if c.type == "ally" else 1
            return (tier, c.cost or 0)

        return (min(given, key=keep).id,)

    @staticmethod
    def _eowyn_pays(view: TableView, me: PlayerView) -> bool:
        """Éowyn's +1 willpower for a card from a hand of 5 or more, when the hand holds a
        card it can spare (not a kept event or a first attachment) and the quest can use the
        willpower: not once the committed willpower already makes all the progress a capped
        stage takes this round (The Hunt for the Dreadnaught), or all that the stage and the
        active location still lack (past it progress is lost), a reveal's threat counted; and
        at a stage a must-die enemy bars (``lcg_plans.barred``) only a quest that would fail
        without her point: its progress waits on the troll's death, and the card (an ally, an
        Axe) is one less to kill it with."""
        if (me.hand_size or 0) <= 4 or all(c.name in KEPT_EVENTS | FIRST_ATTACHMENTS for c in me.hand or []):
            return False
        useful = lcg_ships.useful_progress(view)
        if useful is None:
            useful = lcg_plans.useful_progress(view)
        if lcg_plans.barred(view):
            useful = 0.0
        margin = view.committed_willpower - view.staging_threat - EXPECTED_THREAT_PER_REVEAL
        return margin < useful

    def _pay(self, decision: Decision, view: TableView) -> Choice | None:
        """Pay so that resources stay spread: the split using the fewest resources of any one hero."""

        def spread(o: Option) -> int:
            parts = [int(p.split(":")[1]) for p in o.id.split(",") if ":" in p]
            return max(parts, default=0)

        # never the payment that kills Bilbo Baggins under Dragon-Spell while another remains
        me = _me(view, decision.seat)
        options = [o for o in decision.options if not lcg_burgle.payment_kills(o.id, me)] or decision.options
        return (min(options, key=spread).id,)

    # -- questing --------------------------------------------------------------------

    def _commit(self, decision: Decision, view: TableView) -> Choice | None:
        """The cheapest plan of the round (bots/lcg_quest.py): willpower against the threat
        the quest will meet, and the characters left ready for the enemies that will attack."""
        cards = visible_cards(view)
        me = _me(view, decision.seat)
        ready = [cards[o.card] for o in decision.options if o.card in cards]
        readies = {c.uid for c in ready if _readies_after_commit(c, me)}
        # a webbed hero who cannot pay to ready quests only if he readies after (Aragorn, 1
        # resource): left ready, he quests the next round instead of staying exhausted
        ready = [c for c in ready if c.uid in readies or not webbed(c)]
        staged_coming = [c for c in view.staging if c.type == "enemy" and _will_engage(c, me, view)]
        coming = _attackers(me) + staged_coming
        coming += lcg_plans.staging_attackers(view, me)
        # a must-die enemy the seat engages by choice after the quest (``hunt``) attacks and is
        # killed whether the quest succeeds or fails: priced only as one a failed quest's threat
        # draws in, it made a failure look like the kill's price (Éowyn kept back, 3 threat)
        prey = lcg_plans.hunt(view, me, ready)
        if prey is not None and prey not in coming:
            coming.append(prey)
        players = max(1, sum(1 for p in view.players if not p.eliminated))
        # the staged enemies that engage this round attack with what comes with them (a Ramming
        # Ship's +4, the Corsairs a ship-enemy's Boarding brings: bots/lcg_ships.py ``engaging``)
        fighting = [x for e in coming for x in (lcg_ships.engaging(e, view) if e in staged_coming else (e,))]
        enemies = tuple(sorted(fighting, key=lambda e: -(e.attack or 0)))
        ships = tuple(c for c in me.allies if lcg_ships.is_ship(c))
        staged = sum(c.threat or 0 for c in view.staging)
        # the encounter deck's composition read once for the reveals and the shadow cards
        deck = composition(view)
        known = reveals(view, deck)
        extra = lcg_plans.extra_reveals(view)
        if known is None:
            share = -(-(staged + EXPECTED_THREAT_PER_REVEAL * (players + extra)) // players)
            plan = Round(me.threat, share, enemies, tuple(me.heroes), ships, lcg_burgle.golden_tax(view))
        else:
            # the seat's own reveal priced card by card, the other players' by its mean threat
            mean = sum(r.chance * r.threat for r in known)
            mine = tuple(
                _engaging_reveal(r, view)
                if r.enemy is not None and _will_engage(r.enemy, me, view)
                else r
                if r.enemy is None
                else dataclasses.replace(r, enemy=None)
                for r in known
            )
            share_of = (staged + mean * (players - 1 + extra)) / players
            plan = Round(
                me.threat, share_of, enemies, tuple(me.heroes), ships, lcg_burgle.golden_tax(view), mine, 1 / players
            )
        # staged enemies, and those the reveal may bring, come to this seat by its threat only
        # where engagement checks run and its threat is the highest
        engages = lcg_plans.engagement_checks(view) and _last_to_engage(me, view)
        waiting = tuple(
            c
            for c in view.staging
            if engages and c.type == "enemy" and c.engagement_cost is not None and c not in coming
        )
        # enemies the reveal may bring above the threat, by engagement cost
        unseen: dict[int, float] = {}
        if known is not None and engages:
            for r in known:
                cost = r.enemy.engagement_cost if r.enemy is not None else None
                if cost is not None and cost > me.threat:
                    unseen[cost] = unseen.get(cost, 0.0) + r.chance
        capped = lcg_ships.useful_progress(view)
        useful = lcg_plans.useful_progress(view)
        arriving, advance = lcg_ships.arriving(view)
        plan = dataclasses.replace(
            plan,
            arriving=arriving,
            advance=advance,
            optional=lcg_plans.chosen_prey(view, me, ready),
            useful=useful if capped is None else min(useful, capped),
            waiting=waiting,
            location_left=_location_left(view),
            planned=lcg_plans.plans_defence(view, me),
            cancelled=_feints(me),
            shadows=shadow_odds(view, deck),
            characters=(*me.heroes, *me.allies),
            unseen=tuple(sorted(unseen.items())),
        )
        # The Lonely Mountain's 2B: a won quest burgles a treasure, and its progress only serves the location
        held = lcg_hobbit.success_cost(view, me)
        if held is not None:
            plan = dataclasses.replace(
                plan, success_cost=held, useful=min(plan.useful, lcg_hobbit.useful_progress(view))
            )
            smaug = lcg_hobbit.arriving(view, me)
            if smaug:
                enemies = tuple(sorted((*plan.enemies, *smaug), key=lambda e: -(e.attack or 0)))
                plan = dataclasses.replace(plan, enemies=enemies)
        return tuple(str(c.uid) for c in commit(ready, readies, plan, lcg_plans.held_back(view, me, ready, readies)))

    def _travel(self, decision: Decision, view: TableView) -> Choice | None:
        """Travel to the location that takes most threat out of the staging area for the
        fewest quest points, unless its travel cost outweighs it (a card revealed, a hero
        exhausted, cards discarded)."""
        cards = visible_cards(view)
        places = [
            o
            for o in decision.options
            if o.card in cards
            and not lcg_hobbit.golden_clock(cards[o.card or 0], view)
            and not lcg_hobbit.travel_kills(cards[o.card or 0], _me(view, decision.seat))
        ]

        def worth(o: Option) -> float:
            c = cards[o.card or 0]
            return (
                2.0 * (c.threat or 0)
                - 0.25 * (c.quest_points or 0)
                - _travel_cost(c)
                + lcg_hobbit.travel_bonus(c, view)
            )

        best = max(places, key=worth, default=None)
        if best is None or worth(best) <= 0:
            return ("skip",) if any(o.id == "skip" for o in decision.options) else None
        return (best.id,)

    def _engage(self, decision: Decision, view: TableView) -> Choice | None:
        """Take on the enemy it can both defend against and kill with what is ready (its
        threat then leaves the staging area), one at a time, never one that hurts whoever
        engages it unless a hero can take the damage."""
        cards = visible_cards(view)
        me = _me(view, decision.seat)
        ready = [c for c in [*me.heroes, *me.allies] if not c.exhausted]
        prey = lcg_plans.hunt(view, me, ready)
        chase = [o for o in decision.options if prey is not None and o.card == prey.uid]
        if chase and not _attackers(me):
            return (chase[0].id,)
        # the quest plan kept back who kills this one (Anduin Passage): it is fought as planned
        chosen = lcg_plans.chosen_prey(view, me, ready)
        planned = [o for o in decision.options if chosen is not None and o.card == chosen.uid]
        if planned:
            return (planned[0].id,)
        if _attackers(me) or lcg_plans.trolls(view, me):
            return ("skip",) if any(o.id == "skip" for o in decision.options) else None
        power = sum(c.attack or 0 for c in ready)

        def fine(enemy: CardView) -> bool:
            harm = HARMFUL_ENGAGEMENT.get(enemy.name, 0)
            if harm and not any(_left(h) > harm for h in me.heroes):
                return False
            hits = (enemy.attack or 0) + SHADOW_MARGIN
            defended = any((c.defense or 0) + _left(c) > hits for c in ready)
            return defended and power - (enemy.defense or 0) >= _left(enemy)

        choices = [o for o in decision.options if o.card in cards and fine(cards[o.card or 0])]
        if choices:
            return (max(choices, key=lambda o: (cards[o.card or 0].threat or 0, -(cards[o.card or 0].attack or 0))).id,)
        return ("skip",) if any(o.id == "skip" for o in decision.options) else None

    # -- combat ----------------------------------------------------------------------

    def _defend(self, decision: Decision, view: TableView) -> Choice | None:
        """A webbed hero who cannot pay to ready defends only when nobody else would (the
        attack would go undefended); see ``_defender`` for the rest."""
        cards = visible_cards(view)
        stuck = {o.id for o in decision.options if o.card in cards and webbed(cards[o.card or 0])}
        if stuck:
            picked = self._defender(without_ids(decision, stuck), view)
            if picked is not None and picked != ("undefended",):
                return picked
        return self._defender(decision, view)

    def _defender(self, decision: Decision, view: TableView) -> Choice | None:
        """Defend with the character that survives with most to spare and hits least (it is
        wanted for the attack after), a hero who survives only if the shadow card adds nothing
        only when no ally can be given up; else chump with the cheapest ally rather than let
        the attack fall on a hero it would kill or maim; else leave it undefended."""
        cards = visible_cards(view)
        me = _me(view, decision.seat)
        enemy = cards.get(decision.about or -1)
        attack = (enemy.attack or 0) if enemy else 0
        shadows = enemy.face_down_shadows if enemy else 0
        mine = {c.uid for c in [*me.heroes, *me.allies]}

        def taken(c: CardView) -> int:
            return max(0, attack - (c.defense or 0))

        # a character whose loss loses the game defends only an attack that cannot touch him
        candidates = [
            cards[o.card]
            for o in decision.options
            if o.card in cards and (not essential(cards[o.card]) or (taken(cards[o.card]) == 0 and not shadows))
        ]
        if enemy is not None and lcg_ships.ship_kept(enemy, candidates, view, me):
            candidates = [c for c in candidates if not lcg_ships.is_ship(c)]

        # a defender is never one of the attackers that kill a must-die enemy this round
        everyone = candidates
        candidates = lcg_plans.kill_keepers(me, candidates)
        # nor one of those that kill the Dreadnaught's guard, or destroy the Dreadnaught, this round
        candidates = lcg_ships.guard_keepers(me, view, candidates)
        candidates = lcg_ships.dreadnaught_keepers(me, view, candidates)
        # a hero who survives the attack undefended keeps every attacker of the kill ready
        absorbed = any(not essential(h) and _left(h) > attack + SHADOW_MARGIN * shadows for h in me.heroes)
        spoilt = lcg_plans.kill_spoilt(me, candidates) or not lcg_ships.guard_keepers(me, view, everyone, strict=True)
        if absorbed and spoilt and any(o.id == "undefended" for o in decision.options):
            return ("undefended",)
        # but the kill is not bought with a hero: when nobody it spares survives the attack or
        # is an ally to give up, and no hero survives it undefended, an attacker of the kill
        # defends (a Hill Troll's 6 went undefended onto Dúnhere while four allies stood ready)
        if not absorbed and not any(c.type == "ally" or taken(c) < _left(c) for c in candidates):
            candidates = everyone
        if enemy is not None and lcg_plans.plans_defence(view, me):
            planned = self._planned_defence(decision, me, enemy, candidates, view)
            if planned is not None:
                return planned
        safe = [c for c in candidates if taken(c) + SHADOW_MARGIN * shadows < _left(c)]
        chumps = [c for c in candidates if c.type == "ally"]
        # a hero who survives only if the shadow card adds nothing is not risked while an ally
        # can be given up instead: a hero lost costs the game sooner than an ally, and his
        # damage is never healed (Thalin at 2 hit points defended a Dol Guldur Beastmaster's 3
        # attack and its two shadow cards, died, and with him went the deck's only Tactics
        # resources; on seeds 1001-1800 and 3001-3800 the greedy Anduin row won 50 and 46
        # games with this rule against 46 and 40 without it)
        survivors = safe or [c for c in candidates if taken(c) < _left(c) and (c.type == "ally" or not chumps)]
        if survivors:
            best = min(
                survivors,
                key=lambda c: (taken(c) > 0 and c.type == "hero", taken(c), c.attack or 0, c.uid not in mine),
            )
            return (str(best.uid),)
        absorbs = [h for h in me.heroes if not essential(h) and _left(h) > attack + SHADOW_MARGIN * shadows]
        if chumps and not (absorbs and attack <= 2):
            return (str(min(chumps, key=lambda c: (c.cost or 0, c.uid not in mine)).uid),)
        return ("undefended",) if any(o.id == "undefended" for o in decision.options) else None

    @staticmethod
    def _planned_defence(
        decision: Decision, me: PlayerView, enemy: CardView, candidates: list[CardView], view: TableView
    ) -> Choice | None:
        """The defender of the cheapest plan of the combat (bots/lcg_quest.py ``defence``):
        this attack and those still to come (the engaged enemies whose shadow cards are still
        face down) against the seat's ready characters, the ones left ready killing what
        they can; "undefended" when the plan leaves this attack to a hero; None (the general
        rules) when there are too many plans to price."""
        ready = [c for c in [*me.heroes, *me.allies] if not c.exhausted]
        to_come = [e for e in _attackers(me) if e.face_down_shadows and e.uid != enemy.uid]
        attacks = [enemy, *to_come]
        allowed = {c.uid for c in candidates}
        if (len(allowed) + 1) ** len(attacks) > lcg_quest.PLANS:
            return None
        everyone = (*me.heroes, *me.allies)
        picked = lcg_quest.defence(ready, attacks, me.engaged, me.heroes, allowed, shadow_odds(view), everyone)
        if picked is not None:
            return (str(picked.uid),)
        return ("undefended",) if any(o.id == "undefended" for o in decision.options) else None

    def _take_damage(self, decision: Decision, view: TableView) -> Choice | None:
        """The hero (or defender) that survives the attack with most left; if none can, the
        one whose loss hurts least."""
        cards = visible_cards(view)
        enemy = cards.get(decision.about or -1) or _attacker(view, decision.seat)
        attack = (enemy.attack or 0) if enemy else 0
        return self._hurt(decision, view, attack)

    def _damage(self, decision: Decision, view: TableView) -> Choice | None:
        return self._hurt(decision, view, DAMAGE_RULES.get(decision.rule, 1), decision.rule in ALLIES_FIRST)

    def _hurt(self, decision: Decision, view: TableView, amount: int, allies_first: bool = False) -> Choice | None:
        cards = visible_cards(view)
        me = _me(view, decision.seat)
        mine = {c.uid for c in [*me.heroes, *me.allies]}
        hurt = [cards[o.card] for o in decision.options if o.card in cards]
        if not hurt:
            return None

        def key(c: CardView) -> tuple[int, int, int, int, bool]:
            survives = _left(c) > amount
            if survives:
                # Bilbo Baggins last even when he survives: his loss would lose the game
                # and a ship last but him: its loss eliminates the player (The Hunt for the Dreadnaught)
                tier = 2 + int(not essential(c)) + int(not lcg_ships.is_ship(c))
                ally = int(allies_first and c.type != "hero")
                return (tier, ally, _left(c) - amount, -_value(c), c.uid in mine)
            return (int(c.type != "hero"), 0, -_value(c), 0, c.uid in mine)

        return (str(max(hurt, key=key).uid),)

    def _least_useful(self, decision: Decision, view: TableView) -> Choice | None:
        """Give up what is worth least: the weakest (or an already exhausted) character, the
        cheapest attachment or card."""
        cards = visible_cards(view)
        me = _me(view, decision.seat)
        hand = {c.uid: c for c in me.hand or []}
        mine = {c.uid for c in [*me.heroes, *me.allies]}
        given = [o for o in decision.options if o.card in cards or o.card in hand]
        if not given:
            return None

        def key(o: Option) -> tuple[bool, int, bool]:
            c = cards.get(o.card or -1) or hand[o.card or 0]
            return (not c.exhausted or c.committed, _value(c), o.card not in mine)

        ranked = sorted(given, key=key)
        if decision.kind is Kind.MANY:
            return tuple(o.id for o in ranked[: max(decision.min, 1)])
        return (ranked[0].id,)

    def _crew(self, decision: Decision, view: TableView) -> Choice | None:
        """The characters exhausted to discard Taking on Water or Grappled! (thftd-042/045): the
        least useful, never a ship (exhausting one under Taking on Water costs it 2 damage)."""
        cards = visible_cards(view)
        ships = {o.id for o in decision.options if o.card in cards and lcg_ships.is_ship(cards[o.card or 0])}
        crew = without_ids(decision, ships)
        return self._least_useful(crew, view) if len(crew.options) >= decision.min else None

    def _caught(self, decision: Decision, view: TableView) -> Choice | None:
        """Caught in a Web (the hero does not ready in the refresh phase unless 2 of its
        resources are paid): on a hero that readies by its own text, else the one least used."""
        cards = visible_cards(view)
        heroes = [cards[o.card] for o in decision.options if o.card in cards]
        if not heroes:
            return None
        return (str(min(heroes, key=lambda h: (h.name != "Aragorn", _value(h))).uid),)

    def _spider(self, decision: Decision, view: TableView) -> Choice | None:
        """Don't Leave the Path!: bring out the enemy whose defeat wins, else the weakest."""
        for option in decision.options:
            if any(name in option.label for name in WINS_WHEN_DEFEATED):
                return (option.id,)
        return None

    def _attack_target(self, decision: Decision, view: TableView) -> Choice | None:
        """Which enemy to attack next: one that keeps the Dreadnaught from harm (its guards
        take every attack first); else the Dreadnaught itself when the ready attackers get
        through its defense; else, of the enemies engaged with it that the ready
        attackers can kill this phase, the set whose deaths remove the most (must-die
        enemies, then attack), the most dangerous of it first, so that what power is left
        goes to the next; else an enemy engaged with another player that its Ranged
        characters can kill; else the must-die enemy to wear down; else the first of its own
        offered (highest engagement cost); with only other players' enemies left, which they
        fight in their own attacks, no more attacks."""
        cards = visible_cards(view)
        me = _me(view, decision.seat)
        theirs = {e.uid for p in view.players if p.seat != me.seat for e in p.engaged}
        offered = [cards[o.card] for o in decision.options if o.card in cards]
        enemies = [e for e in offered if e.uid not in theirs]
        for enemy in enemies:
            if lcg_ships.guards_dreadnaught(enemy, view):
                return (str(enemy.uid),)
        ready = [c for c in [*me.heroes, *me.allies] if not c.exhausted and c.attack]
        for enemy in enemies:
            if lcg_ships.dreadnaught_attackers(enemy, ready):
                return (str(enemy.uid),)  # its destruction wins: the round's damage on it before smaller kills
        killable = [e for e in enemies if _kill_cost(e, ready) is not None]
        best: tuple[CardView, ...] = ()
        best_key = (0, 0, 0)
        for size in range(1, len(killable) + 1):
            for group in itertools.combinations(killable, size):
                cost = sum(_kill_cost(e, ready) or 0 for e in group)
                if cost > sum(c.attack or 0 for c in ready):
                    continue
                key = (sum(e.name in lcg_plans.MUST_DIE for e in group), sum(e.attack or 0 for e in group), -cost)
                if not best or key > best_key:
                    best, best_key = group, key
        if best:
            first = max(best, key=lambda e: (e.name in lcg_plans.MUST_DIE, e.name in WINS_WHEN_DEFEATED, e.attack or 0))
            return (str(first.uid),)
        ranged = [c for c in ready if "Ranged" in c.keywords]
        far = [e for e in offered if e.uid in theirs and _kill_cost(e, ranged) is not None]
        if far:
            return (str(max(far, key=lambda e: e.attack or 0).uid),)
        for enemy in enemies:
            if lcg_plans.wound(enemy, ready, view) is not None:
                return (str(enemy.uid),)
        return (str(enemies[0].uid),) if enemies else ("done",)

    def _attack(self, decision: Decision, view: TableView) -> Choice | None:
        """Kill the enemy with the fewest attackers; when it cannot be killed now, spend
        nothing on it if another engaged enemy can be, else hit it with everything (damage
        stays on enemies). Never more attackers than the enemy allows (Ophidian: one, thftd-018):
        the hardest hitters of those chosen."""
        picked = self._attackers_for(decision, view)
        if picked is None or len(picked) <= decision.max:
            return picked
        attack = {o.id: o.card for o in decision.options}
        cards = visible_cards(view)
        ranked = sorted(picked, key=lambda i: -(cards[attack[i] or 0].attack or 0) if attack.get(i) in cards else 0)
        return tuple(ranked[: decision.max])

    def _attackers_for(self, decision: Decision, view: TableView) -> Choice | None:
        cards = visible_cards(view)
        me = _me(view, decision.seat)
        enemy = cards.get(decision.about or -1)
        if enemy is None:
            return ()
        mine = {c.uid for c in [*me.heroes, *me.allies]}
        ready = sorted(
            (cards[o.card] for o in decision.options if o.card in cards and cards[o.card].attack),
            key=lambda c: (-(c.attack or 0), c.uid not in mine),
        )
        at_dreadnaught = lcg_ships.dreadnaught_attackers(enemy, ready)
        if at_dreadnaught is not None:
            return tuple(str(c.uid) for c in at_dreadnaught)
        kept = {c.uid for c in lcg_ships.kept_for_dreadnaught(enemy, view, me)}
        ready = [c for c in ready if c.uid not in kept]
        need = _left(enemy) + (enemy.defense or 0)
        # a webbed hero who cannot pay to ready attacks only when the kill needs him, never to
        # wound (on dev seeds 13601-14400 the greedy bot won 349 games with this rule against
        # 341 without it, 0 seeds lost that were won; held-out 5201-5800: 244 against 241)
        free = [c for c in ready if not webbed(c)]
        if sum(c.attack or 0 for c in free) >= need or sum(c.attack or 0 for c in ready) < need:
            ready = free
        power = sum(c.attack or 0 for c in ready)
        if power < need and any(enemy.uid in {e.uid for e in p.engaged} for p in view.players if p.seat != me.seat):
            return ()  # another player's enemy: its Ranged attackers wait for that player's attack
        if power < need:
            guard = lcg_ships.guards_dreadnaught(enemy, view)
            others = [e for e in me.engaged if e.uid != enemy.uid]
            if not guard and any(power - (e.defense or 0) >= _left(e) for e in others):
                return ()
            wounding = lcg_plans.wound(enemy, ready, view)
            if wounding is None:
                wounding = lcg_ships.wound_ship(enemy, ready)
            if wounding is None and guard and power > (enemy.defense or 0):
                wounding = ready
            if wounding is not None:
                return tuple(str(c.uid) for c in wounding)
            return tuple(str(c.uid) for c in ready if (c.attack or 0) > (enemy.defense or 0) or power > need - 1)
        chosen: list[CardView] = [c for c in ready if _progress_on_kill(c)]
        total = sum(c.attack or 0 for c in chosen)
        for card in ready:
            if total >= need:
                break
            if card not in chosen:
                chosen.append(card)
                total += card.attack or 0
        for card in sorted(chosen, key=lambda c: (_progress_on_kill(c), c.attack or 0)):
            if not _progress_on_kill(card) and total - (card.attack or 0) >= need:
                chosen.remove(card)
                total -= card.attack or 0
        return tuple(str(c.uid) for c in chosen)

    # -- action windows --------------------------------------------------------------

    def _window(self, decision: Decision, view: TableView) -> Choice | None:
        cards = visible_cards(view)
        me = _me(view, decision.seat)
        for shown in view.setup:
            cards.setdefault(shown.uid, shown)
        drawn = lcg_hobbit.cup_for_a_burgle(decision, view, cards)
        if drawn is not None:
            return drawn
        for option in decision.options:
            card = cards.get(option.card or -1)
            if card is None:
                continue
            name = card.name
            if name == "Faramir" and view.phase == "quest" and "commit" in decision.rule:
                return (option.id,)
            if (
                name == "Beorn"
                and view.phase == "combat"
                and "enemy-attacks" in decision.rule
                and _beorn_kills(card, me)
            ):
                return (option.id,)
            if name == "Glorfindel" and view.phase == "refresh":
                return (option.id,)
            if name in ("Beravor", "Denethor") and decision.rule == "lcg.combat.window" and not card.exhausted:
                return (option.id,)
            if name == "Éowyn" and "commit" in decision.rule and card.committed and self._eowyn_pays(view, me):
                return (option.id,)
            if lcg_ships.warship(card):
                return (option.id,)
            if lcg_ships.ten_damage(card, option, me):
                return (option.id,)
            if lcg_ships.bail_out(card, decision):
                return (option.id,)
            if lcg_ships.twilight_play(card, decision, me) and play_event(decision, view) is None:
                return (option.id,)
            if name == "The Lonely Mountain" and decision.rule == "lcg.burgle.window":
                # take the turned-up card and turn up another only when this one cannot be matched
                if not lcg_burgle.can_succeed(view, me) and lcg_burgle.bilbo_can_spend(me, MOUNTAIN_COST):
                    return (option.id,)
                continue
            if self._helps(name, option, decision, view, cards):
                return (option.id,)
        return play_event(decision, view) or ("pass",)

    def _helps(
        self, name: str, option: Option, decision: Decision, view: TableView, cards: dict[int, CardView]
    ) -> bool:
        """Actions of the Core Set allies and attachments, used when they pay off."""
        host = next((c for c in cards.values() if any(a.uid == option.card for a in c.attachments)), None)
        if name == "Steward of Gondor":
            return view.phase in ("resource", "planning")
        if name == "Unexpected Courage":
            # ready a hero that quested, to defend or attack later
            return host is not None and host.exhausted and view.phase == "quest"
        if name == "Self Preservation":
            return host is not None and host.damage >= 2 and view.phase == "refresh"
        if name in ("Daughter of the Nimrodel", "Gléowine"):
            return view.phase == "refresh"
        return False
