"""The feed as the service runs it against the plain reading of each event, for every seat,
the spectator and the referee of both games: the same body, cause, text, run text, hash and
protobuf event, byte for byte, over many random commands.

The plain reading is written out here as the feed first read an event: every kernel type
tested with ``isinstance`` in turn, each event's phrase and field defaults looked up afresh,
the reveal of a card looked at tested the same way, and each projected event a dataclass
made by its generated ``__init__``.
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest

from bots import random_choice
from domain.kernel.decisions import Decision, Kind
from domain.kernel.events import (
    CardsRedrawn,
    DecisionAnswered,
    DecisionRequested,
    DelayedEffectScheduled,
    Event,
    LimitUsed,
    ModifierAdded,
    PositionEvent,
)
from domain.kernel.ruleset import Ruleset
from domain.kernel.runtime import apply
from domain.lcg import events as lcg_events
from projections.feed import REFEREE, SPECTATOR, Feed, Projected, _choice_card, _redact_lasting, projection
from projections.story import Namer, Said, _defaults, continued, generic, phrase_for, run_key
from service.app import Westmarch, store_env
from service.commands import GameService
from service.games import GameRequest, PlayerSetup
from service.rpc import convert

_ENVELOPE = ("seq", "cause", "flow", "draws", "hash")


def _say(kind: str, body: dict[str, Any], name: Namer, seeing: Callable[[int], bool] | None) -> str:
    said = Said(kind, body, name, seeing, _defaults(name.rules.name, kind))
    phrase = phrase_for(name.rules.name, kind)
    return phrase(said) if phrase is not None else generic(said)


def _describe_body(kind: str, body: dict[str, Any], name: Namer, seeing: Callable[[int], bool]) -> str:
    if kind == "DecisionRequested":
        decision = body.get("decision") or {}
        if "options" in decision and "prompt" in decision:
            name.asked = msgspec.convert(decision, Decision)
        elif decision.get("kind") == Kind.NUMBER:
            name.number_asked = decision.get("id")
        if "options" not in decision and isinstance(decision.get("id"), int):
            name.rule_asked = (int(decision["id"]), str(decision.get("rule", "")))
    return _say(kind, body, name, seeing)


def _kernel_refs(event: Event, pending: Decision | None) -> set[int]:
    refs: set[int] = set()
    if isinstance(event, DecisionAnswered):
        for choice in event.choice:
            card = _choice_card(pending, event, choice)
            if card is not None:
                refs.add(card)
    elif isinstance(event, ModifierAdded):
        refs.add(event.modifier.target)
        if event.modifier.source is not None:
            refs.add(event.modifier.source)
    elif isinstance(event, LimitUsed):
        refs.update(int(d) for d in re.findall(r"\d+", event.key))
    elif isinstance(event, PositionEvent):
        for m in event.modifiers:
            refs.update(u for u in (m.target, m.source) if u is not None)
        for limit in event.limits:
            refs.update(int(d) for d in re.findall(r"\d+", limit.key))
    return refs


def _redact_kernel(
    event: Event, body: dict[str, Any], pending: Decision | None, viewer: str, seeing: Callable[[int], bool]
) -> bool:
    if isinstance(event, DecisionRequested):
        decision = event.decision
        if decision.seat == viewer:
            return False
        body["decision"] = {"id": decision.id, "seat": decision.seat, "rule": decision.rule, "kind": decision.kind}
        return True
    if isinstance(event, DecisionAnswered):
        if event.seat == viewer:
            return False
        kept = [c for c in event.choice if (card := _choice_card(pending, event, c)) is None or seeing(card)]
        if len(kept) != len(event.choice):
            body["choice"] = kept
            body["choice_hidden"] = len(event.choice) - len(kept)
            return True
        return False
    if isinstance(event, ModifierAdded):
        changed = False
        for key in ("target", "source"):
            uid = body["modifier"].get(key)
            if uid is not None and not seeing(uid):
                del body["modifier"][key]
                changed = True
        return changed
    if isinstance(event, DelayedEffectScheduled):
        return body["delayed"].pop("env", None) is not None
    if isinstance(event, LimitUsed) and not all(seeing(int(d)) for d in re.findall(r"\d+", event.key)):
        del body["key"]
        return True
    if isinstance(event, PositionEvent):
        return _redact_lasting(body, seeing)
    if isinstance(event, CardsRedrawn):
        body["count"] = len(body.pop("cards", ()))
        body.pop("places", None)
        return True
    return False


def _reveals(game: Any, event: Event, viewer: str) -> set[int]:
    if game.name == "lcg":
        return {event.card} if isinstance(event, lcg_events.CardLookedAt) and event.player == viewer else set()
    return set(game.reveals(event, viewer))


def _plain(rules: Ruleset[Any], viewer: str, events: list[Event], state: Any = None) -> list[tuple[Any, ...]]:
    """Each event as ``viewer`` sees it, read the plain way, as the fields of a Projected
    (``state``: the one before the first event, folded on; a new game's if None)."""
    state = rules.new_state() if state is None else state
    game = projection(rules.name)
    namer = Namer(rules, state)
    out: list[tuple[Any, ...]] = []
    run: list[str] = []
    run_of: tuple[int, str] | None = None
    for event in events:
        body: dict[str, Any] = msgspec.to_builtins(event)
        for key in (*_ENVELOPE, "type"):
            body.pop(key, None)
        kind = type(event).__name__
        cause: dict[str, Any] = {"rule": event.cause.rule}
        for key in ("card", "by", "answer"):
            if getattr(event.cause, key) is not None:
                cause[key] = getattr(event.cause, key)
        pending = state.pending
        reveal = viewer == REFEREE or state.over is not None
        refs: set[int] = set()
        seen: set[int] = set()
        if not reveal:
            body["type"] = kind
            refs = game.refs(body) | _kernel_refs(event, pending)
            if event.cause.card is not None:
                refs.add(event.cause.card)
            seen = {u for u in refs if game.visible(state, viewer, u)}
        apply(rules, state, event)
        changed = False
        if reveal or state.over is not None:
            body.pop("type", None)
            reveal = True
            if isinstance(event, DecisionRequested):
                namer.asked = event.decision
            text = _say(kind, body, namer, None)
        else:
            seen |= {u for u in refs - seen if game.visible(state, viewer, u)}
            seen |= _reveals(game, event, viewer)
            seeing = seen.__contains__
            changed = _redact_kernel(event, body, pending, viewer, seeing)
            changed = game.redact(body, seeing) or changed
            if "seed" in body:
                del body["seed"]
                changed = True
            if "card" in cause and not seeing(cause["card"]):
                del cause["card"]
                changed = True
            body.pop("type", None)
            if changed:
                text = _describe_body(kind, body, namer, seeing)
            else:
                if isinstance(event, DecisionRequested):
                    namer.asked = event.decision
                text = _say(kind, body, namer, None)
        told = run_key(text)
        joined = continued(run, text) if told is not None and told == run_of else None
        run_of = told
        if joined is None:
            run = [text]
        else:
            run.append(text)
        out.append(
            (event.seq, kind, cause, body, text, event.hash if reveal else "", changed and not reveal, joined or "")
        )
    return out


def _fields(p: Projected) -> tuple[Any, ...]:
    return (p.seq, p.type, p.cause, p.body, p.text, p.hash, p.redacted, p.run_text)


def _play(service: GameService, request: GameRequest, seed: int, moves: int) -> tuple[Any, list[Any]]:
    """A game of ``request`` played by the random bot for up to ``moves`` commands, each
    answered by the seat asked: the game's id and each command's (seat, result)."""
    rng = random.Random(seed)
    game_id = service.create(request, seed=seed).game_id
    results = []
    for n in range(moves):
        decision = service.state(game_id).pending
        if decision is None:
            break
        version = service.state(game_id).version
        result = service.submit_as(game_id, decision.seat, version, decision.id, random_choice(decision, rng), f"c{n}")
        results.append((decision.seat, result))
        if result.over:
            break
    return game_id, results


GAMES = [
    (GameRequest("lcg", players=(PlayerSetup(), PlayerSetup())), (3, 4)),
    (GameRequest("lcg"), (11, 12, 13, 14, 15)),
    (GameRequest("wotr", scenario="two-player-duel"), (5,)),
    (GameRequest("wotr", scenario="trilogy"), (8,)),
]


@pytest.mark.parametrize(("request_", "seeds"), GAMES)
def test_the_feed_is_the_plain_reading_for_every_viewer(
    tmp_path: Path, request_: GameRequest, seeds: tuple[int, ...]
) -> None:
    app = Westmarch(store_env(db=str(tmp_path / "games.db")))
    service = GameService(app)
    played = []
    try:
        for seed in seeds:
            game_id, results = _play(service, request_, seed, 150)
            played.append((app.rules_of(game_id), list(app.history(game_id)), results))
    finally:
        app.close()
    assert sum(len(events) for _, events, _ in played) > 400
    for rules, events, results in played:
        seats = sorted({seat for seat, _ in results})
        assert len(seats) == max(1, len(request_.players)) or (len(seats) > 1 and request_.game == "wotr")
        for viewer in (*seats, SPECTATOR, REFEREE):
            plain = _plain(rules, viewer, copy.deepcopy(events))
            fed = Feed(rules, viewer, rules.new_state()).project_many(events)
            assert [_fields(p) for p in fed] == plain
            assert viewer == REFEREE or any(p.redacted for p in fed)
            made = [Projected(*fields) for fields in plain]
            assert [convert.event_pb(p).SerializeToString(deterministic=True) for p in fed] == [
                convert.event_pb(p).SerializeToString(deterministic=True) for p in made
            ]
        # each command's answer, projected as the rules ran (the floor's path): read afresh
        # from the state before the command, as the service reads it
        state = rules.new_state()
        done = 0
        for seat, result in results:
            if not result.events:
                continue
            first, last = result.events[0].seq, result.events[-1].seq
            for event in events[done : first - 1]:
                apply(rules, state, event)
            plain = _plain(rules, seat, copy.deepcopy(events[first - 1 : last]), state)
            assert [_fields(p) for p in result.events] == plain
            done = last
        assert done > 20


def test_a_projected_event_is_made_by_the_feeds_own_init() -> None:
    """Each projected event is made by the ``__init__`` written in the feed (compiled with it),
    not the one ``dataclass`` generates at import (interpreted: a third of the feed's cost)."""
    code = getattr(Projected.__init__, "__code__", None)
    assert code is None or code.co_filename.endswith("feed.py")
    assert Projected(1, "X", {}, {}, "t") == Projected(1, "X", {}, {}, "t", "", False, "")
    with pytest.raises(AttributeError):
        Projected(1, "X", {}, {}, "t").text = "u"  # type: ignore[misc]
