//! Command-id idempotency, shared by both kinds of actor: a command's reply
//! is stored in the same transaction as its effects, so a retry answers the
//! first reply even after a restart or on another node.

use super::{Backend, Db, dynamic, flag, store_error as other};
use rinkside_actors::{StoreError, StoredReply};
use sqlx::AnyConnection;
use std::collections::HashMap;

/// Stored replies for these command keys.
pub async fn find_results(db: &Db, keys: Vec<String>) -> Result<HashMap<String, StoredReply>, StoreError> {
    if keys.is_empty() {
        return Ok(HashMap::new());
    }
    let sql = format!(
        "SELECT key, ok, body, fingerprint FROM command_results WHERE key IN ({})",
        db.backend.list(keys.len())
    );
    let mut q = sqlx::query_as::<_, (String, i64, String, Option<String>)>(dynamic(sql));
    for k in &keys {
        q = q.bind(k);
    }
    let rows = q.fetch_all(&db.pool).await.map_err(other)?;
    Ok(rows
        .into_iter()
        .filter_map(|(key, ok, body, fingerprint)| {
            let reply = serde_json::from_str(&body).ok()?;
            Some((key, StoredReply { ok: ok != 0, reply, fingerprint }))
        })
        .collect())
}

/// Inserts command results; a key that exists means the same command raced
/// in on another node: the whole batch conflicts and is decided again.
pub async fn insert_results(
    conn: &mut AnyConnection,
    backend: Backend,
    results: &[&rinkside_actors::CommandResult],
    now: i64,
) -> Result<(), StoreError> {
    for chunk in results.chunks(backend.rows_per_bulk_statement(5)) {
        let sql = format!(
            "INSERT INTO command_results (key, ok, body, created_at, fingerprint) VALUES {} ON CONFLICT (key) DO NOTHING",
            backend.tuples(chunk.len(), 5)
        );
        let mut q = sqlx::query(dynamic(sql));
        for r in chunk {
            q = q.bind(&r.key).bind(flag(r.ok)).bind(r.reply.to_string()).bind(now).bind(r.fingerprint.as_deref());
        }
        let inserted = q.execute(&mut *conn).await.map_err(other)?;
        if inserted.rows_affected() != chunk.len() as u64 {
            return Err(StoreError::Conflict);
        }
    }
    Ok(())
}
