-- Availability for every league game (issue 30 › 1, docs/availability.md):
-- a roster's rules (a lock before each game, minimums), the answers to its
-- native games (an imported game's answer is the person's RSVP), and when
-- the captain last nudged those who had not answered.

ALTER TABLE rosters ADD COLUMN availability_lock_minutes INTEGER NULL CHECK (availability_lock_minutes IS NULL OR availability_lock_minutes BETWEEN 0 AND 10080);
ALTER TABLE rosters ADD COLUMN min_skaters INTEGER NULL CHECK (min_skaters IS NULL OR min_skaters BETWEEN 0 AND 50);
ALTER TABLE rosters ADD COLUMN min_goalies INTEGER NULL CHECK (min_goalies IS NULL OR min_goalies BETWEEN 0 AND 10);

CREATE TABLE game_availability (
    roster_id       TEXT NOT NULL REFERENCES rosters (id) ON DELETE CASCADE,
    game_id         TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id         TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    answer          TEXT NOT NULL CHECK (answer IN ('IN', 'OUT')),
    -- Given after the roster's lock (an "out" only: "in" is refused then).
    late            INTEGER NOT NULL DEFAULT 0 CHECK (late IN (0, 1)),
    answered_by_id  TEXT NULL REFERENCES users (id) ON DELETE SET NULL,
    answered_at     INTEGER NOT NULL,
    PRIMARY KEY (roster_id, game_id, user_id)
);
CREATE INDEX game_availability_game ON game_availability (game_id);
CREATE INDEX game_availability_user ON game_availability (user_id);

-- The last nudge per roster and game (native game or imported event id).
CREATE TABLE availability_nudges (
    roster_id     TEXT NOT NULL REFERENCES rosters (id) ON DELETE CASCADE,
    game_id       TEXT NOT NULL,
    nudged_by_id  TEXT NULL REFERENCES users (id) ON DELETE SET NULL,
    nudged_at     INTEGER NOT NULL,
    PRIMARY KEY (roster_id, game_id)
);

-- AVAILABILITY_NUDGE (the captain asked) and AVAILABILITY_REMINDER (the
-- reminders job asked) those who have not answered a game.
-- SQLite cannot change a CHECK: the table is rebuilt as in 0015.
CREATE TABLE notifications_0016 (
    id             TEXT PRIMARY KEY,
    user_id        TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    type           TEXT NOT NULL CHECK (type IN ('WAITLIST_PROMOTED', 'REMOVED_FROM_EVENT', 'EVENT_CANCELLED',
                     'EVENT_MOVED', 'JOIN_REQUEST_APPROVED', 'JOIN_REQUEST_REJECTED', 'ADDED_TO_ROSTER',
                     'GAME_STARTED', 'GAME_FINAL', 'EVENT_REMINDER', 'SUB_MATCH', 'SIDES_SET', 'SHORT_HANDED',
                     'AVAILABILITY_NUDGE', 'AVAILABILITY_REMINDER')),
    resource_type  TEXT NOT NULL CHECK (resource_type IN ('EVENT', 'ROSTER', 'GAME')),
    resource_id    TEXT NOT NULL,
    -- JSON: what the screen shows (title, time, teams, score…), as of the fact.
    payload        TEXT NOT NULL,
    -- Set where a fact must be told at most once per person (reminders,
    -- sub matches): unique per person, so two writers can never both insert it.
    dedupe_key     TEXT NULL,
    -- The write that produced the row (an event's commit, a request): what
    -- is pushed live once that write commits.
    batch          TEXT NOT NULL,
    created_at     INTEGER NOT NULL,
    read_at        INTEGER NULL
);
INSERT INTO notifications_0016 (id, user_id, type, resource_type, resource_id, payload, dedupe_key, batch, created_at, read_at)
    SELECT id, user_id, type, resource_type, resource_id, payload, dedupe_key, batch, created_at, read_at FROM notifications;
DROP TABLE notifications;
ALTER TABLE notifications_0016 RENAME TO notifications;
CREATE INDEX notifications_page ON notifications (user_id, created_at, id);
CREATE INDEX notifications_unread ON notifications (user_id) WHERE read_at IS NULL;
CREATE UNIQUE INDEX notifications_once ON notifications (user_id, dedupe_key);
CREATE INDEX notifications_batch ON notifications (batch);
CREATE INDEX notifications_resource ON notifications (resource_type, resource_id);
