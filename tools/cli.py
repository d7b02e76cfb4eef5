"""The ``westmarch`` command line.

Every command works on a store: the SQLite file ``westmarch.db`` by default, another
file with ``--db PATH``, or whatever the ``eventsourcing`` environment variables
(``PERSISTENCE_MODULE``, ``SQLITE_DBNAME``, ``POSTGRES_*``) select.
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import json
import os
import re
import sqlite3
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, TypeVar
from uuid import UUID

import msgspec
from eventsourcing.persistence import PersistenceError

from domain.kernel.decisions import Choice, Decision, RuleError
from domain.kernel.ruleset import recorded_rules_version
from domain.lcg.lineups import SetupError
from domain.verify import check_chain, verify
from projections.i18n import DEFAULT as DEFAULT_LANGUAGE
from projections.i18n import LANGUAGES, N_, _, from_environment, language, nsay, say, speaking
from projections.prompts import error_text
from projections.verdicts import told as verdict_told
from service.app import (
    DEFAULT_DB,
    BadVersion,
    DamagedGame,
    DamagedRecord,
    GameInfo,
    UnknownGame,
    Westmarch,
    store_env,
)
from service.room import SWEEP_SECONDS
from service.rpc.limits import Limits
from service.store import EventMapper
from tools.decks import deck_source
from tools.games import KINDS, kind
from tools.records import RecordError
from tools.records import add_arguments as record_arguments


class CommandError(Exception):
    """A problem with what was asked; printed without a traceback, exit status 2."""


CREATES_STORE = frozenset({"new", "simulate", "import", "serve"})
"""Commands that may start a new SQLite file; every other command reads an existing store."""


_A = TypeVar("_A", bound=argparse.Action)


class _Parser(argparse.ArgumentParser):
    """A usage error in one line, naming the command's ``--help`` (and, for a mistyped
    choice, the nearest one). Its help is said in the language spoken: each argument's
    ``help``, the command's ``description`` and argparse's own headings are catalog messages
    (tools/i18n.py extracts the ``help=`` and ``description=`` strings of the tools)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if isinstance(kwargs.get("description"), str):
            kwargs["description"] = _(kwargs["description"])
        kwargs.setdefault("formatter_class", _Formatter)
        parents = kwargs.pop("parents", [])
        super().__init__(*args, **kwargs)
        self._positionals.title = _("positional arguments")
        self._optionals.title = _("options")
        for parent in parents:  # as argparse adds them, once the headings are in the language spoken
            self._add_container_actions(parent)
            self._defaults.update(parent._defaults)

    def _get_formatter(self) -> argparse.HelpFormatter:
        kind: Any = self.formatter_class
        if not (isinstance(kind, type) and issubclass(kind, _Formatter)):  # tools/games.py sets a raw one
            kind = type(f"_Said{getattr(kind, '__name__', 'Formatter')}", (_Formatter, kind), {})
        formatter: argparse.HelpFormatter = kind(prog=self.prog)
        return formatter

    def _add_action(self, action: _A) -> _A:
        if isinstance(action.help, str) and action.help != argparse.SUPPRESS:
            action.help = _(action.help)
        return super()._add_action(action)

    def add_subparsers(self, **kwargs: Any) -> Any:
        kwargs.setdefault("action", _SubParsers)
        return super().add_subparsers(**kwargs)

    def error(self, message: str) -> NoReturn:
        wrong = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)$", message)
        if wrong is not None:
            choices = [c.strip(" '") for c in wrong.group(2).split(",")]
            near = difflib.get_close_matches(wrong.group(1), choices, n=1)
            if near:
                head = message[: wrong.start(2) - len(" (choose from ")]
                message = say("%(message)s; did you mean %(choice)s?", message=_argparse_said(head), choice=near[0])
            else:
                message = _argparse_said(message)
        else:
            message = _argparse_said(message)
        command = self.prog.removeprefix("westmarch").strip()
        where = f"{command}: " if command else ""
        said = say("%(message)s (see: %(help)s)", message=message, help=f"{self.prog} --help")
        self.exit(2, f"westmarch: {where}{said}\n")


_ARGPARSE = (
    (re.compile(r"argument (\S+): (.+)$", re.DOTALL), N_("argument %(argument)s: %(message)s")),
    (
        re.compile(r"the following arguments are required: (.+)$"),
        N_("the following arguments are required: %(arguments)s"),
    ),
    (re.compile(r"invalid choice: ('[^']*')(?: \(choose from (.*)\))?$"), N_("invalid choice: %(value)s")),
    (re.compile(r"invalid (\w+) value: (.+)$"), N_("invalid %(type)s value: %(value)s")),
    (re.compile(r"unrecognized arguments: (.+)$"), N_("unrecognized arguments: %(arguments)s")),
    (re.compile(r"one of the arguments (.+) is required$"), N_("one of the arguments %(arguments)s is required")),
    (re.compile(r"not allowed with argument (.+)$"), N_("not allowed with argument %(argument)s")),
    (
        re.compile(r"ambiguous option: (\S+) could match (.+)$"),
        N_("ambiguous option: %(option)s could match %(matches)s"),
    ),
    (re.compile(r"expected one argument$"), N_("expected one argument")),
    (re.compile(r"expected at most one argument$"), N_("expected at most one argument")),
    (re.compile(r"expected at least one argument$"), N_("expected at least one argument")),
)
"""argparse's own refusals (its English, Python 3.11+), each read by a pattern and said again
as a catalog message with named blanks: argparse reads the standard library's catalogs, not ours."""


def _argparse_said(message: str) -> str:
    """An argparse refusal in the language spoken; one it does not know stays as it is."""
    if language() == DEFAULT_LANGUAGE:
        return message
    for regex, said in _ARGPARSE:
        found = regex.match(message)
        if found is None:
            continue
        names = re.findall(r"%\((\w+)\)s", said)
        values = dict(zip(names, found.groups(), strict=False))
        if "message" in values:
            values["message"] = _argparse_said(values["message"])
        if said.startswith("invalid choice") and found.group(2):
            return say("%(message)s (choose from %(choices)s)", message=say(said, **values), choices=found.group(2))
        return say(said, **values)
    return message


class _Formatter(argparse.HelpFormatter):
    def add_usage(self, usage: Any, actions: Any, groups: Any, prefix: str | None = None) -> None:
        super().add_usage(usage, actions, groups, _("usage: ") if prefix is None else prefix)


class _SubParsers(argparse._SubParsersAction):  # type: ignore[type-arg]
    """A command's one-line help in the command list, in the language spoken."""

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser:
        if isinstance(kwargs.get("help"), str):
            kwargs["help"] = _(kwargs["help"])
        parser: argparse.ArgumentParser = super().add_parser(name, **kwargs)
        return parser


N_("show this help message and exit")  # argparse's own -h help, said through _Parser._add_action


