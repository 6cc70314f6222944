//! Just enough HTTP/1.1 for the floor server: one request head read off a
//! socket, its query string, the WebSocket upgrade answer, and small
//! responses. The floor speaks to the load generator, `curl` and browsers'
//! WebSocket clients, never to the open internet, so anything it does not
//! understand is a 400 and the connection is closed.

use std::collections::HashMap;

use anyhow::{Result, anyhow, bail};
use tokio::io::{AsyncRead, AsyncReadExt};
use tokio_tungstenite::tungstenite::handshake::derive_accept_key;

/// Largest request head we read; a WebSocket handshake is about 250 bytes.
pub const MAX_HEAD_BYTES: usize = 16 * 1024;

/// Largest request body (a published document); Rinkside's own frame limit
/// is in the same range.
pub const MAX_BODY_BYTES: usize = 4 * 1024 * 1024;

/// A parsed request head.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Head {
    pub method: String,
    /// The path without the query string.
    pub path: String,
    /// The raw query string (after `?`), if any.
    pub query: String,
    /// Header names lower-cased.
    headers: Vec<(String, String)>,
}

impl Head {
    /// The first value of header `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers.iter().find(|(k, _)| *k == name).map(|(_, v)| v.as_str())
    }

    /// Does header `name` list `token` (comma-separated, case-insensitive)?
    /// `Connection: keep-alive, Upgrade` lists `upgrade`.
    pub fn header_has(&self, name: &str, token: &str) -> bool {
        self.header(name).is_some_and(|v| v.split(',').any(|t| t.trim().eq_ignore_ascii_case(token)))
    }

    /// `Content-Length`, 0 without one.
    pub fn content_length(&self) -> Result<usize> {
        match self.header("content-length") {
            None => Ok(0),
            Some(v) => v.trim().parse().map_err(|_| anyhow!("bad Content-Length {v:?}")),
        }
    }

    /// Is this a WebSocket upgrade request?
    pub fn is_upgrade(&self) -> bool {
        self.method == "GET" && self.header_has("connection", "upgrade") && self.header_has("upgrade", "websocket")
    }

    /// HTTP/1.1 keeps the connection unless the client says otherwise.
    pub fn keep_alive(&self) -> bool {
        !self.header_has("connection", "close")
    }
}

/// Where the head ends in `buf` (just past the blank line), if it is all
/// there.
pub fn head_end(buf: &[u8]) -> Option<usize> {
    buf.windows(4).position(|w| w == b"\r\n\r\n").map(|i| i + 4)
}

/// Parses a complete request head (request line and headers, up to and
/// including the blank line).
pub fn parse_head(bytes: &[u8]) -> Result<Head> {
    let text = std::str::from_utf8(bytes).map_err(|_| anyhow!("request head is not UTF-8"))?;
    let mut lines = text.split("\r\n");
    let request_line = lines.next().unwrap_or_default();
    let mut parts = request_line.split(' ');
    let (Some(method), Some(target), Some(version), None) = (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        bail!("bad request line {request_line:?}");
    };
    if !version.starts_with("HTTP/1.") {
        bail!("unsupported version {version:?}");
    }
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let mut headers = Vec::new();
    for line in lines.take_while(|l| !l.is_empty()) {
        let (name, value) = line.split_once(':').ok_or_else(|| anyhow!("bad header line {line:?}"))?;
        headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
    }
    Ok(Head { method: method.to_owned(), path: path.to_owned(), query: query.to_owned(), headers })
}

/// Reads one request head from `stream`, keeping whatever was read past it in
/// `buf` (a body, a pipelined request, or the client's first WebSocket frame).
/// `None` when the client closed before sending anything.
pub async fn read_head<S: AsyncRead + Unpin>(stream: &mut S, buf: &mut Vec<u8>) -> Result<Option<Head>> {
    loop {
        if let Some(end) = head_end(buf) {
            let head = parse_head(&buf[..end])?;
            buf.drain(..end);
            return Ok(Some(head));
        }
        if buf.len() > MAX_HEAD_BYTES {
            bail!("request head over {MAX_HEAD_BYTES} bytes");
        }
        if stream.read_buf(buf).await? == 0 {
            if buf.is_empty() {
                return Ok(None);
            }
            bail!("connection closed inside a request head");
        }
    }
}

/// Reads a body of `len` bytes, taking what is already in `buf` first.
pub async fn read_body<S: AsyncRead + Unpin>(stream: &mut S, buf: &mut Vec<u8>, len: usize) -> Result<Vec<u8>> {
    if len > MAX_BODY_BYTES {
        bail!("body over {MAX_BODY_BYTES} bytes");
    }
    while buf.len() < len {
        if stream.read_buf(buf).await? == 0 {
            bail!("connection closed inside a body");
        }
    }
    Ok(buf.drain(..len).collect())
}

