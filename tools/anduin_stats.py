"""Where the greedy bot's games of Journey Along the Anduin are lost: ``python -m tools.anduin_stats
FIRST LAST`` plays seeds FIRST to LAST as ``westmarch bench-bots --scenario journey-along-the-anduin
--bots greedy`` does (solo, the scenario's ready-made deck, the same seeds give the same games)
and prints, over the games:

- how they ended (the stage, the reason), and the round and threat each stage was reached at;
- how the first Hill Troll came to engage at To the River... (1B): by an engagement check or
  by the bot's choice (``lcg_plans.hunt``), with the damage already on it then, and the stage
  each kind of game got to; how its attacks were met (an ally, a hero, undefended);
- the heroes destroyed, by stage and by the enemy whose attack was being resolved (else by the
  phase, a treachery's damage in the quest phase); those an enemy other than a Hill Troll
  destroyed, by how its attack was met (the hero defending it, undefended, another defender)
  and whether an ally stood ready when the defender was declared;
- at Anduin Passage (2B): the willpower committed against the threat met, a quest a round.

``--games`` lists each lost game on a line (seed, stage, round, threat, reason); ``--won`` prints
the seeds won on one line, for a paired per-seed comparison of two versions of the bots.
"""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass, field
from statistics import mean
from typing import cast

from domain.kernel.events import Event
from domain.kernel.state import State
from domain.lcg import events as ev
from domain.lcg.cards import CARDS
from domain.lcg.rules import table
from domain.lcg.state import LcgState
from tools.bench_bots import Observer, Row, observed, seed_range

ROW = Row("lcg", "journey-along-the-anduin", "standard", "greedy", "")
SEAT = "p1"
"""The one player's seat."""
HILL_TROLL = "Hill Troll"


def _stage(s: LcgState) -> int:
    quest = table.quest_card(s)
    return (table.defn(s, quest).stage or 0) if quest is not None else 0


def _name(s: LcgState, uid: int) -> str:
    return CARDS[s.cards[uid].code].name


@dataclass
class Record:
    seed: int
    won: bool = False
    reason: str = ""
    stage: int = 0
    round: int = 0
    threat: int = 0
    reached: dict[int, tuple[int, int]] = field(default_factory=dict)
    """The round each stage was reached in, and the threat then."""
    troll: tuple[str, int] | None = None
    """How the first Hill Troll engaged at stage 1 (``check`` or ``choice``) and its damage then."""
    troll_defended: Counter[str] = field(default_factory=Counter)
    """The Hill Troll's attacks by what met them: ``ally``, ``hero`` or ``undefended``."""
    heroes_lost: list[tuple[int, str]] = field(default_factory=list)
    """Each hero destroyed: the stage, and the enemy attacking (else ``phase:NAME``)."""
    passage: list[tuple[int, int]] = field(default_factory=list)
    """Each quest at Anduin Passage: willpower committed, threat met."""
    hero_deaths: Counter[str] = field(default_factory=Counter)
    """The heroes an enemy other than a Hill Troll destroyed by its attack, by how the attack
    was met (``defending``, ``undefended``, ``other``) and whether an ally was ready then."""


