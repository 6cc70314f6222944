//! One WebSocket connection: a reader task that handles the client's frames
//! (auth, subscribe, unsubscribe, commands, ping), enforces the limits and
//! heartbeats, and a writer task that drains the connection's outbox. The
//! two share the outbox; neither ever blocks the hub or other connections.
//!
//! Token expiry on an open socket: a fresh `auth` frame replaces the token
//! at any time (clients refresh before expiry). When the token expires
//! without one, private subscriptions (`feed`, `event:`) end with an
//! `unsubscribed` frame and the connection carries on anonymously.

use super::protocol;
use crate::auth::{self, AuthUser};
use crate::commands;
use crate::realtime::outbox::{CloseReason, Frame, FrameKind, Next, Outbox, TOO_SLOW};
use crate::realtime::snapshot_frame;
use crate::realtime::topics::Topic;
use crate::startup::AppState;
use actix_ws::{AggregatedMessage, CloseCode, ProtocolError, Session};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

static NEXT_CONN_ID: AtomicU64 = AtomicU64::new(1);

/// Close codes we use.
const CLOSE_NORMAL: u16 = 1000;
const CLOSE_TOO_BIG: u16 = 1009;
const CLOSE_POLICY: u16 = 1008;
const CLOSE_PROTOCOL: u16 = 1002;

pub fn spawn(state: Arc<AppState>, session: Session, stream: actix_ws::MessageStream) {
    let limits = state.config.ws.clone();
    let outbox = Outbox::new(limits.max_queue);
    actix_web::rt::spawn(write_loop(session.clone(), outbox.clone(), limits.send_timeout));
    let id = NEXT_CONN_ID.fetch_add(1, Ordering::Relaxed);
    state.realtime.hub.connect(id, outbox.clone());
    let conn = Conn {
        id,
        state,
        outbox,
        user: None,
        expires_at: None,
        subs: HashMap::new(),
        bucket: TokenBucket::new(limits.rate_per_sec, limits.rate_burst),
        strikes: 0,
        last_heard: Instant::now(),
    };
    let stream = stream
        .max_frame_size(limits.max_frame_bytes)
        .aggregate_continuations()
        .max_continuation_size(limits.max_frame_bytes);
    actix_web::rt::spawn(conn.read_loop(session, stream));
}

async fn write_loop(mut session: Session, outbox: Arc<Outbox>, send_timeout: Duration) {
    loop {
        match outbox.next().await {
            Next::Frame(frame) => match tokio::time::timeout(send_timeout, session.text(frame.bytes)).await {
                Ok(Ok(())) => {}
                Ok(Err(_)) => break,
                Err(_) => {
                    // The client stopped reading: nothing more will get through.
                    outbox.close(CloseReason { code: TOO_SLOW, message: "too slow: not reading".into() });
                }
            },
            Next::Close(reason) => {
                let close =
                    actix_ws::CloseReason { code: CloseCode::from(reason.code), description: Some(reason.message) };
                let _ = tokio::time::timeout(Duration::from_secs(1), session.close(Some(close))).await;
                return;
            }
            Next::Done => {
                let _ = tokio::time::timeout(Duration::from_secs(1), session.close(None)).await;
                return;
            }
        }
    }
}

/// A token bucket: `rate` per second sustained, `burst` at once.
struct TokenBucket {
    tokens: f64,
    rate: f64,
    burst: f64,
    at: Instant,
}

impl TokenBucket {
    fn new(rate: u32, burst: u32) -> Self {
        TokenBucket { tokens: f64::from(burst), rate: f64::from(rate), burst: f64::from(burst), at: Instant::now() }
    }

    fn take(&mut self) -> bool {
        let now = Instant::now();
        self.tokens = (self.tokens + now.duration_since(self.at).as_secs_f64() * self.rate).min(self.burst);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
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
    /// Messages refused for rate in a row.
    strikes: u32,
    last_heard: Instant,
}

impl Conn {
    fn send(&self, text: String) {
        self.outbox.push(Frame::control(text));
    }

    fn close(&self, code: u16, message: &str) {
        self.outbox.close(CloseReason { code, message: message.into() });
    }

