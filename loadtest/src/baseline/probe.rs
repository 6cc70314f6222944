//! One more subscriber that keeps the frames it receives ([`Probe`]): a
//! Rinkside round's frames are what the floor round after it sends, and
//! their sizes ([`FrameStats`]) show the two servers sent alike.

use std::net::IpAddr;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use futures_util::{SinkExt, StreamExt};
use serde::Serialize;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::Message;
use tracing::warn;

use crate::net::{Endpoint, Ws, connect_ws};
use crate::ws::{ServerFrame, auth_frame, subscribe_frame};

/// After a round, how long the probe may still wait for the last frames.
const PROBE_DRAIN: Duration = Duration::from_secs(2);

/// The frames one socket received in a round, as text.
#[derive(Debug, Clone, Default)]
pub struct Captured {
    pub snapshot: String,
    pub updates: Vec<String>,
}

/// One more subscriber that keeps the frames it receives (the fleet's keep
/// only type and seq). Not counted in the deliveries.
pub struct Probe {
    stop: oneshot::Sender<usize>,
    task: JoinHandle<Vec<String>>,
    snapshot: String,
}

impl Probe {
    /// Connects, subscribes (after `auth` when given a token, as the fleet
    /// does) and returns once the snapshot is in.
    pub async fn open(
        endpoint: &Endpoint,
        source: Option<IpAddr>,
        token: Option<&str>,
        topic: &str,
        timeout: Duration,
    ) -> Result<Self> {
        let opening = async {
            let mut ws = connect_ws(endpoint, source).await?;
            if let Some(token) = token {
                ws.send(auth_frame(token)).await.context("send auth")?;
            }
            ws.send(subscribe_frame(topic)).await.context("send subscribe")?;
            loop {
                match ws.next().await {
                    Some(Ok(Message::Text(text))) => match serde_json::from_str::<ServerFrame>(text.as_str()) {
                        Ok(ServerFrame::Snapshot { .. }) => {
                            return Ok::<_, anyhow::Error>((ws, text.as_str().to_owned()));
                        }
                        Ok(ServerFrame::Error { error }) => bail!("probe: server error before snapshot: {error}"),
                        _ => {}
                    },
                    Some(Ok(_)) => {}
                    Some(Err(e)) => return Err(e).context("probe: read"),
                    None => bail!("probe: connection ended before the snapshot"),
                }
            }
        };
        let (ws, snapshot) = tokio::time::timeout(timeout, opening).await.context("probe: timed out subscribing")??;
        let (stop, stopped) = oneshot::channel();
        let task = tokio::spawn(keep_updates(ws, stopped));
        Ok(Self { stop, task, snapshot })
    }

    /// Stops once `expected` updates are in (or a short wait has passed) and
    /// hands back what was received.
    pub async fn finish(self, expected: usize) -> Captured {
        let _ = self.stop.send(expected);
        let updates = self.task.await.unwrap_or_else(|e| {
            warn!("probe task failed: {e}");
            Vec::new()
        });
        Captured { snapshot: self.snapshot, updates }
    }
}

async fn keep_updates(mut ws: Ws, mut stop: oneshot::Receiver<usize>) -> Vec<String> {
    let mut updates = Vec::new();
    let mut wanted: Option<usize> = None;
    let drain = tokio::time::sleep(Duration::from_secs(365 * 86_400));
    tokio::pin!(drain);
    loop {
        if wanted.is_some_and(|n| updates.len() >= n) {
            break;
        }
        tokio::select! {
            n = &mut stop, if wanted.is_none() => {
                wanted = Some(n.unwrap_or(0));
                drain.as_mut().reset(tokio::time::Instant::now() + PROBE_DRAIN);
            }
            () = &mut drain => break,
            message = ws.next() => match message {
                Some(Ok(Message::Text(text))) => {
                    if matches!(serde_json::from_str(text.as_str()), Ok(ServerFrame::Update { .. })) {
                        updates.push(text.as_str().to_owned());
                    }
                }
                Some(Ok(_)) => {}
                Some(Err(_)) | None => break,
            },
        }
    }
    let _ = tokio::time::timeout(Duration::from_secs(2), ws.close(None)).await;
    updates
}

/// Sizes of update frames.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FrameStats {
    pub count: usize,
    pub mean_bytes: f64,
    pub min_bytes: usize,
    pub max_bytes: usize,
}

impl FrameStats {
    pub fn of(lengths: impl IntoIterator<Item = usize>) -> Self {
        let mut s = Self { min_bytes: usize::MAX, ..Self::default() };
        let mut total = 0usize;
        for n in lengths {
            s.count += 1;
            total += n;
            s.min_bytes = s.min_bytes.min(n);
            s.max_bytes = s.max_bytes.max(n);
        }
        if s.count == 0 {
            return Self::default();
        }
        s.mean_bytes = total as f64 / s.count as f64;
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_stats_of_nothing_are_zero() {
        assert_eq!(FrameStats::of([]), FrameStats::default());
        let s = FrameStats::of([600, 700, 800]);
        assert_eq!((s.count, s.min_bytes, s.max_bytes), (3, 600, 800));
        assert!((s.mean_bytes - 700.0).abs() < 1e-9);
    }
}
