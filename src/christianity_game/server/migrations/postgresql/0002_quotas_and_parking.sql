-- Schema 2: quotas per creator, and games that leave memory (parked) or are abandoned (archived).
ALTER TABLE games ADD COLUMN IF NOT EXISTS owner TEXT;                          -- keyed hash of the creator's address
ALTER TABLE games ADD COLUMN IF NOT EXISTS people INTEGER;                      -- human seats (0: a bots-only game)
ALTER TABLE games ADD COLUMN IF NOT EXISTS archived INTEGER NOT NULL DEFAULT 0; -- abandoned: not listed, not loaded at start
ALTER TABLE games ADD COLUMN IF NOT EXISTS parked INTEGER NOT NULL DEFAULT 0;   -- evicted while waiting for a person
ALTER TABLE games ADD COLUMN IF NOT EXISTS touched DOUBLE PRECISION;            -- last activity known to the store
UPDATE games SET people=(SELECT COUNT(*) FROM seats s WHERE s.game_id=games.id AND s.kind='human'), touched=created;
CREATE INDEX IF NOT EXISTS games_owner ON games(owner, finished, archived);
