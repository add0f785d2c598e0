"""The engine's shape (issue 9, DESIGN "Inside engine/"): rules in their own modules, each opening
with a docstring that says what it carries out; no import circle inside ``engine/`` (type-checking
imports included); no module imports another's private names; no module over about 600 lines."""

from __future__ import annotations

import ast
from pathlib import Path

import christianity_game.engine as engine

ENGINE = Path(engine.__file__).resolve().parent
MODULES = sorted(p for p in ENGINE.glob("*.py"))
RULE_MODULES = ("base", "costs", "abilities", "badges", "effects", "stack", "legal", "coop", "flow", "duel_clocks", "duel",
                "table", "modes", "game")


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


def test_modules_are_small_and_say_what_rules_they_carry_out() -> None:
    for path in MODULES:
        lines = path.read_text(encoding="utf-8").count("\n")
        assert lines <= 650, f"{path.name} has {lines} lines"
        assert ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))), f"{path.name} has no docstring"
    for name in RULE_MODULES:
        doc = ast.get_docstring(ast.parse((ENGINE / f"{name}.py").read_text(encoding="utf-8"))) or ""
        assert any(tag in doc for tag in ("G-", "S-", "Z-", "P-", "A-", "CO-", "D-")), f"{name}.py names no rule ID"
