"""Clients of the gRPC game service: a person at the terminal, and bots.

``play_remote`` plays one seat with the same terminal table as local play. ``run_bots``
creates games with ``CreateGame`` and plays every seat of each as its own client, with its
own token: each seat watches the game (``Watch``) and answers its decisions as they come,
retrying on ABORTED (someone else's command won a race), until the game ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import statistics
import sys
import time
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, TextIO, TypeVar

import grpc
import msgspec
from grpc import aio

from bots import make_bot
from domain.kernel.decisions import Choice, Decision, RuleError
from domain.kernel.events import Outcome
from projections.i18n import language, say
from projections.prompts import error_text
from service.rpc.convert import decision_from_pb
from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
from service.rpc.gen.westmarch.v1 import westmarch_pb2_grpc as pb_grpc
from tools.progress import Progress

RECONNECTS = 50
"""Consecutive failed reconnections (0.2 s apart) before a bot seat gives up."""
RETRIES = 6
"""Attempts of one call that failed with a retryable status, with backoff between them."""
RETRYABLE = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.ABORTED)
"""What a retry may cure: the server or its store is briefly away, or another command won
a race. Calls are retried as they were sent: a create with its request id and a decision
with its command id are applied once however often they arrive."""
T = TypeVar("T")


def backoff(attempt: int) -> float:
    """Seconds to wait before retry ``attempt`` (1, 2, ...): exponential, with jitter."""
    ceiling: float = min(2.0, 0.05 * 2.0**attempt)
    return ceiling * (0.5 + random.random() / 2)


def retrying(call: Callable[[], T], codes: tuple[grpc.StatusCode, ...] = RETRYABLE) -> T:
    """``call()``, retried with backoff while it fails with one of ``codes``."""
    for attempt in range(1, RETRIES + 1):
        try:
            return call()
        except grpc.RpcError as error:
            if error.code() not in codes or attempt == RETRIES:
                raise
            time.sleep(backoff(attempt))
    raise AssertionError("unreachable")


async def retrying_async(call: Callable[[], Awaitable[T]], codes: tuple[grpc.StatusCode, ...] = RETRYABLE) -> T:
    """``await call()``, retried with backoff while it fails with one of ``codes``."""
    for attempt in range(1, RETRIES + 1):
        try:
            return await call()
        except aio.AioRpcError as error:
            if error.code() not in codes or attempt == RETRIES:
                raise
            await asyncio.sleep(backoff(attempt))
    raise AssertionError("unreachable")


CHANNEL_OPTIONS = [
    ("grpc.max_receive_message_length", 64 * 1024 * 1024),
    # each channel its own connection, so clients spread over the processes of a server
    # started with --processes (connections, not calls, are what the kernel distributes)
    ("grpc.use_local_subchannel_pool", 1),
]


def decode_table(game: str, data: bytes) -> Any:
    """A view's table (JSON) as the game's own view type, for renderers and bots."""
    if game == "lcg":
        from projections.lcg import TableView

        return msgspec.json.decode(data, type=TableView)
    if game == "wotr":
        from projections.wotr import TableView as WotrTable

        return msgspec.json.decode(data, type=WotrTable)
    return msgspec.json.decode(data)


def _credentials(tls_ca: str | None) -> grpc.ChannelCredentials:
    root = None
    if tls_ca:
        with open(tls_ca, "rb") as f:
            root = f.read()
    return grpc.ssl_channel_credentials(root_certificates=root)


def channel(address: str, tls_ca: str | None = None, tls: bool = False) -> grpc.Channel:
    if tls or tls_ca:
        return grpc.secure_channel(address, _credentials(tls_ca), options=CHANNEL_OPTIONS)
    return grpc.insecure_channel(address, options=CHANNEL_OPTIONS)


def aio_channel(address: str, tls_ca: str | None = None, tls: bool = False) -> aio.Channel:
    if tls or tls_ca:
        return aio.secure_channel(address, _credentials(tls_ca), options=CHANNEL_OPTIONS)
    return aio.insecure_channel(address, options=CHANNEL_OPTIONS)


# -- a person at the terminal ------------------------------------------------------------


@dataclass
class _Now:
    pending: Decision | None
    over: Outcome | None


class RemoteSeat:
    """One seat of a game on a server, seen through its token.

    Every request that has a ``language`` field (GetView, Watch, SubmitDecision) carries the
    language spoken when the seat was taken (``--lang`` / ``WESTMARCH_LANG`` / ``LANG``), so
    the server's own words (its refusals, the events' and options' texts) come back in it."""

    def __init__(self, stub: pb_grpc.GameServiceStub, token: str, game_id: str = "", lang: str | None = None) -> None:
        self.stub, self.token, self.game_id = stub, token, game_id
        self.language = lang if lang is not None else language()
        self.view = self._get_view(game_id)
        self.game_id = self.view.game_id
        self.answered = 0

    def _get_view(self, game_id: str) -> pb.View:
        return self.stub.GetView(pb.GetViewRequest(game_id=game_id, token=self.token, language=self.language)).view

    def _mine(self) -> bool:
        view = self.view
        return view.HasField("decision") and view.decision.id > self.answered

    def state(self) -> _Now:
        """Wait (watching the game) until this seat must decide or the game is over."""
        if not (self._mine() or self.view.over):
            stream: Iterator[pb.WatchResponse] = self.stub.Watch(
                pb.WatchRequest(
                    game_id=self.game_id, token=self.token, from_version=self.view.version, language=self.language
                )
            )
            for update in stream:
                self.view = update.view
                if self._mine() or self.view.over:
                    break
        view = self.view
        outcome = Outcome(view.outcome.result, view.outcome.reason, view.outcome.winner or None) if view.over else None
        return _Now(decision_from_pb(view.decision) if self._mine() else None, outcome)

    def submit(self, decision: Decision, choice: Choice) -> None:
        request = pb.SubmitDecisionRequest(
            game_id=self.game_id,
            token=self.token,
            expected_version=self.view.version,
            decision_id=decision.id,
            choice=list(choice),
            command_id=uuid.uuid4().hex,
            language=self.language,
        )
        try:
            # a lost connection is retried with the same command id: applied once at most
            result = retrying(lambda: self.stub.SubmitDecision(request), (grpc.StatusCode.UNAVAILABLE,))
        except grpc.RpcError as error:
            raise RuleError(f"{error.code().name}: {error.details()}") from None
        self.answered = decision.id
        self.view = self._get_view(self.game_id)
        del result

    def table(self, viewer: str = "") -> Any:
        return decode_table(self.view.game, self.view.table)

    def take_back(self, seat: str) -> str:
        """Ask (or consent) that ``seat`` take back its last decision; once it happens, this
        seat plays on in the new game with the same token."""
        try:
            response = self.stub.TakeBack(pb.TakeBackRequest(game_id=self.game_id, token=self.token, seat=seat))
        except grpc.RpcError as error:
            raise RuleError(f"{error.code().name}: {error.details()}") from None
        if not response.game_id:
            waiting = ", ".join(response.waiting_for)
            return "  " + say(
                "asked to take back %(seat)s's decision of version %(at)s; waiting for %(waiting)s to agree"
                " (they type: u %(seat)s), or for the referee",
                seat=response.seat,
                at=response.at,
                waiting=waiting,
            )
        source, self.game_id, self.answered = self.game_id, response.game_id, 0
        self.view = self._get_view(self.game_id)
        return say(
            "%(seat)s's last decision is taken back: play goes on in game %(game)s; %(source)s is kept",
            seat=response.seat,
            game=self.game_id,
            source=source,
        )

    def values(self, decision: Decision, seconds: float) -> Any:
        """The values of this seat's answers to ``decision`` (AnalyzeDecision, this seat's knowledge)."""
        from bots.analysis import Analysis, Valued

        request = pb.AnalyzeDecisionRequest(
            game_id=self.game_id, token=self.token, version=decision.id, budget_seconds=seconds
        )
        try:
            found = self.stub.AnalyzeDecision(request)
        except grpc.RpcError as error:
            raise ValueError(f"{error.code().name}: {error.details()}") from None
        return Analysis(
            version=found.version,
            decision=decision,
            knowledge=found.knowledge,
            seed=found.seed,
            options=tuple(Valued(tuple(o.choice), o.label, o.value, o.low, o.high, o.rollouts) for o in found.options),
            cpu_seconds=found.cpu_seconds,
        )