def _app(args: argparse.Namespace) -> Westmarch:
    env = store_env(db=args.db, postgres=getattr(args, "postgres", None))
    path = _sqlite_path(env)
    if path is not None:
        if os.path.isdir(path):
            raise CommandError(say("the store %(path)s is a folder, not a SQLite file", path=repr(path)))
        if args.command not in CREATES_STORE and not os.path.exists(path):
            start = "westmarch new lcg" + (f" --db {path}" if args.db else "")
            raise CommandError(say("no store at %(path)s (start a game with: %(start)s)", path=repr(path), start=start))
    if path is None and "POSTGRES_CONNECT_TIMEOUT" not in os.environ:
        env.setdefault("POSTGRES_CONNECT_TIMEOUT", "5")  # a person at a prompt: say so soon
    try:
        return Westmarch(env)
    except sqlite3.Error as error:
        raise CommandError(_unreadable_store(path, error)) from None


def _sqlite_path(env: dict[str, str]) -> str | None:
    """The SQLite file the store will open, or None (PostgreSQL, in memory)."""
    merged = {**os.environ, **env}
    if merged.get("PERSISTENCE_MODULE", "eventsourcing.sqlite") != "eventsourcing.sqlite":
        return None
    path = merged.get("SQLITE_DBNAME", DEFAULT_DB)
    return None if path.startswith((":memory:", "file:")) else path


def _unreadable_store(path: str | None, error: BaseException) -> str:
    if path:
        return say(
            "the store %(path)s cannot be read (%(error)s); is it a Westmarch SQLite file, whole and readable?",
            path=repr(path),
            error=error,
        )
    return say("the store cannot be read (%(error)s); is it a Westmarch SQLite file, whole and readable?", error=error)


def _check_viewer(rules: Any, state: Any, viewer: str, flag: str) -> None:
    """A seat, ``spectator`` or ``referee``: anything else is refused naming the seats."""
    seats = rules.seats(state)
    if viewer not in (*seats, "spectator", "referee"):
        raise CommandError(
            say(
                "%(flag)s %(viewer)s: this game's seats are %(seats)s (or spectator, referee)",
                flag=flag,
                viewer=viewer,
                seats=", ".join(seats),
            )
        )


def _game_id(app: Westmarch, text: str) -> UUID:
    """A game by its id, or by a unique prefix of it."""
    try:
        return UUID(text)
    except ValueError:
        pass
    matches = [game_id for game_id, _, _ in app.created() if str(game_id).startswith(text.lower())]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise CommandError(say("no game id starts with %(text)s (see: westmarch games)", text=repr(text)))
    raise CommandError(say("%(text)s matches %(n)s games; give more of the id", text=repr(text), n=len(matches)))


def _epic_id(app: Westmarch, text: str) -> UUID:
    """An epic event by its id, or by a unique prefix of it (its groups' games name it)."""
    try:
        return UUID(text)
    except ValueError:
        pass
    epics = {getattr(getattr(info.created, "options", None), "epic", "") for info in app.games()}
    matches = sorted(e for e in epics if e and e.startswith(text.lower()))
    if len(matches) == 1:
        return UUID(matches[0])
    if not matches:
        raise CommandError(say("no epic event id starts with %(text)s", text=repr(text)))
    raise CommandError(say("%(text)s matches %(n)s epic events; give more of the id", text=repr(text), n=len(matches)))


def _warn_if_broken(game_id: UUID, rules: Any, events: Sequence[Any]) -> None:
    """Say (on standard error) when the hash chain of what is about to be shown is broken."""
    chain = check_chain(rules, events)
    if not chain.ok:
        print(
            "westmarch: " + say("WARNING: game %(game)s does not verify: %(chain)s", game=game_id, chain=chain),
            file=sys.stderr,
        )


# -- commands ----------------------------------------------------------------------------


def _epic_sizes(args: argparse.Namespace) -> list[int] | None:
    text = getattr(args, "epic", None)
    if not text:
        return None
    from tools.epic import parse_epic

    if args.scenario != "hunt-for-the-dreadnaught":
        raise CommandError(_("--epic is for --scenario hunt-for-the-dreadnaught"))
    try:
        return parse_epic(text)
    except ValueError as error:
        raise CommandError(str(error)) from None


def cmd_new(args: argparse.Namespace) -> int:
    sizes = _epic_sizes(args)
    if sizes is not None:
        from tools.epic import access_text, new_epic

        print(access_text(new_epic(_app(args), sizes, args.difficulty, args.seed)))
        return 0
    game_kind = kind(args.game)
    created = game_kind.created(args, args.seed)  # a refused setup opens no store
    game = _app(args).create(game_kind.name, created)
    print(game.id)
    return 0


_UNDECODABLE = (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError, ValueError, KeyError)
"""What decoding a damaged stored row raises."""


def _damaged_records(app: Westmarch, games: Sequence[UUID]) -> tuple[dict[UUID, str], int]:
    """The records kept beside games (a seats record, a CommandApplied record) whose row does
    not decode: by game, and how many name no game listed (one indexed read per 500 rows).

    A seats record's id is derived from its game's; a CommandApplied record's is not, so an
    unreadable one is given to the game whose id its bytes still hold."""
    from service.records import COMMAND_TOPIC, DECODERS, SEATS_TOPIC, seats_id
    from service.store import select_firsts

    mapper = app.mapper
    assert isinstance(mapper, EventMapper)
    of_seats = {seats_id(game): game for game in games}
    named = {str(game).encode(): game for game in games}
    found: dict[UUID, str] = {}
    orphans, after = 0, 0
    while True:
        page = select_firsts(app.recorder, after, 500, [SEATS_TOPIC, COMMAND_TOPIC])
        for _position, record_id, topic, state in page:
            try:
                DECODERS[topic].decode(mapper.open_state(state))
                continue
            except Exception:  # an unreadable row, whatever the edit made of it
                pass
            what = (
                "its seats record (the tokens' hashes)" if topic == SEATS_TOPIC else "a command record (CommandApplied)"
            )
            game = of_seats.get(record_id) or next((g for text, g in named.items() if text in state), None)
            if game is None:
                orphans += 1
            else:
                found.setdefault(game, f"{what} cannot be decoded")
        if len(page) < 500:
            return found, orphans
        after = page[-1][0]


def _damage(app: Westmarch, info: GameInfo, records: dict[UUID, str]) -> str:
    """Why a listed game cannot be served ("" if it can): its summary's finding, then every
    event row decoded and in sequence, then the records beside it."""
    if info.damaged or info.created is None:
        return info.damaged or "a stored event cannot be decoded"
    try:
        app.history(info.id)
    except DamagedGame as error:
        return say("event %(seq)s: %(reason)s", seq=error.version, reason=error.reason)
    return records.get(info.id, "")


