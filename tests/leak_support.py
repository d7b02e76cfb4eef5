"""What the leak tests of both games share: an oracle of hidden cards, and a game played over gRPC.

A game's test gives its own rule of what each viewer may not see (:class:`Secrets`), written from
the game's rules and the zones of the referee's folded history, independently of the projections.
A card uid is a leak wherever it appears while the card is hidden both just before and just after
the event that mentions it; a view leaks if it mentions a card hidden at its version. The only
exceptions are a seat's own pending decision (its options may name a card it is shown) and what
an event itself shows that viewer (a card it looked at, a card revealed to all). Wire data is
checked for every viewer: the live stream (a view after every command), the whole history and
sampled time-travel views; every version's view is checked too.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import grpc
import msgspec
import pytest

from bots import random_choice
from domain.kernel.decisions import Decision, Kind
from domain.kernel.events import DecisionRequested, Event, GameEnded
from domain.kernel.ruleset import Ruleset
from domain.kernel.runtime import apply
from domain.kernel.state import State
from service.rpc.convert import decision_from_pb
from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
from service.rpc.server import ThreadedServer
from tests.rpc_support import stub_for, tokens


@dataclass(frozen=True)
class Secrets:
    """One game's rule of secrecy, as its leak test states it."""

    rules: Ruleset[Any]
    hidden_from: Callable[[Any, str], set[int]]
    """The cards a viewer may not see in a state (none once the game is over)."""
    view: Callable[[Any, str], Any]
    """The game's projection of the table, to check every version's view."""
    card_keys: frozenset[str]
    """JSON keys whose integer values are card uids."""
    list_keys: frozenset[str]
    """JSON keys whose lists hold card uids (or pairs led by one: ``[uid, amount]``)."""
    shown: Callable[[Event, str], set[int]]
    """Cards an event itself shows a viewer (a card it looked at, one revealed to all)."""
    nested_keys: frozenset[str] = frozenset()
    """JSON keys whose lists of lists hold nothing but card uids."""
    absent_from_events: tuple[str, ...] = ("seed", "flow")
    """Event body keys no viewer but the referee may be sent."""
    absent_from_views: tuple[str, ...] = ("seed",)
    """Top-level view keys no viewer but the referee may be sent."""


