"""A decision's prompt and its options' labels in the language spoken.

The engine records a decision in English, in the event log, which stays the same in every
language: the words are translated when they are shown. A prompt or a label that is always
the same words (``Pass``, ``Quest: commit characters (exhaust them)``) is a message of the
catalog as it stands (:data:`FIXED`); one the engine fills in (``Play Gandalf (cost 5)``) is
read by a pattern (:data:`PATTERNS`): the message itself, whose named blanks read any words
(``%(card)s``, a card's name; ``%(n)s``, a number; ``%(text)s``, words read again by the
same rules; ``%(seat)s`` and ``%(name)s``, one word kept as it is; any other blank, any
words kept as they are). The first pattern that reads the
whole text says it, those made of blanks and punctuation only (``%(card)s: %(text)s``) tried
last. Words nothing reads stay as recorded, in English.
"""

from __future__ import annotations

import re
from functools import cache

from domain.lcg.cards import CARDS as LCG_CARDS
from domain.wotr.cards import CARDS as WOTR_CARDS
from domain.wotr.cards import LOCATIONS
from projections.i18n import DEFAULT, N_, card_name, language, translations

FIXED = (
    # the LCG's questions (domain/lcg/rules)
    N_("Keep your setup hand, or take a mulligan?"),
    N_("Keep this hand"),
    N_("Engage an enemy from the staging area?"),
    N_("Travel to a location in the staging area?"),
    N_("Do not travel"),
    N_("Quest: commit characters (exhaust them)"),
    N_("Planning: play an ally or an attachment, or finish planning"),
    N_("Play no (more) card"),
    N_("Resource phase: use an Action, or pass"),
    N_("Planning phase: use an Action, or pass"),
    N_("Quest phase: use an Action, or pass"),
    N_("Travel phase: use an Action, or pass"),
    N_("Encounter phase: use an Action, or pass"),
    N_("Combat phase: use an Action, or pass"),
    N_("Refresh phase: use an Action, or pass"),
    N_("Undefended attack: choose the hero who takes the damage"),
    N_("Leave it undefended"),
    N_("Leave it exhausted"),
    N_("Pay"),
    N_("None"),
    # War of the Ring's questions (domain/wotr/rules)
    N_("Combat step: choose where to fight next"),
    N_("Cycle a card from your hand"),
    N_("cycle a card from your hand"),
    N_("Death! Ride: eliminate Rohan cards from your reserve"),
    N_("Forsake a card"),
    N_("Palantír: cycle one of them"),
    N_("Palantír: eliminate one of them"),
    N_("Ring token: eliminate a card from your hand"),
    N_("You may play one of the cards you drew"),
    N_("Eliminate a Rohan character in play"),
    N_("The top card of your draw deck"),
    N_("Use your Ring token"),
    # the tails of "Card: ..." (read after a card's name)
    N_("add a defense token where?"),
    N_("attach it to one of your heroes"),
    N_("choose a character to exhaust"),
    N_("choose characters to exhaust"),
    N_("choose a different path with the same number"),
    N_("choose a player"),
    N_("choose an enemy to engage"),
    N_("choose one"),
    N_("choose the new path"),
    N_("move the Nazgûl onto the path?"),
    N_("put him into play from your hand?"),
    N_("lower your threat by 1?"),
    N_("reactivate which battleground?"),
    N_("ready one of your characters?"),
    N_("remove one of your questing characters from the quest"),
    N_("activate a different path with the same number"),
    N_("activate a path with the next higher number"),
    N_("each Free Peoples player cycles a card"),
    N_("each Free Peoples player forsakes a card"),
    N_("take a Nazgûl from your cycle pile"),
    N_("reactivate a Southron battleground"),
    # what the engine and the service answer to a refused request (projections.prompts.error_text)
    N_("the game is over"),
    N_("no decision is pending"),
    N_("give exactly one number"),
    N_("an option is given twice"),
    N_("choose exactly one option"),
    N_("order every option"),
    N_("a token is required (the seat, spectator or referee token of the game)"),
    N_("version cannot be negative (0 means the current version)"),
    # more questions and labels
    N_("Claim the objective: attach it to one of your heroes"),
    N_("Engagement check: which enemy engages you?"),
    N_("Forced effects due at once: the first player chooses which resolves next"),
    N_("Travel: you must travel to this location"),
    N_("Leadership"),
    N_("Lore"),
    N_("Spirit"),
    N_("Tactics"),
    N_("shuffle an objective back into the encounter deck"),
    N_("move the Nazgûl onto a battleground?"),
    N_("name a sphere"),
    N_("cycle a card to add attack to the path?"),
    N_("exhaust a hero to travel"),
    N_("return an exhausted ally to your hand"),
    N_("activate or reactivate a battleground and ride there"),
    N_("choose a battleground to activate or reactivate"),
    N_("choose the next path"),
    N_("add an attack token where?"),
    N_("discard a card from your hand"),
    N_("eliminate one of your Isengard armies"),
    N_("activate or reactivate a Dúnedain battleground and move there"),
    N_("each Shadow player cycles a card"),
    N_("eliminate a Rohan character"),
    N_("Deal 10 damage to a non-unique engaged enemy"),
    N_("Baggins"),
    N_("Prepare your fleet: choose the ship-objective you take control of (Basic side)"),
    N_("Pay 1 resource: from which hero's pool?"),
    N_("It gains Boarding 1"),
    N_("Raise your threat by 4"),
    N_("Advance to stage 4A (Thieves! Fire! Murder!)"),
    N_("Spend 1 of Bilbo Baggins's resources"),
    N_("Pretending to Sleep: pay 1 Baggins resources, or advance to stage 4A?"),
    N_("Archery: choose a character to take 1 damage (the first player decides)"),
    N_("Standard Mode: deal 10 damage to a non-unique engaged enemy (once per game)"),
    N_("deal 1 damage to a character you control"),
    N_("deal 1 damage to a non-ship character you control"),
    N_("choose a hero to gain Ranged"),
    N_("attach it to a ship-objective"),
    N_("exhaust 3 characters you control to discard it"),
    N_("place 1 resource in which hero's pool?"),
    N_("shuffle 5 cards from your hand into your deck"),
    N_("pay resources to ready a character (once per round)"),
    N_("ready a character"),
    N_("play an ally or an attachment from your hand"),
    N_("choose an Isengard battleground"),
    # why a Shadow bot did what it did (domain/wotr/bot), read piece by piece
    N_("no other player is above the carryover limit (2a: no)"),
    N_("the path is at the scenario's maximum (2b: no)"),
    N_("the Shadow is not winning every combat (2c: no)"),
    N_("no useful move"),
    N_("no useful move and no card in hand"),
    N_("nothing to do but pass"),
    N_("a random card from its hand"),
    N_("a random card from its hand cannot be played usefully anywhere"),
    N_("a random card from its hand was already played this round"),
    N_("it is cycled"),
    N_("it is cycled instead"),
    N_("it was already played this round"),
    N_("an event whose text is useful is played"),
    N_("an item goes to the right-most wielder where it can be played"),
    N_("nowhere on a path or battleground is worth it, so to reserve"),
    N_("the current path is the highest the scenario allows"),
    N_("the right-most eligible and useful card in reserve moves"),
    N_("the first Nazgûl character drawn"),
    N_("the first drawn card it can play"),
    N_("a bot uses a card's text when it is even partially useful"),
    N_("a different random path of the same number"),
    N_("a random one of the face-down cards it may choose"),
    N_("all things otherwise equal, the right-most location is fought first"),
    N_("another player is above the carryover limit, the path is below the maximum, the Shadow wins every combat"),
    N_("it can usefully use the action of a card in reserve (path, then battleground, then reserve)"),
    N_("it can usefully use the action of a card on a path (path, then battleground, then reserve)"),
    N_("of the cards or locations that qualify, the right-most"),
    # questions and labels no seeded game meets (tests/test_i18n_prompts.py reads the rules for all)
    N_("Gandalf enters play: choose 1"),
    N_("Gandalf enters play: use his response?"),
    N_("Reduce your threat by 5"),
    N_("Deal 4 damage to 1 enemy in play"),
    N_("the attached hero gets +1 until the end of the phase"),
    N_("+1 Defense"),
    N_("+1 Willpower"),
    N_("add 1 resource to the attached hero's pool?"),
    N_("exhaust it to look at the shadow card just dealt?"),
    N_("exhaust a character to attack an enemy now"),
    N_("whose deck?"),
    N_("put the rest back on top, top card first"),
    N_("Each player lowers their threat by 2"),
    N_("the players may pay 5 resources"),
    N_("search the top 5 cards of your deck for 1 card?"),
    N_("choose"),
    N_("Pay 5 resources together to repair and upgrade a ship"),
    N_("Do not pay"),
    N_("The attacking enemy attacks you again"),
    N_("discard allies (3 willpower) to take it as a ship?"),
    N_("rescue the prisoner (it comes back with 1 damage, and the Nazgûl comes)?"),
    N_("exhaust her to cancel this treachery?"),
    N_("Leave it on top"),
    N_("Move it to the bottom"),
    N_("your next ally of the attached hero's sphere costs X less"),
    N_("1 damage to another enemy engaged with you?"),
    N_("add up to 2 cards of the encounter discard pile to the victory display"),
    N_("The Dreadnaught attacks you: raise your threat by 4 to cancel the attack?"),
    N_("which player takes control of it?"),
    N_("players tie for the highest threat; who takes it?"),
    N_("Search"),
    N_("Do not search"),
    N_("Advance to stage 3 (Inside Information)?"),
    N_("make a burgle attempt to find Smaug's bare patch?"),
    N_("Make a burgle attempt"),
    N_("The first player draws 2 cards"),
    N_("Remove 1 progress from Smaug"),
    N_("Neither"),
    N_("who is attacked?"),
    N_("name a card type"),
    N_("Discard nothing: the attempt fails"),
    N_("Attack an enemy in the staging area?"),
    N_("No more defenders"),
    N_("Player attacks: choose the enemy to attack next"),
    N_("Make no more attacks"),
    N_("Done"),  # planning's last option (domain/lcg/rules/planning.py) and others
    N_("choose X (its cost)"),
    N_("Effects due at the end of the phase: the first player chooses which resolves next"),
    N_("Effects due at the end of the round: the first player chooses which resolves next"),
    N_("Effects due at the end of the attack: the first player chooses which resolves next"),
    N_("Responses to the same moment: choose which resolves next"),
    N_("Use none of them"),
    N_("Response"),
    N_("Forced effect"),
    N_("Follow the bot flowchart"),
    N_("All"),
    N_("free"),
    N_("sphere"),
    N_("type"),
    N_("cost"),
    N_("sphere and type"),
    N_("hero"),
    N_("ally"),
    N_("attachment"),
    N_("event"),
    N_("leadership"),
    N_("lore"),
    N_("spirit"),
    N_("tactics"),
    N_("neutral"),
    N_("no sphere"),
)
"""Prompts and labels always in the same words."""

