"""Where the greedy bot's games of The Lonely Mountain are lost: ``python -m tools.lonely_stats
FIRST LAST`` plays seeds FIRST to LAST as ``westmarch bench-bots --scenario the-lonely-mountain
--bots greedy`` does (solo, the scenario's ready-made deck, the same seeds give the same games)
and prints, over the games:

- how many reach Inside Information (stage 3), in which round, with how many allies, how much
  willpower in play and at what threat;
- at each stage-3 quest: willpower committed against the staging area's threat, and, as the
  characters are committed, the staging area's threat by kind (locations, The Lonely Mountain
  among them, and enemies), the treasures still under The Lonely Mountain and the ready
  characters' willpower and attack;
- the damage dealt to Smaug the Magnificent and the most progress made on stage 3;
- the threat raised, by stage and by cause (the rule that raised it), and how the players came
  to stage 4A;
- the threat at the end of the lost games.
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
from domain.lcg.rules import table
from domain.lcg.state import LcgState
from tools.bench_bots import Observer, Row, observed, seed_range

ROW = Row("lcg", "the-lonely-mountain", "standard", "greedy", "")
SMAUG_THE_MAGNIFICENT = "otd-041"
THE_LONELY_MOUNTAIN = "otd-043"
SEAT = "p1"
"""The one player's seat."""


@dataclass
class Commit:
    """The table as the characters are committed to a stage-3 quest."""

    locations: int
    mountain: int
    enemies: int
    under: int
    allies: int
    willpower: int
    attack: int
    threat: int


@dataclass
class Record:
    seed: int
    won: bool = False
    reason: str = ""
    threat: int = 0
    advanced: int | None = None
    """The round the players advanced to stage 3, if they did."""
    allies: int = 0
    willpower: int = 0
    threat_then: int = 0
    commits: list[Commit] = field(default_factory=list)
    quests: list[tuple[int, int]] = field(default_factory=list)
    """Each stage-3 quest: willpower committed, staging threat."""
    smaug_damage: int = 0
    progress: int = 0
    raised: Counter[tuple[int, str]] = field(default_factory=Counter)
    to_stage_4: list[str] = field(default_factory=list)


def _stage(s: LcgState) -> int:
    quest = table.quest_card(s)
    return (table.defn(s, quest).stage or 0) if quest is not None else 0


def _commit(s: LcgState, seat: str) -> Commit:
    staged = s.zone("staging")

    def threat(kind: str) -> int:
        return sum(table.threat_of(s, u) for u in staged if table.defn(s, u).type == kind)

    ready = [u for u in s.in_play(seat) if not s.cards[u].exhausted]
    return Commit(
        locations=threat("location"),
        mountain=sum(table.threat_of(s, u) for u in staged if s.cards[u].code == THE_LONELY_MOUNTAIN),
        enemies=threat("enemy"),
        under=len(s.zone("treasures")),
        allies=len(s.zone(f"{seat}.allies")),
        willpower=sum(table.willpower(s, u) for u in ready),
        attack=sum(table.attack(s, u) for u in ready),
        threat=s.players[seat].threat,
    )


class _Recorder(Observer):
    """Records one game into ``rec``."""

    def __init__(self, rec: Record) -> None:
        self.rec = rec
        self.rule = ""
        """The rule of the decision being answered."""

    def asked(self, decision: Decision, state: State) -> None:
        s = cast(LcgState, state)
        if _stage(s) == 3:
            self._progress(s)
            if decision.rule == "lcg.quest.commit":
                self.rec.commits.append(_commit(s, SEAT))

    def answered(self, decision: Decision, choice: Choice, state: State) -> None:
        self.rule = decision.rule

    def after(self, event: Event, state: State) -> None:
        s = cast(LcgState, state)
        rec = self.rec
        if isinstance(event, ev.QuestStageRevealed) and event.side == "A":
            stage = table.defn(s, event.card).stage
            if stage == 3 and rec.advanced is None:
                rec.advanced = s.round
                rec.allies = len(s.zone(f"{SEAT}.allies"))
                rec.willpower = sum(table.willpower(s, u) for u in s.in_play(SEAT))
                rec.threat_then = s.players[SEAT].threat
            if stage == 4:
                rec.to_stage_4.append(self.rule)
        elif isinstance(event, ev.QuestResolved) and _stage(s) == 3:
            rec.quests.append((event.willpower, event.threat))
        elif isinstance(event, ev.DamageDealt) and s.cards[event.card].code == SMAUG_THE_MAGNIFICENT:
            rec.smaug_damage += event.amount
        elif isinstance(event, ev.ThreatRaised):
            rec.raised[(_stage(s), event.cause.rule if event.cause else "?")] += event.amount

    def ended(self, state: State) -> None:
        s = cast(LcgState, state)
        if _stage(s) == 3:
            self._progress(s)
        self.rec.threat = s.players[SEAT].threat

    def _progress(self, s: LcgState) -> None:
        quest = table.quest_card(s)
        if quest is not None:
            self.rec.progress = max(self.rec.progress, s.cards[quest].progress)


