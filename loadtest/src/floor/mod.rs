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
//! One port serves everything (the request head decides, [`http`]):
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

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::json;
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::protocol::{Role, WebSocketConfig};
use tokio_tungstenite::tungstenite::{Message, Utf8Bytes};
use tracing::{debug, info, warn};

use self::http::Head;
use self::hub::{Hub, Outbox};
use crate::cli::FloorArgs;
use crate::scenario::Outcome;

/// Where the WebSocket lives, as on Rinkside.
pub const WS_PATH: &str = "/api/v1/ws";

/// Descriptors the standalone floor asks for: far more sockets than one box
/// can open, so the hard limit is what it gets.
const WANTED_FILE_DESCRIPTORS: usize = 1_000_000;

/// Largest frame a client may send (subscribe and ping are tiny).
const MAX_CLIENT_FRAME_BYTES: usize = 64 * 1024;

/// Pause after a failed `accept` (out of descriptors, say) before the next.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);

const PONG: &str = r#"{"type":"pong"}"#;

/// WebSocket settings for every floor connection.
fn ws_config() -> WebSocketConfig {
    WebSocketConfig::default()
        // tungstenite allocates its read buffer up front (128 KiB by
        // default); clients only send subscribe and ping frames.
        .read_buffer_size(4 * 1024)
        // Write each frame as it comes: frames are already whole messages
        // and latency is what is measured.
        .write_buffer_size(0)
        .max_message_size(Some(MAX_CLIENT_FRAME_BYTES))
        .max_frame_size(Some(MAX_CLIENT_FRAME_BYTES))
}

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

/// One TCP connection: HTTP requests (kept alive) until it upgrades to a
/// WebSocket or closes.
async fn serve(state: Arc<State>, mut stream: TcpStream) -> Result<()> {
    stream.set_nodelay(true)?;
    let mut buf = Vec::with_capacity(1024);
    loop {
        let head = match http::read_head(&mut stream, &mut buf).await {
            Ok(Some(head)) => head,
            Ok(None) => return Ok(()),
            Err(e) => {
                let _ = stream.write_all(http::response(400, "text/plain", &format!("{e:#}"), false).as_bytes()).await;
                return Err(e);
            }
        };
        if head.path == WS_PATH && head.is_upgrade() {
            let answer = match http::upgrade_response(&head) {
                Ok(a) => a,
                Err(e) => {
                    let _ =
                        stream.write_all(http::response(400, "text/plain", &format!("{e:#}"), false).as_bytes()).await;
                    return Err(e);
                }
            };
            stream.write_all(answer.as_bytes()).await?;
            // Whatever the client sent after its head is its first frame.
            let ws = WebSocketStream::from_partially_read(stream, buf, Role::Server, Some(ws_config())).await;
            return websocket(state, ws).await;
        }
        // A body we will not read leaves the connection out of step: close it.
        let (answer, keep_alive) = match head.content_length() {
            Ok(len) if len > http::MAX_BODY_BYTES => {
                (http::response(413, "text/plain", "body too large", false), false)
            }
            Ok(len) => {
                let body = http::read_body(&mut stream, &mut buf, len).await?;
                (route(&state, &head, &body), head.keep_alive())
            }
            Err(e) => (http::response(400, "text/plain", &format!("{e:#}"), false), false),
        };
        stream.write_all(answer.as_bytes()).await?;
        if !keep_alive {
            return Ok(());
        }
    }
}

/// The plain HTTP endpoints.
fn route(state: &State, head: &Head, body: &[u8]) -> String {
    let keep = head.keep_alive();
    let bad = |message: &str| http::response(400, "application/json", &json!({ "error": message }).to_string(), keep);
    match (head.method.as_str(), head.path.as_str()) {
        ("GET", "/healthz") => http::response(200, "text/plain", "ok", keep),
        ("POST", path @ ("/publish" | "/document")) => {
            let params = http::query_params(&head.query);
            let Some(topic) = params.get("topic").filter(|t| !t.is_empty()) else {
                return bad("topic is required");
            };
            let data = match json_body(body) {
                Ok(d) => d,
                Err(message) => return bad(&message),
            };
            if path == "/document" {
                let Some(data) = data else { return bad("the document is the body") };
                state.hub.set_document(topic, data);
                return http::response(204, "application/json", "", keep);
            }
            let bytes = match params.get("bytes").map(|b| b.parse::<usize>()) {
                None => None,
                Some(Ok(n)) => Some(n),
                Some(Err(_)) => return bad("bytes must be a number"),
            };
            let published = state.hub.publish(topic, data, bytes);
            http::response(200, "application/json", &json!(published).to_string(), keep)
        }
        (_, "/healthz" | "/publish" | "/document") => http::response(405, "text/plain", "method not allowed", keep),
        _ => http::response(404, "text/plain", "not found", keep),
    }
}

