//! The WebSocket gateway against RFC 6455 with a raw client (frames built by
//! hand, as a hostile or merely unusual client sends them), from the outside
//! testers' conformance run: a frame is refused by its header, text that is
//! not UTF-8 closes with 1007, a command sent with a close is answered
//! before the close, the handshake speaks HTTP/1.1 and version 13 only, and
//! the Origin check does not take a client's word for our host.

use crate::helpers::*;
use serde_json::{Value, json};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const WAIT: Duration = Duration::from_secs(5);

const TEXT: u8 = 0x1;
const CLOSE: u8 = 0x8;

/// A GET of the socket's path; `extra` is more header lines, each ending in CRLF.
fn handshake_request(version: &str, extra: &str) -> String {
    format!(
        "GET /api/v1/ws {version}\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
         Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n{extra}\r\n"
    )
}

/// Reads an HTTP answer's head (up to the blank line).
async fn read_head(tcp: &mut TcpStream) -> String {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        let n = tokio::time::timeout(WAIT, tcp.read(&mut byte)).await.expect("an answer").unwrap();
        assert!(n == 1, "the connection ended mid-answer: {}", String::from_utf8_lossy(&head));
        head.push(byte[0]);
    }
    String::from_utf8_lossy(&head).into_owned()
}

/// A socket past its `101`.
async fn open(port: u16) -> TcpStream {
    let mut tcp = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    tcp.write_all(handshake_request("HTTP/1.1", "").as_bytes()).await.unwrap();
    let head = read_head(&mut tcp).await;
    assert!(head.starts_with("HTTP/1.1 101"), "{head}");
    tcp
}

/// A client frame: masked, as RFC 6455 §5.3 requires.
fn frame(opcode: u8, payload: &[u8], fin: bool) -> Vec<u8> {
    let mask = [0x37, 0xfa, 0x21, 0x3d];
    let mut out = vec![if fin { 0x80 } else { 0 } | opcode];
    match payload.len() {
        n if n < 126 => out.push(0x80 | n as u8),
        n if n <= 0xFFFF => {
            out.push(0x80 | 126);
            out.extend_from_slice(&(n as u16).to_be_bytes());
        }
        n => {
            out.push(0x80 | 127);
            out.extend_from_slice(&(n as u64).to_be_bytes());
        }
    }
    out.extend_from_slice(&mask);
    out.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    out
}

/// The header alone of a masked text frame announcing `len` bytes.
fn header_announcing(len: u64) -> Vec<u8> {
    let mut out = vec![0x81, 0x80 | 127];
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(&[1, 2, 3, 4]);
    out
}

/// The next server frame (unmasked): opcode and payload; `None` when the
/// connection ends or nothing comes in time.
async fn read_frame(tcp: &mut TcpStream, within: Duration) -> Option<(u8, Vec<u8>)> {
    let read = async {
        let mut head = [0u8; 2];
        tcp.read_exact(&mut head).await.ok()?;
        let len = match head[1] & 0x7F {
            126 => {
                let mut b = [0u8; 2];
                tcp.read_exact(&mut b).await.ok()?;
                u64::from(u16::from_be_bytes(b))
            }
            127 => {
                let mut b = [0u8; 8];
                tcp.read_exact(&mut b).await.ok()?;
                u64::from_be_bytes(b)
            }
            n => u64::from(n),
        };
        let mut payload = vec![0u8; usize::try_from(len).ok()?];
        tcp.read_exact(&mut payload).await.ok()?;
        Some((head[0] & 0x0F, payload))
    };
    tokio::time::timeout(within, read).await.ok()?
}

/// Frames until the close; its code (1005 for none).
async fn close_code(tcp: &mut TcpStream, within: Duration) -> Option<u16> {
    let deadline = tokio::time::Instant::now() + within;
    loop {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        let (opcode, payload) = read_frame(tcp, left).await?;
        if opcode == CLOSE {
            return Some(payload.get(..2).map_or(1005, |c| u16::from_be_bytes([c[0], c[1]])));
        }
    }
}

