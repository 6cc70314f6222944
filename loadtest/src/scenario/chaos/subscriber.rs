//! One subscriber of a chaos run, as the client's `lib/ws.ts`: connect,
//! auth, subscribe with `since`, keep newer states ([`Held`]); on a drop,
//! back off and do it again, trying the next node when one does not
//! answer.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::watch;
use tokio_tungstenite::tungstenite::{Message, Utf8Bytes};

use super::plan::{backoff, stopped};
use crate::chaos_check::{normalize_event, normalize_game};
use crate::fleet::ErrorTally;
use crate::net::{Endpoint, Ws, connect_ws};

/// A subscriber's reconnect backoff, as the client's `lib/ws.ts`.
const RECONNECT_FIRST: Duration = Duration::from_millis(100);
const RECONNECT_CAP: Duration = Duration::from_secs(2);

/// A subscriber's topic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TopicKind {
    Event,
    Game,
}

impl TopicKind {
    pub fn normalize(self, doc: &Value) -> Value {
        match self {
            TopicKind::Event => normalize_event(doc),
            TopicKind::Game => normalize_game(doc),
        }
    }
}

/// What a subscriber holds, shared with the scenario so it can watch for
/// convergence.
#[derive(Debug, Default)]
pub struct Held {
    pub seq: Option<u64>,
    /// The frame that brought `seq`, as received: parsed only when the
    /// convergence check asks (a subscriber reads thousands of documents;
    /// building each would cost the load generator the CPU the server
    /// needs).
    pub frame: Option<Utf8Bytes>,
    /// `(when, seq)` of every state that raised the seq.
    pub timeline: Vec<(Instant, u64)>,
    pub connections: u32,
    /// Lost connections (not at our request).
    pub drops: u32,
    /// From losing a connection to the snapshot on the next one.
    pub resync: Vec<Duration>,
    /// Snapshots older than what the subscriber already held (kept the newer).
    pub stale_snapshots: u32,
    /// Updates at or below the held seq (dropped, as the client does).
    pub stale_updates: u32,
    pub errors: ErrorTally,
}

impl Held {
    pub fn take(&mut self, seq: u64, frame: Utf8Bytes, snapshot: bool) {
        if self.seq.is_some_and(|held| seq <= held) {
            if snapshot && self.seq.is_some_and(|held| seq < held) {
                self.stale_snapshots += 1;
            } else if !snapshot {
                self.stale_updates += 1;
            }
            // A snapshot at the held seq is the same state again.
            return;
        }
        self.seq = Some(seq);
        self.frame = Some(frame);
        self.timeline.push((Instant::now(), seq));
    }

    /// The held document, normalized.
    pub fn doc(&self, kind: TopicKind) -> Option<Value> {
        let frame: Value = serde_json::from_str(self.frame.as_ref()?.as_str()).ok()?;
        Some(kind.normalize(&frame["data"]))
    }
}

/// The head of a server frame; `data` is skipped, not built.
#[derive(Deserialize)]
struct Head {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    seq: Option<u64>,
    #[serde(default)]
    error: Option<HeadError>,
}

#[derive(Deserialize)]
struct HeadError {
    code: String,
}

/// Where one subscriber subscribes, and as whom.
pub struct SubSpec {
    pub topic: String,
    pub token: Option<String>,
    pub endpoints: Arc<Vec<Arc<Endpoint>>>,
    /// Node connected to first, and again after each drop.
    pub home: usize,
}

/// One subscriber, as the client's `lib/ws.ts`: connect, auth, subscribe
/// with `since`, apply newer states; on a drop, back off and do it again,
/// trying the next node when one does not answer.
pub async fn subscriber(spec: SubSpec, held: Arc<Mutex<Held>>, mut stop: watch::Receiver<bool>) {
    let mut failures = 0u32;
    let mut lost_at: Option<Instant> = None;
    loop {
        if *stop.borrow() {
            return;
        }
        let node = (spec.home + failures as usize) % spec.endpoints.len();
        let connected = tokio::select! {
            c = connect_ws(&spec.endpoints[node], None) => c,
            _ = stopped(&mut stop) => return,
        };
        let outcome = match connected {
            Ok(ws) => {
                held.lock().unwrap_or_else(PoisonError::into_inner).connections += 1;
                session(ws, &spec, &held, &mut stop, &mut lost_at).await
            }
            Err(e) => Err(format!("connect: {e:#}")),
        };
        match outcome {
            Ok(()) => return,
            Err(why) => {
                let mut h = held.lock().unwrap_or_else(PoisonError::into_inner);
                h.errors.add(&why);
                if lost_at.is_none() {
                    // The connection had its snapshot: start again from the
                    // home node, so the subscribers stay spread over the nodes.
                    failures = 0;
                }
                lost_at.get_or_insert_with(Instant::now);
            }
        }
        let pause = backoff(failures.min(8), RECONNECT_FIRST, RECONNECT_CAP);
        failures += 1;
        tokio::select! {
            _ = tokio::time::sleep(pause) => {}
            _ = stopped(&mut stop) => return,
        }
    }
}