PATTERNS = (
    N_("Attack %(card)s (defense %(n)s, %(n2)s hit points left)? Choose attackers"),
    N_("Eliminate %(n)s of the cards you drew"),
    N_("Pay for %(card)s: %(text)s"),
    N_("Pay for %(card)s"),
    N_("Pay %(n)s resources from %(card)s's pool to ready it?"),
    N_("Round %(n)s, action step: take an action or pass"),
    N_("Use the response of %(card)s?"),
    N_("%(card)s: search your deck for %(card2)s and put him into play?"),
    N_("Winnow: eliminate %(n)s cards from your hand, then draw %(n2)s"),
    N_("Winnow: eliminate %(n)s cards from your hand"),
    N_("Mulligan: shuffle it back and draw %(n)s new cards"),
    N_("%(card)s (shadow): %(text)s"),
    N_("%(card)s attacks (attack %(n)s): declare a defender"),
    N_("%(card)s (engaged with %(seat)s; Ranged only)"),
    N_("%(card)s committed: spend %(n)s of his resources to ready him?"),
    N_("Cycle %(card)s"),
    N_("Hand: %(card)s"),
    N_("Reserve: %(card)s"),
    N_("Fight on %(card)s"),
    N_("Move %(card)s onto %(card2)s"),
    N_("Play %(card)s (cost %(n)s)"),
    N_("Play %(card)s (event)"),
    N_("Play %(card)s on %(card2)s"),
    N_("Play %(card)s onto %(card2)s"),
    N_("Play %(card)s to your reserve"),
    N_("Take %(card)s from your draw deck"),
    N_("%(card)s pays %(n)s"),
    N_("%(text)s (%(seat)s)"),
    N_("%(card)s: %(text)s"),
    # the tails of "Card: ..."
    N_("choose a hero to take %(n)s damage"),
    N_("choose a questing character to take %(n)s damage"),
    N_("choose a questing hero to gain %(n)s resource"),
    N_("draw %(n)s cards?"),
    N_("forsake a card to add %(n)s attack token to the path?"),
    N_("forsake a card to draw %(n)s?"),
    N_("place %(n)s progress on a location"),
    N_("take %(card)s from your draw deck or cycle pile?"),
    N_("take %(card)s or %(card2)s from your draw deck"),
    N_("+%(n)s attack until the end of the phase, then shuffle him into your deck"),
    N_("cycle it: %(text)s"),
    N_("eliminate it: %(text)s"),
    N_("eliminate him: %(text)s"),
    N_("exhaust: a player's characters get +%(n)s willpower"),
    N_("forsake a card to search for %(card)s or %(card2)s"),
    N_("look at the top %(n)s cards: eliminate %(n2)s, cycle %(n3)s, take %(n4)s"),
    N_("cycle %(name)s to draw %(n)s cards"),
    N_("cycle %(name)s to take %(card)s from your cycle pile"),
    N_("cycle %(name)s to add %(n)s defense token to the active path"),
    N_("cycle %(name)s to search for %(card)s or %(card2)s"),
    N_("eliminate %(name)s to draw %(n)s cards"),
    N_("eliminate %(name)s: take %(card)s or eliminate a Rohan character"),
    N_("add %(n)s attack token to an active battleground"),
    N_("add %(n)s attack token to the active path"),
    N_("add %(n)s defense token to an active battleground"),
    N_("each Shadow player draws %(n)s"),
    N_("add %(n)s corruption"),
    N_("activate %(card)s"),
    N_("take %(n)s Hobbit characters from your cycle pile"),
    # a setup refused (SetupError: domain/lcg/lineups.py, domain/*/position.py, domain/wotr/options.py)
    N_("zone %(zone)s: unknown card field(s) %(list)s"),
    N_("give the step to start at (at) or the whole stack (stack), not both"),
    N_("stack: the bottom frame must be of the program %(where)s"),
    N_("%(where)s: unknown field(s) %(list)s; known: %(list2)s"),
    N_("%(where)s: missing %(list)s"),
    N_("cannot start at %(where)s: %(error)s"),
    N_("%(where)s: no program node %(key)s"),
    N_("%(where)s: no program %(key)s"),
    N_("%(where)s: no card labelled %(label)s on the table"),
    N_("%(where)s: no seat %(value)s; the seats are %(list)s"),
    N_("%(where)s: %(key)s %(value)s is not a scope; scopes are %(list)s"),
    N_("%(where)s: give the card whose limit is used, or its key"),
    N_("unknown hero %(value)s; the heroes are: %(list)s"),
    N_("player %(n)s's deck has %(n2)s cards; %(card)s needs at least %(n3)s"),
    N_("unknown contract %(value)s; known: %(list)s"),
    N_("unknown difficulty %(value)s; choose from %(list)s"),
    N_("the game takes 1 to %(n)s players, not %(value)s"),
    N_("heroes were given for %(n)s players but the game has %(n2)s"),
    N_("decks were given for %(n)s players but the game has %(n2)s"),
    N_("contracts were given for %(n)s players but the game has %(n2)s"),
    N_("heroes are unique: %(list)s cannot be in play twice"),
    N_("player %(n)s's deck names its heroes; do not name heroes for player %(n2)s too"),
    N_("player %(n)s needs %(n2)s to %(n3)s heroes, got %(n4)s"),
    N_("no default heroes left for player %(n)s; name them with --heroes"),
    N_("player %(n)s's deck%(value)s is refused:\n%(lines)s"),
    N_("unknown card %(value)s"),
    N_("epic: group %(n)s is not one of groups 1 to %(n2)s"),
    N_("first: no seat %(value)s; the seats are %(list)s"),
    N_("first: %(value)s is eliminated; the first-player token would have passed on"),
    N_("position: unknown key(s) %(list)s; known: %(list2)s"),
    N_("shared and relays are a group's part of an epic event: give [game.epic] too"),
    N_("shared: unknown global value(s) %(list)s; known: %(list2)s"),
    N_("attack: unknown field(s) %(list)s; known: %(list2)s"),
    N_("attack: no seat %(value)s; the seats are %(list)s"),
    N_("unknown zone %(zone)s; shared zones are %(list)s, player zones are <seat>.<%(list2)s> for seats %(list3)s"),
    N_("%(value)s names several cards: %(list)s; give the code"),
    N_("eliminated: no seat %(value)s; the seats are %(list)s"),
    N_("%(card)s is put on %(value)s, which is not on the table"),
    N_("engage %(n)s: give exactly the fields %(list)s"),
    N_("engage %(n)s: %(value)s is not on the table"),
    N_("engage %(n)s: no seat %(value)s; the seats are %(list)s"),
    N_("attack: no card labelled %(label)s on the table"),
    N_("zone %(zone)s: uid %(value)s is given twice"),
    N_("unknown rule option(s) %(list)s; known: %(list2)s"),
    N_("rule option when_played_in_reserve must be true or false"),
    N_("--bots must name every Shadow seat of %(value)s and nothing else: %(list)s (got %(list2)s)"),
    N_("difficulty must be one of %(list)s, not %(value)s"),
    N_("bot card file %(file)s: no [[card]] entries"),
    N_("rule option %(key)s must be one of %(list)s, not %(value)s"),
    N_("--difficulty and --bot-cards are for games against Shadow bots (--bots)"),
    N_("bot card file %(file)s: not valid TOML: %(error)s"),
    N_("bot card file %(file)s: card %(n)s has unknown field(s) %(list)s; known: %(list2)s"),
    N_(
        "bot card file %(file)s: %(error)s (each [[card]] needs code, name, deck, side, faction and type; "
        "see domain/wotr/cards/faction_cards.toml)"
    ),
    N_("%(where)s: the code is used twice"),
    N_("%(where)s: side must be 'shadow', not %(value)s"),
    N_("%(where)s: faction must be one of %(list)s, not %(value)s"),
    N_("%(where)s: type must be one of %(list)s, not %(value)s"),
    N_("%(where)s: quantity must be at least 1 and icons at least 0"),
    N_("%(where)s: only a character has paths, numbered 1 to 9"),
    N_("%(where)s: the code is already a different card (%(card)s); give it another code"),
    N_(
        "unknown zone %(zone)s; shared zones are %(list)s, paths.<n> and at.<location code>; "
        "a seat's zones are <seat>.<%(list2)s> for seats %(list3)s"
    ),
    N_("delayed: no War of the Ring text waits for the end of a scope"),
    N_("combat: unknown field(s) %(list)s; known: %(list2)s"),
    N_("no seat %(value)s; the seats are %(list)s"),
    N_("%(card)s must be listed in the zone of %(value)s (%(zone)s)"),
    N_("combat: no card labelled %(label)s on the table"),
    N_("unknown location %(value)s in zone %(zone)s"),
    # (after the longer messages that begin alike)
    N_("unknown zone %(zone)s; a seat's zones are %(list)s"),
    N_("unknown zone %(zone)s; a player's zones are %(list)s"),
    # refusals
    N_("decision %(n)s is not pending; the pending decision is %(n2)s"),
    N_("decision %(n)s (%(name)s) is for seat %(name2)s, not %(name3)s"),
    N_("decision %(n)s was already answered; the pending decision is %(n2)s: reload and retry"),
    N_("illegal choice %(choice)s for decision %(n)s (%(name2)s, %(name3)s): %(text)s"),
    N_("unknown option %(name)s"),
    N_("%(name)s is not a number"),
    N_("give a whole number from %(n)s to %(n2)s"),
    N_("choose from %(n)s to %(n2)s options"),
    N_("version %(n)s is out of range: the game has versions 1 to %(n2)s"),
    N_("event %(n)s is out of range: the game has events 1 to %(n2)s"),
    N_("no game %(name)s"),
    N_("expected game version %(n)s, but the game is at version %(n2)s"),
    N_("game %(name)s was changed by another command; reload and retry"),
    N_("the token is not valid for game %(name)s"),
    # more filled in
    N_("Choose for %(name)s (Shadow bot), a possible and useful choice: %(text)s"),
    N_("%(card)s: %(n)s attack icon(s) to cancel; choose a card to lose"),
    N_("%(card)s (%(seat)s): cancels %(n)s"),
    N_("Draw %(n)s cards"),
    N_("Take %(card)s from the draw deck into hand"),
    N_("raise your threat by %(n)s to claim it"),
    N_("activate another path numbered %(n)s?"),
    N_("take %(card)s from your cycle pile?"),
    N_("take %(card)s from your draw deck?"),
    N_("%(card)s engaged you: choose"),
    N_("cycle a card to search for %(card)s?"),
    N_("eliminate %(name)s: remove %(n)s corruption per Hobbit on the path"),
    N_("cycle %(name)s: %(text)s"),
    N_("cycle it with its Nazgûl: add %(n)s corruption"),
    N_("activate a path with the next higher number, adding %(n)s corruption"),
    N_("take %(name)s or %(name2)s from your cycle pile?"),
    N_("%(card)s moves from reserve to a path %(name)s even if the Shadow is winning"),
    N_("the Shadow could conceivably win on this path but is losing now (%(text)s)"),
    N_("the Shadow could conceivably win on this battleground but is losing now (%(text)s)"),
    N_("%(text)s, the right-most such battleground"),
    N_("now Shadow attack %(n)s against %(n2)s defense and %(n3)s defending icons"),
    N_("now Shadow defense %(n)s and %(n2)s defending icons against attack %(n3)s"),
    N_("with every Shadow card in reserve that could move there: %(text)s"),
    N_("with every Shadow card in reserve that could move there and the card played: %(text)s"),
    N_("Shadow attack %(n)s against %(n2)s defense and %(n3)s defending icons"),
    N_("Shadow defense %(n)s and %(n2)s defending icons against attack %(n3)s"),
    N_("the %(n)s bot cards and %(n2)s locations its rulebook prints are played as printed"),
    N_(
        "the other bot cards are not public, so the base game's Shadow faction cards are played in their place "
        "(and the base paths and battlegrounds for the %(n)s replacement locations not printed)"
    ),
    # a deck's problems (domain/lcg/decks)
    N_("the deck has no hero; a deck has %(n)s to %(n2)s heroes"),
    N_("the deck has %(n)s heroes; a deck has %(n2)s to %(n3)s heroes"),
    N_("%(card)s is a %(kind)s card, not a hero"),
    N_("%(card)s is an %(kind)s card, not a hero"),
    N_("%(card)s is among the heroes twice; a hero is unique"),
    N_("%(card)s is a hero; list it among the heroes, once"),
    N_("%(card)s is a %(kind)s card, not a player card"),
    N_("%(card)s is an %(kind)s card, not a player card"),
    N_("%(n)s copies of %(card)s; a deck holds at most %(n2)s of a title"),
    N_("%(card)s (Core Set #%(n)s) is not playable yet: its text is not implemented"),
    N_("%(card)s is not playable yet: its text is not implemented"),
    # questions no seeded game meets (tests/test_i18n_prompts.py reads the rules for all)
    N_("%(card)s was explored: %(text)s"),
    N_("%(card)s destroyed: %(text)s"),
    N_("Play %(card)s"),
    N_("Play %(card)s: %(text)s"),
    N_("%(seat)s's deck"),
    N_("Use %(card)s: %(text)s"),
    N_("Raise your threat by %(n)s"),
    N_("X = %(n)s: raise your threat by %(n2)s"),
    N_("%(seat)s lowers their threat by %(n)s"),
    N_("the top encounter card is %(card)s"),
    N_("Attach %(card)s to"),
    N_("add %(card)s to your hand or play it for %(n)s less?"),
    N_("Add %(card)s to your hand"),
    N_("Play %(card)s, its cost reduced by %(n)s (to %(n2)s)"),
    N_("%(seat)s (threat %(n)s)"),
    N_("pay %(n)s Baggins resources, or advance to stage 4A?"),
    N_("Spend %(n)s of Bilbo Baggins's resources"),
    N_("this group (group %(n)s)"),
    N_("group %(n)s"),
    N_("Burgle: %(text)s is turned up; discard %(text2)s?"),
    N_("%(card)s (%(text)s, %(text2)s, cost %(n)s)"),
    N_("%(n)s card matching its %(text)s"),
    N_("%(n)s cards matching its %(text)s"),
    N_("Discard %(text)s: the attempt succeeds"),
    N_("%(card)s attacks (attack %(n)s): declare another defender?"),
    N_("%(card)s attacks %(card2)s in the staging area"),
    N_("%(card)s attacks %(card2)s"),
    N_("%(seat)s: a Response from hand"),
    N_("%(card)s: cancels %(n)s"),
    N_("%(card)s with %(text)s: cancels %(n)s"),
    N_("an effect (%(name)s)"),
    N_("%(card)s (%(name)s)"),
    N_("%(seat)s: %(text)s"),
    # a sentence of sentences: each read on its own (a bot's reasons)
    N_("%(text)s; %(text2)s"),
    N_("%(text)s: %(text2)s"),
)
"""Prompts and labels the engine fills in, as messages whose blanks the recorded text fills."""

