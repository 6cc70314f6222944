-- Weekly skates (docs/series.md): a series remembers how its events were
-- made; each week is an ordinary event with its own RSVPs and waitlist,
-- pointing at its series. Deleting one event leaves the series the others.
CREATE TABLE event_series (
    id          TEXT PRIMARY KEY,
    creator_id  TEXT NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
    frequency   TEXT NOT NULL CHECK (frequency IN ('WEEKLY')),
    time_zone   TEXT NOT NULL,
    until_day   TEXT NOT NULL,
    created_at  INTEGER NOT NULL
);

ALTER TABLE events ADD COLUMN series_id TEXT NULL REFERENCES event_series (id) ON DELETE SET NULL;

CREATE INDEX events_series_start ON events (series_id, start_date);
