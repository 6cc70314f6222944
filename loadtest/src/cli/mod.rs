//! Command line: one subcommand per scenario, plus the options they share.
//!
//! - [`shared`]: the connection options, `--baseline`, the node's backend;
//! - [`live`]: the scenarios that drive a server already running;
//! - [`own_node`]: the scenarios that start their own node or cluster;
//! - [`local`]: the subcommands that need no Rinkside server (`floor`,
//!   `sides`).

mod live;
mod local;
mod own_node;
mod shared;
#[cfg(test)]
mod tests;

use clap::{Parser, Subcommand};

pub use live::{
    ChatArgs, ClockArgs, ConnectArgs, DisplaysArgs, FanoutArgs, FeedArgs, PublishVia, RaceArgs, ScoreboardArgs,
    SteadyArgs,
};
pub use local::{FloorArgs, SidesArgs};
pub use own_node::{ChaosArgs, HistoryArgs, MarketArgs, OwnNodeArgs, ReconnectArgs, SyncArgs};
pub use shared::{BaselineArgs, Database, NetArgs};

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
