"""Game records: export, import, offline verification, and rules that change.

A record is exported from one store and imported into another (SQLite, PostgreSQL): the
same state at every version, the same story, the same verification, and the game goes on
as it would have. Damaged records (an edited, deleted or reordered event, a cut file) are
refused with their reason and import nothing. A rules change is simulated by a ruleset
variant with a bumped version and one rule changed: an old record is then reported as
"intact, recorded under rules v1, re-execution differs at event K", never as tampered.
"""

from __future__ import annotations

import hashlib
import io
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import msgspec
import pytest

from bots import random_choice
from domain.game import Game
from domain.kernel.changelog import RulesChange
from domain.kernel.events import Event
from domain.kernel.ruleset import Ruleset
from domain.kernel.runtime import Runtime, fold
from domain.lcg import events as ev
from domain.lcg.lineups import lcg_options
from domain.lcg.ruleset import LCG, LcgRules
from domain.record import Checked, check_record, verify_record
from domain.rulesets import ruleset
from domain.verify import Status, verify
from domain.wotr.ruleset import WOTR
from projections.explain import explain
from projections.story import story_with_causes
from service.app import Westmarch, store_env
from service.archive import ImportRefused, export, import_record
from service.store import latest_version
from tests.conftest import new_lcg, play_randomly, postgres_app
from tests.rpc_support import postgres_schema
from tools.cli import main

# -- a rules change, simulated -------------------------------------------------------------


class LcgWithSecondDraw(LcgRules):
    """The LCG rules as a later ruling might change them: one rule changed, version bumped.

    Changed rule: each player draws a second card in the resource phase, as their heroes
    gain their resources. Everything else is the current ruleset's.
    """

    rules_version = LCG.rules_version + 1

    def after(self, rt: Any, event: Event) -> None:
        super().after(rt, event)
        if isinstance(event, ev.ResourcesAdded) and rt.rule == "lcg.resource.gain":
            assert isinstance(rt, Runtime)
            rt.call("lcg.draw", {"player": rt.env["player"], "count": 1, "_by": event.seq}, caller={})

    def changes(self) -> tuple[RulesChange, ...]:
        change = RulesChange(self.rules_version, "each player draws a second card in the resource phase (test ruling)")
        return (*super().changes(), change)


CHANGED = LcgWithSecondDraw()
OLD, NEW = LCG.rules_version, CHANGED.rules_version


def only(rules: Ruleset[Any]) -> Callable[[str], Ruleset[Any]]:
    """A ruleset registry that knows one ruleset (the engine a verifier runs)."""

    def find(name: str) -> Ruleset[Any]:
        if name != rules.name:
            raise KeyError(f"unknown game {name!r}")
        return rules

    return find


# -- games and records ---------------------------------------------------------------------


def finished_lcg(seed: int, rules: LcgRules = LCG) -> Game:
    options = lcg_options("passage-through-mirkwood", 2, None, "standard")
    game = Game.start(random_id(seed), rules, rules.created(options, seed))
    return play_randomly(game, random.Random(seed))


def random_id(seed: int) -> Any:
    from uuid import UUID

    return UUID(int=random.Random(seed).getrandbits(128))


def record_of(app: Westmarch, game: Game) -> list[bytes]:
    return io.BytesIO(b"".join(export(app, game.id))).readlines()


@pytest.fixture(scope="module")
def played() -> Game:
    return finished_lcg(21)


@pytest.fixture
def record(sqlite_app: Westmarch, played: Game) -> list[bytes]:
    sqlite_app.store(Game.forked(played.id, LCG, played.pending_events))
    return record_of(sqlite_app, played)


@contextmanager
def pg_store() -> Iterator[Westmarch]:
    with postgres_schema() as schema:
        app = postgres_app(schema)
        try:
            yield app
        finally:
            app.close()


@contextmanager
def two_stores(kind: str, tmp_path: Path) -> Iterator[tuple[Westmarch, Westmarch]]:
    if kind == "sqlite":
        a, b = Westmarch(store_env(db=str(tmp_path / "a.db"))), Westmarch(store_env(db=str(tmp_path / "b.db")))
        try:
            yield a, b
        finally:
            a.close()
            b.close()
    else:
        with pg_store() as a, pg_store() as b:
            yield a, b


