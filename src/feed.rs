//! Who hears about what: every FeedItemType, from the fact that produces it
//! to the feeds it reaches (docs/feed.md). Each function writes in the
//! caller's transaction — the item commits with the fact or not at all —
//! and returns what it wrote; once the transaction commits, the caller
//! hands that to `Realtime::push_feed` so open screens get it live.
//!
//! Nobody is told about their own action (the actor is skipped), except
//! the product's own items (welcome, first-follow encouragement), which
//! have no actor, and a post, which its author sees in their own feed.

use crate::db::feed::{Audience, Fact, Resource, Written, fan_out};
use crate::db::{self, events::EventRow};
use crate::domain::FeedItemType;
use serde_json::json;
use sqlx::AnyConnection;

type Result<T> = std::result::Result<T, sqlx::Error>;

/// A player joined a roster: USER_JOINED_TEAM for the player's followers
/// and the team's — one card per join. (It used to write the team's
/// TEAM_ROSTER_UPDATED as well, so a team's follower got two cards for one
/// join; that type now tells departures only.)
pub async fn joined_roster(
    conn: &mut AnyConnection,
    player_id: &str,
    team_id: &str,
    roster_id: &str,
) -> Result<Written> {
    let fact = Fact {
        kind: FeedItemType::UserJoinedTeam,
        actor_id: Some(player_id),
        resource: Resource::Roster,
        resource_id: roster_id,
        extra: None,
    };
    fan_out(conn, &fact, &[Audience::UserFollowers(player_id), Audience::TeamFollowers(team_id)]).await
}

/// TEAM_ROSTER_UPDATED: a player left the roster or was taken off it; the
/// team's followers. (A join is USER_JOINED_TEAM alone.)
pub async fn roster_changed(conn: &mut AnyConnection, by: &str, team_id: &str, roster_id: &str) -> Result<Written> {
    let fact = Fact {
        kind: FeedItemType::TeamRosterUpdated,
        actor_id: Some(by),
        resource: Resource::Roster,
        resource_id: roster_id,
        extra: None,
    };
    fan_out(conn, &fact, &[Audience::TeamFollowers(team_id)]).await
}

/// SEASON_STARTED: the facility's followers.
pub async fn season_started(conn: &mut AnyConnection, by: &str, facility_id: &str, season_id: &str) -> Result<Written> {
    let fact = Fact {
        kind: FeedItemType::SeasonStarted,
        actor_id: Some(by),
        resource: Resource::Season,
        resource_id: season_id,
        extra: None,
    };
    fan_out(conn, &fact, &[Audience::FacilityFollowers(facility_id)]).await
}

/// The followers an event concerns: its organiser's, its linked teams', and
/// its rink's when the rink lists it (a community event does not speak for
/// the rink; docs/permissions.md).
fn event_audience<'a>(event: &'a EventRow, team_ids: &'a [String]) -> Vec<Audience<'a>> {
    let mut audience = vec![Audience::UserFollowers(&event.creator_id)];
    if event.hosted_by_facility != 0
        && let Some(facility_id) = &event.facility_id
    {
        audience.push(Audience::FacilityFollowers(facility_id));
    }
    audience.extend(team_ids.iter().map(|t| Audience::TeamFollowers(t)));
    audience
}

/// EVENT_CREATED: the followers of its organiser, rink and teams. Also when
/// a team is linked later: that team's followers hear of it then.
pub async fn event_created(conn: &mut AnyConnection, by: &str, event_id: &str) -> Result<Written> {
    let event = db::events::get(&mut *conn, event_id).await?.ok_or(sqlx::Error::RowNotFound)?;
    let teams: Vec<String> = db::events::team_ids(&mut *conn, event_id).await?;
    let fact = Fact {
        kind: FeedItemType::EventCreated,
        actor_id: Some(by),
        resource: Resource::Event,
        resource_id: event_id,
        extra: None,
    };
    fan_out(conn, &fact, &event_audience(&event, &teams)).await
}

/// EVENT_CREATED for the followers of a team just linked to the event:
/// they hear of it when their team's name goes on it.
pub async fn event_reached_team(conn: &mut AnyConnection, by: &str, event_id: &str, team_id: &str) -> Result<Written> {
    let fact = Fact {
        kind: FeedItemType::EventCreated,
        actor_id: Some(by),
        resource: Resource::Event,
        resource_id: event_id,
        extra: None,
    };
    fan_out(conn, &fact, &[Audience::TeamFollowers(team_id)]).await
}

/// What about an event changed that its people care about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventChange {
    /// Start or end moved.
    Time,
    /// Rink or location moved.
    Place,
    Cancelled,
    /// Skater or goalie limits changed.
    Limits,
}

