//! `rinkside-loadtest floor`: the baseline a fan-out is measured against. A
//! bare tokio + tokio-tungstenite broadcast server that speaks the frames of
//! CONTRACT.md › WebSocket and nothing else — no database, no auth, no
//! commands — so the time it takes to fan an update out is what any server
//! on this machine would need for the same frames to the same sockets.
//!
//! It is meant to be fair, not a strawman: what an engineer would write in
//! an afternoon to do this well. Each update frame is serialised once and
//! every subscriber gets a clone of the same bytes ([`hub`]); each WebSocket
//! is one task that drains a bounded queue of frames and answers the
//! client's frames; sockets have `TCP_NODELAY` and small read buffers.
//!
//! One port serves everything (the request head decides, [`http`]; one
//! connection's requests are [`serve`]'s, a WebSocket is [`socket`]'s):
//!
//! - `GET /api/v1/ws` — the WebSocket. `subscribe` → `snapshot` (the
//!   topic's current document), `unsubscribe`, `ping` → `pong`; `auth` is
//!   accepted and ignored, a `command` answered with a refusal.
//! - `POST /publish?topic=T&bytes=N` — one `update` frame to every
//!   subscriber of `T`; the body (JSON, optional) is its `data`. `bytes`
//!   asks for a frame of that length: without a body the data is a padding
//!   document of that size, with one the frame is filled with JSON
//!   whitespace up to it. Answers `{"seq","subscribers","skipped","frameBytes"}`.
//! - `POST /document?topic=T` — the body becomes `T`'s document (what the
//!   next snapshots carry) without sending anything.
//! - `GET /healthz` — `ok`.

pub mod http;
pub mod hub;
mod serve;
mod socket;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use serde_json::json;
use tokio::net::TcpListener;
use tracing::{debug, info, warn};

use self::hub::Hub;
use self::serve::serve;
use crate::cli::FloorArgs;
use crate::scenario::Outcome;

/// Where the WebSocket lives, as on Rinkside.
pub const WS_PATH: &str = "/api/v1/ws";

/// Descriptors the standalone floor asks for: far more sockets than one box
/// can open, so the hard limit is what it gets.
const WANTED_FILE_DESCRIPTORS: usize = 1_000_000;

/// Pause after a failed `accept` (out of descriptors, say) before the next.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);

/// How a floor server behaves.
#[derive(Debug, Clone)]
pub struct Options {
    /// Frames a subscriber's queue holds before it starts skipping (the
    /// same default as Rinkside's `WS_MAX_QUEUE`).
    pub queue: usize,
    /// What a topic nobody has published to carries in its snapshot.
    pub document: String,
}

/// Connection totals.
#[derive(Debug, Default)]
struct Connections {
    next_id: AtomicU64,
    websockets: AtomicU64,
    open: AtomicU64,
}

struct State {
    hub: Hub,
    queue: usize,
    connections: Connections,
}

/// A bound floor server, not yet accepting.
pub struct Server {
    listener: TcpListener,
    state: Arc<State>,
}

impl Server {
    pub async fn bind(addr: SocketAddr, options: Options) -> Result<Self> {
        let listener = TcpListener::bind(addr).await.with_context(|| format!("binding {addr}"))?;
        let state = Arc::new(State {
            hub: Hub::new(options.document),
            queue: options.queue.max(1),
            connections: Connections::default(),
        });
        Ok(Self { listener, state })
    }

    pub fn local_addr(&self) -> Result<SocketAddr> {
        Ok(self.listener.local_addr()?)
    }

    /// Accepts connections until `shutdown` completes; every connection is
    /// a task of its own.
    pub async fn run(self, shutdown: impl Future<Output = ()>) -> Totals {
        tokio::pin!(shutdown);
        loop {
            tokio::select! {
                accepted = self.listener.accept() => match accepted {
                    Ok((stream, peer)) => {
                        let state = self.state.clone();
                        tokio::spawn(async move {
                            if let Err(e) = serve(state, stream).await {
                                debug!(%peer, "connection ended: {e:#}");
                            }
                        });
                    }
                    Err(e) => {
                        warn!("accept: {e}");
                        tokio::time::sleep(ACCEPT_BACKOFF).await;
                    }
                },
                () = &mut shutdown => break,
            }
        }
        self.state.totals()
    }
}

/// What a floor did, for its report.
#[derive(Debug, Clone, Copy, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Totals {
    pub websockets: u64,
    pub open: u64,
    pub publishes: u64,
    pub frames_queued: u64,
    pub frames_skipped: u64,
}

#[cfg(test)]
impl State {
    /// A floor's state with nothing published, for the tests.
    pub fn for_tests() -> Self {
        State { hub: Hub::new("{}".into()), queue: 8, connections: Connections::default() }
    }
}

impl State {
    fn totals(&self) -> Totals {
        let c = &self.hub.counters;
        Totals {
            websockets: self.connections.websockets.load(Ordering::Relaxed),
            open: self.connections.open.load(Ordering::Relaxed),
            publishes: c.publishes.load(Ordering::Relaxed),
            frames_queued: c.frames_queued.load(Ordering::Relaxed),
            frames_skipped: c.frames_skipped.load(Ordering::Relaxed),
        }
    }
}

