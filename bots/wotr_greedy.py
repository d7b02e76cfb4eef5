"""A greedy War of the Ring player: simple, sound heuristics for each kind of decision.

It sees only its seat's view. On its turn it puts its strongest cards where its team
fights (path icons on the path, attack where its team attacks, defense where it
defends), moves ready cards out of reserve, uses card actions and its Ring token when its
hand runs low, keeps cards in reserve that draw or raise the carryover limit, and passes
when it may; it pays costs with its weakest cards, loses as little as it can in combat,
forsakes blind from the top of its deck, and takes every free benefit.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from bots import View, random_choice, without_cards
from domain.kernel.decisions import Choice, Decision, Kind, Option
from projections.wotr import CardView, LocationView, PlayerView, TableView


def visible_cards(view: TableView) -> dict[int, CardView]:
    out: dict[int, CardView] = {}

    def add(card: CardView) -> None:
        out[card.uid] = card
        for item in card.items:
            add(item)

    for player in view.players:
        for group in (player.reserve, player.hand or [], player.aside or [], player.cycle or []):
            for card in group:
                add(card)
    for loc in ([view.path] if view.path else []) + view.battlegrounds:
        for card in loc.cards:
            add(card)
    return out


def _me(view: TableView, seat: str) -> PlayerView:
    return next(p for p in view.players if p.seat == seat)


def _team_of(view: TableView, seat: str | None) -> str:
    return next((p.team for p in view.players if p.seat == seat), "")


def _icons_at(card: CardView, loc: LocationView, team: str) -> int:
    """The icons ``card`` adds to ``team``'s side of the combat at ``loc``."""
    if loc.kind == "path":
        return card.path
    if loc.deck == team:
        return card.bg_defense + card.lead_defense
    return card.bg_attack + card.lead_attack


def _margin(loc: LocationView, team: str) -> int:
    """How far ``team`` is ahead in the combat at ``loc`` as it stands (0: just winning;
    below 0: losing), from the combat's own count."""
    count = loc.count
    if count is None:
        return 0
    held = count.defense + count.defenders
    if count.attackers == team:
        return count.attack - held - 1
    return held - count.attack


def _reserve_threat(view: TableView, loc: LocationView, team: str) -> int:
    """Icons the other team has in reserve that could move to ``loc`` against ``team``."""
    total = 0
    for player in view.players:
        if player.team == team:
            continue
        for card in player.reserve:
            if card.reserved:
                continue
            other = player.team
            if loc.kind == "path":
                total += card.path
            elif loc.deck == other:
                total += card.bg_defense + card.lead_defense
            else:
                total += card.bg_attack + card.lead_attack
    return total


def _chance(margin: int, threat: int) -> float:
    """A rough chance of holding a combat ``margin`` ahead against ``threat`` to come."""
    if margin < 0:
        return 0.0
    return min(1.0, (margin + 1) / (threat + 1))


def strength(card: CardView) -> int:
    return card.path + card.bg_attack + card.bg_defense + card.lead_attack + card.lead_defense


