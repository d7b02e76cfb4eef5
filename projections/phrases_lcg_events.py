"""The LCG events that event cards brought, in sentences (added to the LCG phrasebook)."""

from __future__ import annotations

from projections.story import Phrase, Said, join

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


PHRASES: dict[str, Phrase] = {
    "EventPlayed": event_played,
    "ThreatReduced": threat_reduced,
    "CardPutIntoPlay": card_put_into_play,
    "CardReturnedToHand": card_returned_to_hand,
    "EffectCancelled": effect_cancelled,
}