def no_games(app: Westmarch, game_id: Any) -> bool:
    return not list(app.games()) and latest_version(app.recorder, game_id) is None


# -- the round trip ------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_round_trip_same_state_story_verdict_and_play(kind: str, tmp_path: Path, played: Game) -> None:
    with two_stores(kind, tmp_path) as (source, target):
        source.store(Game.forked(played.id, LCG, played.pending_events))
        lines = record_of(source, played)
        assert played.pending_events[0].rules_version == LCG.rules_version  # type: ignore[attr-defined]
        done = import_record(target, lines)
        assert (done.game_id, done.events, done.added) == (played.id, played.version, played.version)
        # the same state at every version, the same story, the same verdict
        for version in range(1, played.version + 1):
            a, b = source.state_at(played.id, version), target.state_at(played.id, version)
            assert LCG.codec.encode(a) == LCG.codec.encode(b), f"states differ at version {version}"
        story = [(e.seq, line, why) for e, line, why in story_with_causes(LCG, source.history(played.id))]
        assert story == [(e.seq, line, why) for e, line, why in story_with_causes(LCG, target.history(played.id))]
        assert str(verify(LCG, target.history(played.id))) == str(verify(LCG, source.history(played.id)))
        assert verify(LCG, target.history(played.id)).ok
        # the store's bytes (and times) travel as they are: a second export has the same events
        assert record_of(target, played)[1:] == lines[1:]
        # explain and fork work on the imported game
        assert explain(LCG, target.history(played.id), played.version).seq == played.version
        fork = target.fork(played.id, played.version // 2)
        assert verify(LCG, target.history(fork.id)).ok
        # importing the same record again adds nothing
        assert import_record(target, lines).added == 0
        assert len(list(target.games())) == 2 and target.version(played.id) == played.version


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_an_imported_game_in_progress_goes_on_as_the_original_would(kind: str, tmp_path: Path) -> None:
    with two_stores(kind, tmp_path) as (source, target):
        game = new_lcg(8, 2)
        rng = random.Random(8)
        for _ in range(40):
            decision = game.state.pending
            assert decision is not None
            game.answer(decision.seat, decision.id, random_choice(decision, rng))
        source.store(game)
        import_record(target, record_of(source, game))
        # the same decisions in both stores give the same events
        for store in (source, target):
            moves = random.Random(80)
            while (decision := store.state_at(game.id).pending) is not None:
                store.submit(game.id, decision.seat, decision.id, random_choice(decision, moves))
        went_on = target.history(game.id)
        assert len(went_on) > game.version + 20
        assert [LCG.codec.encode(e) for e in source.history(game.id)] == [LCG.codec.encode(e) for e in went_on]
        assert verify(LCG, went_on).ok


def test_war_of_the_ring_round_trip(tmp_path: Path) -> None:
    from tests.test_wotr_invariants import play

    game = play("fellowship", 4)
    with two_stores("sqlite", tmp_path) as (source, target):
        source.store(game)
        lines = record_of(source, game)
        assert import_record(target, lines).ruleset == "wotr"
        assert WOTR.codec.encode(target.state_at(game.id)) == WOTR.codec.encode(game.state)
        assert verify_record(lines, ruleset).verdict.ok


def test_a_later_record_of_the_same_game_adds_what_the_store_lacks(sqlite_app: Westmarch, tmp_path: Path) -> None:
    game = new_lcg(9)
    rng = random.Random(9)
    for _ in range(10):
        decision = game.state.pending
        assert decision is not None
        game.answer(decision.seat, decision.id, random_choice(decision, rng))
    other = Westmarch(store_env(db=str(tmp_path / "other.db")))
    other.store(Game.forked(game.id, LCG, game.pending_events))
    early = record_of(other, game)
    play_randomly(game, rng)
    later = Westmarch(store_env(db=str(tmp_path / "later.db")))
    later.store(Game.forked(game.id, LCG, game.pending_events))
    import_record(sqlite_app, early)
    done = import_record(sqlite_app, record_of(later, game))
    assert done.added == game.version - len(early) + 1 and sqlite_app.version(game.id) == game.version
    # a record whose history differs from the stored game of the same id is refused
    different = finished_lcg(10)
    forged = Westmarch(store_env(db=str(tmp_path / "forged.db")))
    forged.store(Game.forked(game.id, LCG, different.pending_events))
    with pytest.raises(ImportRefused, match="whose history differs"):
        import_record(sqlite_app, io.BytesIO(b"".join(export(forged, game.id))).readlines())
    assert sqlite_app.version(game.id) == game.version


# -- damaged records -----------------------------------------------------------------------


def _edited(lines: list[bytes], k: int) -> list[bytes]:
    out = list(lines)
    out[k] = out[k].replace(b'"cause":{"rule":"', b'"cause":{"rule":"edited.', 1)
    assert out[k] != lines[k]
    return out


def _deleted(lines: list[bytes], k: int) -> list[bytes]:
    return lines[:k] + lines[k + 1 :]


def _reordered(lines: list[bytes], k: int) -> list[bytes]:
    return [*lines[:k], lines[k + 1], lines[k], *lines[k + 2 :]]


def _cut_in_a_line(lines: list[bytes], k: int) -> list[bytes]:
    return io.BytesIO(b"".join(lines[:k]) + lines[k][: len(lines[k]) // 2]).readlines()


def _cut_after_a_line(lines: list[bytes], k: int) -> list[bytes]:
    return lines[:k]


@pytest.mark.parametrize(
    ("damage", "first_bad", "message"),
    [
        (_edited, 40, "the hash does not match the event's content and the chain"),
        (_deleted, 40, "sequence number 41 where 40 was expected"),
        (_reordered, 40, "sequence number 41 where 40 was expected"),
        (_cut_in_a_line, 40, "the file is cut short in event 40"),
        (_cut_after_a_line, 40, "the record ends after event 39; its header says"),
    ],
)
def test_a_damaged_record_is_refused_with_its_reason_and_nothing_is_imported(
    damage: Callable[[list[bytes], int], list[bytes]],
    first_bad: int,
    message: str,
    record: list[bytes],
    played: Game,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    damaged = damage(record, 40)
    checked = verify_record(damaged, ruleset)
    assert checked.verdict.status is Status.CHAIN_BROKEN
    assert checked.verdict.first_bad == first_bad and message in checked.verdict.reason
    assert f"FAILED at event {first_bad}: the hash chain is broken: {message}" in str(checked.verdict)
    target = Westmarch(store_env(db=str(tmp_path / "target.db")))
    with pytest.raises(ImportRefused, match="not imported") as refused:
        import_record(target, damaged)
    assert refused.value.verdict is not None and refused.value.verdict.first_bad == first_bad
    assert no_games(target, played.id)
    # the command line: verify exits 1, import exits 1 and writes nothing
    path = tmp_path / "damaged.jsonl"
    path.write_bytes(b"".join(damaged))
    assert main(["verify", str(path)]) == 1
    assert message in capsys.readouterr().out
    assert main(["import", str(path), "--db", str(tmp_path / "target.db")]) == 1
    assert message in capsys.readouterr().err
    assert no_games(target, played.id)


def test_a_header_that_disagrees_with_its_events_is_refused(record: list[bytes]) -> None:
    header = msgspec.json.decode(record[0])
    for key, value, message in (
        ("last_hash", "0" * 64, "the header's last hash is not the last event's"),
        ("first_hash", "0" * 64, "the header's first hash is not the first event's"),
        ("rules_version", 70, f"the header says rules v70, the first event v{LCG.rules_version}"),
        ("played_engine", "westmarch 9.9", "the header says the game was started with 'westmarch 9.9'"),
        ("events", header["events"] - 1, "its header says"),
    ):
        changed = [msgspec.json.encode({**header, key: value}) + b"\n", *record[1:]]
        verdict = check_record(changed, ruleset).verdict
        assert verdict.status is Status.CHAIN_BROKEN and message in verdict.reason, key
    assert "not a Westmarch game record" in check_record([b"hello\n"], ruleset).verdict.reason
    assert "the file is empty" in check_record([], ruleset).verdict.reason


def rechained(lines: list[bytes], k: int, change: Callable[[dict[str, Any]], None]) -> list[bytes]:
    """The record with event ``k`` changed and every hash after it recomputed: a forgery
    the chain alone cannot tell from the real thing."""
    header = msgspec.json.decode(lines[0])
    out = [lines[0]]
    head = "0" * 64
    for i, line in enumerate(lines[1:], start=1):
        stamp, event = msgspec.json.decode(line)
        if i == k:
            change(event)
        if i >= k:
            content = {key: value for key, value in event.items() if key != "hash"}
            event["hash"] = hashlib.sha256(head.encode() + msgspec.json.encode(content)).hexdigest()
        head = event["hash"]
        out.append(msgspec.json.encode([stamp, event]) + b"\n")
    header["last_hash"] = head
    out[0] = msgspec.json.encode(header) + b"\n"
    return out


def test_a_rewritten_record_with_recomputed_hashes_fails_re_execution_under_the_same_rules(
    record: list[bytes],
) -> None:
    k = next(i for i, line in enumerate(record) if b'"type":"ThreatRaised"' in line)

    def more_threat(event: dict[str, Any]) -> None:
        event["amount"] += 5

    forged = rechained(record, k, more_threat)
    checked = verify_record(forged, ruleset)
    verdict = checked.verdict
    assert check_record(forged, ruleset).verdict.ok, "the chain was recomputed: it holds"
    assert verdict.status is Status.REEXECUTION_DIFFERS and verdict.exit_code == 3
    assert verdict.first_bad == k and verdict.field == "amount"
    assert (verdict.recorded_rules, verdict.current_rules) == (LCG.rules_version, LCG.rules_version)
    assert "rewritten with its hashes recomputed" in str(verdict)


# -- rules that change ---------------------------------------------------------------------


def test_an_old_record_under_changed_rules_is_a_rules_change_not_tampering(record: list[bytes]) -> None:
    checked: Checked = verify_record(record, only(CHANGED))
    verdict = checked.verdict
    first_gain = next(e.seq for e in checked.events if isinstance(e, ev.ResourcesAdded))
    assert verdict.status is Status.REEXECUTION_DIFFERS and verdict.exit_code == 3
    # the changed rule acts as the heroes gain resources: it moves the cursor (the event's flow)
    assert verdict.first_bad == first_gain and verdict.field.startswith("flow")
    assert (verdict.recorded_rules, verdict.current_rules) == (OLD, NEW)
    text = str(verdict)
    assert f"FAILED at event {first_gain}: the hash chain is intact but re-execution differs ({verdict.field})" in text
    assert f"recorded under lcg rules v{OLD}, this engine has v{NEW}" in text
    assert f"rules changes since: v{NEW}: each player draws a second card in the resource phase (test ruling)" in text
    assert "tamper" not in text and "rewritten" not in text
    # the fold needs no rules: state and explanations are the same under either ruleset
    events = checked.events
    assert LCG.codec.encode(fold(CHANGED, events)) == LCG.codec.encode(fold(LCG, events))
    assert explain(CHANGED, events, first_gain) == explain(LCG, events, first_gain)


def test_a_record_from_newer_rules_or_an_unknown_game_cannot_be_re_executed(tmp_path: Path) -> None:
    newer = finished_lcg(22, CHANGED)
    assert newer.state.version > 0 and newer.pending_events[0].rules_version == NEW  # type: ignore[attr-defined]
    app = Westmarch(store_env(db=str(tmp_path / "newer.db")))
    app.store(Game.forked(newer.id, CHANGED, newer.pending_events))
    lines = record_of(app, newer)
    assert verify_record(lines, only(CHANGED)).verdict.ok, "the variant re-executes its own records"
    verdict = verify_record(lines, ruleset).verdict
    assert verdict.status is Status.UNKNOWN_RULES and verdict.exit_code == 4
    assert f"recorded under lcg rules v{NEW}; this engine knows lcg rules up to v{OLD}" in verdict.reason
    assert "intact" in verdict.reason
    with pytest.raises(ImportRefused, match=f"rules up to v{OLD}"):
        import_record(Westmarch(store_env(db=str(tmp_path / "old.db"))), lines)
    header = msgspec.json.decode(lines[0])
    chess = [msgspec.json.encode({**header, "ruleset": "chess"}) + b"\n", *lines[1:]]
    verdict = verify_record(chess, ruleset).verdict
    assert verdict.status is Status.UNKNOWN_RULES and "unknown game 'chess'" in verdict.reason
    assert f"the hash chain of its {newer.version} events is intact" in verdict.reason
    future = [msgspec.json.encode({**header, "westmarch_record": 2}) + b"\n", *lines[1:]]
    assert verify_record(future, ruleset).verdict.status is Status.UNKNOWN_RULES


def test_games_recorded_before_rules_versions_still_verify() -> None:
    """A first event without a version (v0) has the bytes it had before versions existed."""
    options = lcg_options("passage-through-mirkwood", 1, None, "standard")
    old = ev.GameCreated(seed=4, options=options, seats=("p1",))
    assert b"rules_version" not in LCG.codec.encode(old)
    game = play_randomly(Game.start(random_id(4), LCG, old), random.Random(4))
    verdict = verify(LCG, game.pending_events)
    assert verdict.ok and verdict.recorded_rules == 0
    assert f"recorded under lcg rules v0 (before rules versions were recorded), this engine has v{OLD}" in str(verdict)


def test_each_ruleset_s_version_is_the_newest_in_its_changelog() -> None:
    for rules in (LCG, WOTR):
        changes = rules.changes()
        assert changes, f"{rules.name}: no RULES_CHANGELOG.md lines"
        versions = [c.version for c in changes]
        assert versions == sorted(versions) and versions[0] == 1
        assert set(versions) == set(range(1, rules.rules_version + 1)), (
            f"{rules.name}: rules_version {rules.rules_version}, changelog versions {sorted(set(versions))}: "
            "bump rules_version and add a changelog line together"
        )
        assert all(c.text.endswith(")") for c in changes), "each change names its source in parentheses"


# -- the command line ----------------------------------------------------------------------


def test_export_verify_import_on_the_command_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    db, other = str(tmp_path / "a.db"), str(tmp_path / "b.db")
    assert main(["simulate", "lcg", "--games", "1", "--store", "--db", db, "--json"]) == 0
    capsys.readouterr()
    app = Westmarch(store_env(db=db))
    (info,) = list(app.games())
    game = str(info.id)
    assert main(["export", game[:8], "-o", "g.jsonl", "--db", db]) == 0
    assert f"exported game {game}: {info.version} events to g.jsonl" in capsys.readouterr().err
    assert main(["export", game, "--db", db]) == 0
    assert capsys.readouterr().out.encode().splitlines()[1:] == Path("g.jsonl").read_bytes().splitlines()[1:]
    # verify FILE needs no store: no westmarch.db appears
    assert main(["verify", "g.jsonl"]) == 0
    assert "ok: " in capsys.readouterr().out and not Path("westmarch.db").exists()
    assert main(["import", "g.jsonl", "--db", other]) == 0
    assert f"{game}: imported, {info.version} events of lcg" in capsys.readouterr().out
    assert main(["import", "g.jsonl", "--db", other]) == 0
    assert "already in this store" in capsys.readouterr().out
    assert main(["verify", game, "--db", other]) == 0
    assert main(["state", game, "--db", other]) == 0 and main(["explain", game, "5", "--db", other]) == 0
    assert main(["games", "--db", other]) == 0
    listed = capsys.readouterr().out
    assert f"{game}  lcg   version {info.version:6}  rules v{LCG.rules_version}  seed 1  over: " in listed
    assert main(["tokens", game, "--db", other]) == 0, "an imported game can be served"
    capsys.readouterr()
    lines = Path("g.jsonl").read_bytes().splitlines(keepends=True)
    k = next(i for i, line in enumerate(lines) if b'"type":"ThreatRaised"' in line)

    def more_threat(event: dict[str, Any]) -> None:
        event["amount"] += 1

    Path("forged.jsonl").write_bytes(b"".join(rechained(lines, k, more_threat)))
    assert main(["verify", "forged.jsonl"]) == 3
    assert f"FAILED at event {k}: the hash chain is intact but re-execution differs (amount)" in capsys.readouterr().out
    header = msgspec.json.decode(lines[0])
    Path("chess.jsonl").write_bytes(msgspec.json.encode({**header, "ruleset": "chess"}) + b"\n" + b"".join(lines[1:]))
    assert main(["verify", "chess.jsonl"]) == 4
    assert main(["import", "chess.jsonl", "--db", other]) == 4
    assert main(["verify", "no-such-file.jsonl", "--db", other]) == 2
    assert "no record file 'no-such-file.jsonl': it is missing" in capsys.readouterr().err


def test_bench_records_quick_writes_its_section(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    output = tmp_path / "BENCHMARKS.md"
    output.write_text("# Benchmarks\n\n<!-- section:other -->\nkept\n<!-- /section:other -->\n", encoding="utf-8")
    assert main(["bench-records", "--quick", "--output", str(output)]) == 0
    text = output.read_text(encoding="utf-8")
    assert "kept" in text and "<!-- section:records -->" in text
    assert "Produced by `westmarch bench-records --quick`" in text
    assert "bytes per event" in text and "x the fold" in text


def test_a_damaged_store_is_not_exported(capsys: pytest.CaptureFixture[str], tmp_path: Path, played: Game) -> None:
    """A stored event that cannot be read, or spans lines, stops the export with a clear error."""
    import sqlite3

    db = str(tmp_path / "games.db")
    app = Westmarch(store_env(db=db))
    app.store(Game.forked(played.id, LCG, played.pending_events))
    app.close()
    game = str(played.id)
    for version, edit, message in (
        (10, lambda state: state.replace(b',"seq":', b',\n"seq":', 1), "stored event 10 spans lines"),
        (played.version, lambda state: state[:20], "a stored event cannot be read"),
    ):
        with sqlite3.connect(db) as conn:
            (state,) = conn.execute(
                "SELECT state FROM stored_events WHERE originator_id=? AND originator_version=?",
                (played.id.hex, version),
            ).fetchone()
            conn.execute(
                "UPDATE stored_events SET state=? WHERE originator_id=? AND originator_version=?",
                (edit(bytes(state)), played.id.hex, version),
            )
        output = tmp_path / "g.jsonl"
        assert main(["export", game, "-o", str(output), "--db", db]) == 2
        assert message in capsys.readouterr().err and not output.exists()


def test_the_header_names_the_westmarch_the_game_was_started_with(record: list[bytes]) -> None:
    from domain.engine import engine

    header = msgspec.json.decode(record[0])
    first = msgspec.json.decode(record[1])[1]
    assert header["played_engine"] == first["engine"] == engine() and engine().startswith("westmarch ")
    assert header["engine"] == engine()


def test_a_forged_record_of_a_new_game_is_refused_and_nothing_is_stored(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A record whose chain was recomputed over an edited event holds as a chain; importing
    it as a new game re-executes it, so it is refused before anything is written."""
    monkeypatch.chdir(tmp_path)
    db = str(tmp_path / "g.db")
    assert main(["new", "lcg", "--players", "2", "--seed", "4", "--db", db]) == 0
    capsys.readouterr()
    from service.app import Westmarch, store_env

    app = Westmarch(store_env(db=db))
    [info] = list(app.games())
    game = str(info.id)
    lines = b"".join(export(app, info.id)).splitlines(keepends=True)
    k = next(i for i, line in enumerate(lines) if b'"type":"ThreatSet"' in line)

    def more_threat(event: dict[str, Any]) -> None:
        event["threat"] += 5

    Path("forged.jsonl").write_bytes(b"".join(rechained(lines, k, more_threat)))
    other = str(tmp_path / "other.db")
    capsys.readouterr()
    assert main(["import", "forged.jsonl", "--db", other]) == 3
    err = capsys.readouterr().err
    assert f"FAILED at event {k}: the hash chain is intact but re-execution differs" in err
    assert not list(Westmarch(store_env(db=other)).games()), "a forged record was stored"
    Path("real.jsonl").write_bytes(b"".join(lines))
    assert main(["import", "real.jsonl", "--db", other]) == 0
    assert "each re-executed from the seed" in capsys.readouterr().out
    assert [str(g.id) for g in Westmarch(store_env(db=other)).games()] == [game]


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_a_forged_record_of_a_new_game_is_refused_by_either_store(kind: str, tmp_path: Path, played: Game) -> None:
    """The same on PostgreSQL as on SQLite: re-executed before anything is written."""
    with two_stores(kind, tmp_path) as (source, target):
        source.store(Game.forked(played.id, LCG, played.pending_events))
        lines = record_of(source, played)
        k = next(i for i, line in enumerate(lines) if b'"type":"ThreatRaised"' in line)

        def more_threat(event: dict[str, Any]) -> None:
            event["amount"] += 5

        with pytest.raises(ImportRefused, match="re-execut") as refused:
            import_record(target, rechained(lines, k, more_threat))
        assert refused.value.verdict is not None and refused.value.verdict.first_bad == k
        assert no_games(target, played.id), "a forged record was stored"
        assert import_record(target, lines).added == played.version
