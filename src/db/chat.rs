//! Team chat (docs/chat.md): conversations named after their roster or
//! event, their messages in `seq` order, members' read marks and mutes, and
//! who the members are.

use super::{flag, new_id};
use sqlx::{Any, AnyConnection, Executor, FromRow};

/// A message with its author as lists show them.
#[derive(Debug, Clone, FromRow)]
pub struct MessageRow {
    pub id: String,
    pub conversation_id: String,
    pub seq: i64,
    pub author_id: Option<String>,
    pub username: Option<String>,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub profile_image: Option<String>,
    pub body: Option<String>,
    pub client_key: Option<String>,
    pub created_at: i64,
    pub edited_at: Option<i64>,
    pub deleted_at: Option<i64>,
}

const MESSAGE: &str = "SELECT m.id, m.conversation_id, m.seq, m.author_id, u.username, u.first_name, u.last_name, \
       u.profile_image, m.body, m.client_key, m.created_at, m.edited_at, m.deleted_at \
     FROM chat_messages m LEFT JOIN users u ON u.id = m.author_id";

pub async fn message<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<Option<MessageRow>, sqlx::Error> {
    let sql = format!("{MESSAGE} WHERE m.id = $1");
    sqlx::query_as(super::dynamic(sql)).bind(id).fetch_optional(ex).await
}

/// The message a person already sent with this key, if any.
pub async fn by_key(conn: &mut AnyConnection, author_id: &str, key: &str) -> Result<Option<MessageRow>, sqlx::Error> {
    let sql = format!("{MESSAGE} WHERE m.author_id = $1 AND m.client_key = $2");
    sqlx::query_as(super::dynamic(sql)).bind(author_id).bind(key).fetch_optional(&mut *conn).await
}

/// Up to `limit` messages before `before` (all when `None`), oldest first.
pub async fn page<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    conversation_id: &str,
    before: Option<i64>,
    limit: i64,
) -> Result<Vec<MessageRow>, sqlx::Error> {
    let sql = format!("{MESSAGE} WHERE m.conversation_id = $1 AND m.seq < $2 ORDER BY m.seq DESC LIMIT $3");
    let mut rows: Vec<MessageRow> = sqlx::query_as(super::dynamic(sql))
        .bind(conversation_id)
        .bind(before.unwrap_or(i64::MAX))
        .bind(limit)
        .fetch_all(ex)
        .await?;
    rows.reverse();
    Ok(rows)
}

/// The conversation's row, made on first use (a conversation is named
/// after what it belongs to: nobody creates it).
async fn ensure(conn: &mut AnyConnection, conversation_id: &str) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO chat_conversations (id) VALUES ($1) ON CONFLICT (id) DO NOTHING")
        .bind(conversation_id)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Posts a message in the caller's transaction: the conversation row if
/// new, the next place and version, the message, and the author's read
/// mark. Answers the message's id, place and the conversation's version.
pub async fn post(
    conn: &mut AnyConnection,
    conversation_id: &str,
    author_id: &str,
    body: &str,
    client_key: Option<&str>,
    now: i64,
) -> Result<(String, i64, i64), sqlx::Error> {
    ensure(&mut *conn, conversation_id).await?;
    let (seq, version): (i64, i64) = sqlx::query_as(
        "UPDATE chat_conversations SET last_seq = last_seq + 1, version = version + 1, last_message_at = $2 \
         WHERE id = $1 RETURNING last_seq, version",
    )
    .bind(conversation_id)
    .bind(now)
    .fetch_one(&mut *conn)
    .await?;
    let id = new_id();
    sqlx::query(
        "INSERT INTO chat_messages (id, conversation_id, seq, author_id, body, client_key, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(&id)
    .bind(conversation_id)
    .bind(seq)
    .bind(author_id)
    .bind(body)
    .bind(client_key)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    read_up_to(&mut *conn, conversation_id, author_id, seq).await?;
    Ok((id, seq, version))
}

/// The conversation's next version (an edit or a delete).
async fn bump(conn: &mut AnyConnection, conversation_id: &str) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("UPDATE chat_conversations SET version = version + 1 WHERE id = $1 RETURNING version")
        .bind(conversation_id)
        .fetch_one(&mut *conn)
        .await
}

