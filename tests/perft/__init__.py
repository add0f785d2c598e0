"""Perft-style fixtures of the rules engine (issue 23, item 6), and the legal-list fixture's code.

* ``*.toml``: one prepared position a file, with the number of distinct action sequences from it to
  depth 1, 2 and 3 and their "divide" (the counts below each first move). ``tests/test_perft.py``
  checks them; :mod:`perft.counting` reads the files and counts.
* ``cards-2026-12.json``: the starter set's card definitions as they were when the fixtures were
  recorded (the pinned form game records use), so that card balance work leaves the counts alone.
* :mod:`perft.legal_lists`: seeded random games of every mode, line-up and a few play-test
  variants, with the legal action list at each of their decisions
  (``tests/fixtures/legal-lists.json.xz``); ``tests/test_perft.py`` replays them and names the first
  decision whose list differs.
* :mod:`perft.record`: ``python -m tests.perft.record`` rewrites the counts and the legal-list
  fixture from today's engine; its docstring says when that is legitimate.
"""
