//! The test WebSocket client, shared by the one-node (`api`) and the
//! two-node (`cluster`) suites: it speaks the gateway's JSON frames like a
//! browser tab or a display would. Each crate includes it with
//! `#[path = "../common/ws.rs"] mod ws;` and lets its own user type sign in
//! through [`Credentials`].

#![allow(dead_code)]

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

/// The socket under a test client, reachable for raw frames and TCP checks.
pub type WsStream = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// How long `command` waits for its reply unless told otherwise.
pub const REPLY_WITHIN: Duration = Duration::from_secs(10);

/// Who a socket signs in as: each suite's own test user.
pub trait Credentials {
    fn token(&self) -> &str;
    fn user_id(&self) -> &str;
}

/// A test WebSocket client.
pub struct Ws {
    pub stream: WsStream,
    /// How long `command` waits for its reply: the cluster's races queue
    /// many commands behind one actor, so they wait longer.
    pub reply_within: Duration,
}

impl Ws {
    pub async fn connect(url: &str) -> Ws {
        let (stream, _) = tokio_tungstenite::connect_async(url).await.expect("ws connects");
        Ws::over(stream)
    }

    /// A client on a socket the test opened itself (e.g. with a tiny
    /// receive buffer).
    pub fn over(stream: WsStream) -> Ws {
        Ws { stream, reply_within: REPLY_WITHIN }
    }

    pub async fn send(&mut self, frame: Value) {
        self.stream.send(Message::Text(frame.to_string().into())).await.expect("send");
    }

    pub async fn send_text(&mut self, text: &str) {
        self.stream.send(Message::Text(text.to_string().into())).await.expect("send");
    }

    /// The next JSON text frame (skipping pings), or None on close / timeout.
    pub async fn next_json(&mut self, within: Duration) -> Option<Value> {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            let msg = tokio::time::timeout_at(deadline, self.stream.next()).await.ok()??;
            match msg.ok()? {
                Message::Text(t) => return serde_json::from_str(&t).ok(),
                Message::Close(_) => return None,
                _ => continue,
            }
        }
    }

    /// The next frame of this `type` (skipping others).
    pub async fn next_of(&mut self, kind: &str, within: Duration) -> Option<Value> {
        let text = self.next_text_of(kind, within).await?;
        serde_json::from_str(&text).ok()
    }

    /// The next frame of this `type` as sent, text and all (its size is
    /// what a phone downloads).
    pub async fn next_text_of(&mut self, kind: &str, within: Duration) -> Option<String> {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            let msg = tokio::time::timeout_at(deadline, self.stream.next()).await.ok()??;
            let text = match msg.ok()? {
                Message::Text(t) => t.to_string(),
                Message::Close(_) => return None,
                _ => continue,
            };
            let v: Value = serde_json::from_str(&text).ok()?;
            if v["type"] == kind {
                return Some(text);
            }
        }
    }

    /// The JSON frames that arrive before the `pong` to a ping sent now.
    /// The socket is one ordered channel: whatever the server queued for
    /// this client before it read the ping comes before its pong, so a test
    /// can prove something was *not* sent without guessing a delay.
    pub async fn frames_before_pong(&mut self) -> Vec<Value> {
        self.send(json!({"type": "ping"})).await;
        let mut before = Vec::new();
        loop {
            let frame = self.next_json(Duration::from_secs(5)).await.expect("a pong to the ping");
            if frame["type"] == "pong" {
                return before;
            }
            before.push(frame);
        }
    }

    pub async fn auth(&mut self, user: &impl Credentials) {
        self.send(json!({"type": "auth", "token": user.token()})).await;
        let ack = self.next_of("authenticated", Duration::from_secs(5)).await.expect("auth ack");
        assert_eq!(ack["userId"], user.user_id());
    }

    /// Subscribes and returns the snapshot frame: the next frame must be it.
    pub async fn subscribe(&mut self, topic: &str) -> Value {
        self.send(json!({"type": "subscribe", "topic": topic})).await;
        let snap = self.next_json(Duration::from_secs(5)).await.expect("snapshot");
        assert_eq!(snap["type"], "snapshot", "expected a snapshot, got {snap}");
        snap
    }

    /// Sends a command and waits (up to `reply_within`) for its reply.
    pub async fn command(&mut self, id: &str, command: Value) -> Value {
        self.send(json!({"type": "command", "id": id, "command": command})).await;
        let deadline = tokio::time::Instant::now() + self.reply_within;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            let v = self.next_json(left).await.expect("a reply");
            if v["type"] == "reply" && v["id"] == id {
                return v;
            }
        }
    }

    /// The close code, waiting for the server to close (1006: the
    /// connection ended without a close frame; None: still open).
    pub async fn closed_with(&mut self, within: Duration) -> Option<u16> {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            match tokio::time::timeout_at(deadline, self.stream.next()).await {
                Err(_) => return None,
                Ok(None) => return Some(1006),
                Ok(Some(Err(_))) => return Some(1006),
                Ok(Some(Ok(Message::Close(frame)))) => return Some(frame.map(|f| u16::from(f.code)).unwrap_or(1005)),
                Ok(Some(Ok(_))) => continue,
            }
        }
    }
}
