"""Where the greedy bot loses The Hunt for the Dreadnaught (``python -m tools.dread_stats``).

Plays the games of ``westmarch bench-bots --scenario hunt-for-the-dreadnaught --bots greedy``
(the same seeds, decks and bot seeds) and counts, from the events, what the win rate alone
hides: the stage each game ended in and why, how each attack of the Dreadnaught went
(defended by a ship, cancelled for 4 threat, undefended) and whether the ship had quested
that round, the ship-enemy attacks left undefended while the ship was questing (and whether
their enemy was engaged, in the staging area or not yet in play when the ship was committed),
the damage on the Dreadnaught when it flipped against the result, the threat raised by each
rule, the damage dealt to the ships by each source (the blows that sank them apart), how
many rounds stage 1 lasted and how much ship damage a round it cost by the game's result,
and the ship's hit points left as stage 2 came against the result; and stage 1 round by
round, won games against lost ones: the willpower committed against the staging area's
threat (its locations' and enemies'), the progress placed on the active location and on the
stage, why a round's stage progress fell short of its cap of 5 (the quest failed or tied, the
margin was short, the active location took it), the rounds whose margin would have completed
the stage but for the active location, the ship committed, the threat raised and the ship
damage, the encounter cards revealed, and each travel phase (where to, at how much progress
the stage still lacked, or why not).
``--deck KEY`` plays the same seeds with another ready-made deck (``bench-bots --deck``), to
see where a deck loses its games rather than only how many.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import cast

from domain.kernel.decisions import Choice, Decision
from domain.kernel.events import Event
from domain.kernel.state import State
from domain.lcg import events as ev
from domain.lcg.cards import CARDS
from domain.lcg.cards.hunt_for_the_dreadnaught import DESTROY, DREADNAUGHT, SEARCHING
from domain.lcg.decks.ready_made import ready_made
from domain.lcg.rules import table
from domain.lcg.state import LcgState
from tools.bench_bots import Observer, Row, observed

ROW = Row("lcg", "hunt-for-the-dreadnaught", "standard", "greedy", "")
CANCEL_RULE = "thftd-005.response"


@dataclass
class Tally:
    games: int = 0
    endings: Counter[str] = field(default_factory=Counter)
    """``stage 1 <reason>``, ``stage 2 <reason>`` (before the flip) or ``flipped <reason>``."""
    dreadnaught_attacks: Counter[str] = field(default_factory=Counter)
    """``<round of stage 2> <defended|cancelled|undefended> <ship quested?>``."""
    undefended_while_questing: Counter[str] = field(default_factory=Counter)
    """Ship-enemy attacks (the Dreadnaught's aside) left undefended, by stage and ship quested."""
    flip_damage: Counter[str] = field(default_factory=Counter)
    """The Dreadnaught's damage as it flipped, and whether the game was won."""
    threat: Counter[str] = field(default_factory=Counter)
    """Threat raised, by stage and the rule that raised it."""
    ship_damage: Counter[str] = field(default_factory=Counter)
    """Damage dealt to the player's ships, by stage and source: an enemy's attack (defended
    or not, the ship quested or back) or the rule that dealt it."""
    ship_sunk: Counter[str] = field(default_factory=Counter)
    """The damage that destroyed a ship, by stage and source as ``ship_damage`` says."""
    stage_one: Counter[str] = field(default_factory=Counter)
    """By the game's result (``won``, or its reason and the stage it ended at): ``games``,
    the ``rounds`` played at stage 1 before the one whose quest revealed stage 2 (every round
    of a game that ended at stage 1) and the ``ship damage`` dealt in them."""
    stage_two_ship: Counter[str] = field(default_factory=Counter)
    """The ships' hit points left as stage 2 was revealed, in bands of 3, and the result."""
    rounds: Counter[str] = field(default_factory=Counter)
    """Stage 1 round by round, summed by the game's result (``won`` or ``lost``): the rounds,
    the willpower committed and the staging area's threat it met, the progress placed on the
    active location and on the stage, the rounds with a location active, waiting in the
    staging area, or none; the ship committed; the rounds whose stage progress fell short of
    the cap and why; the threat raised; the ship damage; by round number too."""
    reveals: Counter[str] = field(default_factory=Counter)
    """The encounter cards revealed at stage 1, by name and the game's result."""
    travel: Counter[str] = field(default_factory=Counter)
    """Stage 1's travel phases, by what was done (travelled, none to go to, declined) and result."""


def _is_ship_card(s: LcgState, uid: int) -> bool:
    return "Ship" in CARDS[s.cards[uid].code].traits


@dataclass
class _Game(Observer):
    """What one game's events say, as they come."""

    tally: Tally
    travels_this: bool = False
    round: int = 0
    stage2: int | None = None
    flipped: bool = False
    committed: set[int] = field(default_factory=set)
    attacks: list[tuple[int, int | None]] = field(default_factory=list)
    """The enemy attacks under way: (enemy, defender)."""
    engaged_at_commit: set[int] = field(default_factory=set)
    staged_at_commit: set[int] = field(default_factory=set)
    stage_one_damage: int = 0
    """Damage dealt to the player's ships in the rounds before the one that revealed stage 2."""
    ship_left: int | None = None
    """The ships' hit points left as stage 2 was revealed."""
    rows: list[Counter[str]] = field(default_factory=list)
    """Stage 1's rounds, what each one did (``Tally.rounds``'s keys)."""
    revealed: Counter[str] = field(default_factory=Counter)
    travels: Counter[str] = field(default_factory=Counter)
    phase: str = ""

    def ship_quested(self, s: LcgState) -> str:
        return "ship quested" if any(_is_ship_card(s, u) for u in self.committed) else "ship back"

    def stage(self) -> str:
        return "stage 2" if self.stage2 is not None else "stage 1"

    def cancelled(self, s: LcgState) -> None:
        if self.attacks and self.stage2 is not None:
            self.attacks.pop()
            self.tally.dreadnaught_attacks[f"round {self.round - self.stage2} cancelled, {self.ship_quested(s)}"] += 1

    def answered(self, decision: Decision, choice: Choice, state: State) -> None:
        if decision.rule == CANCEL_RULE and choice == ("yes",):
            self.cancelled(cast(LcgState, state))

    def after(self, event: Event, state: State) -> None:
        self.seen(cast(LcgState, state), event)

    def row(self) -> Counter[str] | None:
        """The present stage 1 round's counts, or None past stage 1."""
        if self.stage2 is not None or not self.rows:
            return None
        return self.rows[-1]

    def lacking(self, s: LcgState) -> int:
        """The progress stage 1 still lacks."""
        stage = next((u for u in s.zone("quest") if s.cards[u].code == SEARCHING), None)
        return 0 if stage is None else table.quest_points(s, stage) - s.cards[stage].progress

    def study(self, s: LcgState, e: Event) -> None:
        """The round by round counts of stage 1 (``Tally.rounds``)."""
        if isinstance(e, ev.RoundBegan) and self.stage2 is None:
            self.rows.append(Counter())
        row = self.row()
        if row is None:
            return
        if isinstance(e, ev.PhaseBegan):
            if self.phase == "travel":
                staged = [u for u in s.zone("staging") if CARDS[s.cards[u].code].type == "location"]
                if not self.travels_this:
                    held = table.active_location(s) is not None
                    self.travels["none to go to" if not staged else "location active" if held else "declined"] += 1
            self.phase = e.phase
            self.travels_this = False
        elif isinstance(e, ev.LocationTraveled):
            self.travels[f"travelled to {CARDS[s.cards[e.card].code].name}"] += 1
            self.travels[f"travelled, stage lacking {self.lacking(s)}"] += 1
            self.travels_this = True
        elif isinstance(e, ev.CharactersCommitted):
            row["ship committed"] = int(row["ship committed"] or any(_is_ship_card(s, u) for u in e.cards))
        elif isinstance(e, ev.EncounterCardRevealed) and self.phase == "quest":
            self.revealed[CARDS[s.cards[e.card].code].name] += 1
        elif isinstance(e, ev.QuestResolved):
            lacking = self.lacking(s)
            row["lacking before"] += lacking
            if table.active_location(s) is not None and 0 < lacking <= min(5, e.willpower - e.threat):
                row["finish kept by the location"] += 1
            row["willpower"] += e.willpower
            row["staging threat"] += e.threat
            active = table.active_location(s)
            staged = [u for u in s.zone("staging") if CARDS[s.cards[u].code].type == "location"]
            row["location active"] += int(active is not None)
            row["locations staged"] += len(staged)
            row["staged location threat"] += sum(table.threat_of(s, u) for u in staged)
            enemies = [u for u in s.zone("staging") if CARDS[s.cards[u].code].type == "enemy"]
            row["enemies staged"] += len(enemies)
            row["staged enemy threat"] += sum(table.threat_of(s, u) for u in enemies)
            row["engaged"] += len(s.zone("p1.engaged"))
            row["failed"] += int(e.willpower < e.threat)
            row["margin"] += max(0, e.willpower - e.threat)
        elif isinstance(e, ev.ProgressPlaced):
            kind = CARDS[s.cards[e.card].code].type
            row[f"progress on {'stage' if kind == 'quest' else kind}"] += e.amount
        elif isinstance(e, ev.ThreatRaised):
            row["threat raised"] += e.amount
        elif isinstance(e, ev.DamageDealt) and _is_ship_card(s, e.card) and CARDS[s.cards[e.card].code].type != "enemy":
            row["ship damage"] += e.amount

    def seen(self, s: LcgState, e: Event) -> None:
        self.study(s, e)
        if isinstance(e, ev.RoundBegan):
            self.round, self.committed = e.round, set()
        elif isinstance(e, ev.PhaseBegan):
            self.attacks.clear()
        elif isinstance(e, ev.CharactersCommitted):
            if not self.committed:
                self.engaged_at_commit = set(s.zone("p1.engaged"))
                self.staged_at_commit = set(s.zone("staging"))
            self.committed |= set(e.cards)
        elif isinstance(e, ev.QuestStageRevealed) and s.cards[e.card].code == DESTROY and self.stage2 is None:
            self.stage2 = self.round
            ships = [u for u in s.zone("p1.allies") if _is_ship_card(s, u)]
            self.ship_left = sum(table.hit_points(s, u) - s.cards[u].damage for u in ships)
        elif isinstance(e, ev.CardFlipped) and s.cards[e.card].code == DREADNAUGHT and e.face == "B":
            self.flipped = True
            self.tally.flip_damage[f"flipped at {s.cards[e.card].damage} damage"] += 1
        elif isinstance(e, ev.AttackDeclared):
            self.attacks.append((e.enemy, None))
        elif isinstance(e, ev.DefenderDeclared) and self.attacks:
            self.attacks[-1] = (self.attacks[-1][0], e.defender)
        elif isinstance(e, ev.AttackResolved) and self.attacks:
            enemy, defender = self.attacks.pop()
            if e.by_enemy and _is_ship_card(s, enemy):
                self._ship_attack(s, enemy, defender)
        elif isinstance(e, ev.ThreatRaised):
            self.tally.threat[f"{self.stage()}: {e.cause.rule}"] += e.amount
        elif isinstance(e, ev.DamageDealt) and _is_ship_card(s, e.card) and CARDS[s.cards[e.card].code].type != "enemy":
            source = f"{self.stage()}: {self._source(s, e)}"
            self.tally.ship_damage[source] += e.amount
            if self.stage2 is None or self.round < self.stage2:
                self.stage_one_damage += e.amount
            if s.cards[e.card].damage >= table.hit_points(s, e.card):
                self.tally.ship_sunk[source] += 1

    def _source(self, s: LcgState, e: ev.DamageDealt) -> str:
        attack = s.attack
        if attack is None or attack.attackers:
            return str(e.cause.rule)
        how = "defended" if attack.defender is not None else "undefended"
        return f"{CARDS[s.cards[attack.enemy].code].name} {how}, {self.ship_quested(s)}"

    def _ship_attack(self, s: LcgState, enemy: int, defender: int | None) -> None:
        quested = self.ship_quested(s)
        if s.cards[enemy].code == DREADNAUGHT and self.stage2 is not None:
            how = "defended" if defender is not None else "undefended"
            self.tally.dreadnaught_attacks[f"round {self.round - self.stage2} {how}, {quested}"] += 1
        elif defender is None:
            self.tally.undefended_while_questing[f"{self.stage()}, {quested}"] += 1
            if quested == "ship quested":
                when = (
                    "engaged at the commit"
                    if enemy in self.engaged_at_commit
                    else "staged at the commit"
                    if enemy in self.staged_at_commit
                    else "arrived after the commit"
                )
                self.tally.undefended_while_questing[f"{self.stage()}, ship quested, {when}"] += 1


def play(seed: int, tally: Tally, deck: str = "") -> None:
    """One game of the bench's row at ``seed``, its events counted into ``tally``; with
    ``deck``, the same game with that ready-made deck (``bench-bots --deck``)."""
    seen = _Game(tally)
    victory, reason = observed(replace(ROW, deck=deck), seed, seen)
    where = "flipped" if seen.flipped else seen.stage()
    tally.games += 1
    tally.endings[f"{where} {'won' if victory else reason}"] += 1
    if seen.flipped:
        tally.flip_damage[f"flipped, {'won' if victory else 'lost'}"] += 1
    result = "won" if victory else f"{reason} at {seen.stage()}"
    tally.stage_one[f"{result}: games"] += 1
    tally.stage_one[f"{result}: rounds"] += seen.stage2 - 1 if seen.stage2 is not None else seen.round
    tally.stage_one[f"{result}: ship damage"] += seen.stage_one_damage
    outcome = "won" if victory else "lost"
    rows = seen.rows if seen.stage2 is None else seen.rows[: seen.stage2 - 1]
    for n, row in enumerate(rows, 1):
        tally.rounds[f"{outcome}: rounds"] += 1
        tally.rounds[f"{outcome} round {min(n, 6)}: rounds"] += 1
        for key, value in row.items():
            tally.rounds[f"{outcome}: {key}"] += value
            tally.rounds[f"{outcome} round {min(n, 6)}: {key}"] += value
        stage = row["progress on stage"]
        if stage < 5:
            why = (
                "failed"
                if row["failed"]
                else "tied"
                if row["margin"] == 0
                else "location took it"
                if row["progress on location"] and row["margin"] > stage
                else "margin short"
            )
            tally.rounds[f"{outcome}: short, {why}"] += 1
    for name, count in seen.revealed.items():
        tally.reveals[f"{name}, {outcome}"] += count
    for what, count in seen.travels.items():
        tally.travel[f"{what}, {outcome}"] += count
    if seen.ship_left is not None:
        band = max(0, seen.ship_left) // 3 * 3
        tally.stage_two_ship[f"{band:2d}-{band + 2} hit points, {'won' if victory else 'lost'}"] += 1


def report(tally: Tally) -> str:
    lines = [f"{tally.games} games"]
    sections = (
        ("how the games ended", tally.endings),
        ("the Dreadnaught's attacks (round of stage 2)", tally.dreadnaught_attacks),
        ("other ship-enemy attacks left undefended", tally.undefended_while_questing),
        ("the Dreadnaught's flip", tally.flip_damage),
        ("threat raised", tally.threat),
        ("damage on the ships", tally.ship_damage),
        ("the damage that destroyed a ship", tally.ship_sunk),
    )
    for title, counts in sections:
        lines.append(f"{title}:")
        lines.extend(f"  {key}: {n}" for key, n in sorted(counts.items()))
    lines.append("stage 1 by result (rounds before stage 2's, ship damage a round in them):")
    for result in sorted({key.rsplit(":", 1)[0] for key in tally.stage_one}):
        games, rounds = tally.stage_one[f"{result}: games"], tally.stage_one[f"{result}: rounds"]
        damage = tally.stage_one[f"{result}: ship damage"]
        lines.append(f"  {result}: {games} games, {rounds / games:.1f} rounds, {damage / max(1, rounds):.1f} a round")
    lines.append("stage 1 round by round (a round's mean; round 6 counts the 6th on):")
    for outcome in ("won", "lost"):
        for prefix in [f"{outcome}", *(f"{outcome} round {n}" for n in range(1, 7))]:
            games = tally.rounds[f"{prefix}: rounds"]
            if not games:
                continue
            means = ", ".join(
                f"{key.split(': ', 1)[1]} {n / games:.2f}"
                for key, n in sorted(tally.rounds.items())
                if key.startswith(prefix + ": ")
                and not key.endswith(": rounds")
                and ", " not in key.split(": ", 1)[1]
                and "short" not in key
            )
            lines.append(f"  {prefix}: {games} rounds; {means}")
        lines.extend(f"  {key}: {n}" for key, n in sorted(tally.rounds.items()) if key.startswith(f"{outcome}: short"))
    lines.append("stage 1 reveals:")
    lines.extend(f"  {key}: {n}" for key, n in sorted(tally.reveals.items()))
    lines.append("stage 1 travel phases:")
    lines.extend(f"  {key}: {n}" for key, n in sorted(tally.travel.items()))
    lines.append("the ships' hit points as stage 2 came:")
    lines.extend(f"  {key}: {n}" for key, n in sorted(tally.stage_two_ship.items()))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.dread_stats", description=__doc__)
    parser.add_argument("--seed", type=int, default=1001, help="the first game's seed (bench-bots --seed)")
    parser.add_argument("--games", type=int, default=200, help="how many games, seeds --seed onwards")
    parser.add_argument("--deck", default="", help="a ready-made deck's key (default: the scenario's, as the bench)")
    args = parser.parse_args(argv)
    if args.games < 1:
        print("dread_stats: --games must be at least 1", file=sys.stderr)
        return 2
    if args.deck and args.deck not in ready_made():
        print(f"dread_stats: --deck takes a ready-made deck: {', '.join(ready_made())}", file=sys.stderr)
        return 2
    tally = Tally()
    for i in range(args.games):
        play(args.seed + i, tally, args.deck)
    print(report(tally))
    return 0


if __name__ == "__main__":
    sys.exit(main())
