//! The options of the scenarios that start their own server (or cluster):
//! `market`, `history`, `sync`, `reconnect` and `chaos`.

use clap::Args;

use super::{Database, NetArgs};

/// The node a scenario starts: its backend, and the server binary. Shared
/// by `market` and `history` (flattened, so the flags are theirs).
#[derive(Debug, Args)]
pub struct OwnNodeArgs {
    /// The backend of the node the scenario starts.
    #[arg(long, value_enum, default_value_t = Database::Sqlite)]
    pub database: Database,

    /// PostgreSQL database the run makes a fresh schema in (with
    /// `--database postgres`; dropped at the end unless --keep).
    #[arg(long, default_value = "postgres://postgres@127.0.0.1:5432/test")]
    pub database_url: String,

    /// Pool size of the node (`DATABASE_MAX_CONNECTIONS`; default: the
    /// server's own).
    #[arg(long)]
    pub db_connections: Option<u32>,

    /// Keep the SQLite file or the PostgreSQL schema for inspection.
    #[arg(long)]
    pub keep: bool,

    /// The `rinkside` binary (default: the one next to this program).
    #[arg(long)]
    pub server_bin: Option<std::path::PathBuf>,
}

#[derive(Debug, Args)]
pub struct HistoryArgs {
    #[command(flatten)]
    pub node: OwnNodeArgs,

    /// Use a running server (dev auth, rate limits off) instead of starting
    /// one.
    #[arg(long)]
    pub url: Option<String>,

    /// Where the node's log and SQLite file go (default: a fresh folder in
    /// the temp dir).
    #[arg(long)]
    pub log_dir: Option<std::path::PathBuf>,

    /// History rows to pile up on the long event (seeded in whole rounds,
    /// so a few more).
    #[arg(long, default_value_t = 5_000)]
    pub rows: usize,

    /// People answering (the long event holds a quarter of them).
    #[arg(long, default_value_t = 200)]
    pub users: usize,

    /// Weeks of the series (at most 52), half of them past.
    #[arg(long, default_value_t = 52)]
    pub weeks: usize,

    /// Players answering each week of the series (three drop out).
    #[arg(long, default_value_t = 24)]
    pub week_players: usize,

    /// Timed reads of each first page and of the record.
    #[arg(long, default_value_t = 200)]
    pub reads: usize,

    /// Timed full walks of the long history.
    #[arg(long, default_value_t = 20)]
    pub walks: usize,

    /// Setup requests in flight at once.
    #[arg(long, default_value_t = 16)]
    pub setup_concurrency: usize,
}

#[derive(Debug, Args)]
pub struct MarketArgs {
    #[command(flatten)]
    pub node: OwnNodeArgs,

    /// Use a running server (dev auth, rate limits off) instead of starting
    /// one; the server's CPU is then not watched.
    #[arg(long)]
    pub url: Option<String>,

    /// Where the node's log and SQLite file go (default: a fresh folder in
    /// the temp dir).
    #[arg(long)]
    pub log_dir: Option<std::path::PathBuf>,

    /// Upcoming events to seed, spread over the next five weeks.
    #[arg(long, default_value_t = 5_000)]
    pub events: usize,

    /// Active statuses to seed: the teams' (two per team), the rest two per
    /// person (AVAILABLE_TO_SUB and LOOKING_FOR_TEAM).
    #[arg(long, default_value_t = 10_000)]
    pub statuses: usize,

    /// Teams (each posts RECRUITING and LOOKING_FOR_SUBS).
    #[arg(long, default_value_t = 200)]
    pub teams: usize,

    /// Facilities the events, teams and some persons are at.
    #[arg(long, default_value_t = 5)]
    pub facilities: usize,

    /// Setup requests in flight at once.
    #[arg(long, default_value_t = 32)]
    pub setup_concurrency: usize,

    /// Seconds to wait, after seeding, for the server's CPU to go quiet
    /// (the background pushes of the posts) before measuring.
    #[arg(long, default_value_t = 600)]
    pub quiet_timeout: u64,

    /// Board reads to time (one at a time, filters in rotation).
    #[arg(long, default_value_t = 500)]
    pub board_reads: usize,

    /// `GET /me/matches` reads to time (one at a time, subs in rotation).
    #[arg(long, default_value_t = 100)]
    pub matches_reads: usize,

    /// Subs (AVAILABLE_TO_SUB, GOALIE) with `matches` open on a socket.
    #[arg(long, default_value_t = 1_000)]
    pub subs: usize,

    /// Empty-and-refill rounds of the goalie spot.
    #[arg(long, default_value_t = 3)]
    pub rounds: usize,

    /// Seconds a push may take to reach every sub.
    #[arg(long, default_value_t = 60)]
    pub push_timeout: u64,

    #[command(flatten)]
    pub net: NetArgs,
}

#[derive(Debug, Args)]
pub struct SyncArgs {
    /// The backend of the node the scenario starts.
    #[arg(long, value_enum, default_value_t = Database::Sqlite)]
    pub database: Database,

    /// PostgreSQL database the run makes a fresh schema in (with
    /// `--database postgres`; dropped at the end unless --keep).
    #[arg(long, default_value = "postgres://postgres@127.0.0.1:5432/test")]
    pub database_url: String,

