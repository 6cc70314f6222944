//! The WebSocket gateway's edges, from the security review: a client that
//! stops reading is cut off for good (its TCP connection reset, not left
//! open with megabytes queued), fragmented messages meet the same size
//! limit as single frames, malformed frames count toward the 1008 close,
//! error frames never echo much of what the client sent, and the origin
//! check compares scheme, host and port.

use crate::helpers::*;
use futures_util::SinkExt;
use serde_json::{Value, json};
use std::time::Duration;
use tokio_tungstenite::MaybeTlsStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::Frame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::{Data, OpCode};

const WAIT: Duration = Duration::from_secs(5);

/// The client's TCP socket under a test WebSocket.
fn tcp_of(ws: &Ws) -> &tokio::net::TcpStream {
    match ws.stream.get_ref() {
        MaybeTlsStream::Plain(tcp) => tcp,
        _ => panic!("plain TCP expected"),
    }
}

fn id_of(body: &Value) -> String {
    body["id"].as_str().unwrap_or_else(|| panic!("no id in {body}")).to_string()
}

/// A scheduled game between two empty rosters: a public `game:` topic.
async fn a_game(app: &TestApp) -> String {
    let rink = app.user("rink").await;
    let (s, f) = app
        .post("/api/v1/facilities", Some(&rink), json!({"name": "Maple Arena", "timezone": "America/Toronto"}))
        .await;
    assert_eq!(s, 201, "{f}");
    let (s, season) = app
        .post(
            &format!("/api/v1/facilities/{}/seasons", id_of(&f)),
            Some(&rink),
            json!({"name": "Winter", "startDate": "2026-09-01T00:00:00Z", "endDate": "2027-03-31T00:00:00Z"}),
        )
        .await;
    assert_eq!(s, 201, "{season}");
    let season = id_of(&season);
    let mut rosters = Vec::new();
    for name in ["Owls", "Hawks"] {
        let (s, t) = app.post("/api/v1/teams", Some(&rink), json!({"name": name})).await;
        assert_eq!(s, 201, "{t}");
        let (s, r) = app
            .post("/api/v1/rosters", Some(&rink), json!({"teamId": id_of(&t), "seasonId": season, "name": name}))
            .await;
        assert_eq!(s, 201, "{r}");
        rosters.push(id_of(&r));
    }
    let (s, g) = app
        .post(
            "/api/v1/games",
            Some(&rink),
            json!({"homeRosterId": rosters[0], "awayRosterId": rosters[1], "seasonId": season, "scheduledAt": "2026-11-20T19:30:00Z"}),
        )
        .await;
    assert_eq!(s, 201, "{g}");
    id_of(&g)
}

