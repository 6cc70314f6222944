//! Command line: one subcommand per scenario, plus the connection options
//! they share.

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};

#[derive(Debug, Parser)]
#[command(
    name = "rinkside-loadtest",
    version,
    about = "Load scenarios against a running Rinkside server (dev auth mode).",
    long_about = "Load scenarios against a running Rinkside server started with AUTH_MODE=dev.\n\
                  Progress goes to stderr (RUST_LOG=debug for more); the report goes to stdout,\n\
                  as text or, with --json, as one JSON object. Exit code: 0 all good, 1 checks\n\
                  failed or connections/deliveries were lost, 2 the scenario could not run."
)]
pub struct Cli {
    #[command(subcommand)]
    pub scenario: Scenario,

    /// Print the report as one JSON object instead of text.
    #[arg(long, global = true)]
    pub json: bool,
}

#[derive(Debug, Subcommand)]
pub enum Scenario {
    /// Open N sockets, subscribe each to a topic, report connect and
    /// subscribe times.
    Connect(ConnectArgs),
    /// N subscribers on one event; change it one RSVP at a time and time the
    /// delivery of each change to every subscriber.
    Fanout(FanoutArgs),
    /// N users RSVP to a small event at the same instant; check nobody is
    /// overbooked and the waitlist is fair.
    Race(RaceArgs),
    /// RSVPs at a steady rate spread over many events; reply latency from
    /// the scheduled send, and the final documents checked.
    Steady(SteadyArgs),
    /// N signed-out displays watch a live game while goals are scored at a
    /// steady rate.
    Scoreboard(ScoreboardArgs),
    /// A game clock on N displays over one or more nodes: every display
    /// syncs its offset by ping/pong, the console starts and stops the
    /// clock; reports the skew between displays and the time from a stop
    /// to every display showing it stopped (with --baseline beside the
    /// floor's bare broadcast of a frame of the same size).
    Clock(ClockArgs),
    /// One author with N followers posts: the post's own latency, time until
    /// the item is in every follower's feed, and until it is pushed to the
    /// subscribed ones.
    Feed(FeedArgs),
    /// The sub market: starts its own node, seeds thousands of events and
    /// statuses, times board and matches reads, then times how fast an
    /// event going short of a goalie reaches every matched sub's socket.
    Market(MarketArgs),
    /// Season sync of a generated league (default 2,000 games): starts its
    /// own node, times the first import, re-syncs of an unchanged source
    /// and a sync with moved games, with each one's SQL statements.
    Sync(SyncArgs),
    /// An arena's phones behind one address after a node restart: starts
    /// its own node with the default rate limits, opens N signed-out sockets
    /// from one address, SIGKILLs and restarts the node, and times how soon
    /// every socket is back with the browser client's backoff; then checks a
    /// flood of handshakes from that address is still refused.
    Reconnect(ReconnectArgs),
    /// Starts its own cluster (PostgreSQL + Redis), runs RSVPs, goals and
    /// subscribers while killing nodes and dropping Redis connections, and
    /// checks nothing acknowledged was lost and every subscriber converged.
    Chaos(ChaosArgs),
    /// Runs the floor until Ctrl-C: a bare tokio-tungstenite broadcast
    /// server speaking the contract's frames (subscribe → snapshot, ping →
    /// pong) with `POST /publish?topic=T&bytes=N` to send an update to every
    /// subscriber. The baseline `fanout --baseline` and `scoreboard
    /// --baseline` compare Rinkside with.
    Floor(FloorArgs),
    /// Fair sides, in process (no server): times `make` on random pickup
    /// nights of 12, 20 and 24 skaters (exhaustive), and measures the
    /// heuristic beyond: against the exhaustive search at 30 skaters and a
    /// lower bound at 40.
    Sides(SidesArgs),
    /// Who dropped late: starts its own node, seeds one event with 5,000
    /// RSVP and waitlist history rows and a 52-week series, then times the
    /// history's first page, a full walk of it, and the series' record
    /// (docs/pickup-night.md).
    History(HistoryArgs),
    /// Team chat: N conversations (events) of M people with K screens open
    /// each (on one node, or two with --url2), messages at a steady rate
    /// from random members; times send → last open screen and checks no
    /// acknowledged message is lost (docs/chat.md).
    Chat(ChatArgs),
    /// One child process's share of `scoreboard --processes`: opens its
    /// displays, says `{"ready":…}` on stdout, reads the goals' marks from
    /// stdin, and reports its deliveries.
    #[command(hide = true)]
    Displays(DisplaysArgs),
}

