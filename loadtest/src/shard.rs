//! `scoreboard --processes N`: the displays split over child processes of
//! this program, each holding its share of the sockets — one process may
//! open only as many as its descriptor limit allows (20,000 on the
//! development machine), so 60,000 displays need several.
//!
//! The lead sets up the game and scores. Each child (the hidden `displays`
//! subcommand, [`run_child`]) opens its displays, prints
//! `{"ready":OpenReport}` on stdout, reads the goals' marks as one JSON line
//! on stdin, waits for the last goal to arrive, and prints its outcome
//! (`--json`) whose report is a [`ChildReport`]. Send times cross the
//! process boundary as epoch milliseconds: one machine, one clock.

use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout};
use tracing::info;

use crate::cli::{DisplaysArgs, NetArgs};
use crate::deliveries::{DeliveryPool, DeliveryShare, Mark};
use crate::fleet::{AfterReport, Fleet, OpenReport};
use crate::game_clock::epoch_ms;
use crate::net::Endpoint;
use crate::scenario::{Outcome, fleet_options, prepare_sockets_over};
use crate::stats::{Recorder, Summary};

/// A mark as it crosses to a child.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WireMark {
    pub seq: u64,
    pub sent_epoch_ms: f64,
}

/// The instant `sent_at` as epoch ms, given one moment known both ways.
fn to_epoch(sent_at: Instant, now: Instant, now_epoch_ms: f64) -> f64 {
    now_epoch_ms - now.saturating_duration_since(sent_at).as_secs_f64() * 1000.0
}

/// Epoch ms `sent` as an instant of this process, given one moment known
/// both ways.
fn to_instant(sent_epoch_ms: f64, now: Instant, now_epoch_ms: f64) -> Instant {
    let ago = Duration::from_secs_f64(((now_epoch_ms - sent_epoch_ms) / 1000.0).max(0.0));
    now.checked_sub(ago).unwrap_or(now)
}

/// What a child hands back.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChildReport {
    pub open: OpenReport,
    pub deliveries: DeliveryShare,
    /// Its own deliveries' latencies, for the lead's per-process line.
    pub per_delivery: Summary,
    pub after: AfterReport,
}

/// The child's side: `rinkside-loadtest --json displays …`.
pub async fn run_child(args: DisplaysArgs) -> Result<Outcome> {
    let mut endpoints = Vec::new();
    for url in &args.urls {
        endpoints.push(Arc::new(Endpoint::resolve(url).await?));
    }
    let first = endpoints.first().cloned().ok_or_else(|| anyhow!("no --url"))?;
    let sources = prepare_sockets_over(&args.net, &endpoints, args.count)?;
    let mut options = fleet_options(&args.net, first, sources, args.count, None, &args.topic);
    options.endpoints = endpoints;
    let mut fleet = Fleet::open(options).await?;
    say(&serde_json::json!({ "ready": fleet.open }))?;

    let mut lines = BufReader::new(tokio::io::stdin()).lines();
    let line = loop {
        tokio::select! {
            line = lines.next_line() => break line.context("reading the marks")?,
            () = fleet.pump_one() => {}
        }
    };
    let line = line.ok_or_else(|| anyhow!("the lead closed stdin before sending the goals"))?;
    let wire: Vec<WireMark> = serde_json::from_str(&line).context("the marks line")?;
    let (now, now_epoch) = (Instant::now(), epoch_ms());
    let marks: Vec<Mark> =
        wire.iter().map(|m| Mark { seq: m.seq, sent_at: to_instant(m.sent_epoch_ms, now, now_epoch) }).collect();
    if let Some(top) = marks.iter().map(|m| m.seq).max() {
        fleet.collector.set_target(top);
        let deadline = tokio::time::Instant::now() + Duration::from_secs(args.settle_timeout.max(1));
        fleet.pump_until(deadline, |c| c.target_settled()).await;
    }
    fleet.shutdown().await;
    let deliveries = DeliveryPool::share(&marks, &fleet.collector);
    let report = ChildReport {
        open: fleet.open.clone(),
        per_delivery: Recorder::from_bytes(&deliveries.per_delivery).summary(),
        deliveries,
        after: fleet.after.clone(),
    };
    let passed = report.open.failed == 0 && report.deliveries.missed == 0 && report.after.clean();
    Ok(Outcome { scenario: "displays", passed, report: serde_json::to_value(&report)?, human: String::new() })
}

/// One line on stdout, flushed at once (the lead is waiting for it).
fn say(value: &Value) -> Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{value}")?;
    out.flush()?;
    Ok(())
}

/// One child as the lead holds it.
struct ChildProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Lines<BufReader<ChildStdout>>,
}

