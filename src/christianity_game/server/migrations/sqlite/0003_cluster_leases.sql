-- Schema 3: several servers on one database need PostgreSQL (server/cluster.py); the tables are kept
-- here too, so both stores hold one schema (a SQLite store leaves them empty).
CREATE TABLE IF NOT EXISTS leases (
    game_id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    expires_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS leases_owner ON leases(owner);
CREATE TABLE IF NOT EXISTS workers (
    id TEXT PRIMARY KEY,
    started REAL NOT NULL,
    host TEXT,                           -- where it runs (hostname, pid): for the operator
    pid INTEGER,
    expires_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS games_created ON games(owner, created);
