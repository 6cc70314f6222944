-- SUB_MATCH (docs/notifications.md, issue 26): a new event with open places
-- that matches a sub's AVAILABLE_TO_SUB status tells the sub, once per event
-- (dedupe key `SUB_MATCH|<eventId>`), unless they opted out.
--
-- SQLite cannot alter a CHECK constraint: the table is rebuilt with the new
-- type allowed, its rows copied, and its indexes made again. Nothing
-- references `notifications`, so dropping the old table breaks no key.
CREATE TABLE notifications_0010 (
    id             TEXT PRIMARY KEY,
    user_id        TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    type           TEXT NOT NULL CHECK (type IN ('WAITLIST_PROMOTED', 'REMOVED_FROM_EVENT', 'EVENT_CANCELLED',
                     'EVENT_MOVED', 'JOIN_REQUEST_APPROVED', 'JOIN_REQUEST_REJECTED', 'ADDED_TO_ROSTER',
                     'GAME_STARTED', 'GAME_FINAL', 'EVENT_REMINDER', 'SUB_MATCH')),
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
INSERT INTO notifications_0010 (id, user_id, type, resource_type, resource_id, payload, dedupe_key, batch, created_at, read_at)
    SELECT id, user_id, type, resource_type, resource_id, payload, dedupe_key, batch, created_at, read_at FROM notifications;
DROP TABLE notifications;
ALTER TABLE notifications_0010 RENAME TO notifications;
CREATE INDEX notifications_page ON notifications (user_id, created_at, id);
CREATE INDEX notifications_unread ON notifications (user_id) WHERE read_at IS NULL;
CREATE UNIQUE INDEX notifications_once ON notifications (user_id, dedupe_key);
CREATE INDEX notifications_batch ON notifications (batch);
CREATE INDEX notifications_resource ON notifications (resource_type, resource_id);

-- The opt-out: 1 (the default, also for people with no settings row) tells
-- them of new matches, 0 does not.
ALTER TABLE notification_settings ADD COLUMN sub_matches INTEGER NOT NULL DEFAULT 1 CHECK (sub_matches IN (0, 1));
