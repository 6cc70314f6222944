//! CHAT_MESSAGE (docs/chat.md › Notifications): messages a member has not
//! read a while after they came reach them by notification — one per
//! person and conversation, replaced while they still have not read it,
//! never in a muted conversation and never for their own messages. Every
//! node ticks with the reminders; the node holding the `chat-unread` lease
//! runs, and a member's `notified_seq` makes each message told at most once.

use actix_web::web;
use serde_json::json;

use crate::chat::{self, Subject};
use crate::db::chat as chats;
use crate::db::notifications::{self as rows, About, NewNotification};
use crate::domain::NotificationType;
use crate::error::AppResult;
use crate::state::AppState;

/// The job's name in `job_leases`.
const JOB: &str = "chat-unread";
const LEASE_MS: i64 = 60_000;
/// A message unread this long is told: someone looking has read it by then.
pub const QUIET_MS: i64 = 30_000;
/// Conversations with a message this recent are looked at.
const RECENT_MS: i64 = 24 * 60 * 60 * 1000;
/// The preview's length, in characters.
const PREVIEW_CHARS: usize = 120;

/// Starts this node's ticks (with the reminders' period; none when 0).
pub fn spawn(state: web::Data<AppState>) {
    let tick = state.config.reminder_tick;
    if tick.is_zero() {
        return;
    }
    let owner = crate::db::new_id();
    tokio::spawn(async move {
        let mut every = tokio::time::interval(tick);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            every.tick().await;
            if let Err(e) = run(&state, &owner).await {
                tracing::warn!(error = %e.message(), "chat unread tick failed");
            }
        }
    });
}

/// One tick: with the lease, tells every member of a recent conversation
/// who has messages unread for [`QUIET_MS`]; returns how many were told.
pub async fn run(state: &AppState, owner: &str) -> AppResult<u64> {
    let now = (state.clock)();
    if !rows::take_lease(&state.db.pool, JOB, owner, now, now + LEASE_MS).await? {
        return Ok(0);
    }
    let batch = crate::notify::new_batch();
    let mut told = 0;
    let mut tx = state.db.begin().await?;
    for conversation_id in chats::active_since(&state.db.pool, now - RECENT_MS).await? {
        let subject = Subject::parse(&conversation_id)?;
        let members = chat::members(&state.db, &subject).await?;
        let untold = chats::untold(&state.db.pool, &conversation_id, &members, now - QUIET_MS).await?;
        if untold.is_empty() {
            continue;
        }
        let Ok(row) = chat::row_of(&state.db, &subject).await else { continue };
        let Some(last) = chats::page(&state.db.pool, &conversation_id, None, 1).await?.pop() else { continue };
        let from = [last.first_name.as_deref(), last.username.as_deref()].into_iter().flatten().next().unwrap_or("");
        let preview: String = last.body.as_deref().unwrap_or("").chars().take(PREVIEW_CHARS).collect();
        let (about, resource_id) = match &subject {
            Subject::Roster(id) => (About::Roster, id.as_str()),
            Subject::Event(id) => (About::Event, id.as_str()),
        };
        for u in untold {
            let note = NewNotification {
                kind: NotificationType::ChatMessage,
                about,
                resource_id,
                payload: json!({"conversationId": conversation_id, "title": row.title, "from": from,
                                "preview": preview, "unread": u.unread}),
                dedupe_key: Some(format!("CHAT|{conversation_id}")),
            };
            told += rows::replace(&mut tx, &note, std::slice::from_ref(&u.user_id), &batch).await?;
            chats::told(&mut tx, &conversation_id, &u.user_id, u.last_seq).await?;
        }
    }
    tx.commit().await?;
    if told > 0 {
        state.realtime.push_notifications(batch);
    }
    Ok(told)
}
