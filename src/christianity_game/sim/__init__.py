"""Batch simulation: play many games with bots and summarise them."""

from .simulate import SimResult, game_seed, play_one, simulate

__all__ = ["SimResult", "game_seed", "play_one", "simulate"]
