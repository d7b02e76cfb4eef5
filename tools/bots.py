"""Bots: players that answer decisions from what their seat may see.

A bot gets the pending decision and its seat's view of the table (never the full
state), so a bot plays by the same rules of information as a person, in process or
over the network. ``random`` picks uniformly among legal answers; ``greedy`` follows
simple heuristics for each kind of LCG decision and falls back to random.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from domain.kernel.decisions import Choice, Decision, Kind
from projections.lcg import CardView, TableView

View = Callable[[], TableView]
"""The seat's view of the table, computed only if the bot asks for it."""


class Bot(Protocol):
    def choose(self, decision: Decision, view: View) -> Choice: ...


class RandomBot:
    """Any legal answer, uniformly (numbers and subsets sized uniformly first)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, decision: Decision, view: View) -> Choice:
        return random_choice(decision, self.rng)


def random_choice(decision: Decision, rng: random.Random) -> Choice:
    ids = [o.id for o in decision.options]
    if decision.kind is Kind.ONE:
        return (rng.choice(ids),)
    if decision.kind is Kind.MANY:
        return tuple(rng.sample(ids, rng.randint(decision.min, min(decision.max, len(ids)))))
    if decision.kind is Kind.ORDER:
        rng.shuffle(ids)
        return tuple(ids)
    return (str(rng.randint(decision.min, decision.max)),)


def _cards(view: TableView) -> dict[int, CardView]:
    """Every card the seat can see, by uid."""
    out: dict[int, CardView] = {}
    for player in view.players:
        for group in (player.heroes, player.allies, player.engaged, player.hand or []):
            for card in group:
                out[card.uid] = card
    for card in [*view.staging, *view.revealed]:
        out[card.uid] = card
    for extra in (view.active_location, view.quest):
        if extra is not None:
            out[extra.uid] = extra
    return out


def _me(view: TableView, seat: str) -> int:
    return next(i for i, p in enumerate(view.players) if p.seat == seat)


class GreedyBot:
    """Plays sensibly enough to win sometimes: quest hard, defend with who survives,
    attack only to kill, always take free benefits."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.rules: dict[str, Callable[[Decision, TableView], Choice | None]] = {
            "lcg.planning.play-ally": self._play,
            "lcg.quest.commit": self._commit,
            "lcg.travel": self._travel,
            "lcg.encounter.optional-engagement": self._skip,
            "lcg.combat.declare-defender": self._defend,
            "lcg.combat.undefended-damage": self._take_damage,
            "lcg.combat.player-attack": self._attack,
        }

    def choose(self, decision: Decision, view: View) -> Choice:
        rule = self.rules.get(decision.rule)
        picked = rule(decision, view()) if rule else None
        if picked is None:
            picked = self._generic(decision)
        return picked

    def _generic(self, decision: Decision) -> Choice:
        ids = [o.id for o in decision.options]
        for preferred in ("yes", "pay"):
            if preferred in ids:
                return (preferred,)
        if decision.kind is Kind.ONE and "pass" in ids:
            return ("pass",)
        return random_choice(decision, self.rng)

    def _skip(self, decision: Decision, view: TableView) -> Choice | None:
        ids = [o.id for o in decision.options]
        return ("skip",) if "skip" in ids else None

    def _play(self, decision: Decision, view: TableView) -> Choice | None:
        cards = _cards(view)
        plays = [o for o in decision.options if o.card is not None and o.card in cards]
        if not plays:
            return ("done",)
        best = max(plays, key=lambda o: cards[o.card or 0].cost or 0)
        return (best.id,)

    def _commit(self, decision: Decision, view: TableView) -> Choice | None:
        cards = _cards(view)
        threat = sum(c.threat or 0 for c in view.staging) + 2 * sum(1 for p in view.players if not p.eliminated)
        me = view.players[_me(view, decision.seat)]
        defenders_needed = len(me.engaged) + 1
        options = sorted(
            (o for o in decision.options if o.card in cards),
            key=lambda o: -(cards[o.card or 0].willpower or 0),
        )
        keep = sorted(options, key=lambda o: -(cards[o.card or 0].defense or 0))[:defenders_needed]
        chosen: list[str] = []
        total = 0
        for option in options:
            if total > threat or option in keep:
                continue
            if (cards[option.card or 0].willpower or 0) > 0:
                chosen.append(option.id)
                total += cards[option.card or 0].willpower or 0
        return tuple(chosen)

    def _travel(self, decision: Decision, view: TableView) -> Choice | None:
        cards = _cards(view)
        places = [o for o in decision.options if o.card in cards]
        if not places:
            return ("skip",)
        return (max(places, key=lambda o: cards[o.card or 0].threat or 0).id,)

    def _defend(self, decision: Decision, view: TableView) -> Choice | None:
        cards = _cards(view)
        enemy = cards.get(decision.about or -1)
        enemy_attack = enemy.attack or 0 if enemy else 0
        best = None
        for option in decision.options:
            card = cards.get(option.card or -1)
            if card is None:
                continue
            survives = (card.defense or 0) + (card.hit_points or 0) - card.damage > enemy_attack
            if survives and (best is None or (card.defense or 0) > (cards[best.card or 0].defense or 0)):
                best = option
        if best is not None:
            return (best.id,)
        allies = [o for o in decision.options if o.card in cards and cards[o.card or 0].type == "ally"]
        if allies:
            return (min(allies, key=lambda o: cards[o.card or 0].cost or 0).id,)
        return ("undefended",)

    def _take_damage(self, decision: Decision, view: TableView) -> Choice | None:
        cards = _cards(view)
        heroes = [o for o in decision.options if o.card in cards]
        if not heroes:
            return None
        return (max(heroes, key=lambda o: (cards[o.card or 0].hit_points or 0) - cards[o.card or 0].damage).id,)

    def _attack(self, decision: Decision, view: TableView) -> Choice | None:
        cards = _cards(view)
        enemy = cards.get(decision.about or -1)
        if enemy is None:
            return ()
        defense, left = enemy.defense or 0, (enemy.hit_points or 0) - enemy.damage
        attackers = sorted(
            (o for o in decision.options if o.card in cards),
            key=lambda o: -(cards[o.card or 0].attack or 0),
        )
        chosen: list[str] = []
        total = 0
        for option in attackers:
            if total - defense >= left:
                break
            chosen.append(option.id)
            total += cards[option.card or 0].attack or 0
        return tuple(chosen) if total - defense >= left else ()


BOTS: dict[str, Callable[[int], Bot]] = {"random": RandomBot, "greedy": GreedyBot}


def make_bot(kind: str, seed: int) -> Bot:
    try:
        return BOTS[kind](seed)
    except KeyError:
        raise ValueError(f"unknown bot {kind!r}; choose from {', '.join(BOTS)}") from None