/// The body as JSON text, `None` when empty; an error when it is not JSON.
fn json_body(body: &[u8]) -> Result<Option<&str>, String> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    let text = std::str::from_utf8(body).map_err(|_| "the body is not UTF-8".to_owned())?;
    serde_json::from_str::<serde::de::IgnoredAny>(text).map_err(|e| format!("the body is not JSON: {e}"))?;
    Ok(Some(text.trim()))
}

/// A frame from a client. Only what the floor acts on is typed; other
/// fields (`since`, `token`) are accepted and ignored.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum ClientFrame {
    Auth,
    Subscribe { topic: String },
    Unsubscribe { topic: String },
    Command { id: String },
    Ping,
}

fn error_frame(code: &str, message: &str) -> Message {
    Message::text(json!({ "type": "error", "error": { "code": code, "message": message } }).to_string())
}

/// One WebSocket: reads the client's frames and drains its queue, in one
/// task. Leaves every topic it joined when it ends.
async fn websocket(state: Arc<State>, mut ws: WebSocketStream<TcpStream>) -> Result<()> {
    let conn = state.connections.next_id.fetch_add(1, Ordering::Relaxed);
    state.connections.websockets.fetch_add(1, Ordering::Relaxed);
    state.connections.open.fetch_add(1, Ordering::Relaxed);
    let (outbox, mut queue) = mpsc::channel::<Utf8Bytes>(state.queue);
    let mut topics: Vec<String> = Vec::new();
    let result = async {
        loop {
            tokio::select! {
                frame = queue.recv() => {
                    // The task holds a sender itself, so the queue never closes.
                    let Some(frame) = frame else { return Ok(()) };
                    ws.feed(Message::Text(frame)).await?;
                    while let Ok(more) = queue.try_recv() {
                        ws.feed(Message::Text(more)).await?;
                    }
                    ws.flush().await?;
                }
                message = ws.next() => match message {
                    None => return Ok(()),
                    // tungstenite has queued the answering close frame (and
                    // pongs): send them.
                    Some(Ok(Message::Close(_))) => {
                        let _ = ws.flush().await;
                        return Ok(());
                    }
                    Some(Ok(Message::Ping(_))) => ws.flush().await?,
                    Some(Err(e)) => return Err(anyhow::Error::from(e)),
                    Some(Ok(Message::Text(text))) => {
                        if let Some(reply) = client_frame(&state, conn, &outbox, &mut topics, text.as_str()) {
                            ws.send(reply).await?;
                        }
                    }
                    Some(Ok(Message::Binary(_))) => ws.send(error_frame("bad_frame", "frames are JSON text")).await?,
                    Some(Ok(_)) => {}
                },
            }
        }
    }
    .await;
    for topic in &topics {
        state.hub.unsubscribe(topic, conn);
    }
    state.connections.open.fetch_sub(1, Ordering::Relaxed);
    result
}

