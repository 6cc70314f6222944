-- Feed aggregation (docs/feed.md). An item is "open" for more facts of its
-- type about its resource while open_key (TYPE|RESOURCE_TYPE|RESOURCE_ID)
-- is set; one open item per person and key, so two facts at the same
-- moment grow one item instead of making two. An item closes (open_key
-- NULL) once it is older than the aggregation window.
ALTER TABLE feed_items ADD COLUMN open_key TEXT NULL;
-- How many facts the item stands for, and its actors newest first (comma
-- separated, capped in length; read as at most 10 distinct ids).
ALTER TABLE feed_items ADD COLUMN agg_count INTEGER NOT NULL DEFAULT 1;
ALTER TABLE feed_items ADD COLUMN agg_actors TEXT NULL;
UPDATE feed_items SET agg_actors = actor_id;
CREATE UNIQUE INDEX feed_items_open ON feed_items (user_id, open_key);
CREATE INDEX feed_items_open_key ON feed_items (open_key, created_at);
CREATE INDEX feed_items_resource ON feed_items (resource_type, resource_id);
CREATE INDEX posts_author_page ON posts (author_id, created_at, id);