/// Replaces a message's body; answers the conversation's new version.
pub async fn edit(
    conn: &mut AnyConnection,
    conversation_id: &str,
    id: &str,
    body: &str,
    now: i64,
) -> Result<i64, sqlx::Error> {
    sqlx::query("UPDATE chat_messages SET body = $2, edited_at = $3 WHERE id = $1")
        .bind(id)
        .bind(body)
        .bind(now)
        .execute(&mut *conn)
        .await?;
    bump(conn, conversation_id).await
}

/// Takes a message's body away; answers the conversation's new version.
pub async fn delete(
    conn: &mut AnyConnection,
    conversation_id: &str,
    id: &str,
    by: &str,
    now: i64,
) -> Result<i64, sqlx::Error> {
    sqlx::query("UPDATE chat_messages SET body = NULL, deleted_at = $2, deleted_by_id = $3 WHERE id = $1")
        .bind(id)
        .bind(now)
        .bind(by)
        .execute(&mut *conn)
        .await?;
    bump(conn, conversation_id).await
}

/// The conversation's version (0 before its first message).
pub async fn version<'e, E: Executor<'e, Database = Any>>(ex: E, conversation_id: &str) -> Result<i64, sqlx::Error> {
    let v: Option<i64> = sqlx::query_scalar("SELECT version FROM chat_conversations WHERE id = $1")
        .bind(conversation_id)
        .fetch_optional(ex)
        .await?;
    Ok(v.unwrap_or(0))
}

/// Moves a person's read mark up to `seq` (never back).
pub async fn read_up_to(
    conn: &mut AnyConnection,
    conversation_id: &str,
    user_id: &str,
    seq: i64,
) -> Result<(), sqlx::Error> {
    ensure(&mut *conn, conversation_id).await?;
    sqlx::query(
        "INSERT INTO chat_marks (conversation_id, user_id, read_seq) VALUES ($1, $2, $3) \
         ON CONFLICT (conversation_id, user_id) DO UPDATE SET read_seq = \
           CASE WHEN excluded.read_seq > chat_marks.read_seq THEN excluded.read_seq ELSE chat_marks.read_seq END",
    )
    .bind(conversation_id)
    .bind(user_id)
    .bind(seq)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// A member's mark: read up to, and muted.
#[derive(Debug, Clone, Copy, Default, FromRow)]
pub struct Mark {
    pub read_seq: i64,
    pub muted: i64,
}

pub async fn mark<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    conversation_id: &str,
    user_id: &str,
) -> Result<Mark, sqlx::Error> {
    let m: Option<Mark> =
        sqlx::query_as("SELECT read_seq, muted FROM chat_marks WHERE conversation_id = $1 AND user_id = $2")
            .bind(conversation_id)
            .bind(user_id)
            .fetch_optional(ex)
            .await?;
    Ok(m.unwrap_or_default())
}