def mentioned(value: Any, secrets: Secrets, key: str = "") -> Iterator[int]:
    """Every card uid a JSON value mentions under a card-ish key."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "zones" and isinstance(v, dict):
                for uids in v.values():
                    yield from uids
            elif k == "payments":
                yield from (p[0] for p in v)
            else:
                yield from mentioned(v, secrets, k)
    elif isinstance(value, list) and key in secrets.nested_keys:
        for item in value:
            yield from (i for i in (item if isinstance(item, list) else [item]) if isinstance(i, int))
    elif isinstance(value, list):
        for item in value:
            if key in secrets.list_keys and isinstance(item, int):
                yield item
            elif key in secrets.list_keys and isinstance(item, list) and item and isinstance(item[0], int):
                yield item[0]
            else:
                yield from mentioned(item, secrets, key)
    elif isinstance(value, int) and not isinstance(value, bool) and key in secrets.card_keys:
        yield value


class Oracle:
    """The referee's history of one game, folded: what each viewer may not see at each version."""

    def __init__(
        self, secrets: Secrets, events: list[Event], viewers: list[str], views_at: set[int] | None = None
    ) -> None:
        """``views_at``: the versions whose views are made for :attr:`states_views` (default:
        every version; the others are left empty)."""
        self.secrets = secrets
        self.events = events
        self.hidden: list[dict[str, set[int]]] = []
        self.pending: list[Decision | None] = []
        rules = secrets.rules
        state: State = rules.new_state()
        self.states_views: dict[str, list[bytes]] = {v: [] for v in viewers}
        for version, event in enumerate([None, *events]):
            if event is not None:
                apply(rules, state, event)
            self.hidden.append({v: secrets.hidden_from(state, v) for v in viewers})
            self.pending.append(state.pending)
            for v in viewers:
                made = views_at is None or version in views_at
                self.states_views[v].append(msgspec.json.encode(secrets.view(state, v)) if made else b"")
        self.over_at = next((e.seq for e in events if isinstance(e, GameEnded)), None)

    def allowed(self, viewer: str, version: int) -> set[int]:
        """Cards shown to ``viewer`` by its own pending decision."""
        out: set[int] = set()
        decision = self.pending[version]
        if decision is not None and decision.seat == viewer:
            out |= {o.card for o in decision.options if o.card is not None}
            if decision.about is not None:
                out.add(decision.about)
            if decision.kind is not Kind.NUMBER:
                out |= {int(i) for o in decision.options for i in o.id.split(",") if i.isdigit()}
        return out

    def check_event(self, viewer: str, event: pb.Event, where: str) -> None:
        seq = event.seq
        if self.over_at is not None and seq >= self.over_at:
            return
        body = msgspec.json.decode(event.body)
        assert not event.hash, f"{where}: event {seq} carries its hash"
        for key in self.secrets.absent_from_events:
            assert key not in body, f"{where}: event {seq} ({event.type}) shows {key}"
        full = self.events[seq - 1]
        if isinstance(full, DecisionRequested) and full.decision.seat != viewer:
            assert "options" not in body["decision"] and "prompt" not in body["decision"], where
        uids = set(mentioned(body, self.secrets))
        if event.cause.HasField("card"):
            uids.add(event.cause.card)
        if event.type == "DecisionAnswered" and body.get("seat") == viewer:
            uids -= self.allowed(viewer, seq - 1)
        if isinstance(full, DecisionRequested) and full.decision.seat == viewer:
            uids -= self.allowed(viewer, seq)
        uids -= self.secrets.shown(full, viewer)
        if event.type == "DecisionAnswered" and body.get("seat") != viewer:
            asked = self.pending[seq - 1]
            if asked is None or asked.kind is not Kind.NUMBER:
                uids |= {int(i) for c in body.get("choice", []) for i in c.split(",") if i.isdigit()}
        leaked = uids & self.hidden[seq - 1][viewer] & self.hidden[seq][viewer]
        assert not leaked, f"{where}: event {seq} ({event.type}) shows {viewer} hidden cards {sorted(leaked)}: {body}"

    def check_view(self, viewer: str, version: int, table: bytes, where: str) -> None:
        if self.over_at is not None and version >= self.over_at:
            return
        data = msgspec.json.decode(table)
        for key in self.secrets.absent_from_views:
            assert data.get(key) is None, f"{where}: version {version} shows {key} to {viewer}"
        assert all(p.get("deck") is None for p in data["players"]), where
        uids = set(mentioned(data, self.secrets)) - self.allowed(viewer, version)
        leaked = uids & self.hidden[version][viewer]
        assert not leaked, f"{where}: the view at version {version} shows {viewer} hidden cards {sorted(leaked)}"


class Watcher(threading.Thread):
    """A viewer's Watch stream from version 0, collected on a thread."""

    def __init__(self, address: str, token: str) -> None:
        super().__init__(daemon=True)
        self.channel, stub = stub_for(address)
        self.stream = stub.Watch(pb.WatchRequest(token=token, from_version=0))
        self.updates: list[pb.WatchResponse] = []
        self.start()
        for _ in range(200):  # the watch began before anything is played (so before the game ends)
            if self.updates:
                break
            threading.Event().wait(0.02)

    def run(self) -> None:
        try:
            for update in self.stream:
                self.updates.append(update)
        except grpc.RpcError as error:
            assert error.code() is grpc.StatusCode.CANCELLED

    def stop(self) -> None:
        self.stream.cancel()
        self.join(10)
        self.channel.close()


