"""Where the greedy bot's games of Passage through Mirkwood are lost: ``python -m tools.mirk_stats
FIRST LAST`` plays seeds FIRST to LAST as ``westmarch bench-bots --scenario passage-through-mirkwood
--bots greedy`` does (solo, the Aragorn, Gimli and Legolas deck, the same seeds give the same games)
and prints, over the games:

- how they ended (the reason, the stage, which stage 3), and the round they ended in;
- the round each stage was reached in, and the threat then;
- the threat raised, by stage and by cause (the rule that raised it: the refresh phase's point,
  a failed quest, an undefended attack's shadow, ...);
- the quests that failed and by how much, by stage;
- the heroes destroyed, by stage;
- the enemies engaged (by name) and the threat at the end of the lost games, by stage;
- the location lock, by stage: the threat of the locations in the staging area at each quest,
  and the share of quests made with an active location (it takes the progress first, and
  the players cannot travel to another until it is explored);
- the travel decisions, by stage: the location traveled to (or "skip") and how many were offered;
- the heroes destroyed by phase: in the combat phase (an attack), the encounter phase
  (Hummerhorns' 5 damage as it engages), the quest phase (a treachery's damage);
- the heroes destroyed in the combat phase: by the attacking enemy, how the attack was
  met (undefended, defended by the hero who died, by another), the shadow cards turned up,
  the hit points the hero had left as the attack was declared, whether an ally could have
  defended (it was offered as a defender), and whether the enemy was engaged by choice;
- Hummerhorns: the games they were revealed in and engaged in (and how many of each were
  won), the round and threat they engaged at, the hero given the 5 damage, whether it died,
  and whether a Citadel Plate was in play.

``--games`` lists each lost game on a line (seed, stage, round, threat, reason).
"""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass, field
from statistics import mean
from typing import cast

from domain.kernel.decisions import Choice, Decision
from domain.kernel.events import Event
from domain.kernel.state import State
from domain.lcg import events as ev
from domain.lcg.cards import CARDS
from domain.lcg.rules import table
from domain.lcg.state import LcgState
from tools.bench_bots import Observer, Row, observed, seed_range

ROW = Row("lcg", "passage-through-mirkwood", "standard", "greedy", "")
SEAT = "p1"
"""The one player's seat."""


def _stage(s: LcgState) -> str:
    quest = table.quest_card(s)
    if quest is None:
        return "?"
    d = table.defn(s, quest)
    return f"{d.stage}" if d.stage != 3 else f"3 {d.name}"


@dataclass(frozen=True)
class CombatDeath:
    """A hero destroyed by an enemy's attack."""

    enemy: str
    attack: int
    """The enemy's attack as it was declared (before its shadow cards)."""
    met: str
    """"undefended", "itself" (the hero defended), or "other" (another character did)."""
    shadows: tuple[str, ...]
    left: int
    """The hero's hit points left as the attack was declared."""
    ally_offered: bool
    """An ally was among the characters offered to defend the attack."""
    chosen: bool
    """The enemy was engaged by the seat's choice (an optional engagement)."""


@dataclass
class Record:
    seed: int
    won: bool = False
    reason: str = ""
    stage: str = ""
    round: int = 0
    threat: int = 0
    reached: dict[str, tuple[int, int]] = field(default_factory=dict)
    """The round each stage was reached in, and the threat then."""
    raised: Counter[tuple[str, str]] = field(default_factory=Counter)
    failed: list[tuple[str, int]] = field(default_factory=list)
    """Each failed quest: the stage, and by how much it failed."""
    heroes_lost: list[tuple[str, str, int]] = field(default_factory=list)
    """Each hero destroyed: its name, the stage and the round."""
    engaged: Counter[str] = field(default_factory=Counter)
    quests: list[tuple[str, int, bool]] = field(default_factory=list)
    """Each quest resolved: the stage, the locations' threat in the staging area, and whether
    a location was active."""
    travels: Counter[tuple[str, str, int]] = field(default_factory=Counter)
    """Each travel decision: the stage, the location chosen (or "skip"), the number offered."""
    hero_phases: Counter[str] = field(default_factory=Counter)
    """The phase each hero was destroyed in."""
    hummer_revealed: int = 0
    """The round Hummerhorns were first seen in the staging area at a quest (0: never)."""
    hummer_threat: int = 0
    """The threat then."""
    hummer: list[tuple[int, int, str, int, bool, bool]] = field(default_factory=list)
    """Each time Hummerhorns' 5 damage was dealt: the round, the threat, the hero chosen, its
    hit points left before, whether it was destroyed, whether a Citadel Plate was in play."""
    combat_deaths: list[CombatDeath] = field(default_factory=list)