def play(seed: int) -> Record:
    """One game of the bench-bots row, seed ``seed``, recorded."""
    rec = Record(seed)
    rec.won, rec.reason = observed(ROW, seed, _Recorder(rec))
    return rec


def report(records: list[Record]) -> list[str]:
    """The lines printed for ``records``."""
    lines = [
        f"won {sum(r.won for r in records)} of {len(records)}; lost: "
        + ", ".join(f"{k} {n}" for k, n in Counter(r.reason for r in records if not r.won).most_common())
    ]
    reached = [r for r in records if r.advanced is not None]
    lines.append(f"reached stage 3: {len(reached)}")
    if reached:
        lines.append(
            f"  as they advanced: round {mean(r.advanced or 0 for r in reached):.1f}, "
            f"{mean(r.allies for r in reached):.1f} allies, {mean(r.willpower for r in reached):.1f} willpower "
            f"in play, threat {mean(r.threat_then for r in reached):.1f}"
        )
        quests = [q for r in reached for q in r.quests]
        if quests:
            lines.append(
                f"  stage-3 quests {len(quests)}: willpower beat the threat in {sum(w > t for w, t in quests)}; "
                f"mean willpower {mean(w for w, _ in quests):.1f} against threat {mean(t for _, t in quests):.1f}"
            )
        commits = [c for r in reached for c in r.commits]
        if commits:
            lines.append(
                f"  as characters are committed ({len(commits)}): staging threat of locations "
                f"{mean(c.locations for c in commits):.1f} (The Lonely Mountain "
                f"{mean(c.mountain for c in commits):.1f}), of enemies {mean(c.enemies for c in commits):.1f}; "
                f"treasures under it {dict(sorted(Counter(c.under for c in commits).items()))}; "
                f"{mean(c.allies for c in commits):.1f} allies; ready willpower "
                f"{mean(c.willpower for c in commits):.1f}, attack {mean(c.attack for c in commits):.1f}; "
                f"threat {mean(c.threat for c in commits):.1f}"
            )
        lines.append(
            f"  damage on Smaug the Magnificent: mean {mean(r.smaug_damage for r in reached):.1f}, "
            f"most {max(r.smaug_damage for r in reached)}; stage-3 progress: mean "
            f"{mean(r.progress for r in reached):.1f}, most {max(r.progress for r in reached)}"
        )
    raised: Counter[tuple[int, str]] = Counter()
    for r in records:
        raised.update(r.raised)
    lines.append(
        "threat raised (stage, cause): " + ", ".join(f"{s} {rule} {n}" for (s, rule), n in raised.most_common(8))
    )
    lines.append(
        f"to stage 4A in {sum(1 for r in records if r.to_stage_4)} games, on: "
        + ", ".join(f"{rule} {n}" for rule, n in Counter(x for r in records for x in r.to_stage_4).most_common(5))
    )
    lost = [r.threat for r in records if not r.won]
    if lost:
        lines.append(f"threat at the end of the lost games: mean {mean(lost):.1f}")
    return lines


def main(argv: list[str]) -> int:
    args = seed_range(argv, __doc__, {})
    for line in report([play(seed) for seed in range(args.first, args.last + 1)]):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
