-- SUB_MATCH (docs/notifications.md, issue 26): a new event with open places
-- that matches a sub's AVAILABLE_TO_SUB status tells the sub, once per event
-- (dedupe key `SUB_MATCH|<eventId>`), unless they opted out.
ALTER TABLE notifications DROP CONSTRAINT notifications_type_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_type_check CHECK (type IN ('WAITLIST_PROMOTED',
    'REMOVED_FROM_EVENT', 'EVENT_CANCELLED', 'EVENT_MOVED', 'JOIN_REQUEST_APPROVED', 'JOIN_REQUEST_REJECTED',
    'ADDED_TO_ROSTER', 'GAME_STARTED', 'GAME_FINAL', 'EVENT_REMINDER', 'SUB_MATCH'));

-- The opt-out: 1 (the default, also for people with no settings row) tells
-- them of new matches, 0 does not.
ALTER TABLE notification_settings ADD COLUMN sub_matches BIGINT NOT NULL DEFAULT 1 CHECK (sub_matches IN (0, 1));