class _Recorder(Observer):
    """Records one game's events into ``rec``."""

    def __init__(self, rec: Record) -> None:
        self.rec = rec
        self.chosen: set[int] = set()
        """The enemies engaged by choice."""
        self.allies: dict[int, bool] = {}
        """Each attacking enemy: whether an ally was offered to defend its attack."""
        self.declared: dict[int, tuple[int, dict[int, int]]] = {}
        """Each attacking enemy: its attack and the heroes' hit points left as it attacked."""

    def asked(self, decision: Decision, state: State) -> None:
        s = cast(LcgState, state)
        if decision.rule == "lcg.combat.declare-defender" and decision.about is not None:
            self.allies[decision.about] = any(
                o.card in s.cards and CARDS[s.cards[o.card].code].type == "ally" for o in decision.options
            )

    def answered(self, decision: Decision, choice: Choice, state: State) -> None:
        s = cast(LcgState, state)
        if decision.rule == "lcg.encounter.optional-engagement":
            self.chosen.update(o.card for o in decision.options if o.id == choice[0] and o.card is not None)
        if decision.rule == "core-075.forced":
            hero = int(choice[0])
            plate = any(CARDS[c.code].name == "Citadel Plate" and c.attached_to is not None for c in s.cards.values())
            left = table.hit_points(s, hero) - s.cards[hero].damage
            name = CARDS[s.cards[hero].code].name
            self.rec.hummer.append((s.round, s.players[SEAT].threat, name, left, left <= 5, plate))
        if decision.rule != "lcg.travel":
            return
        offered = sum(1 for o in decision.options if o.card is not None)
        picked = "skip" if choice[0] == "skip" else CARDS[s.cards[int(choice[0])].code].name
        self.rec.travels[(_stage(s), picked, offered)] += 1

    def after(self, event: Event, state: State) -> None:
        s = cast(LcgState, state)
        rec = self.rec
        if isinstance(event, ev.QuestResolved):
            locations = sum(
                table.defn(s, u).threat or 0 for u in table.staging(s) if table.defn(s, u).type == "location"
            )
            rec.quests.append((_stage(s), locations, table.active_location(s) is not None))
        if isinstance(event, ev.QuestStageRevealed):
            rec.reached.setdefault(_stage(s), (s.round, s.players[SEAT].threat))
        elif isinstance(event, ev.QuestResolved) and event.willpower < event.threat:
            rec.failed.append((_stage(s), event.threat - event.willpower))
        elif isinstance(event, ev.ThreatRaised):
            rec.raised[(_stage(s), event.cause.rule if event.cause else "?")] += event.amount
        elif isinstance(event, ev.AttackDeclared) and s.attack is not None and not s.attack.attackers:
            left = {h: table.hit_points(s, h) - s.cards[h].damage for h in table.heroes(s, SEAT)}
            self.declared[event.enemy] = (table.attack(s, event.enemy), left)
        elif isinstance(event, ev.CharacterDestroyed) and CARDS[s.cards[event.card].code].type == "hero":
            rec.heroes_lost.append((CARDS[s.cards[event.card].code].name, _stage(s), s.round))
            rec.hero_phases[s.phase] += 1
            if s.phase == "combat" and s.attack is not None and not s.attack.attackers:
                rec.combat_deaths.append(self._death(s, event.card, s.attack.enemy, s.attack.defender))
        elif isinstance(event, ev.EnemyEngaged):
            rec.engaged[CARDS[s.cards[event.enemy].code].name] += 1
        if (
            not rec.hummer_revealed
            and isinstance(event, ev.QuestResolved)
            and any(CARDS[s.cards[u].code].name == "Hummerhorns" for u in table.staging(s))
        ):
            rec.hummer_revealed, rec.hummer_threat = s.round, s.players[SEAT].threat

    def _death(self, s: LcgState, hero: int, enemy: int, defender: int | None) -> CombatDeath:
        attack, left = self.declared.get(enemy, (0, {}))
        return CombatDeath(
            enemy=CARDS[s.cards[enemy].code].name,
            attack=attack,
            met="undefended" if defender is None else "itself" if defender == hero else "other",
            shadows=tuple(CARDS[s.cards[u].code].name for u in table.shadows_of(s, enemy) if s.cards[u].shown),
            left=left.get(hero, 0),
            ally_offered=self.allies.get(enemy, False),
            chosen=enemy in self.chosen,
        )

    def ended(self, state: State) -> None:
        s = cast(LcgState, state)
        self.rec.stage, self.rec.round, self.rec.threat = _stage(s), s.round, s.players[SEAT].threat


def play(seed: int) -> Record:
    """One game of the bench-bots row, seed ``seed``, recorded."""
    rec = Record(seed)
    rec.won, rec.reason = observed(ROW, seed, _Recorder(rec))
    return rec


