"""What the greedy LCG player does with event cards: when one helps, and on what.

An event is played in the window where it does its work (a Feint before the enemy
attacks, Radagast's Cunning once the staging area is known, a heal when damage
threatens a character), only if the table shows it helps; Responses are taken when
they cancel something harmful or come cheap. Targets are chosen for effect: the
strongest attacker, the player most threatened, the attack that kills.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from bots import lcg_hobbit, lcg_plans, lcg_ships
from domain.kernel.decisions import Choice, Decision, Option
from projections.lcg import CardView, PlayerView, TableView

Seen = dict[int, CardView]


def _left(card: CardView) -> int:
    # in an epic group the hit points shown are a global value, the other groups' damage counted in it
    return (card.hit_points or 0) - card.damage - card.other_groups


def _mine(me: PlayerView) -> list[CardView]:
    return [*me.heroes, *me.allies]


def _ready(me: PlayerView) -> list[CardView]:
    return [c for c in _mine(me) if not c.exhausted]


def _window(decision: Decision) -> str:
    return decision.rule


def _engaged_attack(me: PlayerView) -> int:
    return sum(e.attack or 0 for e in me.engaged)


def _before_enemy_attacks(decision: Decision, me: PlayerView) -> bool:
    return _window(decision) == "lcg.combat.window.shadows" and bool(me.engaged)


def _before_player_attacks(decision: Decision, me: PlayerView) -> bool:
    return _window(decision) == "lcg.combat.window.enemy-attacks" and bool(me.engaged)


def _killable(me: PlayerView, each: int = 0, one: int = 0) -> bool:
    """Whether the ready characters, attacking together, destroy an engaged enemy: with
    ``each`` more attack on every one of them (For Gondor!), and ``one`` more on a single
    one of them (Blade Mastery gives its +1 to one character, core-032)."""
    ready = _ready(me)
    power = sum(c.attack or 0 for c in ready) + each * len(ready) + (one if ready else 0)
    return any(power - (e.defense or 0) >= _left(e) for e in me.engaged)


def _hand_small(me: PlayerView) -> bool:
    return me.hand_size <= 3


PASSAGE_GREETING_THREAT: Final = 33
"""At a stage without engagement checks (Anduin Passage) The Galadhrim's Greeting (6 threat
off, core-046) is played from this threat, before Evil Storm and Treacherous Fog (35 threat)
start to hurt, rather than at 38: no enemy's engagement cost is near then, and failed quests
raise the threat to 50. The greedy Anduin row won 70 of 800 games on seeds 9401-10200 with
33 (69 with 29 and 31, 66 with 35, 65 at 38) and 82 against 80 on 10201-11000."""


def _when(name: str, view: TableView, decision: Decision, me: PlayerView) -> bool:
    """Whether the Action event ``name`` helps now."""
    staging_threat = sum(c.threat or 0 for c in view.staging)
    exhausted = [c for c in _mine(me) if c.exhausted]
    if name == "Ever Vigilant":
        return _before_enemy_attacks(decision, me) and any(c.type == "ally" for c in exhausted)
    if name == "Common Cause":
        ready_heroes = [h for h in me.heroes if not h.exhausted]
        return (
            _before_enemy_attacks(decision, me)
            and bool(ready_heroes)
            and any(
                h.type == "hero" and (h.defense or 0) > min(r.defense or 0 for r in ready_heroes) for h in exhausted
            )
        )
    if name == "For Gondor!" and _before_player_attacks(decision, me) and lcg_ships.dreadnaught_gain(me, 1) >= 2:
        return True
    if name == "For Gondor!":
        return _before_player_attacks(decision, me) and not _killable(me) and _killable(me, each=1)
    if name == "Blade Mastery":
        return _before_player_attacks(decision, me) and not _killable(me) and _killable(me, one=1)
    if name == "Sneak Attack":
        return _before_enemy_attacks(decision, me) and any(
            c.type == "ally" and (c.cost or 0) >= 3 for c in me.hand or []
        )
    if name == "Grim Resolve":
        return _before_enemy_attacks(decision, me) and len(exhausted) >= 3
    if name == "Rain of Arrows":
        return _window(decision) == "lcg.combat.window.enemy-attacks" and any(
            _left(e) <= 1 for p in view.players for e in p.engaged
        )
    if name in ("Feint", "A Light in the Dark"):
        return _before_enemy_attacks(decision, me) and max((e.attack or 0) for e in me.engaged) >= 3
    if name == "Thicket of Spears":
        return _before_enemy_attacks(decision, me) and _engaged_attack(me) >= 4
    if name == "Quick Strike":
        return _before_enemy_attacks(decision, me) and any(
            (c.attack or 0) - (e.defense or 0) >= _left(e) for c in _ready(me) for e in me.engaged
        )
    if name == "The Galadhrim's Greeting" and not lcg_plans.engagement_checks(view):
        return me.threat >= PASSAGE_GREETING_THREAT
    if name == "The Galadhrim's Greeting":
        return max(p.threat for p in view.players if not p.eliminated) >= 38 or lcg_plans.troll_coming(view, me)
    if name == "Will of the West":
        return me.deck_size <= 5 and len(me.discard) >= 5
    if name in ("Stand and Fight", "Fortune or Fate"):
        return True
    if name in ("Dwarven Tomb", "Lórien's Wealth", "Gandalf's Search"):
        return _hand_small(me)
    if name == "Lore of Imladris":
        return any(c.damage >= 2 or (c.damage and _left(c) <= 1) for p in view.players for c in _mine(p))
    if name == "Beorn's Hospitality":
        return sum(h.damage for h in me.heroes) >= 4
    if name == lcg_hobbit.SECRET_PATHS and lcg_hobbit.kept_for_stage_3(view, me):
        return _window(decision) == "lcg.quest.window.staging" and lcg_hobbit.saving_location(view, me) is not None
    if name in ("Radagast's Cunning", "Secret Paths"):
        return _window(decision) == "lcg.quest.window.staging" and staging_threat >= 2
    return False


def play_event(decision: Decision, view: TableView) -> Choice | None:
    """In an action window: the first event in hand worth playing now, if any."""
    me = next(p for p in view.players if p.seat == decision.seat)
    hand = {c.uid: c for c in me.hand or []}
    for option in decision.options:
        card = hand.get(option.card or -1)
        if card is not None and card.type == "event" and _when(card.name, view, decision, me):
            return (option.id,)
    return None


DRAWS: Final = {"Valiant Sacrifice": 2}
"""The cards a Response event draws (core-024)."""


def respond(decision: Decision, view: TableView, seen: Seen) -> Choice:
    """A Response event: cancels and card draw are worth it (a draw not when Tolfalas
    Landing makes it cost threat, ``lcg_ships.draw_worth``); Swift
    Strike when its 2 damage leaves an engaged enemy within reach of one more attack."""
    yes = next((o for o in decision.options if o.id == "yes"), None)
    if yes is None:
        return ("no",)
    card = seen.get(yes.card or -1)
    me = next(p for p in view.players if p.seat == decision.seat)
    if card is not None and not lcg_ships.draw_worth(view, DRAWS.get(card.name, 0)):
        return ("no",)
    if card is not None and card.name == "Swift Strike":
        return ("yes",) if any(_left(e) <= 4 for e in me.engaged) else ("no",)
    if card is not None and card.name == TEST_OF_WILL and view.revealed and not _harms(view.revealed[-1], view):
        return ("no",)
    return ("yes",)


TEST_OF_WILL: Final = "A Test of Will"
"""Core-050: cancels the When Revealed effects of a card just revealed."""
HIGH_THREAT: Final = 35
"""The threat from which Evil Storm (core-116) and Treacherous Fog (core-118) touch a player."""


def _harms(revealed: CardView, view: TableView) -> bool:
    """Whether the When Revealed effect of ``revealed`` does anything to the table now: A Test
    of Will spent on one that does nothing (Evil Storm below 35 threat, The Necromancer's
    Reach with nobody exhausted) is not there for the one that kills a hero (the greedy
    Anduin row cancelled Evil Storm below 35 threat 8 times in 100 games, and lost 21 heroes
    in those games to Evil Storm above it). Cards not named here are counted harmful."""
    players = [p for p in view.players if not p.eliminated]
    characters = [c for p in players for c in _mine(p)]
    high = any(p.threat >= HIGH_THREAT for p in players)
    name = revealed.name
    if name == "Evil Storm":
        return high
    if name == "The Necromancer's Reach":
        return any(c.exhausted for c in characters)
    if name == "Pursued by Shadow":
        return any(not c.committed for c in characters)
    if name == "Dol Guldur Orcs":
        return any(c.committed for c in characters)
    if name == "Despair":
        return view.quest is not None and view.quest.progress > 0
    if name == "Treacherous Fog":
        return any(c.type == "location" for c in view.staging) or (high and any(p.hand_size for p in players))
    return True


# -- choosing the targets of an event ----------------------------------------------------


def _best(options: list[Option], seen: Seen, key: Callable[[CardView], int]) -> Choice | None:
    cards = [(o, seen[o.card]) for o in options if o.card in seen]
    if not cards:
        return None
    return (max(cards, key=lambda oc: key(oc[1]))[0].id,)


def _strongest_enemy(decision: Decision, view: TableView, seen: Seen) -> Choice | None:
    return _best(list(decision.options), seen, lambda c: c.attack or 0)


def _highest_threat(decision: Decision, view: TableView, seen: Seen) -> Choice | None:
    return _best(list(decision.options), seen, lambda c: c.threat or 0)


def _secret_paths_target(decision: Decision, view: TableView, seen: Seen) -> Choice | None:
    """Secret Paths: at The Burglar's Turn, when the failing quest eliminates the player, the
    location that keeps them in the game (``lcg_hobbit.saving_location``); else the location
    of the highest threat."""
    me = next(p for p in view.players if p.seat == decision.seat)
    saving = lcg_hobbit.saving_location(view, me)
    chosen = next((o for o in decision.options if saving is not None and o.card == saving.uid), None)
    return (chosen.id,) if chosen is not None else _highest_threat(decision, view, seen)


def _most_damaged(decision: Decision, view: TableView, seen: Seen) -> Choice | None:
    return _best(list(decision.options), seen, lambda c: c.damage)


def _ready_attacker(decision: Decision, view: TableView, seen: Seen) -> Choice | None:
    """Blade Mastery: the +1 attack on one of the deciding player's ready characters (one
    that attacks in the kill it was played for), the hardest hitter of them; an exhausted
    character or another player's would waste it."""
    me = next(p for p in view.players if p.seat == decision.seat)
    ready = {c.uid for c in _ready(me)}
    mine = [o for o in decision.options if o.card in ready]
    return _best(mine or list(decision.options), seen, lambda c: (c.attack or 0) * 10 - c.damage)


