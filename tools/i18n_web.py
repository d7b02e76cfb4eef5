"""Maintain the web page's catalogs (``python -m tools.i18n_web [extract|update|compile|check]``).

The page's own words are English texts marked ``N_("...")`` (``NP_(singular, plural)`` for
a counted one) in ``service/web/static/*.js``. ``extract`` collects them with Babel's
JavaScript extractor into the template ``service/web/locale/westmarch_web.pot``; ``update``
merges the template into each language's ``.po`` (a new text empty, a changed one fuzzy);
``compile`` writes each ``.mo``, which the server reads (``service/web/i18n.py``);
``check`` lists what a language lacks, has fuzzy or words with other placeholders, and
fails if anything. With no command: extract, update, compile, check.

Babel is needed here and in the tests, never by the server.
"""

from __future__ import annotations

import argparse
import io
import re
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from service.web.i18n import DOMAIN, LANGUAGES, LOCALE_DIR, SOURCE
from tools.i18n import Catalogs

STATIC = Path(__file__).resolve().parent.parent / "service" / "web" / "static"
KEYWORDS: dict[str, tuple[int, ...] | None] = {"N_": None, "NP_": (1, 2)}
HEADER = "# Westmarch: the words of the web page"
EPOCH = datetime(2026, 12, 3, tzinfo=UTC)
"""A fixed date in the headers: a catalog changes only when its texts do."""
PLACE = re.compile(r"\{(\w+)\}")


def template() -> Catalog:
    """Every marked text of the page's scripts, with where it is written."""
    catalog = Catalog(
        project="westmarch-web",
        domain=DOMAIN,
        header_comment=HEADER + ".",
        creation_date=EPOCH,
        revision_date=EPOCH,
        fuzzy=False,
    )
    for filename, lineno, message, comments, context in extract_from_dir(
        STATIC, [("**.js", "javascript")], keywords=KEYWORDS, comment_tags=("TRANSLATORS:",), strip_comment_tags=True
    ):
        catalog.add(
            message, None, [(f"service/web/static/{filename}", lineno)], auto_comments=comments, context=context
        )
    return catalog


def pot_path() -> Path:
    return LOCALE_DIR / f"{DOMAIN}.pot"


WEB = Catalogs(DOMAIN, LOCALE_DIR, "westmarch-web", HEADER)
"""The page's catalogs, kept and read as the Python side's are."""
po_path = WEB.po_path
read = WEB.read


def _write(path: Path, catalog: Catalog) -> None:
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, sort_output=False, omit_header=False)
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_bytes() != buffer.getvalue():
        path.write_bytes(buffer.getvalue())


def extract() -> Catalog:
    catalog = template()
    _write(pot_path(), catalog)
    return catalog


def update(lang: str, source: Catalog) -> None:
    catalog = read(lang)
    catalog.update(source, update_header_comment=False)
    catalog.revision_date = EPOCH
    catalog.obsolete.clear()
    _write(po_path(lang), catalog)


def compiled(lang: str) -> bytes:
    """The ``.mo`` of a language's ``.po``, as ``compile`` writes it."""
    buffer = io.BytesIO()
    write_mo(buffer, read(lang), use_fuzzy=False)
    return buffer.getvalue()


def compile_mo(lang: str) -> None:
    path = po_path(lang).with_suffix(".mo")
    data = compiled(lang)
    if not path.exists() or path.read_bytes() != data:
        path.write_bytes(data)


def _texts(value: object) -> tuple[str, ...]:
    """A message's id or string as its texts (a counted one has several)."""
    return tuple(str(v) for v in value) if isinstance(value, (tuple, list)) else (str(value),)


def places(text: str) -> set[str]:
    return set(PLACE.findall(text))


def problems(lang: str, source: Catalog) -> list[str]:
    """What a language's catalog lacks: a text of the template with no translation, a fuzzy
    one, one whose placeholders differ from the English, a form missing."""
    return problems_of(read(lang), source)


def problems_of(catalog: Catalog, source: Catalog) -> list[str]:
    """:func:`problems` of a catalog as read (``catalog.locale`` names its language)."""
    lang = str(catalog.locale)
    found: list[str] = []
    for message in source:
        if not message.id:
            continue
        key = message.id if isinstance(message.id, str) else message.id[0]
        have = catalog.get(message.id)
        if have is None or not have.string or (isinstance(have.string, tuple) and not all(have.string)):
            found.append(f"{lang}: no translation of {key!r}")
            continue
        if have.fuzzy:
            found.append(f"{lang}: fuzzy translation of {key!r}")
        english = _texts(message.id)
        wanted = set().union(*(places(text) for text in english))
        forms = _texts(have.string)
        if isinstance(message.id, tuple) and len(forms) != catalog.num_plurals:
            found.append(f"{lang}: {len(forms)} forms of {key!r}, the language has {catalog.num_plurals}")
        for form in forms:
            if places(form) != wanted:
                found.append(f"{lang}: {form!r} has the places {sorted(places(form))}, {key!r} has {sorted(wanted)}")
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.i18n_web", description=__doc__.split("\n\n")[0])
    parser.add_argument("command", nargs="?", default="all", choices=("extract", "update", "compile", "check", "all"))
    args = parser.parse_args(argv)
    targets = [lang for lang in LANGUAGES if lang != SOURCE]
    if args.command in ("extract", "update", "all"):
        source = extract()
    else:
        with pot_path().open("rb") as handle:
            source = read_po(handle)
    if args.command in ("update", "all"):
        for lang in targets:
            update(lang, source)
    if args.command in ("compile", "all"):
        for lang in targets:
            compile_mo(lang)
    if args.command in ("check", "all"):
        found = [line for lang in targets for line in problems(lang, source)]
        for line in found:
            print(line, file=sys.stderr)
        if found:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
