//! Waiting for the node to go quiet: the statuses' posts push matches in
//! the background, after their answer, so the run waits for the node's CPU
//! to settle before it measures ([`wait_quiet`]), and reports how long
//! that took ([`Quiet`]).

use std::time::{Duration, Instant};

use anyhow::Result;
use serde::Serialize;
use tracing::{info, warn};

use crate::net::cpu_seconds;

/// The node counts as quiet below this share of one core…
const QUIET_CPU_SHARE: f64 = 0.10;
/// …for this many consecutive one-second samples.
const QUIET_SAMPLES: usize = 3;

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Quiet {
    /// From the last seeding answer until the node's CPU went quiet.
    pub seconds: f64,
    pub reached: bool,
    /// CPU seconds the node used in that time.
    pub cpu_seconds: f64,
}

/// Samples the node's CPU each second until it stays under
/// [`QUIET_CPU_SHARE`] of a core for [`QUIET_SAMPLES`] seconds.
async fn wait_quiet(pid: u32, limit: Duration) -> Result<Quiet> {
    let started = Instant::now();
    let first = cpu_seconds(pid)?;
    let mut last = first;
    let mut calm = 0usize;
    info!("waiting for the node to finish its background pushes");
    loop {
        tokio::time::sleep(Duration::from_secs(1)).await;
        let now = cpu_seconds(pid)?;
        let share = now - last;
        last = now;
        calm = if share < QUIET_CPU_SHARE { calm + 1 } else { 0 };
        if calm >= QUIET_SAMPLES {
            // The calm seconds are not part of the busy time.
            let seconds = (started.elapsed().as_secs_f64() - QUIET_SAMPLES as f64).max(0.0);
            info!(seconds, "node quiet");
            return Ok(Quiet { seconds, reached: true, cpu_seconds: now - first });
        }
        if started.elapsed() > limit {
            warn!(cpu_share = share, "node still busy; measuring anyway");
            return Ok(Quiet { seconds: started.elapsed().as_secs_f64(), reached: false, cpu_seconds: now - first });
        }
        if started.elapsed().as_secs().is_multiple_of(15) {
            info!(cpu_share = share, elapsed = started.elapsed().as_secs(), "node still busy");
        }
    }
}

/// [`wait_quiet`] with the node's pid; nothing to wait for without one (a
/// server the run did not start).
pub async fn wait_quiet_if(pid: Option<u32>, limit: Duration) -> Result<Option<Quiet>> {
    match pid {
        Some(pid) => Ok(Some(wait_quiet(pid, limit).await?)),
        None => Ok(None),
    }
}
