"""Maintain the translation catalogs (``python -m tools.i18n`` or ``westmarch i18n``).

``extract`` collects every message marked with ``_``, ``gettext``, ``ngettext``,
``pgettext`` or ``N_`` in the Python packages into the template ``westmarch.pot``; ``update``
merges the template into each language's ``.po`` (new messages empty, changed ones fuzzy);
``compile`` writes each ``.mo`` from its ``.po``; ``check`` says which messages a language
lacks or has fuzzy, and fails if any. With no command: extract, update, compile.

Babel keeps the catalogs (its merge, its ``.po`` and ``.mo`` writers, each language's plural
rule); the messages are found by walking each module's syntax tree (:func:`marked`), since
Babel's own Python extractor loses a message marked inside another marked call's arguments
(``say("%(sum)s", sum=_("no icons"))``). Babel is needed only by maintainers and tests, never
at run time, where :mod:`gettext` reads the ``.mo``.
"""

from __future__ import annotations

import argparse
import ast
import io
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from projections.i18n import DEFAULT, DOMAIN, LANGUAGES, LOCALE_DIR

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("domain", "projections", "service", "tools", "bots")
KEYWORDS: dict[str, tuple[int | tuple[int, str], ...] | None] = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "N_": None,
    "say": None,
    "phrase": None,  # tools/phrase.py: a benchmark's words
    "nsay": (1, 2),
    "N_plural": (1, 2),
    "NP_": ((1, "c"), 2),
}
_HEADER = "Westmarch: what the table, the story and the commands say"
_EPOCH = datetime(2026, 12, 3, tzinfo=UTC)
"""A fixed date in the headers: the catalogs change only when their messages do."""


def template() -> Catalog:
    """Every marked message of the Python packages, with where it is written."""
    catalog = Catalog(
        project="westmarch", header_comment=f"# {_HEADER}.", creation_date=_EPOCH, revision_date=_EPOCH, fuzzy=False
    )
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = str(path.relative_to(ROOT))
            if name.startswith("service/rpc/gen/"):
                continue
            for lineno, message, context in marked(path):
                catalog.add(
                    message,
                    None,
                    [(name, lineno)],
                    context=context,
                    flags=("python-format",) if _formatted(message) else (),
                )
    for path in sorted(ROOT.glob(HELP_FILES)):
        name = str(path.relative_to(ROOT))
        for lineno, message in help_strings(path):
            catalog.add(message, None, [(name, lineno)], flags=("python-format",) if "%(" in message else ())
    return catalog


def marked(path: Path) -> list[tuple[int, str | tuple[str, str], str | None]]:
    """The messages marked in a module: each call of a :data:`KEYWORDS` function (by name,
    or as an attribute: ``i18n._``) whose message arguments are string literals, nested
    calls included (``say("%(a)s", a=_("b"))`` marks both), with its line and context."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[int, str | tuple[str, str], str | None]] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if name not in KEYWORDS:
            continue
        spec = KEYWORDS[name] or (1,)
        texts: list[str] = []
        context: str | None = None
        for position in spec:
            index, is_context = (position[0], True) if isinstance(position, tuple) else (position, False)
            arg = node.args[index - 1] if len(node.args) >= index else None
            if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
                texts = []
                break
            if is_context:
                context = arg.value
            else:
                texts.append(arg.value)
        if not texts or not texts[0]:
            continue
        message: str | tuple[str, str] = texts[0] if len(texts) == 1 else (texts[0], texts[1])
        found.append((node.lineno, message, context))
    return sorted(found, key=lambda item: item[0])


HELP_FILES = "tools/*.py"
"""Where the command line's ``help=`` and ``description=`` strings are written."""


