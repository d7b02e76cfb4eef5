"""The LCG events that event cards brought, in sentences (added to the LCG phrasebook)."""

from __future__ import annotations

from domain.lcg.rules import caps, table
from projections.story import KERNEL, Phrase, Said, join, plural, possessive

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
    amount = int(m.get("amount", 0))
    if stat == _FORTUNE:  # Isle of Fortune's resources, kept as a lasting count on it
        n = abs(amount)
        verb = "placed on" if amount >= 0 else "removed from"
        return f"{plural(n, 'resource')} {'is' if n == 1 else 'are'} {verb} {target}"
    if stat in _RECEIVED:
        what = _RECEIVED[stat]
        return f"{target} has received {amount} {what} this round (it may receive only so much {what} each round)"
    if stat.startswith(_KEYWORD):
        source = m.get("source")
        by = f" from {said.named(source)}" if source != m.get("target") and said.sees(source) else ""
        return f"{target} gains {stat[len(_KEYWORD) :]}{by} until the end of the {until}"
    if stat == "attacked-again":
        return f"{target} has made its extra attack this {until}"
    if stat == _CREW:
        return f"allies with {amount} willpower in all are discarded for {possessive(target)} Response so far"
    if stat == _DISCOUNT:
        if amount < 0:
            return f"{possessive(target)} discount is used up"
        return f"{target} lowers the cost of its controller's next ally by {amount} until the end of the {until}"
    return KERNEL["ModifierAdded"](said)


_FORTUNE = "fortune"  # domain/lcg/cards/corsairs.py, FORTUNE
_CREW = "crew-willpower"  # domain/lcg/cards/corsairs.py, CREW (Corsair Skirmisher)
_DISCOUNT = "ally-discount"  # domain/lcg/cards/hobbit_treasures.py, DISCOUNT (The Arkenstone)
_KEYWORD = "keyword:"
_RECEIVED = {caps.RECEIVED_PROGRESS: "progress", caps.RECEIVED_DAMAGE: "damage"}
_LIMITS = {
    "stage.ally-played": "an ally played this round counts toward the quest stage's limit on allies",
    "desolation-of-smaug.first-treachery": "Desolation of Smaug has met the first treachery revealed this round",
    "smaug-the-magnificent.attacks-again": "Smaug the Magnificent has attacked again this phase",
    "travel.refused": "the players may not travel again this round",
    "overworked": "Overworked blanks the text boxes of non-ship allies until the end of the round",
    "thftd.setup.quest-action": "the quest stage's Quest Action is used (once per game)",
}
"""Limit keys that name no card, in words."""


def limit_used(said: Said) -> str:
    key = str(said.get("key") or "")
    if key.startswith(_MANY_DEFENDERS):
        seat = key[len(_MANY_DEFENDERS) :]
        return f"{seat} may declare any number of defenders against each attack this {said.get('until', 'phase')}"
    if key in _LIMITS:
        return _LIMITS[key]
    head, _, seat = key.partition(":")
    if head == "played-a-card" and seat:
        return f"{seat} has played a card this {said.get('until', 'round')}"
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
