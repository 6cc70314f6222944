-- Why an event was cancelled (issue 26): the organiser's words (at most 500
-- characters, checked by the server), or the season sync's. NULL when
-- nobody said, and for events not cancelled.
ALTER TABLE events ADD COLUMN cancel_reason TEXT NULL;
