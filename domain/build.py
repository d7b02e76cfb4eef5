"""Which build of the rules runs: the compiled core (mypyc C extensions) or pure Python.

``pip install -e .`` compiles the modules in :data:`COMPILED` with mypyc when a C compiler
is present (``setup.py``), and writes each one's extension module beside its source. An
extension module beside a ``.py`` file wins the import, so an edited source would silently
not run: the build records a hash of every compiled source in :data:`MANIFEST`, and
:func:`install` (run by ``domain/__init__.py`` before any of these modules is imported)
compares them with the sources as they are now. If any differs, or ``WESTMARCH_PURE=1`` is
set, every module of the list is imported from its source, never from its extension
module: they are compiled as one group whose modules call each other directly in C, so a
mix of old compiled and new interpreted modules would run code that is no longer there.

Both builds play the same games: tests/test_compiled.py compares their event streams,
hashes and records byte for byte.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
"""The directory holding the ``domain`` and ``projections`` packages."""

MANIFEST = Path(__file__).resolve().parent / "compiled_sources.json"
"""Written by the compiled build: each compiled module's source hash (absent in a pure build)."""

PURE_ENV = "WESTMARCH_PURE"
"""``WESTMARCH_PURE=1`` at build time builds pure Python; at run time it skips the extensions."""

COMPILED: tuple[str, ...] = (
    "domain.kernel.runtime",
    "domain.kernel.flow",
    "domain.kernel.steps",
    "domain.kernel.rng",
    "domain.kernel.choices",
    "domain.kernel.scenarios",
    "domain.lcg.rules.any_group",
    "domain.lcg.rules.attachments",
    "domain.lcg.rules.burgle",
    "domain.lcg.rules.caps",
    "domain.lcg.rules.combat",
    "domain.lcg.rules.constant",
    "domain.lcg.rules.encounter",
    "domain.lcg.rules.keywords",
    "domain.lcg.rules.planning",
    "domain.lcg.rules.playing_events",
    "domain.lcg.rules.procedures",
    "domain.lcg.rules.quest",
    "domain.lcg.rules.redraw",
    "domain.lcg.rules.refresh",
    "domain.lcg.rules.resources",
    "domain.lcg.rules.round",
    "domain.lcg.rules.setup",
    "domain.lcg.rules.ship_keywords",
    "domain.lcg.rules.ships",
    "domain.lcg.rules.table",
    "domain.lcg.rules.travel",
    "domain.lcg.rules.triggers",
    "domain.lcg.rules.windows",
    "domain.wotr.rules.action",
    "domain.wotr.rules.draw",
    "domain.wotr.rules.location",
    "domain.wotr.rules.procedures",
    "domain.wotr.rules.redraw",
    "domain.wotr.rules.round",
    "domain.wotr.rules.setup",
    "domain.wotr.rules.table",
    "domain.wotr.rules.triggers",
    "domain.wotr.rules.victory",
    # the Core Set events' texts: every action window asks an Action event in hand whether it
    # has something to act on (its ``playable``), interpreted some 2.3 k instructions an event
    # of a Passage through Mirkwood random game (callgrind, seeds 1-60 less 1-10)
    "domain.lcg.cards.core_set_events",
    "domain.lcg.effects",
    "domain.lcg.moving",
    "domain.wotr.moving",
    "domain.wotr.effects",
    # the views: each seat's feed of a command's events, told as the table's story
    "projections.feed",
    "projections.story",
    "projections.lcg_view",
    # the phrases a feed tells each event in: compiled, the floor 2.411 M -> 2.140 M
    # instructions a command (callgrind, 12 games less 4, 322 commands)
    "projections.phrases_shared",
    "projections.phrases_lcg",
    # and the rest the feed says through: every line's say()/_()/language() (~37 k
    # instructions a command interpreted), a prompt's translate(), the card events', the
    # Dreadnaught's and the Hobbit boxes' phrases, and the War of the Ring's
    "projections.i18n",
    "projections.prompts",
    "projections.phrases_lcg_events",
    "projections.phrases_lcg_hunt",
    "projections.phrases_hobbit",
    "projections.phrases_wotr",
    # the search's blueprint: the LCG greedy player its rollouts play in every seat, and the
    # view it reads (above), where a compiled search rollout spent most of its time (stop 39)
    "bots.lcg_burgle",
    "bots.lcg_encounter",
    "bots.lcg_events",
    "bots.lcg_greedy",
    "bots.lcg_hobbit",
    "bots.lcg_plans",
    "bots.lcg_quest",
    "bots.lcg_ships",
)
"""The modules the profile names (BENCHMARKS.md, compiled core), as dotted names.

Modules defining ``msgspec.Struct`` classes (events, states, decisions) stay interpreted:
msgspec's own C already serves those classes, and a Struct class built by mypyc refuses a
Struct as a field's default. So do the rulesets' classes (``domain/*/ruleset.py``): a
compiled class cannot be subclassed by interpreted code, and tests and fixtures subclass
them; they only dispatch to the compiled rules."""