def play_remote(
    address: str,
    token: str,
    game_id: str = "",
    tls_ca: str | None = None,
    tls: bool = False,
    read: Callable[[str], str] = input,
    out: TextIO | None = None,
    auto_pass: bool = False,
) -> Outcome | None:
    """Play the token's seat in the terminal until the game ends or the player quits."""
    from tools.games import kind
    from tools.play import Seating, play, screen

    with channel(address, tls_ca, tls) as ch:
        seat = RemoteSeat(pb_grpc.GameServiceStub(ch), token, game_id)
        me = seat.view.viewer
        game_kind = kind(seat.view.game)
        outcome: Outcome | None = play(
            seat.state,
            seat.submit,
            seat.table,
            screen(game_kind.name),
            Seating(humans={me}, auto_pass=auto_pass),
            read,
            out or sys.stdout,
            take_back=seat.take_back,
            hint=seat.values,
        )
        return outcome


# -- bots --------------------------------------------------------------------------------


@dataclass
class BotReport:
    games: int = 0
    finished: int = 0
    results: Counter[tuple[str, str]] = field(default_factory=Counter)
    decisions: int = 0
    aborted: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    latencies: list[float] = field(default_factory=list)
    seconds: float = 0.0

    def text(self) -> str:
        """The report as ``westmarch bots`` prints it, in the language spoken."""
        from tools.cli import outcome_word

        lines = [say("games: %(started)s started, %(finished)s finished", started=self.games, finished=self.finished)]
        for (result, reason), n in sorted(self.results.items()):
            lines.append(f"{outcome_word(result, 'result'):>8}: {n:5}  ({outcome_word(reason, 'reason')})")
        rate = self.decisions / self.seconds if self.seconds else 0.0
        lines.append(
            say(
                "decisions: %(n)s in %(seconds)s s, %(rate)s/s",
                n=f"{self.decisions:,}",
                seconds=f"{self.seconds:.1f}",
                rate=f"{rate:,.0f}",
            )
        )
        lines.append(say("ABORTED (a newer version won; retried from the next view): %(n)s", n=self.aborted))
        if self.latencies:
            ms = sorted(self.latencies)
            p50, p99 = ms[len(ms) // 2], ms[min(len(ms) - 1, int(len(ms) * 0.99))]
            mean = statistics.fmean(ms)
            lines.append(
                say(
                    "SubmitDecision round trip: p50 %(p50)s ms, p99 %(p99)s ms, mean %(mean)s ms",
                    p50=f"{p50:.2f}",
                    p99=f"{p99:.2f}",
                    mean=f"{mean:.2f}",
                )
            )
        for error, n in self.errors.most_common():
            lines.append(say("error: %(error)s x%(n)s", error=error_text(error), n=n))
        return "\n".join(lines)


async def play_seat(
    stub: pb_grpc.GameServiceAsyncStub,
    game_id: str,
    token: str,
    bot: Any,
    from_version: int,
    report: BotReport,
) -> pb.View | None:
    """Play one seat until the game ends; returns the last view."""
    answered = 0
    last: pb.View | None = None
    version = from_version
    retries = 0
    while True:
        stream = stub.Watch(pb.WatchRequest(game_id=game_id, token=token, from_version=version, omit_tables=True))
        try:
            async for update in stream:
                view = update.view
                last, version, retries = view, max(version, view.version), 0
                while view.HasField("decision") and view.decision.id > answered and not view.over:
                    decision = decision_from_pb(view.decision)
                    if not view.table:  # a watched view: fetch the table only if the bot looks at it
                        fetched = await _table_if_needed(stub, bot, decision, game_id, token)
                        if fetched is not None:
                            view = fetched
                    table = view.table
                    choice = bot.choose(decision, lambda t=table, g=view.game: decode_table(g, t))
                    started = time.perf_counter()
                    submit = pb.SubmitDecisionRequest(
                        game_id=game_id,
                        token=token,
                        expected_version=view.version,
                        decision_id=decision.id,
                        choice=list(choice),
                        command_id=uuid.uuid4().hex,
                        include_view=True,
                    )
                    try:
                        # UNAVAILABLE: the same command again (applied once); ABORTED: another
                        # command won, so a newer view comes down the stream and is answered
                        result = await retrying_async(
                            lambda r=submit: stub.SubmitDecision(r),  # type: ignore[misc]
                            (grpc.StatusCode.UNAVAILABLE,),
                        )
                    except aio.AioRpcError as error:
                        if error.code() is grpc.StatusCode.ABORTED:
                            report.aborted += 1
                            break  # a newer view is on its way
                        raise
                    report.latencies.append((time.perf_counter() - started) * 1000)
                    report.decisions += 1
                    answered = decision.id
                    # the same seat may decide again: answer at once, without waiting for the stream
                    view = result.view
                    last, version = view, max(version, view.version)
                if last is not None and last.over:
                    return last
        except aio.AioRpcError as error:
            retries += 1
            if error.code() in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED) and retries < RECONNECTS:
                await asyncio.sleep(0.2)  # reconnect and resume from the last version seen
                continue
            raise
        if last is not None and last.over:
            return last


