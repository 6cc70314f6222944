//! Options several scenarios share: how sockets connect, `--baseline`
//! against the floor, and the backend of a node a scenario starts.

use std::net::IpAddr;
use std::time::Duration;

use clap::{Args, ValueEnum};

/// Connection options shared by every scenario.
#[derive(Debug, Clone, Args)]
pub struct NetArgs {
    /// Handshakes in flight at once.
    #[arg(long, default_value_t = 200)]
    pub concurrency: usize,

    /// Source address to connect from (repeat for several). Default: let the
    /// kernel choose, or 127.0.0.1..k when a loopback target needs more than
    /// 25k connections.
    #[arg(long = "source-ip", value_name = "IP")]
    pub source_ips: Vec<IpAddr>,

    /// Seconds between application `ping` frames on idle subscribers
    /// (0 = never; WebSocket-level pings from the server are always answered).
    #[arg(long, default_value_t = 0)]
    pub ping_interval: u64,

    /// Seconds a connection may take to connect and get its snapshot.
    #[arg(long, default_value_t = 60)]
    pub connect_timeout: u64,
}

impl NetArgs {
    pub fn ping_every(&self) -> Option<Duration> {
        (self.ping_interval > 0).then(|| Duration::from_secs(self.ping_interval))
    }

    pub fn timeout(&self) -> Duration {
        Duration::from_secs(self.connect_timeout.max(1))
    }
}

/// `--baseline`: the scenario also runs against a floor server, alternately
/// with Rinkside, in the same invocation.
#[derive(Debug, Clone, Args)]
pub struct BaselineArgs {
    /// Also run against a floor server (`rinkside-loadtest floor`, started
    /// as a child process): Rinkside and the floor take turns, with the same
    /// subscribers, the same changes at the same pace and update frames of
    /// the same bytes, and the report gives the ratios Rinkside / floor.
    #[arg(long)]
    pub baseline: bool,

    /// Rounds per server with --baseline, alternating: Rinkside, floor,
    /// Rinkside, floor, …
    #[arg(long, default_value_t = 2, requires = "baseline")]
    pub rounds: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Database {
    /// A fresh SQLite file in the run's folder.
    Sqlite,
    /// A fresh schema `market_<tag>` of --database-url.
    Postgres,
}