    async fn read_loop(mut self, mut session: Session, mut stream: actix_ws::AggregatedMessageStream) {
        let limits = self.state.config.ws.clone();
        let mut heartbeat = tokio::time::interval(limits.heartbeat);
        heartbeat.tick().await;
        loop {
            tokio::select! {
                msg = stream.recv() => {
                    let Some(msg) = msg else { break };
                    self.last_heard = Instant::now();
                    match msg {
                        Ok(AggregatedMessage::Text(text)) => {
                            if !self.admit() {
                                break;
                            }
                            self.handle_text(&text).await;
                            self.wait_for_writer().await;
                        }
                        Ok(AggregatedMessage::Binary(_)) => {
                            if !self.admit() {
                                break;
                            }
                            self.send(protocol::error_frame("bad_frame", "only text frames carrying JSON are accepted"));
                        }
                        Ok(AggregatedMessage::Ping(bytes)) => {
                            let _ = tokio::time::timeout(limits.send_timeout, session.pong(&bytes)).await;
                        }
                        Ok(AggregatedMessage::Pong(_)) => {}
                        Ok(AggregatedMessage::Close(_)) => break,
                        Err(ProtocolError::Overflow) => {
                            self.close(CLOSE_TOO_BIG, "frame too large");
                            break;
                        }
                        Err(_) => {
                            self.close(CLOSE_PROTOCOL, "protocol error");
                            break;
                        }
                    }
                }
                _ = heartbeat.tick() => {
                    if self.last_heard.elapsed() > limits.idle_timeout {
                        self.close(CLOSE_NORMAL, "idle timeout");
                        break;
                    }
                    self.expire_token_if_due();
                    let _ = tokio::time::timeout(limits.send_timeout, session.ping(b"")).await;
                }
                _ = self.outbox.closing() => break,
            }
        }
        self.cleanup();
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

    /// Rate limit: refuse with an error frame; close 1008 on sustained abuse.
    fn admit(&mut self) -> bool {
        if self.bucket.take() {
            self.strikes = 0;
            return true;
        }
        self.strikes += 1;
        if self.strikes >= self.state.config.ws.abuse_strikes {
            self.close(CLOSE_POLICY, "rate limit exceeded");
            return false;
        }
        self.send(protocol::error_frame("rate_limited", "slow down"));
        true
    }

    async fn handle_text(&mut self, text: &str) {
        let frame: protocol::ClientFrame = match serde_json::from_str(text) {
            Ok(f) => f,
            Err(e) => {
                self.send(protocol::error_frame("bad_frame", &format!("not a frame we understand: {e}")));
                return;
            }
        };
        match frame {
            protocol::ClientFrame::Ping => self.send(protocol::PONG.to_string()),
            protocol::ClientFrame::Auth { token } => self.authenticate(&token).await,
            protocol::ClientFrame::Subscribe { topic, since } => {
                if let Err(e) = self.subscribe(&topic, since).await {
                    self.send(protocol::error_frame(e.code(), &format!("{topic}: {}", e.message())));
                }
            }
            protocol::ClientFrame::Unsubscribe { topic } => {
                let viewer = self.user.as_ref().map(|u| u.id.clone());
                if let Ok(t) = Topic::parse(&topic, viewer.as_deref()) {
                    self.unsubscribe(&t.bus_name());
                }
            }
            protocol::ClientFrame::Command { id, command } => self.command(id, command),
        }
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
        let name: Arc<str> = topic.bus_name().into();
        if !self.subs.contains_key(&name) && self.subs.len() >= self.state.config.ws.max_subscriptions {
            return Err(crate::error::AppError::conflict_code(
                "too_many_subscriptions",
                "unsubscribe from something first",
            ));
        }
        let source = self.state.realtime.topics.get(topic.kind)?.clone();
        source.authorize(viewer.as_deref(), &topic.id).await?;
        self.outbox.begin_subscribe(name.clone(), since);
        if self.state.realtime.hub.subscribe(&name, self.id, self.outbox.clone()) {
            self.state.realtime.bus.listen(&name);
        }
        self.subs.insert(name.clone(), Subscription { client_name: topic.client_name(), private: source.is_private() });
        match source.snapshot(&topic.id).await {
            Ok((seq, data)) => {
                let bytes = snapshot_frame(&topic.client_name(), seq, &data);
                self.outbox.complete_subscribe(Frame {
                    kind: FrameKind::Snapshot,
                    topic: Some(name),
                    seq,
                    bytes: bytes.into(),
                });
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
    fn command(&self, id: String, command: serde_json::Value) {
        if id.is_empty() || id.len() > 128 {
            self.send(protocol::error_frame("bad_frame", "a command needs an id of 1-128 characters"));
            return;
        }
        let state = self.state.clone();
        let user = self.user.clone();
        let outbox = self.outbox.clone();
        actix_web::rt::spawn(async move {
            let reply = match commands::dispatch(&state, user.as_ref(), &id, command).await {
                Ok(data) => protocol::reply_ok(&id, &data),
                Err(e) => protocol::reply_err(&id, e.code(), &e.message()),
            };
            outbox.push(Frame::control(reply));
        });
    }

    fn cleanup(&mut self) {
        let names: Vec<Arc<str>> = self.subs.keys().cloned().collect();
        for name in names {
            self.unsubscribe(&name);
        }
        self.state.realtime.hub.disconnect(self.id);
        self.outbox.finish();
    }
}
