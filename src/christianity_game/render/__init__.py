"""Pure rendering: the terminal board (Rich), readable action and event texts.

Nothing here changes a game; every function reads a view (or a game, for action texts) and
returns text or a Rich renderable.
"""

from .terminal import (
    ABILITY_NAMES, ABILITY_TEXT, card_lookup, describe_action, describe_actions, describe_event,
    describe_events, render_actions, render_board, render_card_table, render_result, seat_label,
)

__all__ = [
    "ABILITY_NAMES", "ABILITY_TEXT", "card_lookup", "describe_action", "describe_actions", "describe_event",
    "describe_events", "render_actions", "render_board", "render_card_table", "render_result", "seat_label",
]
