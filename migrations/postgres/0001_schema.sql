-- Rinkside schema, PostgreSQL dialect. Must stay column-for-column identical
-- to migrations/sqlite/0001_schema.sql; only the integer type name differs.
--
-- Portable types (sqlx `Any` decodes only integers, floats, strings, bytes):
--   ids    TEXT (UUIDv7 strings)
--   times  BIGINT epoch milliseconds UTC
--   flags  BIGINT NOT NULL DEFAULT 0 CHECK (x IN (0, 1))
--   enums  TEXT with CHECK (x IN (...))
--   JSON   TEXT
--   other integers BIGINT (never INT4/INTEGER, BOOLEAN, TIMESTAMP, UUID, JSONB)

-- ---------------------------------------------------------------- users

CREATE TABLE users (
    id                          TEXT PRIMARY KEY,
    clerk_id                    TEXT NOT NULL UNIQUE,
    email                       TEXT NULL UNIQUE,
    username                    TEXT NULL,
    first_name                  TEXT NULL,
    last_name                   TEXT NULL,
    profile_image               TEXT NULL,
    bio                         TEXT NULL,
    onboarding_complete         BIGINT NOT NULL DEFAULT 0 CHECK (onboarding_complete IN (0, 1)),
    can_collect_event_payments  BIGINT NOT NULL DEFAULT 0 CHECK (can_collect_event_payments IN (0, 1)),
    legal_accepted_at           BIGINT NULL,
    legal_version               TEXT NULL,
    clerk_synced_at             BIGINT NULL,
    deleted_at                  BIGINT NULL,
    created_at                  BIGINT NOT NULL,
    updated_at                  BIGINT NOT NULL
);

CREATE UNIQUE INDEX users_username_lower ON users (lower(username));

CREATE TABLE user_profile_types (
    user_id       TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    profile_type  TEXT NOT NULL CHECK (profile_type IN ('PLAYER', 'COACH', 'REFEREE', 'SCORE_KEEPER', 'FACILITY_MANAGER', 'FAN')),
    PRIMARY KEY (user_id, profile_type)
);

CREATE TABLE follows (
    id            TEXT PRIMARY KEY,
    follower_id   TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    following_id  TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at    BIGINT NOT NULL,
    UNIQUE (follower_id, following_id),
    CHECK (follower_id <> following_id)
);

CREATE INDEX follows_following_created ON follows (following_id, created_at);
CREATE INDEX follows_follower_created ON follows (follower_id, created_at);

-- ---------------------------------------------------------------- facilities and teams

CREATE TABLE facilities (
    id            TEXT PRIMARY KEY,
    name          TEXT NOT NULL,
    phone_number  TEXT NULL,
    email         TEXT NULL,
    website       TEXT NULL,
    image_url     TEXT NULL,
    description   TEXT NULL,
    timezone      TEXT NOT NULL,
    creator_id    TEXT NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
    owner_id      TEXT NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
    created_at    BIGINT NOT NULL,
    updated_at    BIGINT NOT NULL
);

CREATE INDEX facilities_owner ON facilities (owner_id);

CREATE TABLE facility_follows (
    id           TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    facility_id  TEXT NOT NULL REFERENCES facilities (id) ON DELETE CASCADE,
    created_at   BIGINT NOT NULL,
    UNIQUE (user_id, facility_id)
);

CREATE INDEX facility_follows_facility_created ON facility_follows (facility_id, created_at);
CREATE INDEX facility_follows_user_created ON facility_follows (user_id, created_at);

CREATE TABLE facility_managers (
    id           TEXT PRIMARY KEY,
    facility_id  TEXT NOT NULL REFERENCES facilities (id) ON DELETE CASCADE,
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at   BIGINT NOT NULL,
    UNIQUE (facility_id, user_id)
);

CREATE INDEX facility_managers_user ON facility_managers (user_id);

CREATE TABLE teams (
    id           TEXT PRIMARY KEY,
    name         TEXT NOT NULL,
    logo_url     TEXT NULL,
    description  TEXT NULL,
    facility_id  TEXT NULL REFERENCES facilities (id) ON DELETE SET NULL,
    creator_id   TEXT NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
    owner_id     TEXT NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
    created_at   BIGINT NOT NULL,
    updated_at   BIGINT NOT NULL
);

