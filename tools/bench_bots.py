"""How well the bots play, and what the search bot costs: ``westmarch bench-bots``.

Writes the ``bots`` section of BENCHMARKS.md (or ``--output``; ``--output -`` writes no
file, only prints the rows). Each row plays ``--games`` games, seeds ``--seed`` onwards (the
greedy and the search rows of a scenario play the same seeds), every seat of the side
measured played by the row's bot (each seat consenting to the
others using its cards, as ``simulate`` seats them):

- the LCG rows: one player, standard difficulty, in each scenario (Passage through Mirkwood,
  Journey Along the Anduin, The Hunt for the Dreadnaught, The Lonely Mountain, Escape from
  Dol Guldur), with the scenario's ready-made deck (``SCENARIO_DECKS``: the Aragorn, Gimli and
  Legolas deck in Passage through Mirkwood, as issue 24 pins it) or the one ``--deck`` names;
  each row names its deck;
- the War of the Ring rows: the Free Peoples against the Shadow bots, at standard and at
  challenging difficulty, game ``i`` in scenario ``i`` modulo the four scenarios.

Each row gives the win rate with its 95 % Wilson interval, the mean CPU time the bot took per
decision (``time.process_time`` and the CPU of any child process, around each of its
answers), how the games were lost, and for the search bot the rollouts it played per CPU-second
of searching and the share of its decisions it searched (the others are the blueprint's).
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any
from uuid import uuid4

from bots import Bot, make_bot
from bots.search import Budget, SearchBot, wilson
from domain.game import Game
from domain.kernel.decisions import Choice, Decision
from domain.kernel.events import Event
from domain.kernel.state import State
from domain.rulesets import ruleset
from projections.i18n import gettext, say
from tools.games import kind
from tools.phrase import phrase
from tools.progress import Progress

DECK = "aragorn-gimli-legolas"
"""The ready-made deck of a scenario that ``SCENARIO_DECKS`` does not name."""
SCENARIO_DECKS = {
    "passage-through-mirkwood": DECK,
    "journey-along-the-anduin": "dunhere-eowyn-thalin",
    "hunt-for-the-dreadnaught": "ships-leadership",
    "the-lonely-mountain": "thorin-nori-ori-allies",
}
"""The ready-made deck (``domain/lcg/decks/KEY.txt``) each LCG row plays unless ``--deck``
names one. Passage through Mirkwood's is the one issue 24 pins. The Hunt for the Dreadnaught's
is the Leadership deck with its two Common Causes (the greedy bot played 11 of 71 drawn on seeds
33001-33060) given up for two more Gandalfs, the three a deck may hold (``ships-leadership``,
named to sort after ``leadership``, which stays the default deck of Aragorn, Théodred and
Glóin). Paired by seed with the Leadership deck, the greedy bot won 50 -> 79 of 800 games on
seeds 33001-33800 (43 gained, 14 lost), 51 -> 69 on 33801-34600 (26 / 8) and 55 -> 80 on
34601-35400 (39 / 14). Chosen on 33001-33800 among the Leadership deck's weakest cards given
up for Gandalfs (a Sneak Attack puts one into play for 1): Grim Resolve for one, 50 -> 61; the
two For Gondor! 75, the two Sneak Attacks 71; a Common Cause and Grim Resolve 66, a Common
Cause and a For Gondor! 80 (79 -> 80, 6 gained, 5 lost, against the Common Causes). Its two
For Gondor! are then given up for two The Galadhrim's Greeting (the deck's file gives the
figures: 198 -> 210 of 2,400 paired). The Lonely Mountain's is the
Thorin, Nori and Ori deck whose willpower is in cheap allies of all three spheres: the
willpower deck below with its two The Favor of the Lady, Unexpected Courage and three Lórien
Guides (Spirit cards, for Nori's 1 resource a round; the bot played a Favor for 1 in 6 drawn,
a Guide for 1 in 3) given up for two Gléowine, Henamarth Riversong, two Silverlode Archers and
a Longbeard Orc Slayer, and its two Sneak Attacks for two Snowbourn Scouts. Paired by seed
with the willpower deck, the greedy bot won 52 -> 203 of 800 games on seeds 20001-20800 (176
gained, 25 lost), 69 -> 226 on 20801-21600 (184 / 27) and 69 -> 209 on 21601-22400 (170 /
30). Built on 20001-20800 in steps, each paired there with the one before: the two Favors for
two Gléowine won 52 -> 112, the Favors and Unexpected Courage for two Gléowine and Henamarth
113 (for two Silverlode Archers and Henamarth 108); that deck with two Silverlode Archers and
a Lórien Guide for the three Guides 113 -> 154, with a Longbeard Orc Slayer for the last
Guide 154 -> 184 (a Kili more for a second Slayer: 172); the Sneak Attacks for Snowbourn
Scouts 184 -> 203 (93 gained, 74 lost), and 188 -> 226 (116 / 78) and 179 -> 209 (106 / 76)
on the other two ranges, where the deck before them had won 69 -> 188 (157 / 38) and 69 ->
179 (142 / 32). The willpower deck is the Thorin, Nori and Ori deck with two Wandering Tooks for
its two Northern Trackers (1 willpower
for 2 resources rather than 4): paired by seed, the greedy bot won 48 -> 55 of 800 games on
seeds 12001-12800 (26 gained, 19 lost), 51 -> 62 on 12801-13600 and 43 -> 53 on 13601-14400;
on 12001-12800 that deck with two Power in the Earth for its two Sneak Attacks won 43, for its
two Secret Paths 27, and decks with Éowyn 19 (Thorin, Nori, Éowyn) and 0 (Nori, Ori,
Éowyn). The Anduin's is the deck
built for it, Dúnhere, Éowyn and Thalin (26 starting threat, Dúnhere's attacks into the
staging area, three Gandalfs): on seeds 3001-3400 the greedy bot won 15 of 400 games with
it (2 % to 6 %) against 8 of 400 (1 % to 4 %) with the Éowyn, Thalin and Legolas deck, and
21 of 400 against 7 on seeds 2001-2400, where it was chosen among a dozen decks (Spirit,
Lore and Leadership lineups, Forest Snare decks, a Tactics trio), none of which did better.
The others are the ready-made deck the greedy bot did best with on seeds 1001-1200 (200
games with each): no deck won a game there, so the one that defeated most quest stages (the
Anduin, before its own deck: the Éowyn, Thalin and Legolas deck, 36 against the Aragorn,
Gimli and Legolas deck's 32; The Hunt for the Dreadnaught: stage 1 defeated in 96 games
against 32, the Lore, Éowyn/Thalin/Legolas and Spirit decks close behind with 93, 92 and 90;
The Lonely Mountain: stage 3 reached in 182 games against 97, with the Spirit deck; since
the Hobbit saga's Dwarves joined the card pool, the Thorin, Nori and Ori deck built as the saga
boxes' deck lists are, for the saga's scenario, until its willpower variant above)."""
LCG_SCENARIOS = (
    ("passage-through-mirkwood", "goal >= 60 %"),
    ("journey-along-the-anduin", "goal >= 10 %"),
    ("hunt-for-the-dreadnaught", "goal >= 10 %"),
    ("the-lonely-mountain", "goal >= 10 %"),
    ("escape-from-dol-guldur", "measured"),
)
WOTR_DIFFICULTIES = (("standard", "goal >= 40 %"), ("challenging", "goal >= 25 %"))
BOTH = "both"
"""``--difficulty``'s default: the War of the Ring rows at every difficulty."""
BOT_KINDS = ("greedy", "search")
WOTR = "wotr"
"""``--scenario wotr``: only the War of the Ring rows."""
LCG = "lcg"
"""``--scenario lcg``: the rows of every LCG scenario."""