def cmd_games(args: argparse.Namespace) -> int:
    from service.lineage import lineage
    from tools.table import branch, origin, who_plays

    if args.limit is not None and args.limit < 1:
        raise CommandError(_("--limit must be at least 1"))
    app = _app(args)
    infos = list(app.games())[::-1]  # newest first
    records, orphans = _damaged_records(app, [info.id for info in infos])
    origins: dict[UUID, Any] = {}
    for info in infos:
        try:
            if (forked := lineage(app, info.id)) is not None:
                origins[info.id] = forked
        except (DamagedRecord, *_UNDECODABLE):
            records.setdefault(info.id, _("its fork record cannot be decoded"))
    shown = 0
    for info in infos:
        scenario = str(getattr(getattr(info.created, "options", None), "scenario", "") or "")
        if (args.game and info.ruleset != args.game) or (args.scenario and scenario != args.scenario):
            continue
        damage = _damage(app, info, records)
        if (args.damaged and not damage) or ((args.over or args.in_progress) and damage):
            continue
        if (args.over and not info.over) or (args.in_progress and info.over):
            continue
        shown += 1
        if damage:
            print(
                say(
                    "%(game)s  %(ruleset)s version %(version)s  DAMAGED  %(damage)s  scenario %(scenario)s",
                    game=info.id,
                    ruleset=f"{info.ruleset:5}",
                    version=f"{info.version:6}",
                    damage=damage,
                    scenario=scenario or "?",
                )
            )
        elif info.created is not None:
            seed = getattr(info.created, "seed", "?")
            status = _("playing")
            if info.over:
                last = app.history(info.id, gt=info.version - 1)[-1]
                outcome = getattr(last, "outcome", None)
                status = say("over: %(result)s (%(reason)s)", **_outcome_words(outcome)) if outcome else _("over")
            print(
                say(
                    "%(game)s  %(ruleset)s version %(version)s  rules v%(rules)s  seed %(seed)s  %(status)s  "
                    "scenario %(scenario)s",
                    game=info.id,
                    ruleset=f"{info.ruleset:5}",
                    version=f"{info.version:6}",
                    rules=recorded_rules_version(info.created),
                    seed=seed,
                    status=status,
                    scenario=scenario,
                )
            )
            print("    " + say("players: %(who)s", who=who_plays(info.created)))
        if info.id in origins:
            print(f"    {origin(origins[info.id])}")
        for forked in origins.values():
            if forked.source == info.id:
                print(f"    {branch(forked)}")
        if args.limit is not None and shown >= args.limit:
            break
    if orphans:
        print(
            "westmarch: " + say("WARNING: %(n)s stored record(s) beside games cannot be decoded", n=orphans),
            file=sys.stderr,
        )
    if not infos:
        print(_("no games yet; start one with: westmarch new lcg"))
    elif not shown:
        print(_("no game in this store is as asked"))
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from bots import BOTS, make_bot
    from tools.play import Seating, play, screen
    from tools.table import seat_table, seating, take_back

    if args.server or args.token:
        return _play_remote(args)
    app = _app(args)
    if args.game:
        game_id = _game_id(app, args.game)
    else:
        playing = [g for g in app.games() if not g.over]
        if not playing:
            raise CommandError(_("no unfinished game in this store; start one with: westmarch new lcg"))
        game_id = playing[-1].id
    rules = app.rules_of(game_id)
    game_kind = kind(rules.name)
    seats = rules.seats(app.game(game_id).state)
    bot_kinds: dict[str, str] = {}
    for spec in args.bot or []:
        seat, _eq, bot = spec.partition("=")
        if seat not in seats:
            raise CommandError(
                say("--bot %(spec)s: this game's seats are %(seats)s", spec=spec, seats=", ".join(seats))
            )
        if (bot or "greedy") not in BOTS:
            raise CommandError(
                say(
                    "--bot %(spec)s: unknown bot %(bot)s; choose from %(bots)s",
                    spec=spec,
                    bot=repr(bot),
                    bots=", ".join(BOTS),
                )
            )
        bot_kinds[seat] = bot or "greedy"
    for seat in args.seat or []:
        if seat not in seats:
            raise CommandError(
                say("--seat %(seat)s: this game's seats are %(seats)s", seat=seat, seats=", ".join(seats))
            )
    saved = seating(app, game_id)
    chosen, auto_pass, seed = tuple(args.seat or ()), bool(args.auto_pass), args.seed
    if saved is not None:
        # what is not given again is as it was saved: resuming keeps the bots and seats
        if not args.bot:
            bot_kinds, seed = dict(saved.bots), saved.seed
        chosen = chosen or saved.seats
        auto_pass = auto_pass or saved.auto_pass
        if not (args.bot and args.seat):
            who = ", ".join(f"{s} {k}" for s, k in bot_kinds.items()) or _("no bots")
            print(
                say(
                    "resuming with the seating saved for this game: %(who)s; seats here: %(seats)s",
                    who=who,
                    seats=", ".join(chosen) or _("all"),
                )
            )
    seat_table(app, game_id, bot_kinds, chosen, auto_pass, seed)
    now = {"game": game_id}

    def current() -> Any:
        return app.game(now["game"]).state

    # a bot may use the cards of the seats its own kind plays, never a person's (bots.make_bot)
    table = Seating(
        bots={
            seat: make_bot(
                k,
                seed,
                rules.name,
                consent=frozenset(s for s, other in bot_kinds.items() if other == k and s != seat),
                state=current,
            )
            for seat, k in bot_kinds.items()
        },
        humans=set(chosen) if chosen else None,
        auto_pass=auto_pass,
        shared=len(chosen or [s for s in seats if s not in bot_kinds]) > 1,
    )

    def remember(changed: Seating) -> None:
        seat_table(app, now["game"], bot_kinds, chosen, changed.auto_pass, seed)

    table.on_change = remember

    def submit(decision: Decision, choice: Choice) -> None:
        app.submit(now["game"], decision.seat, decision.id, choice)

    seen: dict[str, int] = {}

    def recent(seat: str) -> list[str]:
        """The events since the seat's last decision here, as that seat may see them."""
        from projections.feed import Feed

        game = now["game"]
        version = app.version(game)
        since = seen.get(seat, max(0, version - 40))
        seen[seat] = version
        if since >= version:
            return []
        # the feed starts one event early, so the question the seat last answered is known
        # to it and the answer reads by the options' labels
        start = max(0, since - 1)
        before = app.state_at(game, start) if start else rules.new_state()
        feed = Feed(rules, seat, before)
        shown = [
            p for p in feed.project_many(app.history(game, gt=start)) if p.seq > since and p.type != "DecisionRequested"
        ]
        # every one of them (the table under them shows only what changed, so a round's recap
        # under auto-pass stays on the screen), numbered as westmarch log numbers them
        return [f"{p.seq:6}  {p.text}" for p in shown]

    def back(seat: str) -> str:
        source = now["game"]
        game = take_back(app, source, seat)
        now["game"] = game.id
        seen.clear()
        return say(
            "%(seat)s's last decision is taken back: this table now plays game %(game)s, from version %(version)s;"
            " game %(source)s stays as it was (westmarch games lists both)",
            seat=seat,
            game=game.id,
            version=game.version,
            source=source,
        )

    def caused_by(decision: Decision) -> int | None:
        """The card whose text asked the decision (the cause of its question)."""
        asked = app.history(now["game"], gt=decision.id - 1, lte=decision.id)
        return asked[0].cause.card if asked else None

    def hint(decision: Decision, seconds: float) -> Any:
        """The values of the answers, from the deciding seat's knowledge (tools/play.py, key v)."""
        from bots.analysis import analyze
        from bots.search import Budget

        state = app.game(now["game"]).state
        return analyze(rules, state, knowledge=decision.seat, budget=Budget(cpu_seconds=seconds), seed=decision.id)

    try:
        outcome = play(
            lambda: app.game(now["game"]).state,
            submit,
            lambda viewer: game_kind.view(app.game(now["game"]).state, viewer),
            screen(rules.name),
            table,
            recent=recent,
            take_back=back,
            caused_by=caused_by,
            hint=hint,
        )
    except KeyboardInterrupt:
        # every answer is saved as it is given: nothing is lost but the question on screen
        store = f" --db {args.db}" if args.db else " --postgres DSN" if args.postgres else ""
        print(
            "\nwestmarch: "
            + say(
                "interrupted; game %(game)s is saved at version %(version)s; resume with: %(command)s",
                game=now["game"],
                version=app.version(now["game"]),
                command=f"westmarch play {now['game']}{store}",
            ),
            file=sys.stderr,
        )
        return 130
    if outcome is not None:
        print(say("game %(game)s: %(result)s (%(reason)s)", game=now["game"], **_outcome_words(outcome)))
    return 0


