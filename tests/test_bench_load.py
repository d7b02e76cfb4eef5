"""The load benchmark's own measures (``tools/bench_load.py``) on this machine."""

from __future__ import annotations

from tools.bench_load import in_process_cpu, postgres_cpu_seconds


def test_the_floor_plays_real_commands_and_counts_their_cpu() -> None:
    per_command, commands = in_process_cpu(0.5)
    assert commands > 0
    assert 0 < per_command < 1000


def test_the_cpu_of_postgresql_is_read_from_its_processes() -> None:
    # the suite's PostgreSQL runs on this machine (see tests/conftest.py): it has processes
    assert postgres_cpu_seconds() > 0
