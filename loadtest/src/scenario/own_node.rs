//! What the scenarios that start their own server share (`market`,
//! `history`, `sync`, `reconnect`, `chaos`): the server binary, the run's
//! folder, a fresh database for the node — a SQLite file in that folder or
//! a schema of its own in a shared PostgreSQL — and, for `market` and
//! `history`, the whole life of one node around the measurement
//! ([`with_own_node`]).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use tracing::{info, warn};

use crate::cli::{Database, OwnNodeArgs};
use crate::cluster::{Cluster, NodeConfig, Schema};

/// The server binary: `given` (`--server-bin`), or the one next to this
/// program (`target/release/rinkside`). It must exist.
pub fn server_binary(given: Option<&PathBuf>) -> Result<PathBuf> {
    let binary = match given {
        Some(b) => b.clone(),
        None => std::env::current_exe().context("locating the load generator")?.with_file_name("rinkside"),
    };
    if !binary.exists() {
        bail!("{} does not exist: build it (cargo build --release -p rinkside) or pass --server-bin", binary.display());
    }
    Ok(binary)
}

/// The run's folder (node logs, SQLite file): `given` (`--log-dir`), or
/// `rinkside-<scenario>-<tag>` in the temp dir.
pub fn run_dir(given: Option<&PathBuf>, scenario: &str, tag: &str) -> PathBuf {
    given.cloned().unwrap_or_else(|| std::env::temp_dir().join(format!("rinkside-{scenario}-{tag}")))
}

/// [`run_dir`], created.
pub fn make_run_dir(given: Option<&PathBuf>, scenario: &str, tag: &str) -> Result<PathBuf> {
    let dir = run_dir(given, scenario, tag);
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    Ok(dir)
}

/// A node's database for one run.
pub struct RunDatabase {
    /// The node's `DATABASE_URL`.
    pub url: String,
    /// `sqlite` or `postgres`, for the report.
    pub label: &'static str,
    /// The PostgreSQL schema (dropped at the end unless kept), or the
    /// SQLite file (removed at the end unless kept).
    store: Store,
}

enum Store {
    Schema(Schema),
    File(PathBuf),
}

impl RunDatabase {
    /// A fresh database of `kind`: `<name>.db` in `dir`, or the schema
    /// `<name>_<tag>` of `postgres`.
    pub fn create(kind: Database, postgres: &str, dir: &Path, name: &str, tag: &str) -> Result<Self> {
        match kind {
            Database::Sqlite => Ok(Self::sqlite(dir, name)),
            Database::Postgres => Self::postgres(postgres, name, tag),
        }
    }

    /// `<name>.db` in `dir` (SQLite creates it).
    pub fn sqlite(dir: &Path, name: &str) -> Self {
        let file = dir.join(format!("{name}.db"));
        Self { url: format!("sqlite://{}", file.display()), label: "sqlite", store: Store::File(file) }
    }

    /// The schema `<name>_<tag>` of the PostgreSQL database at `base`.
    pub fn postgres(base: &str, name: &str, tag: &str) -> Result<Self> {
        let schema = Schema::create(base, name, tag)?;
        info!(schema = %schema.name, "created a fresh schema");
        Ok(Self { url: schema.url.clone(), label: "postgres", store: Store::Schema(schema) })
    }

    /// The schema's name (PostgreSQL only).
    pub fn schema_name(&self) -> Option<&str> {
        match &self.store {
            Store::Schema(s) => Some(&s.name),
            Store::File(_) => None,
        }
    }

    /// Drops the schema unless `keep`; a SQLite file stays.
    pub fn drop_schema(&self, keep: bool) {
        let Store::Schema(schema) = &self.store else { return };
        if keep {
            info!(schema = %schema.name, "kept the schema");
        } else if let Err(e) = schema.drop_now() {
            warn!("dropping schema {}: {e:#}", schema.name);
        }
    }

    /// Drops the schema, or removes the SQLite file (and its `-wal` and
    /// `-shm`), unless `keep`.
    pub fn finish(self, keep: bool) {
        self.drop_schema(keep);
        if let Store::File(file) = &self.store
            && !keep
        {
            for suffix in ["", "-wal", "-shm"] {
                let mut name = file.clone().into_os_string();
                name.push(suffix);
                let _ = std::fs::remove_file(name);
            }
        }
    }
}

/// The node [`with_own_node`] started, as the measurement sees it.
pub struct RunningNode {
    pub url: String,
    pub pid: Option<u32>,
    /// The database's label, for the report.
    pub label: &'static str,
}

/// One node of the scenario's own for the whole run: a fresh database in
/// the run's folder, the node started on it, `measure` run against it, then
/// the node stopped and the database dropped (unless `--keep`) — also on
/// Ctrl-C, which drops the run and with it the node (killed on drop). The
/// node log is kept. Returns what `measure` found and the panics in the
/// node's log.
pub async fn with_own_node<R>(
    args: &OwnNodeArgs,
    log_dir: Option<&PathBuf>,
    scenario: &str,
    tag: &str,
    measure: impl AsyncFnOnce(RunningNode) -> Result<R>,
) -> Result<(R, Vec<String>)> {
    let binary = server_binary(args.server_bin.as_ref())?;
    let log_dir = make_run_dir(log_dir, scenario, tag)?;
    let database = RunDatabase::create(args.database, &args.database_url, &log_dir, scenario, tag)?;
    let config = NodeConfig {
        binary,
        database_url: database.url.clone(),
        redis_url: None,
        db_connections: args.db_connections,
        log_dir: log_dir.clone(),
        env: Vec::new(),
    };
    let result = tokio::select! {
        r = run_node(config, database.label, measure) => r,
        _ = tokio::signal::ctrl_c() => Err(anyhow::anyhow!("interrupted")),
    };
    database.finish(args.keep);
    info!(logs = %log_dir.display(), "node log kept");
    result
}

/// Starts the node, measures, reads the node's panics; the node stops when
/// its cluster drops, before the database goes.
async fn run_node<R>(
    config: NodeConfig,
    label: &'static str,
    measure: impl AsyncFnOnce(RunningNode) -> Result<R>,
) -> Result<(R, Vec<String>)> {
    let cluster = Cluster::start(config, 1).await?;
    let url = cluster.urls()[0].clone();
    let pid = cluster.nodes[0].pid();
    info!(%url, ?pid, database = label, "node up");
    let found = measure(RunningNode { url, pid, label }).await?;
    Ok((found, cluster.panics()))
}
