-- Schema 3: several servers on one database (serve --workers N, --cluster; server/cluster.py).
-- Each live game's owner holds its lease (renewed every second for a few); each process renews its row.
CREATE TABLE IF NOT EXISTS leases (
    game_id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,                 -- the owning process's id
    expires_at TIMESTAMPTZ NOT NULL      -- the database's clock: hosts' clocks do not matter
);
CREATE INDEX IF NOT EXISTS leases_owner ON leases(owner);
CREATE TABLE IF NOT EXISTS workers (
    id TEXT PRIMARY KEY,
    started DOUBLE PRECISION NOT NULL,
    host TEXT,                           -- where it runs (hostname, pid): for the operator
    pid INTEGER,
    expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX IF NOT EXISTS games_created ON games(owner, created);
