//! One WebSocket connection, on the TCP connection the gateway took over
//! after the handshake: a reader (the connection's own task) that handles
//! the client's frames (auth, subscribe, unsubscribe, commands, ping),
//! enforces the limits and heartbeats, and a writer task that drains the
//! connection's outbox and alone writes to the socket (the reader queues its
//! pongs and heartbeat pings there too). The two share the outbox; neither
//! ever blocks the hub or other connections.
//!
//! Token expiry on an open socket: a fresh `auth` frame replaces the token
//! at any time (clients refresh before expiry). When the token expires
//! without one, private subscriptions (`feed`, `event:`) end with an
//! `unsubscribed` frame and the connection carries on anonymously.
//!
//! Ending: whoever decides (the reader on a close frame, a flood or idle
//! silence; the writer or the hub on a client too slow to read) closes the
//! outbox; the writer sends the close frame and both tasks stop. When the
//! close frame cannot be delivered — the client stopped reading and every
//! buffer is full — the TCP connection is reset when it closes (zero
//! linger), so a client that never reads cannot hold a socket and its send
//! buffer open. A close the client starts is answered and the connection
//! ends with a FIN.

use super::fragments::{Assembled, Fragments};
use super::protocol;
use super::wire::{FrameReader, FrameWriter, Opcode};
use crate::auth::{self, AuthUser};
use crate::commands;
use crate::http::limits::TokenBucket;
use crate::realtime::frame::{Frame, FrameKind};
use crate::realtime::outbox::{CloseReason, Next, Outbox, TOO_SLOW};
use crate::realtime::snapshot_frame;
use crate::realtime::topics::Topic;
use crate::state::AppState;
use actix_http::ws::{Frame as WsFrame, ProtocolError};
use bytes::BytesMut;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio::net::TcpStream;

/// Longest a subscribe waits for Redis to confirm a new topic's
/// subscription before it takes the snapshot anyway (a reconnect resyncs).
const LISTEN_CONFIRM_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

static NEXT_CONN_ID: AtomicU64 = AtomicU64::new(1);

/// Close codes we use.
const CLOSE_NORMAL: u16 = 1000;
const CLOSE_TOO_BIG: u16 = 1009;
const CLOSE_POLICY: u16 = 1008;
const CLOSE_PROTOCOL: u16 = 1002;
/// Text that is not UTF-8 (RFC 6455 §7.4.1).
const CLOSE_INVALID_DATA: u16 = 1007;

/// How long the writer waits to hand the close frame over before resetting.
const CLOSE_HANDOVER: Duration = Duration::from_secs(1);

/// Runs one connection, from just after the handshake's `101` until it
/// ends: the reader here, the writer on a task of its own. `early` holds
/// what the client sent right behind its handshake.
pub async fn run(state: Arc<AppState>, io: TcpStream, early: BytesMut) {
    let limits = state.config.ws.clone();
    let _ = io.set_nodelay(true);
    let (read_half, write_half) = io.into_split();
    let outbox = Outbox::new(limits.max_queue);
    actix_web::rt::spawn(write_loop(FrameWriter::new(write_half), outbox.clone(), limits.send_timeout));
    let id = NEXT_CONN_ID.fetch_add(1, Ordering::Relaxed);
    state.realtime.hub.connect(id, outbox.clone());
    let conn = Conn {
        id,
        state,
        outbox,
        user: None,
        expires_at: None,
        subs: HashMap::new(),
        bucket: TokenBucket::new(f64::from(limits.rate_per_sec), limits.rate_burst),
        strikes: 0,
        last_heard: Instant::now(),
        commands: Vec::new(),
    };
    conn.read_loop(FrameReader::new(read_half, early, limits.max_frame_bytes)).await;
}

/// The one task that writes to the socket: every frame, pings and pongs
/// included, comes through the outbox.
async fn write_loop(mut writer: FrameWriter, outbox: Arc<Outbox>, send_timeout: Duration) {
    let reason = loop {
        match outbox.next().await {
            Next::Frame(frame) => match within(send_timeout, writer.send(opcode(frame.kind), frame.bytes())).await {
                Ok(Ok(())) => {}
                // The connection is gone already.
                Ok(Err(_)) => return,
                Err(_) => {
                    // The client stopped reading: nothing more will get through
                    // (the reader learns from the outbox; the writer stops here,
                    // also when the reader had ended already).
                    let reason = CloseReason { code: TOO_SLOW, message: "too slow: not reading".into() };
                    outbox.close(reason.clone());
                    break Some(reason);
                }
            },
            Next::Close(reason) => break Some(reason),
            Next::Done(echo) => break echo.map(|code| CloseReason { code, message: String::new() }),
        }
    };
    // The close frame waits for room in the connection's send buffer, which
    // a client that does not read never makes: then the connection is reset
    // when it closes instead. A close the client started is answered with
    // its code, or none when it gave none (RFC 6455 §5.5.1).
    let close = async {
        match &reason {
            Some(r) => writer.close(r.code, &r.message).await,
            None => writer.send(Opcode::Close, &[]).await,
        }
    };
    if tokio::time::timeout(CLOSE_HANDOVER.min(send_timeout), close).await.is_err() {
        tracing::debug!("close frame stuck behind a client that does not read: reset");
        writer.reset_on_close();
    }
}

