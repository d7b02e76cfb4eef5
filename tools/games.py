"""What the command line knows about each game: how to set one up, show it, and bot it."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from domain.kernel.events import Event
from domain.kernel.state import State
from domain.rulesets import ruleset
from projections.i18n import N_, _
from tools.decks import deck_argument


@dataclass(frozen=True)
class GameKind:
    name: str
    title: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    created: Callable[[argparse.Namespace, int], Event]
    view: Callable[[State, str], Any]
    render: Callable[[Any], str]
    rounds: Callable[[State], int]


LCG_EXAMPLES = N_("""\
the three Core scenarios with your own decks (a RingsDB deck export, .json; also .o8d or a list):
  westmarch new lcg --scenario journey-along-the-anduin --deck mine.json --deck friend.json
  westmarch play GAME                 every seat played here (or: --seat p1 --bot p2=greedy)
  westmarch simulate lcg --scenario escape-from-dol-guldur --deck mine.json --deck friend.json
over gRPC (westmarch serve): CreateGame with game "lcg", scenario "escape-from-dol-guldur" and one
PlayerSetup per player whose deck is the export's text and deck_format "ringsdb" (README: Decks).""")


def _lcg_arguments(parser: argparse.ArgumentParser) -> None:
    from domain.lcg.scenarios import SCENARIOS, load

    load()
    parser.epilog = _(LCG_EXAMPLES)
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument(
        "--scenario",
        default="passage-through-mirkwood",
        choices=sorted(SCENARIOS),
        metavar="SCENARIO",
        help=_("the scenario: %(scenarios)s (default: %(default)s)")
        % {
            "scenarios": "; ".join(f"{key} ({SCENARIOS[key].title})" for key in sorted(SCENARIOS)),
            "default": "%(default)s",
        },
    )
    parser.add_argument(
        "--players", type=int, help="1 to 4 players (default: one per --deck or --heroes given, else 1)"
    )
    parser.add_argument(
        "--heroes",
        action="append",
        metavar="A,B,C",
        help="1 to 3 heroes for the next player, by name (repeat once per player); default lineups otherwise",
    )
    parser.add_argument(
        "--difficulty",
        choices=("easy", "standard", "hard"),
        default="standard",
        help="(default: %(default)s; Hard only where the scenario has a Hard mode)",
    )
    parser.add_argument(
        "--contract",
        action="append",
        metavar="NAME",
        help="the next player's contract (repeat once per player), e.g. 'A Perilous Voyage'",
    )
    parser.add_argument(
        "--epic",
        metavar="GROUPSxPLAYERS",
        help="Epic Multiplayer (The Hunt for the Dreadnaught): groups sharing the global values, e.g. 4x4",
    )
    parser.add_argument(
        "--deck",
        action="append",
        type=deck_argument,
        metavar="FILE",
        help="the next player's deck (repeat once per player): a RingsDB deck export (.json), an OCTGN deck "
        "(.o8d), a list of cards ('3x Guard of the Citadel'), or a ready-made deck (see: westmarch decks); "
        "its heroes are the player's lineup. Default: the ready-made deck of the player's heroes",
    )


def _lcg_created(args: argparse.Namespace, seed: int) -> Event:
    from domain.lcg.lineups import lcg_options
    from domain.lcg.ruleset import LCG

    heroes = [h.split(",") for h in args.heroes] if args.heroes else None
    decks = args.deck or []
    players = args.players or max(1, len(decks), len(heroes or ()))
    options = lcg_options(args.scenario, players, heroes, args.difficulty, decks, args.contract or ())
    return LCG.created(options, seed)


def _lcg_view(state: State, viewer: str) -> Any:
    from domain.lcg.state import LcgState
    from projections.lcg import view

    assert isinstance(state, LcgState)
    return view(state, viewer)


def _lcg_render(table: Any) -> str:
    from tools.render_lcg import render

    return render(table)


def _lcg_rounds(state: State) -> int:
    return int(getattr(state, "round", 0))


def _wotr_arguments(parser: argparse.ArgumentParser) -> None:
    from domain.wotr.options import CHOICES, scenario_keys

    parser.add_argument(
        "--scenario",
        choices=[*scenario_keys(), "all"],
        default="trilogy",
        help="scenario (default: %(default)s); the seats are its decks: trilogy frodo, witch-king, aragorn, "
        "saruman; two-player-duel gandalf, witch-king; three-player-duel gandalf, witch-king, saruman; "
        "fellowship balrog, gandalf; simulate against bots: all (every scenario)",
    )
    for key, choices in CHOICES.items():
        parser.add_argument(
            f"--{key.replace('_', '-')}",
            choices=choices,
            default=choices[0],
            help="reading of a disputed rule, see open_questions.md (default: %(default)s)",
        )
    parser.add_argument(
        "--when-played-in-reserve",
        action="store_true",
        help='"when played" texts also resolve for cards played into reserve (default: they do not)',
    )
    parser.add_argument(
        "--bots",
        metavar="SEATS",
        default="",
        help="Against the Shadow: the Shadow seats the rules play as bots, comma-separated: every Shadow seat "
        "(trilogy and three-player-duel witch-king,saruman; two-player-duel witch-king; fellowship balrog), "
        "or shadow for all of them",
    )
    parser.add_argument(
        "--difficulty",
        choices=("standard", "challenging", "both"),
        help="with --bots: standard (each bot draws 1 fewer card in the draw step; the default) or challenging "
        "(simulate: both)",
    )
    parser.add_argument(
        "--bot-cards",
        metavar="FILE",
        help="with --bots: a TOML file of Shadow bot cards ([[card]] as in faction_cards.toml) that replaces the "
        "base Shadow cards standing in for the unpublished bot cards",
    )


def _wotr_created(args: argparse.Namespace, seed: int) -> Event:
    from domain.wotr.options import CHOICES, wotr_options
    from domain.wotr.ruleset import WOTR

    rules: dict[str, object] = {key: getattr(args, key) for key in CHOICES}
    rules["when_played_in_reserve"] = bool(args.when_played_in_reserve)
    bots = [seat for seat in str(args.bots or "").split(",") if seat.strip()]
    options = wotr_options(args.scenario, rules, bots, args.difficulty or "", _bot_cards(args.bot_cards))
    return WOTR.created(options, seed)


def _bot_cards(path: str | None) -> Any:
    from domain.kernel.ruleset import SetupError
    from domain.wotr.options import read_bot_cards

    if not path:
        return None
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError) as error:
        raise SetupError(f"cannot read bot card file {path}: {error}") from None
    return read_bot_cards(os.path.basename(path), text)


def _wotr_view(state: State, viewer: str) -> Any:
    from domain.wotr.state import WotrState
    from projections.wotr import view

    assert isinstance(state, WotrState)
    return view(state, viewer)


def _wotr_render(table: Any) -> str:
    from tools.render_wotr import render

    return render(table)


KINDS: dict[str, GameKind] = {
    "lcg": GameKind(
        "lcg",
        N_("The Lord of the Rings: The Card Game"),  # said with _() where it is shown
        _lcg_arguments,
        _lcg_created,
        _lcg_view,
        _lcg_render,
        _lcg_rounds,
    ),
    "wotr": GameKind(
        "wotr",
        N_("War of the Ring: The Card Game"),
        _wotr_arguments,
        _wotr_created,
        _wotr_view,
        _wotr_render,
        _lcg_rounds,
    ),
}


def kind(name: str) -> GameKind:
    ruleset(name)
    return KINDS[name]
