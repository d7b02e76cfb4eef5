"""A verification's verdict (:class:`domain.verify.Verdict`) in the language spoken.

``str(verdict)`` is the engine's English; :func:`told` says the same in the language being
spoken (``westmarch verify``, gRPC's ``VerifyGame`` text). The reasons the engine gives in
fixed words are messages too; a reason it fills in (a sequence number, a rules version)
stays in the engine's words.
"""

from __future__ import annotations

from domain.verify import Status, Verdict
from projections.i18n import DEFAULT, N_, _, language, say

REASONS = (
    N_("the hash does not match the event's content and the chain"),
    N_("the log is empty"),
)
"""The reasons the engine gives in fixed words (domain/verify.py)."""


def told(verdict: Verdict) -> str:
    """The verdict in the language spoken (in English, ``str(verdict)`` word for word)."""
    if language() == DEFAULT:
        return str(verdict)
    reason = _(verdict.reason) if verdict.reason in REASONS else verdict.reason
    versions = _versions(verdict)
    if verdict.status is Status.OK:
        return say(
            "ok: %(events)s events, hash chain intact, decisions re-executed identically%(versions)s",
            events=verdict.events,
            versions=versions,
        )
    if verdict.status is Status.CHAIN_BROKEN and verdict.first_bad is None:
        return say("FAILED: the record is damaged: %(reason)s", reason=reason)
    if verdict.status is Status.CHAIN_BROKEN:
        return say(
            "FAILED at event %(seq)s: the hash chain is broken: %(reason)s "
            "(the record was edited, cut short or damaged after it was made)",
            seq=verdict.first_bad,
            reason=reason,
        )
    if verdict.status is Status.UNKNOWN_RULES:
        return say("FAILED: unknown rules: %(reason)s", reason=reason)
    where = f" ({verdict.field})" if verdict.field else ""
    text = say(
        "FAILED at event %(seq)s: the hash chain is intact but re-execution differs%(where)s: %(reason)s%(versions)s",
        seq=verdict.first_bad,
        where=where,
        reason=reason,
        versions=versions,
    )
    if verdict.recorded_rules is not None and verdict.recorded_rules == verdict.current_rules:
        text += _(
            "; under the same rules version, so either the record was rewritten with its hashes "
            "recomputed, or a rule changed without a version bump"
        )
    elif verdict.changes:
        text += say("; rules changes since: %(changes)s", changes="; ".join(str(c) for c in verdict.changes))
    return text


def _versions(verdict: Verdict) -> str:
    if verdict.recorded_rules is None or verdict.current_rules is None:
        return ""
    name = say("%(ruleset)s rules", ruleset=verdict.ruleset) if verdict.ruleset else _("rules")
    if verdict.recorded_rules == verdict.current_rules:
        return say(
            "; recorded under %(name)s v%(version)s (the current version)", name=name, version=verdict.recorded_rules
        )
    recorded = f"v{verdict.recorded_rules}" if verdict.recorded_rules else _("v0 (before rules versions were recorded)")
    return say(
        "; recorded under %(name)s %(recorded)s, this engine has v%(current)s",
        name=name,
        recorded=recorded,
        current=verdict.current_rules,
    )