fn opcode(kind: FrameKind) -> Opcode {
    match kind {
        FrameKind::Ping => Opcode::Ping,
        FrameKind::Pong => Opcode::Pong,
        FrameKind::Snapshot | FrameKind::Update | FrameKind::Control => Opcode::Text,
    }
}

/// `work` with a time limit, which costs a timer only when the work does
/// not finish at once (a frame nearly always fits the socket's buffer).
async fn within<T>(
    limit: Duration,
    work: impl std::future::Future<Output = T>,
) -> Result<T, tokio::time::error::Elapsed> {
    let mut work = std::pin::pin!(work);
    match futures_util::poll!(work.as_mut()) {
        std::task::Poll::Ready(done) => Ok(done),
        std::task::Poll::Pending => tokio::time::timeout(limit, work).await,
    }
}

struct Subscription {
    client_name: String,
    private: bool,
}

struct Conn {
    id: u64,
    state: Arc<AppState>,
    outbox: Arc<Outbox>,
    user: Option<AuthUser>,
    /// When the current token expires (epoch seconds).
    expires_at: Option<i64>,
    /// Bus topic name → subscription.
    subs: HashMap<Arc<str>, Subscription>,
    bucket: TokenBucket,
    /// Frames refused for rate or not understood, in a row: at
    /// `WS_ABUSE_STRIKES` the connection closes with 1008.
    strikes: u32,
    last_heard: Instant,
    /// Commands still being answered, each on a task of its own.
    commands: Vec<tokio::task::JoinHandle<()>>,
}

impl Conn {
    fn send(&self, text: String) {
        self.outbox.push(Frame::control(text));
    }

    fn close(&self, code: u16, message: &str) {
        self.outbox.close(CloseReason { code, message: message.into() });
    }

    async fn read_loop(mut self, mut reader: FrameReader) {
        let limits = self.state.config.ws.clone();
        let mut heartbeat = tokio::time::interval(limits.heartbeat);
        heartbeat.tick().await;
        let mut fragments = Fragments::default();
        let mut client_closed = false;
        // The code of the client's close frame, echoed in ours.
        let mut echo = None;
        loop {
            tokio::select! {
                frame = reader.recv() => {
                    let Some(frame) = frame else {
                        client_closed = true;
                        break;
                    };
                    self.last_heard = Instant::now();
                    let go_on = match frame {
                        Ok(WsFrame::Text(bytes)) => match std::str::from_utf8(&bytes) {
                            Ok(text) => self.on_message(Some(text)).await,
                            Err(_) => self.close_with(CLOSE_INVALID_DATA, "text is not UTF-8"),
                        },
                        Ok(WsFrame::Binary(_)) => self.on_message(None).await,
                        Ok(WsFrame::Continuation(item)) => match fragments.push(item, limits.max_frame_bytes) {
                            Assembled::Partial => true,
                            Assembled::Text(bytes) => match std::str::from_utf8(&bytes) {
                                Ok(text) => self.on_message(Some(text)).await,
                                Err(_) => self.close_with(CLOSE_INVALID_DATA, "text is not UTF-8"),
                            },
                            Assembled::Binary => self.on_message(None).await,
                            // The same limit and code as one oversized frame:
                            // splitting a message does not make it smaller.
                            Assembled::TooBig => self.close_with(CLOSE_TOO_BIG, "message too large"),
                            Assembled::TooManyFragments => self.close_with(CLOSE_POLICY, "too many fragments"),
                        },
                        Ok(WsFrame::Ping(bytes)) => {
                            self.outbox.push(Frame::pong(bytes));
                            true
                        }
                        Ok(WsFrame::Pong(_)) => true,
                        Ok(WsFrame::Close(reason)) => {
                            client_closed = true;
                            // Commands the client sent before its close are
                            // answered before ours (their replies are queued
                            // ahead of it).
                            self.finish_commands().await;
                            echo = reason.map(|r| u16::from(r.code));
                            false
                        }
                        Err(ProtocolError::Overflow) => self.close_with(CLOSE_TOO_BIG, "frame too large"),
                        Err(ProtocolError::Io(_)) => {
                            client_closed = true;
                            false
                        }
                        Err(_) => self.close_with(CLOSE_PROTOCOL, "protocol error"),
                    };
                    if !go_on {
                        break;
                    }
                }
                _ = heartbeat.tick() => {
                    if self.last_heard.elapsed() > limits.idle_timeout {
                        self.close(CLOSE_NORMAL, "idle timeout");
                        break;
                    }
                    self.expire_token_if_due();
                    self.outbox.push(Frame::ping());
                }
                _ = self.outbox.closing() => break,
            }
        }
        self.cleanup(echo);
        if !client_closed {
            self.linger(&mut reader, limits.send_timeout).await;
        }
    }

