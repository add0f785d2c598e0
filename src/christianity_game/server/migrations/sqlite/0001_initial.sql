-- Schema 1: games, their seats and their actions (one row per accepted action), and a key/value table.
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id             TEXT PRIMARY KEY,
    created        REAL NOT NULL,
    head           TEXT NOT NULL,            -- the game record without its actions (JSON)
    options        TEXT NOT NULL,            -- name, listed, scenario (JSON)
    spectator_hash TEXT NOT NULL,
    finished       INTEGER NOT NULL DEFAULT 0,
    result         TEXT                      -- JSON, once the game is over
);
CREATE TABLE IF NOT EXISTS seats (
    game_id    TEXT NOT NULL REFERENCES games(id),
    seat       INTEGER NOT NULL,
    kind       TEXT NOT NULL,                -- human | bot
    bot        TEXT,                         -- the bot level of a bot seat
    token_hash TEXT,                         -- SHA-256 of a human seat's token
    claimed    INTEGER NOT NULL DEFAULT 0,   -- someone connected with the link or joined
    name       TEXT,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS actions (
    game_id TEXT NOT NULL,
    n       INTEGER NOT NULL,                -- 0-based index in the record's action list
    action  TEXT NOT NULL,                   -- the action as JSON
    at      REAL NOT NULL,
    PRIMARY KEY (game_id, n)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS games_open ON games(finished);