def report(records: list[Record], each: bool = False) -> list[str]:
    """The lines printed for ``records``."""
    lost = [r for r in records if not r.won]
    lines = [f"won {sum(r.won for r in records)} of {len(records)}"]
    lines.append(
        "endings: " + ", ".join(f"{k} {n}" for k, n in Counter((r.stage, r.reason) for r in records).most_common())
    )
    for stage in sorted({s for r in records for s in r.reached}):
        there = [r.reached[stage] for r in records if stage in r.reached]
        lines.append(
            f"reached stage {stage}: {len(there)} games, round {mean(x for x, _ in there):.1f}, "
            f"threat {mean(t for _, t in there):.1f}"
        )
    if lost:
        lines.append(
            f"lost games: round {mean(r.round for r in lost):.1f}, threat {mean(r.threat for r in lost):.1f}; "
            "by stage: "
            + ", ".join(
                f"{s} {n} (threat {mean(r.threat for r in lost if r.stage == s):.1f}, "
                f"round {mean(r.round for r in lost if r.stage == s):.1f})"
                for s, n in Counter(r.stage for r in lost).most_common()
            )
        )
    raised: Counter[tuple[str, str]] = Counter()
    for r in records:
        raised.update(r.raised)
    lines.append("threat raised a game (stage, cause):")
    lines.extend(f"  {s} {rule}: {n / len(records):.2f}" for (s, rule), n in raised.most_common(14))
    failed = Counter(s for r in records for s, _ in r.failed)
    lines.append(
        "failed quests a game: "
        + ", ".join(
            f"{s} {n / len(records):.2f} (by {mean(m for r in records for x, m in r.failed if x == s):.1f})"
            for s, n in failed.most_common()
        )
    )
    heroes = Counter((name, s) for r in records for name, s, _ in r.heroes_lost)
    lines.append("heroes destroyed: " + ", ".join(f"{n}@{s} {k}" for (n, s), k in heroes.most_common()))
    engaged: Counter[str] = Counter()
    for r in records:
        engaged.update(r.engaged)
    lines.append("enemies engaged: " + ", ".join(f"{k} {n}" for k, n in engaged.most_common()))
    phases: Counter[str] = Counter()
    for r in records:
        phases.update(r.hero_phases)
    lines.append("heroes destroyed by phase: " + ", ".join(f"{k} {n}" for k, n in phases.most_common()))
    deaths = [d for r in records for d in r.combat_deaths]
    lines.append(
        f"heroes destroyed in combat: {len(deaths)}; met: "
        + ", ".join(f"{k} {n}" for k, n in Counter(d.met for d in deaths).most_common())
        + f"; an ally offered to defend {sum(d.ally_offered for d in deaths)} (undefended "
        f"{sum(d.ally_offered and d.met == 'undefended' for d in deaths)}); engaged by choice "
        f"{sum(d.chosen for d in deaths)}; hit points left before: "
        + ", ".join(f"{k} {n}" for k, n in sorted(Counter(d.left for d in deaths).items()))
        + "; enemy: "
        + ", ".join(f"{k} {n}" for k, n in Counter(d.enemy for d in deaths).most_common())
        + "; shadow: "
        + ", ".join(f"{k} {n}" for k, n in Counter(s for d in deaths for s in d.shadows).most_common(6))
    )
    revealed = [r for r in records if r.hummer_revealed]
    struck = [r for r in records if r.hummer]
    hits = [h for r in records for h in r.hummer]
    lines.append(
        f"Hummerhorns: revealed in {len(revealed)} games ({sum(r.won for r in revealed)} won, round "
        f"{mean(r.hummer_revealed for r in revealed) if revealed else 0:.1f}), engaged in {len(struck)} "
        f"({sum(r.won for r in struck)} won); 5 damage dealt {len(hits)} times, round "
        f"{mean(h[0] for h in hits) if hits else 0:.1f}, threat {mean(h[1] for h in hits) if hits else 0:.1f}, "
        f"hero destroyed {sum(h[4] for h in hits)}, Citadel Plate in play {sum(h[5] for h in hits)}; "
        "to: " + ", ".join(f"{k} {n}" for k, n in Counter((h[2], h[4]) for h in hits).most_common())
    )
    quests = [q for r in records for q in r.quests]
    lines.append(
        "location lock (stage: quests, location threat staged a quest, share with an active location): "
        + ", ".join(
            f"{s} {len(qs)}, {mean(t for _, t, _ in qs):.2f}, {mean(a for _, _, a in qs):.2f}"
            for s in sorted({q[0] for q in quests})
            for qs in [[q for q in quests if q[0] == s]]
        )
    )
    travels: Counter[tuple[str, str, int]] = Counter()
    for r in records:
        travels.update(r.travels)
    for stage in sorted({s for s, _, _ in travels}):
        here = [(k, n) for k, n in travels.items() if k[0] == stage]
        chosen = Counter({name: 0 for (_, name, _), _ in here})
        for (_, name, _), n in here:
            chosen[name] += n
        choices = sum(n for (_, _, offered), n in here if offered > 1)
        lines.append(
            f"travel at stage {stage}: {sum(chosen.values())} decisions ({choices} between locations): "
            + ", ".join(f"{k} {n}" for k, n in chosen.most_common())
        )
    if each:
        for r in lost:
            lines.append(
                f"  seed {r.seed}: stage {r.stage}, round {r.round}, threat {r.threat}, {r.reason}, "
                f"heroes lost {[n for n, _, _ in r.heroes_lost]}"
            )
    return lines


def main(argv: list[str]) -> int:
    args = seed_range(
        argv, __doc__, {"--games": "also print each lost game: its seed, stage, round, threat and reason"}
    )
    for line in report([play(seed) for seed in range(args.first, args.last + 1)], args.games):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
