//! `chat:CONVERSATION_ID` — one conversation's latest messages, for its
//! members (docs/chat.md › Live). Seq is the conversation's `version`,
//! which the database moves on with every post, edit and delete, so it
//! strictly increases whichever node committed. `chats` — a person's own
//! unread counts; its snapshot's seq is 0, so every count after it is
//! delivered whichever node's clock stamped it.

use crate::chat::{self, Message};
use crate::db::Db;
use crate::db::chat as rows;
use crate::error::AppError;
use crate::realtime::topics::TopicSource;
use crate::time::Clock;
use futures_util::future::BoxFuture;
use serde_json::json;

pub struct ChatTopic {
    pub db: Db,
}

impl TopicSource for ChatTopic {
    fn authorize<'a>(&'a self, viewer: Option<&'a str>, id: &'a str) -> BoxFuture<'a, Result<(), AppError>> {
        Box::pin(async move {
            let viewer = viewer.ok_or_else(|| AppError::unauthorized("sign in to follow a conversation"))?;
            chat::access(&self.db, viewer, id).await.map(drop)
        })
    }

    fn snapshot<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<(i64, serde_json::Value), AppError>> {
        Box::pin(async move {
            // The version first: a message committed between the two reads
            // is in the snapshot and comes again as an update, never lost.
            let version = rows::version(&self.db.pool, id).await?;
            let messages: Vec<Message> =
                rows::page(&self.db.pool, id, None, chat::PAGE).await?.into_iter().map(Message::from).collect();
            Ok((version, json!({"conversationId": id, "version": version, "messages": messages})))
        })
    }

    fn is_private(&self) -> bool {
        true
    }
}

pub struct ChatsTopic {
    pub db: Db,
    pub clock: Clock,
}

impl TopicSource for ChatsTopic {
    fn authorize<'a>(&'a self, viewer: Option<&'a str>, id: &'a str) -> BoxFuture<'a, Result<(), AppError>> {
        Box::pin(async move {
            if viewer == Some(id) { Ok(()) } else { Err(AppError::forbidden("unread counts are their owner's alone")) }
        })
    }

    fn snapshot<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<(i64, serde_json::Value), AppError>> {
        Box::pin(async move {
            let list = chat::list(&self.db, id, (self.clock)()).await?;
            let unread: i64 = list.iter().filter(|c| !c.muted).map(|c| c.unread).sum();
            let conversations: Vec<serde_json::Value> =
                list.iter().map(|c| json!({"id": c.id, "unread": c.unread, "muted": c.muted})).collect();
            Ok((0, json!({"unread": unread, "conversations": conversations})))
        })
    }

    fn is_private(&self) -> bool {
        true
    }
}
