//! The frames of CONTRACT.md › WebSocket, as types.

use serde::Deserialize;

/// Client → server.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase", deny_unknown_fields)]
pub enum ClientFrame {
    Auth { token: String },
    Subscribe { topic: String, since: Option<i64> },
    Unsubscribe { topic: String },
    Command { id: String, command: serde_json::Value },
    Ping,
}

/// `{"type":"error","error":{"code","message"}}`
pub fn error_frame(code: &str, message: &str) -> String {
    serde_json::json!({"type": "error", "error": {"code": code, "message": message}}).to_string()
}

/// `{"type":"reply","id","ok":true,"data"}`
pub fn reply_ok(id: &str, data: &serde_json::Value) -> String {
    serde_json::json!({"type": "reply", "id": id, "ok": true, "data": data}).to_string()
}

/// `{"type":"reply","id","ok":false,"error":{"code","message"}}`
pub fn reply_err(id: &str, code: &str, message: &str) -> String {
    serde_json::json!({"type": "reply", "id": id, "ok": false, "error": {"code": code, "message": message}}).to_string()
}

pub const PONG: &str = r#"{"type":"pong"}"#;

/// Extension of the contract in its style: acknowledges `auth`.
pub fn authenticated_frame(user_id: &str) -> String {
    serde_json::json!({"type": "authenticated", "userId": user_id}).to_string()
}

/// Extension: a subscription ended by the server (e.g. the token expired).
pub fn unsubscribed_frame(topic: &str, code: &str, message: &str) -> String {
    serde_json::json!({"type": "unsubscribed", "topic": topic, "error": {"code": code, "message": message}}).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_parse_by_type() {
        let f: ClientFrame = serde_json::from_str(r#"{"type":"subscribe","topic":"game:1","since":3}"#).unwrap();
        assert!(matches!(f, ClientFrame::Subscribe { since: Some(3), .. }));
        assert!(serde_json::from_str::<ClientFrame>(r#"{"type":"subscribe"}"#).is_err());
        assert!(serde_json::from_str::<ClientFrame>(r#"{"type":"dance"}"#).is_err());
    }
}