def play_and_check(server: ThreadedServer, access: pb.GameAccess, secrets: Secrets, seed: int, limit: int) -> None:
    """Random decisions over gRPC (at most ``limit``), every viewer watching; then every view,
    stream and history each viewer received is checked against the oracle."""
    channel, stub = stub_for(server.address)
    with channel:
        keys = tokens(access)
        viewers = [s.seat for s in access.seats] + ["spectator"]
        watchers = {v: Watcher(server.address, keys[v]) for v in viewers}
        rng = random.Random(seed)
        errors_checked = False
        histories: dict[str, list[pb.Event]] = {v: [] for v in viewers}
        travels: list[tuple[str, int, bytes]] = []
        for n in range(limit):
            referee = stub.GetView(pb.GetViewRequest(token=keys["referee"])).view
            if referee.over:
                break
            if n % 15 == 0:  # while the game is on: the history so far, and a look into the past
                for viewer in viewers:
                    after = histories[viewer][-1].seq if histories[viewer] else 0
                    got = stub.GetHistory(pb.GetHistoryRequest(token=keys[viewer], after_version=after)).events
                    histories[viewer] += got
                    version = rng.randint(1, referee.version)
                    past = stub.GetView(pb.GetViewRequest(token=keys[viewer], version=version)).view
                    travels.append((viewer, version, past.table))
            seat = referee.waiting_for
            mine = stub.GetView(pb.GetViewRequest(token=keys[seat])).view
            decision = decision_from_pb(mine.decision)
            if not errors_checked and len(access.seats) > 1:
                # another seat's try at this decision learns nothing about it from the error
                other = next(v for v in viewers if v not in (seat, "spectator"))
                with pytest.raises(grpc.RpcError) as refused:
                    stub.SubmitDecision(
                        pb.SubmitDecisionRequest(
                            token=keys[other],
                            decision_id=decision.id,
                            choice=[o.id for o in decision.options[:1]],
                            command_id="probe",
                        )
                    )
                assert refused.value.code() is grpc.StatusCode.FAILED_PRECONDITION
                details = refused.value.details() or ""
                assert all(o.label not in details for o in decision.options if len(o.label) > 3)
                assert decision.prompt not in details
                errors_checked = True
            stub.SubmitDecision(
                pb.SubmitDecisionRequest(
                    token=keys[seat],
                    expected_version=mine.version,
                    decision_id=decision.id,
                    choice=list(random_choice(decision, rng)),
                    command_id=f"c{mine.version}",
                )
            )
        game_id = UUID(access.game_id)
        latest = server.app.version(game_id)
        for watcher in watchers.values():
            deadline = 200
            while deadline and not (watcher.updates and watcher.updates[-1].view.version == latest):
                deadline -= 1
                threading.Event().wait(0.05)
            watcher.stop()
        oracle = Oracle(secrets, server.app.history(game_id), viewers)
        over = oracle.over_at is not None
        for viewer in viewers:
            # the live stream: every event, and a view after every command
            streamed = [e for u in watchers[viewer].updates for e in u.events]
            assert [e.seq for e in streamed] == list(range(1, latest + 1)), f"{viewer}'s stream has gaps"
            for event in streamed:
                oracle.check_event(viewer, event, f"{viewer}'s stream")
            for update in watchers[viewer].updates:
                oracle.check_view(viewer, update.view.version, update.view.table, f"{viewer}'s streamed view")
                if update.view.HasField("decision"):
                    assert update.view.decision.seat == viewer
            history = histories[viewer]
            assert [e.seq for e in history] == list(range(1, len(history) + 1)) and len(history) > 20
            for event in history:
                oracle.check_event(viewer, event, f"{viewer}'s history")
            if not over:  # once the game is over, the history reveals everything, as it may
                for event in stub.GetHistory(pb.GetHistoryRequest(token=keys[viewer])).events:
                    oracle.check_event(viewer, event, f"{viewer}'s whole history")
            for version in range(1, latest + 1):
                oracle.check_view(viewer, version, oracle.states_views[viewer][version], "every version")
        for viewer, version, table in travels:
            oracle.check_view(viewer, version, table, f"{viewer}'s view of version {version}")
        referee_history = stub.GetHistory(pb.GetHistoryRequest(token=keys["referee"])).events
        assert all(e.hash for e in referee_history) and len(referee_history) == latest