#[actix_web::test]
async fn a_header_announcing_more_than_the_limit_closes_with_1009_at_once_without_its_body() {
    let app = spawn_app().await;
    // 65,537 bytes announced, none sent: refused from the header alone.
    let mut tcp = open(app.port).await;
    tcp.write_all(&header_announcing(65_537)).await.unwrap();
    assert_eq!(close_code(&mut tcp, Duration::from_secs(1)).await, Some(1009));
    // A 16-bit length over a lower limit, likewise.
    let app = spawn_app_with(&[("WS_MAX_FRAME_BYTES", "1024")]).await;
    let mut tcp = open(app.port).await;
    tcp.write_all(&[0x81, 0x80 | 126, 0x04, 0x01]).await.unwrap();
    assert_eq!(close_code(&mut tcp, Duration::from_secs(1)).await, Some(1009));
    // At the limit a frame is read as usual.
    let mut tcp = open(app.port).await;
    let ping = format!("{}{}", r#"{"type":"ping"}"#, " ".repeat(1024 - 15));
    tcp.write_all(&frame(TEXT, ping.as_bytes(), true)).await.unwrap();
    let (opcode, payload) = read_frame(&mut tcp, WAIT).await.expect("an answer");
    let answer = serde_json::from_slice::<Value>(&payload).unwrap();
    assert_eq!((opcode, answer["type"].clone()), (TEXT, json!("pong")), "{answer}");
}

/// The attack as the testers ran it, on a server of its own so its memory
/// is its own: a signed-out socket announces 2^62 bytes and streams. The
/// socket is closed with 1009 within a second, and the server's memory does
/// not follow what the client sends.
#[actix_web::test]
async fn streaming_a_frame_announced_at_2_to_the_62_leaves_the_servers_memory_flat() {
    let dir = tempfile::tempdir().unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_rinkside"))
        .env("DATABASE_URL", format!("sqlite://{}/r.db", dir.path().display()))
        .env("BIND", format!("127.0.0.1:{port}"))
        .env("AUTH_MODE", "dev")
        .env("DEMO", "0")
        .env("RUST_LOG", "warn")
        .spawn()
        .unwrap();
    // Killed however the test ends, so a failure leaves no server behind.
    let child = KillOnDrop(child);
    let pid = child.0.id();
    let rss_kib = move || {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .unwrap_or(0)
    };
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while reqwest::get(format!("http://127.0.0.1:{port}/healthz")).await.is_err() {
        assert!(tokio::time::Instant::now() < deadline, "server never started");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Settle: a first socket of the kind, then the baseline.
    drop(open(port).await);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let before = rss_kib();

    let mut sockets = Vec::new();
    for _ in 0..4 {
        let tcp = open(port).await;
        let (mut reader, mut writer) = tcp.into_split();
        writer.write_all(&header_announcing(1 << 62)).await.unwrap();
        let started = tokio::time::Instant::now();
        // Stream 64 MiB of body per socket for as long as the server takes it.
        let streaming = tokio::spawn(async move {
            let chunk = vec![0x42u8; 64 * 1024];
            let mut sent = 0usize;
            while sent < 64 << 20 {
                match writer.write_all(&chunk).await {
                    Ok(()) => sent += chunk.len(),
                    Err(_) => break,
                }
            }
            sent
        });
        let mut head = [0u8; 4];
        tokio::time::timeout(Duration::from_secs(1), reader.read_exact(&mut head))
            .await
            .expect("the close comes within a second")
            .unwrap();
        assert_eq!(head[0], 0x88, "a close frame");
        assert_eq!(u16::from_be_bytes([head[2], head[3]]), 1009);
        assert!(started.elapsed() < Duration::from_secs(1));
        sockets.push((reader, streaming));
    }
    let mut sent = 0;
    for (reader, streaming) in sockets {
        sent += tokio::time::timeout(WAIT, streaming).await.expect("the server stops taking the body").unwrap();
        drop(reader);
    }
    let after = rss_kib();
    drop(child);
    assert!(sent < 4 * (64 << 20), "the server never stopped reading ({sent} bytes taken)");
    assert!(after < before + 16 * 1024, "RSS {before} KiB before, {after} KiB after {sent} bytes of announced body");
}

#[actix_web::test]
async fn text_that_is_not_utf8_closes_with_1007() {
    let app = spawn_app().await;
    let mut tcp = open(app.port).await;
    tcp.write_all(&frame(TEXT, b"{\"type\":\"ping\",\"x\":\"\xff\xfe\"}", true)).await.unwrap();
    assert_eq!(close_code(&mut tcp, WAIT).await, Some(1007));
    // The same in fragments.
    let mut tcp = open(app.port).await;
    tcp.write_all(&frame(TEXT, b"{\"type\":\"ping\",\"x\":\"\xce", false)).await.unwrap();
    tcp.write_all(&frame(0x0, b"\xba\xff\"}", true)).await.unwrap();
    assert_eq!(close_code(&mut tcp, WAIT).await, Some(1007));
}

#[actix_web::test]
async fn a_command_and_a_close_in_one_write_get_the_reply_then_a_close_with_the_clients_code() {
    let app = spawn_app().await;
    let mut tcp = open(app.port).await;
    let command =
        json!({"type": "command", "id": "c-1", "command": {"kind": "rsvp", "eventId": "nope", "action": "ATTENDING"}});
    let mut write = frame(TEXT, command.to_string().as_bytes(), true);
    write.extend(frame(CLOSE, &1000u16.to_be_bytes(), true));
    tcp.write_all(&write).await.unwrap();
    let (opcode, payload) = read_frame(&mut tcp, WAIT).await.expect("the reply before the close");
    assert_eq!(opcode, TEXT, "{}", String::from_utf8_lossy(&payload));
    let reply: Value = serde_json::from_slice(&payload).unwrap();
    assert_eq!((reply["type"].as_str(), reply["id"].as_str()), (Some("reply"), Some("c-1")), "{reply}");
    assert_eq!(close_code(&mut tcp, WAIT).await, Some(1000), "our close echoes the client's code");
}

#[actix_web::test]
async fn the_handshake_is_http_1_1_and_version_13_only() {
    let app = spawn_app().await;
    let exchange = |request: String| async move {
        let mut tcp = TcpStream::connect(("127.0.0.1", app.port)).await.unwrap();
        tcp.write_all(request.as_bytes()).await.unwrap();
        read_head(&mut tcp).await.to_lowercase()
    };
    let v8 = exchange(handshake_request("HTTP/1.1", "").replace("Version: 13", "Version: 8")).await;
    assert!(v8.starts_with("http/1.1 400"), "{v8}");
    assert!(v8.contains("sec-websocket-version: 13\r\n"), "names the version we speak: {v8}");
    let http10 = exchange(handshake_request("HTTP/1.0", "")).await;
    assert!(http10.contains(" 400 "), "an HTTP/1.0 upgrade is refused: {http10}");
    assert!(!http10.contains(" 101 "), "{http10}");
    let ok = exchange(handshake_request("HTTP/1.1", "")).await;
    assert!(ok.starts_with("http/1.1 101"), "{ok}");
}

#[actix_web::test]
async fn a_forwarded_host_names_our_origin_only_behind_a_trusted_proxy() {
    let forged = "Origin: http://evil.example\r\nX-Forwarded-Host: evil.example\r\n";
    let status = |port: u16, extra: &'static str| async move {
        let mut tcp = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
        tcp.write_all(handshake_request("HTTP/1.1", extra).as_bytes()).await.unwrap();
        read_head(&mut tcp).await.split(' ').nth(1).unwrap_or_default().to_string()
    };
    let app = spawn_app().await;
    assert_eq!(status(app.port, forged).await, "403", "a client names its own host");
    assert_eq!(status(app.port, "Origin: http://127.0.0.1\r\n").await, "101", "the Host we were sent to");
    let behind_proxy = spawn_app_with(&[("TRUST_FORWARDED_FOR", "true")]).await;
    assert_eq!(status(behind_proxy.port, forged).await, "101", "our proxy names the public host");
}

struct KillOnDrop(std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}