def _play_remote(args: argparse.Namespace) -> int:
    import grpc

    from tools.rpc_client import play_remote

    if not (args.server and args.token):
        raise CommandError(_("playing on a server needs both --server HOST:PORT and --token TOKEN"))
    if args.bot or args.seat:
        raise CommandError(_("--bot and --seat are for local games; on a server the token names the seat"))
    try:
        outcome = play_remote(
            args.server, args.token, args.game or "", tls_ca=args.tls_ca, tls=args.tls, auto_pass=args.auto_pass
        )
    except grpc.RpcError as error:
        raise CommandError(f"{error.code().name}: {error.details()}") from None
    if outcome is not None:
        print(say("game over: %(result)s (%(reason)s)", **_outcome_words(outcome)))
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    import asyncio

    from service.rpc.server import ServerOptions, configure_logging, serve
    from service.web.http import page_address

    configure_logging(args.log_level)

    if args.processes < 1:
        raise CommandError(_("--processes must be at least 1"))
    if args.epic_groups < 1:
        raise CommandError(_("--epic-groups must be at least 1"))
    if not args.bot_sweep >= 0:
        raise CommandError(_("--bot-sweep cannot be negative"))
    if args.processes > 1:
        from tools.processes import serve_processes

        return serve_processes(args)

    def ready(port: int) -> None:
        print("westmarch: " + say("serving on %(address)s", address=f"{args.host}:{port}"), flush=True)

    def web_ready(port: int) -> None:
        page = page_address(args.host, port, bool(args.tls_cert))
        print("westmarch: " + say("the web page is at %(page)s", page=f"{page}#token=TOKEN"), flush=True)

    options = ServerOptions(
        env=store_env(db=args.db, postgres=args.postgres),
        host=args.host,
        port=args.port,
        workers=args.workers,
        tls_cert=args.tls_cert,
        tls_key=args.tls_key,
        grace=args.grace,
        reuse_port=args.reuse_port,
        web_port=args.web_port,
        limits=Limits(groups_per_epic=args.epic_groups),
        private=args.private,
        bot_sweep=args.bot_sweep,
    )
    asyncio.run(serve(options, ready, web_ready))
    return 0


def cmd_bots(args: argparse.Namespace) -> int:
    from tools.rpc_client import run_bots

    if args.games < 1 or args.concurrency < 1:
        raise CommandError(_("--games and --concurrency must be at least 1"))
    report = run_bots(
        args.server,
        args.games,
        args.concurrency,
        bot=args.bot,
        seed=args.seed,
        players=args.players,
        difficulty=args.difficulty,
        tls_ca=args.tls_ca,
        game=args.game,
        scenario=args.scenario,
    )
    seats = nsay("%(n)d player", "%(n)d players", args.players) if args.game == "lcg" else args.scenario or "trilogy"
    print(
        say(
            "%(games)s games of %(game)s (%(seats)s), bot %(bot)s, over gRPC at %(servers)s",
            games=args.games,
            game=args.game,
            seats=seats,
            bot=args.bot,
            servers=", ".join(args.server),
        )
    )
    print(report.text())
    return 1 if report.errors else 0


def benchmark(module: str) -> Callable[[argparse.Namespace], int]:
    """The command that runs ``tools.<module>``'s ``main``: imported when the command runs,
    not when the command line is read (a benchmark's imports are heavy)."""

    def run(args: argparse.Namespace) -> int:
        main: Callable[[argparse.Namespace], int] = importlib.import_module(f"tools.{module}").main
        return main(args)

    return run


def cmd_simulate(args: argparse.Namespace) -> int:
    from tools.progress import Progress
    from tools.simulate import Report, simulate

    game_kind = kind(args.game)
    if args.games < 1:
        raise CommandError(_("--games must be at least 1"))
    sizes = _epic_sizes(args)
    if sizes is not None:
        from tools.epic import simulate_epics

        db = args.db if args.store else None
        postgres = args.postgres if args.store else None
        text, sound = simulate_epics(sizes, args.difficulty, args.games, args.seed, args.bot, db, args.json, postgres)
        print(text)
        return 0 if sound else 1
    if args.game == "wotr" and (args.scenario == "all" or args.difficulty == "both"):
        return _simulate_against_bots(args, game_kind)
    created = [game_kind.created(args, args.seed + i) for i in range(args.games)]
    app = _app(args) if args.store else None
    report, before = Report(), sum(1 for _ in app.created()) if app is not None else 0
    try:
        with Progress(
            args.games, say("simulating %(n)s games", n=args.games), enabled=None if not args.json else False
        ) as bar:

            def done(game: Any) -> None:
                if app is not None:
                    app.store(game)
                bar.advance()

            simulate(game_kind, created, args.bot, args.seed, on_game=done, report=report, budget=_budget(args))
    except KeyboardInterrupt:
        # the games finished are kept (each is saved as it ends): say how they went
        kept = sum(1 for _ in app.created()) - before if app is not None else 0
        stored = say("; the %(n)s stored are kept (westmarch games)", n=kept) if app is not None else ""
        print(
            "westmarch: "
            + say(
                "interrupted after %(done)s of %(games)s games%(stored)s",
                done=report.games,
                games=args.games,
                stored=stored,
            ),
            file=sys.stderr,
        )
        print(json.dumps(report.as_dict(), indent=2) if args.json else report.text())
        return 130
    against = _against_the_shadow(args, report)
    if args.json:
        summary = report.as_dict()
        if against:
            summary["against_the_shadow"] = against
        print(json.dumps(summary, indent=2))
    else:
        print(
            say(
                "%(title)s: %(games)s games, bot %(bot)s, seeds %(first)s..%(last)s",
                title=_(game_kind.title),
                games=args.games,
                bot=args.bot,
                first=args.seed,
                last=args.seed + args.games - 1,
            )
        )
        print(report.text())
        if against:
            print(
                say(
                    "Against the Shadow, %(scenario)s, difficulty %(difficulty)s, bots %(bots)s: the Free Peoples "
                    "(%(bot)s bot) won %(wins)s of %(games)s games, win rate %(rate)s",
                    scenario=against["scenario"],
                    difficulty=against["difficulty"],
                    bots=",".join(against["bots"]),
                    bot=args.bot,
                    wins=against["free_wins"],
                    games=report.games,
                    rate=f"{against['free_win_rate']:.1%}",
                )
            )
        if app is not None:
            print(_("games stored; list them with: westmarch games"))
    return 0