pub async fn set_muted(
    conn: &mut AnyConnection,
    conversation_id: &str,
    user_id: &str,
    muted: bool,
) -> Result<(), sqlx::Error> {
    ensure(&mut *conn, conversation_id).await?;
    sqlx::query(
        "INSERT INTO chat_marks (conversation_id, user_id, muted) VALUES ($1, $2, $3) \
         ON CONFLICT (conversation_id, user_id) DO UPDATE SET muted = excluded.muted",
    )
    .bind(conversation_id)
    .bind(user_id)
    .bind(flag(muted))
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Others' messages after a person's mark, not deleted ([`unread_of`]
/// for one person).
pub async fn unread<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    conversation_id: &str,
    user_id: &str,
) -> Result<i64, sqlx::Error> {
    let counts = unread_of(ex, conversation_id, &[user_id.to_string()]).await?;
    Ok(counts.first().map_or(0, |(_, n)| *n))
}

/// Each of `members`' unread count of the conversation, in one query.
pub async fn unread_of<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    conversation_id: &str,
    members: &[String],
) -> Result<Vec<(String, i64)>, sqlx::Error> {
    if members.is_empty() {
        return Ok(Vec::new());
    }
    let list: Vec<String> = (0..members.len()).map(|i| format!("${}", i + 2)).collect();
    let sql = format!(
        "SELECT u.id, (SELECT COUNT(*) FROM chat_messages m WHERE m.conversation_id = $1 AND m.deleted_at IS NULL \
                        AND (m.author_id IS NULL OR m.author_id <> u.id) AND m.seq > COALESCE(k.read_seq, 0)) \
         FROM users u LEFT JOIN chat_marks k ON k.conversation_id = $1 AND k.user_id = u.id \
         WHERE u.id IN ({})",
        list.join(", ")
    );
    let mut q = sqlx::query_as(super::dynamic(sql)).bind(conversation_id);
    for m in members {
        q = q.bind(m);
    }
    q.fetch_all(ex).await
}

/// The members of a roster's conversation: its players and its team's
/// owner and managers.
pub async fn roster_members<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    roster_id: &str,
) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT user_id FROM roster_players WHERE roster_id = $1 \
         UNION SELECT t.owner_id FROM rosters r JOIN teams t ON t.id = r.team_id WHERE r.id = $1 \
         UNION SELECT m.user_id FROM rosters r JOIN team_managers m ON m.team_id = r.team_id WHERE r.id = $1",
    )
    .bind(roster_id)
    .fetch_all(ex)
    .await
}

/// The members of an event's conversation whose counts and notifications
/// it moves: the people in or waitlisted and its creator. (The rink's
/// staff may read and moderate every event's chat at their rink, but are
/// not told of each message.)
pub async fn event_members<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    event_id: &str,
) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT user_id FROM event_rsvps WHERE event_id = $1 AND status IN ('ATTENDING', 'WAITLISTED') \
         UNION SELECT creator_id FROM events WHERE id = $1",
    )
    .bind(event_id)
    .fetch_all(ex)
    .await
}

/// Whether a person is in or waitlisted for an event.
pub async fn is_going<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    event_id: &str,
    user_id: &str,
) -> Result<bool, sqlx::Error> {
    let n: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM event_rsvps WHERE event_id = $1 AND user_id = $2 \
           AND status IN ('ATTENDING', 'WAITLISTED')",
    )
    .bind(event_id)
    .bind(user_id)
    .fetch_one(ex)
    .await?;
    Ok(n > 0)
}

/// One of a person's conversations, before its counts.
#[derive(Debug, Clone, FromRow)]
pub struct ConversationRow {
    pub id: String,
    pub kind: String,
    pub subject_id: String,
    pub title: String,
    pub starts_at: Option<i64>,
    pub last_message_at: Option<i64>,
}

