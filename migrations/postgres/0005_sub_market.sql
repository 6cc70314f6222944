-- The sub market (docs/statuses.md). A LOOKING_FOR_SUBS may be tied to one
-- event: it expires at puck drop and ends when the event fills.
ALTER TABLE statuses ADD COLUMN event_id TEXT NULL REFERENCES events (id) ON DELETE CASCADE;
CREATE INDEX statuses_event ON statuses (event_id);
CREATE INDEX statuses_board ON statuses (expires_at, created_at, id);
CREATE INDEX statuses_type_active ON statuses (type, expires_at);
CREATE INDEX status_positions_position ON status_positions (position, status_id);

-- Places left per role (NULL = unlimited, 0 once cancelled), written with
-- every RSVP batch that changes them: open spots are read from here rather
-- than counted from event_rsvps on every board and lobby read.
ALTER TABLE events ADD COLUMN open_skaters BIGINT NULL;
ALTER TABLE events ADD COLUMN open_goalies BIGINT NULL;
UPDATE events SET
  open_skaters = CASE
    WHEN cancelled_at IS NOT NULL THEN 0
    WHEN max_skaters IS NULL THEN NULL
    ELSE GREATEST(0, max_skaters - (SELECT COUNT(*) FROM event_rsvps r
                               WHERE r.event_id = events.id AND r.status = 'ATTENDING' AND r.role = 'SKATER'))
  END,
  open_goalies = CASE
    WHEN cancelled_at IS NOT NULL THEN 0
    WHEN max_goalies IS NULL THEN NULL
    ELSE GREATEST(0, max_goalies - (SELECT COUNT(*) FROM event_rsvps r
                               WHERE r.event_id = events.id AND r.status = 'ATTENDING' AND r.role = 'GOALIE'))
  END;
