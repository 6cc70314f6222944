-- Fair sides and the ice bill (issue 32, docs/sides-and-bill.md).

-- The rink's currency (ISO 4217); NULL: the one its time zone implies.
ALTER TABLE facilities ADD COLUMN currency TEXT NULL CHECK (currency IS NULL OR length(currency) = 3);

-- Dark and Light: who the organiser's last split (and swaps since) put on
-- which side. A person no longer in keeps their row (a hole) until the
-- next split or re-balance.
CREATE TABLE event_sides (
    event_id     TEXT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    side         TEXT NOT NULL CHECK (side IN ('DARK', 'LIGHT')),
    assigned_at  BIGINT NOT NULL,
    PRIMARY KEY (event_id, user_id)
);

-- One row per event whose sides were made: how many times they changed
-- (the document's version) and the seed of the last split.
CREATE TABLE event_side_sets (
    event_id    TEXT PRIMARY KEY REFERENCES events (id) ON DELETE CASCADE,
    version     BIGINT NOT NULL CHECK (version >= 1),
    seed        BIGINT NOT NULL,
    made_at     BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL
);

-- What the ice cost: an event's own, or a series' total over its weeks.
CREATE TABLE ice_bills (
    id              TEXT PRIMARY KEY,
    event_id        TEXT NULL UNIQUE REFERENCES events (id) ON DELETE CASCADE,
    series_id       TEXT NULL UNIQUE REFERENCES event_series (id) ON DELETE CASCADE,
    cost_cents      BIGINT NOT NULL CHECK (cost_cents BETWEEN 0 AND 1000000000),
    currency        TEXT NOT NULL CHECK (length(currency) = 3),
    goalie_policy   TEXT NOT NULL CHECK (goalie_policy IN ('FREE', 'HALF', 'FULL')),
    organiser_pays  BIGINT NOT NULL DEFAULT 1 CHECK (organiser_pays IN (0, 1)),
    set_by_id       TEXT NULL REFERENCES users (id) ON DELETE SET NULL,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL,
    CHECK ((event_id IS NULL) <> (series_id IS NULL))
);

-- The organiser billed the players of an event: from then on each
-- attendee's share is owed (before, the organiser sees a preview).
CREATE TABLE event_bill_closes (
    event_id      TEXT PRIMARY KEY REFERENCES events (id) ON DELETE CASCADE,
    closed_at     BIGINT NOT NULL,
    closed_by_id  TEXT NULL REFERENCES users (id) ON DELETE SET NULL
);

-- What a person paid when marked paid (a fact a recompute never changes).
ALTER TABLE event_payments ADD COLUMN paid_cents BIGINT NULL CHECK (paid_cents IS NULL OR paid_cents >= 0);

-- SIDES_SET ("You're on Dark"): one per person per event, replaced when the
-- sides change (dedupe key SIDES_SET|<eventId>).
ALTER TABLE notifications DROP CONSTRAINT notifications_type_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_type_check CHECK (type IN ('WAITLIST_PROMOTED',
    'REMOVED_FROM_EVENT', 'EVENT_CANCELLED', 'EVENT_MOVED', 'JOIN_REQUEST_APPROVED', 'JOIN_REQUEST_REJECTED',
    'ADDED_TO_ROSTER', 'GAME_STARTED', 'GAME_FINAL', 'EVENT_REMINDER', 'SUB_MATCH', 'SIDES_SET'));