/// The line the floor prints first on stdout; [`parse_announcement`] reads
/// it back (the load generator starts the floor as a child and learns its
/// port from it).
pub fn announcement(addr: SocketAddr) -> String {
    format!(
        "floor listening on http://{addr} (WebSocket ws://{addr}{WS_PATH}; POST /publish?topic=…&bytes=…; POST /document?topic=…)"
    )
}

/// The address in an [`announcement`].
pub fn parse_announcement(line: &str) -> Option<SocketAddr> {
    let rest = &line[line.find("http://")? + "http://".len()..];
    rest.split_whitespace().next()?.parse().ok()
}

/// Until Ctrl-C or SIGTERM.
async fn stop_signal() {
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(e) => {
                warn!("cannot listen for SIGTERM: {e}");
                std::future::pending::<()>().await;
            }
        }
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        () = term => {}
    }
}

/// The `floor` subcommand: serves until Ctrl-C, then reports its totals.
pub async fn run(args: FloorArgs) -> Result<Outcome> {
    let limit = crate::net::raise_nofile(WANTED_FILE_DESCRIPTORS)?;
    info!(limit, "descriptor limit");
    let server =
        Server::bind(args.bind, Options { queue: args.queue, document: hub::sample_document(args.snapshot_bytes) })
            .await?;
    let addr = server.local_addr()?;
    {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        writeln!(out, "{}", announcement(addr))?;
        out.flush()?;
    }
    let started = Instant::now();
    let totals = server.run(stop_signal()).await;
    let seconds = started.elapsed().as_secs_f64();
    let human = format!(
        "floor — served {:.0} s on http://{addr}\n  websockets    {} accepted, {} open at the end\n  publishes     {}: {} frames queued, {} skipped (full queues)\n",
        seconds, totals.websockets, totals.open, totals.publishes, totals.frames_queued, totals.frames_skipped,
    );
    let report = json!({ "address": addr.to_string(), "seconds": seconds, "totals": totals });
    Ok(Outcome { scenario: "floor", passed: true, report, human })
}

#[cfg(test)]
mod tests {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;

    use super::*;
    use crate::net::{Endpoint, connect_ws};
    use crate::ws::{ServerFrame, next_frame, ping_frame, subscribe_frame};

    #[test]
    fn the_announcement_carries_the_address() {
        let addr: SocketAddr = "127.0.0.1:40123".parse().unwrap();
        assert_eq!(parse_announcement(&announcement(addr)), Some(addr));
        assert_eq!(parse_announcement("nothing here"), None);
    }

    /// The whole path a baseline run takes, over real sockets: subscribe →
    /// snapshot, publish over HTTP → an update of the size asked, ping → pong.
    #[tokio::test]
    async fn a_subscriber_gets_its_snapshot_and_a_published_update() {
        let server =
            Server::bind("127.0.0.1:0".parse().unwrap(), Options { queue: 16, document: hub::sample_document(1_000) })
                .await
                .unwrap();
        let addr = server.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let serving = tokio::spawn(server.run(async move {
            let _ = stopped.await;
        }));

        let endpoint = Endpoint::resolve(&format!("http://{addr}")).await.unwrap();
        let mut ws = connect_ws(&endpoint, None).await.unwrap();
        ws.send(subscribe_frame("game:g1")).await.unwrap();
        let Some(Message::Text(snapshot)) = ws.next().await.transpose().unwrap() else { panic!("no snapshot") };
        assert!(snapshot.len() >= 1_000);
        assert!(matches!(serde_json::from_str(snapshot.as_str()).unwrap(), ServerFrame::Snapshot { seq: 0 }));

        let answer = reqwest::Client::new()
            .post(format!("http://{addr}/publish?topic=game:g1&bytes=600"))
            .body(r#"{"homeScore":1}"#)
            .send()
            .await
            .unwrap();
        assert!(answer.status().is_success());
        let published: serde_json::Value = answer.json().await.unwrap();
        assert_eq!((published["seq"].as_u64(), published["subscribers"].as_u64()), (Some(1), Some(1)));

        let Some(Message::Text(update)) = ws.next().await.transpose().unwrap() else { panic!("no update") };
        assert_eq!(update.len(), 600);
        let v: serde_json::Value = serde_json::from_str(update.as_str()).unwrap();
        assert_eq!(
            (v["type"].as_str(), v["topic"].as_str(), v["seq"].as_u64()),
            (Some("update"), Some("game:g1"), Some(1))
        );
        assert_eq!(v["data"]["homeScore"], 1);

        ws.send(ping_frame()).await.unwrap();
        assert!(matches!(next_frame(&mut ws).await.unwrap(), Some(ServerFrame::Pong)));
        ws.send(Message::Ping(tokio_tungstenite::tungstenite::Bytes::from_static(b"hb"))).await.unwrap();
        assert!(matches!(ws.next().await.transpose().unwrap(), Some(Message::Pong(p)) if p.as_ref() == b"hb"));

        let _ = stop.send(());
        let totals = serving.await.unwrap();
        assert_eq!((totals.websockets, totals.publishes, totals.frames_queued), (1, 1, 1));
    }
}
