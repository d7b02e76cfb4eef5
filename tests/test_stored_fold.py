"""The fold straight from stored rows (domain/kernel/stored.py) gives the ordinary fold's state.

``Westmarch.state_at`` folds a game from its stored rows, decoding each event into a lean
twin of its type. Seeded random-bot games of every scenario of both games are saved to
SQLite and to PostgreSQL; the state at every version, loaded through ``state_at`` (from a
snapshot taken every 50 events, and from the first event without snapshots), must be the
state the ordinary fold of the decoded events gives, byte for byte (its hash with it). A
damaged row is refused as before; one damaged only in a field the fold skips is the
documented exception: ``state_at`` folds it, every command refuses it.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec
import pytest

from bots import random_choice
from domain.game import Game
from domain.kernel.events import Event
from domain.kernel.ruleset import Ruleset
from domain.kernel.runtime import fold
from domain.kernel.stored import _LATER, _nothing, does_nothing, fields_read, stored_fold
from domain.lcg.events import CardMoved, PositionSet
from domain.lcg.lineups import lcg_options
from domain.lcg.ruleset import LCG
from domain.lcg.scenarios import SCENARIOS as LCG_SCENARIOS
from domain.wotr.options import scenario_keys, wotr_options
from domain.wotr.ruleset import WOTR
from service.app import DamagedGame, Westmarch, store_env
from tests.conftest import POSTGRES_DSN

SEED = 3
AT = datetime(2026, 1, 1, tzinfo=UTC)

GAMES: list[tuple[str, Ruleset[Any], Callable[[], Event]]] = [
    *((f"lcg-{key}", LCG, lambda key=key: LCG.created(lcg_options(key, 2), SEED)) for key in sorted(LCG_SCENARIOS)),
    *((f"wotr-{key}", WOTR, lambda key=key: WOTR.created(wotr_options(key), SEED)) for key in sorted(scenario_keys())),
]


def _played(rules: Ruleset[Any], created: Event) -> Game:
    game = Game.start(uuid.uuid4(), rules, created)
    rng = random.Random(SEED)
    while (decision := game.state.pending) is not None:
        game.answer(decision.seat, decision.id, random_choice(decision, rng))
    return game


def _ordinary(rules: Ruleset[Any], played: list[Event]) -> list[bytes]:
    """The encoded state after each version (index 0: before the first event), by the
    ordinary fold of the events decoded from their stored form (as loading did before).

    Decoded, not as played: a state folded from events in memory can encode differently
    (msgspec leaves a field out when it holds its default *object*, and a string decoded
    from JSON is another object than the literal the rules wrote: a card's ``face``)."""
    events = rules.codec.decode_stored_many([rules.codec.encode_stored(AT, e) for e in played])
    state = rules.new_state()
    states = [rules.codec.encode(state)]
    for event in events:
        state = fold(rules, [event], state)
        states.append(rules.codec.encode(state))
    return states


Store = Callable[[dict[str, str]], Westmarch]


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """Applications on one fresh store (a SQLite file, or a PostgreSQL schema), each with
    the extra environment it is given."""
    opened: list[Westmarch] = []
    if request.param == "sqlite":
        base = store_env(db=str(tmp_path / "games.db"))
        schema = None
    else:
        import psycopg

        schema = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(POSTGRES_DSN, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {schema}")
        base = {**store_env(postgres=POSTGRES_DSN), "POSTGRES_SCHEMA": schema}

    def make(extra: dict[str, str]) -> Westmarch:
        app = Westmarch({**base, **extra})
        opened.append(app)
        return app

    try:
        yield make
    finally:
        for app in opened:
            app.close()
        if schema is not None:
            import psycopg

            with psycopg.connect(POSTGRES_DSN, autocommit=True) as conn:
                conn.execute(f"DROP SCHEMA {schema} CASCADE")


def _damage(app: Westmarch, game_id: uuid.UUID, version: int, state: bytes) -> None:
    """Overwrite one stored row of a game's log, behind the application's back."""
    recorder: Any = app.recorder
    table = recorder.events_table_name
    if "sqlite" in type(recorder).__module__:
        with recorder.datastore.transaction(commit=True) as cursor:
            cursor.execute(
                f"UPDATE {table} SET state=? WHERE originator_id=? AND originator_version=?",
                [state, game_id.hex, version],
            )
        return
    with recorder.datastore.get_connection() as conn, conn.cursor() as cursor:
        cursor.execute(
            f"UPDATE {recorder.datastore.schema}.{table} SET state=%s WHERE originator_id=%s AND originator_version=%s",
            [state, game_id, version],
        )
        conn.commit()


@pytest.mark.parametrize(("name", "rules", "created"), GAMES, ids=[g[0] for g in GAMES])
def test_the_stored_fold_is_the_fold_at_every_version(
    store: Store, name: str, rules: Ruleset[Any], created: Callable[[], Event]
) -> None:
    game = _played(rules, created())
    events = list(game.pending_events)
    expected = _ordinary(rules, events)
    snapshots = store({"WESTMARCH_SNAPSHOT_EVERY": "50"})
    snapshots.store(game)
    assert snapshots.state_at(game.id) is not None  # the whole log, from the last snapshot
    for version in range(1, len(events) + 1):
        state = snapshots.state_at(game.id, version)
        assert rules.codec.encode(state) == expected[version], f"{name}: version {version}"
        assert state.head == events[version - 1].hash
    bare = store({"IS_SNAPSHOTTING_ENABLED": "n"})
    for version in (1, 2, len(events) // 3, len(events) // 2, len(events) - 1, len(events)):
        assert rules.codec.encode(bare.state_at(game.id, version)) == expected[version], f"{name}: {version}"
    assert rules.codec.encode(bare.state_at(game.id)) == expected[-1]


def test_folded_in_any_pieces() -> None:
    """Onto a state from the ordinary fold (its cursor made of decoded frames), any run of
    rows gives the same state: the frames the fold keeps undecoded are put back the same."""
    for _, rules, created in GAMES:
        game = _played(rules, created())
        events = list(game.pending_events)
        expected = _ordinary(rules, events)
        rows = [rules.codec.encode_stored(AT, e) for e in events]
        folding = stored_fold(rules)
        rng = random.Random(len(events))
        start = 0
        while start < len(events):
            end = min(len(events), start + rng.randint(1, 60))
            state = folding.fold(rows[start:end], rules.codec.decode_state(expected[start]))
            assert rules.codec.encode(state) == expected[end]
            start = end


def test_the_twins_read_what_the_appliers_read() -> None:
    """A twin skips only what its apply function never reads; an apply function that hands
    its event on whole keeps the full type."""
    assert fields_read(LCG.appliers[CardMoved], CardMoved) == ("card", "to", "top")
    assert fields_read(LCG.appliers[PositionSet], PositionSet) is None
    twins = {t.__struct_config__.tag: t for t in stored_fold(LCG).twins}
    assert twins["PositionSet"] is PositionSet
    assert "cause" not in twins["CardMoved"].__struct_fields__
    assert set(twins["CardMoved"].__struct_fields__) == {"seq", "flow", "draws", "card", "to", "top"}


def test_a_damaged_row_is_refused(store: Store) -> None:
    app = store({"IS_SNAPSHOTTING_ENABLED": "n"})
    game = _played(LCG, LCG.created(lcg_options("passage-through-mirkwood", 2), SEED))
    moved = next(e.seq for e in game.pending_events if isinstance(e, CardMoved))
    app.store(game)
    rows = app.stored(game.id)
    at, event = msgspec.json.decode(rows[moved - 1])
    refused = f"damaged at version {moved}: a stored event cannot be decoded"

    _damage(app, game.id, 5, b'[1, {"type": ')  # not JSON
    with pytest.raises(DamagedGame, match="damaged at version 5: a stored event cannot be decoded"):
        app.state_at(game.id)
    _damage(app, game.id, 5, rows[4])

    _damage(app, game.id, moved, msgspec.json.encode([at, {**event, "to": 7}]))  # a field the fold reads
    with pytest.raises(DamagedGame, match=refused):
        app.state_at(game.id)

    _damage(app, game.id, moved, msgspec.json.encode([at, {**event, "cause": {"rule": 7}}]))  # one it skips
    assert LCG.codec.encode(app.state_at(game.id)) == LCG.codec.encode(game.state)  # not looked at here,
    with pytest.raises(DamagedGame, match=refused):
        app.game(game.id)  # but every command decodes the whole log

    _damage(app, game.id, moved, msgspec.json.encode([at, {**event, "seq": moved + 5}]))  # out of place
    with pytest.raises(DamagedGame, match=f"damaged at version {moved}: event {moved} is missing"):
        app.state_at(game.id)


def test_the_compiled_apply_loop_is_the_plain_loop_over_many_games() -> None:
    """``apply_all`` (the stored fold's loop, in the compiled core) gives the state and the
    draws the plain loop over the twins gives, on forty random-bot games of Passage through
    Mirkwood cut in random pieces: the two kernel events it applies without a call included."""
    from domain.kernel.runtime import apply_all
    from tools.bench import random_game

    folding = stored_fold(LCG)
    assert folding.requested is not None and folding.answered is not None
    for seed in range(1, 41):
        events = list(random_game(seed, 2).pending_events)
        rows = [LCG.codec.encode_stored(AT, e) for e in events]
        rng = random.Random(seed)
        start = 0
        by_call, by_loop = LCG.new_state(), LCG.new_state()
        while start < len(rows):
            end = min(len(rows), start + rng.randint(1, 200))
            twins = folding.decode(b",".join(rows[start:end]))
            draws = 0
            for event in twins:
                folding.appliers[type(event)](by_call, event)
                draws += event.draws
            pairs = [(0.0, event) for event in twins]
            applied = apply_all(
                folding.appliers, by_loop, pairs, folding.requested, _LATER, folding.answered, start, _nothing
            )
            assert applied == draws
            assert LCG.codec.encode(by_loop) == LCG.codec.encode(by_call), f"seed {seed}, events {start + 1}-{end}"
            start = end


def test_the_services_sqlite_connections_read_through_a_memory_map(tmp_path: Path) -> None:
    """Each SQLite connection of the service maps the database (``PRAGMA mmap_size``): a
    fold reads its rows' pages in place, without a system call and a copy per page."""
    from service.store import MMAP_SIZE

    app = Westmarch({**store_env(db=str(tmp_path / "games.db")), "IS_SNAPSHOTTING_ENABLED": "n"})
    try:
        recorder: Any = app.recorder
        with recorder.datastore.get_connection(commit=False) as connection:
            cursor = connection.cursor()
            cursor.execute("PRAGMA mmap_size")
            assert cursor.fetchone()[0] == MMAP_SIZE
    finally:
        app.close()


def test_an_apply_function_that_changes_nothing_is_not_called() -> None:
    """An apply function whose body is only ``pass`` (a phase's end) is not called by the
    stored fold's loop: its twin's entry is the one stand-in ``apply_all`` skips."""
    from domain.lcg.encounter_events import PhaseEnded

    assert does_nothing(LCG.appliers[PhaseEnded])
    assert not does_nothing(LCG.appliers[CardMoved])
    folding = stored_fold(LCG)
    twins = {t.__struct_config__.tag: t for t in folding.twins}
    assert folding.appliers[twins["PhaseEnded"]] is _nothing
    assert folding.appliers[twins["CardMoved"]] is LCG.appliers[CardMoved]


def test_a_load_reads_its_rows_and_recorded_length_in_one_statement(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Loading a whole log on SQLite makes one read (the rows, the last row alone for the
    head, the recorded length), where the rows and the length were two."""
    import service.store as store_module

    app = Westmarch({**store_env(db=str(tmp_path / "games.db")), "IS_SNAPSHOTTING_ENABLED": "n"})
    try:
        game = _played(LCG, LCG.created(lcg_options("passage-through-mirkwood", 2), SEED))
        app.store(game)
        app.state_at(game.id)  # the game's ruleset is known from here on
        reads: list[str] = []
        read = store_module._sqlite_read

        def counted(recorder: Any, sql: str, params: list[Any]) -> list[Any]:
            reads.append(sql)
            return read(recorder, sql, params)

        monkeypatch.setattr(store_module, "_sqlite_read", counted)
        state = app.state_at(game.id)
        assert LCG.codec.encode(state) == LCG.codec.encode(game.state)
        assert state.head == game.state.head
        assert len(reads) == 1
    finally:
        app.close()