_BLANK = re.compile(r"%\((\w+)\)s")
_PAYS = re.compile(r"^.+? pays \d+(?:, .+? pays \d+)+$")


@cache
def _names() -> frozenset[str]:
    out = {c.name for c in LCG_CARDS.values()} | {c.name for c in WOTR_CARDS.values()}
    out |= {c.name_a for c in LCG_CARDS.values() if getattr(c, "name_a", None)}
    out |= {loc.name for loc in LOCATIONS.values()}
    return frozenset(n for n in out if n)


def _regex(blank: str) -> str:
    if re.fullmatch(r"n\d*", blank):
        return rf"(?P<{blank}>\d+)"
    if blank == "seat":
        return rf"(?P<{blank}>[a-z][a-z0-9-]*)"
    if blank.startswith("name"):  # a short name or a key: one word
        return rf"(?P<{blank}>[^\s]+?)"
    if blank.startswith("text"):  # words whose brackets close: a sentence is not cut inside them
        return rf"(?P<{blank}>(?:[^()]|\([^()]*\))+?)"
    return rf"(?P<{blank}>.+?)"


def _generic(message: str) -> bool:
    """Whether a pattern says nothing but its blanks (``%(card)s: %(text)s``): it is tried
    after every pattern with words, so ``Osgiliath: 2 attack icon(s) to cancel`` is read by
    its own message, not cut at its colon."""
    return not re.sub(r"[\W_]", "", _BLANK.sub("", message))


