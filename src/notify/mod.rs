//! Who is told what happened *to them* (docs/notifications.md): every
//! NotificationType, from the place the fact is decided to the people it
//! concerns. Each function writes in the caller's transaction — the
//! notification commits with its fact or not at all — under a `batch` key;
//! once the transaction commits, the caller hands the key to
//! `Realtime::push_notifications` so open screens get it live.
//!
//! Nobody is told about their own action: an organiser who removes
//! themselves, a manager who puts themselves on a roster.

pub mod mail;
pub mod reminders;

use crate::db::event_follow_ups::FollowUp;
use crate::db::notifications::{self as rows, About, NewNotification};
use crate::domain::NotificationType;
use crate::feed::EventChange;
use crate::time::to_rfc3339;
use serde_json::{Value, json};
use sqlx::AnyConnection;

type Result<T> = std::result::Result<T, sqlx::Error>;

/// A fresh batch key for a write that is not an actor's commit.
pub fn new_batch() -> String {
    crate::db::new_id()
}

/// The batch key of an event actor's commit (the same on a retry of the
/// same batch, so a rolled-back attempt leaves nothing behind under it).
pub fn event_batch(event_id: &str, version: i64) -> String {
    format!("event:{event_id}:{version}")
}

/// The batch key of a game actor's commit.
pub fn game_batch(game_id: &str, version: i64) -> String {
    format!("game:{game_id}:{version}")
}

/// What an event notification shows: its title, start, rink or place.
pub fn event_payload(e: &rows::EventFacts) -> Value {
    json!({
        "title": e.title,
        "startDate": to_rfc3339(e.start_date),
        "facilityName": e.facility_name,
        "location": e.location.clone().or_else(|| e.external_rink.clone()),
        "timezone": e.timezone,
    })
}

fn with(mut base: Value, extra: Value) -> Value {
    if let (Value::Object(b), Value::Object(x)) = (&mut base, extra) {
        b.extend(x);
    }
    base
}

/// What an event actor's commit tells, from its follow-up record: the
/// people promoted from a waitlist, the people an organiser removed, and —
/// when the batch cancelled the event — everyone attending or waitlisted
/// (but its organiser, who cancelled it: the actor's commands do not say
/// who sent them). Returns the batch key when anyone was told.
pub async fn event_commit(conn: &mut AnyConnection, c: &FollowUp) -> Result<Option<String>> {
    if !c.cancelled && c.promoted.is_empty() && c.removed.is_empty() {
        return Ok(None);
    }
    let promoted: Vec<(String, &str)> = c.promoted.iter().map(|(u, p)| (u.clone(), p.as_str())).collect();
    let Some(event) = rows::event_facts(&mut *conn, &c.event_id).await? else { return Ok(None) };
    let batch = event_batch(&c.event_id, c.version);
    let payload = event_payload(&event);
    // Someone removed then promoted again in one batch hears the last.
    for (user_id, position) in &promoted {
        let note = NewNotification {
            kind: NotificationType::WaitlistPromoted,
            about: About::Event,
            resource_id: &c.event_id,
            payload: with(payload.clone(), json!({"position": position})),
            dedupe_key: None,
        };
        rows::insert(&mut *conn, &note, std::slice::from_ref(user_id), &batch).await?;
    }
    let removed: Vec<String> = c.removed.iter().filter(|u| !promoted.iter().any(|(p, _)| p == *u)).cloned().collect();
    if !removed.is_empty() {
        let note = NewNotification {
            kind: NotificationType::RemovedFromEvent,
            about: About::Event,
            resource_id: &c.event_id,
            payload: payload.clone(),
            dedupe_key: None,
        };
        rows::insert(&mut *conn, &note, &removed, &batch).await?;
    }
    if c.cancelled {
        let people = rows::event_people(&mut *conn, &c.event_id, Some(&event.creator_id)).await?;
        let note = NewNotification {
            kind: NotificationType::EventCancelled,
            about: About::Event,
            resource_id: &c.event_id,
            // Why, in the organiser's words (null when they did not say).
            payload: with(payload, json!({"reason": c.cancel_reason})),
            dedupe_key: None,
        };
        rows::insert(&mut *conn, &note, &people, &batch).await?;
    }
    Ok(Some(batch))
}

