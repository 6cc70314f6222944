//! The options of the subcommands that need no Rinkside server: the
//! `floor` baseline server itself, and `sides` (in process).

use std::net::SocketAddr;

use clap::Args;

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
