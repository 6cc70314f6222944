//! A cluster the load generator runs itself, for the `chaos` scenario (and
//! the single node `market` runs): `rinkside serve` nodes as child
//! processes on one PostgreSQL schema (or SQLite file) and one Redis, each on a fixed port so a node killed with SIGKILL comes back
//! at the same address; a fresh schema made (and dropped) with `psql`; a
//! private `redis-server` unless one is given; and the Redis admin command
//! that drops the nodes' connections, spoken in RESP over a plain socket so
//! the load generator needs no Redis client.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tracing::{info, warn};

/// How long a node may take to answer `/healthz` after it is started.
const START_TIMEOUT: Duration = Duration::from_secs(60);
/// How long a Redis admin command may take.
const REDIS_TIMEOUT: Duration = Duration::from_secs(5);

/// A free TCP port on loopback (bound and released; good enough for a
/// test run on one machine).
pub fn free_port() -> Result<u16> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").context("binding a free port")?;
    Ok(listener.local_addr()?.port())
}

/// `base` with `search_path` set to `schema`, as a `postgres://` URL
/// option (how the test suites isolate a run in a shared database).
pub fn schema_url(base: &str, schema: &str) -> String {
    let sep = if base.contains('?') { '&' } else { '?' };
    format!("{base}{sep}options=-c%20search_path%3D{schema}")
}

/// Runs one SQL statement with `psql`.
fn psql(url: &str, sql: &str) -> Result<()> {
    let out = Command::new("psql")
        .args([url, "-v", "ON_ERROR_STOP=1", "-qAtc", sql])
        .env("PGOPTIONS", "-c client_min_messages=warning")
        .output()
        .context("running psql (is the PostgreSQL client installed?)")?;
    if !out.status.success() {
        bail!("psql {sql:?}: {}", String::from_utf8_lossy(&out.stderr).trim());
    }
    Ok(())
}

/// A schema of its own in a shared PostgreSQL database, dropped on
/// [`Schema::drop_now`] unless kept.
pub struct Schema {
    base: String,
    pub name: String,
    pub url: String,
}

impl Schema {
    /// `<prefix>_<tag>` (`chaos_…`, `market_…`): not the `t_`/`c_` prefixes
    /// `make test` sweeps away at its start, so a test run elsewhere cannot
    /// drop it mid-scenario.
    pub fn create(base: &str, prefix: &str, tag: &str) -> Result<Self> {
        let name = format!("{prefix}_{tag}");
        psql(base, &format!("CREATE SCHEMA {name}"))?;
        Ok(Self { base: base.to_owned(), url: schema_url(base, &name), name })
    }

    pub fn drop_now(&self) -> Result<()> {
        psql(&self.base, &format!("DROP SCHEMA IF EXISTS {} CASCADE", self.name))
    }
}

/// How every node is started.
#[derive(Debug, Clone)]
pub struct NodeConfig {
    pub binary: PathBuf,
    pub database_url: String,
    /// `REDIS_URL` (cluster mode); `None` runs a node on its own.
    pub redis_url: Option<String>,
    /// `DATABASE_MAX_CONNECTIONS`: the PostgreSQL server is shared, so small.
    /// `None` leaves the server's default.
    pub db_connections: Option<u32>,
    /// Where each node's stderr goes (`node-<i>.log`, appended across restarts).
    pub log_dir: PathBuf,
    /// More environment for every node (e.g. season sync's settings).
    pub env: Vec<(String, String)>,
}

/// One server node: its port stays the same across restarts.
pub struct Node {
    pub index: usize,
    pub port: u16,
    child: Option<Child>,
    /// Every start of this node, for the report.
    pub starts: u32,
}

impl Node {
    /// A node not yet started, to listen on `port`.
    pub fn new(index: usize, port: u16) -> Self {
        Node { index, port, child: None, starts: 0 }
    }

    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    pub fn is_up(&self) -> bool {
        self.child.is_some()
    }

    /// The running process's id.
    pub fn pid(&self) -> Option<u32> {
        self.child.as_ref().map(Child::id)
    }

    fn log_path(&self, config: &NodeConfig) -> PathBuf {
        config.log_dir.join(format!("node-{}.log", self.index))
    }

