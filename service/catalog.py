"""What a client can start on this server: games, scenarios, seats, options and decks.

Read from the rulesets themselves (their scenario tables and option types), so a client's
menus follow the server's rules without reading Python. Served by ``GetCatalog``.
"""

from __future__ import annotations

from functools import cache

import msgspec


class CatalogOption(msgspec.Struct, frozen=True):
    name: str
    description: str
    values: tuple[str, ...]
    default: str


class CatalogScenario(msgspec.Struct, frozen=True):
    key: str
    title: str
    min_players: int
    max_players: int
    seats: tuple[str, ...]
    """The seats a game of the scenario has (for the LCG, those of its largest table)."""
    difficulties: tuple[str, ...] = ()
    """The values ``options["difficulty"]`` takes for it, the default first (WotR: with bots)."""
    shadow_seats: tuple[str, ...] = ()
    """WotR: the Shadow team's seats (the rules' Shadow bots play them, Against the Shadow)."""


class CatalogDeck(msgspec.Struct, frozen=True):
    key: str
    title: str
    heroes: tuple[str, ...]
    description: str
    cards: tuple[str, ...] = ()


class CatalogContract(msgspec.Struct, frozen=True):
    key: str
    title: str
    min_deck_size: int
    """The fewest cards a deck must hold for its player to choose the contract (0: any)."""
    side_a: str
    side_b: str


class CatalogGame(msgspec.Struct, frozen=True):
    game: str
    title: str
    default_scenario: str
    scenarios: tuple[CatalogScenario, ...]
    options: tuple[CatalogOption, ...]
    decks: tuple[CatalogDeck, ...]
    contracts: tuple[CatalogContract, ...] = ()
    bots: tuple[str, ...] = ()
    """The bots a seat may be given (``bots.make_bot``'s kinds)."""


@cache
def catalog() -> tuple[CatalogGame, ...]:
    from bots import BOTS

    offered = tuple(BOTS)
    return tuple(msgspec.structs.replace(game, bots=offered) for game in (_lcg(), _wotr()))


def _lcg() -> CatalogGame:
    from domain.lcg.cards import CARDS
    from domain.lcg.decks.ready_made import ready_made
    from domain.lcg.lineups import DEFAULT_HEROES, MAX_PLAYERS, MIN_DECK_FOR_CONTRACT
    from domain.lcg.scenarios import DIFFICULTIES, SCENARIOS, load

    load()
    seats = tuple(f"p{n}" for n in range(1, MAX_PLAYERS + 1))
    scenarios = tuple(
        CatalogScenario(s.key, s.title, 1, MAX_PLAYERS, seats, s.difficulties)
        for s in sorted(SCENARIOS.values(), key=lambda s: s.key)
    )
    difficulty = CatalogOption(
        "difficulty", "Easy mode leaves some encounter cards out (as each card lists)", DIFFICULTIES, DIFFICULTIES[0]
    )
    defaults = {frozenset(heroes): n for n, heroes in enumerate(DEFAULT_HEROES, start=1)}
    decks = []
    for key, deck in ready_made().items():
        seat = defaults.get(frozenset(deck.heroes))
        about = (
            f"ready-made, from one Core Set; the deck of seat p{seat} when it brings none"
            if seat
            else ("ready-made, from one Core Set")
        )
        cards = tuple(f"{n}x {CARDS[code].name}" for code, n in deck.cards)
        decks.append(CatalogDeck(key, deck.name, tuple(CARDS[h].name for h in deck.heroes), about, cards))
    contracts = tuple(
        CatalogContract(c.code, c.name, MIN_DECK_FOR_CONTRACT.get(c.code, 0), c.text_a, c.text_b)
        for c in sorted(CARDS.values(), key=lambda c: c.code)
        if c.type == "contract"
    )
    return CatalogGame(
        "lcg",
        "The Lord of the Rings: The Card Game",
        "passage-through-mirkwood",
        scenarios,
        (difficulty,),
        tuple(decks),
        contracts,
    )


def _wotr() -> CatalogGame:
    from domain.wotr.options import CHOICES, DIFFICULTIES, scenario_keys
    from domain.wotr.scenarios import SCENARIOS
    from domain.wotr.state import SHADOW, RuleOptions

    scenarios = []
    for key in scenario_keys():
        found = SCENARIOS[key]
        seats = tuple(s.seat for s in found.seats)
        shadow = tuple(s.seat for s in found.seats if s.team == SHADOW)
        scenarios.append(CatalogScenario(key, found.title, len(seats), len(seats), seats, DIFFICULTIES, shadow))
    defaults = RuleOptions()
    options = []
    for name, info in _fields(RuleOptions):
        value = getattr(defaults, name)
        if isinstance(value, bool):
            values: tuple[str, ...] = ("false", "true")
            default = "true" if value else "false"
        else:
            values, default = CHOICES[name], str(value)
        options.append(CatalogOption(name, info, values, default))
    options.append(
        CatalogOption(
            "bots",
            "Against the Shadow: the Shadow seats the rules play as bots: shadow (every Shadow seat of the scenario) "
            "or the seats by name, comma-separated; with it, difficulty takes standard (the default) or challenging",
            ("", "shadow"),
            "",
        )
    )
    return CatalogGame("wotr", "War of the Ring: The Card Game", "trilogy", tuple(scenarios), tuple(options), ())


def _fields(kind: type[msgspec.Struct]) -> list[tuple[str, str]]:
    """Each field of an options struct with the first sentence of its documentation."""
    import ast
    import inspect
    import textwrap

    source = textwrap.dedent(inspect.getsource(kind))
    body = ast.parse(source).body[0]
    assert isinstance(body, ast.ClassDef)
    out: list[tuple[str, str]] = []
    statements = body.body
    for i, node in enumerate(statements):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            doc = ""
            after = statements[i + 1] if i + 1 < len(statements) else None
            value = after.value if isinstance(after, ast.Expr) else None
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                doc = " ".join(value.value.split())
            out.append((node.target.id, doc))
    return out
