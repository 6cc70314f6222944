-- Team chat (issue 30 › 2, docs/chat.md): a conversation per roster and
-- per event, named after it (`roster-{id}`, `event-{id}`); its messages in
-- one order (`seq`, no gaps); each member's read mark and mute.

CREATE TABLE chat_conversations (
    id               TEXT PRIMARY KEY,
    -- The last message's place: the next message is last_seq + 1.
    last_seq         BIGINT NOT NULL DEFAULT 0,
    -- Moves on with every post, edit and delete: the topic's seq.
    version          BIGINT NOT NULL DEFAULT 0,
    last_message_at  BIGINT NULL
);

CREATE TABLE chat_messages (
    id               TEXT PRIMARY KEY,
    conversation_id  TEXT NOT NULL REFERENCES chat_conversations (id) ON DELETE CASCADE,
    seq              BIGINT NOT NULL,
    author_id        TEXT NULL REFERENCES users (id) ON DELETE SET NULL,
    -- NULL once deleted.
    body             TEXT NULL,
    -- The sender's Idempotency-Key: a retried send posts nothing new.
    client_key       TEXT NULL,
    created_at       BIGINT NOT NULL,
    edited_at        BIGINT NULL,
    deleted_at       BIGINT NULL,
    deleted_by_id    TEXT NULL REFERENCES users (id) ON DELETE SET NULL,
    UNIQUE (conversation_id, seq)
);
CREATE UNIQUE INDEX chat_messages_client_key ON chat_messages (author_id, client_key);

CREATE TABLE chat_marks (
    conversation_id  TEXT NOT NULL REFERENCES chat_conversations (id) ON DELETE CASCADE,
    user_id          TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- Read up to this message.
    read_seq         BIGINT NOT NULL DEFAULT 0,
    muted            BIGINT NOT NULL DEFAULT 0 CHECK (muted IN (0, 1)),
    -- Told by notification of messages up to this one.
    notified_seq     BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (conversation_id, user_id)
);
CREATE INDEX chat_marks_user ON chat_marks (user_id);

-- The job that tells members of messages they have not read (one node at a time).
INSERT INTO job_leases (name, owner, lease_until) VALUES ('chat-unread', NULL, 0);

-- CHAT_MESSAGE: messages a member has not read (docs/chat.md › Notifications).
ALTER TABLE notifications DROP CONSTRAINT notifications_type_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_type_check CHECK (type IN ('WAITLIST_PROMOTED',
    'REMOVED_FROM_EVENT', 'EVENT_CANCELLED', 'EVENT_MOVED', 'JOIN_REQUEST_APPROVED', 'JOIN_REQUEST_REJECTED',
    'ADDED_TO_ROSTER', 'GAME_STARTED', 'GAME_FINAL', 'EVENT_REMINDER', 'SUB_MATCH', 'SIDES_SET', 'SHORT_HANDED',
    'AVAILABILITY_NUDGE', 'AVAILABILITY_REMINDER', 'CHAT_MESSAGE'));