def _budget(args: argparse.Namespace) -> Any:
    """The search bot's budget from ``--budget`` (None for the other bots)."""
    if getattr(args, "bot", "") != "search":
        return None
    if args.budget <= 0:
        raise CommandError(_("--budget must be a positive number of CPU seconds"))
    from bots.search import Budget

    return Budget(cpu_seconds=args.budget)


def _against_the_shadow(args: argparse.Namespace, report: Any) -> dict[str, Any]:
    """The Free Peoples' win rate in this scenario and difficulty, for games against Shadow bots."""
    from tools.simulate_bots import win_rate

    if args.game != "wotr" or not str(getattr(args, "bots", "") or "").strip():
        return {}
    return win_rate(args, report)


def _simulate_against_bots(args: argparse.Namespace, game_kind: Any) -> int:
    """Every scenario (``--scenario all``) at each difficulty (``--difficulty both``)."""
    from domain.wotr.options import scenario_keys
    from tools.simulate_bots import TableError, show, table

    try:
        rows = table(args, game_kind, scenario_keys())
    except TableError as error:
        raise CommandError(str(error)) from None
    print(show(rows, args.json, args.bot))
    return 0


def cmd_log(args: argparse.Namespace) -> int:
    from projections.story import runs, story_with_causes

    app = _app(args)
    game_id = _game_id(app, args.game)
    rules = app.rules_of(game_id)
    events = app.history(game_id)
    _warn_if_broken(game_id, rules, events)
    told = (
        ((event.seq, because), line)
        for event, line, because in story_with_causes(rules, events)
        if args.start <= event.seq and (args.end is None or event.seq <= args.end)
    )
    # a run of lines saying the same of different cards, for the same cause, is told once
    for items, line in runs(told, lambda one, next_one: one[1] == next_one[1]):
        (first, because), last = items[0], items[-1][0]
        print(
            f"{first:6}  {line}"
            + ("  " + say("(events %(first)s to %(last)s)", first=first, last=last) if last != first else "")
        )
        if not args.brief:
            print("        " + say("because: %(cause)s", cause=because))
    return 0


def cmd_state(args: argparse.Namespace) -> int:
    app = _app(args)
    game_id = _game_id(app, args.game)
    rules = app.rules_of(game_id)
    _warn_if_broken(game_id, rules, app.history(game_id, lte=args.at))
    state = app.state_at(game_id, args.at)
    _check_viewer(rules, state, args.viewer, "--as")
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
            from tools.play import ordered, screen, show_decision

            show_decision(decision, sys.stdout, table, screen(rules.name), ordered(decision))
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


def cmd_analyze(args: argparse.Namespace) -> int:
    from bots.analysis import CannotAnalyse
    from tools.analyze import ArgumentError, run

    app = _app(args)
    game_id = _game_id(app, args.game)
    try:
        return run(app, game_id, args)
    except (ArgumentError, CannotAnalyse) as error:
        raise CommandError(str(error)) from None


def cmd_fork(args: argparse.Namespace) -> int:
    from service.lineage import fork_recorded

    app = _app(args)
    game_id = _game_id(app, args.game)
    game = fork_recorded(app, game_id, args.at)
    print(game.id)
    print(
        say(
            "forked from %(game)s at event %(at)s; now at version %(version)s",
            game=game_id,
            at=args.at,
            version=game.version,
        ),
        file=sys.stderr,
    )
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    from tools.records import is_record_path, verify_file

    if is_record_path(args.game):
        return verify_file(args.game)
    if not re.fullmatch(r"[0-9a-fA-F-]+", args.game):  # not an id or a prefix of one: a file
        raise CommandError(say("no record file %(file)s: it is missing (nor is it a game id)", file=repr(args.game)))
    app = _app(args)
    game_id = _game_id(app, args.game)
    try:
        events = app.history(game_id)
    except DamagedGame as error:
        print(f"{game_id}: " + say("FAILED at event %(seq)s: %(reason)s", seq=error.version, reason=error.reason))
        return 1
    verdict = verify(app.rules_of(game_id), events)
    print(f"{game_id}: {verdict_told(verdict)}")
    return verdict.exit_code


def cmd_export(args: argparse.Namespace) -> int:
    from tools.records import export_game, export_remote

    if args.server or args.token:
        if not (args.server and args.token):
            raise CommandError(_("exporting from a server needs both --server HOST:PORT and --token TOKEN"))
        return export_remote(args.server, args.token, args.game or "", args.output, args.tls_ca)
    if not args.game:
        raise CommandError(_("name the game to export (see: westmarch games)"))
    app = _app(args)
    return export_game(app, _game_id(app, args.game), args.output)


def cmd_import(args: argparse.Namespace) -> int:
    from tools.records import import_file

    return import_file(_app(args), args.file)


def cmd_tokens(args: argparse.Namespace) -> int:
    from service.commands import GameService
    from service.errors import AlreadyExists, BadRequest, PermissionDenied, Unauthenticated

    app = _app(args)
    game_id = _game_id(app, args.game)
    if args.rotate:
        try:
            token = GameService(app).rotate_token(game_id, args.rotate)
        except (BadRequest, AlreadyExists, Unauthenticated) as error:
            raise CommandError(str(error)) from None
        print(
            say(
                "new token of %(viewer)s in game %(game)s (shown once; the old one is refused from now on):",
                viewer=args.rotate,
                game=game_id,
            )
        )
        print(f"  {args.rotate:10} {token}")
        return 0
    try:
        access = GameService(app).issue_tokens(game_id)
    except PermissionDenied as error:
        raise CommandError(str(error)) from None
    print(say("tokens for game %(game)s (shown once; the server keeps only their hashes):", game=game_id))
    for seat, token in access.seats.items():
        print(f"  {seat:10} {token}")
    print(f"  {'spectator':10} {access.spectator}")  # the viewers' names, as --rotate takes them
    print(f"  {'referee':10} {access.referee}")
    return 0


def cmd_epic(args: argparse.Namespace) -> int:
    """The organizer's sheet of an epic event (after counting what the groups did since)."""
    from tools.epic import report_dict, report_text, show_epic

    app = _app(args)
    try:
        report = show_epic(app, _epic_id(app, args.epic_id))
    except (ValueError, LookupError) as error:
        raise CommandError(str(error)) from None
    print(json.dumps(report_dict(report), indent=2) if args.json else report_text(report))
    return 0


def cmd_fixture(args: argparse.Namespace) -> int:
    from tools.fixtures import run_files

    if args.action == "capture":
        return _capture(args)
    missing = [f for f in args.files if not os.path.exists(f)]
    if missing:
        raise CommandError(say("no fixture file %(file)s", file=repr(missing[0])))
    return run_files(args.files, verbose=args.verbose)