    /// Starts the process and waits until `/healthz` answers 200.
    pub async fn start(&mut self, config: &NodeConfig, http: &reqwest::Client) -> Result<Duration> {
        let started = Instant::now();
        self.spawn(config)?;
        let url = format!("{}/healthz", self.base_url());
        loop {
            if healthy(http, &url).await {
                return Ok(started.elapsed());
            }
            if let Some(child) = self.child.as_mut()
                && let Ok(Some(status)) = child.try_wait()
            {
                self.child = None;
                bail!("node {} exited while starting ({status}); see {}", self.index, self.log_path(config).display());
            }
            if started.elapsed() > START_TIMEOUT {
                bail!("node {} not healthy after {START_TIMEOUT:?}", self.index);
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Starts the process without waiting for it (see [`wait_healthy`]).
    pub fn spawn(&mut self, config: &NodeConfig) -> Result<()> {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.log_path(config))
            .with_context(|| format!("opening the log of node {}", self.index))?;
        let mut command = Command::new(&config.binary);
        command.arg("serve").env("BIND", format!("127.0.0.1:{}", self.port)).env("DATABASE_URL", &config.database_url);
        match config.db_connections {
            Some(n) => command.env("DATABASE_MAX_CONNECTIONS", n.to_string()),
            None => command.env_remove("DATABASE_MAX_CONNECTIONS"),
        };
        match &config.redis_url {
            Some(url) => command.env("REDIS_URL", url),
            None => command.env_remove("REDIS_URL"),
        };
        // The generator is thousands of users on one address: the HTTP
        // limits are off unless the scenario's own environment sets them.
        let child = command
            .env("AUTH_MODE", "dev")
            .env("CLIENT_DIST", "/nonexistent")
            .env("HTTP_ADDRESS_RATE_PER_SEC", "0")
            .env("HTTP_USER_RATE_PER_SEC", "0")
            .env("RUST_LOG", std::env::var("CHAOS_NODE_LOG").unwrap_or_else(|_| "warn".into()))
            .envs(config.env.iter().map(|(k, v)| (k, v)))
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .with_context(|| format!("starting {}", config.binary.display()))?;
        self.child = Some(child);
        self.starts += 1;
        Ok(())
    }

    /// SIGKILL (std's `Child::kill`), then reap.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

async fn healthy(http: &reqwest::Client, url: &str) -> bool {
    http.get(url).timeout(Duration::from_secs(2)).send().await.is_ok_and(|r| r.status().is_success())
}

/// Waits until the node at `base_url` answers `/healthz` with 200: how long
/// that took. Runs beside the scenario, so a node slow to come back under
/// load does not hold up the disruptions after it.
pub async fn wait_healthy(http: reqwest::Client, base_url: String) -> Result<Duration> {
    let started = Instant::now();
    let url = format!("{base_url}/healthz");
    while !healthy(&http, &url).await {
        if started.elapsed() > START_TIMEOUT {
            bail!("not healthy after {START_TIMEOUT:?}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Ok(started.elapsed())
}

impl Drop for Node {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The nodes of a run.
pub struct Cluster {
    pub config: NodeConfig,
    pub nodes: Vec<Node>,
    http: reqwest::Client,
}

impl Cluster {
    /// Picks ports and starts every node, the first one alone (it runs the
    /// migrations), then the rest.
    pub async fn start(config: NodeConfig, count: usize) -> Result<Self> {
        std::fs::create_dir_all(&config.log_dir).with_context(|| format!("creating {}", config.log_dir.display()))?;
        let http = reqwest::Client::builder().build().context("http client")?;
        let mut nodes = Vec::with_capacity(count);
        for index in 0..count {
            nodes.push(Node::new(index, free_port()?));
        }
        let mut cluster = Self { config, nodes, http };
        for i in 0..count {
            let took = cluster.nodes[i].start(&cluster.config, &cluster.http).await?;
            info!(node = i, port = cluster.nodes[i].port, ?took, "node up");
        }
        Ok(cluster)
    }

    pub fn urls(&self) -> Vec<String> {
        self.nodes.iter().map(Node::base_url).collect()
    }

    pub async fn restart(&mut self, i: usize) -> Result<Duration> {
        self.nodes[i].start(&self.config, &self.http).await
    }

    /// Starts node `i` again and hands back the wait for its health.
    pub fn respawn(&mut self, i: usize) -> Result<impl std::future::Future<Output = Result<Duration>> + use<>> {
        self.nodes[i].spawn(&self.config)?;
        Ok(wait_healthy(self.http.clone(), self.nodes[i].base_url()))
    }

    /// Lines of the nodes' logs that say something panicked.
    pub fn panics(&self) -> Vec<String> {
        let mut found = Vec::new();
        for node in &self.nodes {
            let path = node.log_path(&self.config);
            let Ok(text) = std::fs::read_to_string(&path) else { continue };
            found.extend(panic_lines(&text).into_iter().map(|l| format!("node {}: {l}", node.index)));
        }
        found
    }
}

/// The lines of a log that report a panic.
pub fn panic_lines(log: &str) -> Vec<String> {
    log.lines().filter(|l| l.contains("panicked at")).map(str::to_owned).collect()
}

/// A `redis-server` of the run's own, so dropping its clients disturbs
/// nobody else's.
pub struct PrivateRedis {
    child: Child,
    pub url: String,
}

impl PrivateRedis {
    pub fn start(binary: &Path) -> Result<Self> {
        let port = free_port()?;
        let child = Command::new(binary)
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
            .stdout(Stdio::null())
            .spawn()
            .with_context(|| format!("starting {}", binary.display()))?;
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            if Instant::now() > deadline {
                bail!("redis-server on port {port} did not start");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Ok(Self { child, url: format!("redis://127.0.0.1:{port}") })
    }
}

impl Drop for PrivateRedis {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A command in RESP (an array of bulk strings).
pub fn resp_command(args: &[&str]) -> Vec<u8> {
    let mut out = format!("*{}\r\n", args.len());
    for a in args {
        let _ = write!(out, "${}\r\n{a}\r\n", a.len());
    }
    out.into_bytes()
}

/// The integer of a RESP integer reply (`:N\r\n`); an error reply
/// (`-ERR …`) is an error.
pub fn parse_integer_reply(reply: &[u8]) -> Result<i64> {
    let text = std::str::from_utf8(reply).context("reply is not UTF-8")?;
    let line = text.split("\r\n").next().unwrap_or_default();
    match line.split_at_checked(1) {
        Some((":", n)) => n.parse().with_context(|| format!("bad integer reply {line:?}")),
        Some(("-", err)) => Err(anyhow!("redis: {err}")),
        _ => Err(anyhow!("unexpected reply {line:?}")),
    }
}

/// `host:port` of a `redis://host:port[/db]` URL.
pub fn redis_addr(url: &str) -> Result<String> {
    let rest = url.strip_prefix("redis://").ok_or_else(|| anyhow!("{url}: only redis:// URLs"))?;
    let hostport = rest.split('/').next().unwrap_or_default();
    let hostport = hostport.rsplit('@').next().unwrap_or_default();
    if hostport.is_empty() {
        bail!("{url}: no host");
    }
    Ok(if hostport.contains(':') { hostport.to_owned() } else { format!("{hostport}:6379") })
}

/// `CLIENT KILL TYPE <kind>` (`pubsub`: the nodes' listeners; `normal`:
/// their publishers): how many connections Redis dropped.
pub async fn redis_kill_clients(url: &str, kind: &str) -> Result<i64> {
    let addr = redis_addr(url)?;
    let exchange = async {
        let mut conn = tokio::net::TcpStream::connect(&addr).await.with_context(|| format!("connecting to {addr}"))?;
        conn.write_all(&resp_command(&["CLIENT", "KILL", "TYPE", kind])).await?;
        let mut buf = vec![0u8; 256];
        let n = conn.read(&mut buf).await?;
        parse_integer_reply(&buf[..n])
    };
    match tokio::time::timeout(REDIS_TIMEOUT, exchange).await {
        Ok(result) => result,
        Err(_) => {
            warn!("redis CLIENT KILL timed out");
            Err(anyhow!("redis CLIENT KILL timed out"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_resp_arrays_of_bulk_strings() {
        assert_eq!(
            resp_command(&["CLIENT", "KILL", "TYPE", "pubsub"]),
            b"*4\r\n$6\r\nCLIENT\r\n$4\r\nKILL\r\n$4\r\nTYPE\r\n$6\r\npubsub\r\n".to_vec()
        );
    }

    #[test]
    fn integer_replies_parse_and_errors_are_errors() {
        assert_eq!(parse_integer_reply(b":3\r\n").unwrap(), 3);
        assert_eq!(parse_integer_reply(b":0\r\n").unwrap(), 0);
        assert!(parse_integer_reply(b"-ERR syntax error\r\n").unwrap_err().to_string().contains("syntax error"));
        assert!(parse_integer_reply(b"+OK\r\n").is_err());
        assert!(parse_integer_reply(b"").is_err());
    }

    #[test]
    fn redis_urls_give_host_and_port() {
        assert_eq!(redis_addr("redis://127.0.0.1:6379").unwrap(), "127.0.0.1:6379");
        assert_eq!(redis_addr("redis://localhost/2").unwrap(), "localhost:6379");
        assert_eq!(redis_addr("redis://:pw@10.0.0.1:7000/0").unwrap(), "10.0.0.1:7000");
        assert!(redis_addr("rediss://x").is_err());
    }

    #[test]
    fn schema_urls_set_the_search_path() {
        assert_eq!(
            schema_url("postgres://postgres@127.0.0.1:5432/test", "chaos_x"),
            "postgres://postgres@127.0.0.1:5432/test?options=-c%20search_path%3Dchaos_x"
        );
        assert!(schema_url("postgres://h/db?sslmode=disable", "s").contains("?sslmode=disable&options="));
    }

    #[test]
    fn panics_are_found_in_node_logs() {
        let log = "WARN something\nthread 'actix-rt|system:0' panicked at src/x.rs:1:2:\nboom\n";
        assert_eq!(panic_lines(log), vec!["thread 'actix-rt|system:0' panicked at src/x.rs:1:2:".to_string()]);
        assert!(panic_lines("all fine\n").is_empty());
    }
}