async def _table_if_needed(
    stub: pb_grpc.GameServiceAsyncStub, bot: Any, decision: Decision, game_id: str, token: str
) -> pb.View | None:
    """The seat's current view with its table, if the bot will look at the table."""
    looked: list[bool] = []

    def view() -> Any:
        looked.append(True)
        raise _Looked

    with contextlib.suppress(_Looked):
        bot.choose(decision, view)
    if not looked:
        return None
    fresh: pb.View = (await stub.GetView(pb.GetViewRequest(game_id=game_id, token=token))).view
    return fresh if fresh.HasField("decision") and fresh.decision.id == decision.id else None


class _Looked(Exception):
    pass


async def bot_game(
    stub: pb_grpc.GameServiceAsyncStub,
    bot: str,
    seed: int,
    players: int,
    report: BotReport,
    difficulty: str = "standard",
    game: str = "lcg",
    scenario: str = "",
) -> str:
    """Create one game and play all its seats concurrently; returns the game id.

    An LCG game has ``players`` seats; a War of the Ring scenario fixes its own seats.
    """
    if game == "lcg":
        request = pb.CreateGameRequest(
            game="lcg",
            scenario=scenario,
            players=[pb.PlayerSetup() for _ in range(players)],
            options={"difficulty": difficulty},
            seed=seed,
        )
    else:
        request = pb.CreateGameRequest(game=game, scenario=scenario, seed=seed)
    request.request_id = uuid.uuid4().hex  # a retried create makes one game, not two
    access = (await retrying_async(lambda: stub.CreateGame(request))).access
    report.games += 1
    seats = [
        play_seat(stub, access.game_id, s.token, make_bot(bot, seed * 10 + i, game), access.version, report)
        for i, s in enumerate(access.seats)
    ]
    views = await asyncio.gather(*seats)
    final = next((v for v in views if v is not None and v.over), None)
    if final is not None:
        report.finished += 1
        report.results[(final.outcome.result, final.outcome.reason)] += 1
    return access.game_id


