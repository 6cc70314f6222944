-- What follows an event actor's commit (issue 27): one row per committed
-- batch that has consequences beyond its own rows (people promoted or
-- removed, the event cancelled or its limits changed, its open places
-- moved), written in the batch's transaction. The follow-up worker
-- (src/store/follow_ups.rs) turns each row into feed items, notifications
-- and settled calls for subs in one later transaction that also deletes
-- the row: off the actor's path, and exactly once even across a crash.
-- Ids are UUIDv7, so reading by id gives the commit order.
CREATE TABLE event_follow_ups (
    id TEXT PRIMARY KEY,
    event_id TEXT NOT NULL,
    version BIGINT NOT NULL,
    record TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
