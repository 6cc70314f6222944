-- An event at a facility is listed there under the rink's name only when
-- the facility's owner or managers made it, scheduled it in a season, or
-- listed it afterwards; anyone else's event at the rink is a community
-- event (docs/permissions.md, "Who may attach to whom").
ALTER TABLE events ADD COLUMN hosted_by_facility INTEGER NOT NULL DEFAULT 0 CHECK (hosted_by_facility IN (0, 1));

UPDATE events SET hosted_by_facility = 1
 WHERE facility_id IS NOT NULL
   AND (season_id IS NOT NULL
        OR creator_id = (SELECT f.owner_id FROM facilities f WHERE f.id = events.facility_id)
        OR EXISTS (SELECT 1 FROM facility_managers m
                    WHERE m.facility_id = events.facility_id AND m.user_id = events.creator_id));
