//! The [`GameStore`] the per-game actors persist through. A batch's rows
//! (`db::games::store`) and the news it makes — a game starting or going
//! final tells its players (`crate::notify`) — commit together: a game
//! batch is one score keeper's tap, so nothing queues behind it. After
//! the commit, the season's and the touched rosters' topics are handed
//! back for the actor to push.

use std::collections::HashMap;

use rinkside_actors::game::GameState;
use rinkside_actors::{BoxFuture, CommitResult, GameCommit, GameStore, ReplyStore, StoreError, StoredReply, Touched};
use tokio::sync::mpsc::UnboundedSender;

use crate::db::games::store::{GameWritten, write};
use crate::db::{Db, command_results, games, now_ms, store_error as other};

/// The persistence of the per-game actors.
pub struct SqlGameStore {
    pub db: Db,
    /// Told the batch key of a commit that wrote notifications (a game
    /// starting or final), after it (`live::notifications::watch`).
    pub notices: Option<UnboundedSender<String>>,
}

async fn commit_game(store: &SqlGameStore, c: GameCommit) -> Result<CommitResult, StoreError> {
    let now = now_ms();
    let mut tx = store.db.begin().await.map_err(other)?;
    let GameWritten { status_before, season_id, changed, rosters } = write(&mut tx, store.db.backend, &c, now).await?;
    let told = match &status_before {
        Some(before) => crate::notify::game_status_changed(
            &mut tx,
            &c.game_id,
            c.new_version,
            before,
            c.status.as_str(),
            (c.home_score, c.away_score),
        )
        .await
        .map_err(other)?,
        None => false,
    };
    tx.commit().await.map_err(other)?;
    if let (true, Some(to)) = (told, &store.notices) {
        let _ = to.send(crate::notify::game_batch(&c.game_id, c.new_version));
    }
    // The season's standings and schedule follow every game change; the
    // touched rosters' documents carry the new stats.
    let season = changed.then_some(Touched::Season(season_id));
    Ok(CommitResult { touched: season.into_iter().chain(rosters.into_iter().map(Touched::Roster)).collect() })
}

impl ReplyStore for SqlGameStore {
    fn find_results(&self, keys: Vec<String>) -> BoxFuture<'_, Result<HashMap<String, StoredReply>, StoreError>> {
        Box::pin(command_results::find_results(&self.db, keys))
    }
}

impl GameStore for SqlGameStore {
    fn load(&self, game_id: String) -> BoxFuture<'_, Result<Option<GameState>, StoreError>> {
        Box::pin(async move { games::load_state(&self.db, &game_id).await })
    }

    fn commit(&self, commit: GameCommit) -> BoxFuture<'_, Result<CommitResult, StoreError>> {
        Box::pin(commit_game(self, commit))
    }
}
