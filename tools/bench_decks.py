"""How much the greedy LCG bot gets from a good deck: ready-made decks against bad ones.

Writes the ``lcg-decks`` section of BENCHMARKS.md (``westmarch bench-decks``, or
``python -m tools.bench_decks``). For each Core scenario and each lineup, one player played by
the greedy bot plays the same seeds with three decks of the same heroes:

- ``ready-made``: the lineup's ready-made deck (allies, events and attachments);
- ``allies only``: that deck without its events and attachments;
- ``off-sphere``: a deliberately bad deck, 30 cards of spheres none of its heroes has (no
  neutral card), so no card of it can ever be paid for.

Each row gives the win rate and what the games reached: rounds played, quest stages
defeated, enemies defeated, and the events and attachments the bot played.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass
from typing import cast
from uuid import uuid4

from bots import make_bot
from domain.game import Game
from domain.lcg import events as ev
from domain.lcg.cards import CARDS
from domain.lcg.decks import MAX_COPIES, Deck
from domain.lcg.decks.ready_made import playable_part, ready_made
from domain.lcg.lineups import lcg_options
from domain.lcg.ruleset import LCG
from domain.lcg.state import LcgState
from projections.i18n import gettext
from tools.bench import publish
from tools.games import kind
from tools.phrase import phrase
from tools.progress import Progress
from tools.simulate import play_out

LINEUPS = ("aragorn-gimli-legolas", "lore")
SCENARIOS = ("passage-through-mirkwood", "journey-along-the-anduin", "escape-from-dol-guldur")
DECK_SIZE = 30


def named(name: str) -> str:
    """A deck's name as the console says it: the variants' ``, allies only`` and ``, off-sphere``
    (the deck's own name kept) in the language spoken; BENCHMARKS.md gets the English."""
    base, _, variant = name.rpartition(", ")
    if variant == "allies only":
        return phrase("%(deck)s, allies only", deck=base)
    if variant == "off-sphere":
        return phrase("%(deck)s, off-sphere", deck=base)
    return name


def allies_only(deck: Deck) -> Deck:
    allies = tuple((c, n) for c, n in deck.cards if CARDS[c].type == "ally")
    return Deck(f"{deck.name}, allies only", deck.heroes, allies)


def off_sphere(deck: Deck) -> Deck:
    """Same heroes, 30 cards none of them can pay for (taken from the other ready-made decks)."""
    spheres = {CARDS[h].sphere for h in deck.heroes}
    copies: dict[str, int] = {}
    for other in ready_made().values():
        for code, n in playable_part(other).cards:
            if CARDS[code].sphere not in spheres and CARDS[code].sphere != "neutral":
                copies[code] = min(MAX_COPIES, copies.get(code, 0) + n)
    cards: list[tuple[str, int]] = []
    left = DECK_SIZE
    for code, n in sorted(copies.items()):
        if left <= 0:
            break
        cards.append((code, min(n, left)))
        left -= min(n, left)
    return Deck(f"{deck.name}, off-sphere", deck.heroes, tuple(cards))


@dataclass
class Outcome:
    won: bool
    rounds: int
    stages: int
    enemies: int
    events: int
    attachments: int


def play(scenario: str, deck: Deck, seed: int) -> Outcome:
    options = lcg_options(scenario, 1, None, "standard", [deck])
    game = Game.start(uuid4(), LCG, LCG.created(options, seed))
    seats = LCG.seats(cast(LcgState, game.state))
    bots = {seat: make_bot("greedy", seed * 1000 + n, "lcg") for n, seat in enumerate(seats)}
    play_out(game, bots, kind("lcg"))
    events = game.pending_events
    over = game.state.over
    return Outcome(
        won=over is not None and over.result == "won",
        rounds=sum(1 for e in events if isinstance(e, ev.RoundBegan)),
        stages=sum(1 for e in events if isinstance(e, ev.QuestStageDefeated)),
        enemies=sum(1 for e in events if isinstance(e, ev.EnemyDefeated)),
        events=sum(1 for e in events if isinstance(e, ev.EventPlayed)),
        attachments=sum(1 for e in events if isinstance(e, ev.AttachmentPlayed)),
    )


def row(scenario: str, deck: Deck, games: int, first_seed: int) -> tuple[str, str, str]:
    played = [play(scenario, deck, seed) for seed in range(first_seed, first_seed + games)]
    wins = sum(o.won for o in played)

    def mean(values: list[int]) -> str:
        return f"{statistics.fmean(values):.2f}"

    return (
        phrase(
            "%(scenario)s, %(name)s (%(size)s cards), %(games)s games",
            scenario=scenario,
            name=named(deck.name),
            size=deck.size,
            games=games,
        ),
        phrase(
            "won %(wins)s (%(n)s); per game: %(n2)s rounds, %(n3)s stages defeated, %(n4)s enemies defeated, %(n5)s "
            "events and %(n6)s attachments played",
            wins=wins,
            n=format(wins / games, ".0%"),
            n2=mean([o.rounds for o in played]),
            n3=mean([o.stages for o in played]),
            n4=mean([o.enemies for o in played]),
            n5=mean([o.events for o in played]),
            n6=mean([o.attachments for o in played]),
        ),
        "",
    )


def main(args: argparse.Namespace) -> int:
    games = 3 if args.quick else int(args.games)
    decks = ready_made()
    rows: list[tuple[str, str, str]] = []
    variants = [(good, allies_only(good), off_sphere(good)) for good in (playable_part(decks[key]) for key in LINEUPS)]
    started = time.process_time()
    with Progress(len(SCENARIOS) * len(variants) * 3, gettext("deck benchmarks")) as bar:
        for scenario in SCENARIOS:
            for trio in variants:
                for deck in trio:
                    rows.append(row(scenario, deck, games, int(args.seed)))
                    bar.advance(note=f"{scenario}: {deck.name}")
    cpu = time.process_time() - started
    rows.append(
        (
            phrase("CPU time of the whole run (%(n)s games)", n=len(rows) * games),
            phrase("%(cpu)s s", cpu=format(cpu, ".1f")),
            "",
        )
    )
    command = "westmarch bench-decks" + (" --quick" if args.quick else f" --games {games} --seed {args.seed}")
    title = "LCG: the greedy bot with good and bad decks (one player, standard difficulty)"
    publish(args.output, "lcg-decks", title, command, rows)
    return 0


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--output", default="BENCHMARKS.md", help="file to write (default: %(default)s)")
    p.add_argument("--games", type=int, default=50, help="games per scenario and deck (default: %(default)s)")
    p.add_argument("--seed", type=int, default=1, help="seed of the first game (default: %(default)s)")
    p.add_argument("--quick", action="store_true", help="3 games per scenario and deck (for a smoke test)")


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="bench-decks", description="the greedy LCG bot with good and bad decks")
    add_arguments(p)
    return p


if __name__ == "__main__":
    sys.exit(main(parser().parse_args()))
