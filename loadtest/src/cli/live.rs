//! The options of the scenarios that drive a server already running:
//! sockets by the thousand (`connect`, `fanout`, `scoreboard` and its
//! hidden `displays` children, `clock`), RSVP load (`race`, `steady`), and
//! the social paths (`feed`, `chat`).

use clap::{Args, ValueEnum};

use super::{BaselineArgs, NetArgs};

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
