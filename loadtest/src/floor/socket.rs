//! One WebSocket of the floor ([`websocket`]): reads the client's frames
//! and drains its queue of frames in one task, answering `ping` with
//! `pong`, a `subscribe` with the snapshot (through the queue, in order
//! with the topic's updates), `auth` with nothing and a `command` with a
//! refusal.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use anyhow::Result;
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::json;
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Message, Utf8Bytes};

use super::State;
use super::hub::Outbox;

/// Largest frame a client may send (subscribe and ping are tiny).
const MAX_CLIENT_FRAME_BYTES: usize = 64 * 1024;

const PONG: &str = r#"{"type":"pong"}"#;

/// WebSocket settings for every floor connection.
pub fn ws_config() -> WebSocketConfig {
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
pub async fn websocket(state: Arc<State>, mut ws: WebSocketStream<TcpStream>) -> Result<()> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_frames_get_the_contract_answers() {
        let s = State::for_tests();
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
}
