//! Posts: a person's own short texts, shown on their profile and in their
//! followers' feeds (POST_CREATED, `crate::feed`).

use super::{dynamic, flag, new_id, now_ms};
use sqlx::{Any, Executor, FromRow};

#[derive(Debug, Clone, FromRow)]
pub struct PostRow {
    pub id: String,
    pub content: String,
    pub author_id: String,
    pub created_at: i64,
    pub updated_at: i64,
}

const COLUMNS: &str = "p.id, p.content, p.author_id, p.created_at, p.updated_at";

pub async fn insert<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    author_id: &str,
    content: &str,
) -> Result<String, sqlx::Error> {
    let id = new_id();
    sqlx::query("INSERT INTO posts (id, content, author_id, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)")
        .bind(&id)
        .bind(content)
        .bind(author_id)
        .bind(now_ms())
        .execute(ex)
        .await?;
    Ok(id)
}

/// A post whose author's account still exists.
pub async fn get<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<Option<PostRow>, sqlx::Error> {
    let sql = format!(
        "SELECT {COLUMNS} FROM posts p JOIN users u ON u.id = p.author_id WHERE p.id = $1 AND u.deleted_at IS NULL"
    );
    sqlx::query_as(dynamic(sql)).bind(id).fetch_optional(ex).await
}

/// New text; `updated_at` moves forward even within one millisecond.
pub async fn update<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str, content: &str) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE posts SET content = $2, \
           updated_at = CASE WHEN $3 > updated_at THEN $3 ELSE updated_at + 1 END WHERE id = $1",
    )
    .bind(id)
    .bind(content)
    .bind(now_ms())
    .execute(ex)
    .await?;
    Ok(())
}

pub async fn delete<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM posts WHERE id = $1").bind(id).execute(ex).await?;
    Ok(())
}

/// A person's posts, newest first by `(created_at, id)`, keyset-paged
/// before `(at, id)`.
pub async fn by_author<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    author_id: &str,
    before: Option<(i64, String)>,
    limit: i64,
) -> Result<Vec<PostRow>, sqlx::Error> {
    let page_start = crate::db::keyset("p.created_at", "p.id", crate::db::Order::NewestFirst, 2);
    let sql = format!(
        "SELECT {COLUMNS} FROM posts p WHERE p.author_id = $1 \
           AND {page_start} \
         ORDER BY p.created_at DESC, p.id DESC LIMIT $5"
    );
    sqlx::query_as(dynamic(sql))
        .bind(author_id)
        .bind(flag(before.is_some()))
        .bind(before.as_ref().map(|b| b.0).unwrap_or(0))
        .bind(before.map(|b| b.1).unwrap_or_default())
        .bind(limit + 1)
        .fetch_all(ex)
        .await
}