@cache
def _compiled() -> tuple[tuple[re.Pattern[str], str], ...]:
    out = []
    for message in sorted(PATTERNS, key=_generic):
        parts = _BLANK.split(message)  # text, blank, text, blank, ...
        regex = "".join(re.escape(part) if i % 2 == 0 else _regex(part) for i, part in enumerate(parts))
        out.append((re.compile(f"^{regex}$", re.DOTALL), message))
    return tuple(out)


def error_text(text: str) -> str:
    """A refusal's message (an exception's text, in the engine's English) in the language
    spoken: the same reading as a prompt's."""
    return translate(text)


def translate(text: str) -> str:
    """``text`` (a prompt or a label the engine recorded, in English) in the language spoken."""
    if language() == DEFAULT or not text:
        return text
    return _read(text, 8)


def _read(text: str, depth: int) -> str:
    catalog = translations(language())
    whole = catalog.gettext(text)
    if whole != text:
        return whole
    if depth <= 0:
        return text
    if _PAYS.match(text):  # "Gimli pays 1, Legolas pays 1": each payment said alike
        return ", ".join(_read(part, depth - 1) for part in re.findall(r"(?:^|, )(.+? pays \d+)", text))
    for regex, message in _compiled():
        match = regex.match(text)
        if match is None:
            continue
        pieces = match.groupdict()
        if not all(_fits(key, value) for key, value in pieces.items()):
            continue
        said = {key: _piece(key, value, depth) for key, value in pieces.items()}
        return catalog.gettext(message) % said
    return card_name(text) if text in _names() else text


def _fits(blank: str, value: str) -> bool:
    """A card blank reads only a card's name (so ``Planning: ...`` is not ``Card: ...``); a
    text blank reads only words whose brackets close (a sentence is not cut inside them)."""
    if blank.startswith("card"):
        return value in _names()
    if blank.startswith("text"):
        return value.count("(") == value.count(")")
    return True


def _piece(blank: str, value: str, depth: int) -> str:
    if blank.startswith("card"):
        return card_name(value)
    if blank.startswith(("text", "kind")):  # a kind is a word of the catalog (enemy, treachery...)
        return _read(value, depth - 1)
    if blank == "lines":  # a list, one item a line, each indented: each read on its own
        return "\n".join(f"  {_read(line.strip(), depth - 1)}" for line in value.split("\n"))
    return value
