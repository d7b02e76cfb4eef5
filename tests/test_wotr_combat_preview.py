"""The War of the Ring combat preview is the combat (issue 21).

The table's preview, the web page's "if fought now", the Shadow bots' "would the Shadow win
now" and the referee's explanation all read one count, ``domain.wotr.rules.combat.tally``,
the one the combat step makes. Shown here two ways:

- over many random positions of seeded games of every scenario, against the Shadow bots and
  with people on both sides: the table is captured
  at a player's turn in the action step, the captured position is set at the combat step,
  and every combat then fought must give the numbers, the supports and the winner the
  preview gave for that location at the turn (the terminal's text, the view the web page
  reads, the bot's verdict), and its explanation must read as the preview did;
- the case that was reported: in a Two-Player Duel against the Witch-king bot, Aragorn's
  leadership icon at Morannon (no Dúnedain army to support him) and Galadriel's at Lórien
  were counted by the preview and not by the combat, so the preview named the wrong winner.
"""

from __future__ import annotations

import random
import re
import tomllib
import uuid
from typing import Any

import pytest

from bots import random_choice
from domain.game import Game
from domain.kernel.events import Event
from domain.wotr import events as ev
from domain.wotr.bot.judgement import shadow_wins
from domain.wotr.options import wotr_options
from domain.wotr.rules import table
from domain.wotr.rules.combat import Tally, tally
from domain.wotr.ruleset import WOTR
from domain.wotr.state import SHADOW, WotrState
from projections.explain import explain
from projections.phrases_wotr import combat_working
from projections.wotr import LocationView, TableView, view
from tools import render_wotr
from tools.capture import CaptureError, capture
from tools.fixtures import Run

GAMES = (
    ("trilogy", 1, True),
    ("trilogy", 2, True),
    ("two-player-duel", 3, True),
    ("two-player-duel", 4, True),
    ("three-player-duel", 5, True),
    ("fellowship", 6, True),
    ("trilogy", 7, False),
    ("two-player-duel", 8, False),
    ("three-player-duel", 9, False),
    ("fellowship", 10, False),
)
"""Seeded games of every scenario, against the Shadow bots and with people on both sides."""
POSITIONS = 12
"""Random positions taken from each game (a player's turn in the action step with a card on a location)."""


def _game(scenario: str, seed: int, bots: bool) -> list[WotrState]:
    """A seeded game (against the Shadow bots, or people on both sides), played out with
    random answers; the table at every player's turn in the action step (copies)."""
    options = wotr_options(scenario)
    if bots:
        shadow = [d.seat for d in options.decks if d.team == SHADOW]
        options = wotr_options(scenario, None, shadow, "standard" if seed % 2 else "challenging")
    game = Game.start(uuid.uuid4(), WOTR, WOTR.created(options, seed))
    rng = random.Random(seed)
    turns: list[WotrState] = []
    while (decision := game.state.pending) is not None:
        state = game.state
        assert isinstance(state, WotrState)
        if decision.rule == "wotr.action.turn" and any(table.cards_at(state, u) for u in table.active_locations(state)):
            turns.append(WOTR.codec.decode_state(WOTR.codec.encode(state)))  # type: ignore[arg-type]
        game.answer(decision.seat, decision.id, random_choice(decision, rng))
    return turns


def _table(run: Run) -> WotrState:
    state = run.game.state
    assert isinstance(state, WotrState)
    return state


def _fought_now(state: WotrState, where: str) -> tuple[list[Event], Run]:
    """The captured table set at the combat step, every combat fought with random answers
    (a bot answers for itself): the events of the combat step, and the run."""
    data = tomllib.loads(capture(WOTR, state, where))
    position = data["position"]
    del position["stack"]
    position["at"] = "wotr.combat"
    run = Run(data)
    rng = random.Random(state.version)
    while (decision := run.game.state.pending) is not None and _table(run).step == "combat":
        run.game.answer(decision.seat, decision.id, random_choice(decision, rng))
    log = run.log
    end = next((i for i, e in enumerate(log) if isinstance(e, ev.StepBegan) and e.step != "combat" and i > 2), len(log))
    return log[:end], run


