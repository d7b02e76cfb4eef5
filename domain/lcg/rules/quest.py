"""Quest phase: commit characters, staging, then willpower against threat.

Rules: each player commits any number of ready characters (exhausting them); then one
encounter card per player is revealed; then if the committed willpower exceeds the
threat in the staging area, the difference is placed as progress (first on the active
location until it is explored, the rest on the quest); if the threat is higher, each
player raises their threat by the difference.

Questing successfully (or unsuccessfully) and placing the progress are two steps: the outcome
is recorded first (``QuestResolved``) and the Forced effects and Responses it sets off resolve
before the progress is placed (FAQ 1.24, Questing Successfully). If one of them advanced the
quest, the progress made against the stage that left is not placed anywhere (Core Set rulebook:
progress does not carry over to the next stage; ruling by FFG's lead developer on The Lonely
Mountain, 2018).
"""

from __future__ import annotations

from domain.kernel.decisions import Kind
from domain.kernel.events import Event
from domain.kernel.flow import Ask, Call, Decide, ForEach, If, Let, Node, Seq
from domain.kernel.runtime import Runtime
from domain.lcg import events as ev
from domain.lcg.effects import card_option, each_player, emit, progress_on_current_quest, st
from domain.lcg.rules import table
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
    s = st(rt)
    stays_ready = table.in_game(s, table.QUEST_WITHOUT_EXHAUSTING)
    ready = tuple(u for u in cards if any(stays(s, u) for stays in stays_ready))
    return ev.CharactersCommitted(player=rt.env["player"], cards=cards, ready=ready)


def _totals(rt: Runtime) -> dict[str, int]:
    """The two sides of the quest, and the stage quested against."""
    s = st(rt)
    if skips_quest(s):
        return {"willpower": 0, "threat": 0, "progress": 0, "raise": 0, "skipped": 1}
    willpower = sum(table.willpower(s, u) for u in table.committed(s))
    threat = table.staging_threat(s)
    return {
        "willpower": willpower,
        "threat": threat,
        "progress": max(0, willpower - threat),
        "raise": max(0, threat - willpower),
        "stage": table.quest_card(s) or 0,
    }


def _still_quested_against(rt: Runtime) -> bool:
    return (table.quest_card(st(rt)) or 0) == int(rt.env["stage"])


def _progress_cancelled(rt: Runtime) -> Event:
    return ev.QuestProgressCancelled(stage=int(rt.env["stage"]), amount=int(rt.env["progress"]))


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
                If(
                    lambda rt: int(rt.env["progress"]) > 0,
                    # after the effects of questing successfully (FAQ 1.24); none if one of them
                    # advanced the quest (Core Set rulebook, Quest Phase; FFG ruling, 2018)
                    If(
                        _still_quested_against,
                        progress_on_current_quest(lambda rt: int(rt.env["progress"])),
                        emit(_progress_cancelled),
                    ),
                    rule="lcg.quest.progress",
                ),
                If(
                    lambda rt: int(rt.env["raise"]) > 0,
                    each_player(emit(lambda rt: ev.ThreatRaised(player=rt.env["player"], amount=int(rt.env["raise"])))),
                    rule="lcg.quest.failed",
                ),
            ),
            rule="lcg.quest.resolve",
        ),
    ]
