//! Notifications by mail (docs/notifications.md › Mail): off unless
//! `SMTP_URL` is set. The node that committed a batch mails its
//! notifications to the people with an address, once, after pushing them;
//! a mail that fails is logged, not retried (the notification itself is in
//! the app).

use crate::db::Db;
use crate::db::notifications::{self as rows, NotificationRow};
use crate::domain::NotificationType;
use crate::outbound::mail::Mailer;
use lettre::message::Mailbox;
use serde_json::Value;

/// Mails the batch's notifications to their people who have an address.
/// Returns how many went.
pub async fn send_batch(mailer: &Mailer, db: &Db, batch: &str) -> Result<usize, sqlx::Error> {
    let mut sent = 0;
    for (row, address) in rows::in_batch_with_address(&db.pool, batch).await? {
        let Ok(to) = address.parse::<Mailbox>() else {
            tracing::warn!(user_id = row.user_id, "a stored mail address does not parse; not mailed");
            continue;
        };
        let (subject, body) = words(&row);
        match mailer.send(to, &subject, body).await {
            Ok(()) => sent += 1,
            Err(e) => tracing::warn!(error = %e, notification = row.id, "notification mail not sent"),
        }
    }
    Ok(sent)
}

/// The subject and text of one notification's mail.
pub fn words(row: &NotificationRow) -> (String, String) {
    let data: Value = serde_json::from_str(&row.payload).unwrap_or(Value::Null);
    let s = |k: &str| data[k].as_str().unwrap_or_default().to_string();
    let n = |k: &str| data[k].as_i64().unwrap_or_default();
    let title = s("title");
    let when = {
        let start = s("startDate");
        let place = data["facilityName"].as_str().or(data["location"].as_str()).unwrap_or_default();
        match (start.is_empty(), place.is_empty()) {
            (true, _) => String::new(),
            (false, true) => format!("Starts {start} (UTC)."),
            (false, false) => format!("Starts {start} (UTC) at {place}."),
        }
    };
    let team = s("teamName");
    let roster = format!("{} ({})", s("rosterName"), s("seasonName"));
    let game = format!("{} vs {}", s("homeName"), s("awayName"));
    let (subject, lead) = match NotificationType::parse(&row.kind) {
        Some(NotificationType::WaitlistPromoted) => {
            (format!("You're in: {title}"), "A spot opened and you moved off the waitlist.".to_string())
        }
        Some(NotificationType::RemovedFromEvent) => {
            (format!("Taken off the list: {title}"), "An organiser removed you from this event.".to_string())
        }
        Some(NotificationType::EventCancelled) => {
            let why = data["reason"].as_str().map(|r| format!(" {r}")).unwrap_or_default();
            (format!("Cancelled: {title}"), format!("This event will not take place.{why}"))
        }
        Some(NotificationType::EventMoved) => (format!("New time or place: {title}"), "The event moved.".to_string()),
        Some(NotificationType::EventReminder) => {
            let m = n("minutesBefore");
            let lead = if m % 60 == 0 { format!("In {} hours", m / 60) } else { format!("In {m} minutes") };
            (format!("{lead}: {title}"), "A reminder of your event.".to_string())
        }
        Some(NotificationType::SubMatch) => {
            (format!("Sub wanted: {title}"), "An event with open places matches your availability to sub.".to_string())
        }
        Some(NotificationType::SidesSet) => {
            let side = if s("side") == "LIGHT" { "Light" } else { "Dark" };
            (
                format!("You're on {side}: {title}"),
                format!("The organiser made the teams: wear {}.", side.to_lowercase()),
            )
        }
        Some(NotificationType::ShortHanded) => {
            let missing =
                (data["missing"]["skaters"].as_i64().unwrap_or(0), data["missing"]["goalies"].as_i64().unwrap_or(0));
            (
                format!("Short {}: {title}", crate::domain::rsvp_rules::missing_in_words(missing)),
                "Below your minimum at the game-day check: a call for subs is up on the sub market.".to_string(),
            )
        }
        Some(NotificationType::AvailabilityNudge) => (
            format!("Are you in? {title}"),
            format!("{} asks who is playing: answer in one tap on the team's page.", s("byName")),
        ),
        Some(NotificationType::AvailabilityReminder) => {
            (format!("Are you in? {title}"), format!("You have not said whether you play for {team}."))
        }
        Some(NotificationType::ChatMessage) => {
            let n = n("unread");
            let many = if n == 1 { "1 new message".to_string() } else { format!("{n} new messages") };
            (format!("{many} in {title}"), format!("{}: {}", s("from"), s("preview")))
        }
        Some(NotificationType::JoinRequestApproved) => {
            (format!("Welcome to {team}"), format!("Your request to join {roster} was approved."))
        }
        Some(NotificationType::JoinRequestRejected) => {
            (format!("Not this time: {team}"), format!("Your request to join {roster} was declined."))
        }
        Some(NotificationType::AddedToRoster) => (format!("You're on {team}"), format!("You were added to {roster}.")),
        Some(NotificationType::GameStarted) => (format!("Puck drop: {game}"), "Your game is live.".to_string()),
        Some(NotificationType::GameFinal) => (
            format!("Final: {} {}, {} {}", s("homeName"), n("homeScore"), s("awayName"), n("awayScore")),
            format!("{game} is over."),
        ),
        None => ("Rinkside".to_string(), String::new()),
    };
    let body = [lead, when, "Open Rinkside to see it.".to_string()]
        .into_iter()
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n\n");
    (subject, body)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(kind: &str, payload: &str) -> NotificationRow {
        NotificationRow {
            id: "n".into(),
            user_id: "u".into(),
            kind: kind.into(),
            resource_type: "EVENT".into(),
            resource_id: "e".into(),
            payload: payload.into(),
            created_at: 0,
            read_at: None,
        }
    }

    #[test]
    fn a_mail_says_what_happened_in_its_subject() {
        let promoted = words(&row(
            "WAITLIST_PROMOTED",
            r#"{"title":"Tuesday pickup","startDate":"2026-12-02T02:30:00.000Z","facilityName":"Maple Arena"}"#,
        ));
        assert_eq!(promoted.0, "You're in: Tuesday pickup");
        assert!(promoted.1.contains("Maple Arena"), "{}", promoted.1);
        let final_score =
            words(&row("GAME_FINAL", r#"{"homeName":"Owls","awayName":"Hawks","homeScore":3,"awayScore":2}"#));
        assert_eq!(final_score.0, "Final: Owls 3, Hawks 2");
        assert_eq!(words(&row("EVENT_REMINDER", r#"{"title":"Skate","minutesBefore":120}"#)).0, "In 2 hours: Skate");
        assert_eq!(
            words(&row("SUB_MATCH", r#"{"title":"Noon skate","open":{"goalies":1}}"#)).0,
            "Sub wanted: Noon skate"
        );
    }
}
