-- Season sync (docs/sync.md): the scheduler's lease and backoff per season,
-- hand matches and claims of external teams, removed games, and the
-- history of sync runs.
ALTER TABLE seasons ADD COLUMN sync_next_at BIGINT NULL;
ALTER TABLE seasons ADD COLUMN sync_failures BIGINT NOT NULL DEFAULT 0;
ALTER TABLE seasons ADD COLUMN sync_lease_until BIGINT NULL;
ALTER TABLE seasons ADD COLUMN sync_lease_owner TEXT NULL;
CREATE INDEX seasons_sync_due ON seasons (sync_enabled, sync_next_at);

-- AUTO: matched by a sync; MANUAL: matched or unmatched by staff, which a
-- sync never overrides.
ALTER TABLE external_rosters ADD COLUMN match_source TEXT NULL CHECK (match_source IN ('AUTO', 'MANUAL'));
ALTER TABLE external_rosters ADD COLUMN claimed_team_id TEXT NULL REFERENCES teams (id) ON DELETE SET NULL;
ALTER TABLE external_rosters ADD COLUMN claimed_by TEXT NULL REFERENCES users (id) ON DELETE SET NULL;
ALTER TABLE external_rosters ADD COLUMN claimed_at BIGINT NULL;

ALTER TABLE external_games ADD COLUMN end_time BIGINT NULL;
ALTER TABLE external_games ADD COLUMN division TEXT NULL;
ALTER TABLE external_games ADD COLUMN home_name TEXT NOT NULL DEFAULT '';
ALTER TABLE external_games ADD COLUMN away_name TEXT NOT NULL DEFAULT '';
ALTER TABLE external_games ADD COLUMN removed_at BIGINT NULL;

CREATE TABLE sync_runs (
    id             TEXT PRIMARY KEY,
    season_id      TEXT NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
    trigger_kind   TEXT NOT NULL CHECK (trigger_kind IN ('MANUAL', 'SCHEDULED')),
    ok             BIGINT NOT NULL CHECK (ok IN (0, 1)),
    report         TEXT NOT NULL,
    started_at     BIGINT NOT NULL,
    finished_at    BIGINT NOT NULL
);

CREATE INDEX sync_runs_season ON sync_runs (season_id, started_at);
