-- Game night (issue 28, docs/game-night.md): period lengths and the clock,
-- shots and goalie changes in the log, penalties by kind, derived goal flags.

ALTER TABLE seasons ADD COLUMN period_minutes INTEGER NOT NULL DEFAULT 20 CHECK (period_minutes BETWEEN 1 AND 30);
ALTER TABLE seasons ADD COLUMN overtime_minutes INTEGER NOT NULL DEFAULT 5 CHECK (overtime_minutes BETWEEN 0 AND 20);
ALTER TABLE seasons ADD COLUMN clock_mode TEXT NOT NULL DEFAULT 'STOP' CHECK (clock_mode IN ('STOP', 'RUNNING'));

-- A game's own settings (NULL: the season's), and its clock as the actor
-- last committed it (JSON: phase, running, remainingMs, at, periodMs,
-- offsetMs; NULL before the game starts).
ALTER TABLE games ADD COLUMN period_minutes INTEGER NULL CHECK (period_minutes BETWEEN 1 AND 30);
ALTER TABLE games ADD COLUMN overtime_minutes INTEGER NULL CHECK (overtime_minutes BETWEEN 0 AND 20);
ALTER TABLE games ADD COLUMN clock_mode TEXT NULL CHECK (clock_mode IN ('STOP', 'RUNNING'));
ALTER TABLE games ADD COLUMN clock TEXT NULL;

-- Statistics the log now derives: power-play and short-handed goals,
-- penalty minutes by kind (penalty_minutes stays the total), and for
-- goalies shots and goals against and time in net (ms).
ALTER TABLE roster_players ADD COLUMN pp_goals INTEGER NOT NULL DEFAULT 0 CHECK (pp_goals >= 0);
ALTER TABLE roster_players ADD COLUMN sh_goals INTEGER NOT NULL DEFAULT 0 CHECK (sh_goals >= 0);
ALTER TABLE roster_players ADD COLUMN minor_pim INTEGER NOT NULL DEFAULT 0 CHECK (minor_pim >= 0);
ALTER TABLE roster_players ADD COLUMN major_pim INTEGER NOT NULL DEFAULT 0 CHECK (major_pim >= 0);
ALTER TABLE roster_players ADD COLUMN misconduct_pim INTEGER NOT NULL DEFAULT 0 CHECK (misconduct_pim >= 0);
ALTER TABLE roster_players ADD COLUMN shots_against INTEGER NOT NULL DEFAULT 0 CHECK (shots_against >= 0);
ALTER TABLE roster_players ADD COLUMN goals_against INTEGER NOT NULL DEFAULT 0 CHECK (goals_against >= 0);
ALTER TABLE roster_players ADD COLUMN goalie_ms INTEGER NOT NULL DEFAULT 0 CHECK (goalie_ms >= 0);

-- SQLite cannot change a CHECK: the log is rebuilt with the new entry
-- types and columns (timed entries: time left in the period; PENALTY: its
-- kind; GOAL: its strength, empty net, and the penalty it ended).
CREATE TABLE game_log_new (
    id             TEXT PRIMARY KEY,
    game_id        TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq            INTEGER NOT NULL CHECK (seq >= 0),
    type           TEXT NOT NULL CHECK (type IN ('START', 'GOAL', 'PENALTY', 'END_PERIOD', 'FINAL', 'UNDO', 'SHOT', 'GOALIE')),
    period         TEXT NULL CHECK (period IN ('1', '2', '3', 'OT', 'SO')),
    roster_id      TEXT NULL REFERENCES rosters (id) ON DELETE SET NULL,
    player_id      TEXT NULL REFERENCES users (id) ON DELETE SET NULL,
    assist1_id     TEXT NULL REFERENCES users (id) ON DELETE SET NULL,
    assist2_id     TEXT NULL REFERENCES users (id) ON DELETE SET NULL,
    minutes        INTEGER NULL CHECK (minutes >= 0),
    -- UNDO entries: the seq of the entry they reverted.
    undoes         INTEGER NULL,
    effects        TEXT NOT NULL DEFAULT '{}',
    created_by_id  TEXT NULL REFERENCES users (id) ON DELETE SET NULL,
    created_at     INTEGER NOT NULL,
    undone_at      INTEGER NULL,
    clock_ms       INTEGER NULL CHECK (clock_ms >= 0),
    penalty        TEXT NULL CHECK (penalty IN ('MINOR', 'DOUBLE_MINOR', 'MAJOR', 'MISCONDUCT', 'GAME_MISCONDUCT', 'OTHER')),
    strength       TEXT NULL CHECK (strength IN ('EV', 'PP', 'SH')),
    empty_net      INTEGER NOT NULL DEFAULT 0 CHECK (empty_net IN (0, 1)),
    releases       INTEGER NULL,
    UNIQUE (game_id, seq)
);
INSERT INTO game_log_new (id, game_id, seq, type, period, roster_id, player_id, assist1_id, assist2_id, minutes,
    undoes, effects, created_by_id, created_at, undone_at)
  SELECT id, game_id, seq, type, period, roster_id, player_id, assist1_id, assist2_id, minutes,
    undoes, effects, created_by_id, created_at, undone_at FROM game_log;
DROP TABLE game_log;
ALTER TABLE game_log_new RENAME TO game_log;
