-- The organiser's pickup night (issue 31, docs/pickup-night.md): the RSVP
-- rules of an event (and of a series, copied to its weeks), the series'
-- regulars, check-in at the rink, and the game-day check's marks.

-- The rules, all in minutes before puck drop (NULL = off; a late window of
-- NULL means the default, 24 h), so a series carries them to every week.
ALTER TABLE events ADD COLUMN late_window_minutes INTEGER NULL CHECK (late_window_minutes IS NULL OR late_window_minutes BETWEEN 0 AND 20160);
ALTER TABLE events ADD COLUMN regulars_first_minutes INTEGER NULL CHECK (regulars_first_minutes IS NULL OR regulars_first_minutes BETWEEN 0 AND 20160);
ALTER TABLE events ADD COLUMN cutoff_minutes INTEGER NULL CHECK (cutoff_minutes IS NULL OR cutoff_minutes BETWEEN 0 AND 10080);
ALTER TABLE events ADD COLUMN min_skaters INTEGER NULL CHECK (min_skaters IS NULL OR min_skaters BETWEEN 0 AND 500);
ALTER TABLE events ADD COLUMN min_goalies INTEGER NULL CHECK (min_goalies IS NULL OR min_goalies BETWEEN 0 AND 500);
ALTER TABLE events ADD COLUMN short_check_minutes INTEGER NULL CHECK (short_check_minutes IS NULL OR short_check_minutes BETWEEN 0 AND 10080);
ALTER TABLE event_series ADD COLUMN late_window_minutes INTEGER NULL CHECK (late_window_minutes IS NULL OR late_window_minutes BETWEEN 0 AND 20160);
ALTER TABLE event_series ADD COLUMN regulars_first_minutes INTEGER NULL CHECK (regulars_first_minutes IS NULL OR regulars_first_minutes BETWEEN 0 AND 20160);
ALTER TABLE event_series ADD COLUMN cutoff_minutes INTEGER NULL CHECK (cutoff_minutes IS NULL OR cutoff_minutes BETWEEN 0 AND 10080);
ALTER TABLE event_series ADD COLUMN min_skaters INTEGER NULL CHECK (min_skaters IS NULL OR min_skaters BETWEEN 0 AND 500);
ALTER TABLE event_series ADD COLUMN min_goalies INTEGER NULL CHECK (min_goalies IS NULL OR min_goalies BETWEEN 0 AND 500);
ALTER TABLE event_series ADD COLUMN short_check_minutes INTEGER NULL CHECK (short_check_minutes IS NULL OR short_check_minutes BETWEEN 0 AND 10080);

-- When the regulars' window ended and the event's places were offered to
-- everyone (the `access` job's mark), and when the game-day check ran.
ALTER TABLE events ADD COLUMN opened_to_all_at INTEGER NULL;
ALTER TABLE events ADD COLUMN short_checked_at INTEGER NULL;
-- The code a player scans (or types) at the rink to check in: random,
-- made when the organiser first opens check-in.
ALTER TABLE events ADD COLUMN check_in_code TEXT NULL;

-- The lease of the job that acts on the rules' moments (one node at a time).
INSERT INTO job_leases (name, owner, lease_until) VALUES ('rule-moments', NULL, 0);

-- A series' own list of regulars (beside the rosters of its linked teams).
CREATE TABLE series_regulars (
    series_id    TEXT NOT NULL REFERENCES event_series (id) ON DELETE CASCADE,
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    added_by_id  TEXT NULL REFERENCES users (id) ON DELETE SET NULL,
    created_at   INTEGER NOT NULL,
    PRIMARY KEY (series_id, user_id)
);
CREATE INDEX series_regulars_user ON series_regulars (user_id);

-- Who was checked in at the rink, by whom (themselves with the code, or an
-- organiser's tap).
CREATE TABLE event_check_ins (
    event_id         TEXT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    user_id          TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    checked_in_by_id TEXT NULL REFERENCES users (id) ON DELETE SET NULL,
    created_at       INTEGER NOT NULL,
    PRIMARY KEY (event_id, user_id)
);

-- The history is read per event in time order (the timeline) and per
-- person (their record).
CREATE INDEX event_rsvp_history_event_time ON event_rsvp_history (event_id, created_at, id);
CREATE INDEX event_waitlist_history_event_time ON event_waitlist_history (event_id, created_at, id);
CREATE INDEX events_short_check ON events (short_checked_at, start_date);

-- SHORT_HANDED: the game-day check found the night short and posted a call.
-- SQLite cannot change a CHECK: the table is rebuilt as in 0014.
CREATE TABLE notifications_0015 (
    id             TEXT PRIMARY KEY,
    user_id        TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    type           TEXT NOT NULL CHECK (type IN ('WAITLIST_PROMOTED', 'REMOVED_FROM_EVENT', 'EVENT_CANCELLED',
                     'EVENT_MOVED', 'JOIN_REQUEST_APPROVED', 'JOIN_REQUEST_REJECTED', 'ADDED_TO_ROSTER',
                     'GAME_STARTED', 'GAME_FINAL', 'EVENT_REMINDER', 'SUB_MATCH', 'SIDES_SET', 'SHORT_HANDED')),
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
INSERT INTO notifications_0015 (id, user_id, type, resource_type, resource_id, payload, dedupe_key, batch, created_at, read_at)
    SELECT id, user_id, type, resource_type, resource_id, payload, dedupe_key, batch, created_at, read_at FROM notifications;
DROP TABLE notifications;
ALTER TABLE notifications_0015 RENAME TO notifications;
CREATE INDEX notifications_page ON notifications (user_id, created_at, id);
CREATE INDEX notifications_unread ON notifications (user_id) WHERE read_at IS NULL;
CREATE UNIQUE INDEX notifications_once ON notifications (user_id, dedupe_key);
CREATE INDEX notifications_batch ON notifications (batch);
CREATE INDEX notifications_resource ON notifications (resource_type, resource_id);
