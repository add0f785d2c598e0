"""The documents hold together: docs/design.md agrees with the code, and every document the code,
the tests and the docs cite is in the repository (docs/design.md, "Docstrings, comments and history").

* the generated parts of docs/design.md (the rule map, the table of the rules' modules) are what
  ``scripts/rule_map.py`` makes from the code now, and every rule of docs/rules.md is named by a
  module of ``engine/``;
* the real import graph of the package keeps to the layers docs/design.md lists;
* every ``docs/...`` path cited exists, every ``NAME.md`` cited is a file of the repository, every
  section cited by name (``docs/decisions.md, "Undo"``; ``README, "Balance"``) is a heading (or a
  bold lead) of that document, every ``file.md#anchor`` link finds its heading; nothing cites the
  team's notes outside the repository.
"""

from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "christianity_game"
DOCS = ROOT / "docs"
DESIGN = DOCS / "design.md"

def _rule_map() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rule_map", ROOT / "scripts" / "rule_map.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _texts() -> list[tuple[str, str]]:
    """(path relative to the repository, text) of every file whose words cite documents: the
    package's sources and data, the tests, the scripts and the Markdown documents."""
    files: list[Path] = []
    for p in sorted(PACKAGE.rglob("*")):
        if p.is_file() and "_native" not in p.parts and "__pycache__" not in p.parts and \
                p.suffix in (".py", ".js", ".css", ".html", ".toml", ".json", ".sql"):
            files.append(p)
    files += sorted((ROOT / "tests").rglob("*.py")) + sorted((ROOT / "scripts").glob("*"))
    files += [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted(DOCS.rglob("*.md"))]
    out = []
    for p in files:
        if p.is_file():
            try:
                out.append((p.relative_to(ROOT).as_posix(), p.read_text(encoding="utf-8")))
            except UnicodeDecodeError:
                continue
    return out


def _joined(text: str) -> str:
    """``text`` with its lines joined (leading space and comment marks dropped), so a citation
    wrapped over two lines of a docstring or a comment reads as one."""
    return re.sub(r"\n[ \t]*(?:#:?|//|/?\*+)?[ \t]*", " ", text)


def _headings(doc: Path) -> list[str]:
    """The headings of a Markdown document, as text (no ``#``, backticks or bold marks)."""
    out = []
    for line in doc.read_text(encoding="utf-8").splitlines():
        m = re.match(r"#{1,6}\s+(.*)", line)
        if m:
            out.append(m.group(1).replace("`", "").replace("**", "").strip())
    return out


