"""The LCG events that event cards brought, in sentences (added to the LCG phrasebook)."""

from __future__ import annotations

from domain.lcg.rules import caps, table
from projections.i18n import DEFAULT, N_, _, language, nsay, say
from projections.story import KERNEL, Phrase, Said, join, possessive, scope_end, scope_this

_CANCELLED = {
    "when-revealed": N_("the When Revealed effects of %(card)s are cancelled"),
    "shadow": N_("the shadow effect of %(card)s is cancelled"),
}


def event_played(said: Said) -> str:
    paid = [
        say("%(amount)s from %(card)s", amount=amount, card=said.named(uid))
        for uid, amount in said.get("payments") or ()
        if said.sees(uid)
    ]
    x = say(" (X = %(x)s)", x=said.get("x")) if said.has("x") else ""
    cost = say(", paying %(paid)s", paid=join(paid)) if paid else ""
    return say(
        "%(player)s plays %(card)s%(cost)s",
        player=said.get("player"),
        card=said.card("card", N_("an event")) + x,
        cost=cost,
    )


def threat_reduced(said: Said) -> str:
    player = said.get("player")
    now = said.state.players[player].threat if player in said.state.players else None
    text = say("%(player)s lowers their threat by %(amount)s", player=player, amount=said.get("amount"))
    return text + (say(" (now %(threat)s)", threat=now) if now is not None else "")


def card_put_into_play(said: Said) -> str:
    return say("%(card)s is put into play under %(seat)s's control", card=said.card("card"), seat=said.get("player"))


def card_returned_to_hand(said: Said) -> str:
    return say("%(card)s returns to its owner's hand", card=said.card("card"))


def effect_cancelled(said: Said) -> str:
    effect = str(said.get("effect"))
    if effect in _CANCELLED:
        return _(_CANCELLED[effect]) % {"card": said.card("card")}
    return say("the %(effect)s of %(card)s is cancelled", effect=effect, card=said.card("card"))


_CANNOT_ATTACK = table.cannot_attack("")
_MANY_DEFENDERS = table.many_defenders("")


def modifier_added(said: Said) -> str:
    """Lasting flags in words (Feint, Radagast's Cunning); stat changes as the kernel says them."""
    m = said.get("modifier") or {}
    stat, until, this = str(m.get("stat", "")), scope_end(m.get("until")), scope_this(m.get("until"))
    target = said.named(m.get("target"))
    if stat == table.NO_THREAT:
        return say("%(card)s contributes no threat until %(until)s", card=target, until=until)
    if stat.startswith(_CANNOT_ATTACK):
        return say(
            "%(card)s cannot attack %(seat)s until %(until)s",
            card=target,
            seat=stat[len(_CANNOT_ATTACK) :],
            until=until,
        )
    amount = int(m.get("amount", 0))
    if stat == _FORTUNE:  # Isle of Fortune's resources, kept as a lasting count on it
        n = abs(amount)
        if amount >= 0:
            return nsay(
                "%(n)d resource is placed on %(card)s", "%(n)d resources are placed on %(card)s", n, card=target
            )
        return nsay(
            "%(n)d resource is removed from %(card)s", "%(n)d resources are removed from %(card)s", n, card=target
        )
    if stat in _RECEIVED:
        what = _(_RECEIVED[stat])
        return say(
            "%(card)s has received %(amount)s %(what)s this round (it may receive only so much %(what)s each round)",
            card=target,
            amount=amount,
            what=what,
        )
    if stat.startswith(_KEYWORD):
        source = m.get("source")
        keyword = keyword_word(stat[len(_KEYWORD) :])
        if source != m.get("target") and said.sees(source):
            return say(
                "%(card)s gains %(keyword)s from %(source)s until %(until)s",
                card=target,
                keyword=keyword,
                source=said.named(source),
                until=until,
            )
        return say("%(card)s gains %(keyword)s until %(until)s", card=target, keyword=keyword, until=until)
    if stat == "attacked-again":
        return say("%(card)s has made its extra attack %(this)s", card=target, this=this)
    if stat == _CREW:
        return say(
            "allies with %(amount)s willpower in all are discarded for %(card_s)s Response so far",
            amount=amount,
            card_s=possessive(target),
            card=target,
        )
    if stat == _DISCOUNT:
        if amount < 0:
            return say("%(card_s)s discount is used up", card_s=possessive(target), card=target)
        return say(
            "%(card)s lowers the cost of its controller's next ally by %(amount)s until %(until)s",
            card=target,
            amount=amount,
            until=until,
        )
    return KERNEL["ModifierAdded"](said)


KEYWORDS = {
    "surge": N_("surge"),
    "doomed": N_("doomed"),
    "indestructible": N_("indestructible"),
    "sentinel": N_("sentinel"),
    "ranged": N_("ranged"),
    "archery": N_("archery"),
    "boarding": N_("boarding"),
    "massive": N_("massive"),
    "pillage": N_("pillage"),
    "restricted": N_("restricted"),
    "immune to player card effects": N_("immune to player card effects"),
    "victory": N_("victory"),
    "guarded": N_("guarded"),
}
"""The keywords a card may gain, as the story says them (seed 002: Oleada, Maldito, Indestructible)."""


def keyword_word(code: str) -> str:
    """A keyword in the language spoken (``Doomed 2`` -> ``Maldito 2``); one not listed as it is."""
    if language() == DEFAULT:
        return code
    whole = KEYWORDS.get(code.lower().rstrip("."))
    if whole is not None:
        return _(whole)
    base, _sep, number = code.rstrip(".").rpartition(" ")
    word = KEYWORDS.get(base.lower()) if number.isdigit() else None
    return f"{_(word)} {number}" if word is not None else code


_FORTUNE = "fortune"  # domain/lcg/cards/corsairs.py, FORTUNE
_CREW = "crew-willpower"  # domain/lcg/cards/corsairs.py, CREW (Corsair Skirmisher)
_DISCOUNT = "ally-discount"  # domain/lcg/cards/hobbit_treasures.py, DISCOUNT (The Arkenstone)
_KEYWORD = "keyword:"
_RECEIVED = {caps.RECEIVED_PROGRESS: N_("progress"), caps.RECEIVED_DAMAGE: N_("damage")}
_LIMITS = {
    "stage.ally-played": N_("an ally played this round counts toward the quest stage's limit on allies"),
    "desolation-of-smaug.first-treachery": N_("Desolation of Smaug has met the first treachery revealed this round"),
    "smaug-the-magnificent.attacks-again": N_("Smaug the Magnificent has attacked again this phase"),
    "travel.refused": N_("the players may not travel again this round"),
    "overworked": N_("Overworked blanks the text boxes of non-ship allies until the end of the round"),
    "thftd.setup.quest-action": N_("the quest stage's Quest Action is used (once per game)"),
}
"""Limit keys that name no card, in words."""


def limit_used(said: Said) -> str:
    key = str(said.get("key") or "")
    if key.startswith(_MANY_DEFENDERS):
        seat = key[len(_MANY_DEFENDERS) :]
        return say(
            "%(seat)s may declare any number of defenders against each attack %(until)s",
            seat=seat,
            until=scope_this(said.get("until", "phase")),
        )
    if key in _LIMITS:
        return _(_LIMITS[key])
    head, _sep, seat = key.partition(":")
    if head == "played-a-card" and seat:
        return say("%(seat)s has played a card %(until)s", seat=seat, until=scope_this(said.get("until", "round")))
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