class _Recorder(Observer):
    """Records one game's events into ``rec``."""

    def __init__(self, rec: Record) -> None:
        self.rec = rec
        self.attacker = ""
        self.defender: int | None = None
        self.ally_ready = False

    def after(self, event: Event, state: State) -> None:
        s = cast(LcgState, state)
        rec = self.rec
        if isinstance(event, ev.QuestStageRevealed):
            rec.reached.setdefault(_stage(s), (s.round, s.players[SEAT].threat))
        elif isinstance(event, ev.PhaseBegan):
            self.attacker = f"phase:{event.phase}"
        elif isinstance(event, ev.AttackDeclared):
            self.attacker = _name(s, event.enemy)
            self.defender, self.ally_ready = None, False
        elif isinstance(event, ev.EnemyEngaged) and _name(s, event.enemy) == HILL_TROLL:
            if rec.troll is None and _stage(s) == 1:
                how = "check" if event.cause is not None and "check" in event.cause.rule else "choice"
                rec.troll = (how, s.cards[event.enemy].damage)
        elif isinstance(event, ev.DefenderDeclared):
            self.defender = event.defender
            self.ally_ready = any(not s.cards[uid].exhausted for uid in s.zone(f"{SEAT}.allies"))
            if _name(s, event.enemy) == HILL_TROLL:
                met = "undefended" if event.defender is None else CARDS[s.cards[event.defender].code].type
                rec.troll_defended[met] += 1
        elif isinstance(event, ev.CharacterDestroyed) and CARDS[s.cards[event.card].code].type == "hero":
            rec.heroes_lost.append((_stage(s), self.attacker))
            if self.attacker not in (HILL_TROLL, "") and not self.attacker.startswith("phase:"):
                how = "defending" if self.defender == event.card else "undefended" if self.defender is None else "other"
                rec.hero_deaths[f"{how}, {'an ally' if self.ally_ready else 'no ally'} ready"] += 1
        elif isinstance(event, ev.QuestResolved) and _stage(s) == 2:
            rec.passage.append((event.willpower, event.threat))

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
    n = len(records)
    lines = [f"won {sum(r.won for r in records)} of {n}"]
    lines.append(
        "endings: "
        + ", ".join(f"{s} {why} {k}" for (s, why), k in Counter((r.stage, r.reason) for r in records).most_common())
    )
    for stage in sorted({s for r in records for s in r.reached}):
        there = [r.reached[stage] for r in records if stage in r.reached]
        lines.append(
            f"reached stage {stage}: {len(there)} games, round {mean(x for x, _ in there):.1f}, "
            f"threat {mean(t for _, t in there):.1f}"
        )
    for how in ("check", "choice"):
        games = [r for r in records if r.troll is not None and r.troll[0] == how]
        if games:
            got = Counter(r.stage if not r.won else 4 for r in games)
            lines.append(
                f"troll engaged by {how}: {len(games)} games, "
                f"damage on it {mean(r.troll[1] for r in games if r.troll):.1f}; "
                + ", ".join(f"{'won' if s == 4 else f'lost at {s}'} {k}" for s, k in sorted(got.items()))
            )
    defended: Counter[str] = Counter()
    for r in records:
        defended.update(r.troll_defended)
    lines.append("troll attacks a game: " + ", ".join(f"{k} {v / n:.2f}" for k, v in defended.most_common()))
    heroes = Counter(h for r in records for h in r.heroes_lost)
    lines.append("heroes destroyed: " + ", ".join(f"{s} {by} {k}" for (s, by), k in heroes.most_common(12)))
    deaths: Counter[str] = Counter()
    for r in records:
        deaths.update(r.hero_deaths)
    lines.append("heroes other enemies destroyed: " + ", ".join(f"{how} {k}" for how, k in deaths.most_common()))
    passage = [q for r in records for q in r.passage]
    if passage:
        lines.append(
            f"Anduin Passage: {len(passage)} quests, willpower {mean(w for w, _ in passage):.1f} "
            f"against threat {mean(t for _, t in passage):.1f}, {sum(w < t for w, t in passage)} failed"
        )
    if each:
        lines.extend(
            f"  seed {r.seed}: stage {r.stage}, round {r.round}, threat {r.threat}, {r.reason}"
            for r in records
            if not r.won
        )
    return lines


def main(argv: list[str]) -> int:
    args = seed_range(
        argv,
        __doc__,
        {
            "--games": "also print each lost game: its seed, stage, round, threat and reason",
            "--won": "also print the seeds won, on one line (for paired comparisons)",
        },
    )
    records = [play(seed) for seed in range(args.first, args.last + 1)]
    for line in report(records, args.games):
        print(line)
    if args.won:
        print(" ".join(["won:", *(str(r.seed) for r in records if r.won)]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
