//! One subscriber of a fleet ([`run_subscriber`]): connects, subscribes,
//! then reports every update frame, stamped when read, as news for the
//! fleet's books until told to stop.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use futures_util::SinkExt;
use tokio::sync::{OwnedSemaphorePermit, mpsc, watch};

use super::books::News;
use crate::net::{Endpoint, Ws, connect_ws};
use crate::ws::{ServerFrame, auth_frame, next_frame, ping_frame, subscribe_frame};

/// Everything one subscriber needs; shared parts are `Arc`s so 10k of these
/// cost little.
#[derive(Debug, Clone)]
pub struct SubscriberSpec {
    pub idx: usize,
    pub endpoint: Arc<Endpoint>,
    pub source: Option<IpAddr>,
    pub token: Option<Arc<str>>,
    pub topic: Arc<str>,
    /// Send an application `ping` this often while idle, if set.
    pub ping_every: Option<Duration>,
    /// Limit on connect + subscribe.
    pub timeout: Duration,
}

/// Connects, subscribes, then reports every update until `stop` flips to
/// true. `permit` bounds concurrent handshakes and is released once
/// subscribed.
pub async fn run_subscriber(
    spec: SubscriberSpec,
    events: mpsc::UnboundedSender<News>,
    mut stop: watch::Receiver<bool>,
    permit: OwnedSemaphorePermit,
) {
    let idx = spec.idx;
    let mut ws = match tokio::time::timeout(spec.timeout, connect_and_subscribe(&spec, &events)).await {
        Ok(Ok(ws)) => ws,
        Ok(Err(e)) => {
            let _ = events.send(News::Failed { error: format!("{e:#}") });
            return;
        }
        Err(_) => {
            let _ = events.send(News::Failed { error: "timed out connecting/subscribing".into() });
            return;
        }
    };
    drop(permit);

    // Far in the future when pings are off, so the select arm never fires.
    let period = spec.ping_every.unwrap_or(Duration::from_secs(86_400 * 365));
    let mut ping = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
    loop {
        tokio::select! {
            changed = stop.changed() => {
                if changed.is_err() || *stop.borrow() {
                    let _ = tokio::time::timeout(Duration::from_secs(2), ws.close(None)).await;
                    return;
                }
            }
            _ = ping.tick() => {
                if let Err(e) = ws.send(ping_frame()).await {
                    let _ = events.send(News::Gone { idx, reason: format!("ping: {e}") });
                    return;
                }
            }
            frame = next_frame(&mut ws) => {
                let at = Instant::now();
                match frame {
                    Ok(Some(ServerFrame::Update { seq })) => {
                        let _ = events.send(News::Update { idx, seq, at });
                    }
                    Ok(Some(ServerFrame::Error { error })) => {
                        let _ = events.send(News::ServerError { error: error.to_string() });
                    }
                    Ok(Some(ServerFrame::Unsubscribed { error })) => {
                        let why = error.map(|e| e.to_string()).unwrap_or_default();
                        let _ = events.send(News::Gone { idx, reason: format!("unsubscribed by server: {why}") });
                        return;
                    }
                    Ok(Some(_)) => {}
                    Ok(None) => {
                        let _ = events.send(News::Gone { idx, reason: "connection ended".into() });
                        return;
                    }
                    Err(e) => {
                        let _ = events.send(News::Gone { idx, reason: format!("{e:#}") });
                        return;
                    }
                }
            }
        }
    }
}

/// Connects, authenticates when given a token, and subscribes; says so
/// once the snapshot is in.
async fn connect_and_subscribe(spec: &SubscriberSpec, events: &mpsc::UnboundedSender<News>) -> Result<Ws> {
    let started = Instant::now();
    let mut ws = connect_ws(&spec.endpoint, spec.source).await?;
    let connect = started.elapsed();
    let sent = Instant::now();
    if let Some(token) = &spec.token {
        ws.send(auth_frame(token)).await.context("send auth")?;
    }
    ws.send(subscribe_frame(&spec.topic)).await.context("send subscribe")?;
    loop {
        match next_frame(&mut ws).await? {
            Some(ServerFrame::Snapshot { seq }) => {
                let _ = events.send(News::Subscribed { idx: spec.idx, connect, ready: sent.elapsed(), seq });
                return Ok(ws);
            }
            Some(ServerFrame::Error { error }) => bail!("server error before snapshot: {error}"),
            Some(_) => {}
            None => bail!("connection ended before snapshot"),
        }
    }
}
