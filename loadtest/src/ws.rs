//! The WebSocket side of the contract: frames we send and parse, a
//! signed-in follower of one topic ([`follow`]: `chat`'s screens, `feed`'s
//! followers), and a command connection that sends commands and waits for
//! their replies. (The subscriber fan-out scenarios spawn by the thousand
//! is [`crate::fleet`]'s.)

use std::net::IpAddr;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;

use crate::api::RsvpReply;
use crate::net::{Endpoint, Ws, connect_ws};

/// A frame from the server. Only what the load generator looks at is typed;
/// `data` of snapshots and updates is skipped without building a tree.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ServerFrame {
    Snapshot {
        seq: u64,
    },
    Update {
        seq: u64,
    },
    Reply {
        id: String,
        ok: bool,
        #[serde(default)]
        data: Option<Value>,
        #[serde(default)]
        error: Option<ErrorBody>,
    },
    Error {
        error: ErrorBody,
    },
    /// Not in CONTRACT.md: the server ended a subscription (e.g. its token
    /// expired). For us the subscriber is lost.
    Unsubscribed {
        #[serde(default)]
        error: Option<ErrorBody>,
    },
    Pong,
    #[serde(other)]
    Other,
}

#[derive(Debug, Clone, Deserialize)]
pub struct ErrorBody {
    pub code: String,
    #[serde(default)]
    pub message: String,
}

impl std::fmt::Display for ErrorBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

pub fn auth_frame(token: &str) -> Message {
    Message::text(json!({ "type": "auth", "token": token }).to_string())
}

pub fn subscribe_frame(topic: &str) -> Message {
    Message::text(json!({ "type": "subscribe", "topic": topic }).to_string())
}

