"""Games waiting for a bot that no server process is playing are taken up by the sweep
(``service/autoplay.py``): by a process that lives on when another dies under ``serve
--processes``, by the Supervisor's restarted child at its start, a window of a seat that
turned auto-pass on, each decision answered once when two processes take a game up at
once, and a store of finished games costs the sweep nothing per tick."""

from __future__ import annotations

import json
import logging
import os
import random
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any
from uuid import UUID

import grpc
import pytest

from bots import is_action_window, random_choice
from domain.kernel.events import DecisionAnswered, DecisionRequested, GameEnded
from service.app import Westmarch, store_env
from service.autoplay import Autoplay
from service.commands import GameService
from service.games import GameRequest, PlayerSetup
from service.lobby import Lobby
from service.records import CommandApplied, command_id
from service.room import SeatPlan
from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
from service.rpc.gen.westmarch.v1 import westmarch_pb2_grpc as pb_grpc
from tests.conftest import POSTGRES_DSN
from tests.rpc_support import ROOT, pg_env, postgres_schema, wait_until

TAKING_UP = "taking up a game waiting for the server"


def _bot_game(seed: int) -> pb.CreateGameRequest:
    """Two seats: p1 a search bot (its first decision, the mulligan, is the game's first:
    its search runs in a process the server spawns then, seconds away), p2 a person."""
    return pb.CreateGameRequest(
        game="lcg",
        players=[pb.PlayerSetup(), pb.PlayerSetup()],
        seating=[pb.SeatPlan(seat="p1", bot="search")],
        seed=seed,
    )