/// EVENT_MOVED: the time or place changed; everyone attending or
/// waitlisted but the editor. Other changes (limits, a description) are
/// not news to them here. Returns the batch when anyone was told.
pub async fn event_moved(
    conn: &mut AnyConnection,
    by: &str,
    event_id: &str,
    changes: &[EventChange],
) -> Result<Option<String>> {
    let moved: Vec<&str> = changes
        .iter()
        .filter_map(|c| match c {
            EventChange::Time => Some("TIME"),
            EventChange::Place => Some("PLACE"),
            _ => None,
        })
        .collect();
    if moved.is_empty() {
        return Ok(None);
    }
    let Some(event) = rows::event_facts(&mut *conn, event_id).await? else { return Ok(None) };
    let people = rows::event_people(&mut *conn, event_id, Some(by)).await?;
    if people.is_empty() {
        return Ok(None);
    }
    let batch = new_batch();
    let note = NewNotification {
        kind: NotificationType::EventMoved,
        about: About::Event,
        resource_id: event_id,
        payload: with(event_payload(&event), json!({"changes": moved})),
        dedupe_key: None,
    };
    rows::insert(&mut *conn, &note, &people, &batch).await?;
    Ok(Some(batch))
}

/// The dedupe key of SUB_MATCH: one per event per person, however often
/// the event's open places move in and out of matching.
pub fn sub_match_key(event_id: &str) -> String {
    format!("SUB_MATCH|{event_id}")
}

/// SUB_MATCH: an event (new, or with places newly open, or with a new call
/// for subs) matches these people's AVAILABLE_TO_SUB statuses (decided by
/// `market::push::event_changed`). Told once per event per person
/// ([`sub_match_key`]), never to the event's creator, not for a cancelled
/// event, and not to people who turned `subMatches` off. `open` is the
/// places open now (`null` = no limit). Returns the batch when anyone was
/// told for the first time.
pub async fn sub_match(
    conn: &mut AnyConnection,
    event_id: &str,
    subs: &[String],
    open: (Option<i64>, Option<i64>),
) -> Result<Option<String>> {
    if subs.is_empty() {
        return Ok(None);
    }
    let Some(event) = rows::event_facts(&mut *conn, event_id).await? else { return Ok(None) };
    if event.cancelled_at.is_some() {
        return Ok(None);
    }
    let off = rows::sub_matches_off(&mut *conn, subs).await?;
    let to: Vec<String> = subs.iter().filter(|u| **u != event.creator_id && !off.contains(u)).cloned().collect();
    if to.is_empty() {
        return Ok(None);
    }
    let batch = new_batch();
    let note = NewNotification {
        kind: NotificationType::SubMatch,
        about: About::Event,
        resource_id: event_id,
        payload: with(event_payload(&event), json!({"open": {"skaters": open.0, "goalies": open.1}})),
        dedupe_key: Some(sub_match_key(event_id)),
    };
    let written = rows::insert(&mut *conn, &note, &to, &batch).await?;
    Ok((written > 0).then_some(batch))
}

/// The dedupe key of SIDES_SET: one per person per event, replaced when
/// their side changes (re-rolls tell nobody twice).
pub fn sides_key(event_id: &str) -> String {
    format!("SIDES_SET|{event_id}")
}

