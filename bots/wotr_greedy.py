"""A greedy War of the Ring player: simple, sound heuristics for each kind of decision.

It sees only its seat's view. On its turn it reckons each combat as a :class:`Front`: how
far its team is ahead there, what the other team could still bring (its reserve cards that
may enter, and a share of each unseen hand from the seat's printed deck list), and what
its own team could. Against the Shadow bots, who answer only a lead they could still
overturn (seed 003, flowchart steps 3-4), a combat held beyond their reach is safe, so the
bot stops adding icons there and spends them where they still count; on a path being lost
each icon also cancels a corruption token. A battleground is fought with a plan over
several cards (bots/wotr_plans.py): it attacks one only with a group that takes it beyond
the Shadow's reach (every attacker is eliminated, so a card short of that is lost for
nothing) and defends one with the group that holds it, and sends Andúril's wielder to the
Dúnedain battleground the Shadow's reserve can least answer. It moves ready cards out of reserve (free),
builds a reserve for later rounds but not in the last, uses a Duel's Ring token every round
and keeps a once-a-game token for its point, and passes when it may with cards to carry
over or while a Shadow hand still holds cards (it answers rather than leads); it pays
costs with its weakest cards, loses as little as it can in combat, forsakes blind from the
top of its deck, and takes every free benefit.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from functools import cache

from bots import View, random_choice, without_cards
from bots.wotr_plans import ACTIVATES, CARD_COST, DEF_COST, HAND_COST, Piece, Plan, activation_worth, plans
from domain.kernel.decisions import Choice, Decision, Kind, Option
from domain.wotr.cards import CARDS
from domain.wotr.scenarios import scenario
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


def _arriving_icons(card: CardView, loc: LocationView, team: str) -> int:
    """The icons ``card`` would add to ``team``'s side at ``loc`` arriving now. On a
    battleground a character's leadership icons count only while an army of its faction
    there supports it, one army per character (rules digest §6.3; ``combat.tally``): a
    leader alone adds only its battleground icons, and an army arriving beside a waiting
    leader adds the leader's too."""
    if loc.kind == "path" or card.type not in ("character", "army"):
        return _icons_at(card, loc, team)
    attack = loc.deck != team
    base = card.bg_attack if attack else card.bg_defense

    def lead(c: CardView) -> int:
        return c.lead_attack if attack else c.lead_defense

    kin = [c for c in loc.cards if c.faction == card.faction and c.uid != card.uid]
    armies = sum(1 for c in kin if c.type == "army")
    leaders = sorted((lead(c) for c in kin if c.type == "character" and lead(c) > 0), reverse=True)
    if card.type == "character":
        return base + (lead(card) if armies > len(leaders) else 0)
    return base + (leaders[armies] if len(leaders) > armies else 0)


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


PATH_BONUS = 1.0
"""A path taken is worth its points and the corruption a loss there would give."""
BG_STAKE = 1.0
"""A battleground's points once (not the swing of twice them): the Free Peoples' few cards
won more games spent on paths, where they also cancel corruption (measured: 2.0 won
20 % of 200 standard games, 1.0 24 %)."""
USE_LIMIT = 2
"""Times a round the bot uses one card's action text."""
USE_WORTH = 0.9
"""A card's "use your action" text: it costs no card from hand."""
FOUGHT_FIRST = "the current path is fought first"
"""The words of a text that activates another path and fights the current one at once
(Strider, Gandalf the Grey, Sméagol): worth using while the path is held, not while it is
being lost (measured, wins of 300 standard / 300 challenging games: seeds 1001-1300 78 / 38
used blind, 81 / 40 weighed; seeds 1301-1600 85 / 31 and 92 / 33)."""
EVENT_WORTH = 0.7
"""An event: its text draws, forsakes or moves, worth more than most single icons."""
PASS_KEEP = 0.4
"""Passing with a hand within the carryover limit keeps those cards for the next round."""
PLAY_COST = -0.2
"""A play costs a second card from hand (cycled to pay, rules §5): worth doing only for a gain."""
RESERVE_WORTH = 0.12
"""What a point of icons in reserve is worth for later rounds: it moves for free (rules §5)."""
HAND_THREAT = 0.5
"""How much of an unseen hand's average icons (from its deck list) the bot reckons with:
a bot's hand card joins a combat only if its reserve could win there with it (seed 003,
flowchart step 4), so half (measured with BG_STAKE 1.0: 1.0 24 %, 0.5 28 %, 0.3 25 %)."""
OWN_SHARE = 0.5
"""How much of the icons its team could still add to a combat the bot counts on."""
WASTED = -0.5
"""A card sent to attack a battleground with no plan that takes it: lost for nothing."""
HOLD_WORTH = 3.0
"""Passing while another team's hand still holds cards, when the bot may pass: a Shadow bot
plays a random card every turn until its hand is empty (seed 003, flowchart steps 2 and 4:
it passes early only while winning every combat), so the Free Peoples answer what it
committed instead of leading. Measured on paired seeds (wins of 300 standard / 300
challenging games, seeds 1301-1600): 73 / 24 leading, 85 / 31 holding."""