class GreedyBot:
    def __init__(self, seed: int, consent: frozenset[str] = frozenset()) -> None:
        self.rng = random.Random(seed)
        self.consent = consent
        """The teammates whose cards this bot may choose (see ``bots.make_bot``)."""
        self._view: TableView | None = None
        self.taken: Counter[tuple[int, str]] = Counter()
        """How often each action was taken this round: a repeatable text loses its appeal."""
        self.rules: dict[str, Callable[[Decision, TableView], Choice | None]] = {
            "wotr.action.turn": self._act,
            "wotr.play.cost": self._cheapest,
            "wotr.cycle": self._cheapest_many,
            "wotr.combat.losses": self._lose,
            "wotr.forsake": self._forsake,
            "wotr.draw-play": self._draw_play,
        }

    def choose(self, decision: Decision, view: View) -> Choice:
        table: TableView | None = None
        if any(o.card is not None for o in decision.options):
            table = view()
            barred = {
                uid
                for uid, card in visible_cards(table).items()
                if card.owner not in (None, decision.seat)
                and card.owner not in self.consent
                and _team_of(table, card.owner) == _team_of(table, decision.seat)
            }
            decision = without_cards(decision, barred)
        rule = self.rules.get(decision.rule)
        picked = rule(decision, table or view()) if rule else None
        return picked if picked is not None else self._generic(decision)

    def _generic(self, decision: Decision) -> Choice:
        ids = [o.id for o in decision.options]
        if decision.kind is Kind.ONE:
            for preferred in ("yes", "deck"):
                if preferred in ids:
                    return (preferred,)
            real = [i for i in ids if i != "none"]
            return (real[0] if real else ids[0],)
        if decision.kind is Kind.MANY:
            return tuple(ids[: max(decision.min, min(decision.max, len(ids)))])
        return random_choice(decision, self.rng)

    # -- the action step -------------------------------------------------------------

    def _value_at(self, card: CardView, loc: LocationView, team: str, view: TableView | None = None) -> float:
        """What adding ``card`` to the combat at ``loc`` is worth to ``team``: the location's
        points times how much closer it brings a win there, reckoning with what the other
        team holds in reserve that could still move there; little where the combat is
        already safe, nothing where it is lost whatever this card adds."""
        icons = _icons_at(card, loc, team)
        if view is None or loc.count is None:
            return float(icons)
        if icons <= 0:
            return 0.0
        margin = _margin(loc, team)
        threat = _reserve_threat(view, loc, team)
        stake = loc.vp + (max(0, -margin) if loc.kind == "path" else 0)
        gained = _chance(margin + icons, threat) - _chance(margin, threat)
        return stake * gained + 0.05 * icons

    def _act(self, decision: Decision, view: TableView) -> Choice | None:
        self._view = view
        me = _me(view, decision.seat)
        cards = visible_cards(view)
        locations = {loc.uid: loc for loc in ([view.path] if view.path else []) + view.battlegrounds}
        hand = me.hand_size
        best: tuple[float, Option] | None = None
        for option in decision.options:
            value = self._option_value(option, cards, locations, me, hand)
            value -= self.taken[(view.round, option.id)] * 0.5
            value += self.rng.random() * 0.01
            if best is None or value > best[0]:
                best = (value, option)
        if best is None:
            return None
        self.taken[(view.round, best[1].id)] += 1
        return (best[1].id,)

    def _option_value(
        self,
        option: Option,
        cards: dict[int, CardView],
        locations: dict[int, LocationView],
        me: PlayerView,
        hand: int,
    ) -> float:
        verb, _, rest = option.id.partition(".")
        card = cards.get(option.card or -1)
        if verb == "pass":
            return 0.4 if hand <= me.carryover else 0.05
        if verb == "ring":
            # an unused Ring token scores a point at the end: spent only with an empty hand
            return 0.5 if hand == 0 else 0.0
        if verb == "use":
            return 0.9
        if verb == "cycle":
            return 0.02
        if verb == "winnow":
            return 0.01
        if card is None:
            return 0.0
        dest = rest.partition(".")[2]
        if verb == "move":
            loc = locations.get(int(dest))
            return 0.6 + self._value_at(card, loc, me.team, self._view) if loc else 0.0
        if dest == "event":
            return 0.7
        if dest == "reserve":
            return 0.3 if card.type == "character" else 0.1
        if dest.startswith("L"):
            loc = locations.get(int(dest[1:]))
            return 0.3 + self._value_at(card, loc, me.team, self._view) if loc else 0.0
        if dest.startswith("W"):
            return 0.5 + strength(card)
        return 0.0

    # -- costs, losses, forsaking ----------------------------------------------------

    def _cheapest(self, decision: Decision, view: TableView) -> Choice | None:
        cards = visible_cards(view)
        cycles = [o for o in decision.options if o.card in cards]
        if not cycles:
            return None
        return (min(cycles, key=lambda o: strength(cards[o.card or 0])).id,)

    def _cheapest_many(self, decision: Decision, view: TableView) -> Choice | None:
        cards = visible_cards(view)
        if decision.kind is Kind.ONE:
            return self._cheapest(decision, view)
        ranked = sorted(decision.options, key=lambda o: strength(cards[o.card]) if o.card in cards else 0)
        return tuple(o.id for o in ranked[: decision.min])

    def _lose(self, decision: Decision, view: TableView) -> Choice | None:
        remaining = view.combat.remaining if view.combat else 0

        def cancels(option: Option) -> int:
            return int(option.label.rsplit("cancels ", 1)[-1])

        covering = [o for o in decision.options if cancels(o) >= remaining]
        if covering:
            return (min(covering, key=cancels).id,)
        return (max(decision.options, key=cancels).id,)

    def _forsake(self, decision: Decision, view: TableView) -> Choice | None:
        ids = [o.id for o in decision.options]
        if "deck" in ids:
            return ("deck",)
        return self._cheapest(decision, view)

    def _draw_play(self, decision: Decision, view: TableView) -> Choice | None:
        plays = [o for o in decision.options if o.id != "none"]
        placed = [o for o in plays if ".L" in o.id]
        return ((placed or plays)[0].id,) if plays else None
