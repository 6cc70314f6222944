//! Team chat (docs/chat.md): which conversation an id names, who may read
//! and moderate it, the wire's Message and Conversation, and the pushes
//! that follow a committed change — the conversation's `chat:` topic and
//! each member's own `chats` counts. The writes are `api::chat`'s; the
//! queries `db::chat`'s; the unread notifications `chat::unread`.

pub mod unread;

use crate::db::Db;
use crate::db::chat::{self as rows, ConversationRow, MessageRow};
use crate::error::{AppError, AppResult};
use crate::permissions::{self, Action, Object};
use crate::realtime::pusher::Pusher;
use crate::realtime::topics::Topic;
use crate::summaries::UserSummary;
use serde::Serialize;
use serde_json::json;
use std::sync::Arc;

/// Messages a page (and a snapshot) holds unless asked.
pub const PAGE: i64 = 50;
/// Longest message, in characters after trimming.
pub const MAX_BODY_CHARS: usize = 2_000;
/// Events stay in my list this long after they start.
pub const EVENT_KEPT_MS: i64 = 7 * 24 * 60 * 60 * 1000;

/// What a conversation belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subject {
    Roster(String),
    Event(String),
}

impl Subject {
    /// `roster-{id}` or `event-{id}`; anything else names nothing (404).
    pub fn parse(conversation_id: &str) -> AppResult<Subject> {
        let subject = if let Some(id) = conversation_id.strip_prefix("roster-") {
            Subject::Roster(id.to_string())
        } else if let Some(id) = conversation_id.strip_prefix("event-") {
            Subject::Event(id.to_string())
        } else {
            return Err(AppError::not_found("conversation"));
        };
        match &subject {
            Subject::Roster(id) | Subject::Event(id) if id.is_empty() => Err(AppError::not_found("conversation")),
            _ => Ok(subject),
        }
    }

    pub fn conversation_id(&self) -> String {
        match self {
            Subject::Roster(id) => format!("roster-{id}"),
            Subject::Event(id) => format!("event-{id}"),
        }
    }
}

/// A member's standing in a conversation.
#[derive(Debug, Clone)]
pub struct Access {
    pub subject: Subject,
    /// May delete anyone's message.
    pub moderator: bool,
}

/// May `viewer` read and post in the conversation? 404 when it names
/// nothing, 403 for a non-member.
pub async fn access(db: &Db, viewer: &str, conversation_id: &str) -> AppResult<Access> {
    let subject = Subject::parse(conversation_id)?;
    match &subject {
        Subject::Roster(roster_id) => {
            let r = permissions::relations(db, Some(viewer), Object::Roster(roster_id)).await?;
            if !r.permits(&Action::TalkOnRoster { roster_id }) {
                return Err(AppError::forbidden("only the roster's players and its team's staff are in this chat"));
            }
            let moderator = r.permits(&Action::ModerateRosterChat { roster_id });
            Ok(Access { subject, moderator })
        }
        Subject::Event(event_id) => {
            let r = permissions::relations(db, Some(viewer), Object::Event(event_id)).await?;
            let moderator = r.permits(&Action::OrganiseEvent { event_id });
            if !moderator && !rows::is_going(&db.pool, event_id, viewer).await? {
                return Err(AppError::forbidden(
                    "only the people in or waitlisted and the organisers are in this chat",
                ));
            }
            Ok(Access { subject, moderator })
        }
    }
}