/// SIDES_SET: these people were put on a side (`moved`: user id, "DARK" or
/// "LIGHT"), not the organiser who did it. Each person's earlier SIDES_SET
/// for the event is replaced, so their list holds the side they have now.
pub async fn sides_set(
    conn: &mut AnyConnection,
    event_id: &str,
    moved: &[(String, &'static str)],
    by: &str,
) -> Result<Option<String>> {
    let Some(event) = rows::event_facts(&mut *conn, event_id).await? else { return Ok(None) };
    let batch = new_batch();
    let mut told = 0;
    for side in ["DARK", "LIGHT"] {
        let to: Vec<String> = moved.iter().filter(|(u, s)| *s == side && u != by).map(|(u, _)| u.clone()).collect();
        if to.is_empty() {
            continue;
        }
        let note = NewNotification {
            kind: NotificationType::SidesSet,
            about: About::Event,
            resource_id: event_id,
            payload: with(event_payload(&event), json!({"side": side})),
            dedupe_key: Some(sides_key(event_id)),
        };
        told += rows::replace(&mut *conn, &note, &to, &batch).await?;
    }
    Ok((told > 0).then_some(batch))
}

/// SHORT_HANDED: the game-day check found the event short of its minimum
/// and posted a call for subs (`missing`: skaters, goalies); told to the
/// organiser once per event and start.
pub async fn short_handed(
    conn: &mut AnyConnection,
    event_id: &str,
    missing: (i64, i64),
    call_id: Option<&str>,
) -> Result<Option<String>> {
    let Some(event) = rows::event_facts(&mut *conn, event_id).await? else { return Ok(None) };
    let batch = new_batch();
    let note = NewNotification {
        kind: NotificationType::ShortHanded,
        about: About::Event,
        resource_id: event_id,
        payload: with(
            event_payload(&event),
            json!({"missing": {"skaters": missing.0, "goalies": missing.1}, "statusId": call_id}),
        ),
        dedupe_key: Some(format!("SHORT_HANDED|{event_id}|{}", event.start_date)),
    };
    let told = rows::insert(&mut *conn, &note, std::slice::from_ref(&event.creator_id), &batch).await?;
    Ok((told > 0).then_some(batch))
}

async fn roster_payload(conn: &mut AnyConnection, roster_id: &str) -> Result<Option<Value>> {
    Ok(rows::roster_facts(&mut *conn, roster_id).await?.map(|r| {
        json!({"teamId": r.team_id, "teamName": r.team_name, "rosterName": r.roster_name, "seasonName": r.season_name})
    }))
}

/// JOIN_REQUEST_APPROVED or JOIN_REQUEST_REJECTED: the requester. The
/// notification is about the roster (an approved requester is on it).
pub async fn join_request_decided(
    conn: &mut AnyConnection,
    requester_id: &str,
    roster_id: &str,
    approved: bool,
) -> Result<Option<String>> {
    let Some(payload) = roster_payload(conn, roster_id).await? else { return Ok(None) };
    let batch = new_batch();
    let note = NewNotification {
        kind: if approved { NotificationType::JoinRequestApproved } else { NotificationType::JoinRequestRejected },
        about: About::Roster,
        resource_id: roster_id,
        payload,
        dedupe_key: None,
    };
    rows::insert(&mut *conn, &note, &[requester_id.to_string()], &batch).await?;
    Ok(Some(batch))
}

/// ADDED_TO_ROSTER: the player a team's staff put on a roster (not when
/// they put themselves on it).
pub async fn added_to_roster(
    conn: &mut AnyConnection,
    by: &str,
    player_id: &str,
    roster_id: &str,
) -> Result<Option<String>> {
    if by == player_id {
        return Ok(None);
    }
    let Some(payload) = roster_payload(conn, roster_id).await? else { return Ok(None) };
    let batch = new_batch();
    let note = NewNotification {
        kind: NotificationType::AddedToRoster,
        about: About::Roster,
        resource_id: roster_id,
        payload,
        dedupe_key: None,
    };
    rows::insert(&mut *conn, &note, &[player_id.to_string()], &batch).await?;
    Ok(Some(batch))
}

/// What a question about availability is about: one game of a roster.
pub struct GameAsked<'a> {
    pub roster_id: &'a str,
    pub game_id: &'a str,
    /// GAME or EVENT (docs/availability.md).
    pub kind: &'a str,
    pub title: &'a str,
    pub starts_at: i64,
    pub time_zone: Option<&'a str>,
    pub place: Option<&'a str>,
    pub opponent: Option<&'a str>,
}

/// AVAILABILITY_NUDGE (`by` asked, at `at`) or AVAILABILITY_REMINDER (the
/// reminders job, `minutes` before): the players who have not answered a
/// game are asked whether they are in. About the roster (its page has the
/// board); told once per nudge, or per reminder offset and start.
pub async fn availability_asked(
    conn: &mut AnyConnection,
    game: &GameAsked<'_>,
    asked: Asked<'_>,
    to: &[String],
    batch: &str,
) -> Result<u64> {
    let Some(roster) = roster_payload(conn, game.roster_id).await? else { return Ok(0) };
    let (kind, extra, dedupe_key) = match asked {
        Asked::Nudge { by_name, at } => (
            NotificationType::AvailabilityNudge,
            json!({"byName": by_name}),
            format!("AVAILABILITY_NUDGE|{}|{}|{at}", game.roster_id, game.game_id),
        ),
        Asked::Reminder { minutes } => (
            NotificationType::AvailabilityReminder,
            json!({"minutesBefore": minutes}),
            format!("AVAILABILITY_REMINDER|{}|{}|{minutes}|{}", game.roster_id, game.game_id, game.starts_at),
        ),
    };
    let about = json!({
        "rosterId": game.roster_id, "gameId": game.game_id, "kind": game.kind, "title": game.title,
        "startDate": to_rfc3339(game.starts_at), "timezone": game.time_zone, "facilityName": game.place,
        "opponent": game.opponent,
    });
    let note = NewNotification {
        kind,
        about: About::Roster,
        resource_id: game.roster_id,
        payload: with(with(roster, about), extra),
        dedupe_key: Some(dedupe_key),
    };
    rows::insert(&mut *conn, &note, to, batch).await
}

/// Who asked about availability.
#[derive(Debug, Clone, Copy)]
pub enum Asked<'a> {
    /// The captain (or a manager), by name, at a moment.
    Nudge { by_name: &'a str, at: i64 },
    /// The reminders job, this many minutes before.
    Reminder { minutes: i64 },
}

/// What a game's status change tells its players: a start (LIVE from
/// SCHEDULED or POSTPONED; not an UNDO of FINAL, which also goes back to
/// LIVE), an end (FINAL, again after such an UNDO, with the new score), or
/// nothing.
pub fn game_news(before: &str, after: &str) -> Option<NotificationType> {
    match (before, after) {
        ("SCHEDULED" | "POSTPONED", "LIVE") => Some(NotificationType::GameStarted),
        (b, "FINAL") if b != "FINAL" => Some(NotificationType::GameFinal),
        _ => None,
    }
}

/// GAME_STARTED (a game going LIVE from SCHEDULED or POSTPONED) or
/// GAME_FINAL (a game becoming FINAL), to the players of both rosters,
/// with the teams and the score. `before` is the game's status before the
/// commit; nothing for any other change (a goal, a period).
pub async fn game_status_changed(
    conn: &mut AnyConnection,
    game_id: &str,
    version: i64,
    before: &str,
    after: &str,
    score: (i64, i64),
) -> Result<bool> {
    let Some(kind) = game_news(before, after) else { return Ok(false) };
    let Some(g) = rows::game_facts(&mut *conn, game_id).await? else { return Ok(false) };
    let players = rows::roster_players(&mut *conn, &[&g.home_roster_id, &g.away_roster_id]).await?;
    if players.is_empty() {
        return Ok(false);
    }
    let note = NewNotification {
        kind,
        about: About::Game,
        resource_id: game_id,
        payload: json!({
            "homeName": g.home_name, "awayName": g.away_name,
            "homeScore": score.0, "awayScore": score.1,
            "scheduledAt": to_rfc3339(g.scheduled_at), "seasonId": g.season_id, "timezone": g.timezone,
        }),
        dedupe_key: None,
    };
    rows::insert(&mut *conn, &note, &players, &game_batch(game_id, version)).await?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_tells_its_start_and_its_end_and_nothing_else() {
        assert_eq!(game_news("SCHEDULED", "LIVE"), Some(NotificationType::GameStarted));
        assert_eq!(game_news("POSTPONED", "LIVE"), Some(NotificationType::GameStarted));
        assert_eq!(game_news("LIVE", "FINAL"), Some(NotificationType::GameFinal));
        assert_eq!(game_news("FINAL", "LIVE"), None, "an UNDO of FINAL is no new start");
        assert_eq!(game_news("LIVE", "LIVE"), None, "a goal");
        assert_eq!(game_news("FINAL", "FINAL"), None);
        assert_eq!(game_news("SCHEDULED", "CANCELLED"), None);
    }
}
