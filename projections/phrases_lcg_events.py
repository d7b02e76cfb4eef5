"""The LCG events that event cards brought, in sentences (added to the LCG phrasebook)."""

from __future__ import annotations

from domain.lcg.rules import table
from projections.story import KERNEL, Phrase, Said, join

_CANCELLED = {"when-revealed": "When Revealed effects", "shadow": "shadow effect"}


def event_played(said: Said) -> str:
    paid = [f"{amount} from {said.named(uid)}" for uid, amount in said.get("payments") or () if said.sees(uid)]
    x = f" (X = {said.get('x')})" if said.has("x") else ""
    cost = f", paying {join(paid)}" if paid else ""
    return f"{said.get('player')} plays {said.card('card', 'an event')}{x}{cost}"


def threat_reduced(said: Said) -> str:
    player = said.get("player")
    now = said.state.players[player].threat if player in said.state.players else None
    return f"{player} lowers their threat by {said.get('amount')}" + (f" (now {now})" if now is not None else "")


def card_put_into_play(said: Said) -> str:
    return f"{said.card('card')} is put into play under {said.get('player')}'s control"


def card_returned_to_hand(said: Said) -> str:
    return f"{said.card('card')} returns to its owner's hand"


def effect_cancelled(said: Said) -> str:
    what = _CANCELLED.get(str(said.get("effect")), str(said.get("effect")))
    return f"the {what} of {said.card('card')} {'are' if what.endswith('effects') else 'is'} cancelled"


_CANNOT_ATTACK = table.cannot_attack("")
_MANY_DEFENDERS = table.many_defenders("")


def modifier_added(said: Said) -> str:
    """Lasting flags in words (Feint, Radagast's Cunning); stat changes as the kernel says them."""
    m = said.get("modifier") or {}
    stat, until = str(m.get("stat", "")), m.get("until")
    target = said.named(m.get("target"))
    if stat == table.NO_THREAT:
        return f"{target} contributes no threat until the end of the {until}"
    if stat.startswith(_CANNOT_ATTACK):
        return f"{target} cannot attack {stat[len(_CANNOT_ATTACK) :]} until the end of the {until}"
    return KERNEL["ModifierAdded"](said)


def limit_used(said: Said) -> str:
    key = str(said.get("key") or "")
    if key.startswith(_MANY_DEFENDERS):
        seat = key[len(_MANY_DEFENDERS) :]
        return f"{seat} may declare any number of defenders against each attack this {said.get('until', 'phase')}"
    return KERNEL["LimitUsed"](said)


PHRASES: dict[str, Phrase] = {
    "ModifierAdded": modifier_added,
    "LimitUsed": limit_used,
    "EventPlayed": event_played,
    "ThreatReduced": threat_reduced,
    "CardPutIntoPlay": card_put_into_play,
    "CardReturnedToHand": card_returned_to_hand,
    "EffectCancelled": effect_cancelled,
}
