"""The game's fixed numbers and names that several rule modules read: the Maturity Abilities and
their prices (A-1; DECISION A-2: high tier 11, low tier 7), the once-per-level abilities (A-4), the
badge limits (S-1, S-7), and the event kinds that show someone a hidden card (for undo)."""

from __future__ import annotations

# the eight Maturity Abilities. A-2 (DECISION): high tier costs 11, low tier 7.
ABILITIES: tuple[str, ...] = (
    "benevolence", "brotherly_love", "restoration", "deliverance", "vibrancy", "cost_zone_power", "speed",
    "foresight",
)
HIGH_TIER = frozenset({"deliverance", "restoration", "benevolence", "foresight"})
ABILITY_PRICE = {a: (11 if a in HIGH_TIER else 7) for a in ABILITIES}
ONCE_PER_LEVEL = ("restoration", "deliverance")
MAX_HUMILITY = 10   # S-7
#: event kinds that show someone a card that was hidden: an action followed by one cannot be undone
REVEALING = frozenset({"drew", "revealed", "flipped", "found", "searched", "reshuffled", "restored",
                       "cost_zone_added", "cost_zone_power", "replaced", "threat_played", "evil_deck_refilled",
                       "destroyed"})
MAX_MATURITY = 3    # S-1
#: G-7 (rules 4): event kinds that show the other seats a card they could not see (from a hand or a
#: Cost Zone): at a table of more than one seat, an action followed by one cannot be undone either
SHOWN_TO_TABLE = frozenset({"played", "discarded", "overflow_discard"})
