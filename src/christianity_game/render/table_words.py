"""Texts that follow the table: with one Righteous seat nothing speaks of a teammate.

A table with one Righteous seat (solo, a one-seat co-op, or a duel such as ER) has no teammate and
no team. P-7: a card that needs a teammate is still played, read as aimed at yourself, for the
target-change fee (the setting ``solo_fee``, C1 unless set higher); a boost a teammate pays is
paid by you, with the fee. The printed card texts speak of teammates; these functions say the
same thing for the table at hand, so the browser's card pictures, ability texts and the engine's
refusals read right. With two or more Righteous seats every text is returned unchanged.

Pure functions, standard library only. ``righteous`` is always the number of Righteous seats.

The duel's Evil win (D-W-E) follows the table too: :func:`evil_win` words it for a table's settings
(the evilHabituals, evilHold and humilityWin play-test variants) and line-up, the one place it is
worded for players (scenario goals and descriptions, ``play --scenario``).
"""

from __future__ import annotations

import re
from typing import Protocol

__all__ = ["LONE_ABILITY_TEXT", "ability_text", "alone", "boost_text", "card_text", "engine_message",
           "evil_win", "evil_win_count", "evil_win_words"]


class WinSettings(Protocol):
    """What the Evil win reads of a table's settings (:class:`~christianity_game.engine.settings.Settings`)."""

    @property
    def evil_habituals(self) -> int: ...
    @property
    def evil_hold(self) -> int: ...
    @property
    def humility_win(self) -> int: ...


def alone(righteous: int) -> bool:
    """True at a table with exactly one Righteous seat (P-7 applies: no teammate to aim at)."""
    return righteous == 1


# the printed card texts' teammate phrases, as read by the one Righteous seat (specific ones first)
_CARD_PHRASES: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), r) for p, r in (
    (r"\b([Tt])his card's effects go to a teammate instead\b",
     r"\1his card's effects stay with you"),
    (r"\bAttach to a teammate\b", "Attach to yourself"),
    (r"\ba teammate's\b", "your"),
    (r"\bA teammate's\b", "Your"),
    (r"\bA teammate (\w+?)s\b", r"You \1"),
    (r"\ba teammate (\w+?)s\b", r"you \1"),
    (r"\bto a teammate\b", "to yourself"),
    (r"\bA teammate\b", "You"),
    (r"\ba teammate\b", "you"),
))
# pronouns that pointed back at the teammate, only in a text that spoke of one
_THEIR = ((re.compile(r"\bThey\b"), "You"), (re.compile(r"\bthey\b"), "you"), (re.compile(r"\btheir\b"), "your"))


def _as_yours(text: str) -> str:
    if not re.search(r"\bteammate", text, re.IGNORECASE):
        return text
    for pattern, repl in _CARD_PHRASES:
        text = pattern.sub(repl, text)
    for pattern, repl in _THEIR:
        text = pattern.sub(repl, text)
    return text


def card_text(text: str, righteous: int, fee: int, *, needs_mate: bool = False) -> str:
    """A card's rules text as the table reads it. With one Righteous seat a teammate becomes
    "you", and a card whose own effects need a teammate (``needs_mate``, the card's
    ``aims_at_mate``) says that it costs the target-change fee more (P-7)."""
    if not alone(righteous):
        return text
    out = _as_yours(text)
    if needs_mate:
        out = f"{out.rstrip()} Target-change fee: C{fee} more."
    return out


def boost_text(words: str, payer: str, righteous: int, fee: int, *, needs_mate: bool = False) -> str:
    """A boost's words (without the printed "Boost (teammate C1):" lead) as the table reads them.
    With one Righteous seat a boost a teammate pays (``payer`` teammate) or one aimed at a teammate
    (``needs_mate``) is yours to pay, with the target-change fee (P-7)."""
    if not alone(righteous):
        return words
    out = _as_yours(words)
    if payer == "teammate" or needs_mate:
        out = f"{out.rstrip().rstrip('.')} (you pay it, +C{fee} target-change fee)."
    return out


