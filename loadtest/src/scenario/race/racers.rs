//! The racers ([`Racers`]): one command socket each, connected and
//! authenticated with bounded concurrency, all sending their ATTENDING at
//! the same start signal; then every reply, or none, collected.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Result;
use serde_json::json;
use tokio::sync::{Semaphore, mpsc, watch};
use tokio::task::JoinSet;
use tracing::{info, warn};

use super::setup::Field;
use crate::cli::RaceArgs;
use crate::net::{Endpoint, SourcePool};
use crate::race_check::Heard;
use crate::scenario::{Nodes, await_ready};
use crate::stats::Recorder;
use crate::ws::{CommandConn, NotRsvp};

/// What one racer reports: its index, what it heard, and when it sent and
/// heard back.
type Raced = (usize, Heard, Option<(Instant, Instant)>);

struct ClientSpec {
    idx: usize,
    endpoint: Arc<Endpoint>,
    sources: Arc<SourcePool>,
    token: String,
    event_id: Arc<str>,
    position: &'static str,
    tag: Arc<str>,
    connect_timeout: Duration,
}

/// Every racer connected and waiting for the start signal.
pub struct Racers {
    tasks: JoinSet<Raced>,
    go: watch::Sender<bool>,
}

/// What the race came to.
pub struct Race {
    /// What each client heard, in client order.
    pub heard: Vec<Heard>,
    /// From sending each command to its (successful) reply.
    pub latency: Recorder,
    /// From the start signal to the last reply.
    pub span: Duration,
}

impl Racers {
    /// Connects every racer (over the nodes in turn); returns once each is
    /// ready or failed, with the failures by why.
    pub async fn connect(
        args: &RaceArgs,
        nodes: &Nodes,
        sources: &Arc<SourcePool>,
        field: &Field,
        tag: &Arc<str>,
    ) -> Result<(Self, BTreeMap<String, usize>)> {
        info!("connecting racers");
        let (ready_tx, mut ready_rx) = mpsc::unbounded_channel();
        let (go, go_rx) = watch::channel(false);
        let semaphore = Arc::new(Semaphore::new(args.net.concurrency.max(1)));
        let event_id: Arc<str> = Arc::from(field.event_id.as_str());
        let mut tasks = JoinSet::new();
        for (idx, (user, request)) in field.users.iter().zip(&field.requests).enumerate() {
            let permit = semaphore.clone().acquire_owned().await?;
            let spec = ClientSpec {
                idx,
                endpoint: nodes.endpoints[idx % nodes.endpoints.len()].clone(),
                sources: sources.clone(),
                token: user.token.clone(),
                event_id: event_id.clone(),
                position: request.position,
                tag: tag.clone(),
                connect_timeout: args.net.timeout(),
            };
            tasks.spawn(racer(spec, permit, ready_tx.clone(), go_rx.clone()));
        }
        drop(ready_tx);
        let connect_errors = await_ready(&mut ready_rx, args.clients).await;
        let connect_failures: usize = connect_errors.values().sum();
        if connect_failures > 0 {
            warn!(connect_failures, errors = ?connect_errors, "some racers could not connect");
        }
        Ok((Self { tasks, go }, connect_errors))
    }

    /// Gives the start signal and collects the replies of `clients` racers,
    /// waiting at most `reply_timeout`.
    pub async fn race(mut self, clients: usize, reply_timeout: Duration) -> Race {
        info!("go");
        let started = Instant::now();
        let _ = self.go.send(true);
        let mut heard: Vec<Heard> = (0..clients).map(|_| Heard::Nothing("reply timed out".into())).collect();
        let mut latency = Recorder::new();
        let mut last_reply = started;
        let deadline = tokio::time::sleep(reply_timeout);
        tokio::pin!(deadline);
        loop {
            tokio::select! {
                joined = self.tasks.join_next() => match joined {
                    None => break,
                    Some(Ok((idx, h, times))) => {
                        if let (Heard::Ok(_), Some((sent, got))) = (&h, times) {
                            latency.record(got.saturating_duration_since(sent));
                            last_reply = last_reply.max(got);
                        }
                        if let Some(slot) = heard.get_mut(idx) {
                            *slot = h;
                        }
                    }
                    Some(Err(e)) => warn!("racer task failed: {e}"),
                },
                _ = &mut deadline => {
                    warn!(left = self.tasks.len(), "replies timed out");
                    self.tasks.abort_all();
                    break;
                }
            }
        }
        Race { heard, latency, span: last_reply.saturating_duration_since(started) }
    }
}

/// One racer: connect + auth (bounded by `permit`), say ready, wait for the
/// start signal, fire, wait for the reply.
async fn racer(
    spec: ClientSpec,
    permit: tokio::sync::OwnedSemaphorePermit,
    ready: mpsc::UnboundedSender<Result<(), String>>,
    mut go: watch::Receiver<bool>,
) -> Raced {
    let idx = spec.idx;
    let opened = tokio::time::timeout(
        spec.connect_timeout,
        CommandConn::open(&spec.endpoint, spec.sources.next(), &spec.token, format!("race{}c{idx}", spec.tag)),
    )
    .await;
    drop(permit);
    let mut conn = match opened {
        Ok(Ok(c)) => c,
        Ok(Err(e)) => {
            let msg = format!("{e:#}");
            let _ = ready.send(Err(msg.clone()));
            return (idx, Heard::Nothing(format!("connect: {msg}")), None);
        }
        Err(_) => {
            let _ = ready.send(Err("connect timed out".into()));
            return (idx, Heard::Nothing("connect timed out".into()), None);
        }
    };
    let _ = ready.send(Ok(()));
    if go.wait_for(|&g| g).await.is_err() {
        return (idx, Heard::Nothing("never started".into()), None);
    }
    let command = json!({
        "kind": "rsvp",
        "eventId": &*spec.event_id,
        "action": "ATTENDING",
        "position": spec.position,
    });
    let sent = Instant::now();
    let heard = match conn.call(&command).await.map(|reply| reply.rsvp()) {
        Ok(Ok(r)) => Heard::Ok(r),
        Ok(Err(NotRsvp::Unreadable(e))) => Heard::Failed(format!("reply data unreadable: {e}")),
        Ok(Err(NotRsvp::Refused(error))) => {
            Heard::Failed(error.map(|e| e.to_string()).unwrap_or_else(|| "ok:false without error".into()))
        }
        Err(e) => Heard::Nothing(format!("{e:#}")),
    };
    let got = Instant::now();
    conn.close().await;
    (idx, heard, Some((sent, got)))
}
