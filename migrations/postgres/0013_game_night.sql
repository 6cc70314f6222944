-- Game night (issue 28, docs/game-night.md): period lengths and the clock,
-- shots and goalie changes in the log, penalties by kind, derived goal flags.

ALTER TABLE seasons ADD COLUMN period_minutes BIGINT NOT NULL DEFAULT 20 CHECK (period_minutes BETWEEN 1 AND 30);
ALTER TABLE seasons ADD COLUMN overtime_minutes BIGINT NOT NULL DEFAULT 5 CHECK (overtime_minutes BETWEEN 0 AND 20);
ALTER TABLE seasons ADD COLUMN clock_mode TEXT NOT NULL DEFAULT 'STOP' CHECK (clock_mode IN ('STOP', 'RUNNING'));

-- A game's own settings (NULL: the season's), and its clock as the actor
-- last committed it (JSON: phase, running, remainingMs, at, periodMs,
-- offsetMs; NULL before the game starts).
ALTER TABLE games ADD COLUMN period_minutes BIGINT NULL CHECK (period_minutes BETWEEN 1 AND 30);
ALTER TABLE games ADD COLUMN overtime_minutes BIGINT NULL CHECK (overtime_minutes BETWEEN 0 AND 20);
ALTER TABLE games ADD COLUMN clock_mode TEXT NULL CHECK (clock_mode IN ('STOP', 'RUNNING'));
ALTER TABLE games ADD COLUMN clock TEXT NULL;

-- Statistics the log now derives: power-play and short-handed goals,
-- penalty minutes by kind (penalty_minutes stays the total), and for
-- goalies shots and goals against and time in net (ms).
ALTER TABLE roster_players ADD COLUMN pp_goals BIGINT NOT NULL DEFAULT 0 CHECK (pp_goals >= 0);
ALTER TABLE roster_players ADD COLUMN sh_goals BIGINT NOT NULL DEFAULT 0 CHECK (sh_goals >= 0);
ALTER TABLE roster_players ADD COLUMN minor_pim BIGINT NOT NULL DEFAULT 0 CHECK (minor_pim >= 0);
ALTER TABLE roster_players ADD COLUMN major_pim BIGINT NOT NULL DEFAULT 0 CHECK (major_pim >= 0);
ALTER TABLE roster_players ADD COLUMN misconduct_pim BIGINT NOT NULL DEFAULT 0 CHECK (misconduct_pim >= 0);
ALTER TABLE roster_players ADD COLUMN shots_against BIGINT NOT NULL DEFAULT 0 CHECK (shots_against >= 0);
ALTER TABLE roster_players ADD COLUMN goals_against BIGINT NOT NULL DEFAULT 0 CHECK (goals_against >= 0);
ALTER TABLE roster_players ADD COLUMN goalie_ms BIGINT NOT NULL DEFAULT 0 CHECK (goalie_ms >= 0);

ALTER TABLE game_log DROP CONSTRAINT game_log_type_check;
ALTER TABLE game_log ADD CONSTRAINT game_log_type_check
    CHECK (type IN ('START', 'GOAL', 'PENALTY', 'END_PERIOD', 'FINAL', 'UNDO', 'SHOT', 'GOALIE'));
-- Timed entries: time left in the period; PENALTY: its kind; GOAL: its
-- strength, empty net, and the penalty it ended.
ALTER TABLE game_log ADD COLUMN clock_ms BIGINT NULL CHECK (clock_ms >= 0);
ALTER TABLE game_log ADD COLUMN penalty TEXT NULL
    CHECK (penalty IN ('MINOR', 'DOUBLE_MINOR', 'MAJOR', 'MISCONDUCT', 'GAME_MISCONDUCT', 'OTHER'));
ALTER TABLE game_log ADD COLUMN strength TEXT NULL CHECK (strength IN ('EV', 'PP', 'SH'));
ALTER TABLE game_log ADD COLUMN empty_net BIGINT NOT NULL DEFAULT 0 CHECK (empty_net IN (0, 1));
ALTER TABLE game_log ADD COLUMN releases BIGINT NULL;
