"""Games started from a described position (DESIGN "Positions"): scenario tests and duel scenarios.

A position is a dict (or TOML table): per seat its Humility, Maturity, hand, Cost Zone (each card
an id, or ``{id, tapped, face_up}``), Righteous Habituals in play, Evil Habituals held (an id, or
``{id, by}`` naming the Evil seat that played it), discard
and deck (top first; or ``deck_from``: the rest of a named deck, shuffled); the Evil deck (top first), pending threats, the team's abilities, the
round, the seat whose turn it is and the phase. Cards are named by card id.
"""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..cards.loader import CardSet, starter_set
from .settings import Settings
from .state import Threat

if TYPE_CHECKING:
    from .game import Game

PHASE_TO_STEP = {"draw": "turn_start", "cost_zone": "lay", "evil": "evil", "resistance": "resistance",
                 "main": "main", "end": "end"}
SEAT_KEYS = {"humility", "maturity", "hand", "cost_zone", "in_play", "held", "discard", "deck", "deck_id", "deck_from"}
TOP_KEYS = {"round", "turn_seat", "phase", "seats", "evil_deck", "threats", "abilities", "charged", "team_level",
            "resisted", "failed", "field", "clearing", "lineup"}


class PositionError(ValueError):
    """A position that cannot be set up: the message names the part that is wrong."""


def load_position_file(path: str | Path) -> dict[str, Any]:
    try:
        return tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise PositionError(f"{path}: {exc}") from None


def build_from_position(cls: type["Game"], position: dict[str, Any], mode: str, lineup: str | None, seed: int,
                        settings: Settings | None, card_set: CardSet | None, rules: int | None = None) -> "Game":
    if not isinstance(position, dict):
        raise PositionError("a position must be a table")
    unknown = set(position) - TOP_KEYS
    if unknown:
        raise PositionError(f"unknown position keys: {', '.join(sorted(unknown))}")
    seats_spec = position.get("seats")
    if not isinstance(seats_spec, list) or not seats_spec:
        raise PositionError("a position needs a list of seats")
    lineup = lineup or position.get("lineup") or "R" * len(seats_spec)
    if len(lineup) != len(seats_spec):
        raise PositionError(f"lineup {lineup!r} has {len(lineup)} seats but the position describes {len(seats_spec)}")
    game = cls._blank(mode, lineup, seed, settings, card_set or starter_set(), (), rules)
    game._position = copy.deepcopy(position)   # kept for the record (construction only, not the hot path)
    game.deck_lists = []
    st = game.state

    def new(card_id: Any, owner: int, where: str) -> int:
        if not isinstance(card_id, str) or card_id not in game.cards.cards:
            raise PositionError(f"{where}: unknown card {card_id!r}")
        return game._new_card(card_id, owner)

    for i, spec in enumerate(seats_spec):
        if not isinstance(spec, dict):
            raise PositionError(f"seat {i}: must be a table")
        bad = set(spec) - SEAT_KEYS
        if bad:
            raise PositionError(f"seat {i}: unknown keys {', '.join(sorted(bad))}")
        sd = st.seats[i]
        sd.deck_id = spec.get("deck_id", "")
        sd.humility = int(spec.get("humility", sd.humility))
        sd.maturity = int(spec.get("maturity", 0))
        if not 0 <= sd.humility <= 10 or not 0 <= sd.maturity <= 3:
            raise PositionError(f"seat {i}: humility must be 0..10 and maturity 0..3")
        for zone in ("hand", "in_play", "discard"):
            getattr(sd, zone).extend(new(c, i, f"seat {i} {zone}") for c in spec.get(zone, []))
        evil_seats = [k for k, ch in enumerate(lineup) if ch == "E"]
        for c in spec.get("held", []):
            # an Evil Habitual belongs to the Evil seat that played it ({id, by}); by default the
            # first Evil seat in a duel, the Evil deck in co-op
            entry = c if isinstance(c, dict) else {"id": c}
            by = entry.get("by", evil_seats[0] if evil_seats else -1)
            if by != -1 and by not in evil_seats:
                raise PositionError(f"seat {i} held: 'by' must be an Evil seat, not {by!r}")
            sd.held.append(new(entry.get("id"), by, f"seat {i} held"))
        deck_ids = list(spec.get("deck", []))
        if "deck_from" in spec:   # the rest of a named deck, shuffled: what the seat's other zones do not hold
            source = game.cards.decks.get(spec["deck_from"])
            if source is None:
                raise PositionError(f"seat {i} deck_from: unknown deck {spec['deck_from']!r}")
            rest = list(source.cards)
            placed = list(spec.get("hand", [])) + list(spec.get("in_play", [])) + list(spec.get("discard", []))
            placed += [c["id"] if isinstance(c, dict) else c for c in spec.get("cost_zone", [])]
            for c in placed:
                if c in rest:
                    rest.remove(c)
            st.rng.shuffle(rest)
            deck_ids.extend(rest)
            sd.deck_id = sd.deck_id or spec["deck_from"]
        sd.deck = [new(c, i, f"seat {i} deck") for c in deck_ids][::-1]   # top first -> end of list
        for c in spec.get("cost_zone", []):
            entry = c if isinstance(c, dict) else {"id": c}
            uid = new(entry.get("id"), i, f"seat {i} cost_zone")
            sd.cost_zone.append(uid)
            if entry.get("tapped"):
                st.tapped.add(uid)
            if entry.get("face_up"):
                st.face_up.add(uid)
    st.evil_deck = [new(c, -1, "evil_deck") for c in position.get("evil_deck", [])][::-1]
    st.resisted = [new(c, -1, "resisted") for c in position.get("resisted", [])]
    st.failed = [new(c, -1, "failed") for c in position.get("failed", [])]
    st.resisted_total, st.failed_total = len(st.resisted), len(st.failed)
    st.field = [new(c, -1, "field") for c in position.get("field", [])]
    st.round = int(position.get("round", 1))
    turn_seat = int(position.get("turn_seat", game._order[0] if game._order else 0))
    if turn_seat not in game._order:
        raise PositionError(f"turn_seat {turn_seat} does not take turns in this mode")
    st.turn_index = game._order.index(turn_seat)
    st.turn_no = 1
    phase = position.get("phase", "main")
    if phase not in PHASE_TO_STEP:
        raise PositionError(f"phase must be one of {', '.join(PHASE_TO_STEP)}, not {phase!r}")
    st.step = PHASE_TO_STEP[phase]
    for t in position.get("threats", []):
        if phase != "resistance":
            raise PositionError("threats are pending only in the resistance phase")
        target = int(t.get("target", turn_seat))
        uid = new(t.get("card"), -1, "threats")
        card = game.defs[uid]
        st.threats.append(Threat(uid, target, t.get("by"), game._x_value(card, target)))
    for a in position.get("abilities", []):
        from .game import ABILITIES
        if a not in ABILITIES:
            raise PositionError(f"unknown ability {a!r}")
        st.abilities.append(a)
    st.charged = set(position.get("charged", [a for a in st.abilities if a in ("restoration", "deliverance")]))
    st.team_level = int(position.get("team_level", min(s.maturity for s in st.seats if s.side == "righteous")))
    st.levels_rewarded = st.team_level
    if position.get("clearing") is not None:
        st.clearing = (int(position["clearing"]), 1)
    if st.step in ("resistance", "main"):
        st.phase_passes = game._phase_order()
    game._after_position()
    game._advance()
    game.log.extend(game._events)
    game._events = []
    return game