@dataclass(frozen=True)
class Row:
    game: str
    scenario: str
    """An LCG scenario key, or ``wotr`` (every War of the Ring scenario in turn)."""
    difficulty: str
    bot: str
    goal: str
    deck: str = ""
    """The ready-made deck an LCG row plays (its key); empty: the scenario's (``SCENARIO_DECKS``)."""

    @property
    def deck_key(self) -> str:
        return self.deck or SCENARIO_DECKS.get(self.scenario, DECK)

    @property
    def label(self) -> str:
        if self.game == "lcg":
            return phrase(
                "LCG %(scenario)s, solo, ready-made %(deck)s deck, %(bot)s bot",
                scenario=self.scenario,
                deck=self.deck_key,
                bot=self.bot,
            )
        return phrase(
            "War of the Ring, Free Peoples (%(bot)s bot) against the Shadow bots, %(difficulty)s",
            bot=self.bot,
            difficulty=self.difficulty,
        )


@dataclass
class Tally:
    games: int = 0
    wins: int = 0
    decisions: int = 0
    cpu: float = 0.0
    """CPU seconds the row's bots spent answering."""
    searched: int = 0
    deviated: int = 0
    rollouts: int = 0
    searching: float = 0.0
    """CPU seconds the search bots spent in their searches."""
    losses: Counter[str] = field(default_factory=Counter)


