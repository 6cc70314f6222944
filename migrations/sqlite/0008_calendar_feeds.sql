-- A person's private calendar feed (docs/schedule.md): the SHA-256 of the
-- secret token in its URL, never the token itself, so a copy of the
-- database gives nobody a working feed URL. One feed per person;
-- regenerating replaces the row, revoking deletes it.
CREATE TABLE calendar_feeds (
    user_id     TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    token_hash  TEXT NOT NULL UNIQUE,
    created_at  INTEGER NOT NULL
);