/// The members: who the conversation's counts and notifications go to.
pub async fn members(db: &Db, subject: &Subject) -> AppResult<Vec<String>> {
    Ok(match subject {
        Subject::Roster(id) => rows::roster_members(&db.pool, id).await?,
        Subject::Event(id) => rows::event_members(&db.pool, id).await?,
    })
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Message {
    pub id: String,
    pub conversation_id: String,
    /// Its place: 1, 2, 3… with no gaps, the same for everyone.
    pub seq: i64,
    /// Null when the author's account is gone.
    pub author: Option<UserSummary>,
    /// Null once deleted.
    pub body: Option<String>,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: i64,
    #[serde(with = "crate::time::rfc3339_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub edited_at: Option<i64>,
    #[serde(with = "crate::time::rfc3339_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub deleted_at: Option<i64>,
}

impl From<MessageRow> for Message {
    fn from(r: MessageRow) -> Self {
        Message {
            author: r.author_id.map(|id| UserSummary {
                id,
                username: r.username,
                first_name: r.first_name,
                last_name: r.last_name,
                profile_image: r.profile_image,
            }),
            id: r.id,
            conversation_id: r.conversation_id,
            seq: r.seq,
            body: r.body,
            created_at: r.created_at,
            edited_at: r.edited_at,
            deleted_at: r.deleted_at,
        }
    }
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Conversation {
    /// `roster-{id}` or `event-{id}`.
    pub id: String,
    #[schema(pattern = "^(ROSTER|EVENT)$")]
    pub kind: String,
    pub subject_id: String,
    pub title: String,
    #[serde(with = "crate::time::rfc3339_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub starts_at: Option<i64>,
    pub last_message: Option<Message>,
    pub unread: i64,
    pub muted: bool,
    pub can_moderate: bool,
}

/// The newest message of a conversation, if any.
async fn last_message(db: &Db, conversation_id: &str) -> AppResult<Option<Message>> {
    Ok(rows::page(&db.pool, conversation_id, None, 1).await?.pop().map(Message::from))
}

/// A conversation as `viewer` sees it.
pub async fn conversation(db: &Db, viewer: &str, row: ConversationRow, moderator: bool) -> AppResult<Conversation> {
    let mark = rows::mark(&db.pool, &row.id, viewer).await?;
    Ok(Conversation {
        last_message: last_message(db, &row.id).await?,
        unread: rows::unread(&db.pool, &row.id, viewer).await?,
        muted: mark.muted > 0,
        can_moderate: moderator,
        id: row.id,
        kind: row.kind,
        subject_id: row.subject_id,
        title: row.title,
        starts_at: row.starts_at,
    })
}

/// The title and start of what a conversation belongs to (404 when gone).
pub async fn row_of(db: &Db, subject: &Subject) -> AppResult<ConversationRow> {
    let id = subject.conversation_id();
    let (kind, subject_id, title, starts_at) = match subject {
        Subject::Roster(r) => {
            let facts = crate::db::notifications::roster_facts(&db.pool, r)
                .await?
                .ok_or_else(|| AppError::not_found("roster"))?;
            ("ROSTER", r.clone(), facts.roster_name, None)
        }
        Subject::Event(e) => {
            let event = crate::db::events::get(&db.pool, e).await?.ok_or_else(|| AppError::not_found("event"))?;
            ("EVENT", e.clone(), event.title, Some(event.start_date))
        }
    };
    Ok(ConversationRow { id, kind: kind.into(), subject_id, title, starts_at, last_message_at: None })
}

/// After a committed post, edit or delete: the message to every open
/// screen of the conversation, then each member's count, in the background
/// (the sender's answer does not wait for them).
pub fn changed(db: &Db, pusher: &Arc<Pusher>, subject: Subject, version: i64, message: Message) {
    let conversation_id = subject.conversation_id();
    pusher.publish_item(&Topic::chat(&conversation_id), version, &json!({ "message": message }));
    let (db, pusher) = (db.clone(), pusher.clone());
    tokio::spawn(async move {
        let pushed = async {
            let watching: Vec<String> = members(&db, &subject)
                .await?
                .into_iter()
                .filter(|user| pusher.is_watched(&Topic::chats(user.as_str()).bus_name()))
                .collect();
            push_counts(&db, &pusher, &conversation_id, &watching).await
        };
        if let Err(e) = pushed.await {
            tracing::warn!(error = %e.message(), conversation = conversation_id, "chat counts not pushed");
        }
    });
}

/// `users`' counts of one conversation on their own `chats` topics: the
/// conversation's version and last message read once, every count in one
/// query. Counts pushed after two quick messages may arrive out of order:
/// the frame carries the version, read before the counts, and the newest
/// version wins (docs/chat.md › Live).
pub async fn push_counts(db: &Db, pusher: &Pusher, conversation_id: &str, users: &[String]) -> AppResult<()> {
    if users.is_empty() {
        return Ok(());
    }
    let version = rows::version(&db.pool, conversation_id).await?;
    let last = last_message(db, conversation_id).await?;
    for (user, unread) in rows::unread_of(&db.pool, conversation_id, users).await? {
        let data =
            json!({"conversationId": conversation_id, "version": version, "unread": unread, "lastMessage": last});
        pusher.publish_item(&Topic::chats(user), crate::realtime::seq::next(), &data);
    }
    Ok(())
}

/// A person's conversations, newest message first.
pub async fn list(db: &Db, viewer: &str, now: i64) -> AppResult<Vec<Conversation>> {
    let mut out = Vec::new();
    for row in rows::of_person(&db.pool, viewer, now - EVENT_KEPT_MS).await? {
        let moderator = access(db, viewer, &row.id).await.map(|a| a.moderator).unwrap_or(false);
        out.push(conversation(db, viewer, row, moderator).await?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_conversation_id_names_its_roster_or_event_and_nothing_else() {
        assert_eq!(Subject::parse("roster-r1").unwrap(), Subject::Roster("r1".into()));
        assert_eq!(Subject::parse("event-e1").unwrap().conversation_id(), "event-e1");
        for bad in ["roster-", "team-t1", "event", "", "ROSTER-r1"] {
            assert_eq!(Subject::parse(bad).unwrap_err().code(), "not_found", "{bad}");
        }
    }
}
