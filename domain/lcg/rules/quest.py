"""Quest phase: commit characters, staging, then willpower against threat.

Rules: each player commits any number of ready characters (exhausting them); then one
encounter card per player is revealed; then if the committed willpower exceeds the
threat in the staging area, the difference is placed as progress (first on the active
location until it is explored, the rest on the quest); if the threat is higher, each
player raises their threat by the difference.
"""

from __future__ import annotations

from domain.kernel.decisions import Kind
from domain.kernel.events import Event
from domain.kernel.flow import Ask, Call, Decide, ForEach, If, Let, Node, Seq
from domain.kernel.runtime import Runtime
from domain.lcg import events as ev
from domain.lcg.effects import card_option, each_player, emit, st
from domain.lcg.rules import caps, table
from domain.lcg.rules.constant import skips_quest, staging_reveals
from domain.lcg.rules.windows import window


def _ask_commit(rt: Runtime) -> Ask | None:
    s = st(rt)
    seat = rt.env["player"]
    ready = table.ready_characters(s, seat)
    if not ready or skips_quest(s):
        return None
    options = [card_option(s, u) for u in ready]
    return Ask(seat, "Quest: commit characters (exhaust them)", options, Kind.MANY, 0, len(options))


def _committed(rt: Runtime) -> Event | None:
    cards = tuple(int(u) for u in rt.env["commit"])
    if not cards:
        return None
    ready = tuple(u for u in cards if any(stays(st(rt), u) for stays in table.QUEST_WITHOUT_EXHAUSTING))
    return ev.CharactersCommitted(player=rt.env["player"], cards=cards, ready=ready)


def _totals(rt: Runtime) -> dict[str, int]:
    """The two sides of the quest, and where the progress goes."""
    s = st(rt)
    if skips_quest(s):
        return {"willpower": 0, "threat": 0, "to_location": 0, "to_quest": 0, "raise": 0, "skipped": 1}
    willpower = sum(table.willpower(s, u) for u in table.committed(s))
    threat = table.staging_threat(s)
    progress = max(0, willpower - threat)
    location = table.active_location(s)
    to_location = 0
    if location is not None:
        room = table.defn(s, location).quest_points - s.cards[location].progress
        to_location = min(progress, max(0, room))
    return {
        "willpower": willpower,
        "threat": threat,
        "to_location": to_location,
        "to_quest": progress - to_location,
        "raise": max(0, threat - willpower),
    }


def _progress_on_location(rt: Runtime) -> Event | None:
    location = table.active_location(st(rt))
    n = int(rt.env["to_location"])
    return ev.ProgressPlaced(card=location, amount=n) if location is not None and n else None


def _progress_on_quest(rt: Runtime) -> Event | None:
    stage = table.quest_card(st(rt))
    n = caps.progress_allowed(st(rt), stage, int(rt.env["to_quest"]))
    return ev.ProgressPlaced(card=stage, amount=n) if stage is not None and n else None


def body() -> list[Node]:
    return [
        each_player(
            Decide(_ask_commit, "commit", emit(_committed), rule="lcg.quest.commit"),
            rule="lcg.quest.commit",
        ),
        window("lcg.quest.window.commit"),
        ForEach(lambda rt: staging_reveals(st(rt)), "staged", Call("lcg.reveal"), rule="lcg.quest.staging"),
        window("lcg.quest.window.staging"),
        Let(
            _totals,
            Seq(
                emit(
                    lambda rt: (
                        None
                        if rt.env.get("skipped")
                        else ev.QuestResolved(willpower=int(rt.env["willpower"]), threat=int(rt.env["threat"]))
                    )
                ),
                emit(_progress_on_location, rule="lcg.quest.progress"),
                emit(_progress_on_quest, rule="lcg.quest.progress"),
                If(
                    lambda rt: int(rt.env["raise"]) > 0,
                    each_player(emit(lambda rt: ev.ThreatRaised(player=rt.env["player"], amount=int(rt.env["raise"])))),
                    rule="lcg.quest.failed",
                ),
            ),
            rule="lcg.quest.resolve",
        ),
    ]