def _most_valuable(decision: Decision, view: TableView, seen: Seen) -> Choice | None:
    return _best(list(decision.options), seen, lambda c: c.cost or 0)


def _swap_heroes(decision: Decision, view: TableView, seen: Seen) -> Choice | None:
    """Common Cause: exhaust the weakest defender to ready the strongest."""
    cards = [seen[o.card] for o in decision.options if o.card in seen]
    if cards and all(not c.exhausted for c in cards):
        return _best(list(decision.options), seen, lambda c: -(c.defense or 0))
    return _best(list(decision.options), seen, lambda c: c.defense or 0)


def _largest_x(decision: Decision, view: TableView, seen: Seen) -> Choice | None:
    return (max(decision.options, key=lambda o: int(o.id)).id,)


def _most_threatened_player(decision: Decision, view: TableView, seen: Seen) -> Choice | None:
    threat = {p.seat: p.threat for p in view.players}
    engaged = {p.seat: len(p.engaged) for p in view.players}
    seats = [o for o in decision.options if o.id in threat]
    if not seats:
        return ("each",) if any(o.id == "each" for o in decision.options) else None
    return (max(seats, key=lambda o: (engaged[o.id], threat[o.id])).id,)


def _killing_strike(decision: Decision, view: TableView, seen: Seen) -> Choice | None:
    """Quick Strike: the attack that destroys an enemy, else the hardest hitter."""

    def value(o: Option) -> tuple[int, int]:
        attacker, enemy = (int(x) for x in o.id.split(">"))
        a, e = seen.get(attacker), seen.get(enemy)
        if a is None or e is None:
            return (0, 0)
        dealt = (a.attack or 0) - (e.defense or 0)
        return (int(dealt >= _left(e)), dealt)

    return (max(decision.options, key=value).id,)


