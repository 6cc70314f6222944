//! `game:ID` — public: the game state of CONTRACT.md (the actors' public
//! document: score, period, status, the log that stands, both rosters with
//! who dressed). Anyone may subscribe, signed out too: arena displays run
//! without an account. Seq is the game's version, the same on every node.

use crate::db::{self, Db};
use crate::error::AppError;
use crate::realtime::topics::TopicSource;
use futures_util::future::BoxFuture;
use rinkside_actors::GameRegistry;

pub struct GameTopic {
    pub db: Db,
    pub games: GameRegistry,
}

/// The current game state: from the live actor when it is at the committed
/// version, else from the database. Another node may have committed since
/// this node's actor last decided; one indexed read tells.
pub async fn current(db: &Db, games: &GameRegistry, id: &str) -> Result<(i64, serde_json::Value), AppError> {
    let committed = db::games::version(&db.pool, id).await?.ok_or_else(|| AppError::not_found("game"))?;
    if let Some((version, doc)) = games.snapshot(id).await
        && version == committed
    {
        return Ok((version, serde_json::to_value(doc).map_err(AppError::internal)?));
    }
    let state = db::games::load_state(db, id)
        .await
        .map_err(|e| AppError::internal(anyhow::anyhow!(e.to_string())))?
        .ok_or_else(|| AppError::not_found("game"))?;
    let doc = state.public_document();
    Ok((doc.version, serde_json::to_value(doc).map_err(AppError::internal)?))
}

impl TopicSource for GameTopic {
    fn authorize<'a>(&'a self, _viewer: Option<&'a str>, id: &'a str) -> BoxFuture<'a, Result<(), AppError>> {
        Box::pin(async move {
            match db::games::get(&self.db.pool, id).await? {
                Some(_) => Ok(()),
                None => Err(AppError::not_found("game")),
            }
        })
    }

    fn snapshot<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<(i64, serde_json::Value), AppError>> {
        Box::pin(current(&self.db, &self.games, id))
    }
}
