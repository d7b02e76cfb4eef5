"""Builds the compiled core: the modules domain/build.py lists, compiled with mypyc.

The compiled build is the default when a C compiler is present; ``WESTMARCH_PURE=1`` at
build time, or no compiler, builds pure Python (every module then runs from its source).
The build writes domain/compiled_sources.json, the hash of each compiled source, which
domain/build.py checks at import so that an edited source never hides behind its stale
extension module.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
import sysconfig
from pathlib import Path
from typing import Any

from setuptools import setup

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("_westmarch_build", HERE / "domain" / "build.py")
assert _spec is not None and _spec.loader is not None
build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build)

GROUP = "westmarch_core"
"""The name of the shared library holding every compiled module's code."""


def _compiler() -> str | None:
    """The C compiler Python's build configuration names, if it is installed."""
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return shutil.which(cc.split()[0])


def _clean() -> None:
    """Remove the extension modules of an earlier build, so that none is left to shadow a source."""
    build.MANIFEST.unlink(missing_ok=True)
    for package in build.PACKAGES:
        for path in (HERE / package).rglob("*.so"):
            path.unlink()
    for path in HERE.glob(f"{GROUP}__mypyc.*"):
        path.unlink()


def _pure(why: str) -> list[Any]:
    print(f"westmarch: {why}: building pure Python", file=sys.stderr)
    return []


def _metadata_only() -> bool:
    """Whether setuptools is asked for the package's metadata alone (pip's first step):
    then nothing is compiled, which would be done again for the build itself."""
    commands = set(sys.argv[1:])
    return bool(commands & {"egg_info", "dist_info"}) and not commands & {"build_ext", "editable_wheel", "bdist_wheel"}


def _extensions() -> list[Any]:
    if _metadata_only():
        return []
    _clean()
    if os.environ.get(build.PURE_ENV, "") not in ("", "0"):
        return _pure(f"{build.PURE_ENV} is set")
    if _compiler() is None:
        return _pure("no C compiler found")
    from mypyc.build import mypycify

    sources = [str(build.source(m).relative_to(HERE)) for m in build.COMPILED]
    extensions = mypycify(sources, opt_level="3", debug_level="0", group_name=GROUP)
    build.MANIFEST.write_text(
        json.dumps({m: build.digest(build.source(m)) for m in build.COMPILED}, indent=1, sort_keys=True) + "\n"
    )
    return list(extensions)


setup(ext_modules=_extensions())
