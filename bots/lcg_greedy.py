"""A greedy LCG player: simple, sound heuristics for each kind of decision.

It sees only its seat's view. It quests for enough willpower to beat the visible threat
plus what the staging step is likely to add, keeps back defenders for the enemies it
faces, defends with characters that survive (or chumps with its cheapest ally), attacks
to kill, uses Actions and plays events when they help (bots/lcg_events.py), and
always takes free benefits.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from bots import View, random_choice, without_cards
from bots.lcg_events import TARGETS, play_event, respond
from domain.kernel.decisions import Choice, Decision, Kind, Option
from projections.lcg import CardView, PlayerView, TableView

Handler = Callable[[Decision, TableView], Choice | None]

EXPECTED_THREAT_PER_REVEAL = 2
"""What one staging reveal adds on average in Passage through Mirkwood (about 2 threat)."""
KEEPABLE_HAND = 2
"""Setup hands with fewer cards the heroes can pay for in two rounds are mulliganed."""


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


NOT_WORTH_PLAYING = frozenset({"Dark Knowledge", "Protector of Lórien"})
"""Cards the greedy bot keeps in hand: what they give is not worth what they cost it (it
never discards cards for Protector of Lórien's bonus)."""
FIRST_ATTACHMENTS = frozenset({"Steward of Gondor", "Celebrían's Stone"})
"""Attachments worth more than an ally; the others are played with what allies leave."""

WILLPOWER_ATTACHMENTS = frozenset({"Celebrían's Stone", "The Favor of the Lady", "Unexpected Courage"})
ATTACK_ATTACHMENTS = frozenset({"Dwarven Axe", "Blade of Gondolin"})
DEFENSE_ATTACHMENTS = frozenset({"Citadel Plate", "Protector of Lórien"})
HARMFUL_CONDITIONS = frozenset({"Caught in a Web", "Dark Knowledge"})
OBJECTIVES = ("core-108", "core-109", "core-110")
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


def _restricted(card: CardView) -> int:
    return sum(1 for a in card.attachments if "Restricted" in a.keywords)


def _me(view: TableView, seat: str) -> PlayerView:
    return next(p for p in view.players if p.seat == seat)


def _left(card: CardView) -> int:
    return (card.hit_points or 0) - card.damage


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
            "core-061.response": self._miner,
            "core-073.response": self._gandalf,
            "lcg.quest.commit": self._commit,
            "lcg.travel": self._travel,
            "lcg.encounter.optional-engagement": self._engage,
            "lcg.combat.declare-defender": self._defend,
            "lcg.combat.undefended-damage": self._take_damage,
            "lcg.combat.player-attack": self._attack,
            "lcg.combat.staging-attack": self._skip,
            "lcg.combat.declare-defenders": lambda d, v: ("done",),
            "lcg.combat.defended-damage": self._take_damage,
            "lcg.event.pay": self._pay,
            "lcg.event.response": lambda d, v: respond(d, v, visible_cards(v)),
            **{rule: self._target(pick) for rule, pick in TARGETS.items()},
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

    # -- planning --------------------------------------------------------------------

    def _play(self, decision: Decision, view: TableView) -> Choice | None:
        cards = visible_cards(view)
        plays = [o for o in decision.options if o.card in cards and cards[o.card].name not in NOT_WORTH_PLAYING]
        if not plays:
            return ("done",)

        def worth(o: Option) -> tuple[int, int, int]:
            c = cards[o.card or 0]
            first = c.type == "ally" or c.name in FIRST_ATTACHMENTS
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

        def pool(sphere: str | None) -> int:
            return sum(h.resources for h in me.heroes if sphere == "neutral" or h.sphere == sphere)

        return any(
            c.type == "ally" and c.sphere in (attachment.sphere, "neutral") and (c.cost or 0) > pool(c.sphere)
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
        if name == "Forest Snare":
            return (str(max(targets, key=lambda c: c.attack or 0).uid),)
        if name == "Power in the Earth":
            return (str(max(targets, key=lambda c: c.threat or 0).uid),)
        own = [c for c in targets if c.uid in mine] or targets

        def score(c: CardView) -> tuple[int, int]:
            if name in WILLPOWER_ATTACHMENTS:
                return (int(name == "Celebrían's Stone" and c.name == "Aragorn"), c.willpower or 0)
            if name in ATTACK_ATTACHMENTS:
                return (int(name == "Dwarven Axe" and "Dwarf" in c.traits), c.attack or 0)
            if name in DEFENSE_ATTACHMENTS:
                return (0, c.defense or 0)
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
        """Lower a high threat, else kill the strongest enemy engaged with anyone, else draw."""
        ids = {o.id for o in decision.options}
        if "draw" not in ids:
            cards = visible_cards(view)
            enemies = [cards[o.card] for o in decision.options if o.card in cards and cards[o.card].type == "enemy"]
            return (str(max(enemies, key=lambda e: e.attack or 0).uid),) if enemies else None
        me = _me(view, decision.seat)
        if me.threat >= 35:
            return ("threat",)
        if "damage" in ids and any(p.engaged for p in view.players):
            return ("damage",)
        return ("draw",)

    def _pay(self, decision: Decision, view: TableView) -> Choice | None:
        """Pay so that resources stay spread: the split using the fewest resources of any one hero."""

        def spread(o: Option) -> int:
            parts = [int(p.split(":")[1]) for p in o.id.split(",") if ":" in p]
            return max(parts, default=0)

        return (min(decision.options, key=spread).id,)

    # -- questing --------------------------------------------------------------------

    def _commit(self, decision: Decision, view: TableView) -> Choice | None:
        cards = visible_cards(view)
        me = _me(view, decision.seat)
        players = [p for p in view.players if not p.eliminated]
        staged = sum(c.threat or 0 for c in view.staging)
        target = staged + EXPECTED_THREAT_PER_REVEAL * len(players)
        share = -(-target // len(players)) + 1
        ready = [cards[o.card] for o in decision.options if o.card in cards]
        # enemies this player will have to face: engaged ones and those that will engage
        threats = _attackers(me) + [
            c for c in view.staging if c.engagement_cost is not None and c.engagement_cost <= me.threat
        ]
        keep: set[int] = set()
        for enemy in sorted(threats, key=lambda e: -(e.attack or 0)):
            guards = [c for c in ready if c.uid not in keep and (c.defense or 0) + _left(c) > (enemy.attack or 0)]
            if guards:
                keep.add(min(guards, key=lambda c: (c.willpower or 0, -(c.defense or 0))).uid)
        chosen: list[str] = []
        total = 0
        for card in sorted(ready, key=lambda c: -(c.willpower or 0)):
            if total >= share:
                break
            if card.uid in keep or not card.willpower:
                continue
            chosen.append(str(card.uid))
            total += card.willpower
        return tuple(chosen)

    def _travel(self, decision: Decision, view: TableView) -> Choice | None:
        cards = visible_cards(view)
        places = [o for o in decision.options if o.card in cards]
        if not places:
            return ("skip",)
        return (max(places, key=lambda o: cards[o.card or 0].threat or 0).id,)

    def _engage(self, decision: Decision, view: TableView) -> Choice | None:
        """Take on an enemy only when the ready characters can kill it this round."""
        cards = visible_cards(view)
        me = _me(view, decision.seat)
        power = sum(c.attack or 0 for c in [*me.heroes, *me.allies] if not c.exhausted)
        for option in decision.options:
            enemy = cards.get(option.card or -1)
            if enemy is not None and power - (enemy.defense or 0) >= _left(enemy) and not _attackers(me):
                return (option.id,)
        return ("skip",)

    # -- combat ----------------------------------------------------------------------

    def _defend(self, decision: Decision, view: TableView) -> Choice | None:
        cards = visible_cards(view)
        enemy = cards.get(decision.about or -1)
        attack = (enemy.attack or 0) if enemy else 0
        candidates = [cards[o.card] for o in decision.options if o.card in cards]
        survivors = [c for c in candidates if max(0, attack - (c.defense or 0)) < _left(c)]
        if survivors:
            return (str(min(survivors, key=lambda c: (max(0, attack - (c.defense or 0)), c.attack or 0)).uid),)
        chumps = [c for c in candidates if c.type == "ally"]
        me = _me(view, decision.seat)
        hero_can_take_it = any(_left(h) > attack for h in me.heroes)
        if hero_can_take_it or not chumps:
            return ("undefended",)
        return (str(min(chumps, key=lambda c: c.cost or 0).uid),)

    def _take_damage(self, decision: Decision, view: TableView) -> Choice | None:
        cards = visible_cards(view)
        heroes = [cards[o.card] for o in decision.options if o.card in cards]
        return (str(max(heroes, key=_left).uid),) if heroes else None

    def _attack(self, decision: Decision, view: TableView) -> Choice | None:
        cards = visible_cards(view)
        enemy = cards.get(decision.about or -1)
        if enemy is None:
            return ()
        need = _left(enemy) + (enemy.defense or 0)
        ready = sorted(
            (cards[o.card] for o in decision.options if o.card in cards and cards[o.card].attack),
            key=lambda c: -(c.attack or 0),
        )
        chosen: list[int] = []
        total = 0
        for card in ready:
            if total >= need:
                break
            chosen.append(card.uid)
            total += card.attack or 0
        if total >= need:
            # drop attackers not needed for the kill, weakest first
            for uid in sorted(chosen, key=lambda u: cards[u].attack or 0):
                if total - (cards[uid].attack or 0) >= need:
                    chosen.remove(uid)
                    total -= cards[uid].attack or 0
        return tuple(str(u) for u in chosen)

    # -- action windows --------------------------------------------------------------

    def _window(self, decision: Decision, view: TableView) -> Choice | None:
        cards = visible_cards(view)
        me = _me(view, decision.seat)
        for option in decision.options:
            card = cards.get(option.card or -1)
            if card is None:
                continue
            name = card.name
            if name == "Faramir" and view.phase == "quest" and "commit" in decision.rule:
                return (option.id,)
            if name == "Beorn" and view.phase == "combat" and "enemy-attacks" in decision.rule and me.engaged:
                return (option.id,)
            if name == "Glorfindel" and view.phase == "refresh":
                return (option.id,)
            if name in ("Beravor", "Denethor") and decision.rule == "lcg.combat.window" and not card.exhausted:
                return (option.id,)
            if name == "Éowyn" and "commit" in decision.rule and card.committed and (me.hand_size or 0) > 4:
                return (option.id,)
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