/// The query string's parameters, percent-decoded (`+` is a space). A key
/// given twice keeps its last value.
pub fn query_params(query: &str) -> HashMap<String, String> {
    query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (percent_decode(k), percent_decode(v))
        })
        .collect()
}

/// `%3A` → `:`, `+` → space; a malformed escape is kept as it is.
pub fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push(h << 4 | l);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn hex(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// The `101 Switching Protocols` answer to a WebSocket handshake.
pub fn upgrade_response(head: &Head) -> Result<String> {
    let key = head.header("sec-websocket-key").ok_or_else(|| anyhow!("no Sec-WebSocket-Key"))?;
    if head.header("sec-websocket-version") != Some("13") {
        bail!("unsupported Sec-WebSocket-Version");
    }
    Ok(format!(
        "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Accept: {}\r\n\r\n",
        derive_accept_key(key.as_bytes())
    ))
}

/// A complete response with a body (JSON unless said otherwise).
pub fn response(status: u16, content_type: &str, body: &str, keep_alive: bool) -> String {
    let reason = match status {
        200 => "OK",
        204 => "No Content",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        413 => "Payload Too Large",
        _ => "Error",
    };
    format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: {}\r\n\r\n{body}",
        body.len(),
        if keep_alive { "keep-alive" } else { "close" }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const HANDSHAKE: &str = "GET /api/v1/ws HTTP/1.1\r\nHost: 127.0.0.1:9000\r\nConnection: keep-alive, Upgrade\r\n\
         Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n";

    #[test]
    fn a_websocket_handshake_is_recognised_and_answered() {
        let end = head_end(HANDSHAKE.as_bytes()).unwrap();
        assert_eq!(end, HANDSHAKE.len());
        let head = parse_head(HANDSHAKE.as_bytes()).unwrap();
        assert_eq!((head.method.as_str(), head.path.as_str(), head.query.as_str()), ("GET", "/api/v1/ws", ""));
        assert!(head.is_upgrade());
        // RFC 6455's own example key and accept value.
        let answer = upgrade_response(&head).unwrap();
        assert!(answer.starts_with("HTTP/1.1 101 "));
        assert!(answer.contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"));
        assert!(answer.ends_with("\r\n\r\n"));
    }

    #[test]
    fn a_publish_request_gives_its_query_and_length() {
        let raw = "POST /publish?topic=game%3Aabc&bytes=600 HTTP/1.1\r\ncontent-length: 12\r\n\r\n";
        let head = parse_head(raw.as_bytes()).unwrap();
        assert_eq!(head.path, "/publish");
        assert!(!head.is_upgrade());
        assert!(head.keep_alive());
        assert_eq!(head.content_length().unwrap(), 12);
        let q = query_params(&head.query);
        assert_eq!(q.get("topic").map(String::as_str), Some("game:abc"));
        assert_eq!(q.get("bytes").map(String::as_str), Some("600"));
    }

    #[test]
    fn bad_heads_are_refused() {
        assert!(parse_head(b"GET /\r\n\r\n").is_err());
        assert!(parse_head(b"GET / HTTP/2\r\n\r\n").is_err());
        assert!(parse_head(b"GET / HTTP/1.1\r\nno colon here\r\n\r\n").is_err());
        let head = parse_head(b"POST /publish HTTP/1.1\r\nContent-Length: lots\r\n\r\n").unwrap();
        assert!(head.content_length().is_err());
    }

    #[test]
    fn percent_escapes_decode_and_broken_ones_stay() {
        assert_eq!(percent_decode("game%3Ax+y"), "game:x y");
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(percent_decode("%zz"), "%zz");
        assert_eq!(percent_decode("%4"), "%4");
        assert_eq!(query_params("a=1&&b&a=2").get("a").map(String::as_str), Some("2"));
        assert_eq!(query_params("a=1&&b&a=2").get("b").map(String::as_str), Some(""));
    }

    #[test]
    fn connection_close_ends_keep_alive() {
        let head = parse_head(b"GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n").unwrap();
        assert!(!head.keep_alive());
        let r = response(200, "text/plain", "ok", false);
        assert!(r.contains("Content-Length: 2\r\nConnection: close\r\n\r\nok"));
    }

    #[tokio::test]
    async fn a_head_and_body_read_off_a_stream_leave_the_rest_buffered() {
        let raw = b"POST /publish?topic=t HTTP/1.1\r\nContent-Length: 4\r\n\r\n{}  GET /healthz HTTP/1.1\r\n\r\n";
        let mut stream = &raw[..];
        let mut buf = Vec::new();
        let head = read_head(&mut stream, &mut buf).await.unwrap().unwrap();
        let body = read_body(&mut stream, &mut buf, head.content_length().unwrap()).await.unwrap();
        assert_eq!(body, b"{}  ");
        let next = read_head(&mut stream, &mut buf).await.unwrap().unwrap();
        assert_eq!(next.path, "/healthz");
        assert!(read_head(&mut stream, &mut buf).await.unwrap().is_none());
    }
}