def _capture(args: argparse.Namespace) -> int:
    from tools.capture import CaptureError, capture

    app = _app(args)
    game_id = _game_id(app, args.game)
    rules = app.rules_of(game_id)
    at = args.at if args.at is not None else app.version(game_id)
    state = app.state_at(game_id, at)
    try:
        text = capture(rules, state, args.name or f"game {game_id} at version {at}")
    except CaptureError as error:
        raise CommandError(str(error)) from None
    if args.output in (None, "-"):
        sys.stdout.write(text)
    else:
        with open(args.output, "w", encoding="utf-8") as out:
            out.write(text)
        print(
            say("wrote %(file)s: the table of game %(game)s at version %(at)s", file=args.output, game=game_id, at=at),
            file=sys.stderr,
        )
    return 0


def cmd_decks(args: argparse.Namespace) -> int:
    from tools.decks import listing

    print(listing())
    return 0


def cmd_deck_show(args: argparse.Namespace) -> int:
    from tools.decks import show

    text, legal = show(args.deck)
    print(text)
    return 0 if legal else 1


def cmd_i18n(args: argparse.Namespace) -> int:
    """The catalogs' maintenance (tools/i18n.py); it needs Babel, which the dev extra installs."""
    try:
        from tools.i18n import main as i18n_main
    except ImportError as error:
        raise CommandError(say("westmarch i18n needs Babel (pip install -e .[dev]): %(error)s", error=error)) from None
    return i18n_main([args.action, *(f"--lang={lang}" for lang in args.only or ())])


# -- the parser --------------------------------------------------------------------------


def _language_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--lang",
        metavar="LANG",
        help=_("language of what is shown: %(languages)s (default: WESTMARCH_LANG, else LANG, else en)")
        % {"languages": ", ".join(LANGUAGES)},
    )


def _lang_flag(argv: Sequence[str]) -> str | None:
    """The last ``--lang`` of a command line, read before it is parsed so that ``--help``
    and the parser's own errors are said in that language."""
    found: str | None = None
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv):
            found = argv[i + 1]
        elif arg.startswith("--lang="):
            found = arg.partition("=")[2]
    return found


