-- Availability for every league game (issue 30 › 1, docs/availability.md):
-- a roster's rules (a lock before each game, minimums), the answers to its
-- native games (an imported game's answer is the person's RSVP), and when
-- the captain last nudged those who had not answered.

ALTER TABLE rosters ADD COLUMN availability_lock_minutes BIGINT NULL CHECK (availability_lock_minutes IS NULL OR availability_lock_minutes BETWEEN 0 AND 10080);
ALTER TABLE rosters ADD COLUMN min_skaters BIGINT NULL CHECK (min_skaters IS NULL OR min_skaters BETWEEN 0 AND 50);
ALTER TABLE rosters ADD COLUMN min_goalies BIGINT NULL CHECK (min_goalies IS NULL OR min_goalies BETWEEN 0 AND 10);

CREATE TABLE game_availability (
    roster_id       TEXT NOT NULL REFERENCES rosters (id) ON DELETE CASCADE,
    game_id         TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id         TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    answer          TEXT NOT NULL CHECK (answer IN ('IN', 'OUT')),
    -- Given after the roster's lock (an "out" only: "in" is refused then).
    late            BIGINT NOT NULL DEFAULT 0 CHECK (late IN (0, 1)),
    answered_by_id  TEXT NULL REFERENCES users (id) ON DELETE SET NULL,
    answered_at     BIGINT NOT NULL,
    PRIMARY KEY (roster_id, game_id, user_id)
);
CREATE INDEX game_availability_game ON game_availability (game_id);
CREATE INDEX game_availability_user ON game_availability (user_id);

-- The last nudge per roster and game (native game or imported event id).
CREATE TABLE availability_nudges (
    roster_id     TEXT NOT NULL REFERENCES rosters (id) ON DELETE CASCADE,
    game_id       TEXT NOT NULL,
    nudged_by_id  TEXT NULL REFERENCES users (id) ON DELETE SET NULL,
    nudged_at     BIGINT NOT NULL,
    PRIMARY KEY (roster_id, game_id)
);

-- AVAILABILITY_NUDGE (the captain asked) and AVAILABILITY_REMINDER (the
-- reminders job asked) those who have not answered a game.
ALTER TABLE notifications DROP CONSTRAINT notifications_type_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_type_check CHECK (type IN ('WAITLIST_PROMOTED',
    'REMOVED_FROM_EVENT', 'EVENT_CANCELLED', 'EVENT_MOVED', 'JOIN_REQUEST_APPROVED', 'JOIN_REQUEST_REJECTED',
    'ADDED_TO_ROSTER', 'GAME_STARTED', 'GAME_FINAL', 'EVENT_REMINDER', 'SUB_MATCH', 'SIDES_SET', 'SHORT_HANDED',
    'AVAILABILITY_NUDGE', 'AVAILABILITY_REMINDER'));