def _unit_icons(card: CardView, loc: LocationView, team: str) -> int:
    """``card`` with its items: the icons it adds to ``team``'s side at ``loc``."""
    return _icons_at(card, loc, team) + sum(_icons_at(item, loc, team) for item in card.items)


def _may_enter(card: CardView, loc: LocationView, team: str) -> bool:
    """Rules §6: a character enters a path of a number it shows; an army or character a
    battleground showing its faction (texts that widen this are not reckoned)."""
    if card.type not in ("character", "army"):
        return False
    if loc.kind == "path":
        return card.type == "character" and loc.number in card.paths
    return card.faction in (loc.defending if loc.deck == team else loc.attacking)


@cache
def _deck_icons_by(key: str, seat: str, loc_code: str, side: str) -> float:
    from domain.wotr.cards import LOCATIONS

    where = LOCATIONS[loc_code]
    deck = next((d.cards for d in scenario(key).seats if d.seat == seat), ())
    total = 0
    for code in deck:
        card = CARDS[code]
        if card.type not in ("character", "army"):
            continue
        if where.kind == "path":
            if card.type == "character" and where.number in card.paths:
                total += card.path
        elif card.faction in (where.defending if where.deck == side else where.attacking):
            lead = card.lead_defense if where.deck == side else card.lead_attack
            total += (card.bg_defense if where.deck == side else card.bg_attack) + lead
    return total / max(1, len(deck))


def _deck_icons(key: str, seat: str, loc: LocationView, side: str) -> float:
    """The icons an unseen card of ``seat``'s deck adds at ``loc`` on average, from the
    scenario's printed deck list (public, like the card texts): a Shadow seat whose
    factions cannot enter a battleground is no threat there."""
    return _deck_icons_by(key, seat, loc.code, side)


def _last_round(view: TableView) -> bool:
    """The path fought this round is the scenario's last (the game is scored after it)."""
    return view.path is not None and view.path.number >= scenario(view.scenario).last_path


def _round_ring(view: TableView) -> bool:
    """A Duel's Ring token is used once per round, not once a game (rules §9.2)."""
    return scenario(view.scenario).duel