def parser() -> argparse.ArgumentParser:
    speech = _Parser(add_help=False)
    _language_argument(speech)
    common = _Parser(add_help=False)
    _language_argument(common)
    common.add_argument("--db", metavar="PATH", help="SQLite file to use (default: westmarch.db, or SQLITE_DBNAME)")
    common.add_argument("--postgres", metavar="DSN", help="use PostgreSQL, e.g. postgresql://user@127.0.0.1:5432/db")

    top = _Parser(
        prog="westmarch",
        description="Event-sourced Lord of the Rings card games: play, simulate, audit and replay.",
    )
    _language_argument(top)
    sub: _SubParsers = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, help: str, fn: Any, store: bool = True) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help, description=help, parents=[common] if store else [speech])
        p.set_defaults(fn=fn)
        return p

    games_known = sorted(KINDS)

    p = command("new", "start a game and print its id", cmd_new, store=False)
    new_sub = p.add_subparsers(dest="game", required=True, metavar="GAME")
    for name in games_known:
        g = new_sub.add_parser(name, help=KINDS[name].title, parents=[common])
        KINDS[name].add_arguments(g)
        g.add_argument("--seed", type=int, default=1, help="seed of all chance in the game (default: %(default)s)")

    p = command("games", "list the games in the store, newest first", cmd_games)
    p.add_argument("--limit", type=int, metavar="N", help="only the N newest games listed")
    p.add_argument("--game", choices=sorted(KINDS), help="only games of this game")
    p.add_argument("--scenario", metavar="KEY", help="only games of this scenario (e.g. passage-through-mirkwood)")
    status = p.add_mutually_exclusive_group()
    status.add_argument("--over", action="store_true", help="only the games that are over (and not damaged)")
    status.add_argument("--in-progress", action="store_true", help="only the games still played (and not damaged)")
    p.add_argument("--damaged", action="store_true", help="only the damaged games")

    p = command("play", "play a game in the terminal (bots may take seats)", cmd_play)
    p.add_argument("game", nargs="?", help="game id or prefix (default: the latest unfinished game)")
    p.add_argument("--seat", action="append", help="seat played here (repeatable; default: every seat not a bot)")
    p.add_argument("--bot", action="append", metavar="SEAT=KIND", help="hand a seat to a bot: random or greedy")
    p.add_argument("--seed", type=int, default=1, help="seed for the bots (default: %(default)s)")
    p.add_argument(
        "--auto-pass", action="store_true", help="pass every action window for the seats played here (key a toggles)"
    )
    p.add_argument("--server", metavar="HOST:PORT", help="play a seat of a game on a Westmarch server")
    p.add_argument("--token", help="with --server: the seat's token (it names the game)")
    p.add_argument("--tls", action="store_true", help="with --server: connect with TLS (system roots)")
    p.add_argument("--tls-ca", metavar="PEM", help="with --server: connect with TLS, trusting this CA certificate")

    p = command("serve", "run the gRPC game service (SQLite by default, PostgreSQL by POSTGRES_*)", cmd_serve)
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: %(default)s)")
    p.add_argument("--port", type=int, default=50051, help="port (0: any free port; default: %(default)s)")
    p.add_argument("--workers", type=int, help="threads for store and rules work (default: 12)")
    p.add_argument("--tls-cert", metavar="PEM", help="serve TLS with this certificate chain")
    p.add_argument("--tls-key", metavar="PEM", help="and this private key")
    p.add_argument(
        "--web-port",
        type=int,
        metavar="P",
        help="also serve the web table at http://HOST:P/ (open it as http://HOST:P/#token=TOKEN; 0: any free port)",
    )
    p.add_argument("--grace", type=float, default=5.0, help="seconds to finish calls on SIGTERM (default: %(default)s)")
    p.add_argument(
        "--private",
        action="store_true",
        help="list no game over gRPC (ListGames is refused): a game is reached with its tokens only",
    )
    p.add_argument(
        "--epic-groups",
        type=int,
        default=Limits().groups_per_epic,
        metavar="N",
        help="most groups (games) one Epic Multiplayer event may open (default: %(default)s)",
    )
    p.add_argument("--log-level", default="info", choices=("debug", "info", "warning", "error"))
    p.add_argument(
        "--bot-sweep",
        type=float,
        default=SWEEP_SECONDS,
        metavar="SECONDS",
        help="how often, in seconds, to look for games waiting for a bot that no server process is playing "
        "(one whose process died); 0: only at start (default: %(default)s)",
    )
    p.add_argument(
        "--processes",
        type=int,
        default=1,
        help="server processes sharing the port (SO_REUSEPORT) and the store, to use every core; "
        "meant for PostgreSQL (default: %(default)s)",
    )
    p.add_argument("--reuse-port", action="store_true", help=argparse.SUPPRESS)

    p = command("bots", "bot clients playing games on a server over gRPC", cmd_bots, store=False)
    p.add_argument("--server", action="append", required=True, metavar="HOST:PORT", help="server (repeatable)")
    p.add_argument("--games", type=int, default=10, help="how many games (default: %(default)s)")
    p.add_argument("--concurrency", type=int, default=4, help="games played at once (default: %(default)s)")
    p.add_argument("--players", type=int, default=1, help="seats per game, each its own client (default: %(default)s)")
    p.add_argument("--bot", choices=("random", "greedy"), default="random", help="(default: %(default)s)")
    p.add_argument("--seed", type=int, default=1, help="seed of the first game (default: %(default)s)")
    p.add_argument("--difficulty", choices=("standard", "easy"), default="standard", help="LCG difficulty")
    p.add_argument("--game", choices=sorted(KINDS), default="lcg", help="which game (default: %(default)s)")
    p.add_argument("--scenario", default="", help="scenario key (default: the game's first scenario)")
    p.add_argument("--tls-ca", metavar="PEM", help="connect with TLS, trusting this CA certificate")

    p = command("simulate", "play many games with bots and report the results", cmd_simulate, store=False)
    sim_sub = p.add_subparsers(dest="game", required=True, metavar="GAME")
    for name in games_known:
        g = sim_sub.add_parser(name, help=KINDS[name].title, parents=[common])
        KINDS[name].add_arguments(g)
        g.add_argument("--games", type=int, default=100, help="how many games (default: %(default)s)")
        g.add_argument("--seed", type=int, default=1, help="seed of the first game (default: %(default)s)")
        g.add_argument(
            "--bot",
            choices=("random", "greedy", "search"),
            default="greedy",
            help="the bot in every seat (default: %(default)s)",
        )
        g.add_argument(
            "--budget",
            type=float,
            default=2.0,
            metavar="SECONDS",
            help="--bot search: CPU seconds it may spend per decision on average (default: %(default)s)",
        )
        g.add_argument("--json", action="store_true", help="print the report as JSON")
        g.add_argument("--store", action="store_true", help="keep the games in the store")

    p = command("epic", "an epic event's global values and each group's share (the organizer's sheet)", cmd_epic)
    p.add_argument("epic_id")
    p.add_argument("--json", action="store_true", help="print the sheet as JSON")

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

    p = command(
        "analyze",
        "each answer to a decision valued by search (its chance of winning, from what the seat knew then), "
        "or a game's decisive moments (--swings); writes nothing to the game",
        cmd_analyze,
    )
    from tools.analyze import add_arguments as analyze_arguments

    analyze_arguments(p)

    p = command("fork", "a new game with the first N events of another, to try another way", cmd_fork)
    p.add_argument("game")
    p.add_argument("--at", type=int, required=True, help="number of events to keep")

    p = command(
        "verify",
        "check a game's hash chain and re-execute its decisions from the seed: a stored game, or a record "
        "file offline (no store); exit 0 ok, 1 chain broken (tampering or damage), 3 chain intact but "
        "re-execution differs (a rules change), 4 unknown ruleset or rules version",
        cmd_verify,
    )
    p.add_argument("game", metavar="GAME|FILE", help="game id or prefix, or a record file ('-' for standard input)")

    p = command("export", "write a game's record: a header, then every event with its cause and hash", cmd_export)
    q = command("import", "store a game record as a game (refused, writing nothing, if it is damaged)", cmd_import)
    record_arguments(p, q)

    p = command(
        "tokens",
        "issue the seat, spectator and referee tokens of a game started with 'new', or replace one (--rotate)",
        cmd_tokens,
    )
    p.add_argument("game")
    p.add_argument(
        "--rotate",
        metavar="VIEWER",
        help="replace this viewer's token (a seat such as p1, spectator or referee): the old one is refused at once",
    )

    p = command("fixture", "run fixture files (set up a position, script decisions, check)", cmd_fixture, store=False)
    fix_sub = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    g = fix_sub.add_parser("run", help="run fixture files; exits 1 if an expectation fails", parents=[speech])
    g.add_argument("files", nargs="+", help="fixture files (TOML) or folders of them")
    g.add_argument("-v", "--verbose", action="store_true", help="print the events, as the table read then")
    g = fix_sub.add_parser(
        "capture",
        help="write the table of a stored game at a version as a fixture file that 'fixture run' accepts",
        parents=[common],
    )
    g.add_argument("game", help="game id or prefix")
    g.add_argument("--at", type=int, help="version (default: the latest)")
    g.add_argument("-o", "--output", help="file to write (default: standard output)")
    g.add_argument("--name", help="the fixture's name (default: the game and version)")

    command("decks", "list the ready-made LCG decks", cmd_decks, store=False)

    p = command("deck", "look at an LCG deck", cmd_deck_show, store=False)
    deck_sub = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    g = deck_sub.add_parser(
        "show",
        parents=[speech],
        help="print a deck and whether it is legal (exit 1 naming each problem if not)",
        description="Print a deck (a RingsDB deck export, an OCTGN .o8d deck, a list of cards, or a ready-made "
        "deck's name) and whether it is legal: 1 to 3 heroes, each unique, at most 3 copies of a title, "
        "every card one the engine plays. Exit 1 if it is not, with one line per problem.",
    )
    g.add_argument("deck", type=deck_source, metavar="FILE", help="deck file, or a ready-made deck (westmarch decks)")

    p = command(
        "i18n",
        "maintain the translation catalogs: extract the messages, update each language's .po, compile the .mo, check",
        cmd_i18n,
        store=False,
    )
    p.add_argument(
        "action",
        nargs="?",
        choices=("extract", "update", "compile", "check", "all"),
        default="all",
        help="what to do (default: %(default)s: extract, update and compile)",
    )
    p.add_argument(
        "--only", action="append", choices=LANGUAGES[1:], metavar="LANG", help="only this language (repeatable)"
    )

    p = command("bench", "measure the engine and write BENCHMARKS.md", benchmark("bench"), store=False)
    p.add_argument("--output", default="BENCHMARKS.md", help="file to write (default: %(default)s)")
    p.add_argument("--quick", action="store_true", help="smaller runs (for a smoke test)")

    p = command(
        "bench-load",
        "measure the service under load (CPU against the echo server, a flood, PostgreSQL processes, a soak)",
        benchmark("bench_load"),
        store=False,
    )
    p.add_argument("--output", default="BENCHMARKS.md", help="file to write (default: %(default)s)")
    p.add_argument("--quick", action="store_true", help="short runs (seconds, not tens of seconds)")
    p.add_argument("--soak-minutes", type=float, default=0, help="also soak one server this long (e.g. 10)")
    p.add_argument("--soak-only", action="store_true", help="only the soak (with --soak-minutes)")
    p.add_argument("--flood-only", action="store_true", help="only the fairness under a flood, printed, not written")

    p = command(
        "bench-service", "measure the gRPC service and write its section of BENCHMARKS.md", benchmark("bench_service")
    )
    p.add_argument("--output", default="BENCHMARKS.md", help="file to write (default: %(default)s)")
    p.add_argument("--quick", action="store_true", help="smaller runs (for a smoke test)")
    p.add_argument("--games", type=int, default=1000, help="live games for the memory figure (default: %(default)s)")

    p = command("bench-records", "measure game records (size, export, import, verify)", benchmark("bench_records"))
    p.add_argument("--output", default="BENCHMARKS.md", help="file to write (default: %(default)s)")
    p.add_argument("--quick", action="store_true", help="smaller runs (for a smoke test)")

    p = command(
        "bench-wotr", "measure War of the Ring simulation, write its BENCHMARKS.md section", benchmark("bench_wotr")
    )
    p.add_argument("--output", default="BENCHMARKS.md", help="file to write (default: %(default)s)")
    p.add_argument("--quick", action="store_true", help="smaller runs (for a smoke test)")

    p = command(
        "bench-compiled",
        "the compiled core beside pure Python, measure by measure; writes its BENCHMARKS.md section",
        benchmark("bench_compiled"),
        store=False,
    )
    from tools.bench_compiled import add_arguments as bench_compiled_arguments

    bench_compiled_arguments(p)

    p = command(
        "bench-peers",
        "Westmarch beside peer engines run from outside the repository; writes its BENCHMARKS.md section",
        benchmark("bench_peers"),
        store=False,
    )
    from tools.bench_peers import add_arguments as bench_peers_arguments

    bench_peers_arguments(p)

    p = command(
        "bench-decks",
        "the greedy LCG bot with ready-made and bad decks in each scenario; writes its BENCHMARKS.md section",
        benchmark("bench_decks"),
        store=False,
    )
    p.add_argument("--output", default="BENCHMARKS.md", help="file to write (default: %(default)s)")
    p.add_argument("--games", type=int, default=50, help="games per scenario and deck (default: %(default)s)")
    p.add_argument("--seed", type=int, default=1, help="seed of the first game (default: %(default)s)")
    p.add_argument("--quick", action="store_true", help="3 games per scenario and deck (for a smoke test)")

    p = command(
        "bench-bots",
        "the greedy and the search bots' win rates in each scenario, and the search's CPU per decision; "
        "writes its BENCHMARKS.md section",
        benchmark("bench_bots"),
        store=False,
    )
    from tools.bench_bots import add_arguments as bench_bots_arguments

    bench_bots_arguments(p)
    return top


