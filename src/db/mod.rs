//! Persistence. One portable schema and one set of queries for SQLite and
//! PostgreSQL through sqlx's `Any` driver (see docs/conventions.md for the
//! column types that make that work). Every query lives in a submodule named
//! after what it stores; handlers never build SQL.

pub mod access;
pub mod availability;
pub mod bills;
pub mod chat;
pub mod check_ins;
pub mod clerk_users;
pub mod command_results;
pub mod demo;
pub mod event_commits;
pub mod event_follow_ups;
pub mod event_store;
pub mod events;
pub mod facilities;
pub mod feed;
pub mod feed_summaries;
pub mod follows;
pub mod games;
pub mod history;
pub mod imported_events;
pub mod invites;
pub mod levels;
pub mod notifications;
pub mod orgs;
pub mod paging;
pub mod positions;
pub mod posts;
pub mod rosters;
pub mod rsvp_rules;
pub mod schedule;
pub mod search;
pub mod seasons;
pub mod series;
pub mod sides;
pub mod spots;
pub mod staff;
pub mod status_owners;
pub mod statuses;
pub mod suggestions;
pub mod sync;
pub mod teams;
pub mod users;
pub mod webhooks;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{Any, AnyConnection, AnyPool, ConnectOptions, Transaction};
use std::ops::{Deref, DerefMut};
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{Mutex, OwnedMutexGuard};

/// A write transaction (`Db::begin`). Use it as a connection (`&mut *tx`);
/// nothing is written unless `commit` is called. On SQLite it also holds
/// this process's write turn until it ends.
pub struct Tx {
    tx: Transaction<'static, Any>,
    _turn: Option<OwnedMutexGuard<()>>,
}

impl Tx {
    pub async fn commit(self) -> Result<(), sqlx::Error> {
        self.tx.commit().await
    }
}

impl Deref for Tx {
    type Target = AnyConnection;
    fn deref(&self) -> &AnyConnection {
        &self.tx
    }
}

impl DerefMut for Tx {
    fn deref_mut(&mut self) -> &mut AnyConnection {
        &mut self.tx
    }
}

/// Which backend `DATABASE_URL` picked. Only a few places care: connection
/// set-up and the migration folder. Queries are the same text on both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    /// Rows per multi-row statement whose rows have `columns` placeholders
    /// each. Group commit writes hundreds of rows per batch: one statement
    /// per chunk instead of one round trip per row. On PostgreSQL a chunk is
    /// a round trip, so chunks are big (well below its 65,535 parameters).
    /// SQLite is in-process, but preparing and binding `$N` placeholders
    /// costs time quadratic in their number (it looks names up in a list;
    /// measured: a quarter of the server's CPU at 2,560 per statement), so
    /// chunks stay near 256 placeholders.
    pub fn rows_per_statement(self, columns: usize) -> usize {
        let placeholders = match self {
            Backend::Sqlite => 256,
            Backend::Postgres => 8192,
        };
        (placeholders / columns.max(1)).max(1)
    }

    /// Rows per multi-row statement written with [`Backend::tuples`]: on
    /// both backends thousands of placeholders, so the group commit's
    /// hundreds of rows go in one statement per table rather than a dozen
    /// (each statement is a round trip to the connection's thread, and
    /// the chain of them is the commit's latency).
    pub fn rows_per_bulk_statement(self, columns: usize) -> usize {
        (BULK_PLACEHOLDERS / columns.max(1)).max(1)
    }

    /// `rows` tuples of `columns` placeholders for a multi-row `VALUES`,
    /// bound in order. On SQLite they are anonymous (`?`): a numbered or
    /// named placeholder (`$N`) is looked up in a list when the statement
    /// is prepared and again when sqlx asks each one's name to bind it,
    /// which is what makes [`Backend::rows_per_statement`] keep `$N`
    /// statements small; `?` has no name, so neither lookup happens. Use
    /// only in statements with no other placeholders.
    pub fn tuples(self, rows: usize, columns: usize) -> String {
        match self {
            Backend::Sqlite => {
                let tuple = format!("({})", vec!["?"; columns].join(", "));
                vec![tuple; rows].join(", ")
            }
            Backend::Postgres => value_tuples(rows, columns),
        }
    }

    /// `count` placeholders for an `IN (…)` list, anonymous on SQLite as
    /// for [`Backend::tuples`], with the same proviso.
    pub fn list(self, count: usize) -> String {
        match self {
            Backend::Sqlite => vec!["?"; count].join(", "),
            Backend::Postgres => placeholder_list(1, count),
        }
    }
}

/// Placeholders in one statement built with [`Backend::tuples`] (SQLite
/// allows 32,766, PostgreSQL 65,535).
const BULK_PLACEHOLDERS: usize = 8192;