CREATE INDEX teams_facility ON teams (facility_id);
CREATE INDEX teams_owner ON teams (owner_id);

CREATE TABLE team_follows (
    id          TEXT PRIMARY KEY,
    user_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    team_id     TEXT NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    created_at  BIGINT NOT NULL,
    UNIQUE (user_id, team_id)
);

CREATE INDEX team_follows_team_created ON team_follows (team_id, created_at);
CREATE INDEX team_follows_user_created ON team_follows (user_id, created_at);

CREATE TABLE team_managers (
    id          TEXT PRIMARY KEY,
    team_id     TEXT NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    user_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at  BIGINT NOT NULL,
    UNIQUE (team_id, user_id)
);

CREATE INDEX team_managers_user ON team_managers (user_id);

CREATE TABLE player_positions (
    id            TEXT PRIMARY KEY,
    user_id       TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    position      TEXT NOT NULL CHECK (position IN ('CENTER', 'LEFT_WING', 'RIGHT_WING', 'LEFT_DEFENSE', 'RIGHT_DEFENSE', 'GOALIE')),
    skill_level   TEXT NOT NULL CHECK (skill_level IN ('BEGINNER', 'INTERMEDIATE', 'ADVANCED', 'PROFESSIONAL')),
    is_preferred  BIGINT NOT NULL DEFAULT 0 CHECK (is_preferred IN (0, 1)),
    created_at    BIGINT NOT NULL,
    updated_at    BIGINT NOT NULL,
    UNIQUE (user_id, position)
);

CREATE UNIQUE INDEX player_positions_one_preferred ON player_positions (user_id) WHERE is_preferred = 1;

-- ---------------------------------------------------------------- seasons, rosters, games

CREATE TABLE seasons (
    id            TEXT PRIMARY KEY,
    name          TEXT NOT NULL,
    start_date    BIGINT NOT NULL,
    end_date      BIGINT NOT NULL,
    is_active     BIGINT NOT NULL DEFAULT 0 CHECK (is_active IN (0, 1)),
    facility_id   TEXT NOT NULL REFERENCES facilities (id) ON DELETE CASCADE,
    sync_url      TEXT NULL,
    sync_enabled  BIGINT NOT NULL DEFAULT 0 CHECK (sync_enabled IN (0, 1)),
    last_sync_at  BIGINT NULL,
    created_at    BIGINT NOT NULL,
    updated_at    BIGINT NOT NULL,
    CHECK (end_date >= start_date)
);

CREATE INDEX seasons_facility_start ON seasons (facility_id, start_date);

CREATE TABLE division_mappings (
    id                        TEXT PRIMARY KEY,
    facility_division_name    TEXT NOT NULL,
    universal_division_scale  TEXT NOT NULL CHECK (universal_division_scale IN ('LEARN_TO_PLAY', 'BEGINNER', 'NOVICE', 'RECREATIONAL', 'INTERMEDIATE', 'ADVANCED', 'COMPETITIVE', 'ELITE')),
    description               TEXT NULL,
    season_id                 TEXT NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
    created_at                BIGINT NOT NULL,
    updated_at                BIGINT NOT NULL,
    UNIQUE (season_id, facility_division_name)
);

CREATE TABLE rosters (
    id                   TEXT PRIMARY KEY,
    name                 TEXT NOT NULL,
    description          TEXT NULL,
    team_id              TEXT NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    season_id            TEXT NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
    status               TEXT NOT NULL DEFAULT 'DRAFT' CHECK (status IN ('DRAFT', 'ACTIVE', 'ARCHIVED')),
    division_mapping_id  TEXT NULL REFERENCES division_mappings (id) ON DELETE SET NULL,
    max_members          BIGINT NULL CHECK (max_members > 0),
    wins                 BIGINT NOT NULL DEFAULT 0 CHECK (wins >= 0),
    losses               BIGINT NOT NULL DEFAULT 0 CHECK (losses >= 0),
    ties                 BIGINT NOT NULL DEFAULT 0 CHECK (ties >= 0),
    points               BIGINT NOT NULL DEFAULT 0 CHECK (points >= 0),
    created_at           BIGINT NOT NULL,
    updated_at           BIGINT NOT NULL
);