    /// Keep the PostgreSQL schema for inspection.
    #[arg(long)]
    pub keep: bool,

    /// The `rinkside` binary (default: the one next to this program).
    #[arg(long)]
    pub server_bin: Option<std::path::PathBuf>,

    /// Where the node's log and SQLite file go (default: a fresh folder in
    /// the temp dir).
    #[arg(long)]
    pub log_dir: Option<std::path::PathBuf>,

    /// Games in the generated season (six an evening from tomorrow).
    #[arg(long, default_value_t = 2_000)]
    pub games: usize,

    /// Teams in the league; half of them are matched to teams of ours.
    #[arg(long, default_value_t = 40)]
    pub teams: usize,

    /// Syncs of the unchanged source after the first import.
    #[arg(long, default_value_t = 5)]
    pub resyncs: usize,

    /// Games moved an hour before the last sync.
    #[arg(long, default_value_t = 100)]
    pub moved: usize,
}

#[derive(Debug, Args)]
pub struct ReconnectArgs {
    /// Sockets, all from one address.
    #[arg(long, default_value_t = 5_000)]
    pub sockets: usize,

    /// Every socket must be back within this many seconds of the restarted
    /// node answering.
    #[arg(long, default_value_t = 10)]
    pub within: u64,

    /// Handshakes in the flood after the reconnect.
    #[arg(long, default_value_t = 20_000)]
    pub flood: usize,

    /// Handshakes of the flood in flight at once.
    #[arg(long, default_value_t = 200)]
    pub flood_concurrency: usize,

    /// The `rinkside` binary (default: the one next to this program).
    #[arg(long)]
    pub server_bin: Option<std::path::PathBuf>,

    /// Where the node's log and SQLite file go (default: a fresh folder in
    /// the temp dir).
    #[arg(long)]
    pub log_dir: Option<std::path::PathBuf>,
}

#[derive(Debug, Args)]
pub struct ChaosArgs {
    /// Server nodes to start (one is down at a time).
    #[arg(long, default_value_t = 3)]
    pub nodes: usize,

    /// The `rinkside` binary (default: the one next to this program).
    #[arg(long)]
    pub server_bin: Option<std::path::PathBuf>,

    /// PostgreSQL database the run makes a fresh schema in (dropped at the
    /// end unless --keep-schema).
    #[arg(long, default_value = "postgres://postgres@127.0.0.1:5432/test")]
    pub database_url: String,

    /// Keep the schema (`chaos_<tag>`) for inspection.
    #[arg(long)]
    pub keep_schema: bool,

    /// Pool size of each node (`DATABASE_MAX_CONNECTIONS`): keep it small
    /// on a shared PostgreSQL.
    #[arg(long, default_value_t = 5)]
    pub db_connections: u32,

    /// An existing Redis to use. Default: start a private `redis-server`.
    /// CAUTION: the drops run `CLIENT KILL TYPE pubsub`, which disconnects
    /// every subscriber of that Redis, not only this run's nodes.
    #[arg(long)]
    pub redis_url: Option<String>,

    /// The `redis-server` binary for the private Redis.
    #[arg(long, default_value = "redis-server")]
    pub redis_server: std::path::PathBuf,

    /// Seconds of load (and chaos).
    #[arg(long, default_value_t = 75.0)]
    pub seconds: f64,

    /// Users toggling their RSVPs.
    #[arg(long, default_value_t = 120)]
    pub users: usize,

    /// Events the users answer.
    #[arg(long, default_value_t = 4)]
    pub events: usize,

    /// maxSkaters of every event.
    #[arg(long, default_value_t = 10)]
    pub skaters: u32,

    /// maxGoalies of every event.
    #[arg(long, default_value_t = 1)]
    pub goalies: u32,

    /// RSVPs per second over all users.
    #[arg(long, default_value_t = 30.0)]
    pub rsvp_rate: f64,

    /// Goals per second from the score keeper.
    #[arg(long, default_value_t = 2.0)]
    pub goal_rate: f64,

    /// Subscribers per event topic (signed in as the users).
    #[arg(long, default_value_t = 10)]
    pub event_subscribers: usize,

    /// Signed-out subscribers of the game topic.
    #[arg(long, default_value_t = 40)]
    pub game_subscribers: usize,

    /// Seconds between node kills (0 = none); nodes are killed in turn.
    #[arg(long, default_value_t = 15.0)]
    pub kill_every: f64,

    /// Seconds a killed node stays down before it is restarted.
    #[arg(long, default_value_t = 3.0)]
    pub down: f64,

    /// Seconds between Redis connection drops (0 = none).
    #[arg(long, default_value_t = 10.0)]
    pub redis_drop_every: f64,

    /// Seconds after a disruption during which acknowledged changes count
    /// as disrupted (their lag is the reconvergence time).
    #[arg(long, default_value_t = 3.0)]
    pub window: f64,

    /// Seconds, after the load, for the last requests to be answered and
    /// then for the subscribers to converge.
    #[arg(long, default_value_t = 30.0)]
    pub settle: f64,

    /// Where the nodes' logs go (default: a fresh folder in the temp dir).
    #[arg(long)]
    pub log_dir: Option<std::path::PathBuf>,
}
