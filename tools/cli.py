"""The ``westmarch`` command line.

Every command works on a store: the SQLite file ``westmarch.db`` by default, another
file with ``--db PATH``, or whatever the ``eventsourcing`` environment variables
(``PERSISTENCE_MODULE``, ``SQLITE_DBNAME``, ``POSTGRES_*``) select.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any
from uuid import UUID

import msgspec

from domain.kernel.decisions import Choice, Decision, RuleError
from domain.lcg.lineups import SetupError
from domain.verify import verify
from service.app import BadVersion, UnknownGame, Westmarch, store_env
from tools.games import KINDS, kind


class CommandError(Exception):
    """A problem with what was asked; printed without a traceback, exit status 2."""


def _app(args: argparse.Namespace) -> Westmarch:
    return Westmarch(store_env(db=args.db, postgres=getattr(args, "postgres", None)))


def _game_id(app: Westmarch, text: str) -> UUID:
    """A game by its id, or by a unique prefix of it."""
    try:
        return UUID(text)
    except ValueError:
        pass
    matches = [g.id for g in app.games() if str(g.id).startswith(text.lower())]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise CommandError(f"no game id starts with {text!r} (see: westmarch games)")
    raise CommandError(f"{text!r} matches {len(matches)} games; give more of the id")


# -- commands ----------------------------------------------------------------------------


def cmd_new(args: argparse.Namespace) -> int:
    app = _app(args)
    game_kind = kind(args.game)
    game = app.create(game_kind.name, game_kind.created(args, args.seed))
    print(game.id)
    return 0


def cmd_games(args: argparse.Namespace) -> int:
    app = _app(args)
    found = False
    for info in app.games():
        found = True
        status = "over" if info.over else "playing"
        seed = getattr(info.created, "seed", "?")
        print(f"{info.id}  {info.ruleset:5} version {info.version:6}  {status:8} seed {seed}")
    if not found:
        print("no games yet; start one with: westmarch new lcg")
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from tools.bots import make_bot
    from tools.play import play

    app = _app(args)
    if args.game:
        game_id = _game_id(app, args.game)
    else:
        playing = [g for g in app.games() if not g.over]
        if not playing:
            raise CommandError("no unfinished game in this store; start one with: westmarch new lcg")
        game_id = playing[-1].id
    rules = app.rules_of(game_id)
    game_kind = kind(rules.name)
    bots = {}
    for spec in args.bot or []:
        seat, _, bot = spec.partition("=")
        bots[seat] = make_bot(bot or "greedy", args.seed)
    humans = set(args.seat) if args.seat else None

    def submit(decision: Decision, choice: Choice) -> None:
        app.submit(game_id, decision.seat, decision.id, choice)

    outcome = play(
        lambda: app.game(game_id).state,
        submit,
        lambda viewer: game_kind.view(app.game(game_id).state, viewer),
        game_kind.render,
        bots,
        humans,
    )
    if outcome is not None:
        print(f"game {game_id}: {outcome.result} ({outcome.reason})")
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    from tools.progress import Progress
    from tools.simulate import simulate

    game_kind = kind(args.game)
    if args.games < 1:
        raise CommandError("--games must be at least 1")
    created = [game_kind.created(args, args.seed + i) for i in range(args.games)]
    app = _app(args) if args.store else None
    with Progress(args.games, f"simulating {args.games} games", enabled=None if not args.json else False) as bar:

        def done(game: Any) -> None:
            if app is not None:
                app.store(game)
            bar.advance()

        report = simulate(game_kind, created, args.bot, args.seed, on_game=done)
    if args.json:
        print(json.dumps(report.as_dict(), indent=2))
    else:
        print(f"{game_kind.title}: {args.games} games, bot {args.bot}, seeds {args.seed}..{args.seed + args.games - 1}")
        print(report.text())
        if app is not None:
            print("games stored; list them with: westmarch games")
    return 0


def cmd_log(args: argparse.Namespace) -> int:
    from projections.story import Namer, cause_text, story

    app = _app(args)
    game_id = _game_id(app, args.game)
    rules = app.rules_of(game_id)
    for event, line in story(rules, app.history(game_id)):
        if args.start <= event.seq and (args.end is None or event.seq <= args.end):
            print(f"{event.seq:6}  {line}")
            if not args.brief:
                print(f"        because: {cause_text(event, Namer(rules, rules.new_state()))}")
    return 0


def cmd_state(args: argparse.Namespace) -> int:
    app = _app(args)
    game_id = _game_id(app, args.game)
    rules = app.rules_of(game_id)
    state = app.state_at(game_id, args.at)
    game_kind = kind(rules.name)
    table = game_kind.view(state, args.viewer)
    if args.json:
        if args.raw:
            sys.stdout.write(rules.codec.encode(state).decode() + "\n")
        else:
            sys.stdout.write(msgspec.json.format(msgspec.json.encode(table), indent=2).decode() + "\n")
    else:
        print(game_kind.render(table))
        decision = state.pending
        if decision is not None and (args.viewer in ("referee", decision.seat)):
            from tools.play import show_decision

            show_decision(decision, sys.stdout)
    return 0


def cmd_explain(args: argparse.Namespace) -> int:
    from projections.explain import explain, lines

    app = _app(args)
    game_id = _game_id(app, args.game)
    events = app.history(game_id)
    try:
        tree = explain(app.rules_of(game_id), events, args.event)
    except IndexError as error:
        raise CommandError(str(error)) from None
    print("\n".join(lines(tree)))
    return 0


def cmd_fork(args: argparse.Namespace) -> int:
    app = _app(args)
    game_id = _game_id(app, args.game)
    game = app.fork(game_id, args.at)
    print(game.id)
    print(f"forked from {game_id} at event {args.at}; now at version {game.version}", file=sys.stderr)
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    app = _app(args)
    game_id = _game_id(app, args.game)
    try:
        events = app.history(game_id)
    except msgspec.DecodeError:
        version = app.first_unreadable(game_id)
        print(f"{game_id}: FAILED at event {version}: the stored event cannot be read")
        return 1
    verdict = verify(app.rules_of(game_id), events)
    print(f"{game_id}: {verdict}")
    return 0 if verdict.ok else 1


def cmd_fixture(args: argparse.Namespace) -> int:
    from tools.fixtures import run_files

    return run_files(args.files, verbose=args.verbose)


def cmd_bench(args: argparse.Namespace) -> int:
    from tools.bench import main as bench_main

    code: int = bench_main(args)
    return code


# -- the parser --------------------------------------------------------------------------


def parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--db", metavar="PATH", help="SQLite file to use (default: westmarch.db, or SQLITE_DBNAME)")
    common.add_argument("--postgres", metavar="DSN", help="use PostgreSQL, e.g. postgresql://user@127.0.0.1:5432/db")

    top = argparse.ArgumentParser(
        prog="westmarch",
        description="Event-sourced Lord of the Rings card games: play, simulate, audit and replay.",
    )
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, help: str, fn: Any, store: bool = True) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help, description=help, parents=[common] if store else [])
        p.set_defaults(fn=fn)
        return p

    games_known = sorted(KINDS)

    p = command("new", "start a game and print its id", cmd_new, store=False)
    new_sub = p.add_subparsers(dest="game", required=True, metavar="GAME")
    for name in games_known:
        g = new_sub.add_parser(name, help=KINDS[name].title, parents=[common])
        KINDS[name].add_arguments(g)
        g.add_argument("--seed", type=int, default=1, help="seed of all chance in the game (default: %(default)s)")

    command("games", "list the games in the store", cmd_games)

    p = command("play", "play a game in the terminal (bots may take seats)", cmd_play)
    p.add_argument("game", nargs="?", help="game id or prefix (default: the latest unfinished game)")
    p.add_argument("--seat", action="append", help="seat played here (repeatable; default: every seat not a bot)")
    p.add_argument("--bot", action="append", metavar="SEAT=KIND", help="hand a seat to a bot: random or greedy")
    p.add_argument("--seed", type=int, default=1, help="seed for the bots (default: %(default)s)")

    p = command("simulate", "play many games with bots and report the results", cmd_simulate, store=False)
    sim_sub = p.add_subparsers(dest="game", required=True, metavar="GAME")
    for name in games_known:
        g = sim_sub.add_parser(name, help=KINDS[name].title, parents=[common])
        KINDS[name].add_arguments(g)
        g.add_argument("--games", type=int, default=100, help="how many games (default: %(default)s)")
        g.add_argument("--seed", type=int, default=1, help="seed of the first game (default: %(default)s)")
        g.add_argument("--bot", choices=("random", "greedy"), default="greedy", help="(default: %(default)s)")
        g.add_argument("--json", action="store_true", help="print the report as JSON")
        g.add_argument("--store", action="store_true", help="keep the games in the store")

    p = command("log", "the story of a game, each event with its cause", cmd_log)
    p.add_argument("game")
    p.add_argument("--from", dest="start", type=int, default=1, help="first event to show")
    p.add_argument("--to", dest="end", type=int, help="last event to show")
    p.add_argument("--brief", action="store_true", help="leave out the causes")

    p = command("state", "the table at a version", cmd_state)
    p.add_argument("game")
    p.add_argument("--at", type=int, help="version (number of events; default: the latest)")
    p.add_argument("--as", dest="viewer", default="referee", help="viewer: a seat, spectator or referee (default)")
    p.add_argument("--json", action="store_true", help="print the view as JSON")
    p.add_argument("--raw", action="store_true", help="with --json: the whole state as stored in snapshots")

    p = command("explain", "why an event happened: its causes back to decisions and rules", cmd_explain)
    p.add_argument("game")
    p.add_argument("event", type=int, help="event number")

    p = command("fork", "a new game with the first N events of another, to try another way", cmd_fork)
    p.add_argument("game")
    p.add_argument("--at", type=int, required=True, help="number of events to keep")

    p = command("verify", "check the hash chain and re-execute the decisions from the seed", cmd_verify)
    p.add_argument("game")

    p = command("fixture", "run fixture files (set up a position, script decisions, check)", cmd_fixture, store=False)
    fix_sub = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    g = fix_sub.add_parser("run", help="run fixture files; exits 1 if an expectation fails")
    g.add_argument("files", nargs="+", help="fixture files (TOML) or folders of them")
    g.add_argument("-v", "--verbose", action="store_true", help="print the events of each fixture")

    p = command("bench", "measure the engine and write BENCHMARKS.md", cmd_bench, store=False)
    p.add_argument("--output", default="BENCHMARKS.md", help="file to write (default: %(default)s)")
    p.add_argument("--quick", action="store_true", help="smaller runs (for a smoke test)")
    return top


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        code: int = args.fn(args)
        return code
    except (CommandError, SetupError, UnknownGame, BadVersion, RuleError) as error:
        print(f"westmarch: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
