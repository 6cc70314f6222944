//! `notifications` — a person's own notifications (private;
//! `notifications:<userId>` on the bus). The snapshot is the first page
//! and the unread count; every update is one change with the unread count
//! after it: `{"op":"new","notification"}`, `{"op":"read","ids"}` or
//! `{"op":"readAll"}` (docs/notifications.md). Like `feed` it is an item
//! topic: updates are never coalesced, and the client merges by id.

use crate::db::notifications::{self as rows, NotificationRow};
use crate::db::{self, Db};
use crate::domain::NotificationType;
use crate::error::AppError;
use crate::realtime::pusher::Pusher;
use crate::realtime::topics::{Topic, TopicSource};
use futures_util::future::BoxFuture;
use serde::Serialize;
use serde_json::{Value, json};
use std::collections::HashMap;

/// One notification.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Notification {
    pub id: String,
    #[serde(rename = "type")]
    pub kind: NotificationType,
    /// EVENT, ROSTER or GAME: what `resourceId` names and the notification
    /// links to.
    pub resource_type: String,
    pub resource_id: String,
    /// What the screen shows, as of the fact (docs/notifications.md lists
    /// the keys of each type).
    #[schema(value_type = Object)]
    pub data: Value,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: i64,
    /// Null while unread.
    #[serde(with = "crate::time::rfc3339_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub read_at: Option<i64>,
}

impl Notification {
    pub fn from_row(row: NotificationRow) -> Option<Self> {
        Some(Notification {
            kind: NotificationType::parse(&row.kind)?,
            id: row.id,
            resource_type: row.resource_type,
            resource_id: row.resource_id,
            data: serde_json::from_str(&row.payload).unwrap_or(Value::Null),
            created_at: row.created_at,
            read_at: row.read_at,
        })
    }
}

/// A page of a person's notifications and the cursor of the next.
pub async fn page(
    db: &Db,
    user_id: &str,
    before: Option<(i64, String)>,
    unread_only: bool,
    limit: i64,
) -> Result<(Vec<Notification>, Option<String>), AppError> {
    let rows = rows::page(&db.pool, user_id, before, unread_only, limit).await?;
    let (rows, next) = db::finish_page(rows, limit, |r| db::Cursor { at: r.created_at, id: r.id.clone() }.encode());
    Ok((rows.into_iter().filter_map(Notification::from_row).collect(), next))
}

pub struct NotificationsTopic {
    pub db: Db,
}

impl TopicSource for NotificationsTopic {
    fn authorize<'a>(&'a self, viewer: Option<&'a str>, id: &'a str) -> BoxFuture<'a, Result<(), AppError>> {
        // `Topic::parse` makes `notifications` the viewer's own.
        Box::pin(async move {
            if viewer == Some(id) { Ok(()) } else { Err(AppError::forbidden("notifications are their owner's alone")) }
        })
    }

    fn snapshot<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<(i64, Value), AppError>> {
        Box::pin(async move {
            let (items, next) = page(&self.db, id, None, false, db::DEFAULT_PAGE_ROWS).await?;
            let unread = rows::unread_count(&self.db.pool, id).await?;
            Ok((0, json!({"items": items, "nextCursor": next, "unread": unread})))
        })
    }

    fn is_private(&self) -> bool {
        true
    }
}

/// Publishes the notifications one committed write produced, each on its
/// owner's topic with the owner's unread count; only for the people
/// watching on this node, or all of them in a cluster.
pub async fn push_batch(db: &Db, pusher: &Pusher, batch: &str) -> Result<(), AppError> {
    let rows = rows::in_batch(&db.pool, batch).await?;
    let mut unread: HashMap<String, i64> = HashMap::new();
    for row in rows {
        let topic = Topic::notifications(row.user_id.clone());
        if !pusher.is_watched(&topic.bus_name()) {
            continue;
        }
        let count = match unread.get(&row.user_id) {
            Some(n) => *n,
            None => {
                let n = rows::unread_count(&db.pool, &row.user_id).await?;
                unread.insert(row.user_id.clone(), n);
                n
            }
        };
        let Some(n) = Notification::from_row(row) else { continue };
        pusher.publish_item(
            &topic,
            crate::realtime::seq::next(),
            &json!({"op": "new", "notification": n, "unread": count}),
        );
    }
    Ok(())
}

/// Tells the person's open screens that notifications were read (`ids`,
/// or all of them when `None`), with the unread count after it.
pub async fn push_read(db: &Db, pusher: &Pusher, user_id: &str, ids: Option<&[String]>) -> Result<(), AppError> {
    let topic = Topic::notifications(user_id);
    if !pusher.is_watched(&topic.bus_name()) {
        return Ok(());
    }
    let unread = rows::unread_count(&db.pool, user_id).await?;
    let data = match ids {
        Some(ids) => json!({"op": "read", "ids": ids, "unread": unread}),
        None => json!({"op": "readAll", "unread": unread}),
    };
    pusher.publish_item(&topic, crate::realtime::seq::next(), &data);
    Ok(())
}

/// This node's pusher of committed batches (each batch is handed only to
/// the node that committed it, so it is pushed and mailed once): writers (the actors' stores,
/// handlers, the reminder job) send a batch key once their transaction
/// commits; each is pushed in the background, in order.
/// With a mailer (`SMTP_URL`), each batch then goes by mail too.
pub fn watch(
    db: Db,
    pusher: std::sync::Arc<Pusher>,
    mailer: Option<std::sync::Arc<crate::outbound::mail::Mailer>>,
    mut batches: tokio::sync::mpsc::UnboundedReceiver<String>,
) {
    tokio::spawn(async move {
        while let Some(batch) = batches.recv().await {
            if let Err(e) = push_batch(&db, &pusher, &batch).await {
                tracing::warn!(error = %e, batch, "notifications not pushed");
            }
            if let Some(mailer) = &mailer {
                // Off the pushing task: a slow mail server never holds a push.
                let (db, mailer, batch) = (db.clone(), mailer.clone(), batch.clone());
                tokio::spawn(async move {
                    if let Err(e) = crate::notify::mail::send_batch(&mailer, &db, &batch).await {
                        tracing::warn!(error = %e, batch, "notification mails not sent");
                    }
                });
            }
        }
    });
}
