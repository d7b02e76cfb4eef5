"""What the new zones of the Core scenarios show each viewer: Orc Guards hide the player card
face down under them, from every seat (its owner too) and from the event feed; the prisoner and
the Nazgûl set aside face up are public; a guard names the objective it guards."""

from __future__ import annotations

from pathlib import Path
from typing import cast

import msgspec

from domain.lcg import encounter_events as xev
from domain.lcg.ruleset import LCG
from domain.lcg.state import LcgState
from projections.feed import Feed
from projections.lcg import view
from tools.fixtures import Run, load

FIXTURES = Path(__file__).parent / "fixtures" / "lcg"
VIEWERS = ("p1", "p2", "spectator")


def _tower_gate() -> Run:
    run = Run(load(FIXTURES / "cards/escape-from-dol-guldur/tower-gate-orc-guards-engage-each-player.toml"))
    decision = run.game.state.pending
    assert decision is not None
    run.game.answer(decision.seat, decision.id, run.choice(decision, ["Tower Gate"]))
    return run


def _uids(data: object) -> set[int]:
    """Every integer under a ``uid`` key in a view."""
    found: set[int] = set()
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "uid" and isinstance(value, int):
                found.add(value)
            else:
                found |= _uids(value)
    elif isinstance(data, list):
        for item in data:
            found |= _uids(item)
    return found


def test_orc_guards_hide_their_player_card_from_every_seat() -> None:
    run = _tower_gate()
    state = run.game.state
    under = {u for seat in state.order for u in state.zone(f"{seat}.under")}
    assert {run.label(u) for u in under} == {"Guard of the Citadel", "Veteran Axehand"}
    for viewer in VIEWERS:
        table = view(state, viewer)
        assert not _uids(msgspec.to_builtins(table)) & under, f"{viewer} sees a card under an Orc Guard"
        engaged = [c for p in table.players for c in p.engaged]
        assert [(c.code, c.name, c.attack, c.defense, c.hit_points) for c in engaged] == [
            ("orc-guard", "Orc Guard", 1, 1, 1),
            ("orc-guard", "Orc Guard", 1, 1, 1),
        ]
    assert view(state, "referee").players[0].engaged[0].code == "orc-guard"


def test_orc_guard_events_name_the_guard_not_the_card_under_it() -> None:
    run = _tower_gate()
    events = list(run.game.pending_events)
    for viewer in VIEWERS:
        feed = Feed(LCG, viewer, LcgState())
        made = [p for p in feed.project_many(events) if p.type == "OrcGuardMade"]
        assert len(made) == 2
        for projected in made:
            assert "card" not in projected.body and "guard" in projected.body
            assert "Guard of the Citadel" not in projected.text and "Veteran Axehand" not in projected.text
    referee = Feed(LCG, "referee", LcgState()).project_many(events)
    assert all("card" in p.body for p in referee if p.type == "OrcGuardMade")
    assert any(isinstance(e, xev.OrcGuardMade) for e in events)


def test_prisoner_set_aside_nazgul_and_guards_are_public() -> None:
    run = Run(load(FIXTURES / "cards/quest/through-the-caverns-rescue-declined.toml"))
    for viewer in VIEWERS:
        table = view(run.game.state, viewer)
        assert [c.name for c in table.players[0].prisoner] == ["Gimli"]
        assert [c.name for c in table.set_aside] == ["Nazgûl of Dol Guldur"]
    guarded = Run(
        load(FIXTURES / "cards/escape-from-dol-guldur/gandalfs-map-guarded-cannot-be-claimed-free-objective-can.toml")
    )
    table = view(guarded.game.state, "spectator")
    guards = {c.name: c.guarding for c in table.staging}
    assert guards["Dungeon Jailor"] == guarded.uid("Gandalf's Map")
    assert guards["Shadow Key"] is None


def test_an_epic_groups_table_shows_the_global_values_whole_with_the_other_groups_share() -> None:
    """A group of a six-player epic event: the terminal reads the Dreadnaught's 90 hit points
    and stage 1B's 48 quest points as the organizer announced them, the other group's damage
    and progress beside this group's own (rulebook, Global Values)."""
    from tools.render_lcg import card_line

    hunt = FIXTURES / "hunt-for-the-dreadnaught" / "cards"
    run = Run(load(hunt / "dreadnaught-in-an-epic-event-shows-its-global-hit-points-and-the-other-groups-damage.toml"))
    dreadnaught = view(run.game.state, "p1").staging[0]
    assert card_line(dreadnaught).startswith("Dreadnaught (")
    assert "HP 90" in card_line(dreadnaught) and "40 damage by the other groups" in card_line(dreadnaught)
    name = "searching-the-high-seas-in-an-epic-event-counts-what-the-other-groups-placed-three-players.toml"
    stage = view(Run(load(hunt / name)).game.state, "spectator").quest
    assert stage is not None
    assert "progress 17/48, 30 progress by the other groups" in card_line(stage)  # after its own 2


def test_an_epic_groups_dreadnaught_has_the_hit_points_left_after_every_groups_damage() -> None:
    """Beside a target, the terminal says what is left of the global value: the 90 hit points
    less this group's 4 damage and the other groups' 40 (the web page counts the same)."""
    from tools.render_lcg import _hit_points

    hunt = FIXTURES / "hunt-for-the-dreadnaught" / "cards"
    run = Run(load(hunt / "dreadnaught-in-an-epic-event-shows-its-global-hit-points-and-the-other-groups-damage.toml"))
    dreadnaught = view(cast(LcgState, run.game.state), "p1").staging[0]
    assert (dreadnaught.hit_points, dreadnaught.damage, dreadnaught.other_groups) == (90, 4, 40)
    assert _hit_points(dreadnaught) == "46/90 HP left"
