"""Every fixture file under tests/fixtures is a test: a rule shown acting at the table."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.fixtures import fixture_files, run_file

FIXTURES = Path(__file__).parent / "fixtures"
FILES = fixture_files([FIXTURES])


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(FIXTURES)) for p in FILES])
def test_fixture(path: Path) -> None:
    result = run_file(path)
    if not result.passed:
        report = "\n".join(["", *result.failures, "events:", *result.lines])
        pytest.fail(report, pytrace=False)