def rows(
    scenario: str,
    kinds: tuple[str, ...],
    search_scenario: str | None = None,
    deck: str = "",
    difficulty: str = BOTH,
) -> list[Row]:
    """The rows of ``scenario`` (a scenario key, ``lcg`` for every LCG scenario, ``wotr`` or
    ``all``), each bot's; the search bot's only in ``search_scenario`` when one is given (its
    rows cost a thousand times the greedy bot's, so a run may afford it in one scenario); the
    LCG rows with ready-made deck ``deck`` (empty: each scenario's own); the War of the Ring
    rows at ``difficulty`` (``both``: standard and challenging)."""

    def measured(bot: str, key: str) -> bool:
        return bot != "search" or search_scenario in (None, key)

    out: list[Row] = []
    for key, goal in LCG_SCENARIOS:
        if scenario in ("all", LCG, key):
            out.extend(
                Row("lcg", key, "standard", bot, goal if bot == "search" else "", deck)
                for bot in kinds
                if measured(bot, key)
            )
    if scenario in ("all", WOTR):
        for level, goal in WOTR_DIFFICULTIES:
            if difficulty not in (BOTH, level):
                continue
            out.extend(
                Row("wotr", WOTR, level, bot, goal if bot == "search" else "") for bot in kinds if measured(bot, WOTR)
            )
    return out


def created(row: Row, seed: int, index: int) -> Event:
    """The first event of game ``index`` of ``row``."""
    if row.game == "lcg":
        from domain.lcg.decks.ready_made import playable_part, ready_made
        from domain.lcg.lineups import lcg_options
        from domain.lcg.ruleset import LCG

        deck = playable_part(ready_made()[row.deck_key])
        return LCG.created(lcg_options(row.scenario, 1, None, row.difficulty, [deck]), seed)
    from domain.wotr.options import scenario_keys, wotr_options
    from domain.wotr.ruleset import WOTR as RULES

    keys = scenario_keys()
    return RULES.created(wotr_options(keys[index % len(keys)], None, ["shadow"], row.difficulty, None), seed)


def _cpu() -> float:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def won(game: Game, row: Row, eliminated: str | None = None) -> tuple[bool, str]:
    """Did the side measured win, and how did the game end: an LCG loss that followed a
    player's elimination for another reason names both (The Lonely Mountain: Bilbo Baggins
    leaves play with his eliminated controller, ``bilbo-left-play/threat``)."""
    over: Any = game.state.over
    if over is None:
        return False, "unfinished"
    if row.game == "lcg":
        reason = str(over.reason)
        if eliminated is not None and eliminated != reason and over.result != "won":
            reason = f"{reason}/{eliminated}"
        return over.result == "won", reason
    return over.winner == "free", str(over.reason)