    /// Closes (the writer sends the frame); `false` so the reader stops.
    fn close_with(&self, code: u16, message: &str) -> bool {
        self.close(code, message);
        false
    }

    /// The server closed: wait briefly for the client's close frame (or its
    /// end of the connection) so the connection ends cleanly, then let it
    /// go. A client that does not read even the close frame is reset by the
    /// writer.
    async fn linger(&self, reader: &mut FrameReader, limit: Duration) {
        let answered = async {
            while let Some(Ok(frame)) = reader.recv().await {
                if matches!(frame, WsFrame::Close(_)) {
                    return;
                }
            }
        };
        if tokio::time::timeout(CLOSE_HANDOVER.min(limit), answered).await.is_err() {
            tracing::debug!(conn = self.id, "no close frame from the client: closing anyway");
        }
    }

    /// One client message (`None`: a binary one). Counts against the rate
    /// limit; refused, malformed and unknown frames are answered with an
    /// error frame and count as strikes. `false` when the connection closes.
    async fn on_message(&mut self, text: Option<&str>) -> bool {
        let go_on = if !self.bucket.take() {
            self.strike("rate_limited", "slow down")
        } else {
            let outcome = match text {
                Some(text) => self.handle_text(text).await,
                None => Err("only text frames carrying JSON are accepted".to_string()),
            };
            match outcome {
                Ok(()) => {
                    self.strikes = 0;
                    true
                }
                Err(message) => self.strike("bad_frame", &message),
            }
        };
        if go_on {
            self.wait_for_writer().await;
        }
        go_on
    }

