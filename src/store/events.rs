//! The [`EventStore`] the per-event actors persist through: loading an
//! event's aggregate and the people answering a batch (`db::event_store`),
//! and the commit (`db::event_commits`, one transaction per group-commit
//! batch, combined across events). After a commit that wrote a follow-up
//! record, the worker is woken to carry it out; the actor's next batch
//! does not wait for it.

use std::collections::HashMap;
use std::sync::Arc;

use rinkside_actors::event::{EventState, Person};
use rinkside_actors::{BoxFuture, CommitResult, EventCommit, EventStore, ReplyStore, StoreError, StoredReply};

use super::follow_ups::FollowUps;
use crate::db::event_commits::EventWriter;
use crate::db::event_follow_ups::FollowUp;
use crate::db::{Db, command_results, event_store};

/// The persistence of the per-event actors.
pub struct SqlEventStore {
    db: Db,
    writer: EventWriter,
    follow_ups: Arc<FollowUps>,
}

impl SqlEventStore {
    pub fn new(db: Db, follow_ups: Arc<FollowUps>) -> Self {
        SqlEventStore { db, writer: EventWriter::default(), follow_ups }
    }
}

impl ReplyStore for SqlEventStore {
    fn find_results(&self, keys: Vec<String>) -> BoxFuture<'_, Result<HashMap<String, StoredReply>, StoreError>> {
        Box::pin(command_results::find_results(&self.db, keys))
    }
}

impl EventStore for SqlEventStore {
    fn load(&self, event_id: String) -> BoxFuture<'_, Result<Option<EventState>, StoreError>> {
        Box::pin(async move { event_store::load_state(&self.db, &event_id).await })
    }

    fn commit(&self, commit: EventCommit) -> BoxFuture<'_, Result<CommitResult, StoreError>> {
        Box::pin(async move {
            let follows = FollowUp::of(&commit).is_some();
            let result = self.writer.commit(&self.db, commit).await?;
            if follows {
                self.follow_ups.wake();
            }
            Ok(result)
        })
    }

    fn people(&self, user_ids: Vec<String>) -> BoxFuture<'_, Result<HashMap<String, Person>, StoreError>> {
        Box::pin(event_store::people(&self.db, user_ids))
    }
}
