//! Svix message ids already processed, so a redelivered webhook is applied once.

use sqlx::AnyConnection;

/// Records the id; false when it was already there (a replay).
pub async fn record(conn: &mut AnyConnection, svix_id: &str, now: i64) -> Result<bool, sqlx::Error> {
    let r = sqlx::query(
        "INSERT INTO webhook_events (svix_id, received_at) VALUES ($1, $2) ON CONFLICT (svix_id) DO NOTHING",
    )
    .bind(svix_id)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    Ok(r.rows_affected() > 0)
}