def _has_section(doc: Path, name: str) -> bool:
    """Whether ``doc`` has a heading that starts with ``name``, or a bold lead ``**name``."""
    name = name.strip().rstrip(".")
    text = doc.read_text(encoding="utf-8")
    return any(h.lower().startswith(name.lower()) for h in _headings(doc)) or f"**{name}" in text


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading."""
    return re.sub(r"\s", "-", re.sub(r"[^\w\s-]", "", heading.lower()))


# ------------------------------------------------------------------------------ docs/design.md
def test_the_generated_parts_of_the_design_are_up_to_date() -> None:
    rule_map = _rule_map()
    text = DESIGN.read_text(encoding="utf-8")
    assert rule_map.render(text) == text, "docs/design.md is out of date: run .venv/bin/python scripts/rule_map.py --write"


def test_every_rule_is_carried_out_by_a_named_engine_module() -> None:
    """A rule ID leads to the code: each rule of docs/rules.md (the app's own M rules apart) is
    named by the docstring of a module of ``engine/``, and no docstring names a rule that is not."""
    rule_map = _rule_map()
    rules = [rule_id for rule_id, _ in rule_map.rules_in_order()]
    named = {rule_id for ids in rule_map.module_rules().values() for rule_id in ids}
    missing = [r for r in rules if r not in named and not r.startswith("M-")]
    assert not missing, f"rules no engine module names in its docstring: {missing}"
    unknown = sorted(named - set(rules))
    assert not unknown, f"engine docstrings name rules docs/rules.md does not have: {unknown}"


def _layers() -> dict[str, set[str] | None]:
    """docs/design.md's table of layers: package -> the packages it may import (None: any)."""
    text = DESIGN.read_text(encoding="utf-8")
    section = text.split("## The layers", 1)[1].split("\n## ", 1)[0]
    out: dict[str, set[str] | None] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[0].startswith("`"):
            continue
        name = cells[0].split("`")[1].rstrip("/").removesuffix(".py")
        allowed = cells[2]
        out[name] = None if allowed == "any" else (set() if allowed == "nothing" else set(re.findall(r"`(\w+)`", allowed)))
    return out


def _import_graph() -> dict[str, dict[str, set[str]]]:
    """Package (a folder, or a module at the package's top) -> the packages it imports -> where."""
    graph: dict[str, dict[str, set[str]]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if "_native" in path.parts:
            continue
        parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
        package = parts[:-1]   # the package a relative import starts from
        unit = parts[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[list[str]] = []
            if isinstance(node, ast.ImportFrom) and node.level:
                base = package[:len(package) - (node.level - 1)]
                mod = base + (node.module.split(".") if node.module else [])
                targets = [mod] if mod else [[a.name] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "christianity_game":
                mod = node.module.split(".")[1:]
                targets = [mod] if mod else [[a.name] for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [a.name.split(".")[1:] for a in node.names if a.name.startswith("christianity_game.")]
            for t in targets:
                if t and t[0] != unit:
                    graph.setdefault(unit, {}).setdefault(t[0], set()).add(path.relative_to(PACKAGE).as_posix())
    return graph


def test_imports_keep_to_the_layers() -> None:
    layers = _layers()
    assert {"cards", "engine", "render", "bots", "server", "cli"} <= set(layers), layers
    top = layers["cli"]
    wrong = []
    for unit, deps in _import_graph().items():
        allowed = layers.get(unit, top if (PACKAGE / f"{unit}.py").exists() else set())
        for dep, where in deps.items():
            if allowed is not None and dep not in allowed:
                wrong.append(f"{unit} imports {dep} ({', '.join(sorted(where))})")
    assert not wrong, "imports the layers of docs/design.md do not allow:\n" + "\n".join(wrong)


# ------------------------------------------------------------------------------ citations
TEXTS = _texts()
DESIGN_CITED = re.compile(r"\bDESIGN(?:\.md\b|\s*[\"':(]|\s+contract)")
BARE_MD = re.compile(r"(?<![\w/.-])([A-Z][A-Z_]+\.md)\b")
DOC_PATH = re.compile(r"(?<![\w/.-])(docs/[\w./*-]*[\w/])")
DOC_SECTION = re.compile(r"(docs/[\w./-]+\.md)(?:,\s*|\s+\(|\s+)\\?\"([A-Z][^\"\n\\]{0,80})\\?\"")
README_SECTION = re.compile(r"\bREADME(?:'s)?,?\s+\\?[\"']([A-Z][^\"'\n\\]{0,80})\\?[\"']")


@pytest.mark.parametrize("path,text", TEXTS, ids=[p for p, _ in TEXTS])
def test_cited_documents_exist(path: str, text: str) -> None:
    """Every ``docs/...`` path and every ``NAME.md`` the file cites is in the repository, and every
    section it cites by name is in that document."""
    if path == "tests/test_docs.py":
        return
    problems = []
    joined = _joined(text)
    assert "../shared/" not in text and "shared/spec" not in text, f"{path} cites notes outside the repository"
    if DESIGN_CITED.search(text):
        problems.append("it cites DESIGN: the design is docs/design.md")
    for name in set(BARE_MD.findall(text)):
        if not ((ROOT / name).exists() or (DOCS / name.lower()).exists()):
            problems.append(f"{name} is not a file of the repository")
    for cited in set(DOC_PATH.findall(text)):
        if "*" in cited:
            found = list(ROOT.glob(cited))
        else:
            found = [ROOT / cited] if (ROOT / cited).exists() else []
        if not found:
            problems.append(f"{cited} does not exist")
    for doc, section in DOC_SECTION.findall(joined):
        if (ROOT / doc).exists() and not _has_section(ROOT / doc, section):
            problems.append(f'{doc} has no section "{section}"')
    for section in README_SECTION.findall(joined):
        if not _has_section(ROOT / "README.md", section):
            problems.append(f'README.md has no section "{section}"')
    assert not problems, f"{path}: " + "; ".join(problems)


def test_markdown_anchors_find_their_headings() -> None:
    docs = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted(DOCS.rglob("*.md"))]
    problems = []
    for doc in docs:
        for target, anchor in re.findall(r"\]\(([^)\s#]*)#([\w-]+)\)", doc.read_text(encoding="utf-8")):
            file = (doc.parent / target) if target else doc
            if file.suffix == ".md" and file.exists() and anchor not in {_slug(h) for h in _headings(file)}:
                problems.append(f"{doc.relative_to(ROOT)} links to {target or doc.name}#{anchor}, which has no such heading")
    assert not problems, "\n".join(problems)

