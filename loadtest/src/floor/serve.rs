//! One TCP connection of the floor ([`serve`]): HTTP requests, kept alive,
//! until it upgrades to a WebSocket ([`super::socket`]) or closes; and the
//! plain HTTP endpoints — `/healthz`, `/publish`, `/document` ([`route`]).

use std::sync::Arc;

use anyhow::Result;
use serde_json::json;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::protocol::Role;

use super::http::{self, Head};
use super::socket::{websocket, ws_config};
use super::{State, WS_PATH};

/// One TCP connection: HTTP requests (kept alive) until it upgrades to a
/// WebSocket or closes.
pub async fn serve(state: Arc<State>, mut stream: TcpStream) -> Result<()> {
    stream.set_nodelay(true)?;
    let mut buf = Vec::with_capacity(1024);
    loop {
        let head = match http::read_head(&mut stream, &mut buf).await {
            Ok(Some(head)) => head,
            Ok(None) => return Ok(()),
            Err(e) => {
                let _ = stream.write_all(http::response(400, "text/plain", &format!("{e:#}"), false).as_bytes()).await;
                return Err(e);
            }
        };
        if head.path == WS_PATH && head.is_upgrade() {
            let answer = match http::upgrade_response(&head) {
                Ok(a) => a,
                Err(e) => {
                    let _ =
                        stream.write_all(http::response(400, "text/plain", &format!("{e:#}"), false).as_bytes()).await;
                    return Err(e);
                }
            };
            stream.write_all(answer.as_bytes()).await?;
            // Whatever the client sent after its head is its first frame.
            let ws = WebSocketStream::from_partially_read(stream, buf, Role::Server, Some(ws_config())).await;
            return websocket(state, ws).await;
        }
        // A body we will not read leaves the connection out of step: close it.
        let (answer, keep_alive) = match head.content_length() {
            Ok(len) if len > http::MAX_BODY_BYTES => {
                (http::response(413, "text/plain", "body too large", false), false)
            }
            Ok(len) => {
                let body = http::read_body(&mut stream, &mut buf, len).await?;
                (route(&state, &head, &body), head.keep_alive())
            }
            Err(e) => (http::response(400, "text/plain", &format!("{e:#}"), false), false),
        };
        stream.write_all(answer.as_bytes()).await?;
        if !keep_alive {
            return Ok(());
        }
    }
}

/// The plain HTTP endpoints.
fn route(state: &State, head: &Head, body: &[u8]) -> String {
    let keep = head.keep_alive();
    let bad = |message: &str| http::response(400, "application/json", &json!({ "error": message }).to_string(), keep);
    match (head.method.as_str(), head.path.as_str()) {
        ("GET", "/healthz") => http::response(200, "text/plain", "ok", keep),
        ("POST", path @ ("/publish" | "/document")) => {
            let params = http::query_params(&head.query);
            let Some(topic) = params.get("topic").filter(|t| !t.is_empty()) else {
                return bad("topic is required");
            };
            let data = match json_body(body) {
                Ok(d) => d,
                Err(message) => return bad(&message),
            };
            if path == "/document" {
                let Some(data) = data else { return bad("the document is the body") };
                state.hub.set_document(topic, data);
                return http::response(204, "application/json", "", keep);
            }
            let bytes = match params.get("bytes").map(|b| b.parse::<usize>()) {
                None => None,
                Some(Ok(n)) => Some(n),
                Some(Err(_)) => return bad("bytes must be a number"),
            };
            let published = state.hub.publish(topic, data, bytes);
            http::response(200, "application/json", &json!(published).to_string(), keep)
        }
        (_, "/healthz" | "/publish" | "/document") => http::response(405, "text/plain", "method not allowed", keep),
        _ => http::response(404, "text/plain", "not found", keep),
    }
}

/// The body as JSON text, `None` when empty; an error when it is not JSON.
fn json_body(body: &[u8]) -> Result<Option<&str>, String> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    let text = std::str::from_utf8(body).map_err(|_| "the body is not UTF-8".to_owned())?;
    serde_json::from_str::<serde::de::IgnoredAny>(text).map_err(|e| format!("the body is not JSON: {e}"))?;
    Ok(Some(text.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_must_be_json_or_empty() {
        assert_eq!(json_body(b""), Ok(None));
        assert_eq!(json_body(b" \n"), Ok(None));
        assert_eq!(json_body(b" {\"a\":1}\n"), Ok(Some("{\"a\":1}")));
        assert!(json_body(b"{nope").is_err());
    }

    fn post(query: &str) -> Head {
        http::parse_head(format!("POST {query} HTTP/1.1\r\n\r\n").as_bytes()).unwrap()
    }

    #[test]
    fn publish_needs_a_topic_and_answers_the_seq() {
        let s = State::for_tests();
        assert!(route(&s, &post("/publish"), b"").starts_with("HTTP/1.1 400 "));
        assert!(route(&s, &post("/publish?topic=t&bytes=many"), b"").starts_with("HTTP/1.1 400 "));
        let answer = route(&s, &post("/publish?topic=game%3A1&bytes=300"), b"");
        assert!(answer.starts_with("HTTP/1.1 200 "), "{answer}");
        assert!(answer.ends_with(r#"{"frameBytes":300,"seq":1,"skipped":0,"subscribers":0}"#), "{answer}");
        assert!(route(&s, &post("/document?topic=t"), b"").starts_with("HTTP/1.1 400 "));
        assert!(route(&s, &post("/document?topic=t"), b"{}").starts_with("HTTP/1.1 204 "));
        assert!(route(&s, &post("/nowhere"), b"").starts_with("HTTP/1.1 404 "));
    }
}
