"""The package's shape (docs/design.md, "Inside the engine" and "The layers"): rules in their own
modules, each opening with a docstring that says what it carries out; no import circle anywhere in
the package; no engine module imports another's private names; no engine module over about 600
lines, and no module of the package over 600 but those waiting for their own split.

**What counts as an import, for circles.** Every ``import`` and ``from ... import`` of one of the
package's modules: at module level, under ``if TYPE_CHECKING:`` (a circle of annotations is still
two modules that need each other), and inside a function. A function-local import that closes a
circle only puts the circle off until the call, so it counts like any other; a function-local
import is fine for what it is for (an optional dependency such as psycopg or Ray, or a part only
some commands load: the CLI's commands, the server) as long as it closes no circle. ``from .pkg
import name`` is an import of ``pkg`` (its ``__init__``), or of ``pkg.name`` when that is a
module; the parent packages Python runs on the way to a module are not counted (every submodule
would otherwise be in a circle with its own package)."""

from __future__ import annotations

import ast
from pathlib import Path

import christianity_game.engine as engine

ENGINE = Path(engine.__file__).resolve().parent
PACKAGE = ENGINE.parent
MODULES = sorted(p for p in ENGINE.glob("*.py"))
RULE_MODULES = ("base", "costs", "abilities", "badges", "effects", "stack", "legal", "coop", "flow", "duel_clocks", "duel",
                "duel_rewards", "duel_mode", "table", "modes", "game")


def _imports(path: Path) -> list[ast.ImportFrom]:
    return [n for n in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) if isinstance(n, ast.ImportFrom)]


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in MODULES:
        deps: set[str] = set()
        for node in _imports(path):
            if node.level == 1:
                deps.update([node.module.split(".")[0]] if node.module else [a.name for a in node.names])
        graph[path.stem] = deps
    return graph


def test_no_import_circle_inside_the_engine() -> None:
    graph = _graph()
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> None:
        for dep in sorted(graph.get(module, ())):
            if dep not in graph:
                continue
            assert dep not in path, f"import circle: {' -> '.join(path + [dep])}"
            if dep not in done:
                visit(dep, path + [dep])
        done.add(module)

    for module in graph:
        visit(module, [module])


def test_no_module_imports_another_modules_private_names() -> None:
    for path in MODULES:
        for node in _imports(path):
            private = [a.name for a in node.names if a.name.startswith("_")]
            assert not private, f"{path.name} imports private names {private} from {node.module}"


#: Modules of the package over :data:`MODULE_LINES` that wait for their own split, each named so that
#: the size test guards every other module. The list may only shrink: a module listed here that is
#: no longer over the cap fails the test.
WAITING_FOR_THEIR_SPLIT: set[str] = set()
MODULE_LINES = 600


def test_no_module_of_the_package_is_over_600_lines() -> None:
    sizes = {p.relative_to(PACKAGE).as_posix(): p.read_text(encoding="utf-8").count("\n")
             for p in PACKAGE.rglob("*.py") if "_native" not in p.parts}
    over = {name for name, lines in sizes.items() if lines > MODULE_LINES}
    assert not over - WAITING_FOR_THEIR_SPLIT, {name: sizes[name] for name in sorted(over - WAITING_FOR_THEIR_SPLIT)}
    done = WAITING_FOR_THEIR_SPLIT - over
    assert not done, f"{sorted(done)} are at most {MODULE_LINES} lines now: drop them from WAITING_FOR_THEIR_SPLIT"


def test_modules_are_small_and_say_what_rules_they_carry_out() -> None:
    for path in MODULES:
        lines = path.read_text(encoding="utf-8").count("\n")
        assert lines <= 650, f"{path.name} has {lines} lines"
        assert ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))), f"{path.name} has no docstring"
    for name in RULE_MODULES:
        doc = ast.get_docstring(ast.parse((ENGINE / f"{name}.py").read_text(encoding="utf-8"))) or ""
        assert any(tag in doc for tag in ("G-", "S-", "Z-", "P-", "A-", "CO-", "D-")), f"{name}.py names no rule ID"


# ------------------------------------------------------------------------------ the whole package
def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _package_graph() -> dict[str, dict[str, str]]:
    """Module -> {module it imports: where (the line, and "module", "type-checking" or "function")}."""
    paths = {_module_name(p): p for p in PACKAGE.rglob("*.py") if "_native" not in p.parts}
    graph: dict[str, dict[str, str]] = {}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        deps: dict[str, str] = {}

        def walk(node: ast.AST, where: str) -> None:
            for child in ast.iter_child_nodes(node):
                inner = where
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                    inner = "function"
                elif isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test) and where == "module":
                    inner = "type-checking"
                targets: list[str] = []
                if isinstance(child, ast.ImportFrom):
                    if child.level:
                        base = package.split(".")[: len(package.split(".")) - (child.level - 1)]
                        source = ".".join(base + ([child.module] if child.module else []))
                    else:
                        source = child.module or ""
                    targets = [f"{source}.{a.name}" if f"{source}.{a.name}" in paths else source for a in child.names]
                elif isinstance(child, ast.Import):
                    targets = [a.name for a in child.names]
                for target in targets:
                    if target in paths and target != name:
                        deps.setdefault(target, f"line {child.lineno}, {inner}")
                walk(child, inner)

        walk(ast.parse(path.read_text(encoding="utf-8")), "module")
        graph[name] = deps
    return graph