CREATE INDEX rosters_team_season ON rosters (team_id, season_id);
CREATE INDEX rosters_season ON rosters (season_id);
CREATE INDEX rosters_division_mapping ON rosters (division_mapping_id);

CREATE TABLE roster_players (
    id                 TEXT PRIMARY KEY,
    roster_id          TEXT NOT NULL REFERENCES rosters (id) ON DELETE CASCADE,
    user_id            TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    jersey_number      BIGINT NULL CHECK (jersey_number BETWEEN 0 AND 99),
    position           TEXT NULL CHECK (position IN ('CENTER', 'LEFT_WING', 'RIGHT_WING', 'LEFT_DEFENSE', 'RIGHT_DEFENSE', 'GOALIE')),
    commitment_level   TEXT NOT NULL DEFAULT 'FULL_TIME' CHECK (commitment_level IN ('FULL_TIME', 'SUBSTITUTE')),
    captain            BIGINT NOT NULL DEFAULT 0 CHECK (captain IN (0, 1)),
    alternate_captain  BIGINT NOT NULL DEFAULT 0 CHECK (alternate_captain IN (0, 1)),
    goals              BIGINT NOT NULL DEFAULT 0 CHECK (goals >= 0),
    assists            BIGINT NOT NULL DEFAULT 0 CHECK (assists >= 0),
    penalty_minutes    BIGINT NOT NULL DEFAULT 0 CHECK (penalty_minutes >= 0),
    games_played       BIGINT NOT NULL DEFAULT 0 CHECK (games_played >= 0),
    joined_at          BIGINT NOT NULL,
    created_at         BIGINT NOT NULL,
    updated_at         BIGINT NOT NULL,
    UNIQUE (roster_id, user_id),
    UNIQUE (roster_id, jersey_number)
);

CREATE UNIQUE INDEX roster_players_one_captain ON roster_players (roster_id) WHERE captain = 1;
CREATE INDEX roster_players_user ON roster_players (user_id);

CREATE TABLE roster_join_requests (
    id                  TEXT PRIMARY KEY,
    user_id             TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    roster_id           TEXT NOT NULL REFERENCES rosters (id) ON DELETE CASCADE,
    status              TEXT NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'APPROVED', 'REJECTED')),
    message             TEXT NULL,
    preferred_position  TEXT NULL CHECK (preferred_position IN ('CENTER', 'LEFT_WING', 'RIGHT_WING', 'LEFT_DEFENSE', 'RIGHT_DEFENSE', 'GOALIE')),
    commitment_level    TEXT NOT NULL DEFAULT 'FULL_TIME' CHECK (commitment_level IN ('FULL_TIME', 'SUBSTITUTE')),
    decided_by_id       TEXT NULL REFERENCES users (id) ON DELETE SET NULL,
    created_at          BIGINT NOT NULL,
    updated_at          BIGINT NOT NULL
);

CREATE UNIQUE INDEX roster_join_requests_one_pending ON roster_join_requests (user_id, roster_id) WHERE status = 'PENDING';
CREATE INDEX roster_join_requests_roster_status_created ON roster_join_requests (roster_id, status, created_at);
CREATE INDEX roster_join_requests_user_created ON roster_join_requests (user_id, created_at);

CREATE TABLE games (
    id              TEXT PRIMARY KEY,
    home_roster_id  TEXT NOT NULL REFERENCES rosters (id) ON DELETE RESTRICT,
    away_roster_id  TEXT NOT NULL REFERENCES rosters (id) ON DELETE RESTRICT,
    season_id       TEXT NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
    scheduled_at    BIGINT NOT NULL,
    home_score      BIGINT NOT NULL DEFAULT 0 CHECK (home_score >= 0),
    away_score      BIGINT NOT NULL DEFAULT 0 CHECK (away_score >= 0),
    status          TEXT NOT NULL DEFAULT 'SCHEDULED' CHECK (status IN ('SCHEDULED', 'LIVE', 'FINAL', 'POSTPONED', 'CANCELLED')),
    period          TEXT NULL CHECK (period IN ('1', '2', '3', 'OT', 'SO')),
    version         BIGINT NOT NULL DEFAULT 0,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL,
    CHECK (home_roster_id <> away_roster_id)
);