/// One connection's life. `Ok` when stopped on purpose; `Err` says why it
/// ended otherwise. Resets `lost_at` once the snapshot is back.
async fn session(
    mut ws: Ws,
    spec: &SubSpec,
    held: &Arc<Mutex<Held>>,
    stop: &mut watch::Receiver<bool>,
    lost_at: &mut Option<Instant>,
) -> Result<(), String> {
    if let Some(token) = &spec.token {
        ws.send(Message::text(json!({"type": "auth", "token": token}).to_string()))
            .await
            .map_err(|e| format!("send: {e}"))?;
    }
    let since = held.lock().unwrap_or_else(PoisonError::into_inner).seq;
    let mut subscribe = json!({"type": "subscribe", "topic": spec.topic});
    if let Some(seq) = since {
        subscribe["since"] = json!(seq);
    }
    ws.send(Message::text(subscribe.to_string())).await.map_err(|e| format!("send: {e}"))?;
    let mut subscribed = false;
    loop {
        let msg = tokio::select! {
            m = ws.next() => m,
            _ = stopped(stop) => {
                let _ = tokio::time::timeout(Duration::from_secs(1), ws.close(None)).await;
                return Ok(());
            }
        };
        let text = match msg {
            None => return Err(lost(held, "connection ended")),
            Some(Err(e)) => return Err(lost(held, &format!("{e}"))),
            Some(Ok(Message::Close(frame))) => {
                return Err(lost(held, &format!("closed {}", frame.map(|f| f.code.to_string()).unwrap_or_default())));
            }
            Some(Ok(Message::Text(t))) => t,
            Some(Ok(_)) => continue,
        };
        let Ok(head) = serde_json::from_str::<Head>(text.as_str()) else { continue };
        let mut h = held.lock().unwrap_or_else(PoisonError::into_inner);
        match head.kind.as_str() {
            "snapshot" => {
                h.take(head.seq.unwrap_or(0), text, true);
                subscribed = true;
                if let Some(at) = lost_at.take() {
                    h.resync.push(at.elapsed());
                }
            }
            "update" if subscribed => h.take(head.seq.unwrap_or(0), text, false),
            "error" => {
                let code = head.error.map_or_else(|| "?".to_owned(), |e| e.code);
                h.errors.add(&format!("error frame: {code}"));
                if !subscribed {
                    // The subscribe failed (a node still starting, say): again, later.
                    return Err(format!("subscribe refused: {code}"));
                }
            }
            "unsubscribed" => return Err("unsubscribed by the server".into()),
            _ => {}
        }
    }
}

/// Books a lost connection; the reason for the error tally.
fn lost(held: &Arc<Mutex<Held>>, why: &str) -> String {
    held.lock().unwrap_or_else(PoisonError::into_inner).drops += 1;
    format!("lost: {why}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_subscriber_keeps_the_newest_state_and_counts_stale_frames() {
        let mut h = Held::default();
        let frame = |v: u64| {
            Utf8Bytes::from(json!({"type": "update", "seq": v, "data": {"version": v, "homeScore": v}}).to_string())
        };
        h.take(3, frame(3), true);
        h.take(5, frame(5), false);
        h.take(4, frame(4), false);
        h.take(2, frame(2), true);
        h.take(5, frame(5), true);
        assert_eq!(h.seq, Some(5));
        assert_eq!(h.doc(TopicKind::Game).map(|d| d["homeScore"].clone()), Some(json!(5)));
        assert_eq!(h.timeline.iter().map(|(_, s)| *s).collect::<Vec<_>>(), vec![3, 5]);
        assert_eq!((h.stale_updates, h.stale_snapshots), (1, 1));
    }

    #[test]
    fn frame_heads_are_read_without_their_data() {
        let head: Head =
            serde_json::from_str(r#"{"type":"update","topic":"game:1","seq":9,"data":{"big":[1,2]}}"#).unwrap();
        assert_eq!((head.kind.as_str(), head.seq), ("update", Some(9)));
        let head: Head =
            serde_json::from_str(r#"{"type":"error","error":{"code":"not_found","message":"x"}}"#).unwrap();
        assert_eq!(head.error.map(|e| e.code).as_deref(), Some("not_found"));
    }
}