def _circle(graph: dict[str, dict[str, str]]) -> list[str] | None:
    """One import circle of ``graph`` (its modules in order, the first again at the end), or None."""
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> list[str] | None:
        for dep in sorted(graph[module]):
            if dep in path:
                return path[path.index(dep):] + [dep]
            if dep not in done:
                found = visit(dep, path + [dep])
                if found:
                    return found
        done.add(module)
        return None

    for module in sorted(graph):
        found = visit(module, [module])
        if found:
            return found
    return None


def test_no_import_circle_anywhere_in_the_package() -> None:
    graph = _package_graph()
    assert len(graph) > 80 and "christianity_game.bots.match" in graph["christianity_game.bots"]
    circle = _circle(graph)
    assert circle is None, "import circle: " + " -> ".join(
        f"{a} ({graph[a][b]})" for a, b in zip(circle, circle[1:])) + f" -> {circle[-1]}"


def test_the_circle_test_sees_every_kind_of_import() -> None:
    """The edges the named circles ran through are seen, whichever kind of import they are."""
    graph = _package_graph()
    assert graph["christianity_game.bots.registry"]["christianity_game.bots.mcts"].endswith("module")
    assert graph["christianity_game.server.leases"]["christianity_game.server.core"].endswith("type-checking")
    assert graph["christianity_game.server.storage"]["christianity_game.server.store_pg"].endswith("function")
    assert graph["christianity_game.engine"] == {"christianity_game.native": "line 8, module"}
    assert _circle({"a": {"b": ""}, "b": {"c": ""}, "c": {"a": ""}}) == ["a", "b", "c", "a"]
    assert "christianity_game.engine" not in graph["christianity_game.native"]
    assert "christianity_game.render.glossary" not in graph["christianity_game.render.svg"]
    for bot in ("heuristic", "search", "mcts"):
        assert f"christianity_game.bots.{bot}" not in graph["christianity_game.bots.base"]
    server = "christianity_game.server"
    assert f"{server}.store_pg" not in graph[f"{server}.store"] and f"{server}.store_sqlite" not in graph[f"{server}.store"]
    assert f"{server}.cluster" not in graph[f"{server}.core"] and f"{server}.app" not in graph[f"{server}.cluster"]


# ------------------------------------------------------------------------------ what a seat sees
#: The modules that write a view down or draw one: the JSON and read-only formats, the lazy seat
#: view, the learning environment's observation and the terminal. They get what a seat sees from
#: the observer (engine/observer.py) and never read the game's state.
VIEW_FORMATS = ("engine/view.py", "engine/seatview.py", "env/observation.py", "render/terminal.py")
#: Everything that shows a game to a person (the terminal, its commands, every render module, the
#: replay viewer's all-cards view): it reads views, or the observer, never the state either.
SHOWS_A_GAME = ("play_session.py", "server/replays.py",
                *(f"{folder}/{path.name}" for folder in ("render", "cli")
                  for path in sorted((PACKAGE / folder).glob("*.py"))))
#: The modules that make views, or that re-deal what a seat cannot see: each asks the observer.
VIEW_MAKERS = ("engine/view.py", "engine/seatview.py", "env/observation.py", "env/actions.py", "engine/determinize.py",
               "render/terminal.py")
#: Modules of engine/, env/ and render/ outside the rules that read a hand or a deck of the state,
#: and why that is no view.
HIDDEN_ZONE_READERS = {
    "engine/observer.py": "the observer: what each seat may see, for every view",
    "engine/determinize.py": "re-deals a world's hidden places (which places: the observer's)",
    "engine/position.py": "a position holds every card (never sent to a client)",
    "engine/position_dump.py": "a position holds every card (never sent to a client)",
    "engine/state.py": "the state itself",
}
RULES_AND_STATE = {f"engine/{name}.py" for name in RULE_MODULES + ("duel_clocks",)}


def _attributes(path: Path) -> dict[str, list[int]]:
    """Attribute name -> the lines ``path`` reads it on (``x.name``, an object's own ``self.name`` aside)."""
    out: dict[str, list[int]] = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and not (isinstance(node.value, ast.Name) and node.value.id == "self"):
            out.setdefault(node.attr, []).append(node.lineno)
    return out