/// A person's conversations: their rosters not archived (as a player or
/// their team's staff) and the events from `since` on that they are in,
/// waitlisted for, or created; newest message first.
pub async fn of_person<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    user_id: &str,
    since: i64,
) -> Result<Vec<ConversationRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT x.id, x.kind, x.subject_id, x.title, x.starts_at, c.last_message_at FROM ( \
           SELECT 'roster-' || r.id AS id, 'ROSTER' AS kind, r.id AS subject_id, r.name AS title, \
             CAST(NULL AS BIGINT) AS starts_at \
           FROM rosters r JOIN teams t ON t.id = r.team_id \
           WHERE r.status <> 'ARCHIVED' AND (t.owner_id = $1 \
             OR EXISTS (SELECT 1 FROM roster_players p WHERE p.roster_id = r.id AND p.user_id = $1) \
             OR EXISTS (SELECT 1 FROM team_managers m WHERE m.team_id = t.id AND m.user_id = $1)) \
           UNION ALL \
           SELECT 'event-' || e.id, 'EVENT', e.id, e.title, e.start_date \
           FROM events e \
           WHERE e.start_date >= $2 AND e.cancelled_at IS NULL AND (e.creator_id = $1 \
             OR EXISTS (SELECT 1 FROM event_rsvps v WHERE v.event_id = e.id AND v.user_id = $1 \
                          AND v.status IN ('ATTENDING', 'WAITLISTED')))) x \
         LEFT JOIN chat_conversations c ON c.id = x.id \
         ORDER BY CASE WHEN c.last_message_at IS NULL THEN 1 ELSE 0 END, c.last_message_at DESC, \
           x.starts_at, x.title, x.id \
         LIMIT 200",
    )
    .bind(user_id)
    .bind(since)
    .fetch_all(ex)
    .await
}

/// Who to tell of unread messages now: members' marks (or none yet) that
/// are behind the conversation's last message, not muted, not yet told up
/// to it, whose first unread message is older than `quiet_since`.
#[derive(Debug, Clone, FromRow)]
pub struct Untold {
    pub conversation_id: String,
    pub user_id: String,
    pub unread: i64,
    pub last_seq: i64,
}

/// The unread counts of `members` whose first unread message (by someone
/// else) is at or before `quiet_since` and past what they were told of.
pub async fn untold<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    conversation_id: &str,
    members: &[String],
    quiet_since: i64,
) -> Result<Vec<Untold>, sqlx::Error> {
    if members.is_empty() {
        return Ok(Vec::new());
    }
    let list: Vec<String> = (0..members.len()).map(|i| format!("${}", i + 3)).collect();
    let sql = format!(
        "SELECT $1 AS conversation_id, u.id AS user_id, \
           (SELECT COUNT(*) FROM chat_messages m WHERE m.conversation_id = $1 AND m.deleted_at IS NULL \
              AND (m.author_id IS NULL OR m.author_id <> u.id) AND m.seq > COALESCE(k.read_seq, 0)) AS unread, \
           c.last_seq \
         FROM users u JOIN chat_conversations c ON c.id = $1 \
           LEFT JOIN chat_marks k ON k.conversation_id = $1 AND k.user_id = u.id \
         WHERE u.id IN ({}) AND COALESCE(k.muted, 0) = 0 \
           AND EXISTS (SELECT 1 FROM chat_messages m WHERE m.conversation_id = $1 AND m.deleted_at IS NULL \
                         AND (m.author_id IS NULL OR m.author_id <> u.id) \
                         AND m.seq > COALESCE(k.read_seq, 0) AND m.seq > COALESCE(k.notified_seq, 0) \
                         AND m.created_at <= $2)",
        list.join(", ")
    );
    let mut q = sqlx::query_as(super::dynamic(sql)).bind(conversation_id).bind(quiet_since);
    for m in members {
        q = q.bind(m);
    }
    q.fetch_all(ex).await
}

/// Records that a person was told of messages up to `seq`.
pub async fn told(conn: &mut AnyConnection, conversation_id: &str, user_id: &str, seq: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO chat_marks (conversation_id, user_id, notified_seq) VALUES ($1, $2, $3) \
         ON CONFLICT (conversation_id, user_id) DO UPDATE SET notified_seq = excluded.notified_seq",
    )
    .bind(conversation_id)
    .bind(user_id)
    .bind(seq)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Conversations with a message since `since` (the unread job's candidates).
pub async fn active_since<'e, E: Executor<'e, Database = Any>>(ex: E, since: i64) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT id FROM chat_conversations WHERE last_message_at >= $1").bind(since).fetch_all(ex).await
}