    /// Backpressure: stop reading the client's frames while our answers to
    /// earlier ones are still queued, so a burst of requests cannot overflow
    /// its own outbox. A client that never reads is closed by the writer.
    async fn wait_for_writer(&self) {
        let high_water = self.state.config.ws.max_queue / 2;
        let started = Instant::now();
        while self.outbox.len() > high_water && started.elapsed() < self.state.config.ws.send_timeout {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    }

    /// A refused or malformed frame: an error frame, or at `WS_ABUSE_STRIKES`
    /// in a row a 1008 close. `false` when closing.
    fn strike(&mut self, code: &str, message: &str) -> bool {
        self.strikes += 1;
        if self.strikes >= self.state.config.ws.abuse_strikes {
            return self.close_with(CLOSE_POLICY, "too many refused or malformed frames");
        }
        self.send(protocol::error_frame(code, message));
        true
    }

    /// Handles one frame; `Err` says why it is not a frame we understand.
    async fn handle_text(&mut self, text: &str) -> Result<(), String> {
        let frame: protocol::ClientFrame = serde_json::from_str(text).map_err(|e| {
            // serde quotes the offending input: keep that short.
            format!("not a frame we understand: {}", protocol::clip(&e.to_string(), protocol::MAX_ECHO_CHARS))
        })?;
        match frame {
            protocol::ClientFrame::Ping { id } => {
                if id.as_ref().is_some_and(|id| id.chars().count() > protocol::MAX_PING_ID_CHARS) {
                    return Err(format!("a ping id is at most {} characters", protocol::MAX_PING_ID_CHARS));
                }
                self.send(protocol::pong_frame(id.as_deref(), crate::db::now_ms()));
            }
            protocol::ClientFrame::Auth { token } => self.authenticate(&token).await,
            protocol::ClientFrame::Subscribe { topic, since } => {
                if let Err(e) = self.subscribe(&topic, since).await {
                    let topic = protocol::clip(&topic, protocol::MAX_ECHO_CHARS);
                    self.send(protocol::error_frame(e.code(), &format!("{topic}: {}", e.message())));
                }
            }
            protocol::ClientFrame::Unsubscribe { topic } => {
                let viewer = self.user.as_ref().map(|u| u.id.clone());
                if let Ok(t) = Topic::parse(&topic, viewer.as_deref()) {
                    self.unsubscribe(&t.bus_name());
                }
            }
            protocol::ClientFrame::Command { id, command } => {
                if id.is_empty() || id.len() > 128 {
                    return Err("a command needs an id of 1-128 characters".into());
                }
                self.command(id, command);
            }
        }
        Ok(())
    }

    async fn authenticate(&mut self, token: &str) {
        let verified = match self.state.auth.verify(token).await {
            Ok(identity) => auth::resolve_user(&self.state.db, &identity).await.map(|u| (u, identity.expires_at)),
            Err(e) => Err(e),
        };
        match verified {
            Ok((user, expires_at)) => {
                if self.user.as_ref().is_some_and(|u| u.id != user.id) {
                    self.end_private_subscriptions("signed in as someone else");
                }
                self.send(protocol::authenticated_frame(&user.id));
                self.user = Some(user);
                self.expires_at = Some(expires_at);
            }
            Err(e) => self.send(protocol::error_frame(e.code(), &e.message())),
        }
    }

    fn expire_token_if_due(&mut self) {
        let now = chrono::Utc::now().timestamp();
        if self.expires_at.is_some_and(|exp| now > exp) {
            self.user = None;
            self.expires_at = None;
            self.end_private_subscriptions("session expired; send a fresh auth and subscribe again");
        }
    }

    fn end_private_subscriptions(&mut self, why: &str) {
        let private: Vec<Arc<str>> = self.subs.iter().filter(|(_, s)| s.private).map(|(k, _)| k.clone()).collect();
        for name in private {
            if let Some(sub) = self.subs.get(&name) {
                self.send(protocol::unsubscribed_frame(&sub.client_name, "unauthorized", why));
            }
            self.unsubscribe(&name);
        }
    }

    async fn subscribe(&mut self, raw: &str, since: Option<i64>) -> Result<(), crate::error::AppError> {
        let viewer = self.user.as_ref().map(|u| u.id.clone());
        let topic = Topic::parse(raw, viewer.as_deref())?;
        let name = self.state.realtime.hub.name(&topic.bus_name());
        if !self.subs.contains_key(&name) && self.subs.len() >= self.state.config.ws.max_subscriptions {
            return Err(crate::error::AppError::conflict_code(
                "too_many_subscriptions",
                "unsubscribe from something first",
            ));
        }
        let source = self.state.realtime.topics.get(topic.kind)?.clone();
        source.authorize(viewer.as_deref(), &topic.id).await?;
        self.outbox.begin_subscribe(name.clone(), since);
        if self.state.realtime.hub.subscribe(&name, self.id, self.outbox.clone())
            && let Some(confirmed) = self.state.realtime.bus.listen(&name)
        {
            // Snapshot only once other nodes' updates reach this node; a
            // Redis that does not answer must not hold the subscribe.
            let _ = tokio::time::timeout(LISTEN_CONFIRM_WAIT, confirmed).await;
        }
        self.subs.insert(name.clone(), Subscription { client_name: topic.client_name(), private: source.is_private() });
        match source.snapshot(&topic.id).await {
            Ok((seq, data)) => {
                let bytes = snapshot_frame(&topic.client_name(), seq, &data);
                self.outbox.complete_subscribe(Frame::of_topic(FrameKind::Snapshot, name, seq, bytes.into()));
                Ok(())
            }
            Err(e) => {
                self.unsubscribe(&name);
                Err(e)
            }
        }
    }

    fn unsubscribe(&mut self, name: &str) {
        if let Some((key, _)) = self.subs.remove_entry(name)
            && self.state.realtime.hub.unsubscribe(&key, self.id)
        {
            self.state.realtime.bus.unlisten(&key);
        }
        self.outbox.forget(name);
    }

    /// Commands run on their own task, so a slow commit never stalls reading;
    /// each is answered by exactly one reply frame.
    fn command(&mut self, id: String, command: serde_json::Value) {
        let state = self.state.clone();
        let user = self.user.clone();
        let outbox = self.outbox.clone();
        let task = actix_web::rt::spawn(async move {
            let reply = match commands::dispatch(&state, user.as_ref(), &id, command).await {
                Ok(data) => protocol::reply_ok(&id, &data),
                Err(e) => protocol::reply_err(&id, e.code(), &e.message()),
            };
            outbox.push(Frame::control(reply));
        });
        self.commands.retain(|c| !c.is_finished());
        self.commands.push(task);
    }

    /// Waits (at most the send timeout) for the commands still being
    /// answered, so their replies go out before the connection closes.
    async fn finish_commands(&mut self) {
        let running = futures_util::future::join_all(self.commands.drain(..));
        if tokio::time::timeout(self.state.config.ws.send_timeout, running).await.is_err() {
            tracing::debug!(conn = self.id, "commands still running at the client's close: their replies are lost");
        }
    }

    fn cleanup(&mut self, echo: Option<u16>) {
        let names: Vec<Arc<str>> = self.subs.keys().cloned().collect();
        for name in names {
            self.unsubscribe(&name);
        }
        self.state.realtime.hub.disconnect(self.id);
        self.outbox.finish(echo);
    }
}