PACKAGES: tuple[str, ...] = tuple(dict.fromkeys(m.partition(".")[0] for m in COMPILED))
"""The packages holding compiled modules (``domain``, ``projections``, ``bots``): where a
build writes its extension modules and a clean removes them. Each one's ``__init__``
imports ``domain`` first, so :func:`install` has decided the build before any of their
compiled modules is imported."""

_mode = "pure"
_reason = "not yet decided"


def source(module: str) -> Path:
    """The source file of a module of :data:`COMPILED`."""
    return ROOT.joinpath(*module.split(".")).with_suffix(".py")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def extension(module: str) -> Path | None:
    """The extension module built for ``module`` beside its source, if there is one."""
    path = source(module)
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = path.with_suffix(suffix)
        if candidate.exists():
            return candidate
    return None


def mode() -> str:
    """``"compiled"`` or ``"pure"``: which build this process runs."""
    return _mode


def reason() -> str:
    """Why this process runs the build :func:`mode` names."""
    return _reason


def _decide() -> tuple[str, str, list[str]]:
    """The mode, why, and the sources whose build differs from them (to warn about)."""
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return "pure", f"{PURE_ENV} is set", []
    built = [m for m in COMPILED if extension(m) is not None]
    if not MANIFEST.exists():
        if built:
            return "pure", "extension modules without a build manifest (an interrupted build)", built
        return "pure", "the pure-Python build (no C compiler, or WESTMARCH_PURE=1 at build time)", []
    recorded = _recorded()
    if sorted(recorded) != sorted(COMPILED):
        return (
            "pure",
            "the list of compiled modules changed since the compiled build",
            sorted(set(recorded) ^ set(COMPILED)),
        )
    stale = [m for m in COMPILED if not source(m).exists() or recorded[m] != digest(source(m))]
    stale += [m for m in COMPILED if m not in stale and extension(m) is None]
    if stale:
        return "pure", "sources changed since the compiled build", stale
    return "compiled", "the compiled build, matching its sources", []


def _recorded() -> dict[str, str]:
    """The build manifest: each compiled module's source hash when it was compiled."""
    if not MANIFEST.exists():
        return {}
    recorded: dict[str, str] = json.loads(MANIFEST.read_text())
    return recorded


class _SourceFirst:
    """A meta path finder importing the modules of :data:`COMPILED` from their ``.py`` files."""

    def __init__(self, modules: Sequence[str]) -> None:
        self.modules = frozenset(modules)

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname not in self.modules:
            return None
        file = source(fullname)
        if not file.exists():
            return None
        return importlib.util.spec_from_file_location(fullname, file)


def install() -> None:
    """Decide the build once per process, before any compiled module is imported."""
    global _mode, _reason
    if any(isinstance(finder, _SourceFirst) for finder in sys.meta_path) or _reason != "not yet decided":
        return
    _mode, _reason, stale = _decide()
    if stale:
        print(
            "westmarch: THE COMPILED CORE IS OUT OF DATE, running pure Python instead "
            f"({_reason}: {', '.join(source(m).relative_to(ROOT).as_posix() for m in stale)}). "
            "Rebuild it with `pip install -e .`, or set WESTMARCH_PURE=1 to silence this.",
            file=sys.stderr,
        )
    if _mode == "pure":
        sys.meta_path.insert(0, _SourceFirst((*COMPILED, *_recorded())))


def loaded() -> dict[str, bool]:
    """Of the modules of :data:`COMPILED` imported so far, which run from an extension module."""
    out: dict[str, bool] = {}
    for name in COMPILED:
        module = sys.modules.get(name)
        if module is not None:
            out[name] = str(getattr(module, "__file__", "")).endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
    return out