def seated(row: Row, seed: int, index: int = 0, budget: Budget | None = None) -> tuple[Game, dict[str, Bot]]:
    """Game ``index`` of ``row`` at ``seed``, started, and the row's bot in each seat (what every
    game of the row, and the tools that replay its games, play with)."""
    rules = ruleset(row.game)
    game = Game.start(uuid4(), rules, created(row, seed, index))
    seats = rules.seats(game.state)
    bots: dict[str, Bot] = {
        s: make_bot(
            row.bot,
            seed * 1000 + n,
            row.game,
            consent=frozenset(seats) - {s},
            state=lambda: game.state,
            budget=budget,
        )
        for n, s in enumerate(seats)
    }
    return game, bots


class Observer:
    """What a tool that studies the bench's games sees of each game :func:`observed` plays
    (tools/mirk_stats.py, tools/lonely_stats.py, tools/dread_stats.py, tools/anduin_stats.py); each hook does
    nothing unless overridden. The state is the game's own, changed in place as the events
    are applied: read it in the hook, keep what is read, not the state."""

    def asked(self, decision: Decision, state: State) -> None:
        """``decision`` is pending, before its seat's bot answers it."""

    def answered(self, decision: Decision, choice: Choice, state: State) -> None:
        """The bot chose ``choice``; its events are not applied yet."""

    def after(self, event: Event, state: State) -> None:
        """``event`` has just been applied to ``state``."""

    def ended(self, state: State) -> None:
        """The game is over; ``state`` is its last."""


class _Watching:
    """An :class:`Observer` as the game's :class:`~domain.kernel.runtime.Watcher`, noting
    the reason a player was eliminated (how the LCG rows' losses are told)."""

    def __init__(self, state: Callable[[], State], observer: Observer) -> None:
        self.state = state
        self.observer = observer
        self.eliminated: str | None = None

    def before(self, event: Event) -> None:
        """Nothing: the tools read each event's state once it is applied."""

    def after(self, event: Event) -> None:
        if type(event).__name__ == "PlayerEliminated":
            self.eliminated = str(getattr(event, "reason", ""))
        self.observer.after(event, self.state())


def observed(
    row: Row,
    seed: int,
    observer: Observer,
    index: int = 0,
    budget: Budget | None = None,
    tally: Tally | None = None,
) -> tuple[bool, str]:
    """Play game ``index`` of ``row`` at ``seed`` to its end as the bench plays it, shown to
    ``observer`` decision by decision and event by event; the bots' CPU time, decisions and
    search counts are added to ``tally``. Returns whether the side measured won, and the
    reason the game ended."""
    game, bots = seated(row, seed, index, budget)
    view = kind(row.game).view
    watching = _Watching(lambda: game.state, observer)
    state = game.state
    while state.pending is not None:
        decision = state.pending
        observer.asked(decision, state)
        started = _cpu()
        choice = bots[decision.seat].choose(decision, partial(view, state, decision.seat))
        if tally is not None:
            tally.cpu += _cpu() - started
            tally.decisions += 1
        observer.answered(decision, choice, state)
        game.answer(decision.seat, decision.id, choice, watching)
        state = game.state
    observer.ended(state)
    if tally is not None:
        for bot in bots.values():
            if isinstance(bot, SearchBot):
                tally.searched += bot.searched
                tally.deviated += bot.deviated
                tally.rollouts += bot.rollouts
                tally.searching += bot.searching
    return won(game, row, watching.eliminated)