pub fn ping_frame() -> Message {
    Message::text(r#"{"type":"ping"}"#)
}

pub fn command_frame(id: &str, command: &Value) -> Message {
    Message::text(json!({ "type": "command", "id": id, "command": command }).to_string())
}

/// The `seq` of a frame's text, if it has one.
pub fn seq_of(frame: &str) -> Option<u64> {
    serde_json::from_str::<Value>(frame).ok()?["seq"].as_u64()
}

/// Follows `topic` as `token` until the connection ends or the server
/// sends an error: says so on `ready` at the snapshot, then sends whatever
/// `pick` finds in an update frame, stamped when read.
pub async fn follow<T>(
    endpoint: &Endpoint,
    token: &str,
    topic: &str,
    ready: mpsc::UnboundedSender<()>,
    got: mpsc::UnboundedSender<(T, Instant)>,
    pick: impl Fn(&Value) -> Option<T>,
) -> Result<()> {
    let mut ws = connect_ws(endpoint, None).await?;
    ws.send(auth_frame(token)).await?;
    ws.send(subscribe_frame(topic)).await?;
    let mut subscribed = false;
    while let Some(msg) = ws.next().await {
        let Message::Text(text) = msg? else { continue };
        let frame: Value = serde_json::from_str(&text).unwrap_or_default();
        match frame["type"].as_str() {
            Some("snapshot") if !subscribed => {
                subscribed = true;
                let _ = ready.send(());
            }
            Some("update") => {
                if let Some(found) = pick(&frame) {
                    let _ = got.send((found, Instant::now()));
                }
            }
            Some("error") => bail!("server error frame: {text}"),
            _ => {}
        }
    }
    Ok(())
}

/// Reads the next JSON frame, answering nothing itself (tungstenite answers
/// WebSocket pings on the next read). `None` when the connection closed.
pub async fn next_frame(ws: &mut Ws) -> Result<Option<ServerFrame>> {
    loop {
        match ws.next().await {
            None => return Ok(None),
            Some(Err(e)) => return Err(e).context("read"),
            Some(Ok(Message::Text(text))) => {
                let frame = serde_json::from_str(text.as_str())
                    .with_context(|| format!("unparseable frame {}", text.as_str()))?;
                return Ok(Some(frame));
            }
            Some(Ok(Message::Close(frame))) => {
                bail!("closed by server{}", frame.map(|f| format!(" ({} {})", f.code, f.reason)).unwrap_or_default())
            }
            Some(Ok(_)) => continue,
        }
    }
}

/// An authenticated connection for sending commands one at a time.
pub struct CommandConn {
    ws: Ws,
    next_id: u64,
    /// Prefix keeping command ids unique across connections and runs, so the
    /// server's replay protection never answers an old reply.
    id_prefix: String,
}

/// A command's reply as the client saw it.
#[derive(Debug, Clone)]
pub struct Reply {
    pub ok: bool,
    pub data: Option<Value>,
    pub error: Option<ErrorBody>,
}

/// Why an `rsvp` command's reply holds no RSVP.
#[derive(Debug)]
pub enum NotRsvp {
    /// `ok: false`, with the server's error if it gave one.
    Refused(Option<ErrorBody>),
    /// `ok: true` but its data is not `{status, waitlistRank, version}`.
    Unreadable(serde_json::Error),
}

impl Reply {
    /// The RSVP an `rsvp` command's reply carries.
    pub fn rsvp(self) -> Result<RsvpReply, NotRsvp> {
        if !self.ok {
            return Err(NotRsvp::Refused(self.error));
        }
        serde_json::from_value(self.data.unwrap_or_default()).map_err(NotRsvp::Unreadable)
    }
}

impl CommandConn {
    /// Connects, authenticates, and proves the auth was processed with a
    /// `ping` round trip (the contract has no auth acknowledgement, but
    /// frames are handled in order).
    pub async fn open(endpoint: &Endpoint, source: Option<IpAddr>, token: &str, id_prefix: String) -> Result<Self> {
        let mut ws = connect_ws(endpoint, source).await?;
        ws.send(auth_frame(token)).await.context("send auth")?;
        ws.send(ping_frame()).await.context("send ping")?;
        loop {
            match next_frame(&mut ws).await? {
                Some(ServerFrame::Pong) => break,
                Some(ServerFrame::Error { error }) => bail!("auth refused: {error}"),
                Some(_) => {}
                None => bail!("connection ended during auth"),
            }
        }
        Ok(Self { ws, next_id: 0, id_prefix })
    }

    /// Sends `command` and waits for its reply, skipping other frames.
    pub async fn call(&mut self, command: &Value) -> Result<Reply> {
        self.next_id += 1;
        let id = format!("{}-{}", self.id_prefix, self.next_id);
        self.ws.send(command_frame(&id, command)).await.context("send command")?;
        loop {
            match next_frame(&mut self.ws).await? {
                Some(ServerFrame::Reply { id: reply_id, ok, data, error }) if reply_id == id => {
                    return Ok(Reply { ok, data, error });
                }
                Some(ServerFrame::Error { error }) => {
                    return Err(anyhow!("error frame instead of reply: {error}"));
                }
                Some(_) => {}
                None => bail!("connection ended before reply"),
            }
        }
    }

    pub async fn close(mut self) {
        let _ = tokio::time::timeout(Duration::from_secs(2), self.ws.close(None)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_parse_without_their_payloads() {
        let f: ServerFrame =
            serde_json::from_str(r#"{"type":"update","topic":"event:1","seq":9,"data":{"big":[1,2,3]}}"#).unwrap();
        assert!(matches!(f, ServerFrame::Update { seq: 9 }));
        let f: ServerFrame = serde_json::from_str(r#"{"type":"snapshot","topic":"game:1","seq":0,"data":{}}"#).unwrap();
        assert!(matches!(f, ServerFrame::Snapshot { seq: 0 }));
    }

    #[test]
    fn replies_and_errors_keep_what_the_checks_need() {
        let f: ServerFrame = serde_json::from_str(
            r#"{"type":"reply","id":"c-1","ok":true,"data":{"status":"WAITLISTED","waitlistRank":2,"version":5}}"#,
        )
        .unwrap();
        match f {
            ServerFrame::Reply { id, ok, data, .. } => {
                assert_eq!(id, "c-1");
                assert!(ok);
                assert_eq!(data.unwrap()["waitlistRank"], 2);
            }
            other => panic!("{other:?}"),
        }
        let f: ServerFrame =
            serde_json::from_str(r#"{"type":"reply","id":"c-2","ok":false,"error":{"code":"conflict","message":"x"}}"#)
                .unwrap();
        assert!(matches!(f, ServerFrame::Reply { ok: false, error: Some(_), .. }));
    }

    #[test]
    fn unknown_frame_types_are_tolerated() {
        let f: ServerFrame = serde_json::from_str(r#"{"type":"hello","v":1}"#).unwrap();
        assert!(matches!(f, ServerFrame::Other));
        let f: ServerFrame = serde_json::from_str(r#"{"type":"pong"}"#).unwrap();
        assert!(matches!(f, ServerFrame::Pong));
    }

    #[test]
    fn client_frames_follow_the_contract() {
        let Message::Text(t) = command_frame("x-1", &json!({"kind":"rsvp"})) else {
            panic!("not text");
        };
        let v: Value = serde_json::from_str(t.as_str()).unwrap();
        assert_eq!(v, json!({"type":"command","id":"x-1","command":{"kind":"rsvp"}}));
        let Message::Text(t) = subscribe_frame("game:g") else {
            panic!("not text");
        };
        let v: Value = serde_json::from_str(t.as_str()).unwrap();
        assert_eq!(v, json!({"type":"subscribe","topic":"game:g"}));
    }
}
