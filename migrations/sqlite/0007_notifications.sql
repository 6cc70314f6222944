-- Notifications (docs/notifications.md): what happened *to* a person —
-- promoted from a waitlist, removed, an event cancelled or moved, a join
-- request decided, added to a roster, a game of theirs starting or final,
-- a reminder before their event. One row per recipient, written in the
-- transaction of the fact it reports.
CREATE TABLE notifications (
    id             TEXT PRIMARY KEY,
    user_id        TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    type           TEXT NOT NULL CHECK (type IN ('WAITLIST_PROMOTED', 'REMOVED_FROM_EVENT', 'EVENT_CANCELLED',
                     'EVENT_MOVED', 'JOIN_REQUEST_APPROVED', 'JOIN_REQUEST_REJECTED', 'ADDED_TO_ROSTER',
                     'GAME_STARTED', 'GAME_FINAL', 'EVENT_REMINDER')),
    resource_type  TEXT NOT NULL CHECK (resource_type IN ('EVENT', 'ROSTER', 'GAME')),
    resource_id    TEXT NOT NULL,
    -- JSON: what the screen shows (title, time, teams, score…), as of the fact.
    payload        TEXT NOT NULL,
    -- Set where a fact must be told at most once per person (reminders):
    -- unique per person, so two writers can never both insert it.
    dedupe_key     TEXT NULL,
    -- The write that produced the row (an event's commit, a request): what
    -- is pushed live once that write commits.
    batch          TEXT NOT NULL,
    created_at     INTEGER NOT NULL,
    read_at        INTEGER NULL
);
CREATE INDEX notifications_page ON notifications (user_id, created_at, id);
CREATE INDEX notifications_unread ON notifications (user_id) WHERE read_at IS NULL;
CREATE UNIQUE INDEX notifications_once ON notifications (user_id, dedupe_key);
CREATE INDEX notifications_batch ON notifications (batch);
CREATE INDEX notifications_resource ON notifications (resource_type, resource_id);

-- A person's choices; no row = the defaults (reminders 24 h and 2 h before).
CREATE TABLE notification_settings (
    user_id          TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    -- Minutes before the start, comma separated with a comma at each end
    -- (",1440,120,"), so SQL can ask LIKE '%,120,%'; ",," = no reminders.
    reminder_minutes TEXT NOT NULL,
    -- The largest of them (0 = none): how far ahead the scheduler looks.
    max_minutes      INTEGER NOT NULL CHECK (max_minutes >= 0),
    updated_at       INTEGER NOT NULL
);

-- Cluster-wide jobs that one node at a time runs (the reminder scheduler):
-- a node takes a job's lease with a conditional UPDATE.
CREATE TABLE job_leases (
    name        TEXT PRIMARY KEY,
    owner       TEXT NULL,
    lease_until INTEGER NOT NULL DEFAULT 0
);
INSERT INTO job_leases (name, owner, lease_until) VALUES ('reminders', NULL, 0);