class Serving:
    """``westmarch serve --processes 2`` in a subprocess, its log (every child's JSON lines
    and the Supervisor's words) in a file."""

    def __init__(self, store: list[str], env: dict[str, str], log: Path) -> None:
        command = [sys.executable, "-m", "tools.cli", "serve", "--port", "0", "--processes", "2"]
        command += ["--bot-sweep", "0.3", *store]
        self.log = log
        self._err = log.open("w")
        self.proc = subprocess.Popen(
            command, cwd=ROOT, env={**os.environ, **env}, stdout=subprocess.PIPE, stderr=self._err, text=True
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert "serving on" in line, line
        self.address = line.strip().rsplit(" ", 1)[-1]
        said = [x for x in log.read_text().splitlines() if "server processes:" in x]
        self.children = [int(pid) for pid in said[0].rsplit(":", 1)[1].split(",")]

    def lines(self) -> list[dict[str, Any]]:
        found = []
        for line in self.log.read_text().splitlines():
            if line.startswith("{"):
                try:
                    found.append(json.loads(line))
                except json.JSONDecodeError:  # a line being written
                    continue
        return found

    def served(self, rpc: str, seen: int) -> int:
        """The process that served the first ``rpc`` call logged after ``seen`` such calls."""
        calls: list[int] = []

        def logged() -> bool:
            calls[:] = [x["pid"] for x in self.lines() if x.get("msg") == "call" and x.get("rpc") == rpc]
            return len(calls) > seen

        wait_until(logged, 10)
        return calls[seen]

    def took_up(self, game_id: str) -> list[tuple[int, str]]:
        """Which process took up the game, and when (``start`` or ``sweep``)."""
        return [(x["pid"], x["at"]) for x in self.lines() if x.get("msg") == TAKING_UP and x.get("game") == game_id]

    def close(self) -> None:
        for pid in self.children:
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self._err.close()


def _moved_on(app: Westmarch, game_id: str, version: int) -> bool:
    """Whether the game was answered past ``version`` and waits for its person (p2) now."""
    last = app.last_event(UUID(game_id))
    return (
        last is not None and last.seq > version and isinstance(last, DecisionRequested) and last.decision.seat == "p2"
    )


def _new_child(serving: Serving, known: set[int]) -> int | None:
    """A child process not among ``known`` that has begun to serve (a restarted one)."""
    return next((x["pid"] for x in serving.lines() if x.get("msg") == "serving" and x["pid"] not in known), None)


@contextmanager
def _store(kind: str, folder: Path) -> Iterator[tuple[list[str], dict[str, str], dict[str, str]]]:
    """The serve arguments, its environment and the test's own store environment: a SQLite
    file, or a fresh schema of the local PostgreSQL."""
    if kind == "postgres":
        with postgres_schema() as schema:
            yield ["--postgres", POSTGRES_DSN], {"POSTGRES_SCHEMA": schema}, pg_env(schema)
        return
    db = folder / "games.db"
    yield ["--db", str(db)], {}, store_env(db=str(db))


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_a_bot_game_whose_process_is_killed_is_taken_up(tmp_path: Path, kind: str) -> None:
    """``serve --processes 2``: the process playing a bot's decision is killed (SIGKILL)
    while the bot searches; the other process, living on, takes the game up at its next
    sweep, with no page opening the game. Then the Supervisor's restarted child is killed
    the same way while the other process is stopped (SIGSTOP): the child restarted after it
    takes the game up at its start. Every decision is answered once, nothing is logged as
    an error, and SIGTERM stops them all."""
    with _store(kind, tmp_path) as (arguments, env, app_env):
        serving = Serving(arguments, env, tmp_path / "serve.log")
        app = Westmarch(app_env)
        try:
            first, second = serving.children
            # 1. the creating process dies while its bot searches; the other lives on and takes the game up
            with grpc.insecure_channel(serving.address) as channel:
                access = pb_grpc.GameServiceStub(channel).CreateGame(_bot_game(seed=21)).access
            dead = serving.served("CreateGame", 0)
            os.kill(dead, signal.SIGKILL)
            alive = second if dead == first else first
            last = app.last_event(UUID(access.game_id))
            assert last is not None and last.seq == access.version  # the dead process had not answered
            wait_until(lambda: _moved_on(app, access.game_id, access.version), 60)
            assert (alive, "sweep") in serving.took_up(access.game_id)

            # 2. the restarted child dies as its bot searches, the other one stopped: the next restart takes it up
            wait_until(lambda: _new_child(serving, {first, second}) is not None, 60)
            restarted = _new_child(serving, {first, second})
            assert restarted is not None
            serving.children.append(restarted)
            for n in range(40):  # connections are spread over the children: one that reaches the restarted one
                with grpc.insecure_channel(serving.address) as channel:
                    stub = pb_grpc.GameServiceStub(channel)
                    stub.GetCatalog(pb.GetCatalogRequest())
                    if serving.served("GetCatalog", n) == restarted:
                        later = stub.CreateGame(_bot_game(seed=22)).access
                        break
            else:
                raise AssertionError("no connection reached the restarted process")
            os.kill(alive, signal.SIGSTOP)
            os.kill(restarted, signal.SIGKILL)
            last = app.last_event(UUID(later.game_id))
            assert last is not None and last.seq == later.version
            wait_until(lambda: _moved_on(app, later.game_id, later.version), 60)
            third = _new_child(serving, {first, second, restarted})
            assert third is not None and (third, "start") in serving.took_up(later.game_id)
            serving.children.append(third)
            os.kill(alive, signal.SIGCONT)

            for game_id in (access.game_id, later.game_id):
                answered = [e.decision for e in app.history(UUID(game_id)) if isinstance(e, DecisionAnswered)]
                assert answered and len(answered) == len(set(answered))  # each decision answered once
            serving.proc.send_signal(signal.SIGTERM)
            assert serving.proc.wait(60) == 0
            assert not [x for x in serving.lines() if x["level"] in ("error", "critical")], "an error was logged"
            assert not os.path.exists(f"/proc/{alive}") and not os.path.exists(f"/proc/{third}")
        finally:
            serving.close()
            app.close()


def _one_bot(seed: int, people: int = 0) -> GameRequest:
    """p1 a random bot (its mulligan is the game's first decision), then ``people`` persons."""
    players = tuple(PlayerSetup() for _ in range(1 + people))
    return GameRequest("lcg", players=players, seating=(SeatPlan("p1", bot="random"),))


def test_the_sweep_reads_no_finished_game_and_takes_up_one_left_waiting(tmp_path: Path) -> None:
    """A process sweeping a store of finished games and one waiting for a person reads each
    game's last event once, at its start, and nothing of them in the sweeps after; a game
    another process left waiting for its bot (that process stopped answering) is taken up
    at a sweep, not at the start."""
    env = store_env(db=str(tmp_path / "games.db"))
    app = Westmarch(env)
    service = GameService(app)
    player = Autoplay(service, every=0)
    service.on_commit = player.notify
    finished = [service.create(_one_bot(seed)).game_id for seed in range(4)]
    wait_until(lambda: all(service.state(g).over is not None for g in finished), 120)
    waiting = service.create(_one_bot(9, people=1))
    wait_until(lambda: service.state(waiting.game_id).pending.seat == "p2", 30)  # the bot kept, p2 is asked
    player.close()  # this process answers no more bots: its commits tell no one

    other = GameService(Westmarch(env))
    sweeper = Autoplay(other, every=0.05)
    other.on_commit = sweeper.notify
    try:
        sweeper.sweep()
        wait_until(lambda: sweeper.sweeps >= 3, 30)
        assert (sweeper.looks, sweeper.watched) == (5, 1)  # every game once at start; only p2's is watched
        wait_until(lambda: sweeper.sweeps >= 8, 30)
        assert sweeper.looks == 5  # the sweeps after read none of them again

        left = service.create(_one_bot(11))  # waits for its bot; its own process plays nothing now
        wait_until(lambda: app.version(left.game_id) > left.version, 30)
        wait_until(lambda: sweeper.answered > 0, 30)  # counted once its submit returns, after the save
        assert sweeper.watched >= 1
    finally:
        sweeper.close()
        other.app.close()
        app.close()


def test_a_window_left_waiting_when_its_seat_turned_auto_pass_on_is_passed_at_a_sweep(tmp_path: Path) -> None:
    """A person turns auto-pass on while an action window waits for them, through a process
    that then answers nothing (its ``played`` callback reaches no one, as if it died): the
    sweeping process sees the room change in the notification log and passes the window."""
    env = store_env(db=str(tmp_path / "games.db"))
    app = Westmarch(env)
    service = GameService(app)  # nothing plays here
    access = service.create(GameRequest("lcg", players=(PlayerSetup(),), seating=(SeatPlan("p1", name="Ann"),)), seed=3)
    game_id = access.game_id
    other = GameService(Westmarch(env))
    sweeper = Autoplay(other, every=0.05)
    other.on_commit = sweeper.notify
    try:
        sweeper.sweep()
        rng = random.Random(3)
        for n in range(300):  # the person answers until an action window waits for them
            decision = service.state(game_id).pending
            if is_action_window(decision):
                break
            service.submit_as(game_id, "p1", 0, decision.id, random_choice(decision, rng), f"c{n}")
        else:
            raise AssertionError("no action window came")
        wait_until(lambda: sweeper.sweeps >= 4, 30)  # it looked, and left the person's window alone
        assert service.state(game_id).pending.id == decision.id and sweeper.answered == 0
        Lobby(service).set_seat(game_id, access.seats["p1"], "", auto_pass=True)
        passed = command_id(game_id, "p1", f"auto-pass/{decision.id}")
        wait_until(lambda: isinstance(app.record(passed), CommandApplied), 30)
        # the count is raised once the sweeper's submit returns, a moment after the save is seen
        wait_until(lambda: sweeper.answered >= 1, 30)
    finally:
        sweeper.close()
        other.app.close()
        app.close()


def test_two_processes_taking_up_one_game_at_once_answer_each_decision_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Two processes start at once on a store whose game waits for its bot: both take it up
    at their start and play it to its end side by side. Each decision is saved once (the
    store refuses the second answer at the same version); the one refused gives way quietly,
    finding the other's answer by its command id, and nothing is logged as an error."""
    env = store_env(db=str(tmp_path / "games.db"))
    app = Westmarch(env)
    left = GameService(app).create(_one_bot(5))  # its process plays nothing
    services = [GameService(Westmarch(env)) for _ in range(2)]
    sweepers = [Autoplay(service, every=0.05) for service in services]
    for service, sweeper in zip(services, sweepers, strict=True):
        service.on_commit = sweeper.notify
    try:
        with caplog.at_level(logging.DEBUG, logger="westmarch"):
            for sweeper in sweepers:
                sweeper.sweep()
            wait_until(lambda: isinstance(app.last_event(left.game_id), GameEnded), 120)
        answered = [e for e in app.history(left.game_id) if isinstance(e, DecisionAnswered)]
        # a sweeper counts an answer once its submit returns, a moment after the save is seen
        wait_until(lambda: sum(s.answered for s in sweepers) >= len(answered), 30)
        assert len({e.decision for e in answered}) == len(answered) == sum(s.answered for s in sweepers)
        assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
    finally:
        for sweeper in sweepers:
            sweeper.close()
        for service in services:
            service.app.close()
        app.close()


def test_serve_refuses_a_negative_sweep_interval(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from tools.cli import main

    assert main(["serve", "--port", "0", "--db", str(tmp_path / "g.db"), "--bot-sweep", "-1"]) == 2
    assert "--bot-sweep cannot be negative" in capsys.readouterr().err
