//! A hand-written HTTP/1.1 server for the fetcher's tests.
//!
//! Written on a bare `TcpListener` rather than with a server crate so a test can send exactly the
//! bytes it needs — a lying Content-Length, an endless chunked body, an answer that never comes —
//! and so it can count every connection it accepts ("refused before any connection").

use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// Longer than any deadline in the tests, so a stalled answer is only ever ended by the client.
const STALL: Duration = Duration::from_secs(60);
/// Chunk size for chunked bodies; several chunks fit under the small caps the tests use.
const CHUNK: usize = 16 * 1024;
/// A request head longer than this is not one our fetcher sends.
const MAX_HEAD: usize = 16 * 1024;

/// How a response body is delimited.
#[derive(Debug, Clone, Copy)]
pub enum Framing {
    ContentLength,
    Chunked,
    /// No length: the body ends when the connection closes.
    Close,
}

/// What the server sends for one request.
#[derive(Debug, Clone)]
pub enum Reply {
    Full {
        status: &'static str,
        headers: Vec<(&'static str, String)>,
        body: Vec<u8>,
        framing: Framing,
    },
    /// 200 with a chunked body that never ends; only the client's cap can stop it.
    EndlessChunks,
    /// Accepts the request and never answers.
    Stall,
    /// Announces `content_length` bytes, sends a few, then stalls.
    StallMidBody {
        content_length: usize,
    },
}

impl Reply {
    pub fn ok(content_type: &str, body: impl Into<Vec<u8>>) -> Self {
        Reply::framed(content_type, body, Framing::ContentLength)
    }

    pub fn framed(content_type: &str, body: impl Into<Vec<u8>>, framing: Framing) -> Self {
        Reply::Full {
            status: "200 OK",
            headers: vec![("Content-Type", content_type.to_owned())],
            body: body.into(),
            framing,
        }
    }

    pub fn status(status: &'static str) -> Self {
        Reply::Full { status, headers: vec![], body: vec![], framing: Framing::ContentLength }
    }

    pub fn redirect(status: &'static str, location: impl Into<String>) -> Self {
        Reply::Full {
            status,
            headers: vec![("Location", location.into())],
            body: vec![],
            framing: Framing::ContentLength,
        }
    }
}

/// A running test server; it stops with the test's runtime.
pub struct TestServer {
    pub addr: SocketAddr,
    accepted: Arc<AtomicUsize>,
    requests: Arc<Mutex<Vec<String>>>,
}

impl TestServer {
    /// Serves `route(path)` for every request on `ip`, port chosen by the OS.
    pub async fn start(ip: IpAddr, route: impl Fn(&str) -> Reply + Send + Sync + 'static) -> Self {
        let listener = TcpListener::bind((ip, 0)).await.unwrap();
        let addr = listener.local_addr().unwrap();
        let accepted = Arc::new(AtomicUsize::new(0));
        let requests = Arc::new(Mutex::new(Vec::new()));
        let route = Arc::new(route);
        let (counter, log) = (accepted.clone(), requests.clone());
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                counter.fetch_add(1, Ordering::SeqCst);
                let (route, log) = (route.clone(), log.clone());
                tokio::spawn(async move {
                    // The client going away mid-answer is the point of several tests, not a failure.
                    let _ = answer(stream, &*route, &log).await;
                });
            }
        });
        TestServer { addr, accepted, requests }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// Connections accepted so far, answered or not.
    pub fn accepted(&self) -> usize {
        self.accepted.load(Ordering::SeqCst)
    }

    /// Request heads received so far, as text.
    pub fn requests(&self) -> Vec<String> {
        self.requests.lock().unwrap().clone()
    }
}

async fn answer(
    mut stream: TcpStream,
    route: &(dyn Fn(&str) -> Reply + Send + Sync),
    log: &Mutex<Vec<String>>,
) -> std::io::Result<()> {
    let mut head = Vec::new();
    let mut buf = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < MAX_HEAD {
        let n = stream.read(&mut buf).await?;
        if n == 0 {
            return Ok(());
        }
        head.extend_from_slice(&buf[..n]);
    }
    let head = String::from_utf8_lossy(&head).into_owned();
    let path = head.split_whitespace().nth(1).unwrap_or("/").to_owned();
    log.lock().unwrap().push(head);

    match route(&path) {
        Reply::Full { status, headers, body, framing } => {
            let mut out = format!("HTTP/1.1 {status}\r\nConnection: close\r\n");
            for (name, value) in headers {
                out.push_str(&format!("{name}: {value}\r\n"));
            }
            match framing {
                Framing::ContentLength => out.push_str(&format!("Content-Length: {}\r\n\r\n", body.len())),
                Framing::Chunked => out.push_str("Transfer-Encoding: chunked\r\n\r\n"),
                Framing::Close => out.push_str("\r\n"),
            }
            stream.write_all(out.as_bytes()).await?;
            match framing {
                Framing::Chunked => {
                    for chunk in body.chunks(CHUNK) {
                        write_chunk(&mut stream, chunk).await?;
                    }
                    stream.write_all(b"0\r\n\r\n").await?;
                }
                Framing::ContentLength | Framing::Close => stream.write_all(&body).await?,
            }
            stream.shutdown().await
        }
        Reply::EndlessChunks => {
            let head = "HTTP/1.1 200 OK\r\nContent-Type: text/csv\r\nTransfer-Encoding: chunked\r\n\r\n";
            stream.write_all(head.as_bytes()).await?;
            let chunk = vec![b'x'; CHUNK];
            loop {
                write_chunk(&mut stream, &chunk).await?;
            }
        }
        Reply::Stall => {
            tokio::time::sleep(STALL).await;
            Ok(())
        }
        Reply::StallMidBody { content_length } => {
            let head = format!("HTTP/1.1 200 OK\r\nContent-Type: text/csv\r\nContent-Length: {content_length}\r\n\r\n");
            stream.write_all(head.as_bytes()).await?;
            stream.write_all(b"date,home").await?;
            tokio::time::sleep(STALL).await;
            Ok(())
        }
    }
}

async fn write_chunk(stream: &mut TcpStream, chunk: &[u8]) -> std::io::Result<()> {
    stream.write_all(format!("{:x}\r\n", chunk.len()).as_bytes()).await?;
    stream.write_all(chunk).await?;
    stream.write_all(b"\r\n").await
}
