"""Versions a game record carries, so that a record always replays as it was played.

* ``RECORD_FORMAT_VERSION``: the shape of the record file. Format 1 named decks by id only;
  format 2 also pins the card definitions it was played with (``cards``) and the rules version.
* ``RULES_VERSION``: how the engine plays. Bumped by any change that makes some record replay
  differently (a rule read anew, a decision changed, a bug fixed in play). A record says which rules
  it was played under; the engine replays it under those rules if it still plays them (older
  behaviour kept behind ``game.rules``, see ``RULES_PLAYED``), or refuses it up front with a
  message naming both versions. The history is in CHANGELOG.md and docs/decisions.md.
"""

from __future__ import annotations

RECORD_FORMAT_VERSION = 2

#: The rules the engine plays in new games.
RULES_VERSION = 4

#: Every rules version this engine can still replay and resume, oldest first.
RULES_PLAYED: tuple[int, ...] = (1, 2, 3, 4)

#: What each rules version changed (the changelog's summary, newest last).
RULES_HISTORY: dict[int, str] = {
    1: "The rules as first implemented: co-op, solo and the beta duel (records of format 1 and 2).",
    2: "The game's generator cannot be worked out from what players see (SHAKE-256 keyed by the seed, any seed size); duel: "
       "Evil may interrupt in a Righteous Draw phase before the Cost Zone is laid (Z-5, D-INT-1); a failed "
       "Temptation voids every Righteous seat's clean streak that turn (D-MB-2); the special reward's "
       "'destroy' is offered on every 5th reward (D-MR-5, hides what Righteous hands hold); a position's "
       "starting Maturity counts as rewarded (A-3, S-8).",
    3: "Duel: an Evil seat that starts its turn with an empty deck shuffles its own cards from the Resisted "
       "and Failed piles into a new deck (rules 1 and 2: an empty Evil deck stayed empty, and a long duel "
       "left the Evil side with nothing to play).",
    4: "Undo (G-7) is refused once a hidden card was shown to anyone since the action (a search's options, "
       "and a card played or discarded at a table of more than one seat, beside draws and reveals) and, "
       "in a duel, for every action (the other side sees it at once); ending a duel by agreement (G-8) "
       "needs every seat of the answering side to accept, and a tied score ends it as a draw (rules 1-3: "
       "one seat's answer ended it, a tie to Evil).",
}


def rules_support(rules: object) -> str | None:
    """None when this engine plays ``rules``; otherwise why not, naming both versions."""
    if not isinstance(rules, int) or isinstance(rules, bool) or rules < 1:
        return f"rules version must be a whole number from 1, not {rules!r}"
    if rules in RULES_PLAYED:
        return None
    if rules > RULES_VERSION:
        return (f"the game was played under rules version {rules}, newer than this engine's rules "
                f"version {RULES_VERSION}: update christianity-game to replay it")
    return (f"the game was played under rules version {rules}, which this engine (rules version "
            f"{RULES_VERSION}) no longer plays: replay it with a release that plays rules {rules}")