/// Acts on one client frame; the direct answer, if any (a snapshot goes
/// through the queue so it stays in order with the topic's updates).
fn client_frame(state: &State, conn: u64, outbox: &Outbox, topics: &mut Vec<String>, text: &str) -> Option<Message> {
    match serde_json::from_str::<ClientFrame>(text) {
        Ok(ClientFrame::Auth) => None,
        Ok(ClientFrame::Ping) => Some(Message::text(PONG)),
        Ok(ClientFrame::Subscribe { topic }) => {
            if !state.hub.subscribe(&topic, conn, outbox) {
                return Some(error_frame("too_slow", "the connection's queue is full"));
            }
            if !topics.contains(&topic) {
                topics.push(topic);
            }
            None
        }
        Ok(ClientFrame::Unsubscribe { topic }) => {
            state.hub.unsubscribe(&topic, conn);
            topics.retain(|t| *t != topic);
            None
        }
        Ok(ClientFrame::Command { id }) => Some(Message::text(
            json!({
                "type": "reply", "id": id, "ok": false,
                "error": { "code": "unsupported", "message": "the floor server runs no commands" }
            })
            .to_string(),
        )),
        Err(e) => Some(error_frame("bad_frame", &e.to_string())),
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
    use super::*;
    use crate::net::{Endpoint, connect_ws};
    use crate::ws::{ServerFrame, next_frame, ping_frame, subscribe_frame};

    #[test]
    fn the_announcement_carries_the_address() {
        let addr: SocketAddr = "127.0.0.1:40123".parse().unwrap();
        assert_eq!(parse_announcement(&announcement(addr)), Some(addr));
        assert_eq!(parse_announcement("nothing here"), None);
    }

    #[test]
    fn bodies_must_be_json_or_empty() {
        assert_eq!(json_body(b""), Ok(None));
        assert_eq!(json_body(b" \n"), Ok(None));
        assert_eq!(json_body(b" {\"a\":1}\n"), Ok(Some("{\"a\":1}")));
        assert!(json_body(b"{nope").is_err());
    }

    fn state() -> State {
        State { hub: Hub::new("{}".into()), queue: 8, connections: Connections::default() }
    }

    fn post(query: &str) -> Head {
        http::parse_head(format!("POST {query} HTTP/1.1\r\n\r\n").as_bytes()).unwrap()
    }

    #[test]
    fn publish_needs_a_topic_and_answers_the_seq() {
        let s = state();
        assert!(route(&s, &post("/publish"), b"").starts_with("HTTP/1.1 400 "));
        assert!(route(&s, &post("/publish?topic=t&bytes=many"), b"").starts_with("HTTP/1.1 400 "));
        let answer = route(&s, &post("/publish?topic=game%3A1&bytes=300"), b"");
        assert!(answer.starts_with("HTTP/1.1 200 "), "{answer}");
        assert!(answer.ends_with(r#"{"frameBytes":300,"seq":1,"skipped":0,"subscribers":0}"#), "{answer}");
        assert!(route(&s, &post("/document?topic=t"), b"").starts_with("HTTP/1.1 400 "));
        assert!(route(&s, &post("/document?topic=t"), b"{}").starts_with("HTTP/1.1 204 "));
        assert!(route(&s, &post("/nowhere"), b"").starts_with("HTTP/1.1 404 "));
    }

    #[test]
    fn client_frames_get_the_contract_answers() {
        let s = state();
        let (tx, mut rx) = mpsc::channel(4);
        let mut topics = Vec::new();
        assert!(client_frame(&s, 1, &tx, &mut topics, r#"{"type":"auth","token":"x"}"#).is_none());
        assert_eq!(client_frame(&s, 1, &tx, &mut topics, r#"{"type":"ping"}"#), Some(Message::text(PONG)));
        assert!(client_frame(&s, 1, &tx, &mut topics, r#"{"type":"subscribe","topic":"game:1","since":3}"#).is_none());
        assert!(rx.try_recv().unwrap().as_str().starts_with(r#"{"type":"snapshot","topic":"game:1","seq":0"#));
        assert_eq!(topics, ["game:1"]);
        let Some(Message::Text(reply)) = client_frame(&s, 1, &tx, &mut topics, r#"{"type":"command","id":"c1"}"#)
        else {
            panic!("no reply")
        };
        assert!(reply.as_str().contains(r#""ok":false"#) && reply.as_str().contains(r#""id":"c1""#));
        let Some(Message::Text(error)) = client_frame(&s, 1, &tx, &mut topics, "not json") else {
            panic!("no error frame")
        };
        assert!(error.as_str().starts_with(r#"{"error":{"code":"bad_frame""#), "{error}");
        assert!(client_frame(&s, 1, &tx, &mut topics, r#"{"type":"unsubscribe","topic":"game:1"}"#).is_none());
        assert!(topics.is_empty());
        assert_eq!(s.hub.publish("game:1", None, None).subscribers, 0);
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