def help_strings(path: Path) -> list[tuple[int, str]]:
    """The ``help=`` and ``description=`` strings of a command-line module (argparse's
    arguments) and the help of each ``command(name, help, ...)``, each with its line:
    messages that are not calls of ``_``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        value: ast.expr | None = None
        if isinstance(node, ast.keyword) and node.arg in ("help", "description"):
            value = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "command":
            value = node.args[1] if len(node.args) > 1 else None  # command(name, help, fn): tools/cli.py
        if isinstance(value, ast.Constant) and isinstance(value.value, str) and value.value:
            found.append((value.lineno, value.value))
    return found


def _formatted(message: str | tuple[str, ...]) -> bool:
    texts = (message,) if isinstance(message, str) else message
    return any("%(" in text for text in texts)


@dataclass(frozen=True)
class Catalogs:
    """Where the catalogs of one gettext domain are kept, and how a language's is read: the
    Python side's (:data:`PYTHON`) and the web page's (``tools/i18n_web.py``) alike."""

    domain: str
    locale_dir: Path
    project: str
    header: str
    """The header comment of a new catalog, before ``: <lang>.``"""

    def po_path(self, lang: str) -> Path:
        """``<locale_dir>/<lang>/LC_MESSAGES/<domain>.po``."""
        return self.locale_dir / lang / "LC_MESSAGES" / f"{self.domain}.po"

    def read(self, lang: str) -> Catalog:
        """The catalog of ``lang`` as its ``.po`` says, or a new empty one if there is none yet."""
        path = self.po_path(lang)
        if not path.exists():
            return Catalog(
                locale=lang,
                domain=self.domain,
                project=self.project,
                header_comment=f"{self.header}: {lang}.",
                copyright_holder="the Westmarch authors",
                msgid_bugs_address="",
                last_translator="the Westmarch authors",
                language_team=lang,
                creation_date=_EPOCH,
                revision_date=_EPOCH,
                fuzzy=False,
            )
        with path.open("rb") as handle:
            return read_po(handle, locale=lang, domain=self.domain)


PYTHON = Catalogs(DOMAIN, LOCALE_DIR, "westmarch", f"# {_HEADER}")
"""The catalogs of the Python packages' messages."""
po_path = PYTHON.po_path
read = PYTHON.read


def _po_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=100, sort_output=False, omit_header=False, include_lineno=False)
    return out.getvalue()


def mo_bytes(catalog: Catalog) -> bytes:
    """The compiled catalog; fuzzy translations are left out, as msgfmt does."""
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def extract() -> Catalog:
    pot = template()
    path = LOCALE_DIR / f"{DOMAIN}.pot"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(_po_bytes(pot))
    return pot


def update(pot: Catalog, languages: Iterable[str]) -> None:
    for lang in languages:
        catalog = read(lang)
        catalog.update(pot, no_fuzzy_matching=False, update_header_comment=False)
        catalog.obsolete.clear()
        catalog.creation_date = catalog.revision_date = _EPOCH
        path = po_path(lang)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(_po_bytes(catalog))


def compile_(languages: Iterable[str]) -> None:
    for lang in languages:
        po_path(lang).with_suffix(".mo").write_bytes(mo_bytes(read(lang)))


def missing(lang: str, pot: Catalog | None = None) -> list[str]:
    """The messages of the template that ``lang`` lacks a translation for, or has fuzzy."""
    pot = template() if pot is None else pot
    catalog = read(lang)
    out: list[str] = []
    for message in pot:
        if not message.id:
            continue
        mine: Message | None = catalog.get(message.id, message.context)
        if mine is None or mine.fuzzy or not _translated(mine):
            out.append(message.id if isinstance(message.id, str) else message.id[0])
    return out


def _translated(message: Message) -> bool:
    strings = message.string if isinstance(message.string, (list, tuple)) else (message.string,)
    return bool(strings) and all(strings)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="westmarch i18n", description=__doc__.split("\n\n")[0])
    parser.add_argument("command", nargs="?", choices=("extract", "update", "compile", "check", "all"), default="all")
    parser.add_argument("--lang", action="append", choices=LANGUAGES[1:], help="only this language (repeatable)")
    args = parser.parse_args(argv)
    languages = [lang for lang in (args.lang or LANGUAGES) if lang != DEFAULT]
    if args.command in ("extract", "update", "all"):
        pot = extract()
        if args.command != "extract":
            update(pot, languages)
    if args.command in ("compile", "all"):
        compile_(languages)
    if args.command == "check":
        pot = template()
        bad = False
        for lang in languages:
            lacking = missing(lang, pot)
            for message in lacking:
                print(f"{lang}: untranslated or fuzzy: {message!r}")
            bad = bad or bool(lacking)
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
