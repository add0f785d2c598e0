"""The stores' schema as numbered migrations kept in the repository (``server/migrations/``).

Each store has a folder of SQL files, ``NNNN_what.sql``, one per schema version: SQLite's in
``migrations/sqlite/``, PostgreSQL's in ``migrations/postgresql/``, with the same numbers and the same
tables and columns (the dialects differ only where they must). A database records the versions it
has in a ``schema_version`` table (version, name, when applied); on open the store applies the files
it lacks, in order, each in one transaction together with its ``schema_version`` row, and refuses a
database that records a version newer than its files (written by a newer server).

A new schema change is a new file in both folders, numbered one past the last; ``SCHEMA_VERSION``
follows the files (``tests/test_server_postgres.py`` checks that both folders end at it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

MIGRATIONS_DIR = Path(__file__).parent / "migrations"
DIALECTS = ("sqlite", "postgresql")

#: ``schema_version``: created by the runner itself, before any migration (the same in both dialects).
SCHEMA_VERSION_TABLE = {
    "sqlite": "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL, "
              "applied REAL NOT NULL)",
    "postgresql": "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL, "
                  "applied DOUBLE PRECISION NOT NULL)",
}

_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    """One schema version: its number, its file's name and its statements (comments removed)."""

    version: int
    name: str
    statements: tuple[str, ...]


def split_statements(text: str) -> list[str]:
    """The statements of a migration file: ``--`` comments dropped, split at each ``;``. The files
    hold plain DDL and DML (no string holds ``;`` or ``--``, no function bodies)."""
    lines = [line.split("--", 1)[0] for line in text.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]


def migrations(dialect: str) -> list[Migration]:
    """Every migration of ``dialect`` (``sqlite`` or ``postgresql``), in order. The numbers must run
    1, 2, 3, ... without a gap."""
    if dialect not in DIALECTS:
        raise ValueError(f"no migrations for {dialect!r}")
    out: list[Migration] = []
    for path in sorted((MIGRATIONS_DIR / dialect).glob("*.sql")):
        m = _NAME.match(path.name)
        if m is None:
            raise ValueError(f"{path}: a migration is named NNNN_what.sql")
        out.append(Migration(int(m.group(1)), path.stem, tuple(split_statements(path.read_text(encoding="utf-8")))))
    for i, mig in enumerate(out, 1):
        if mig.version != i:
            raise ValueError(f"migrations/{dialect}: version {i} is missing (found {mig.name})")
    return out


def latest(dialect: str) -> int:
    """The newest schema version of ``dialect``'s files."""
    return len(migrations(dialect))