async def run_bots_async(
    addresses: list[str],
    games: int,
    concurrency: int,
    bot: str = "random",
    seed: int = 1,
    players: int = 1,
    difficulty: str = "standard",
    tls_ca: str | None = None,
    progress: bool | None = None,
    on_game: Callable[[str], None] | None = None,
    game: str = "lcg",
    scenario: str = "",
) -> BotReport:
    report = BotReport()
    workers = max(1, min(concurrency, games))
    # a connection for each game played at once, spread over the servers: each client's
    # streams and calls stay within what a server allows one connection
    channels = [aio_channel(addresses[n % len(addresses)], tls_ca) for n in range(workers)]
    stubs = [pb_grpc.GameServiceStub(c) for c in channels]
    queue: asyncio.Queue[int] = asyncio.Queue()
    for i in range(games):
        queue.put_nowait(i)
    started = time.perf_counter()
    with Progress(games, say("%(n)s bot games over gRPC", n=games), enabled=progress) as bar:

        async def worker(n: int) -> None:
            while not queue.empty():
                i = queue.get_nowait()
                try:
                    game_id = await bot_game(stubs[n], bot, seed + i, players, report, difficulty, game, scenario)
                    if on_game is not None:
                        on_game(game_id)
                except aio.AioRpcError as error:
                    report.errors[f"{error.code().name}: {error.details()}"] += 1
                bar.advance()

        await asyncio.gather(*(worker(n) for n in range(workers)))
    report.seconds = time.perf_counter() - started
    for c in channels:
        await c.close()
    return report


def run_bots(addresses: list[str], games: int, concurrency: int, **kwargs: Any) -> BotReport:
    return asyncio.run(run_bots_async(addresses, games, concurrency, **kwargs))


def random_seed() -> int:
    return random.randrange(1, 2**31)