def seed_range(argv: list[str], doc: str | None, flags: dict[str, str]) -> argparse.Namespace:
    """The command line of a stats tool that plays seeds FIRST to LAST of a bench row
    (``python -m tools.mirk_stats 10001 10400``): ``first``, ``last`` and each of ``flags``
    (``{"--games": "help"}``) as a boolean; ``doc``, the tool's docstring, is its help."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("first", type=int, help="the first seed played")
    parser.add_argument("last", type=int, help="the last seed played (inclusive)")
    for flag, help_text in flags.items():
        parser.add_argument(flag, action="store_true", help=help_text)
    args = parser.parse_args(argv)
    if args.last < args.first:
        parser.error(f"LAST ({args.last}) is before FIRST ({args.first})")
    return args


def play(row: Row, seed: int, index: int, budget: Budget, tally: Tally) -> None:
    """One game of ``row``, counted into ``tally``."""
    victory, reason = observed(row, seed, Observer(), index, budget, tally)
    tally.games += 1
    tally.wins += victory
    if not victory:
        tally.losses[reason] += 1


def result(row: Row, tally: Tally) -> str:
    low, high = wilson(tally.wins, tally.games)
    rate = tally.wins / tally.games if tally.games else 0.0
    per = tally.cpu / tally.decisions if tally.decisions else 0.0
    text = (
        f"won {tally.wins} of {tally.games} ({rate:.0%}, 95 % interval {low:.0%} to {high:.0%}); "
        f"{per * 1000:.1f} ms CPU per decision ({tally.decisions / max(1, tally.games):.0f} decisions a game)"
    )
    if row.bot == "search":
        speed = tally.rollouts / tally.searching if tally.searching else 0.0
        text += (
            f"; searched {tally.searched} of {tally.decisions} decisions (left the blueprint's answer in "
            f"{tally.deviated}), "
            f"{tally.rollouts:,} rollouts, {speed:,.0f} rollouts per CPU-second"
        )
    if tally.losses:
        text += "; lost: " + ", ".join(f"{reason} {n}" for reason, n in tally.losses.most_common())
    return text


def measure(
    chosen: list[Row],
    games: Callable[[Row], int],
    seed: int,
    budget: Budget,
    advance: Callable[[str], None] = lambda note: None,
    done: Callable[[dict[Row, Tally]], None] = lambda measured: None,
) -> dict[Row, Tally]:
    """Play every row's games, the cheap greedy rows first, then the search rows of the
    goals hardest to measure (Mirkwood, War of the Ring); ``done`` is told the rows measured
    so far after each row."""
    out: dict[Row, Tally] = {}
    first = ("passage-through-mirkwood", WOTR)
    for row in sorted(chosen, key=lambda r: (r.bot != "greedy", r.scenario not in first)):
        tally = Tally()
        for i in range(games(row)):
            play(row, seed + i, i, budget, tally)
            advance(f"{row.scenario} {row.difficulty} {row.bot}")
        out[row] = tally
        done(out)
    return out


def main(args: argparse.Namespace) -> int:
    from tools.bench import NO_FILE, publish, write_section

    greedy_games = args.games if args.greedy_games is None else args.greedy_games
    if args.games < 1 or greedy_games < 1:
        print("bench-bots: " + gettext("--games and --greedy-games must be at least 1"), file=sys.stderr)
        return 2
    if args.budget <= 0:
        print("bench-bots: " + gettext("--budget must be a positive number of CPU seconds"), file=sys.stderr)
        return 2
    kinds = tuple(k.strip() for k in str(args.bots).split(",") if k.strip())
    unknown = [k for k in kinds if k not in BOT_KINDS]
    if unknown or not kinds:
        print(
            "bench-bots: "
            + say("--bots takes %(kinds)s, not %(bots)s", kinds=" and/or ".join(BOT_KINDS), bots=repr(args.bots)),
            file=sys.stderr,
        )
        return 2
    if args.deck:
        from domain.lcg.decks.ready_made import ready_made

        if args.deck not in ready_made():
            print(
                "bench-bots: "
                + say(
                    "--deck takes a ready-made deck: %(decks)s, not %(deck)s",
                    decks=", ".join(ready_made()),
                    deck=repr(args.deck),
                ),
                file=sys.stderr,
            )
            return 2
    chosen = rows(args.scenario, kinds, args.search_scenario, args.deck or "", args.difficulty)
    budget = Budget(cpu_seconds=float(args.budget))
    started = _cpu()
    command = (
        f"westmarch bench-bots --games {args.games} --budget {args.budget:g} --seed {args.seed}"
        + (f" --greedy-games {greedy_games}" if greedy_games != args.games else "")
        + (f" --scenario {args.scenario}" if args.scenario != "all" else "")
        + (f" --bots {','.join(kinds)}" if kinds != BOT_KINDS else "")
        + (f" --search-scenario {args.search_scenario}" if args.search_scenario else "")
        + (f" --deck {args.deck}" if args.deck else "")
        + (f" --difficulty {args.difficulty}" if args.difficulty != BOTH else "")
    )
    title = "Bots: win rates, and the search bot's CPU per decision"

    def games(row: Row) -> int:
        return int(greedy_games if row.bot == "greedy" else args.games)

    def table(measured: dict[Row, Tally]) -> list[tuple[str, str, str]]:
        out = [
            (f"{row.label}, {measured[row].games} games", result(row, measured[row]), row.goal)
            for row in chosen
            if row in measured
        ]
        left = len(chosen) - len(measured)
        out.append(
            (
                "CPU time of the whole run" if not left else f"CPU time so far ({left} rows still to measure)",
                phrase("%(n)s s", n=format(_cpu() - started, ".0f")),
                "",
            )
        )
        return out

    def write(measured: dict[Row, Tally]) -> None:
        # after every row, so a run stopped part way leaves the rows it measured
        if args.output != NO_FILE:
            write_section(Path(args.output), "bots", title, command, table(measured))

    with Progress(sum(games(row) for row in chosen), gettext("bot benchmarks")) as bar:
        measured = measure(chosen, games, args.seed, budget, lambda note: bar.advance(note=note), write)
    publish(args.output, "bots", title, command, table(measured))
    return 0


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--output",
        default="BENCHMARKS.md",
        help="file to write, or - to write none and only print the rows (default: %(default)s)",
    )
    p.add_argument("--games", type=int, default=20, help="games per row (default: %(default)s)")
    p.add_argument(
        "--greedy-games",
        type=int,
        help="games per row of the greedy bot, which costs little (default: as many as --games)",
    )
    p.add_argument(
        "--budget",
        type=float,
        default=2.0,
        help="CPU seconds the search bot may spend per decision on average (default: %(default)s)",
    )
    p.add_argument("--seed", type=int, default=1, help="seed of each row's first game (default: %(default)s)")
    scenarios = [key for key, _ in LCG_SCENARIOS]
    p.add_argument(
        "--scenario",
        default="all",
        choices=["all", LCG, *scenarios, WOTR],
        metavar="SCENARIO",
        help="only this scenario's rows, one of %(choices)s (lcg: every LCG scenario; wotr: War of the Ring "
        "against the Shadow bots; default: %(default)s)",
    )
    p.add_argument(
        "--search-scenario",
        choices=[*scenarios, WOTR],
        metavar="SCENARIO",
        help="the search bot's rows only in this scenario, one of %(choices)s (default: in every scenario measured)",
    )
    p.add_argument("--bots", default=",".join(BOT_KINDS), help="bots measured (default: %(default)s)")
    p.add_argument(
        "--deck",
        metavar="KEY",
        help="the ready-made deck every LCG row plays (domain/lcg/decks/KEY.txt; default: each scenario's, "
        "the Aragorn, Gimli and Legolas deck in Passage through Mirkwood)",
    )
    p.add_argument(
        "--difficulty",
        default=BOTH,
        choices=[BOTH, *(level for level, _ in WOTR_DIFFICULTIES)],
        help="the War of the Ring rows only at this difficulty, one of %(choices)s (default: %(default)s)",
    )


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="bench-bots", description="the bots' win rates and the search bot's cost")
    add_arguments(p)
    return p


if __name__ == "__main__":
    sys.exit(main(parser().parse_args()))