impl ChildProcess {
    /// The next stdout line that is a JSON object with `key`.
    async fn read_until(&mut self, key: &str) -> Result<Value> {
        while let Some(line) = self.lines.next_line().await.context("reading a child's output")? {
            if let Ok(v) = serde_json::from_str::<Value>(&line)
                && v.get(key).is_some()
            {
                return Ok(v);
            }
        }
        bail!("a display process ended without saying {key:?}")
    }
}

/// The display processes of a run.
pub struct Children {
    processes: Vec<ChildProcess>,
}

/// `count` split as evenly as can be over `parts`.
fn split(count: usize, parts: usize) -> Vec<usize> {
    let parts = parts.max(1);
    (0..parts).map(|i| count / parts + usize::from(i < count % parts)).collect()
}

impl Children {
    /// Starts `processes` children with their share of `count` displays
    /// each, spread round-robin over `urls`, and waits until every one has
    /// its displays open; their connection reports.
    pub async fn start(
        urls: &[String],
        topic: &str,
        count: usize,
        processes: usize,
        net: &NetArgs,
        settle_timeout: u64,
    ) -> Result<(Self, Vec<OpenReport>)> {
        let exe = std::env::current_exe().context("finding this program to start the display processes")?;
        let mut children = Self { processes: Vec::new() };
        for share in split(count, processes) {
            let mut command = tokio::process::Command::new(&exe);
            command.args(["--json", "displays", "--topic", topic]).args([
                format!("--count={share}"),
                format!("--settle-timeout={settle_timeout}"),
                format!("--concurrency={}", net.concurrency),
                format!("--connect-timeout={}", net.connect_timeout),
                format!("--ping-interval={}", net.ping_interval),
            ]);
            command.args(urls.iter().map(|u| format!("--url={u}")));
            command.args(net.source_ips.iter().map(|ip| format!("--source-ip={ip}")));
            let mut child = command
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::inherit())
                .kill_on_drop(true)
                .spawn()
                .with_context(|| format!("starting {} displays", exe.display()))?;
            let stdin = child.stdin.take().ok_or_else(|| anyhow!("no stdin to a display process"))?;
            let stdout = child.stdout.take().ok_or_else(|| anyhow!("no stdout from a display process"))?;
            info!(pid = child.id(), displays = share, "display process started");
            children.processes.push(ChildProcess { child, stdin, lines: BufReader::new(stdout).lines() });
        }
        let mut opened = Vec::new();
        for p in &mut children.processes {
            let ready = p.read_until("ready").await?;
            opened.push(serde_json::from_value(ready["ready"].clone()).context("a child's ready line")?);
        }
        Ok((children, opened))
    }

    /// Tells every child the goals, and collects their reports (passed,
    /// report) once the last goal reached their displays.
    pub async fn finish(mut self, marks: &[Mark]) -> Result<Vec<(bool, ChildReport)>> {
        let (now, now_epoch) = (Instant::now(), epoch_ms());
        let wire: Vec<WireMark> =
            marks.iter().map(|m| WireMark { seq: m.seq, sent_epoch_ms: to_epoch(m.sent_at, now, now_epoch) }).collect();
        let line = format!("{}\n", serde_json::to_string(&wire)?);
        for p in &mut self.processes {
            p.stdin.write_all(line.as_bytes()).await.context("sending a child the marks")?;
            p.stdin.flush().await?;
        }
        let mut reports = Vec::new();
        for p in &mut self.processes {
            let outcome = p.read_until("report").await?;
            let passed = outcome["passed"].as_bool().unwrap_or(false);
            reports.push((passed, serde_json::from_value(outcome["report"].clone()).context("a child's report")?));
            let _ = p.child.wait().await;
        }
        Ok(reports)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn displays_are_split_as_evenly_as_can_be() {
        assert_eq!(split(60_000, 4), vec![15_000; 4]);
        assert_eq!(split(10, 3), vec![4, 3, 3]);
        assert_eq!(split(5, 0), vec![5]);
    }

    #[test]
    fn send_times_survive_the_trip_through_epoch_milliseconds() {
        let now = Instant::now();
        let sent = now.checked_sub(Duration::from_millis(1_500)).unwrap();
        let epoch = to_epoch(sent, now, 1_000_000.0);
        assert!((epoch - 998_500.0).abs() < 1e-6);
        // The child's clock reads the same epoch at its own `now`.
        let back = to_instant(epoch, now, 1_000_000.0);
        assert!(back.max(sent).duration_since(back.min(sent)) < Duration::from_micros(1));
        // A send "in the future" (clocks a hair apart) is taken as now.
        assert_eq!(to_instant(1_000_001.0, now, 1_000_000.0), now);
    }

    #[test]
    fn marks_cross_as_camel_case_json() {
        let line = serde_json::to_string(&[WireMark { seq: 7, sent_epoch_ms: 1.5 }]).unwrap();
        assert_eq!(line, r#"[{"seq":7,"sentEpochMs":1.5}]"#);
    }
}