def _scout_location(decision: Decision, view: TableView, seen: Seen) -> Choice | None:
    """Snowbourn Scout's progress (core-016: "choose a location; place 1 progress token on
    it"): on a staged location it explores at once (the most threat first: a location in the
    staging area with as much progress as quest points is explored, Core Set rulebook), else
    on the active location (the quest's progress goes to it first), else on the staged one
    closest to explored."""
    locations = [(o, seen[o.card]) for o in decision.options if o.card in seen and seen[o.card].type == "location"]
    active = view.active_location
    staged = [(o, c) for o, c in locations if active is None or c.uid != active.uid]
    explored = [(o, c) for o, c in staged if (c.quest_points or 0) - c.progress <= 1]
    if explored:
        return (max(explored, key=lambda oc: oc[1].threat or 0)[0].id,)
    held = [o for o, c in locations if active is not None and c.uid == active.uid]
    if held:
        return (held[0].id,)
    if staged:
        return (min(staged, key=lambda oc: ((oc[1].quest_points or 0) - oc[1].progress, -(oc[1].threat or 0)))[0].id,)
    return None


TARGETS: Final[dict[str, Callable[[Decision, TableView, Seen], Choice | None]]] = {
    "lcg.event.x": _largest_x,
    "core-016.response": _scout_location,
    "core-021.action": _swap_heroes,
    "core-032.action": _ready_attacker,
    "core-033.action": _most_threatened_player,
    "core-034.action": _strongest_enemy,
    "core-035.action": _killing_strike,
    "core-036.action": _most_threatened_player,
    "core-046.action": _most_threatened_player,
    "core-052.action": _strongest_enemy,
    "core-063.action": _most_damaged,
    "core-065.action": _highest_threat,
    "core-066.action": _secret_paths_target,
    "core-067.action": _most_valuable,
}
"""Target choices by the rule of the decision (the event's own)."""