#[actix_web::test]
async fn a_display_that_stops_reading_has_its_connection_reset_within_a_bounded_time() {
    let app = spawn_app_with(&[("WS_SEND_TIMEOUT_MS", "300")]).await;
    let game = a_game(&app).await;
    let topic = format!("game:{game}");

    // A signed-out display with a tiny receive buffer that, after its
    // snapshot, never reads again.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let tcp = socket.connect(format!("127.0.0.1:{}", app.port).parse().unwrap()).await.unwrap();
    let url = format!("ws://127.0.0.1:{}/api/v1/ws", app.port);
    let (stream, _) = tokio_tungstenite::client_async(url, MaybeTlsStream::Plain(tcp)).await.unwrap();
    let mut display = Ws::over(stream);
    display.subscribe(&topic).await;

    // Scoreboard states pushed faster than anyone reads: tens of megabytes.
    let pad = "x".repeat(64 * 1024);
    let state = app.state.clone();
    let publisher = tokio::spawn(async move {
        for seq in 1..=400 {
            state.realtime.bus.publish(&topic, seq, &json!({"homeScore": seq, "pad": pad}));
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    });

    // The server gives up on the client and resets the connection: the
    // client's socket reports the reset without having read anything.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(8);
    let error = loop {
        if let Some(err) = tcp_of(&display).take_error().unwrap() {
            break err;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the server still holds the connection of a client that stopped reading"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(error.kind(), std::io::ErrorKind::ConnectionReset, "{error}");
    publisher.abort();
    // Nothing of it is left in the hub.
    let deadline = tokio::time::Instant::now() + WAIT;
    while app.state.realtime.hub.stats().subscriptions > 0 {
        assert!(tokio::time::Instant::now() < deadline, "the subscription outlived the connection");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Reads the raw socket until the server's FIN: the connection is really
/// closed, not held open by a duplicated descriptor somewhere.
async fn reads_to_eof(tcp: &tokio::net::TcpStream) -> bool {
    let mut buf = [0u8; 4096];
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        match tokio::time::timeout_at(deadline, tcp.readable()).await {
            Err(_) => return false,
            Ok(r) => r.unwrap(),
        }
        match tcp.try_read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(_) => return false,
        }
    }
}

#[actix_web::test]
async fn a_client_that_closes_normally_gets_a_clean_close_not_a_reset() {
    let app = spawn_app_with(&[("WS_SEND_TIMEOUT_MS", "300")]).await;
    let mut ws = app.ws().await;
    ws.send(json!({"type": "ping"})).await;
    assert_eq!(ws.next_json(WAIT).await.unwrap()["type"], "pong");
    ws.stream.close(None).await.unwrap();
    // The server answers the close and ends the connection with a FIN,
    // before the reset for a connection outliving its session would come.
    assert_eq!(ws.closed_with(WAIT).await, Some(1005));
    assert!(reads_to_eof(tcp_of(&ws)).await, "the connection ends cleanly");
    // A reset would go out when the server lets go of its descriptor (zero
    // linger). Once it has (the kernel keeps the connection, orphaned, for
    // its FIN), no reset can come any more: wait for that, not for a delay.
    let client_port = tcp_of(&ws).local_addr().unwrap().port();
    let deadline = tokio::time::Instant::now() + WAIT;
    let server_side = loop {
        let entry = server_side_of(app.port, client_port);
        match &entry {
            Some(TcpEntry { inode: 0 }) | None => break entry,
            Some(_) => {
                assert!(tokio::time::Instant::now() < deadline, "the server still holds a connection it ended");
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
    };
    // A reset closes the connection on the spot: the kernel forgets it.
    assert!(server_side.is_some(), "the server reset the connection instead of keeping it for its FIN");
    assert!(tcp_of(&ws).take_error().unwrap().is_none(), "a clean close, no reset");
}

/// The server's end of a loopback connection as the kernel lists it in
/// `/proc/net/tcp`.
struct TcpEntry {
    /// The socket's inode: 0 once no process holds it any more.
    inode: u64,
}

/// The server's end of the loopback connection from `client_port`, or
/// `None` when the kernel no longer knows it.
fn server_side_of(server_port: u16, client_port: u16) -> Option<TcpEntry> {
    let table = std::fs::read_to_string("/proc/net/tcp").unwrap();
    let (local, remote) = (format!("0100007F:{server_port:04X}"), format!("0100007F:{client_port:04X}"));
    table.lines().skip(1).find_map(|line| {
        let cols: Vec<&str> = line.split_whitespace().collect();
        (cols[1] == local && cols[2] == remote).then(|| TcpEntry { inode: cols[9].parse().unwrap() })
    })
}

/// A connection's descriptor goes when the connection does, and an open
/// WebSocket holds exactly one. Counted on a server
/// of its own, as a child process, so other tests' sockets do not blur it.
#[actix_web::test]
async fn finished_connections_leave_no_descriptor_behind() {
    let server = ServerProcess::start().await;
    let port = server.port;
    let fds = || std::fs::read_dir(format!("/proc/{}/fd", server.child.id())).map(|d| d.count()).unwrap_or(0);
    // Count from a settled server: a first connection of each kind, and
    // descriptors that stop changing (under a loaded machine the workers'
    // runtimes may still be starting after the first answer).
    let tcp = tokio::net::TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    tcp.writable().await.unwrap();
    tcp.try_write(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").unwrap();
    assert!(reads_to_eof(&tcp).await, "the HTTP connection ends");
    drop(tcp);
    let mut ws = Ws::connect(&format!("ws://127.0.0.1:{port}/api/v1/ws")).await;
    ws.send(json!({"type": "ping"})).await;
    assert_eq!(ws.next_json(WAIT).await.unwrap()["type"], "pong");
    ws.stream.close(None).await.unwrap();
    assert!(ws.closed_with(WAIT).await.is_some());
    let mut before = fds();
    for _ in 0..50 {
        tokio::time::sleep(Duration::from_millis(200)).await;
        let again = fds();
        if again == before {
            break;
        }
        before = again;
    }

    for _ in 0..50 {
        let tcp = tokio::net::TcpStream::connect(("127.0.0.1", port)).await.unwrap();
        tcp.writable().await.unwrap();
        tcp.try_write(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").unwrap();
        assert!(reads_to_eof(&tcp).await, "the HTTP connection ends");
    }
    let mut open = Vec::new();
    for _ in 0..20 {
        let mut ws = Ws::connect(&format!("ws://127.0.0.1:{port}/api/v1/ws")).await;
        ws.send(json!({"type": "ping"})).await;
        assert_eq!(ws.next_json(WAIT).await.unwrap()["type"], "pong");
        open.push(ws);
    }
    // One descriptor per open socket: 100,000 sockets need 100,000, not twice that.
    let with_open = fds();
    assert!(with_open <= before + 20 + 2, "{before} descriptors before 20 open sockets, {with_open} with them");
    for mut ws in open {
        ws.stream.close(None).await.unwrap();
        assert!(ws.closed_with(WAIT).await.is_some());
    }
    let deadline = tokio::time::Instant::now() + WAIT;
    let mut now = fds();
    while now > before + 2 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
        now = fds();
    }
    drop(server);
    assert!(now <= before + 2, "{before} descriptors before 70 connections, {now} after");
}

/// A text message in `parts` fragments of `size` bytes each (JSON padded
/// with spaces).
async fn send_fragmented(ws: &mut Ws, parts: usize, size: usize) {
    let total = parts * size;
    let body = r#"{"type":"ping"}"#;
    let text = format!("{body}{}", " ".repeat(total - body.len()));
    let bytes = text.as_bytes();
    for i in 0..parts {
        let chunk = bytes[i * size..(i + 1) * size].to_vec();
        let opcode = if i == 0 { OpCode::Data(Data::Text) } else { OpCode::Data(Data::Continue) };
        ws.stream.send(Message::Frame(Frame::message(chunk, opcode, i + 1 == parts))).await.unwrap();
    }
}

#[actix_web::test]
async fn a_fragmented_message_is_put_together_but_past_the_size_limit_closes_with_1009() {
    let app = spawn_app_with(&[("WS_MAX_FRAME_BYTES", "4096")]).await;
    let mut ws = app.ws().await;
    // Under the limit in three fragments: an ordinary ping.
    send_fragmented(&mut ws, 3, 1000).await;
    assert_eq!(ws.next_json(WAIT).await.unwrap()["type"], "pong");
    // Each fragment is small, together they are over the limit.
    send_fragmented(&mut ws, 5, 2000).await;
    assert_eq!(ws.closed_with(WAIT).await, Some(1009));
}

#[actix_web::test]
async fn malformed_frames_in_a_row_close_with_1008_and_a_good_frame_resets_the_count() {
    let app =
        spawn_app_with(&[("WS_ABUSE_STRIKES", "5"), ("WS_RATE_PER_SEC", "10000"), ("WS_RATE_BURST", "10000")]).await;
    let mut ws = app.ws().await;
    let garbage = ["{", "{\"type\":\"dance\"}", "[]", "{\"type\":\"subscribe\"}"];
    for _ in 0..2 {
        // Four strikes, each answered with an error frame, then a good frame.
        for bad in garbage {
            ws.send_text(bad).await;
            let err = ws.next_json(WAIT).await.expect("an error frame");
            assert_eq!(err["error"]["code"], "bad_frame", "{err}");
        }
        ws.send(json!({"type": "ping"})).await;
        assert_eq!(ws.next_json(WAIT).await.unwrap()["type"], "pong");
    }
    // Binary frames are not frames we understand either; five in a row close.
    for _ in 0..5 {
        if ws.stream.send(Message::Binary(vec![0u8; 8].into())).await.is_err() {
            break;
        }
    }
    assert_eq!(ws.closed_with(WAIT).await, Some(1008));
}

/// Longest run of `c` in `s`.
fn longest_run(s: &str, c: char) -> usize {
    s.split(|x| x != c).map(str::len).max().unwrap_or(0)
}

#[actix_web::test]
async fn error_frames_quote_at_most_128_characters_of_what_the_client_sent() {
    let app = spawn_app().await;
    let user = app.user("echo").await;
    let long = "x".repeat(10_000);
    let mut ws = app.ws().await;
    ws.auth(&user).await;
    let mut unknown_field = serde_json::Map::new();
    unknown_field.insert("type".into(), json!("auth"));
    unknown_field.insert("token".into(), json!("t"));
    unknown_field.insert(long.clone(), json!(1));
    let cases = [
        json!({"type": "subscribe", "topic": long}),
        json!({"type": "subscribe", "topic": format!("game:{long}")}),
        json!({"type": long}),
        Value::Object(unknown_field),
    ];
    for case in cases {
        ws.send(case).await;
        let frame = ws.next_json(WAIT).await.expect("an error frame");
        assert_eq!(frame["type"], "error", "{frame}");
        let text = frame.to_string();
        assert!(longest_run(&text, 'x') <= 128, "{} x's echoed in {}", longest_run(&text, 'x'), &text[..200]);
        assert!(text.len() < 1024, "an error frame of {} bytes", text.len());
    }
    let reply = ws.command("c1", json!({"kind": long, "eventId": "e"})).await;
    assert_eq!(reply["ok"], false);
    let text = reply.to_string();
    assert!(longest_run(&text, 'x') <= 128, "{} x's echoed in a reply", longest_run(&text, 'x'));
    // Still a working connection.
    ws.send(json!({"type": "ping"})).await;
    assert_eq!(ws.next_of("pong", WAIT).await.unwrap()["type"], "pong");
}

#[actix_web::test]
async fn an_origin_is_the_same_only_with_the_same_scheme_host_and_port() {
    let app = spawn_app().await;
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let url = format!("ws://127.0.0.1:{}/api/v1/ws", app.port);
    let handshake = |origin: String| {
        let mut req = url.clone().into_client_request().unwrap();
        req.headers_mut().insert("Origin", origin.parse().unwrap());
        tokio_tungstenite::connect_async(req)
    };
    assert!(handshake(format!("http://127.0.0.1:{}", app.port)).await.is_ok(), "same origin");
    for foreign in [
        format!("https://127.0.0.1:{}", app.port),
        format!("http://127.0.0.1:{}", app.port + 1),
        "http://127.0.0.1".to_string(),
        "null".to_string(),
    ] {
        match handshake(foreign.clone()).await {
            Err(tokio_tungstenite::tungstenite::Error::Http(res)) => assert_eq!(res.status(), 403, "{foreign}"),
            other => panic!("{foreign} should be refused, got {other:?}"),
        }
    }
}

/// Sends one raw HTTP/1.1 request and reads the answer until the server
/// closes the connection.
async fn raw_exchange(port: u16, request: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut tcp = tokio::net::TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    tcp.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(WAIT, tcp.read_to_end(&mut answer)).await.expect("the server ends the connection").unwrap();
    String::from_utf8_lossy(&answer).into_owned()
}

/// Every request asking to upgrade its connection to a WebSocket reaches the
/// app (the takeover happens only on a `101`): any other route answers as
/// usual, a body-carrying request is refused in words, a bad handshake gets
/// the envelope — and each connection then ends.
#[actix_web::test]
async fn requests_asking_to_upgrade_get_the_apps_answer_and_a_closed_connection() {
    let app = spawn_app().await;
    let get = raw_exchange(
        app.port,
        "GET /api/v1/divisions/scale HTTP/1.1\r\nHost: x\r\nConnection: upgrade\r\nUpgrade: websocket\r\n\r\n",
    )
    .await;
    assert!(get.starts_with("HTTP/1.1 200"), "{get}");
    assert!(get.to_lowercase().contains("connection: close"), "{get}");
    assert!(get.contains("\"divisions\"") || get.contains('['), "the route's own body: {get}");
    assert!(get.to_lowercase().contains("x-content-type-options: nosniff"), "the app's headers: {get}");

    let post = raw_exchange(
        app.port,
        "POST /api/v1/posts HTTP/1.1\r\nHost: x\r\nConnection: upgrade\r\nUpgrade: websocket\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
    )
    .await;
    assert!(post.starts_with("HTTP/1.1 400"), "{post}");
    assert!(post.contains("\"bad_request\"") && post.contains("only for the WebSocket handshake"), "{post}");

    let bad = raw_exchange(
        app.port,
        "GET /api/v1/ws HTTP/1.1\r\nHost: x\r\nConnection: upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 12\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
    )
    .await;
    assert!(bad.starts_with("HTTP/1.1 400"), "{bad}");
    assert!(bad.contains("Not a WebSocket handshake") || bad.contains("not a WebSocket handshake"), "{bad}");
}
