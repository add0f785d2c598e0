"""Christianity Strategy Card Game: rules engine, card set, bots, simulator and terminal play."""

from .engine.actions import (
    Action, AdjustBadge, BuyAbility, Choose, ChooseAbility, IllegalAction, LayCostZone, Pass, PlayCard, Resist,
    TakeBoost, UseAbility, action_from_json,
)
from .engine.game import Game, Result
from .engine.settings import Settings

__all__ = [
    "Action", "AdjustBadge", "BuyAbility", "Choose", "ChooseAbility", "Game", "IllegalAction", "LayCostZone",
    "Pass", "PlayCard", "Resist", "Result", "Settings", "TakeBoost", "UseAbility", "action_from_json",
]
