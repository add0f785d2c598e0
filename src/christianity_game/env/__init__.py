"""The game as an environment for learning agents (PettingZoo ``AECEnv``); ``pip install .[env]``.

* :class:`ChristianityEnv` (also ``env()`` / ``raw_env()``): co-op, solo and duel, every seat an
  agent or some seats played by the project's bots.
* :mod:`.actions`: the fixed action space (``Discrete(ACTION_COUNT)``) and the pure mapping
  between indexes and engine actions (:func:`encode`, :func:`decode`).
* :mod:`.observation`: the ``Dict`` observation of a seat's view.

See ``docs/env.md``.
"""

from .actions import ACTION_COUNT, ActionContext, ActionNotCovered, decode, describe, encode
from .aec import ChristianityEnv, env, raw_env
from .observation import observation_from_view, observation_of, observation_space

__all__ = ["ACTION_COUNT", "ActionContext", "ActionNotCovered", "ChristianityEnv", "decode", "describe", "encode",
           "env", "observation_from_view", "observation_of", "observation_space", "raw_env"]