/// The shared pool plus which backend it talks to.
#[derive(Clone, Debug)]
pub struct Db {
    pub pool: AnyPool,
    pub backend: Backend,
    /// SQLite has one writer at a time. Writers take turns here, in
    /// arrival order, instead of in SQLite's busy handler, which sleeps
    /// 1–100 ms between retries: with a hundred event actors committing at
    /// once that sleeping, not the writing, capped throughput.
    write_turn: Arc<Mutex<()>>,
}

static SQLITE_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/sqlite");
static POSTGRES_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/postgres");

impl Db {
    /// Connects (creating the SQLite file and its folder on first start).
    /// `max_connections`: the pool size (default 8 on SQLite, 16 on PostgreSQL).
    pub async fn connect(url: &str, max_connections: Option<u32>) -> anyhow::Result<Self> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Backend::Postgres
        } else {
            anyhow::bail!("DATABASE_URL must start with sqlite: or postgres:");
        };
        let url = match backend {
            Backend::Sqlite => sqlite_url_with_create(url)?,
            Backend::Postgres => url.to_string(),
        };
        let options = AnyConnectOptions::from_str(&url)?
            .log_slow_statements(tracing::log::LevelFilter::Warn, Duration::from_millis(500));
        let pool = AnyPoolOptions::new()
            // SQLite has one writer at a time; a few connections serve reads
            // while the actors group-commit writes.
            .max_connections(max_connections.unwrap_or(match backend {
                Backend::Sqlite => 8,
                Backend::Postgres => 16,
            }))
            .acquire_timeout(Duration::from_secs(10))
            .after_connect(move |conn, _meta| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        // WAL + NORMAL survives a killed process; busy_timeout
                        // makes concurrent writers wait instead of failing.
                        sqlx::raw_sql(
                            "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; \
                             PRAGMA foreign_keys=ON; PRAGMA busy_timeout=10000;",
                        )
                        .execute(&mut *conn)
                        .await?;
                    }
                    Ok(())
                })
            })
            .connect_with(options)
            .await?;
        Ok(Db { pool, backend, write_turn: Arc::new(Mutex::new(())) })
    }

    /// Applies pending migrations for this backend.
    pub async fn migrate(&self) -> anyhow::Result<()> {
        let migrator = match self.backend {
            Backend::Sqlite => &SQLITE_MIGRATIONS,
            Backend::Postgres => &POSTGRES_MIGRATIONS,
        };
        migrator.run(&self.pool).await?;
        Ok(())
    }

    /// Starts a write transaction. On SQLite it takes the write lock up front
    /// (`BEGIN IMMEDIATE`): a deferred transaction that reads first and then
    /// writes fails with SQLITE_BUSY_SNAPSHOT when another writer committed in
    /// between, and busy_timeout cannot retry that.
    pub async fn begin(&self) -> Result<Tx, sqlx::Error> {
        match self.backend {
            Backend::Sqlite => {
                let turn = self.write_turn.clone().lock_owned().await;
                let tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
                Ok(Tx { tx, _turn: Some(turn) })
            }
            Backend::Postgres => Ok(Tx { tx: self.pool.begin().await?, _turn: None }),
        }
    }

    /// True once the database answers a trivial query.
    pub async fn ping(&self) -> bool {
        sqlx::query("SELECT 1").execute(&self.pool).await.is_ok()
    }
}

/// Makes sure the SQLite file can be created: `mode=rwc` and an existing
/// parent folder.
fn sqlite_url_with_create(url: &str) -> anyhow::Result<String> {
    let rest = url.trim_start_matches("sqlite://").trim_start_matches("sqlite:");
    let path = rest.split('?').next().unwrap_or_default();
    if path.is_empty() || path == ":memory:" {
        anyhow::bail!("use a file for SQLite (sqlite://data/rinkside.db)");
    }
    if let Some(parent) = std::path::Path::new(path).parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)?;
    }
    Ok(if url.contains("mode=") {
        url.to_string()
    } else if url.contains('?') {
        format!("{url}&mode=rwc")
    } else {
        format!("{url}?mode=rwc")
    })
}

/// Marks SQL text assembled from compile-time pieces (table and column names
/// chosen by our own enums, placeholder lists) as safe: user input only ever
/// travels as bound parameters.
pub fn dynamic(sql: String) -> sqlx::AssertSqlSafe<String> {
    sqlx::AssertSqlSafe(sql)
}