CREATE INDEX games_season_scheduled ON games (season_id, scheduled_at);
CREATE INDEX games_home_roster ON games (home_roster_id);
CREATE INDEX games_away_roster ON games (away_roster_id);

-- Goals, penalties and period changes, in order; a score keeper can undo the
-- last entry using `effects` (JSON of what the entry changed).
CREATE TABLE game_log (
    id             TEXT PRIMARY KEY,
    game_id        TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq            BIGINT NOT NULL CHECK (seq >= 0),
    type           TEXT NOT NULL CHECK (type IN ('START', 'GOAL', 'PENALTY', 'END_PERIOD', 'FINAL', 'UNDO')),
    period         TEXT NULL CHECK (period IN ('1', '2', '3', 'OT', 'SO')),
    roster_id      TEXT NULL REFERENCES rosters (id) ON DELETE SET NULL,
    player_id      TEXT NULL REFERENCES users (id) ON DELETE SET NULL,
    assist1_id     TEXT NULL REFERENCES users (id) ON DELETE SET NULL,
    assist2_id     TEXT NULL REFERENCES users (id) ON DELETE SET NULL,
    minutes        BIGINT NULL CHECK (minutes >= 0),
    -- UNDO entries: the seq of the entry they reverted.
    undoes         BIGINT NULL,
    effects        TEXT NOT NULL DEFAULT '{}',
    created_by_id  TEXT NULL REFERENCES users (id) ON DELETE SET NULL,
    created_at     BIGINT NOT NULL,
    undone_at      BIGINT NULL,
    UNIQUE (game_id, seq)
);