def _check_arguments(args: argparse.Namespace) -> None:
    """What argparse cannot refuse by type alone: a count below one, a bot without its kind."""
    players = getattr(args, "players", None)
    if players is not None and players < 1:
        raise CommandError(say("--players %(n)s: a game has 1 to 4 players", n=players))
    if args.command == "play":
        from bots import BOTS

        for spec in args.bot or []:
            seat, equals, bot = spec.partition("=")
            if not (seat and equals and bot):
                raise CommandError(
                    say(
                        "--bot %(spec)s: name the seat and its bot, e.g. --bot p2=greedy (%(bots)s)",
                        spec=spec,
                        bots=", ".join(BOTS),
                    )
                )


def _new_sqlite_file(args: argparse.Namespace) -> str | None:
    """The SQLite file a command that may create a store would create (None: it exists, or
    the store is not a SQLite file), so a refused command can take it away again."""
    if args.command not in CREATES_STORE - {"serve"} or not hasattr(args, "db"):
        return None
    path = _sqlite_path(store_env(db=args.db, postgres=getattr(args, "postgres", None)))
    return path if path is not None and not os.path.lexists(path) else None


def _drop_if_empty(path: str) -> None:
    """Remove a SQLite file this command made if it holds no row at all (a refused command
    leaves no empty store behind; a file with anything in it is kept)."""
    if not os.path.isfile(path):
        return
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            tables = [t for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            if any(db.execute(f'SELECT 1 FROM "{t}" LIMIT 1').fetchone() for t in tables):
                return
    except sqlite3.Error:
        return
    for leftover in (path, f"{path}-wal", f"{path}-shm", f"{path}-journal"):
        if os.path.isfile(leftover):
            os.remove(leftover)


RESULTS = {"won": N_("won"), "lost": N_("lost"), "free": N_("the Free Peoples win"), "shadow": N_("the Shadow wins")}
REASONS = {
    "heroes": N_("all heroes destroyed"),
    "threat": N_("threat 50"),
    "final-score": N_("final score"),
    "sudden-death": N_("sudden death"),
}


def outcome_word(key: str, which: str) -> str:
    """A result (``which`` ``"result"``) or a reason (``"reason"``) of a game's end as a
    report says it: the key itself in English (``lost``, ``heroes``), its words in another
    language (a key with no words, a scenario's own, stays as it is)."""
    words = RESULTS if which == "result" else REASONS
    if language() == "en" or key not in words:
        return key
    return _(words[key])


def _outcome_words(outcome: Any) -> dict[str, str]:
    """How a game ended, as the end of ``play`` says it (``lost (heroes)`` in English)."""
    return {
        "result": outcome_word(str(outcome.result), "result"),
        "reason": outcome_word(str(outcome.reason), "reason"),
    }


def _one_line(text: str) -> str:
    """A refusal naming one problem below its first line (a deck's) is said in one line
    (read after its translation, whose first line may end in a full-width colon)."""
    head, *rest = text.split("\n")
    return f"{head} {rest[0].strip()}" if len(rest) == 1 and head.endswith((":", "：")) else text


def main(argv: Sequence[str] | None = None) -> int:
    """Run a command line, in the language ``--lang``, ``WESTMARCH_LANG`` or ``LANG`` names."""
    given = list(sys.argv[1:] if argv is None else argv)
    try:
        lang = from_environment(_lang_flag(given))
    except ValueError as error:
        print(f"westmarch: {error}", file=sys.stderr)
        return 2
    with speaking(lang):
        return _main(given)


def _main(argv: Sequence[str]) -> int:
    args = parser().parse_args(argv)  # a usage error exits 2, said in one line (_Parser)
    fresh = _new_sqlite_file(args)
    code = 2
    try:
        _check_arguments(args)
        code = int(args.fn(args))
        return code
    except (
        CommandError,
        RecordError,
        SetupError,
        UnknownGame,
        BadVersion,
        RuleError,
        DamagedGame,
        DamagedRecord,
    ) as error:
        print(f"westmarch: {_one_line(error_text(str(error)))}", file=sys.stderr)
        return 2
    except sqlite3.Error as error:
        print(f"westmarch: {_unreadable_store(getattr(args, 'db', None), error)}", file=sys.stderr)
        return 2
    except PersistenceError as error:
        print("westmarch: " + say("the store cannot be used: %(error)s", error=error), file=sys.stderr)
        return 2
    except (msgspec.DecodeError, msgspec.ValidationError) as error:
        print(
            "westmarch: "
            + say(
                "a stored event cannot be read (%(error)s); the store is damaged "
                "(westmarch verify GAME names the first unreadable event)",
                error=error,
            ),
            file=sys.stderr,
        )
        return 2
    except BrokenPipeError:
        # The reader went away (``westmarch log GAME | head``): stop quietly, as Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except OSError as error:
        print(f"westmarch: {error.strerror or error}: {error.filename or ''}".rstrip(": "), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    finally:
        if fresh is not None and code != 0:
            _drop_if_empty(fresh)


if __name__ == "__main__":
    sys.exit(main())