#[derive(Debug, Args)]
pub struct FloorArgs {
    /// Address to listen on; port 0 picks a free one (printed on start).
    #[arg(long, default_value = "127.0.0.1:0")]
    pub bind: SocketAddr,

    /// Frames a subscriber's queue holds; past that, frames are skipped for
    /// that subscriber until it reads (Rinkside's `WS_MAX_QUEUE` default).
    #[arg(long, default_value_t = 512)]
    pub queue: usize,

    /// Bytes of the game-like document a topic's snapshot carries until
    /// something is published to it.
    #[arg(long, default_value_t = 2_048)]
    pub snapshot_bytes: usize,
}

#[derive(Debug, Args)]
pub struct HistoryArgs {
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
pub struct ChatArgs {
    /// The node messages are posted through (and screens open on).
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    pub url: String,

    /// A second node of the same cluster: every other screen opens there
    /// and every other message is posted there.
    #[arg(long)]
    pub url2: Option<String>,

    /// Conversations (one event each).
    #[arg(long, default_value_t = 1_000)]
    pub conversations: usize,

    /// People in each conversation (its organiser and those in).
    #[arg(long, default_value_t = 20)]
    pub members: usize,

    /// Members of each conversation with it open on a socket.
    #[arg(long, default_value_t = 10)]
    pub open: usize,

    /// Messages per second, across all conversations.
    #[arg(long, default_value_t = 200)]
    pub rate: u32,

    /// Seconds of sending.
    #[arg(long, default_value_t = 30)]
    pub seconds: u64,

    /// Seconds after the last send a delivery may still arrive.
    #[arg(long, default_value_t = 10)]
    pub timeout: u64,

    /// Setup requests in flight at once.
    #[arg(long, default_value_t = 32)]
    pub setup_concurrency: usize,
}

#[derive(Debug, Args)]
pub struct SidesArgs {
    /// Skater counts whose `make` is timed (each night also has --goalies).
    #[arg(long, value_delimiter = ',', default_values_t = vec![12usize, 20, 24])]
    pub sizes: Vec<usize>,

    /// Random nights timed per size.
    #[arg(long, default_value_t = 200)]
    pub nights: usize,

    /// Goalies on every night.
    #[arg(long, default_value_t = 2)]
    pub goalies: usize,

    /// Skaters of the nights where the heuristic is compared with the
    /// exhaustive search (C(30,15)/2 ≈ 78M splits before pruning: about a
    /// second each).
    #[arg(long, default_value_t = 30)]
    pub gap_skaters: usize,

    /// Nights compared at --gap-skaters.
    #[arg(long, default_value_t = 50)]
    pub gap_nights: usize,

    /// Skaters of the nights where the heuristic is compared with a lower
    /// bound (too many for the exhaustive search).
    #[arg(long, default_value_t = 40)]
    pub bound_skaters: usize,

    /// Nights compared at --bound-skaters.
    #[arg(long, default_value_t = 200)]
    pub bound_nights: usize,

    /// Share of player pairs with 1–4 weeks together lately.
    #[arg(long, default_value_t = 0.25)]
    pub together: f64,

    /// Seed of the nights (and of each `make`).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
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

#[derive(Debug, Args)]
pub struct FeedArgs {
    /// The node everything goes through.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    pub url: String,

    /// Followers of the author.
    #[arg(long, default_value_t = 10_000)]
    pub followers: usize,

    /// Of the followers, how many have their feed open on a socket.
    #[arg(long, default_value_t = 1_000)]
    pub subscribed: usize,

    /// Posts, one after another.
    #[arg(long, default_value_t = 5)]
    pub posts: usize,

