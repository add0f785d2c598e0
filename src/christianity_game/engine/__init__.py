"""The rules: state, actions, flow, stack, modes. No I/O, no printing.

``BUILD`` says which engine runs: "native" when the hot modules' mypyc build (made by
scripts/setup.sh from these very sources, see :mod:`christianity_game.native`) is used, else
"python". Both play the same rules with the same results; the Python source is the reference.
"""

from .. import native

#: "native" (the mypyc build of these sources) or "python"; decided once, before any module loads
BUILD = native.attach(__path__)