CREATE TABLE game_scorekeepers (
    game_id     TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at  BIGINT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

CREATE INDEX game_scorekeepers_user ON game_scorekeepers (user_id);

-- Players who dressed for a game.
CREATE TABLE game_lineups (
    game_id    TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    roster_id  TEXT NOT NULL REFERENCES rosters (id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    PRIMARY KEY (game_id, user_id)
);

CREATE INDEX game_lineups_roster ON game_lineups (roster_id);
CREATE INDEX game_lineups_user ON game_lineups (user_id);

-- ---------------------------------------------------------------- events

CREATE TABLE events (
    id                       TEXT PRIMARY KEY,
    title                    TEXT NOT NULL,
    description              TEXT NULL,
    location                 TEXT NULL,
    start_date               BIGINT NOT NULL,
    end_date                 BIGINT NULL,
    image_url                TEXT NULL,
    creator_id               TEXT NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
    facility_id              TEXT NULL REFERENCES facilities (id) ON DELETE SET NULL,
    season_id                TEXT NULL REFERENCES seasons (id) ON DELETE SET NULL,
    external_home_team_name  TEXT NULL,
    external_away_team_name  TEXT NULL,
    external_rink            TEXT NULL,
    home_score               BIGINT NULL CHECK (home_score >= 0),
    away_score               BIGINT NULL CHECK (away_score >= 0),
    event_type               TEXT NOT NULL CHECK (event_type IN ('GAME', 'PRACTICE', 'PUBLIC_SKATING', 'WATCH_PARTY', 'OTHER', 'EXTERNAL_GAME')),
    max_skaters              BIGINT NULL CHECK (max_skaters >= 0),
    max_goalies              BIGINT NULL CHECK (max_goalies >= 0),
    group_config             TEXT NULL,
    version                  BIGINT NOT NULL DEFAULT 0,
    cancelled_at             BIGINT NULL,
    created_at               BIGINT NOT NULL,
    updated_at               BIGINT NOT NULL,
    CHECK (end_date IS NULL OR end_date >= start_date)
);

CREATE INDEX events_facility_start ON events (facility_id, start_date);
CREATE INDEX events_season_start ON events (season_id, start_date);
CREATE INDEX events_creator_start ON events (creator_id, start_date);
CREATE INDEX events_start ON events (start_date);

-- Current RSVP state per (event, user); accepted_seq orders the attending list
-- and each role's waitlist.
CREATE TABLE event_rsvps (
    id            TEXT PRIMARY KEY,
    event_id      TEXT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    user_id       TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    status        TEXT NOT NULL CHECK (status IN ('ATTENDING', 'WAITLISTED', 'DECLINED', 'REMOVED')),
    position      TEXT NOT NULL CHECK (position IN ('CENTER', 'LEFT_WING', 'RIGHT_WING', 'LEFT_DEFENSE', 'RIGHT_DEFENSE', 'GOALIE')),
    role          TEXT NOT NULL CHECK (role IN ('SKATER', 'GOALIE')),
    accepted_seq  BIGINT NOT NULL,
    responded_at  BIGINT NOT NULL,
    created_at    BIGINT NOT NULL,
    updated_at    BIGINT NOT NULL,
    UNIQUE (event_id, user_id)
);

CREATE INDEX event_rsvps_event_status_role_seq ON event_rsvps (event_id, status, role, accepted_seq);
CREATE INDEX event_rsvps_user_status ON event_rsvps (user_id, status);

CREATE TABLE event_rsvp_history (
    id          TEXT PRIMARY KEY,
    event_id    TEXT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    user_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    action      TEXT NOT NULL CHECK (action IN ('ATTENDING', 'DECLINED', 'REMOVED')),
    position    TEXT NULL CHECK (position IN ('CENTER', 'LEFT_WING', 'RIGHT_WING', 'LEFT_DEFENSE', 'RIGHT_DEFENSE', 'GOALIE')),
    created_at  BIGINT NOT NULL
);

CREATE INDEX event_rsvp_history_event_created ON event_rsvp_history (event_id, created_at);

CREATE TABLE event_waitlist_history (
    id          TEXT PRIMARY KEY,
    event_id    TEXT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    user_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    action      TEXT NOT NULL CHECK (action IN ('ADDED', 'REMOVED', 'PROMOTED')),
    position    TEXT NULL CHECK (position IN ('CENTER', 'LEFT_WING', 'RIGHT_WING', 'LEFT_DEFENSE', 'RIGHT_DEFENSE', 'GOALIE')),
    created_at  BIGINT NOT NULL
);

CREATE INDEX event_waitlist_history_event_created ON event_waitlist_history (event_id, created_at);

CREATE TABLE event_payments (
    id                 TEXT PRIMARY KEY,
    event_id           TEXT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    user_id            TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    is_paid            BIGINT NOT NULL DEFAULT 0 CHECK (is_paid IN (0, 1)),
    marked_paid_at     BIGINT NULL,
    marked_paid_by_id  TEXT NULL REFERENCES users (id) ON DELETE SET NULL,
    created_at         BIGINT NOT NULL,
    updated_at         BIGINT NOT NULL,
    UNIQUE (event_id, user_id)
);

CREATE TABLE event_teams (
    id        TEXT PRIMARY KEY,
    event_id  TEXT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    team_id   TEXT NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    role      TEXT NOT NULL CHECK (role IN ('HOME', 'AWAY')),
    UNIQUE (event_id, team_id),
    UNIQUE (event_id, role)
);

CREATE INDEX event_teams_team ON event_teams (team_id);

-- ---------------------------------------------------------------- external schedule import

CREATE TABLE external_rosters (
    id                   TEXT PRIMARY KEY,
    external_id          TEXT NOT NULL,
    name                 TEXT NOT NULL,
    original_division    TEXT NULL,
    url                  TEXT NULL,
    is_matched           BIGINT NOT NULL DEFAULT 0 CHECK (is_matched IN (0, 1)),
    division_mapping_id  TEXT NULL REFERENCES division_mappings (id) ON DELETE SET NULL,
    facility_id          TEXT NOT NULL REFERENCES facilities (id) ON DELETE CASCADE,
    season_id            TEXT NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
    team_id              TEXT NULL REFERENCES teams (id) ON DELETE SET NULL,
    created_at           BIGINT NOT NULL,
    updated_at           BIGINT NOT NULL,
    UNIQUE (season_id, external_id)
);

CREATE INDEX external_rosters_facility ON external_rosters (facility_id);
CREATE INDEX external_rosters_team ON external_rosters (team_id);

CREATE TABLE external_games (
    id              TEXT PRIMARY KEY,
    external_id     TEXT NOT NULL,
    date_time       BIGINT NOT NULL,
    rink            TEXT NULL,
    home_goals      BIGINT NULL CHECK (home_goals >= 0),
    away_goals      BIGINT NULL CHECK (away_goals >= 0),
    game_type       TEXT NULL,
    home_roster_id  TEXT NULL REFERENCES external_rosters (id) ON DELETE SET NULL,
    away_roster_id  TEXT NULL REFERENCES external_rosters (id) ON DELETE SET NULL,
    season_id       TEXT NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
    event_id        TEXT NULL REFERENCES events (id) ON DELETE SET NULL,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL,
    UNIQUE (season_id, external_id)
);

CREATE INDEX external_games_season_date ON external_games (season_id, date_time);
CREATE INDEX external_games_home_roster ON external_games (home_roster_id);
CREATE INDEX external_games_away_roster ON external_games (away_roster_id);
CREATE INDEX external_games_event ON external_games (event_id);

-- ---------------------------------------------------------------- statuses, posts, feed

CREATE TABLE statuses (
    id           TEXT PRIMARY KEY,
    type         TEXT NOT NULL CHECK (type IN ('LOOKING_FOR_TEAM', 'AVAILABLE_TO_SUB', 'RECRUITING', 'LOOKING_FOR_SUBS')),
    entity_type  TEXT NOT NULL CHECK (entity_type IN ('USER', 'TEAM')),
    user_id      TEXT NULL REFERENCES users (id) ON DELETE CASCADE,
    team_id      TEXT NULL REFERENCES teams (id) ON DELETE CASCADE,
    message      TEXT NULL,
    expires_at   BIGINT NULL,
    created_at   BIGINT NOT NULL,
    updated_at   BIGINT NOT NULL,
    CHECK ((entity_type = 'USER' AND user_id IS NOT NULL AND team_id IS NULL)
        OR (entity_type = 'TEAM' AND team_id IS NOT NULL))
);

CREATE INDEX statuses_expires ON statuses (expires_at);
CREATE INDEX statuses_user ON statuses (user_id);
CREATE INDEX statuses_team ON statuses (team_id);

CREATE TABLE status_positions (
    status_id  TEXT NOT NULL REFERENCES statuses (id) ON DELETE CASCADE,
    position   TEXT NOT NULL CHECK (position IN ('CENTER', 'LEFT_WING', 'RIGHT_WING', 'LEFT_DEFENSE', 'RIGHT_DEFENSE', 'GOALIE')),
    PRIMARY KEY (status_id, position)
);

CREATE TABLE posts (
    id          TEXT PRIMARY KEY,
    content     TEXT NOT NULL,
    author_id   TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL
);

CREATE INDEX posts_author_created ON posts (author_id, created_at);

CREATE TABLE feed_items (
    id               TEXT PRIMARY KEY,
    type             TEXT NOT NULL CHECK (type IN ('EVENT_CREATED', 'EVENT_UPDATED', 'WELCOME_MESSAGE', 'FIRST_FOLLOW_ENCOURAGEMENT', 'USER_JOINED_TEAM', 'TEAM_ROSTER_UPDATED', 'SEASON_STARTED', 'EXTERNAL_GAME_IMPORTED', 'POST_CREATED')),
    user_id          TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    actor_id         TEXT NULL REFERENCES users (id) ON DELETE SET NULL,
    resource_id      TEXT NULL,
    resource_type    TEXT NULL,
    aggregated_data  TEXT NULL,
    created_at       BIGINT NOT NULL,
    updated_at       BIGINT NOT NULL
);

CREATE INDEX feed_items_user_updated ON feed_items (user_id, updated_at, id);

-- ---------------------------------------------------------------- infrastructure

-- Replies to idempotent commands, keyed by scope + user + client command id.
CREATE TABLE command_results (
    key         TEXT PRIMARY KEY,
    ok          BIGINT NOT NULL DEFAULT 0 CHECK (ok IN (0, 1)),
    body        TEXT NOT NULL,
    created_at  BIGINT NOT NULL
);

CREATE INDEX command_results_created ON command_results (created_at);

-- Svix message ids already processed (Clerk webhook de-duplication).
CREATE TABLE webhook_events (
    svix_id      TEXT PRIMARY KEY,
    received_at  BIGINT NOT NULL
);
