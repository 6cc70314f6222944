//! The WebSocket gateway under random input, end to end: a client sends
//! frames of random bytes, random text, text that is not UTF-8, random
//! fragment sequences, oversized frames, and JSON frames of the contract's
//! types with hostile fields (aimed, now and then, at a real event with a
//! real token). After every frame a `ping` proves the connection was not
//! wedged: everything before the `pong` must be a frame of the contract,
//! or the server closes with a proper code (1002, 1007, 1008, 1009) and
//! the client reconnects. Every command the server took gets exactly one
//! reply. Afterwards the app still serves HTTP and a normal subscription.
//!
//! The unit-level fuzz targets (`mod fuzz` beside each parser in `src/`)
//! cover the parsers one by one; this covers the session that drives them.
//! `FUZZ_FRAMES` and `FUZZ_SEED` make a longer or a repeated run.

use crate::helpers::*;
use futures_util::{SinkExt, StreamExt};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::Frame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::{Data, OpCode};

/// Frames per run in `make test`.
const FRAMES: usize = 300;
/// The server's frame limit in this test: small, so oversized frames are cheap.
const MAX_FRAME: usize = 4096;
/// How long the server may take to answer the ping behind a frame.
const WAIT: Duration = Duration::from_secs(10);

/// Close codes the contract allows for a misbehaving client.
const PROPER_CLOSES: [u16; 4] = [1002, 1007, 1008, 1009];

/// Frame types the server may send.
const SERVER_TYPES: [&str; 7] = ["error", "reply", "snapshot", "update", "authenticated", "unsubscribed", "pong"];

const NASTY: &[&str] = &[
    "",
    " ",
    "\u{0}",
    "\u{1b}[31m",
    "\u{202E}",
    "\u{FEFF}",
    "é",
    "feed",
    "event:",
    "game:x",
    "season:\u{0}",
    "roster:a b",
    "ATTENDING",
    "DECLINED",
    "GOALIE",
    "CENTER",
    "GOAL",
    "PENALTY",
    "START",
    "rsvp",
    "gameAction",
    "removeAttendee",
    "9223372036854775807",
    "-1",
    "2026-11-22T19:30:00Z",
];

/// The real things a frame may aim at, so some frames get past parsing.
struct Targets {
    token: String,
    user_id: String,
    event_id: String,
}

fn nasty_string(rng: &mut StdRng, t: &Targets) -> String {
    match rng.gen_range(0..10) {
        0..=3 => NASTY[rng.gen_range(0..NASTY.len())].to_string(),
        4 => t.event_id.clone(),
        5 => t.user_id.clone(),
        6 => format!("event:{}", t.event_id),
        7 => "x".repeat(rng.gen_range(100..3_000)),
        _ => (0..rng.gen_range(0..40)).map(|_| random_char(rng)).collect(),
    }
}