class Front:
    """One combat as the bot reckons it: its margin now, what the other team could still
    bring (reserve cards that may enter it, and a share of each unseen hand), what the
    bot's own team could, and what it is worth.

    The Shadow bots add cards only where they are losing but could conceivably win (seed
    003, flowchart steps 3-4), so a combat held by more than the Shadow can bring is safe
    and icons beyond that are wasted; below that, each icon counts in proportion."""

    def __init__(self, view: TableView, loc: LocationView, team: str) -> None:
        self.loc = loc
        self.team = team
        self.duel = scenario(view.scenario).duel
        self.margin = _margin(loc, team) - (1 if self.duel and loc.kind == "path" else 0)
        threat = 0.0
        own = 0.0
        for player in view.players:
            mine = player.team == team
            side = team if mine else next(p.team for p in view.players if p.team != team)
            for card in player.reserve:
                if card.reserved and not player.bot:
                    continue  # played to reserve this round: it may not move yet (a bot's may)
                if _may_enter(card, loc, side):
                    if mine:
                        own += _unit_icons(card, loc, side)
                    else:
                        threat += _unit_icons(card, loc, side)
            per_card = HAND_THREAT * _deck_icons(view.scenario, player.seat, loc, side)
            if mine and player.hand is not None:
                # a seen hand: its best cards that may enter, one play per two cards (the cost)
                fits = sorted((_icons_at(c, loc, side) for c in player.hand if _may_enter(c, loc, side)), reverse=True)
                own += sum(fits[: max(1, player.hand_size // 2)])
            elif mine:
                own += player.hand_size * per_card / 2
            else:
                threat += player.hand_size * per_card
        self.threat = threat
        self.own = own * OWN_SHARE
        self.stake = (loc.vp + PATH_BONUS) if loc.kind == "path" else BG_STAKE * loc.vp
        self.uids = {c.uid for c in loc.cards} | {i.uid for c in loc.cards for i in c.items}

    def holds(self, uid: int) -> bool:
        return uid in self.uids

    def icons(self, card: CardView) -> int:
        """The icons ``card`` adds here arriving now, with the items it carries."""
        return _arriving_icons(card, self.loc, self.team) + sum(_icons_at(i, self.loc, self.team) for i in card.items)

    def chance(self, margin: float) -> float:
        """The chance of taking the location at ``margin``: certain beyond the other team's
        reach, nothing beyond the bot's own, in proportion between."""
        if margin >= self.threat:
            return 1.0
        low = -self.own - 1.0
        if margin <= low:
            return 0.0
        return (margin - low) / (self.threat - low + 1.0)

    def worth(self, margin: float) -> float:
        """Expected points at ``margin``: the stake times the chance, less on a path the
        corruption a loss now would give (each icon there cancels one, rules §6.4)."""
        p = self.chance(margin)
        value = self.stake * p
        if self.loc.kind == "path":
            value -= (1.0 - p) * max(0.0, -margin)
        return value

    def gain(self, icons: int) -> float:
        if icons <= 0:
            return 0.0
        return self.worth(self.margin + icons) - self.worth(self.margin)


class GreedyBot:
    def __init__(self, seed: int, consent: frozenset[str] = frozenset()) -> None:
        self.rng = random.Random(seed)
        self.consent = consent
        """The teammates whose cards this bot may choose (see ``bots.make_bot``)."""
        self._view: TableView | None = None
        self._fronts: dict[int, Front] = {}
        """The combats of the decision being answered, by location."""
        self._plans: dict[int, Plan | None] = {}
        """The attack planned on each battleground the bot's team attacks (None: none pays)."""
        self.taken: Counter[tuple[int, str]] = Counter()
        """How often each action was taken this round: a repeatable text loses its appeal."""
        self._ranking: tuple[int, list[str]] = (-1, [])
        """The last action-step decision answered (its id) and its options, best first."""
        self.rules: dict[str, Callable[[Decision, TableView], Choice | None]] = {
            "wotr.action.turn": self._act,
            "wotr.play.cost": self._cheapest,
            "wotr.cycle": self._cheapest_many,
            "wotr.combat.losses": self._lose,
            "wotr.forsake": self._forsake,
            "wotr.draw-play": self._draw_play,
            "wotr.aragorn-046.action": self._activate,
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
        """What adding ``card`` to the combat at ``loc`` is worth to ``team`` (see :class:`Front`)."""
        icons = _icons_at(card, loc, team)
        if view is None or loc.count is None:
            return float(icons)
        return Front(view, loc, team).gain(icons)

    def _act(self, decision: Decision, view: TableView) -> Choice | None:
        self._view = view
        me = _me(view, decision.seat)
        cards = visible_cards(view)
        locations = {loc.uid: loc for loc in ([view.path] if view.path else []) + view.battlegrounds}
        self._fronts = {uid: Front(view, loc, me.team) for uid, loc in locations.items()}
        hand = me.hand_size
        self._plans = plans(view, me.team, self._pieces(decision, cards, view), hand)
        valued: list[tuple[float, str]] = []
        for option in decision.options:
            value = self._option_value(option, cards, locations, me, hand)
            used = self.taken[(view.round, option.id)]
            if option.id != "pass":
                # passing again repeats no text: the bot may hold all round while the
                # Shadow plays (it spent a card on a lost cause once its passes had
                # worn the pass below that)
                value -= used * 0.5
            if used >= USE_LIMIT and option.id.startswith("use."):
                # a text that may be used again and again (a search that finds nothing)
                # must not hold the action step open for ever
                value -= 100.0
            value += self.rng.random() * 0.01
            valued.append((value, option.id))
        if not valued:
            return None
        ranking = [i for _, i in sorted(valued, key=lambda v: -v[0])]
        self._ranking = (decision.id, ranking)
        self.taken[(view.round, ranking[0])] += 1
        return (ranking[0],)

    def _pieces(self, decision: Decision, cards: dict[int, CardView], view: TableView) -> dict[int, list[Piece]]:
        """The cards the seat may send to each battleground now, by location: moves from
        reserve, plays from hand, items played to a wielder already there."""
        last_round = _last_round(view)
        out: dict[int, list[Piece]] = {}
        for option in decision.options:
            verb, _, rest = option.id.partition(".")
            card = cards.get(option.card or -1)
            if card is None or verb not in ("move", "play"):
                continue
            dest = rest.partition(".")[2]
            where: int | None = None
            if verb == "move":
                where = int(dest)
            elif dest.startswith("L"):
                where = int(dest[1:])
            elif dest.startswith("W"):
                where = next((uid for uid, f in self._fronts.items() if f.holds(int(dest[1:]))), None)
            if where is None or where not in self._fronts:
                continue
            keep = 0.0 if last_round else RESERVE_WORTH * strength(card)
            spent = CARD_COST if self._fronts[where].loc.deck != self._fronts[where].team else DEF_COST
            cost = spent + keep + (HAND_COST if verb == "play" else 0.0)
            out.setdefault(where, []).append(Piece(option.id, card, verb == "play", cost))
        return out

    def _planned(self, option: Option, where: int) -> float | None:
        """An option sending a card to a battleground the bot's team attacks: worth its
        share of the plan that takes it, or a loss if it is no part of one (the card would
        be eliminated for nothing). None for any other location."""
        if where not in self._plans:
            return None
        plan = self._plans[where]
        if plan is not None and option.id in plan.options:
            return plan.share()
        front = self._fronts[where]
        if front.loc.deck == front.team:
            return None
        return WASTED

    def shortlist(self, decision: Decision, size: int) -> list[Choice] | None:
        """Its ``size`` best answers, best first, to the action-step decision it has just
        answered (None for any other): what a search compares, its rollouts not spread
        over every card and place."""
        answered, ranking = self._ranking
        if answered != decision.id or not ranking:
            return None
        return [(i,) for i in ranking[:size]]

    def _option_value(
        self,
        option: Option,
        cards: dict[int, CardView],
        locations: dict[int, LocationView],
        me: PlayerView,
        hand: int,
    ) -> float:
        view = self._view
        assert view is not None
        verb, _, rest = option.id.partition(".")
        card = cards.get(option.card or -1)
        last_round = _last_round(view)
        if verb == "pass":
            if any(p.team != me.team and p.hand_size > 0 for p in view.players):
                # the Shadow bots play on until their hands are empty: answer, do not lead
                return HOLD_WORTH
            # cards kept up to the carryover limit are next round's; above it they are cycled
            return PASS_KEEP if hand <= me.carryover else 0.05
        if verb == "ring":
            if _round_ring(view):
                # a Duel's token comes back each round: draw 3, keep the best (rules §9.2)
                return 2.0
            # an unused once-a-game token scores 1 at the end (rules §8): spent only when
            # the last round's hand is empty
            return 0.5 if hand == 0 and last_round else -1.0
        if verb == "use" and card is not None and ACTIVATES in card.text:
            best = self._activation(card, view, me)
            return best[1] - RESERVE_WORTH * strength(card) if best is not None else -1.0
        if verb == "use":
            fought = self._fight_now(card, view)
            return USE_WORTH + (fought if fought is not None else 0.0)
        if verb == "cycle":
            return 0.02
        if verb == "winnow":
            return 0.01
        if card is None:
            return 0.0
        dest = rest.partition(".")[2]
        if verb == "move":
            # a move costs no card: only the card's use elsewhere later
            front = self._fronts.get(int(dest))
            if front is None:
                return 0.0
            planned = self._planned(option, int(dest))
            if planned is not None:
                return planned
            return front.gain(front.icons(card)) - (0.0 if last_round else RESERVE_WORTH * strength(card))
        if dest == "event":
            return EVENT_WORTH
        if dest == "reserve":
            # reserve cards move for free in later rounds (rules §5), worthless after the last
            if last_round or card.type not in ("character", "army"):
                return 0.02
            return PLAY_COST + RESERVE_WORTH * strength(card) + 0.1
        if dest.startswith("L"):
            planned = self._planned(option, int(dest[1:]))
            if planned is not None:
                return planned
            front = self._fronts.get(int(dest[1:]))
            return PLAY_COST + front.gain(front.icons(card)) if front else 0.0
        if dest.startswith("W"):
            wielder = cards.get(int(dest[1:]))
            where = next((f for f in self._fronts.values() if wielder and f.holds(wielder.uid)), None)
            if where is not None:
                planned = self._planned(option, where.loc.uid)
                if planned is not None:
                    return planned
                return PLAY_COST + where.gain(where.icons(card))
            return PLAY_COST + RESERVE_WORTH * strength(card) + 0.05
        return 0.0

    def _fight_now(self, card: CardView | None, view: TableView) -> float | None:
        """What using ``card``'s text that activates another path adds or takes away: the
        current path is fought first (its text says so), so its combat is settled at its
        margin now, before the Shadow can answer: taken if the Free Peoples hold it, lost
        with a corruption token per icon short if not, instead of the chance the bot
        reckons for it (and a text adding corruption costs one more). None for other texts."""
        if card is None or FOUGHT_FIRST not in card.text or view.path is None:
            return None
        front = self._fronts.get(view.path.uid)
        if front is None:
            return None
        settled = front.stake if front.margin >= 0 else -float(-front.margin)
        extra = 1.0 if "add 1 corruption" in card.text else 0.0
        return settled - front.worth(front.margin) - extra

    def _activation(self, item: CardView, view: TableView, me: PlayerView) -> tuple[str, float] | None:
        """Where ``item``'s wielder (in reserve) is best sent by its text that activates a
        battleground (Andúril), and what that is worth: weighed against the Shadow's
        reserve there (see :func:`bots.wotr_plans.activation_worth`)."""
        wielder = next((c for c in me.reserve if any(i.uid == item.uid for i in c.items)), None)
        if wielder is None:
            return None
        others = [c for c in me.reserve if not c.reserved and c.uid != wielder.uid]
        names = [loc.name for loc in view.battlegrounds] + [loc.name for t in view.teams for loc in t.scored]
        from domain.wotr.cards import LOCATIONS

        names += [d.name for d in LOCATIONS.values() if d.kind == "battleground" and "dunedain" in d.factions]
        worth = {name: activation_worth(view, me.team, name, wielder, others) for name in dict.fromkeys(names)}
        if not worth:
            return None
        name = max(worth, key=lambda n: worth[n])
        return name, worth[name]

    def _activate(self, decision: Decision, view: TableView) -> Choice | None:
        """Andúril's battleground: the one worth most against the Shadow's reserve there."""
        me = _me(view, decision.seat)
        item = next((i for c in me.reserve for i in c.items if ACTIVATES in i.text), None)
        if item is None:
            return None
        wielder = next(c for c in me.reserve if any(i.uid == item.uid for i in c.items))
        others = [c for c in me.reserve if not c.reserved and c.uid != wielder.uid]
        best = max(decision.options, key=lambda o: activation_worth(view, me.team, o.label, wielder, others))
        return (best.id,)

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
