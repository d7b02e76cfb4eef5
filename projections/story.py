"""The story of a game: one plain-English sentence per event, as a log of the table.

:func:`describe` gives the sentence for an event; :func:`story` walks a whole game, folding
as it goes so that card names resolve. The referee's log (``westmarch log``) and the
per-viewer feed (:mod:`projections.feed`) both use it.

Each game's sentences live in its phrasebook, registered here by ruleset name
(:mod:`projections.phrases_lcg`, :mod:`projections.phrases_wotr`); the kernel's events are
phrased in this module; an event no phrasebook knows falls back to a generic
``Type(field=value, ...)`` line.

A phrase reads the event as its *body* (the event as JSON-native values, the way the feed
sends it) through :class:`Said`, never the event object, so the same phrase serves an event
a viewer sees in full and one from which their hidden cards were removed
(:func:`describe_body`): a card field that is missing, ``None`` or not seen reads "a card"
(or "2 cards", "a face-down shadow card"), never a name and never a uid (uids follow the
decklists, so a uid alone would tell the card). A phrase may look at the state (a player's
threat, a card's stage), but only for public facts and for cards the event itself names.

In the feed, an event from which nothing was removed is told by :func:`describe`; for one
from which something was removed, :func:`describe_body` takes the arguments of the feed's
own ``_text`` (kind, redacted body, namer, seeing) and tells it in the same words.

A ``DecisionAnswered`` is told by the labels of the options chosen when the :class:`Namer`
saw the question (:func:`story` and the feed describe every event in order). The feed
describes a ``DecisionRequested`` in full only to the seat that decides (and the referee),
so the labels an answer shows are ones its reader was already shown.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, TypeVar

import msgspec

from domain.kernel.decisions import Decision, Kind
from domain.kernel.events import KERNEL_EVENTS, DecisionRequested, Event
from domain.kernel.ruleset import Ruleset
from domain.kernel.runtime import apply
from domain.kernel.state import State
from projections.i18n import N_, N_plural, _, card_name, language, nsay, pgettext, say
from projections.prompts import translate

ENVELOPE = ("seq", "cause", "flow", "draws", "hash", "type")
"""Body keys that are not what the event says happened."""

Seeing = Callable[[int], bool]


class Namer:
    """Turns card uids into names, given the state the event was applied to.

    It also remembers the last decision it saw asked in full (:func:`describe` of a
    ``DecisionRequested``), so that the answer can be told by its option labels.
    """

    def __init__(self, rules: Ruleset[Any], state: State, uids: bool = False) -> None:
        self.rules, self.state = rules, state
        self.uids = uids
        """Name cards with their uids (``Forest Spider#28``): for tools that point at one card
        of a log (a fixture's diagnosis); a person reads names only."""
        self.asked: Decision | None = None
        self.number_asked: int | None = None
        """The id of the last decision asked for a number that this reader saw only in part."""
        self.rule_asked: tuple[int, str] | None = None
        """The id and rule of the last decision this reader saw only in part (who decides, under
        which rule): an answer to it is told in words the rule gives its option ids."""
        self.book = phrasebook(rules.name)

    def card(self, uid: int | None) -> str:
        """``Name#uid``: the card's printed name and its uid, a reference for the referee's
        tools (a cause, an explanation); a sentence names a card by :meth:`name`."""
        if uid is None:
            return "-"
        return f"{card_name(self.rules.card_name(self.state, uid))}#{uid}"

    def cards(self, uids: Iterable[int]) -> str:
        return pgettext("list", ", ").join(self.card(u) for u in uids) or _("nothing")

    def name(self, uid: int) -> str:
        """The card as a sentence names it: its name as the game's phrasebook says it (the
        quest card by the side it shows), else its printed name; ``Name#uid`` for a card
        other than a hero, the quest card or a location when this namer gives uids."""
        if self.book is not None:
            named = self.book.name(self.state, uid)
            if named is not None:
                return card_name(named)
        if self.uids:
            return self.card(uid)
        if uid not in getattr(self.state, "cards", ()):
            return _("a card")
        return card_name(self.rules.card_name(self.state, uid))


# -- words ----------------------------------------------------------------------------------


def join(items: Sequence[str], last: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c`` (``last``: ``and`` or ``or``), in the language spoken."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    comma = pgettext("list", ", ")
    if any(comma in item for item in items):  # "Narya, Ring of Fire#30"
        comma = pgettext("list of lists", "; ")
    head = comma.join(items[:-1])
    if last == "or":
        return say("%(items)s or %(last)s", items=head, last=items[-1])
    return say("%(items)s and %(last)s", items=head, last=items[-1])


COUNTED: dict[str, tuple[str, str]] = {
    "card": N_plural("%(n)d card", "%(n)d cards"),
    "option": N_plural("%(n)d option", "%(n)d options"),
    "resource": N_plural("%(n)d resource", "%(n)d resources"),
    "progress token": N_plural("%(n)d progress token", "%(n)d progress tokens"),
    "face-down card": N_plural("%(n)d face-down card", "%(n)d face-down cards"),
    "hidden card": N_plural("%(n)d hidden card", "%(n)d hidden cards"),
    "attack icon": N_plural("%(n)d attack icon", "%(n)d attack icons"),
    "attack token": N_plural("%(n)d attack token", "%(n)d attack tokens"),
    "defense token": N_plural("%(n)d defense token", "%(n)d defense tokens"),
    "damage token": N_plural("%(n)d damage token", "%(n)d damage tokens"),
    "ring token": N_plural("%(n)d Ring token", "%(n)d Ring tokens"),
    "corruption token": N_plural("%(n)d corruption token", "%(n)d corruption tokens"),
    "point": N_plural("%(n)d point", "%(n)d points"),
}
"""The things a story counts, each as a counted message (``%(n)d card`` / ``%(n)d cards``)."""

ONE: dict[str, str] = {
    "card": N_("a card"),
    "face-down card": N_("a face-down card"),
    "hidden card": N_("a hidden card"),
    "option": N_("an option"),
}
"""The same things, one of them read ``a card``."""


def plural(n: int, noun: str, nouns: str | None = None) -> str:
    """``1 card``, ``2 cards``: the counted message of ``noun`` (:data:`COUNTED`); a noun not
    there is counted in English."""
    forms = COUNTED.get(noun)
    if forms is not None:
        return nsay(forms[0], forms[1], n)
    return f"{n} {noun if n == 1 else nouns or noun + 's'}"


def a_or_n(n: int, noun: str, nouns: str | None = None) -> str:
    """``a card``, ``2 cards`` (``an`` before a vowel)."""
    if n == 1 and noun in ONE:
        return _(ONE[noun])
    if n != 1 and noun in COUNTED:
        return plural(n, noun, nouns)
    if n == 1:
        return f"{'an' if noun[:1] in 'aeiou' else 'a'} {noun}"
    return plural(n, noun, nouns)


def possessive(name: str) -> str:
    """``Aragorn's``, ``Gandalf's``, ``Legolas'``: English only, as the blank ``%(card_s)s`` of
    a message; a translation says ``%(card)s`` its own way instead."""
    return f"{name}'" if name.endswith("s") and "#" not in name else f"{name}'s"


def words(code: str) -> str:
    """A rule word as text: ``sudden-death`` -> ``sudden death``."""
    return code.replace("-", " ").replace("_", " ")


@dataclass
class Cards:
    """The cards a list field names, as one reader sees them: names, and a count of the rest."""

    names: list[str] = field(default_factory=list)
    uids: list[int] = field(default_factory=list)
    hidden: int = 0

    @property
    def count(self) -> int:
        return len(self.names) + self.hidden

    def text(self, noun: str = "card", nouns: str | None = None) -> str:
        """``Aragorn, Gimli and Legolas``; ``2 cards``; ``Gandalf#12 and a face-down card``."""
        rest = [a_or_n(self.hidden, noun, nouns)] if self.hidden else []
        return join([*self.names, *rest]) or _("no cards")

    def be(self, one: str = "is", many: str = "are") -> str:
        """The verb that agrees with the cards: ``is`` or ``are``."""
        return one if self.count == 1 else many


class Said:
    """What one event says, as its reader may see it.

    ``body`` is the event as JSON-native values (``msgspec.to_builtins``); a field left out
    because it holds its default reads as the default, a card field removed because the
    reader may not see it reads as hidden. ``seeing`` (None: the reader sees everything)
    is asked again before any uid becomes a name.
    """

    def __init__(
        self,
        kind: str,
        body: Mapping[str, Any],
        name: Namer,
        seeing: Seeing | None = None,
        defaults: Mapping[str, Any] | None = None,
    ) -> None:
        self.kind, self.body, self.namer, self.seeing = kind, body, name, seeing
        self.defaults = defaults if defaults is not None else {}

    @property
    def state(self) -> Any:
        return self.namer.state

    def __getitem__(self, key: str) -> Any:
        return self.get(key)

    def get(self, key: str, default: Any = None) -> Any:
        if key in self.body:
            return self.body[key]
        return self.defaults.get(key, default)

    def has(self, key: str) -> bool:
        return self.get(key) is not None

    def sees(self, uid: Any) -> bool:
        """Whether ``uid`` is a card uid the reader may see."""
        if not isinstance(uid, int) or isinstance(uid, bool):
            return False
        return self.seeing is None or self.seeing(uid)

    def uid(self, key: str) -> int | None:
        """The card in field ``key``, if it is there and the reader may see it."""
        value = self.body.get(key)
        return value if self.sees(value) else None

    def named(self, uid: Any, hidden: str = "a card") -> str:
        """The card's name, or ``hidden`` (an English message, said in the language spoken)."""
        return self.namer.name(uid) if self.sees(uid) else _(hidden) if hidden else hidden

    def card(self, key: str, hidden: str = "a card") -> str:
        """The name of the card in field ``key``, or ``hidden`` (said in the language spoken)."""
        return self.named(self.body.get(key), hidden)

    def cards(self, key: str, uid_of: Callable[[Any], Any] = lambda item: item) -> Cards:
        """The cards a list field names: those seen by name, the others counted."""
        out = Cards(hidden=int(self.body.get(f"{key}_hidden", 0) or 0))
        for item in self.body.get(key) or ():
            uid = uid_of(item)
            if self.sees(uid):
                out.names.append(self.namer.name(uid))
                out.uids.append(uid)
            else:
                out.hidden += 1
        return out

    def rule_asked(self) -> str:
        """The rule of the decision this event answers, if the reader saw it only in part ("")."""
        asked = self.namer.rule_asked
        return asked[1] if asked is not None and asked[0] == self.get("decision") else ""

    def zone(self, zone: str) -> str:
        """A zone key in words (``p1.hand`` -> ``p1's hand``)."""
        book = self.namer.book
        return book.zone(zone) if book is not None else zone


Phrase = Callable[[Said], str]


@dataclass
class Phrasebook:
    """One game's sentences, by event type name, and how it names cards and zones."""

    game: str
    phrases: dict[str, Phrase]
    name: Callable[[Any, int], str | None] = lambda state, uid: None
    """A card's name in a sentence when the uid adds nothing (None: ``Name#uid``)."""
    zone: Callable[[str], str] = lambda zone: zone
    asks: Callable[[str], str] = lambda rule: "a question of the rules"
    """What a decision under a rule key is about, in words (``lcg.quest.commit`` ->
    ``which characters to commit to the quest``): the line another seat's decision reads."""
    option: Callable[[Said, str], str | None] = lambda said, choice: None
    """An option id of a question the reader was not shown, in words (None: the kernel's
    reading, :func:`_unasked`)."""


_MODULES = {"lcg": "projections.phrases_lcg", "wotr": "projections.phrases_wotr"}
"""Where each game's phrasebook lives; it registers itself when imported."""
_BOOKS: dict[str, Phrasebook] = {}


def register(book: Phrasebook) -> Phrasebook:
    """Make ``book`` the phrasebook of the ruleset named ``book.game``."""
    _BOOKS[book.game] = book
    _PHRASED.clear()
    return book


def phrasebook(game: str) -> Phrasebook | None:
    """The phrasebook of a ruleset by name, or None for a game without one."""
    book = _BOOKS.get(game)
    if book is None and game in _MODULES:
        importlib.import_module(_MODULES[game])
        book = _BOOKS.get(game)
    return book


def phrase_for(game: str, kind: str) -> Phrase | None:
    """The phrase for events of type ``kind`` in ``game`` (None: the generic fallback)."""
    book = phrasebook(game)
    found = book.phrases.get(kind) if book is not None else None
    return found if found is not None else KERNEL.get(kind)


# -- describing -----------------------------------------------------------------------------


def describe(event: Event, name: Namer, body: Mapping[str, Any] | None = None) -> str:
    """A one-line account of ``event`` (the state must already include it).

    Every card the event names is named: this is the referee's line, and the feed's for a
    viewer from whom nothing in the event is hidden. ``body`` is the event's fields without
    its envelope, if the caller has them already.
    """
    if type(event) is DecisionRequested:  # (its type has no subtypes) not an isinstance per event
        name.asked = event.decision
    if body is None:
        fields: dict[str, Any] = msgspec.to_builtins(event)
        for key in ENVELOPE:
            fields.pop(key, None)
        body = fields
    return _say(type(event).__name__, body, name, None)


def describe_body(kind: str, body: Mapping[str, Any], name: Namer, seeing: Seeing | None = None) -> str:
    """A one-line account of an event of type ``kind`` from its (possibly redacted) body.

    ``body`` is what :class:`projections.feed.Feed` sends a viewer: card fields they may not
    see are removed (list fields keep the cards they see and count the rest in
    ``<field>_hidden``). A missing card reads "a card", never a name or a uid; ``seeing``,
    if given, is asked again before any uid is named.
    """
    if kind == "DecisionRequested":
        decision = body.get("decision") or {}
        if "options" in decision and "prompt" in decision:  # shown to this reader in full
            name.asked = msgspec.convert(decision, Decision)
        elif decision.get("kind") == Kind.NUMBER:
            name.number_asked = decision.get("id")
        if "options" not in decision and isinstance(decision.get("id"), int):
            name.rule_asked = (int(decision["id"]), str(decision.get("rule", "")))
    return _say(kind, body, name, seeing)


def _say(kind: str, body: Mapping[str, Any], name: Namer, seeing: Seeing | None) -> str:
    game = name.rules.name
    found = _PHRASED.get((game, kind))
    if found is None:
        found = _PHRASED[game, kind] = (phrase_for(game, kind), _defaults(game, kind))
    phrase, defaults = found
    said = Said(kind, body, name, seeing, defaults)
    return phrase(said) if phrase is not None else generic(said)


_PHRASED: dict[tuple[str, str], tuple[Phrase | None, dict[str, Any]]] = {}
"""Each game's phrase and field defaults of each event type told so far (:func:`_say`)."""


@cache
def _event_types(game: str) -> dict[str, type[Event]]:
    from domain.rulesets import ruleset

    try:
        events = ruleset(game).events
    except KeyError:
        events = ()
    return {t.__name__: t for t in (*KERNEL_EVENTS, *events)}


@cache
def _defaults(game: str, kind: str) -> dict[str, Any]:
    """The default of each field of an event type, as body values (``omit_defaults`` drops
    fields that hold their default from a body)."""
    event_type = _event_types(game).get(kind)
    if event_type is None:
        return {}
    out: dict[str, Any] = {}
    for f in msgspec.structs.fields(event_type):
        if f.default is not msgspec.NODEFAULT:
            out[f.name] = msgspec.to_builtins(f.default)
        elif f.default_factory is not msgspec.NODEFAULT:
            out[f.name] = msgspec.to_builtins(f.default_factory())
    return out


_CARD_KEYS = frozenset({"card", "enemy", "defender", "to", "location", "wielder", "target", "source"})
_LIST_KEYS = frozenset({"cards", "attackers"})


def generic(said: Said) -> str:
    """``Type(field=value, ...)``: the line of an event no phrasebook knows."""
    fields: list[str] = []
    for key, value in said.body.items():
        if key in ENVELOPE or key.endswith("_hidden"):
            continue
        text: Any = value
        if key in _CARD_KEYS and isinstance(value, int) and not isinstance(value, bool):
            text = said.named(value)
        elif key in _LIST_KEYS and isinstance(value, list):
            text = said.cards(key, _first).text()
        elif key == "order" and isinstance(value, list):
            text = plural(len(value), "card")
        elif isinstance(value, list | dict) and len(str(value)) > 80:
            text = "…"
        fields.append(f"{key}={text}")
    return f"{said.kind}({', '.join(fields)})"


def _first(item: Any) -> Any:
    """The uid of a list item: a uid, or a struct sent as an array (uid first) or a map."""
    if isinstance(item, list) and item:
        return item[0]
    if isinstance(item, dict):
        return item.get("uid")
    return item


# -- the kernel's events --------------------------------------------------------------------


SCOPES: dict[str, tuple[str, str, str]] = {
    "round": (N_("the round"), N_("the end of the round"), N_("this round")),
    "phase": (N_("the phase"), N_("the end of the phase"), N_("this phase")),
    "attack": (N_("the attack"), N_("the end of the attack"), N_("this attack")),
    "game": (N_("the game"), N_("the end of the game"), N_("this game")),
    "turn": (N_("the turn"), N_("the end of the turn"), N_("this turn")),
    "action": (N_("the action"), N_("the end of the action"), N_("this action")),
    "battle": (N_("the battle"), N_("the end of the battle"), N_("this battle")),
    "combat": (N_("the combat"), N_("the end of the combat"), N_("this combat")),
    "step": (N_("the step"), N_("the end of the step"), N_("this step")),
}
"""The scopes an effect lasts until the end of, as the story names them: the scope, its end,
and this one (whole phrases: a language's article agrees with the scope's noun)."""


STATS = {
    "willpower": N_("willpower"),
    "attack": N_("attack"),
    "defense": N_("defense"),
    "threat": N_("threat"),
    "hit-points": N_("hit points"),
    "hit_points": N_("hit points"),
    "hp": N_("hit points"),
    "cost": N_("cost"),
    "discount": N_("cost reduction"),
    "quest-points": N_("quest points"),
    "engagement": N_("engagement cost"),
    "shadow": N_("shadow"),
    "power": N_("power"),
    "value": N_("value"),
}
"""The stats a modifier changes, as the story names them."""


def prompt_text(prompt: str) -> str:
    """A decision's prompt, as the engine recorded it in English, in the language spoken
    (:mod:`projections.prompts`)."""
    return translate(prompt)


def label_text(label: str) -> str:
    """An option's label, as the engine recorded it in English, in the language spoken."""
    return translate(label)


def _scope(scope: Any, which: int, english: str) -> str:
    key = str(scope)
    return _(SCOPES[key][which]) if key in SCOPES else english % words(key)


def scope_the(scope: Any) -> str:
    """``the round``, in the language spoken."""
    return _scope(scope, 0, "the %s")


def scope_end(scope: Any) -> str:
    """``the end of the round``, in the language spoken."""
    return _scope(scope, 1, "the end of the %s")


def scope_this(scope: Any) -> str:
    """``this round``, in the language spoken."""
    return _scope(scope, 2, "this %s")


def stat_word(stat: Any) -> str:
    """A stat (``willpower``) in the language spoken; one not listed reads as its code."""
    key = str(stat)
    return _(STATS[key]) if key in STATS else words(key)


def _requested(said: Said) -> str:
    d = said.get("decision") or {}
    seat = d.get("seat", _("someone"))
    if "prompt" not in d:  # another seat's decision: who, and what the rule asks
        book = said.namer.book
        rule = str(d.get("rule", ""))
        what = book.asks(rule) if book is not None else _("a question of the rules")
        return say("%(seat)s must decide %(what)s", seat=seat, what=what)
    n = len(d.get("options") or ())
    kind = d.get("kind")
    if kind == Kind.NUMBER:
        how = say("a number from %(low)s to %(high)s", low=d.get("min", 1), high=d.get("max", 1))
    elif kind == Kind.MANY:
        low, high = d.get("min", 1), d.get("max", 1)
        if low == high:
            how = nsay("choose %(some)s of %(n)d", "choose %(some)s of %(n)d", n, some=high)
        elif low == 0:
            how = nsay("choose up to %(high)s of %(n)d", "choose up to %(high)s of %(n)d", n, high=high)
        else:
            how = nsay(
                "choose %(low)s to %(high)s of %(n)d", "choose %(low)s to %(high)s of %(n)d", n, low=low, high=high
            )
    elif kind == Kind.ORDER:
        how = nsay("put %(n)d option in order", "put %(n)d options in order", n)
    else:
        how = plural(n, "option")
    return say(
        "%(seat)s must decide: %(prompt)s [%(how)s]", seat=seat, prompt=prompt_text(str(d.get("prompt"))), how=how
    )


def _answered(said: Said) -> str:
    seat = said.get("seat", _("someone"))
    choice: list[str] = list(said.get("choice") or ())
    hidden = int(said.get("choice_hidden", 0) or 0)
    asked = said.namer.asked
    if asked is not None and asked.id == said.get("decision") and asked.seat == seat:
        if asked.kind is Kind.NUMBER:
            return say("%(seat)s chooses %(choice)s", seat=seat, choice=join(choice) or _("nothing"))
        if not choice:
            return say("%(seat)s chooses nothing", seat=seat)
        labels = [_label(said, asked, c) for c in choice]
        if asked.kind is Kind.ORDER:
            return say("%(seat)s puts them in order: %(labels)s", seat=seat, labels=pgettext("list", ", ").join(labels))
        return say("%(seat)s chooses: %(labels)s", seat=seat, labels=join(labels))
    if said.namer.number_asked is not None and said.namer.number_asked == said.get("decision"):
        return say("%(seat)s chooses %(choice)s", seat=seat, choice=join(choice) or _("nothing"))
    shown = [_unasked(said, c) for c in choice] + ([a_or_n(hidden, "hidden card")] if hidden else [])
    return say("%(seat)s chooses %(choice)s", seat=seat, choice=join(shown) or _("nothing"))


_WORDS = {
    "pass": N_("Pass"),
    "yes": N_("Yes"),
    "no": N_("No"),
    "done": N_("to stop"),  # "Make no more attacks", "Play no more cards": the seat stops
    "skip": N_("not to"),
    "ring": N_("to use their Ring token"),
    "winnow": N_("to winnow"),
    "cycle": N_("to cycle a card from their hand"),
    "deck": N_("the top card of their draw deck"),
}
"""Option ids that are words already, as a sentence says them."""


def _unasked(said: Said, choice: str) -> str:
    """An option of a question the reader was not shown, in words: the cards its id names
    (``28`` is Forest Spider#28, ``play.19.L154`` "play Gandalf#19 onto Osgiliath",
    ``3>28`` "Legolas attacks Forest Spider"), never a bare id."""

    def card(text: str) -> str:
        uid = int(text)
        return said.namer.name(uid) if said.sees(uid) else _("a card")

    book = said.namer.book
    told = book.option(said, choice) if book is not None else None
    if told is not None:
        return told
    if choice in _WORDS:
        return _(_WORDS[choice])
    if choice.isdigit():
        return card(choice)
    if ">" in choice:
        a, _sep, e = choice.partition(">")
        if a.isdigit() and e.isdigit():
            return say("%(attacker)s attacks %(enemy)s", attacker=card(a), enemy=card(e))
    parts = choice.split(".")
    verb = parts[0] if parts[0] in ("play", "move", "use") else ""
    if verb:
        parts = parts[1:]
    if not parts or not parts[0].isdigit():
        return choice.replace(".", " ").replace("-", " ")
    if not verb:
        verb = "play" if len(parts) > 1 and not parts[1].isdigit() else "use"
    where = ""
    for rest in parts[1:]:
        if rest[:1] == "L" and rest[1:].isdigit():
            where = say("onto %(card)s", card=card(rest[1:]))
        elif rest[:1] == "C" and rest[1:].isdigit():
            where = say("on %(card)s", card=card(rest[1:]))
        elif rest.isdigit() and verb == "move":  # move.<card>.<location>
            where = say("onto %(card)s", card=card(rest))
        elif rest == "reserve":
            where = _("to the reserve")
        elif rest == "event":
            where = _("as an event")
    name = card(parts[0])
    if verb == "play":
        return say("play %(card)s %(where)s", card=name, where=where) if where else say("play %(card)s", card=name)
    if verb == "move":
        return say("move %(card)s %(where)s", card=name, where=where) if where else say("move %(card)s", card=name)
    return say("use %(card)s %(where)s", card=name, where=where) if where else say("use %(card)s", card=name)


def _label(said: Said, decision: Decision, choice: str) -> str:
    """An option's label (with the uid of the card it is about, ``Aragorn#1 (p1)``, where
    the namer gives uids)."""
    option = decision.option(choice)
    if option is None:
        return _unasked(said, choice)
    label, card = label_text(option.label), option.card
    if not said.namer.uids:
        return label
    if card is not None and said.sees(card) and f"#{card}" not in label:
        printed = card_name(said.namer.rules.card_name(said.state, card))
        named = said.namer.name(card)
        if printed and printed in label and named != printed:
            return label.replace(printed, named, 1)
    return label


def _modifier(said: Said) -> str:
    m = said.get("modifier") or {}
    amount = int(m.get("amount", 0))
    source = m.get("source")
    target = said.named(m.get("target"))
    values = {
        "card": target,
        "amount": f"{amount:+d}",
        "stat": stat_word(m.get("stat")),
        "end": scope_end(m.get("until")),
    }
    if source != m.get("target") and said.sees(source):
        return say(
            "%(card)s gets %(amount)s %(stat)s from %(source)s until %(end)s",
            source=said.named(source),
            **values,
        )
    return say("%(card)s gets %(amount)s %(stat)s until %(end)s", **values)


def _delayed(said: Said) -> str:
    d = said.get("delayed") or {}
    return say(
        "%(effect)s will follow at %(end)s",
        effect=words(str(d.get("node", ""))),
        end=scope_end(d.get("at")),
    )


def _limit(said: Said) -> str:
    until = scope_this(said.get("until", "round"))
    key = said.get("key")
    if key is None:
        return say("a limited ability is used for %(until)s", until=until)
    parts = re.split(r"[:.]", str(key))  # a card's uid and a seat, as whole parts (``12:p1``)
    uids = [p for p in parts if p.isdigit()]
    if not uids:
        return say("a limit of the rules is used for %(until)s", until=until)
    card = said.named(int(uids[0]), N_("a card"))
    seats = [p for p in parts if p in getattr(said.state, "players", {})]
    if seats:
        return say(
            "%(card_s)s limit is used by %(seat)s for %(until)s",
            card_s=possessive(card),
            card=card,
            seat=seats[0],
            until=until,
        )
    return say("%(card_s)s limit is used for %(until)s", card_s=possessive(card), card=card, until=until)


def _scope_ended(said: Said) -> str:
    return say("%(scope)s is over: effects lasting until its end lapse", scope=scope_the(said.get("scope")))


def _ended(said: Said) -> str:
    o = said.get("outcome") or {}
    return say(
        "GAME OVER: %(result)s (%(reason)s)", result=words(str(o.get("result"))), reason=words(str(o.get("reason", "")))
    )


def _reseeded(said: Said) -> str:
    return _("a decision is taken back: the chance still to come is drawn afresh")


def _redrawn(said: Said) -> str:
    cards = said.get("cards")
    n = len(cards) if cards is not None else int(said.get("count", 0) or 0)
    piles = join([said.zone(str(z)) for z in said.get("piles") or ()]) or _("the face-down piles")
    return nsay(
        "the %(n)d face-down card no one has seen in %(piles)s is drawn afresh",
        "the %(n)d face-down cards no one has seen in %(piles)s are drawn afresh",
        n,
        piles=piles,
    )


KERNEL: dict[str, Phrase] = {
    "DecisionRequested": _requested,
    "DecisionAnswered": _answered,
    "ModifierAdded": _modifier,
    "DelayedEffectScheduled": _delayed,
    "LimitUsed": _limit,
    "ScopeEnded": _scope_ended,
    "GameEnded": _ended,
    "Reseeded": _reseeded,
    "CardsRedrawn": _redrawn,
}
"""The kernel's events, the same in every game (a phrasebook may phrase them its own way)."""


# -- a run of lines --------------------------------------------------------------------------

_SAME: dict[str, tuple[tuple[str, str], ...]] = {
    "en": ((" is ", " are "), (" goes ", " go "), (" moves to ", " move to ")),
    "es": (
        (" se añade ", " se añaden "),
        (" vuelve ", " vuelven "),
        (" entra ", " entran "),
        (" se pone ", " se ponen "),
        (" pasa ", " pasan "),
        (" se retira ", " se retiran "),
        (" queda explorado y va ", " quedan explorados y van "),
        (" queda explorado", " quedan explorados"),
        (" es destruido", " son destruidos"),
        (" es derrotado y va ", " son derrotados y van "),
        (" es derrotado", " son derrotados"),
        (" se vincula ", " se vinculan "),
        (" se desvincula y vuelve ", " se desvinculan y vuelven "),
        (" es hecho prisionero y se pone ", " son hechos prisioneros y se ponen "),
        (" es rescatado y se pone ", " son rescatados y se ponen "),
        (" recibe ", " reciben "),
    ),
    "ja": (("が", "が"),),
}
"""The verbs a line says of one card, and the same verb of several, in each language: the
words of the catalog's translations of the English lines that a run collapses (``%(card)s is
put at the bottom of %(zone)s``: ``se pone`` / ``se ponen``; Japanese does not inflect, the
subject's ``が`` is all there is to find)."""
_ENDS: dict[str, tuple[str, ...]] = {"ja": ("れる", "戻る", "出る", "移る")}
"""The endings a line of the language must have to be one a run may join (Japanese: what the
English verbs above translate to, so that ``p1がカードを1枚引く`` twice is not joined)."""
_NUMBERED = re.compile(r"^(#\d+ |\s*\d+\s+)?(.*)$", re.DOTALL)
T = TypeVar("T")


def collapse(lines: Sequence[str], names: int = 3) -> list[str]:
    """Lines in a row that say the same of different cards told once: ``Aragorn, Gimli and
    Legolas are removed from the quest``; more than ``names`` cards are counted: ``13 cards
    are put at the bottom of the Corsair deck``. A line may begin with its event's number
    (``#12 ``), which the first line of a run keeps. The lines are in the language spoken,
    and so are the verbs looked for (:data:`_SAME`)."""
    lang = language()
    verbs = _SAME.get(lang, ())
    ends = _ENDS.get(lang, ())
    out: list[str] = []
    run: list[tuple[str, str]] = []  # (name, number) of each line of the current run
    said: tuple[str, int] | None = None  # what the run says, and which verb

    def flush() -> None:
        if not run or said is None:
            return
        rest, verb = said
        number = run[0][1]
        if len(run) == 1:
            out.append(f"{number}{run[0][0]}{verbs[verb][0]}{rest}")
            return
        many = join([name for name, _ in run]) if len(run) <= names else nsay("%(n)d card", "%(n)d cards", len(run))
        out.append(f"{number}{many}{verbs[verb][1]}{rest}")

    for line in lines:
        match = _NUMBERED.match(line)
        number, text = (match.group(1) or "", match.group(2)) if match else ("", line)
        found = _said_of_one(text, verbs, ends)
        if found is not None:
            verb, name, rest = found
            if said == (rest, verb):
                run.append((name, number))
                continue
            flush()
            run, said = [(name, number)], (rest, verb)
            continue
        flush()
        run, said = [], None
        out.append(line)
    flush()
    return out


def _said_of_one(text: str, verbs: Sequence[tuple[str, str]], ends: Sequence[str]) -> tuple[int, str, str] | None:
    """The verb (its index in ``verbs``), the card's name and the rest of a line that says
    something of one card, or None: the verb met first in the line, the longest of those met
    there (``queda explorado y va`` before ``queda explorado``)."""
    at = [(text.find(one), -len(one), i) for i, (one, _) in enumerate(verbs) if one in text]
    if not at:
        return None
    _at, _length, verb = min(at)
    name, rest = text.split(verbs[verb][0], 1)
    if not _a_name(name) or (ends and not rest.endswith(tuple(ends))):
        return None
    return verb, name, rest


def run_key(line: str) -> tuple[int, str] | None:
    """What a line says of one card (its verb and the rest of it), as :func:`collapse` reads
    it, or None: only lines of the same key can be told as one (:func:`continued`)."""
    lang = language()
    said = (lang, line)
    if said in _RUN_KEYS:
        return _RUN_KEYS[said]  # most lines of a game are said again and again ("p1 draws a card")
    match = _NUMBERED.match(line)
    found = _said_of_one(match.group(2) if match else line, _SAME.get(lang, ()), _ENDS.get(lang, ()))
    key = None if found is None else (found[0], found[2])
    if len(_RUN_KEYS) >= 8192:
        _RUN_KEYS.clear()
    _RUN_KEYS[said] = key
    return key


_RUN_KEYS: dict[tuple[str, str], tuple[int, str] | None] = {}
""":func:`run_key` of the lines met lately, by language."""


def continued(run: Sequence[str], line: str) -> str | None:
    """The one line that tells ``run`` and then ``line``, if ``line`` says what the run says
    of another card (``13 cards are put at the bottom of the Corsair deck``); else None."""
    if not run:
        return None
    # a line that says nothing of one card, or not what the run's last line says, starts a
    # new run: told apart here without collapsing the whole run again (the usual case)
    key = run_key(line)
    if key is None or key != run_key(run[-1]):
        return None
    told = collapse([*run, line])
    return told[0] if len(told) == 1 else None


def runs(lines: Iterable[tuple[T, str]], together: Callable[[T, T], bool]) -> Iterator[tuple[list[T], str]]:
    """Lines in a row told as one (:func:`continued`), each run with its items and its line;
    ``together`` says whether an item may join the one before it at all."""
    items: list[T] = []
    told: list[str] = []
    line_now = ""
    for item, line in lines:
        joined = continued(told, line) if items and together(items[-1], item) else None
        if joined is None:
            if items:
                yield items, line_now
            items, told, line_now = [item], [line], line
        else:
            items.append(item)
            told.append(line)
            line_now = joined
    if items:
        yield items, line_now


def _a_name(text: str) -> bool:
    """Whether ``text`` may be one card's name (``a card``, ``Forest Spider``), not a clause
    (a name in a script without capitals, Japanese, is one without a clause's punctuation)."""
    if text == _("a card"):
        return True
    if any(mark in text for mark in (":", ";", "、", "。", "：")) or not text or len(text) > 40:
        return False
    return text[:1].isupper() or (language() == "ja" and not text[:1].isascii())


# -- a whole game ---------------------------------------------------------------------------


def story(rules: Ruleset[Any], events: Iterable[Event]) -> Iterator[tuple[Event, str]]:
    """Each event with its line, folding as it goes so names resolve."""
    for event, line, _cause in story_with_causes(rules, events):
        yield event, line


def story_with_causes(rules: Ruleset[Any], events: Iterable[Event]) -> Iterator[tuple[Event, str, str]]:
    """Each event with its line and its cause, both naming cards as the table knew them."""
    state = rules.new_state()
    namer = Namer(rules, state)
    for event in events:
        apply(rules, state, event)
        yield event, describe(event, namer), cause_text(event, namer)


def cause_text(event: Event, name: Namer) -> str:
    """The rule reference the event cites, then in words the card whose text produced it and
    the events it follows from, by the numbers the log shows them under."""
    c = event.cause
    parts = [c.rule]
    if c.card is not None:
        parts.append(say("the text of %(card)s", card=name.name(c.card)))
    if c.by is not None:
        parts.append(say("after event %(seq)s", seq=c.by))
    if c.answer is not None:
        parts.append(say("answering event %(seq)s", seq=c.answer))
    return "; ".join(parts)
