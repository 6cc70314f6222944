-- Invites (issue 30 › 3, docs/invites.md): a link or code a captain or an
-- organiser shares (or mails) that lands a person — new to Rinkside or
-- not — on a roster (or its join requests) or in an event.

CREATE TABLE invites (
    id                TEXT PRIMARY KEY,
    -- 12 of 31 letters: what the link carries. Unique, never reused.
    code              TEXT NOT NULL UNIQUE,
    roster_id         TEXT NULL REFERENCES rosters (id) ON DELETE CASCADE,
    event_id          TEXT NULL REFERENCES events (id) ON DELETE CASCADE,
    -- Mailed to (when SMTP_URL is set); null for a link to share.
    email             TEXT NULL,
    -- Accepting files a join request instead of joining.
    require_approval  BIGINT NOT NULL DEFAULT 0 CHECK (require_approval IN (0, 1)),
    max_uses          BIGINT NOT NULL CHECK (max_uses BETWEEN 1 AND 100),
    uses              BIGINT NOT NULL DEFAULT 0,
    created_by_id     TEXT NULL REFERENCES users (id) ON DELETE SET NULL,
    created_at        BIGINT NOT NULL,
    expires_at        BIGINT NOT NULL,
    revoked_at        BIGINT NULL,
    CHECK ((roster_id IS NULL AND event_id IS NOT NULL) OR (roster_id IS NOT NULL AND event_id IS NULL)),
    CHECK (uses <= max_uses)
);
CREATE INDEX invites_roster ON invites (roster_id, created_at);
CREATE INDEX invites_event ON invites (event_id, created_at);

-- Who used an invite: once each.
CREATE TABLE invite_uses (
    invite_id  TEXT NOT NULL REFERENCES invites (id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    used_at    BIGINT NOT NULL,
    PRIMARY KEY (invite_id, user_id)
);