/// `($1, $2), ($3, $4), …`: `rows` tuples of `columns` placeholders each, for
/// a multi-row `VALUES` list.
pub fn value_tuples(rows: usize, columns: usize) -> String {
    (0..rows)
        .map(|r| {
            let cols: Vec<String> = (1..=columns).map(|c| format!("${}", r * columns + c)).collect();
            format!("({})", cols.join(", "))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// `$first, $first+1, …`: `count` placeholders for an `IN (…)` list.
pub fn placeholder_list(first: usize, count: usize) -> String {
    (first..first + count).map(|i| format!("${i}")).collect::<Vec<_>>().join(", ")
}

/// A new id: UUIDv7, so ids sort by creation time (useful for keyset paging).
pub fn new_id() -> String {
    uuid::Uuid::now_v7().to_string()
}

/// A database error as the actors' stores report it.
pub fn store_error(e: impl std::fmt::Display) -> rinkside_actors::StoreError {
    rinkside_actors::StoreError::Other(e.to_string())
}

/// Now, as stored: epoch milliseconds UTC.
pub fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

pub use paging::{
    Cursor, DEFAULT_PAGE_ROWS, MAX_PAGE_ROWS, Order, checked_page_limit, finish_page, keyset, page_limit,
};

pub fn flag(b: bool) -> i64 {
    i64::from(b)
}

/// Whether a write failed on a UNIQUE constraint (a racing duplicate).
pub fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.kind() == sqlx::error::ErrorKind::UniqueViolation)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `db/` is only queries: what a fact means for the feed,
    /// notifications, the sub market or the live topics is decided above
    /// it (`crate::store` and the callers), never from inside a query
    /// module (issue 27).
    #[test]
    fn db_modules_import_nothing_from_the_layers_above() {
        const ABOVE: [&str; 8] = ["feed", "notify", "market", "realtime", "api", "live", "store", "commands"];
        fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
            for entry in std::fs::read_dir(dir).unwrap().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    rust_files(&path, out);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    out.push(path);
                }
            }
        }
        let mut files = Vec::new();
        rust_files(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/db"), &mut files);
        assert!(files.len() > 20, "found the db modules");
        let mut reaching_up = Vec::new();
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            for (n, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                let mut names: Vec<&str> = Vec::new();
                for (i, _) in code.match_indices("crate::") {
                    let rest = &code[i + "crate::".len()..];
                    // `crate::{feed, notify}` names several at once.
                    let rest = rest.strip_prefix('{').unwrap_or(rest);
                    names.extend(rest.split([',', '}', ';']).map(|n| n.trim().split("::").next().unwrap_or("")));
                }
                if let Some(name) = names.into_iter().find(|n| ABOVE.contains(n)) {
                    reaching_up.push(format!("{}:{}: crate::{name}", file.display(), n + 1));
                }
            }
        }
        assert!(reaching_up.is_empty(), "db/ reaches up:\n{}", reaching_up.join("\n"));
    }

    #[test]
    fn statements_hold_at_least_one_row_and_few_placeholders_on_sqlite() {
        assert_eq!(Backend::Sqlite.rows_per_statement(10), 25);
        assert_eq!(Backend::Sqlite.rows_per_statement(1000), 1);
        assert_eq!(Backend::Postgres.rows_per_statement(4), 2048);
    }

    #[test]
    fn bulk_tuples_are_anonymous_on_sqlite_and_numbered_on_postgres() {
        assert_eq!(Backend::Sqlite.tuples(2, 3), "(?, ?, ?), (?, ?, ?)");
        assert_eq!(Backend::Postgres.tuples(2, 2), "($1, $2), ($3, $4)");
        assert_eq!(Backend::Sqlite.rows_per_bulk_statement(10), 819);
        assert_eq!((Backend::Sqlite.list(3).as_str(), Backend::Postgres.list(2).as_str()), ("?, ?, ?", "$1, $2"));
    }

    #[test]
    fn value_tuples_number_placeholders_row_by_row() {
        assert_eq!(value_tuples(2, 3), "($1, $2, $3), ($4, $5, $6)");
        assert_eq!(placeholder_list(3, 2), "$3, $4");
        assert_eq!(value_tuples(0, 3), "");
    }

    #[test]
    fn cursor_round_trips_and_rejects_garbage() {
        let c = Cursor { at: 42, id: "0190ab-cd.ef".into() };
        assert_eq!(Cursor::parse(&c.encode()), Some(c));
        assert_eq!(Cursor::parse("nope"), None);
        assert_eq!(Cursor::parse("x_1"), None);
        // Not an id of ours: a forged cursor.
        assert_eq!(Cursor::parse("12_"), None);
        assert_eq!(Cursor::parse("12_a b"), None);
        assert_eq!(Cursor::parse("12_abc_def"), None);
    }

    #[test]
    fn a_page_holds_1_to_100_rows_and_20_unless_asked() {
        assert_eq!(checked_page_limit(None), Ok(20));
        assert_eq!(checked_page_limit(Some(1)), Ok(1));
        assert_eq!(checked_page_limit(Some(100)), Ok(100));
        for bad in [-1, 0, 101, i64::MIN, i64::MAX] {
            assert_eq!(checked_page_limit(Some(bad)), Err("must be between 1 and 100".to_string()), "{bad}");
        }
        assert_eq!(page_limit(Some(-1)), 1, "the lenient form still clamps");
    }

    #[test]
    fn sqlite_url_gets_create_mode() {
        let url = sqlite_url_with_create("sqlite:///tmp/rinkside-test-url/x.db").unwrap();
        assert!(url.ends_with("?mode=rwc"));
    }
}