def test_one_observer_builds_every_view() -> None:
    """What a seat may see is decided in one place: the formats and the terminal never read the
    state, every view is made through the observer, and outside the rules only the observer (and
    what is no view: positions, the re-deal of a world) reads a hand or a deck."""
    graph = _package_graph()
    assert len(SHOWS_A_GAME) > 10
    for rel in VIEW_FORMATS + SHOWS_A_GAME:
        lines = _attributes(PACKAGE / rel).get("state")
        assert not lines, f"{rel} reads the game's state (lines {lines}): what a seat sees comes from the observer"
    for rel in VIEW_MAKERS:
        assert "christianity_game.engine.observer" in graph[_module_name(PACKAGE / rel)], f"{rel} does not ask the observer"
    readers = set()
    for folder in ("engine", "env", "render"):
        for path in sorted((PACKAGE / folder).glob("*.py")):
            rel = f"{folder}/{path.name}"
            attrs = _attributes(path)
            if rel not in RULES_AND_STATE and "state" in attrs and any(z in attrs for z in ("hand", "deck", "evil_deck")):
                readers.add(rel)
    assert readers == set(HIDDEN_ZONE_READERS) - {"engine/state.py"}, (
        f"reading hidden zones outside the observer: {sorted(readers - set(HIDDEN_ZONE_READERS))}; "
        f"listed but no longer reading them: {sorted(set(HIDDEN_ZONE_READERS) - readers - {'engine/state.py'})}")


# ------------------------------------------------------------------------------ the effect table
def test_the_effect_table_covers_exactly_the_effect_ops() -> None:
    """engine/effects.py carries out each op by one function: one for every op of the cards'
    vocabulary and the internal ``overflow``, and none other."""
    from christianity_game.cards.model import EFFECT_OPS
    from christianity_game.engine.effects import EFFECT_RUNNERS

    assert set(EFFECT_RUNNERS) == set(EFFECT_OPS) | {"overflow"}
    assert len(EFFECT_OPS) == len(set(EFFECT_OPS))


# ------------------------------------------------------------------------------ the line of classes
#: The length of Game's method resolution order today (object counted): Game and the rules' line
#: below it (docs/design.md, "Inside the engine"); every mode plays the one Game class, its
#: differences behind its Mode's hooks. It may only shrink, as mixins become modules of functions
#: called by name (issue 23, item 2).
CLASS_CHAIN_TODAY = 3
#: Where issue 23 aims: a Game class, at most one base, and object.
CLASS_CHAIN_TARGET = 3


def test_the_line_of_classes_does_not_grow() -> None:
    from christianity_game.engine.game import Game
    from christianity_game.engine.modes import MODES, Mode

    assert CLASS_CHAIN_TARGET <= len(Game.__mro__) <= CLASS_CHAIN_TODAY, [c.__name__ for c in Game.__mro__]
    for name, mode in MODES.items():   # one Game class for every mode; a mode is a short line of its own
        assert mode.name == name and issubclass(mode, Mode) and len(mode.__mro__) <= CLASS_CHAIN_TARGET + 1, name
        assert type(Game.new(mode=name, lineup="ER" if name == "duel" else "R")) is Game, name


def test_modes_and_variants_are_found_by_name_in_one_registry() -> None:
    import pytest

    from christianity_game.engine.modes import find_mode
    from christianity_game.engine.variants import VARIANTS, find_variant

    assert find_mode("duel").name == "duel"
    with pytest.raises(ValueError, match="unknown mode 'chess'; known: coop, duel, solo"):
        find_mode("chess")
    for v in VARIANTS:
        assert find_variant(v.key) is v
    with pytest.raises(ValueError, match="unknown variant"):
        find_variant("noSuchVariant")


def _registrations(text: str) -> list[str]:
    """Module-level subscript assignments, and register/update/setdefault calls on an upper-case
    name: a registry filled as a side effect of importing the module (``REGISTRY["x"] = X``)."""
    out = []
    for node in ast.parse(text).body:
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
        out.extend(f"line {node.lineno}: {ast.unparse(node)}" for t in targets if isinstance(t, ast.Subscript))
        call = node.value if isinstance(node, ast.Expr) else None
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
                and call.func.attr in ("register", "setdefault", "update") \
                and isinstance(call.func.value, ast.Name) and call.func.value.id.isupper():
            out.append(f"line {node.lineno}: {ast.unparse(node)}")
    return out


def test_no_import_time_registration() -> None:
    """Registries (modes, variants, bots, effects) are written out where they are defined: no module
    adds an entry to one at import, so what exists never depends on what was imported first."""
    found = [f"{p.relative_to(PACKAGE).as_posix()} {r}" for p in sorted(PACKAGE.rglob("*.py"))
             if "_native" not in p.parts for r in _registrations(p.read_text(encoding="utf-8"))]
    assert not found, found
    assert "duel" not in (PACKAGE / "__init__.py").read_text(encoding="utf-8")


def test_the_registration_test_sees_a_registration() -> None:
    text = 'MODES = {"coop": 1}\nMODES["duel"] = 2\nMODES.update(solo=3)\nx: dict[str, int] = {}\n'
    assert [r.split(":")[0] for r in _registrations(text)] == ["line 2", "line 3"]