#: what an ability does at a table with one Righteous seat, where the usual text would speak of a
#: teammate or would do nothing (the abilities themselves are the same: A-1)
LONE_ABILITY_TEXT: dict[str, str] = {
    "benevolence": "help resist a threat aimed at another Righteous player: with no other Righteous player "
                   "it changes nothing",
    "brotherly_love": "your next card's beneficial effect goes to another Righteous player: with no other "
                      "Righteous player it stays yours (it changes nothing)",
    "restoration": "shuffle up to 15 of your discards back into your deck (once a level)",
}


def ability_text(ability: str, righteous: int, usual: str) -> str:
    """A Maturity Ability's text for the table: ``usual`` (the text for a team) unless the table has
    one Righteous seat and the ability reads differently there."""
    if alone(righteous):
        return LONE_ABILITY_TEXT.get(ability, usual)
    return usual


# the engine's refusal messages that speak of the team, as the one Righteous seat reads them
_MESSAGE_PHRASES: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), r) for p, r in (
    (r"\bthe team's free Maturity Ability\b", "your free Maturity Ability"),
    (r"\bthe team already holds\b", "you already hold"),
    (r"\bthe team does not hold\b", "you do not hold"),
    (r"\ban ability the team can still choose\b", "an ability you can still choose"),
    (r"\bis aimed at a teammate: say which \(to_seat\)", "is aimed at yourself here (to_seat: your seat), "
                                                         "for the target-change fee"),
))


def engine_message(text: str, righteous: int) -> str:
    """An engine refusal's words for the table: with one Righteous seat, "the team" is "you"."""
    if not alone(righteous):
        return text
    for pattern, repl in _MESSAGE_PHRASES:
        text = pattern.sub(repl, text)
    return text


# ---------------------------------------------------------------------------------------- the Evil win
def evil_win_count(settings: WinSettings, lineup: str) -> int:
    """D-W-E: the Evil Habituals in play the Evil win needs at this table (per Evil seat, 7 as
    printed or the evilHabituals variant's, times the Evil seats): the engine's ``evil_limit``."""
    return settings.evil_habituals * lineup.upper().count("E")


def _righteous_turns(righteous: int) -> str:
    return {1: "the Righteous turn", 2: "both Righteous turns"}.get(righteous, f"all {righteous} Righteous turns")


def evil_win(settings: WinSettings, lineup: str) -> str:
    """The duel's Evil win at this table, in a player's words (a phrase to follow "Evil:"):
    the Habituals it needs (D-W-E, the evilHabituals variant), how long they must hold (the
    evilHold variant: the Righteous side's turns of one round as printed, or N rounds of them), and
    the humilityWin variant's second Evil win where the table plays it. For example
    "7 Evil Habituals in play, held through the Righteous turn" (ER, printed) or
    "4 Evil Habituals in play (2 per Evil seat), held through 2 rounds of Righteous turns" (EER)."""
    evil = lineup.upper().count("E")
    righteous = lineup.upper().count("R")
    count = evil_win_count(settings, lineup)
    text = f"{count} Evil Habitual{'' if count == 1 else 's'} in play"
    if evil > 1:
        text += f" ({settings.evil_habituals} per Evil seat)"
    hold = settings.evil_hold
    text += f", held through {_righteous_turns(righteous)}" if hold == 1 else \
        f", held through {hold} rounds of Righteous turns"
    rounds = settings.humility_win
    if rounds:
        who = "the Righteous seat" if righteous == 1 else "every Righteous seat"
        when = "a round" if rounds == 1 else f"{rounds} rounds in a row"
        text += f"; or {who} at Humility 0 at the end of {when}"
    return text


def evil_win_words(settings: WinSettings, lineup: str) -> dict[str, str]:
    """The Evil win's words a text about a table may name (a scenario's goal and description):
    ``{evil_win}`` (:func:`evil_win`) and ``{evil_count}`` (:func:`evil_win_count`)."""
    return {"evil_win": evil_win(settings, lineup), "evil_count": str(evil_win_count(settings, lineup))}
