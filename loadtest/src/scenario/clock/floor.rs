//! `clock --baseline`: the floor in the same run ([`floor_round`]) — as
//! many sockets on the same topic, one frame of the stop's bytes (and
//! data) per stop, one at a time — and stop-to-stopped against the floor's
//! time to last ([`ClockBaseline`]).

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use serde::Serialize;
use tracing::info;

use super::super::{fleet_options, prepare_sockets};
use crate::baseline::{FloorClient, FloorProcess, MirrorFrame, data_of, ratio, times_x};
use crate::cli::ClockArgs;
use crate::deliveries::{DeliveryAnalysis, DeliveryPool, Mark};
use crate::display::DisplayRecord;
use crate::fleet::{Fleet, OpenReport};
use crate::net::Endpoint;
use crate::ws::seq_of;

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClockBaseline {
    pub floor_url: String,
    pub floor_pid: u32,
    pub open: OpenReport,
    /// One frame of the stop's size per stop, one at a time.
    pub deliveries: DeliveryAnalysis,
    pub frame_bytes: usize,
    /// stop-to-stopped / the floor's time to last (lower is better).
    pub ratio_time_to_last_p50: Option<f64>,
    pub ratio_time_to_last_p99: Option<f64>,
    pub ratio_time_to_last_max: Option<f64>,
    pub ratio_per_delivery_p50: Option<f64>,
}

/// The floor in the same run: as many sockets on the same topic, one frame
/// of the stop's bytes (and data) per stop, each sent when the last reached
/// everyone.
pub async fn floor_round(
    args: &ClockArgs,
    topic: &str,
    records: &[DisplayRecord],
    stops: &[Mark],
    rinkside: &DeliveryAnalysis,
) -> Result<ClockBaseline> {
    let first = records.first();
    let frame = first
        .and_then(|r| r.updates.iter().find(|f| seq_of(f).is_some_and(|s| stops.iter().any(|m| m.seq == s))))
        .map(|f| Ok::<_, anyhow::Error>(MirrorFrame { data: data_of(f)?, bytes: f.len() }))
        .transpose()?;
    let Some(frame) = frame else {
        bail!("display 0 kept no stop frame, so the floor's frame cannot be sized like it");
    };
    let snapshot = first.and_then(|r| r.snapshot.as_deref()).and_then(|s| data_of(s).ok());
    let floor = FloorProcess::start().await?;
    let result = send_stops(args, &floor, topic, snapshot.as_deref(), &frame, stops.len()).await;
    let (floor_url, floor_pid) = (floor.url.clone(), floor.pid);
    floor.stop().await;
    let (open, deliveries) = result?;
    let (r, f) = (&rinkside, &deliveries);
    Ok(ClockBaseline {
        floor_url,
        floor_pid,
        open,
        frame_bytes: frame.bytes,
        ratio_time_to_last_p50: ratio(r.time_to_last.p50_ms, f.time_to_last.p50_ms),
        ratio_time_to_last_p99: ratio(r.time_to_last.p99_ms, f.time_to_last.p99_ms),
        ratio_time_to_last_max: ratio(r.time_to_last.max_ms, f.time_to_last.max_ms),
        ratio_per_delivery_p50: ratio(r.per_delivery.p50_ms, f.per_delivery.p50_ms),
        deliveries,
    })
}

/// Opens `--displays` sockets on the floor (its document `snapshot` first)
/// and sends `frame` `stops` times, each once the last reached everyone.
async fn send_stops(
    args: &ClockArgs,
    floor: &FloorProcess,
    topic: &str,
    snapshot: Option<&str>,
    frame: &MirrorFrame,
    stops: usize,
) -> Result<(OpenReport, DeliveryAnalysis)> {
    let client = FloorClient::new(&floor.url)?;
    let endpoint = Arc::new(Endpoint::resolve(&floor.url).await?);
    if let Some(doc) = snapshot {
        client.set_document(topic, doc).await?;
    }
    let sources = prepare_sockets(&args.net, &endpoint, args.displays)?;
    let mut fleet =
        Fleet::open(fleet_options(&args.net, endpoint.clone(), sources, args.displays, None, topic)).await?;
    info!(frames = stops, bytes = frame.bytes, "the floor's round");
    let mut marks = Vec::new();
    for _ in 0..stops {
        let sent_at = Instant::now();
        let answer = client.publish(topic, frame).await?;
        marks.push(Mark { seq: answer.seq, sent_at });
        fleet.collector.set_target(answer.seq);
        let deadline = tokio::time::Instant::now() + Duration::from_secs(args.update_timeout.max(1));
        fleet.pump_until(deadline, |c| c.target_settled()).await;
        fleet.pump_until(tokio::time::Instant::now() + Duration::from_millis(args.stopped_ms), |_| false).await;
    }
    fleet.shutdown().await;
    Ok((fleet.open.clone(), DeliveryPool::of(&marks, &fleet.collector).analysis()))
}

impl ClockBaseline {
    pub fn human(&self) -> String {
        format!(
            "  floor         {} sockets ({}, pid {}), {} frames of {} bytes one at a time: time to last {}\n  floor per delivery {}\n  stop→stopped / floor: time to last p50 {}, p99 {}, max {}; per delivery p50 {}\n",
            self.open.subscribed,
            self.floor_url,
            self.floor_pid,
            self.deliveries.changes,
            self.frame_bytes,
            self.deliveries.time_to_last,
            self.deliveries.per_delivery,
            times_x(self.ratio_time_to_last_p50),
            times_x(self.ratio_time_to_last_p99),
            times_x(self.ratio_time_to_last_max),
            times_x(self.ratio_per_delivery_p50),
        )
    }
}
