-- Team chat (issue 30 › 2, docs/chat.md): a conversation per roster and
-- per event, named after it (`roster-{id}`, `event-{id}`); its messages in
-- one order (`seq`, no gaps); each member's read mark and mute.

CREATE TABLE chat_conversations (
    id               TEXT PRIMARY KEY,
    -- The last message's place: the next message is last_seq + 1.
    last_seq         INTEGER NOT NULL DEFAULT 0,
    -- Moves on with every post, edit and delete: the topic's seq.
    version          INTEGER NOT NULL DEFAULT 0,
    last_message_at  INTEGER NULL
);

CREATE TABLE chat_messages (
    id               TEXT PRIMARY KEY,
    conversation_id  TEXT NOT NULL REFERENCES chat_conversations (id) ON DELETE CASCADE,
    seq              INTEGER NOT NULL,
    author_id        TEXT NULL REFERENCES users (id) ON DELETE SET NULL,
    -- NULL once deleted.
    body             TEXT NULL,
    -- The sender's Idempotency-Key: a retried send posts nothing new.
    client_key       TEXT NULL,
    created_at       INTEGER NOT NULL,
    edited_at        INTEGER NULL,
    deleted_at       INTEGER NULL,
    deleted_by_id    TEXT NULL REFERENCES users (id) ON DELETE SET NULL,
    UNIQUE (conversation_id, seq)
);
CREATE UNIQUE INDEX chat_messages_client_key ON chat_messages (author_id, client_key);

CREATE TABLE chat_marks (
    conversation_id  TEXT NOT NULL REFERENCES chat_conversations (id) ON DELETE CASCADE,
    user_id          TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- Read up to this message.
    read_seq         INTEGER NOT NULL DEFAULT 0,
    muted            INTEGER NOT NULL DEFAULT 0 CHECK (muted IN (0, 1)),
    -- Told by notification of messages up to this one.
    notified_seq     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (conversation_id, user_id)
);
CREATE INDEX chat_marks_user ON chat_marks (user_id);

-- The job that tells members of messages they have not read (one node at a time).
INSERT INTO job_leases (name, owner, lease_until) VALUES ('chat-unread', NULL, 0);

-- CHAT_MESSAGE: messages a member has not read (docs/chat.md › Notifications).
-- SQLite cannot change a CHECK: the table is rebuilt as in 0016.
CREATE TABLE notifications_0017 (
    id             TEXT PRIMARY KEY,
    user_id        TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    type           TEXT NOT NULL CHECK (type IN ('WAITLIST_PROMOTED', 'REMOVED_FROM_EVENT', 'EVENT_CANCELLED',
                     'EVENT_MOVED', 'JOIN_REQUEST_APPROVED', 'JOIN_REQUEST_REJECTED', 'ADDED_TO_ROSTER',
                     'GAME_STARTED', 'GAME_FINAL', 'EVENT_REMINDER', 'SUB_MATCH', 'SIDES_SET', 'SHORT_HANDED',
                     'AVAILABILITY_NUDGE', 'AVAILABILITY_REMINDER', 'CHAT_MESSAGE')),
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
INSERT INTO notifications_0017 (id, user_id, type, resource_type, resource_id, payload, dedupe_key, batch, created_at, read_at)
    SELECT id, user_id, type, resource_type, resource_id, payload, dedupe_key, batch, created_at, read_at FROM notifications;
DROP TABLE notifications;
ALTER TABLE notifications_0017 RENAME TO notifications;
CREATE INDEX notifications_page ON notifications (user_id, created_at, id);
CREATE INDEX notifications_unread ON notifications (user_id) WHERE read_at IS NULL;
CREATE UNIQUE INDEX notifications_once ON notifications (user_id, dedupe_key);
CREATE INDEX notifications_batch ON notifications (batch);
CREATE INDEX notifications_resource ON notifications (resource_type, resource_id);