impl EventChange {
    fn as_str(self) -> &'static str {
        match self {
            EventChange::Time => "TIME",
            EventChange::Place => "PLACE",
            EventChange::Cancelled => "CANCELLED",
            EventChange::Limits => "LIMITS",
        }
    }

    /// The changes between two versions of an event's row that its people
    /// are told about (not every edit: a typo in the description is not news).
    pub fn between(before: &EventRow, after: &EventRow) -> Vec<EventChange> {
        let mut changes = Vec::new();
        if before.start_date != after.start_date || before.end_date != after.end_date {
            changes.push(EventChange::Time);
        }
        if before.facility_id != after.facility_id
            || before.location != after.location
            || before.external_rink != after.external_rink
        {
            changes.push(EventChange::Place);
        }
        if before.max_skaters != after.max_skaters || before.max_goalies != after.max_goalies {
            changes.push(EventChange::Limits);
        }
        if before.cancelled_at.is_none() && after.cancelled_at.is_some() {
            changes.push(EventChange::Cancelled);
        }
        changes
    }
}

/// EVENT_UPDATED for changes people care about: the event's followers (as
/// for EVENT_CREATED) and everyone attending or waitlisted. Nothing when
/// `changes` is empty. `by: None` names the event's creator (for changes
/// whose sender is not known, see `db::event_commits`).
pub async fn event_updated(
    conn: &mut AnyConnection,
    by: Option<&str>,
    event_id: &str,
    changes: &[EventChange],
) -> Result<Option<Written>> {
    if changes.is_empty() {
        return Ok(None);
    }
    let event = db::events::get(&mut *conn, event_id).await?.ok_or(sqlx::Error::RowNotFound)?;
    let by = by.unwrap_or(&event.creator_id);
    let teams: Vec<String> = db::events::team_ids(&mut *conn, event_id).await?;
    let mut audience = event_audience(&event, &teams);
    audience.push(Audience::EventPeople(event_id));
    let fact = Fact {
        kind: FeedItemType::EventUpdated,
        actor_id: Some(by),
        resource: Resource::Event,
        resource_id: event_id,
        extra: Some(json!({"changes": changes.iter().map(|c| c.as_str()).collect::<Vec<_>>()})),
    };
    Ok(Some(fan_out(conn, &fact, &audience).await?))
}

/// WELCOME_MESSAGE: the new person, once, at sign-up.
pub async fn welcome(conn: &mut AnyConnection, user_id: &str) -> Result<Written> {
    let fact = Fact {
        kind: FeedItemType::WelcomeMessage,
        actor_id: None,
        resource: Resource::User,
        resource_id: user_id,
        extra: None,
    };
    fan_out(conn, &fact, &[Audience::Person(user_id)]).await
}

/// FIRST_FOLLOW_ENCOURAGEMENT: a person who finished onboarding and follows
/// nobody, with suggestions near what they already belong to
/// (`db::suggestions`). Nothing if they already follow someone.
pub async fn first_follow(conn: &mut AnyConnection, user_id: &str) -> Result<Option<Written>> {
    if db::feed::follows_anything(&mut *conn, user_id).await? {
        return Ok(None);
    }
    let suggestions = db::suggestions::for_person(&mut *conn, user_id).await?;
    let fact = Fact {
        kind: FeedItemType::FirstFollowEncouragement,
        actor_id: None,
        resource: Resource::User,
        resource_id: user_id,
        extra: Some(json!({"suggestions": suggestions})),
    };
    Ok(Some(fan_out(conn, &fact, &[Audience::Person(user_id)]).await?))
}

/// POST_CREATED: the author's followers, and the author: your own post is
/// in your own feed (the one item that tells its actor).
pub async fn post_created(conn: &mut AnyConnection, author_id: &str, post_id: &str) -> Result<Written> {
    let fact = Fact {
        kind: FeedItemType::PostCreated,
        actor_id: Some(author_id),
        resource: Resource::Post,
        resource_id: post_id,
        extra: None,
    };
    fan_out(conn, &fact, &[Audience::UserFollowers(author_id), Audience::Person(author_id)]).await
}

/// EXTERNAL_GAME_IMPORTED: one item per sync that created events for
/// imported league games (docs/sync.md), to the followers of the matched
/// teams that got new games; about the season, with `aggregatedData.games`
/// the number of new games. `by` is who the sync acts for.
pub async fn external_game_imported(
    conn: &mut AnyConnection,
    by: &str,
    season_id: &str,
    games: u32,
    team_ids: &[String],
) -> Result<Written> {
    let fact = Fact {
        kind: FeedItemType::ExternalGameImported,
        actor_id: Some(by),
        resource: Resource::Season,
        resource_id: season_id,
        extra: Some(serde_json::json!({ "games": games })),
    };
    let audience: Vec<Audience<'_>> = team_ids.iter().map(|t| Audience::TeamFollowers(t)).collect();
    fan_out(conn, &fact, &audience).await
}