def _preview_numbers(t: TableView, loc: LocationView) -> tuple[str, int, str, int, str]:
    """What the terminal's preview says: attackers, attack, defenders, all that may cancel, verdict."""
    head = render_wotr.combat_preview(t, loc)[0]
    found = re.search(r"Combat preview at .+?: (\w+) attack (\d+) against (\w+) defense (\d+) \(.*\): (.+)$", head)
    assert found, head
    return found.group(1), int(found.group(2)), found.group(3), int(found.group(4)), found.group(5)


def _verdict(count: Tally) -> str:
    if count.winner is None:
        return "neither side would take it"
    return "the attackers are winning" if count.winner == count.attackers else "the defenders hold"


def _check_position(state: WotrState, where: str) -> int:
    """Preview every active location of ``state``, fight them, compare; the combats checked."""
    seat = state.pending.seat if state.pending is not None else "referee"
    shown = view(state, seat)
    names = {c.uid: c.name for c in render_wotr.cards(shown)}
    previews: dict[int, tuple[Tally, LocationView]] = {}
    for loc in ([shown.path] if shown.path else []) + shown.battlegrounds:
        assert loc.count is not None, where
        assert loc.count == tally(state, loc.uid), f"{where}: the view's count is the combat's count"
        previews[loc.uid] = (loc.count, loc)
    bots_say = {uid: shadow_wins(state, uid) for uid in previews}
    log, run = _fought_now(state, where)
    began = {e.location: (i, e) for i, e in enumerate(log) if isinstance(e, ev.CombatBegan)}
    ended = {e.location: e for e in log if isinstance(e, ev.CombatEnded)}
    assert set(began) == set(previews) == set(ended), f"{where}: every active location is fought"
    checked = 0
    for uid, (count, loc) in previews.items():
        seq, fought = began[uid]
        label = f"{where}, {loc.name}"
        assert (fought.kind, fought.attackers, fought.attack, fought.defense, fought.defenders) == (
            count.kind,
            count.attackers,
            count.attack,
            count.defense,
            count.defenders,
        ), label
        assert (fought.supports, fought.empty) == (count.supports, count.empty), label
        outcome = ended[uid]
        assert (outcome.winner, outcome.corruption) == (count.winner, count.corruption), label
        assert bots_say[uid] == (outcome.winner == SHADOW), f"{label}: the bot's 'would win now'"
        if loc.cards or loc.attack_tokens:
            attackers, attack, defenders, cancel, verdict = _preview_numbers(shown, loc)
            assert (attackers, attack) == (fought.attackers, fought.attack), label
            assert defenders != attackers and cancel == fought.defense + fought.defenders, label
            assert verdict == _verdict(count), label
        # the referee's explanation of the combat reads as the preview did, card by card
        because = explain(WOTR, log, seq + 1, depth=0)
        assert because.working == combat_working(count, lambda u: names.get(u, "a card"), loc.name), label
        assert sum(x.value for x in count.shares if x.part == "attack") == fought.attack, label
        checked += 1
    assert _table(run).over is not None or _table(run).step != "combat", where
    return checked


@pytest.mark.parametrize(("scenario", "seed", "bots"), GAMES)
def test_the_preview_at_a_random_turn_is_the_combat_fought_from_there(scenario: str, seed: int, bots: bool) -> None:
    turns = _game(scenario, seed, bots)
    assert len(turns) >= POSITIONS, f"{scenario} seed {seed}: too few turns with cards on a location"
    rng = random.Random(seed * 31)
    checked = 0
    for state in sorted(rng.sample(turns, POSITIONS), key=lambda s: s.version):
        where = f"{scenario} seed {seed} at version {state.version}"
        try:
            checked += _check_position(state, where)
        except CaptureError as error:  # pragma: no cover - a table the format cannot state
            pytest.fail(f"{where}: {error}")
    assert checked >= POSITIONS


