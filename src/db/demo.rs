//! What the demo (crate::demo) asks of the database directly: whether the
//! database is empty, and the demo's latest game.

use sqlx::{Any, Executor};

/// Users in the database (deleted ones too): the demo seeds only an empty one.
pub async fn user_count<'e, E: Executor<'e, Database = Any>>(ex: E) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT COUNT(*) FROM users").fetch_one(ex).await
}

/// The id and season of the latest game at the rinks this dev user owns.
pub async fn latest_game_of_owner<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    owner_clerk_id: &str,
) -> Result<Option<(String, String)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT g.id, g.season_id FROM games g
         JOIN seasons s ON s.id = g.season_id
         JOIN facilities f ON f.id = s.facility_id
         JOIN users u ON u.id = f.owner_id
         WHERE u.clerk_id = $1
         ORDER BY g.created_at DESC LIMIT 1",
    )
    .bind(owner_clerk_id)
    .fetch_optional(ex)
    .await
}