fn random_char(rng: &mut StdRng) -> char {
    if rng.gen_bool(0.7) { char::from(rng.gen_range(0x20u8..0x7f)) } else { rng.r#gen::<char>() }
}

fn nasty_value(rng: &mut StdRng, t: &Targets, depth: u32) -> Value {
    match rng.gen_range(0..if depth > 2 { 6 } else { 8 }) {
        0..=2 => Value::String(nasty_string(rng, t)),
        3 => json!(rng.r#gen::<i64>()),
        4 => json!([i64::MIN, i64::MAX, 0, -1, 1, 60, 61][rng.gen_range(0..7)]),
        5 => [Value::Null, json!(true), json!(1.5e300)][rng.gen_range(0..3)].clone(),
        6 => Value::Array((0..rng.gen_range(0..4)).map(|_| nasty_value(rng, t, depth + 1)).collect()),
        _ => nasty_object(rng, t, &["kind", "type", "id", "x"], depth + 1),
    }
}

fn nasty_object(rng: &mut StdRng, t: &Targets, keys: &[&str], depth: u32) -> Value {
    let mut obj = serde_json::Map::new();
    for _ in 0..rng.gen_range(0..5) {
        let key =
            if rng.gen_bool(0.85) { keys[rng.gen_range(0..keys.len())].to_string() } else { nasty_string(rng, t) };
        obj.insert(key, nasty_value(rng, t, depth));
    }
    Value::Object(obj)
}

/// A frame of the contract's shape, with hostile (or, now and then, real)
/// fields. Returns the frame and the command id when it is a command.
fn contract_frame(rng: &mut StdRng, t: &Targets) -> (Value, Option<String>) {
    let kinds = ["auth", "subscribe", "unsubscribe", "command", "ping", "dance"];
    let kind = kinds[rng.gen_range(0..kinds.len())];
    let mut frame = nasty_object(rng, t, &["token", "topic", "since", "id", "command"], 0);
    frame["type"] = json!(kind);
    match kind {
        "auth" if rng.gen_bool(0.5) => frame = json!({"type": "auth", "token": t.token}),
        "subscribe" if rng.gen_bool(0.5) => {
            let since = [json!(null), json!(rng.r#gen::<i64>()), json!(i64::MAX), json!(-1), json!("3")];
            frame = json!({"type": "subscribe", "topic": format!("event:{}", t.event_id)});
            frame["since"] = since[rng.gen_range(0..since.len())].clone();
        }
        "command" if rng.gen_bool(0.7) => {
            let command_kinds = ["rsvp", "removeAttendee", "gameAction", "nope"];
            let mut command = nasty_object(
                rng,
                t,
                &["eventId", "action", "position", "userId", "gameId", "type", "rosterId", "minutes"],
                1,
            );
            command["kind"] = json!(command_kinds[rng.gen_range(0..command_kinds.len())]);
            if rng.gen_bool(0.5) {
                command["eventId"] = json!(t.event_id);
            }
            if rng.gen_bool(0.4) {
                // A well-formed RSVP, the position valid or not.
                let positions = [json!("GOALIE"), json!("CENTER"), json!("LEFT_WING"), json!(null), json!("center")];
                let position = positions[rng.gen_range(0..positions.len())].clone();
                let action = ["ATTENDING", "DECLINED"][rng.gen_range(0..2)];
                command = json!({"kind": "rsvp", "eventId": t.event_id, "action": action, "position": position});
            }
            let id = format!("fuzz-{}", rng.r#gen::<u32>());
            frame = json!({"type": "command", "id": id, "command": command});
        }
        _ => {}
    }
    let id = (frame["type"] == "command").then(|| frame["id"].as_str().map(str::to_string)).flatten();
    (frame, id)
}

/// One random thing to send (several frames for a fragmented message).
fn random_frames(rng: &mut StdRng, t: &Targets) -> (Vec<Message>, Option<String>) {
    let bytes = |rng: &mut StdRng, n: usize| (0..n).map(|_| rng.r#gen::<u8>()).collect::<Vec<u8>>();
    match rng.gen_range(0..20) {
        0..=9 => {
            let (frame, id) = contract_frame(rng, t);
            (vec![Message::text(frame.to_string())], id)
        }
        10 | 11 => {
            let n = rng.gen_range(0..200);
            (vec![Message::text((0..n).map(|_| random_char(rng)).collect::<String>())], None)
        }
        12 => {
            let n = rng.gen_range(0..200);
            (vec![Message::binary(bytes(rng, n))], None)
        }
        13 | 14 => {
            // A text frame whose payload is any bytes (mostly not UTF-8).
            let n = rng.gen_range(1..100);
            (vec![Message::Frame(Frame::message(bytes(rng, n), OpCode::Data(Data::Text), true))], None)
        }
        15 => (vec![Message::text("x".repeat(MAX_FRAME + rng.gen_range(1..1000)))], None),
        16 => {
            let n = rng.gen_range(0..100);
            (vec![Message::Ping(bytes(rng, n).into())], None)
        }
        _ => {
            // A fragment sequence: in order now and then, any order otherwise.
            let (frame, _) = contract_frame(rng, t);
            let text = frame.to_string().into_bytes();
            let parts = rng.gen_range(1..6);
            let in_order = rng.gen_bool(0.5);
            let chunk = text.len().div_ceil(parts).max(1);
            let frames = text
                .chunks(chunk)
                .enumerate()
                .map(|(i, c)| {
                    let (opcode, fin) = if in_order {
                        (if i == 0 { Data::Text } else { Data::Continue }, (i + 1) * chunk >= text.len())
                    } else {
                        ([Data::Text, Data::Binary, Data::Continue][rng.gen_range(0..3)], rng.gen_bool(0.3))
                    };
                    Message::Frame(Frame::message(c.to_vec(), OpCode::Data(opcode), fin))
                })
                .collect();
            (frames, None)
        }
    }
}

/// What reading up to the pong found.
enum Settled {
    /// The pong came; an error frame came before it if `refused`.
    Pong { refused: bool },
    /// The server closed with this code.
    Closed(u16),
}

/// Commands sent and not yet answered, and the answers so far.
#[derive(Default)]
struct Commands {
    pending: Vec<String>,
    /// Replies read so far, by command id: a reply may come before the pong
    /// that says the command was taken (a command refused at once).
    answered: std::collections::HashSet<String>,
    ok: usize,
    refused: usize,
}

impl Commands {
    fn replied(&mut self, frame: &Value) {
        self.pending.retain(|id| frame["id"] != id.as_str());
        if let Some(id) = frame["id"].as_str() {
            self.answered.insert(id.to_string());
        }
        if frame["ok"] == true { self.ok += 1 } else { self.refused += 1 }
    }

    /// A command the server took: awaited unless its reply came already.
    fn taken(&mut self, id: Option<String>) {
        self.pending.extend(id.filter(|id| !self.answered.contains(id)));
    }
}

/// Reads until the pong behind our frame (checking every frame on the
/// way), or the server's close.
async fn settle(ws: &mut Ws, commands: &mut Commands, context: &str) -> Settled {
    let deadline = tokio::time::Instant::now() + WAIT;
    let mut refused = false;
    loop {
        let msg = match tokio::time::timeout_at(deadline, ws.stream.next()).await {
            Err(_) => panic!("no pong and no close within {WAIT:?} after {context}"),
            Ok(None) => panic!("the connection ended without a close frame after {context}"),
            Ok(Some(Err(e))) => panic!("the connection broke ({e}) after {context}"),
            Ok(Some(Ok(msg))) => msg,
        };
        match msg {
            Message::Text(text) => {
                let frame: Value = serde_json::from_str(&text)
                    .unwrap_or_else(|e| panic!("a frame that is not JSON ({e}): {text} after {context}"));
                let kind = frame["type"].as_str().unwrap_or_default();
                assert!(SERVER_TYPES.contains(&kind), "unexpected frame {frame} after {context}");
                match kind {
                    "pong" => return Settled::Pong { refused },
                    "error" => {
                        refused = true;
                        let message = frame["error"]["message"].as_str().unwrap_or_default();
                        assert!(message.chars().count() <= 513, "a long error message after {context}");
                    }
                    "reply" => commands.replied(&frame),
                    _ => {}
                }
            }
            Message::Close(close) => {
                let code = close.map(|c| u16::from(c.code)).unwrap_or(1005);
                return Settled::Closed(code);
            }
            _ => {}
        }
    }
}

/// Waits for the replies to commands the server took.
async fn await_replies(ws: &mut Ws, commands: &mut Commands, seed: u64) {
    let deadline = tokio::time::Instant::now() + WAIT;
    while !commands.pending.is_empty() {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        let frame = ws.next_json(left).await;
        let frame = frame.unwrap_or_else(|| panic!("no reply to commands {:?} (seed {seed})", commands.pending));
        if frame["type"] == "reply" {
            commands.replied(&frame);
        }
    }
}

#[actix_web::test]
async fn random_frames_get_contract_answers_or_a_proper_close_and_the_server_carries_on() {
    let seed = std::env::var("FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(rand::random::<u64>);
    let frames = std::env::var("FUZZ_FRAMES").ok().and_then(|s| s.parse().ok()).unwrap_or(FRAMES);
    let app = spawn_app_with(&[
        ("WS_MAX_FRAME_BYTES", &MAX_FRAME.to_string()),
        ("WS_RATE_PER_SEC", "100000"),
        ("WS_RATE_BURST", "100000"),
    ])
    .await;
    let org = app.user("fuzz_org").await;
    let (status, event) = app
        .post(
            "/api/v1/events",
            Some(&org),
            json!({"title": "Fuzz skate", "startDate": "2026-12-01T21:00:00Z", "eventType": "OTHER", "maxSkaters": 2, "maxGoalies": 1}),
        )
        .await;
    assert_eq!(status, 201, "{event}");
    let targets =
        Targets { token: org.token.clone(), user_id: org.id.clone(), event_id: event["id"].as_str().unwrap().into() };

    let mut rng = StdRng::seed_from_u64(seed);
    let mut ws = app.ws().await;
    ws.auth(&org).await;
    let mut commands = Commands::default();
    let (mut closes, mut refused, mut answered) = (std::collections::BTreeMap::<u16, usize>::new(), 0, 0);
    for i in 0..frames {
        let (messages, command_id) = random_frames(&mut rng, &targets);
        let context = format!("frame {i} (seed {seed}): {:?}", messages.first().map(|m| m.to_string()));
        let mut sent = true;
        for m in messages {
            if ws.stream.send(m).await.is_err() {
                sent = false;
                break;
            }
        }
        let settled = if sent && ws.stream.send(Message::text(r#"{"type":"ping"}"#)).await.is_ok() {
            settle(&mut ws, &mut commands, &context).await
        } else {
            // The server closed while we sent: read its close frame.
            match ws.closed_with(WAIT).await {
                Some(code) => Settled::Closed(code),
                None => panic!("no close after a failed send, {context}"),
            }
        };
        match settled {
            Settled::Pong { refused: true } => refused += 1,
            Settled::Pong { refused: false } => {
                answered += 1;
                commands.taken(command_id);
            }
            Settled::Closed(code) => {
                assert!(PROPER_CLOSES.contains(&code), "closed with {code} after {context}");
                *closes.entry(code).or_default() += 1;
                // Replies to commands on a closed connection are gone with it.
                commands.pending.clear();
                ws = app.ws().await;
                ws.auth(&org).await;
            }
        }
        if commands.pending.len() > 20 {
            await_replies(&mut ws, &mut commands, seed).await;
        }
    }
    await_replies(&mut ws, &mut commands, seed).await;
    eprintln!(
        "socket fuzz, seed {seed}: {answered} frames answered, {refused} refused, closes by code {closes:?}; \
         command replies {} ok, {} refused",
        commands.ok, commands.refused
    );
    assert!(answered > 0 && refused > 0, "the run exercised both sides (seed {seed})");

    // The server carries on: HTTP, and a normal subscription on a fresh socket.
    let (status, body) = app.get("/healthz", None).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = app.get(&format!("/api/v1/events/{}/attendees", targets.event_id), Some(&org)).await;
    assert_eq!(status, 200, "{body}");
    let mut fresh = app.ws().await;
    fresh.auth(&org).await;
    let snapshot = fresh.subscribe(&format!("event:{}", targets.event_id)).await;
    assert_eq!(snapshot["data"]["version"], body["version"], "{snapshot}");
}