    /// Seconds a post may take to reach every subscribed follower.
    #[arg(long, default_value_t = 30)]
    pub timeout: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Database {
    /// A fresh SQLite file in the run's folder.
    Sqlite,
    /// A fresh schema `market_<tag>` of --database-url.
    Postgres,
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
pub struct MarketArgs {
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

#[derive(Debug, Args)]
pub struct ConnectArgs {
    /// Server base URL.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    pub url: String,

    /// Sockets to open.
    #[arg(long, default_value_t = 1000)]
    pub connections: usize,

    /// Topic to subscribe to. Default: sign in a dev user, create an event,
    /// and subscribe to `event:ID` with its token.
    #[arg(long)]
    pub topic: Option<String>,

    /// Do not authenticate (needs --topic naming a public `game:`/`season:` topic).
    #[arg(long, requires = "topic")]
    pub anonymous: bool,

    /// Seconds to keep the sockets open and idle after all subscribed
    /// (disconnects in that time are reported).
    #[arg(long, default_value_t = 0)]
    pub hold: u64,

    /// Server process id, to report its RSS before and after.
    #[arg(long)]
    pub server_pid: Option<u32>,

    #[command(flatten)]
    pub net: NetArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PublishVia {
    /// `PUT /api/v1/events/{id}/rsvp`.
    Rest,
    /// An `rsvp` command on a separate WebSocket.
    Ws,
}

#[derive(Debug, Args)]
pub struct FanoutArgs {
    /// Node the subscribers connect to.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    pub url: String,

    /// Subscriber sockets.
    #[arg(long, default_value_t = 10_000)]
    pub subscribers: usize,

    /// Changes to make, one at a time.
    #[arg(long, default_value_t = 50)]
    pub updates: usize,

    /// Node that setup and changes go through (default: --url). With two
    /// nodes sharing Postgres and Redis this measures cross-node fan-out.
    #[arg(long)]
    pub publish_url: Option<String>,

    /// How changes are made.
    #[arg(long, value_enum, default_value_t = PublishVia::Rest)]
    pub publish_via: PublishVia,

    /// Server process id (of the --url node), to report RSS per idle
    /// subscribed connection.
    #[arg(long)]
    pub server_pid: Option<u32>,

    /// Seconds to wait for a change to reach every subscriber.
    #[arg(long, default_value_t = 30)]
    pub update_timeout: u64,

    #[command(flatten)]
    pub baseline: BaselineArgs,

    #[command(flatten)]
    pub net: NetArgs,
}

#[derive(Debug, Args)]
pub struct RaceArgs {
    /// Server base URL.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    pub url: String,

    /// Second node; clients alternate between --url and --url2.
    #[arg(long)]
    pub url2: Option<String>,

    /// Racing users, one socket each.
    #[arg(long, default_value_t = 500)]
    pub clients: usize,

    /// maxSkaters of the event.
    #[arg(long, default_value_t = 10)]
    pub skaters: u32,

    /// maxGoalies of the event.
    #[arg(long, default_value_t = 1)]
    pub goalies: u32,

    /// Share of clients asking as GOALIE (spread evenly over the clients).
    #[arg(long, default_value_t = 0.1)]
    pub goalie_share: f64,

    /// Share of clients who are regulars (spread evenly within each role).
    /// Above 0 the event is the first week of a weekly series, these
    /// clients are on the series' list of regulars, and the series' rules
    /// keep the regulars' window open through the race
    /// (docs/pickup-night.md); 0 is the first-come race.
    #[arg(long, default_value_t = 0.0)]
    pub regulars_share: f64,

    /// Seconds to wait for every reply after the start signal.
    #[arg(long, default_value_t = 60)]
    pub reply_timeout: u64,

    #[command(flatten)]
    pub net: NetArgs,
}

#[derive(Debug, Args)]
pub struct SteadyArgs {
    /// Server base URL.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    pub url: String,

    /// Second node; users alternate between --url and --url2.
    #[arg(long)]
    pub url2: Option<String>,

    /// Events the RSVPs are spread over.
    #[arg(long, default_value_t = 100)]
    pub events: usize,

    /// Users, one command socket each; each sends every `users / rate`
    /// seconds.
    #[arg(long, default_value_t = 1000)]
    pub users: usize,

    /// RSVPs per second over all users (open loop, from a fixed schedule).
    #[arg(long, default_value_t = 5000.0)]
    pub rate: f64,

    /// Seconds to keep the rate up.
    #[arg(long, default_value_t = 10.0)]
    pub seconds: f64,

    /// maxSkaters of every event.
    #[arg(long, default_value_t = 20)]
    pub skaters: u32,

    /// maxGoalies of every event.
    #[arg(long, default_value_t = 2)]
    pub goalies: u32,

    #[command(flatten)]
    pub net: NetArgs,
}

#[derive(Debug, Args)]
pub struct ScoreboardArgs {
    /// Node that setup and goals go through.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    pub url: String,

    /// Node the displays connect to (default: --url); repeat to spread them
    /// round-robin over several nodes.
    #[arg(long)]
    pub subscribe_url: Vec<String>,

    /// Signed-out display sockets watching `game:ID`.
    #[arg(long, default_value_t = 10_000)]
    pub subscribers: usize,

    /// Goals to score.
    #[arg(long, default_value_t = 100)]
    pub goals: usize,

    /// Goals per second (open loop: goals are posted on schedule whether
    /// or not earlier ones have been answered).
    #[arg(long, default_value_t = 5.0)]
    pub rate: f64,

    /// Players created per roster (goals rotate through them as scorers).
    #[arg(long, default_value_t = 3)]
    pub players: usize,

    /// Assists every goal names (0–2): the players after the scorer in the
    /// roster's rotation (needs --players above it).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=2))]
    pub assists: u8,

    /// Process id of a subscribe node, to report RSS per connection; repeat
    /// for several nodes (the displays are spread evenly over them).
    #[arg(long)]
    pub server_pid: Vec<u32>,

    /// Seconds to wait after the last goal for it to reach every display.
    #[arg(long, default_value_t = 30)]
    pub settle_timeout: u64,

    /// Split the displays over this many child processes of this program
    /// (each holds its share of the sockets: one process may open only as
    /// many as its descriptor limit allows). Not with --baseline.
    #[arg(long, default_value_t = 1, conflicts_with = "baseline")]
    pub processes: usize,

    #[command(flatten)]
    pub baseline: BaselineArgs,

    #[command(flatten)]
    pub net: NetArgs,
}

/// The hidden `displays` subcommand: one child process's share of
/// `scoreboard --processes`.
#[derive(Debug, Args)]
pub struct DisplaysArgs {
    /// Node the displays connect to; repeat for several (round-robin).
    #[arg(long = "url", required = true)]
    pub urls: Vec<String>,

    /// The topic, `game:ID`.
    #[arg(long)]
    pub topic: String,

    /// Sockets this process holds.
    #[arg(long)]
    pub count: usize,

    /// Seconds to wait, once told the goals, for the last one to arrive.
    #[arg(long, default_value_t = 30)]
    pub settle_timeout: u64,

    #[command(flatten)]
    pub net: NetArgs,
}

#[derive(Debug, Args)]
pub struct ClockArgs {
    /// Node the displays connect to; repeat for several (displays go
    /// round-robin over them).
    #[arg(long = "url", default_value = "http://127.0.0.1:8080")]
    pub urls: Vec<String>,

    /// Node the console's setup and clock actions go through (default: the
    /// first --url).
    #[arg(long)]
    pub console_url: Option<String>,

    /// Signed-out display sockets on the game.
    #[arg(long, default_value_t = 10_000)]
    pub displays: usize,

    /// Start/stop cycles of the console.
    #[arg(long, default_value_t = 5)]
    pub cycles: usize,

    /// Milliseconds the clock runs in a cycle (from every display having
    /// the start).
    #[arg(long, default_value_t = 3_000)]
    pub run_ms: u64,

    /// Milliseconds the clock stays stopped after every display has the stop.
    #[arg(long, default_value_t = 1_000)]
    pub stopped_ms: u64,

    /// Pings each display sends on connect (docs/game-night.md: three).
    #[arg(long, default_value_t = 3)]
    pub pings: usize,

    /// Milliseconds between those pings.
    #[arg(long, default_value_t = 200)]
    pub ping_gap_ms: u64,

    /// Seconds between a display's pings after them.
    #[arg(long, default_value_t = 15)]
    pub ping_every: u64,

    /// Milliseconds between the instants the skew is sampled at.
    #[arg(long, default_value_t = 100)]
    pub sample_ms: u64,

    /// Every Nth display is made to reconnect after the cycles (0: none);
    /// its skew is then measured again.
    #[arg(long, default_value_t = 10)]
    pub reconnect_every: usize,

    /// Start/stop cycles after the reconnect.
    #[arg(long, default_value_t = 2)]
    pub cycles_after: usize,

    /// Players per roster of the game.
    #[arg(long, default_value_t = 3)]
    pub players: usize,

    /// Seconds a start or stop may take to reach every display.
    #[arg(long, default_value_t = 30)]
    pub update_timeout: u64,

    /// Also run the floor (a child process): the same number of sockets,
    /// one frame of the stop's size per stop, one at a time; the report
    /// gives stop-to-stopped against the floor's time to last.
    #[arg(long)]
    pub baseline: bool,

    #[command(flatten)]
    pub net: NetArgs,
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

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn fanout_parses_its_options() {
        let cli = Cli::try_parse_from([
            "rinkside-loadtest",
            "fanout",
            "--subscribers",
            "200",
            "--updates",
            "5",
            "--publish-url",
            "http://127.0.0.1:8081",
            "--server-pid",
            "42",
            "--source-ip",
            "127.0.0.2",
            "--json",
        ])
        .unwrap();
        assert!(cli.json);
        let Scenario::Fanout(f) = cli.scenario else {
            panic!("not fanout");
        };
        assert_eq!(f.subscribers, 200);
        assert_eq!(f.server_pid, Some(42));
        assert_eq!(f.net.source_ips.len(), 1);
        assert_eq!(f.publish_via, PublishVia::Rest);
    }

    #[test]
    fn chaos_parses_its_options() {
        let cli =
            Cli::try_parse_from(["rinkside-loadtest", "chaos", "--nodes", "2", "--seconds", "10", "--keep-schema"])
                .unwrap();
        let Scenario::Chaos(c) = cli.scenario else {
            panic!("not chaos");
        };
        assert_eq!((c.nodes, c.seconds, c.keep_schema, c.db_connections), (2, 10.0, true, 5));
        assert!(c.redis_url.is_none());
    }

    #[test]
    fn market_parses_its_options() {
        let cli =
            Cli::try_parse_from(["rinkside-loadtest", "market", "--database", "postgres", "--subs", "50"]).unwrap();
        let Scenario::Market(m) = cli.scenario else {
            panic!("not market");
        };
        assert_eq!((m.database, m.subs, m.events, m.statuses), (Database::Postgres, 50, 5_000, 10_000));
        assert!(m.url.is_none());
    }

    #[test]
    fn baseline_is_off_unless_asked_and_rounds_need_it() {
        let Scenario::Fanout(f) = Cli::try_parse_from(["rinkside-loadtest", "fanout"]).unwrap().scenario else {
            panic!("not fanout");
        };
        assert!(!f.baseline.baseline);
        let cli = Cli::try_parse_from([
            "rinkside-loadtest",
            "scoreboard",
            "--baseline",
            "--subscribers",
            "2000",
            "--goals",
            "10",
        ])
        .unwrap();
        let Scenario::Scoreboard(s) = cli.scenario else {
            panic!("not scoreboard");
        };
        assert!(s.baseline.baseline);
        assert_eq!((s.baseline.rounds, s.subscribers, s.goals), (2, 2000, 10));
        assert!(
            Cli::try_parse_from(["rinkside-loadtest", "scoreboard", "--baseline", "--processes", "3"]).is_err(),
            "a baseline runs in one process"
        );
        let Scenario::Fanout(f) =
            Cli::try_parse_from(["rinkside-loadtest", "fanout", "--baseline", "--rounds", "3"]).unwrap().scenario
        else {
            panic!("not fanout");
        };
        assert_eq!(f.baseline.rounds, 3);
        assert!(Cli::try_parse_from(["rinkside-loadtest", "fanout", "--rounds", "3"]).is_err());
    }

    #[test]
    fn goal_night_spreads_displays_over_nodes_and_processes() {
        let cli = Cli::try_parse_from([
            "rinkside-loadtest",
            "scoreboard",
            "--subscribe-url",
            "http://127.0.0.1:8081",
            "--subscribe-url",
            "http://127.0.0.1:8082",
            "--server-pid",
            "11",
            "--server-pid",
            "12",
            "--assists",
            "2",
            "--processes",
            "4",
        ])
        .unwrap();
        let Scenario::Scoreboard(s) = cli.scenario else {
            panic!("not scoreboard");
        };
        assert_eq!(s.subscribe_url.len(), 2);
        assert_eq!(s.server_pid, vec![11, 12]);
        assert_eq!((s.assists, s.processes), (2, 4));
        assert!(Cli::try_parse_from(["rinkside-loadtest", "scoreboard", "--assists", "3"]).is_err());
    }

    #[test]
    fn clock_spreads_displays_over_every_url() {
        let Scenario::Clock(c) = Cli::try_parse_from(["rinkside-loadtest", "clock"]).unwrap().scenario else {
            panic!("not clock");
        };
        assert_eq!(c.urls, vec!["http://127.0.0.1:8080".to_owned()]);
        assert_eq!((c.displays, c.pings, c.ping_gap_ms, c.ping_every), (10_000, 3, 200, 15));
        let Scenario::Clock(c) = Cli::try_parse_from([
            "rinkside-loadtest",
            "clock",
            "--url",
            "http://127.0.0.1:8081",
            "--url",
            "http://127.0.0.1:8082",
            "--baseline",
        ])
        .unwrap()
        .scenario
        else {
            panic!("not clock");
        };
        assert_eq!(c.urls.len(), 2);
        assert!(c.baseline);
    }

    #[test]
    fn floor_listens_on_an_ephemeral_loopback_port_by_default() {
        let Scenario::Floor(f) = Cli::try_parse_from(["rinkside-loadtest", "floor"]).unwrap().scenario else {
            panic!("not floor");
        };
        assert_eq!(f.bind, "127.0.0.1:0".parse::<SocketAddr>().unwrap());
        assert_eq!((f.queue, f.snapshot_bytes), (512, 2_048));
        let Scenario::Floor(f) =
            Cli::try_parse_from(["rinkside-loadtest", "floor", "--bind", "127.0.0.1:9000"]).unwrap().scenario
        else {
            panic!("not floor");
        };
        assert_eq!(f.bind.port(), 9000);
        assert!(Cli::try_parse_from(["rinkside-loadtest", "floor", "--bind", "localhost"]).is_err());
    }

    #[test]
    fn sides_times_three_sizes_and_measures_the_heuristic_at_thirty_and_forty() {
        let Scenario::Sides(s) = Cli::try_parse_from(["rinkside-loadtest", "sides"]).unwrap().scenario else {
            panic!("not sides");
        };
        assert_eq!(s.sizes, vec![12, 20, 24]);
        assert_eq!((s.nights, s.goalies, s.gap_skaters, s.bound_skaters), (200, 2, 30, 40));
        let Scenario::Sides(s) =
            Cli::try_parse_from(["rinkside-loadtest", "sides", "--sizes", "8,16", "--gap-nights", "3"])
                .unwrap()
                .scenario
        else {
            panic!("not sides");
        };
        assert_eq!((s.sizes, s.gap_nights), (vec![8, 16], 3));
    }

    #[test]
    fn anonymous_connect_needs_a_topic() {
        assert!(Cli::try_parse_from(["rinkside-loadtest", "connect", "--anonymous"]).is_err());
        assert!(Cli::try_parse_from(["rinkside-loadtest", "connect", "--anonymous", "--topic", "game:1"]).is_ok());
    }
}