def _duel(zones: dict[str, Any]) -> Run:
    return Run(
        {
            "game": {"ruleset": "wotr", "scenario": "two-player-duel", "bots": ["witch-king"], "seed": 7},
            "position": {"at": "wotr.combat", "round": 2, "path_number": 2, "zones": zones},
        }
    )


def _at_the_position(run: Run) -> WotrState:
    state = run.state_at(2)
    assert isinstance(state, WotrState)
    return state


def _preview(state: WotrState, location: int) -> list[str]:
    shown = view(state, "gandalf")
    loc = next(x for x in [shown.path, *shown.battlegrounds] if x is not None and x.uid == location)
    return render_wotr.combat_preview(shown, loc)


def _combat(run: Run, location: int) -> tuple[ev.CombatBegan, ev.CombatEnded]:
    began = next(e for e in run.log if isinstance(e, ev.CombatBegan) and e.location == location)
    ended = next(e for e in run.log if isinstance(e, ev.CombatEnded) and e.location == location)
    return began, ended


def test_aragorn_leads_at_morannon_only_with_a_dunedain_army_to_support_him() -> None:
    """Seed 004 (戦闘, 注): a character's circled (leadership) icons count only while an army
    of its faction is there with it; the Riders of Rohan cannot support Aragorn."""
    run = _duel(
        {
            "battlegrounds": ["Morannon"],
            "at.morannon": ["Aragorn", "Riders of Rohan", "Mordor Orcs"],
            "paths.3": ["Imladris"],
        }
    )
    state = _at_the_position(run)
    morannon = run.uid("Morannon")
    lines = _preview(state, morannon)
    assert lines[0].startswith("  Combat preview at Morannon: free attack 3 against shadow defense 3 (2 before losses")
    assert lines[0].endswith("the defenders hold"), lines
    assert "the Free Peoples attack 3 = Aragorn 1 + Riders of Rohan 2" in lines[1]
    assert "leadership" not in "\n".join(lines)
    assert "Mordor Orcs 1" in lines[3] and "printed defense 2" in lines[2]
    began, ended = _combat(run, morannon)
    assert (began.attack, began.defense, began.defenders, began.supports) == (3, 2, 1, ())
    assert ended.winner == SHADOW and ended.to == "shadow.score"
    assert shadow_wins(state, morannon)


def test_aragorn_supported_by_soldiers_of_gondor_counts_his_leadership() -> None:
    run = _duel(
        {
            "battlegrounds": ["Morannon"],
            "at.morannon": ["Aragorn", "Soldiers of Gondor", "Riders of Rohan", "Mordor Orcs"],
            "paths.3": ["Imladris"],
        }
    )
    state = _at_the_position(run)
    morannon = run.uid("Morannon")
    lines = _preview(state, morannon)
    assert "free attack 5 against shadow defense 3" in lines[0] and lines[0].endswith("the attackers are winning")
    assert "Aragorn's leadership 1 (supported by Soldiers of Gondor)" in lines[1]
    began, ended = _combat(run, morannon)
    assert began.attack == 5 and began.supports == ((run.uid("Aragorn"), run.uid("Soldiers of Gondor")),)
    assert ended.winner == "free"
    assert not shadow_wins(state, morannon)


def test_galadriel_at_lorien_defends_with_her_icon_not_her_leadership() -> None:
    """Lórien: the preview said "free defense 4" (2 printed, Galadriel's defense and
    leadership icons); the combat counts 2 and Galadriel's 1, and the Shadow's 4 win."""
    run = _duel(
        {
            "battlegrounds": ["Lórien"],
            "at.lorien": ["Galadriel", "Olog-hai", "Black Uruks"],
            "paths.3": ["Imladris"],
        }
    )
    state = _at_the_position(run)
    lorien = run.uid("Lórien")
    lines = _preview(state, lorien)
    assert "shadow attack 4 against free defense 3 (2 before losses, 1 on the defending cards)" in lines[0]
    assert lines[0].endswith("the attackers are winning")
    began, ended = _combat(run, lorien)
    assert (began.attack, began.defense, began.defenders) == (4, 2, 1)
    assert ended.winner == SHADOW
