"""Between the service's Python values and the wire messages of ``westmarch.v1``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from domain.kernel.decisions import Decision, Kind, Option
from projections.arithmetic import rulebook
from projections.explain import Because
from projections.feed import Projected
from projections.prompts import translate
from service.commands import Access, SubmitResult, ViewResult
from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb

KIND_TO_PB = {
    Kind.ONE: pb.KIND_ONE,
    Kind.MANY: pb.KIND_MANY,
    Kind.ORDER: pb.KIND_ORDER,
    Kind.NUMBER: pb.KIND_NUMBER,
}
KIND_FROM_PB = {v: k for k, v in KIND_TO_PB.items()}
_encode = msgspec.json.Encoder().encode
"""An event body as compact UTF-8 JSON (keys in the body's order)."""


def decision_pb(d: Decision) -> pb.Decision:
    """The decision as the wire sends it, its prompt and labels in the language spoken (the
    option ids, which an answer names, are the same in every language)."""
    out = pb.Decision()
    _fill_decision(out, d)
    return out


def _fill_decision(out: pb.Decision, d: Decision) -> None:
    """:func:`decision_pb` written into ``out`` (a response's own field, set present even if
    every value is the default): no message built apart and copied in, nor one per option."""
    out.SetInParent()
    out.id = d.id
    out.seat = d.seat
    out.kind = KIND_TO_PB[d.kind]
    out.prompt = translate(d.prompt)
    out.rule = d.rule
    add = out.options.add
    for o in d.options:
        add(id=o.id, label=translate(o.label), card=o.card)
    out.min = d.min
    out.max = d.max
    if d.about is not None:
        out.about = d.about


def decision_from_pb(d: pb.Decision) -> Decision:
    """A decision received over the wire, as the domain (and the bots) know it."""
    return Decision(
        id=d.id,
        seat=d.seat,
        kind=KIND_FROM_PB.get(d.kind, Kind.ONE),
        prompt=d.prompt,
        rule=d.rule,
        options=tuple(Option(o.id, o.label, o.card if o.HasField("card") else None) for o in d.options),
        min=d.min,
        max=d.max,
        about=d.about if d.HasField("about") else None,
    )


def event_pb(p: Projected) -> pb.Event:
    return _event_into(pb.Event, p)


def _event_into(make: Callable[..., pb.Event], p: Projected) -> pb.Event:
    """The event made by ``make`` (``pb.Event``, or a response's ``events.add``, which writes
    it into the response's own list) with ``p``'s fields and cause."""
    out = make(seq=p.seq, type=p.type, body=_encode(p.body), text=p.text, hash=p.hash, run_text=p.run_text)
    _fill_cause(out.cause, p.cause)
    return out


def _fill_cause(to: pb.Cause, cause: dict[str, Any]) -> None:
    # the cause filled in place (present even if empty), not built apart and copied in
    to.rule = cause["rule"]
    for key in _CAUSE_CARDS:
        value = cause.get(key)
        if value is not None:
            setattr(to, key, value)


_CAUSE_CARDS = ("card", "by", "answer")


def view_pb(v: ViewResult) -> pb.View:
    out = pb.View(
        game_id=str(v.game_id),
        game=v.game,
        viewer=v.viewer,
        version=v.version,
        latest_version=v.latest,
        table=v.table,
        waiting_for=v.waiting_for,
        over=v.over,
    )
    if v.decision is not None:
        _fill_decision(out.decision, v.decision)
    if v.outcome is not None:
        outcome = v.outcome
        out.outcome.CopyFrom(pb.Outcome(result=outcome.result, reason=outcome.reason, winner=outcome.winner or ""))
    return out


def submit_pb(r: SubmitResult) -> pb.SubmitDecisionResponse:
    """The response to a submission. Its events and decision are written into the response's
    own fields (``add``, :func:`_fill_decision`), not built apart and copied in: the same
    message as :func:`event_pb` and :func:`decision_pb` give (tests/test_rpc_floor.py)."""
    out = pb.SubmitDecisionResponse(version=r.version, replayed=r.replayed, waiting_for=r.waiting_for, over=r.over)
    add = out.events.add
    for p in r.events:
        _event_into(add, p)
    if r.decision is not None:
        _fill_decision(out.decision, r.decision)
    if r.view is not None:
        out.view.CopyFrom(view_pb(r.view))
    return out


def access_pb(a: Access) -> pb.GameAccess:
    return pb.GameAccess(
        game_id=str(a.game_id),
        game=a.game,
        seats=[pb.SeatToken(seat=s, token=t) for s, t in a.seats.items()],
        spectator_token=a.spectator,
        referee_token=a.referee,
        version=a.version,
    )


def because_pb(b: Because) -> pb.Because:
    return pb.Because(
        seq=b.seq,
        text=b.text,
        rule=b.rule,
        card=b.card or "",
        led_by=[because_pb(c) for c in b.led_by],
        working=b.working,
        section=b.section or rulebook(b.rule),
    )
