"""Maturity Abilities (A-*): gaining, using and what each one allows.

Rules: A-1 (Benevolence / Double Resistance, Brotherly Love, Restoration, Deliverance; Speed,
Vibrancy, Cost Zone Power and Foresight are carried out where they act: legal, costs, flow),
A-4 (once-per-level abilities; DECISION: ready when gained), A-5 (the setting).
"""

from __future__ import annotations

from .actions import (
    Action,
    UseAbility,
    intern_use,
)
from .numbers import ONCE_PER_LEVEL
from .state import Choice
from .base import GameBase


def gain_ability(game: GameBase, ability: str, seat: int, how: str) -> None:
    st = game.state
    st.abilities.append(ability)
    if ability in ONCE_PER_LEVEL:
        st.charged.add(ability)   # DECISION: a once-per-level ability is ready when gained
    game._emit("ability_gained", seat, data={"ability": ability, "how": how})


def use_ability(game: GameBase, a: UseAbility) -> None:
    st = game.state
    game._emit("ability_used", a.seat, data={"ability": a.ability, "to_seat": a.to_seat})
    if a.ability == "deliverance":
        st.charged.discard("deliverance")
        habituals = [u for sd in st.seats for u in sd.held] + st.field
        st.choice = Choice(a.seat, "deliverance", habituals, 3, 0)
    elif a.ability == "restoration":
        st.charged.discard("restoration")
        for i in game.righteous_seats():
            sd = st.seats[i]
            st.rng.shuffle(sd.discard)
            back = sd.discard[:15]
            del sd.discard[:15]
            sd.deck.extend(back)
            st.rng.shuffle(sd.deck)
            game._emit("restored", i, data={"cards": len(back)})
    elif a.ability == "brotherly_love":
        st.seats[a.seat].love_to = a.to_seat


def ability_uses(game: GameBase, seat: int) -> list[Action]:
    st = game.state
    if not game.settings.mat_abilities or seat != game.turn_seat:
        return []
    out: list[Action] = []
    if "deliverance" in st.charged and game.evil_habituals_in_play():
        out.append(intern_use(seat, "deliverance"))
    if "restoration" in st.charged and any(st.seats[i].discard for i in game._righteous):
        out.append(intern_use(seat, "restoration"))
    if "brotherly_love" in st.abilities and st.seats[seat].love_to is None:
        mates = game._teammates(seat) or [seat]
        out.extend([intern_use(seat, "brotherly_love", m) for m in mates])
    return out


def free_abilities(game: GameBase) -> list[str]:
    return [a for a in game.mode.abilities_available() if a not in game.state.abilities]


def may_help(game: GameBase, seat: int, target: int) -> bool:
    """Benevolence / Double Resistance (A-1): help resist a threat aimed at another seat."""
    if seat == target:
        return True
    st = game.state
    return (game.settings.mat_abilities and "benevolence" in st.abilities
            and st.seats[seat].side == "righteous" and game.mode.benevolence_ok(game, seat))
