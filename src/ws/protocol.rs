//! The frames of CONTRACT.md › WebSocket, as types.

use serde::Deserialize;

/// Client → server.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase", deny_unknown_fields)]
pub enum ClientFrame {
    Auth {
        token: String,
    },
    Subscribe {
        topic: String,
        since: Option<i64>,
    },
    Unsubscribe {
        topic: String,
    },
    Command {
        id: String,
        command: serde_json::Value,
    },
    /// `id`, when given, comes back in the pong (docs/game-night.md › Time sync).
    Ping {
        #[serde(default)]
        id: Option<String>,
    },
}

/// Longest ping id echoed back.
pub const MAX_PING_ID_CHARS: usize = 64;

/// Longest stretch of client input a frame quotes back (a topic, a value
/// serde names in its message): a client cannot make us echo its 10,000
/// characters, and every error frame stays small.
pub const MAX_ECHO_CHARS: usize = 128;

/// Longest message in an error or reply frame.
pub const MAX_MESSAGE_CHARS: usize = 512;

/// `s` cut to `max` characters, with `…` where it was cut.
pub fn clip(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((end, _)) => format!("{}…", &s[..end]),
        None => s.to_string(),
    }
}

/// A message fit to send: every quoted stretch (`…` or "…", where serde and
/// our own messages quote what the client sent) cut to [`MAX_ECHO_CHARS`],
/// the whole to [`MAX_MESSAGE_CHARS`].
pub fn bounded_message(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(MAX_MESSAGE_CHARS + 8));
    let mut quote: Option<char> = None;
    let mut quoted = 0;
    for c in message.chars() {
        match quote {
            Some(q) if c == q => {
                if quoted > MAX_ECHO_CHARS {
                    out.push('…');
                }
                quote = None;
                out.push(c);
            }
            Some(_) => {
                quoted += 1;
                if quoted <= MAX_ECHO_CHARS {
                    out.push(c);
                }
            }
            None => {
                if c == '`' || c == '"' {
                    quote = Some(c);
                    quoted = 0;
                }
                out.push(c);
            }
        }
    }
    if quote.is_some() && quoted > MAX_ECHO_CHARS {
        out.push('…');
    }
    clip(&out, MAX_MESSAGE_CHARS)
}

/// `{"type":"error","error":{"code","message"}}`
pub fn error_frame(code: &str, message: &str) -> String {
    let message = crate::error::capitalised(&bounded_message(message));
    serde_json::json!({"type": "error", "error": {"code": code, "message": message}}).to_string()
}

/// `{"type":"reply","id","ok":true,"data"}`
pub fn reply_ok(id: &str, data: &serde_json::Value) -> String {
    serde_json::json!({"type": "reply", "id": id, "ok": true, "data": data}).to_string()
}

/// `{"type":"reply","id","ok":false,"error":{"code","message"}}`
pub fn reply_err(id: &str, code: &str, message: &str) -> String {
    let message = crate::error::capitalised(&bounded_message(message));
    serde_json::json!({"type": "reply", "id": id, "ok": false, "error": {"code": code, "message": message}}).to_string()
}

/// `{"type":"pong","now":ms,"id"?}`: the server's clock at the answer, so a
/// screen can estimate its offset from the round trip.
pub fn pong_frame(id: Option<&str>, now_ms: i64) -> String {
    match id {
        Some(id) => serde_json::json!({"type": "pong", "now": now_ms, "id": id}).to_string(),
        None => format!(r#"{{"type":"pong","now":{now_ms}}}"#),
    }
}

/// Extension of the contract in its style: acknowledges `auth`.
pub fn authenticated_frame(user_id: &str) -> String {
    serde_json::json!({"type": "authenticated", "userId": user_id}).to_string()
}

/// Extension: a subscription ended by the server (e.g. the token expired).
pub fn unsubscribed_frame(topic: &str, code: &str, message: &str) -> String {
    let (topic, message) = (clip(topic, MAX_ECHO_CHARS), crate::error::capitalised(&bounded_message(message)));
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

    #[test]
    fn quoted_client_input_is_cut_short() {
        let long = "x".repeat(10_000);
        let m = bounded_message(&format!("unknown variant `{long}`, expected one of `ping`"));
        assert!(m.starts_with(&format!("unknown variant `{}…`", "x".repeat(MAX_ECHO_CHARS))), "{m}");
        assert!(m.ends_with("expected one of `ping`"), "{m}");
        let m = bounded_message(&format!("invalid type: string \"{long}"));
        assert_eq!(m.chars().count(), "invalid type: string \"".len() + MAX_ECHO_CHARS + 1);
        assert_eq!(bounded_message("plain words"), "plain words");
        assert_eq!(clip("héllo", 2), "hé…");
        assert!(bounded_message(&long).chars().count() <= MAX_MESSAGE_CHARS + 1);
    }
}

#[cfg(test)]
mod fuzz {
    use super::*;
    use crate::fuzzing::{self, json_text, text};
    use proptest::prelude::*;

    /// The fields of every client frame.
    const FIELDS: &[&str] = &["type", "token", "topic", "since", "id", "command", "kind"];
    const TYPES: &[&str] = &["auth", "subscribe", "unsubscribe", "command", "ping", "Ping", "pong", ""];

    /// A frame that names a real type, with hostile fields: it gets past the
    /// tag and into each variant's fields.
    fn typed_frame() -> impl Strategy<Value = Vec<u8>> {
        (prop::sample::select(TYPES), fuzzing::object_with(FIELDS)).prop_map(|(kind, mut obj)| {
            obj["type"] = serde_json::Value::from(kind);
            obj.to_string().into_bytes()
        })
    }

    proptest! {
        #![proptest_config(fuzzing::config(1_000))]

        /// Whatever a client sends as a text frame, parsing it is a frame
        /// or an error, and the error frame we answer with is valid JSON
        /// and stays short however long the input was.
        #[test]
        fn any_client_frame_parses_or_is_refused_with_a_short_error(
            raw in prop_oneof![json_text(FIELDS), typed_frame()],
        ) {
            match serde_json::from_slice::<ClientFrame>(&raw) {
                Ok(ClientFrame::Command { id, .. }) => prop_assert!(id.len() <= raw.len()),
                Ok(_) => {}
                Err(e) => {
                    let frame = error_frame("bad_frame", &format!("not a frame we understand: {e}"));
                    let parsed: serde_json::Value = serde_json::from_str(&frame).map_err(|e| TestCaseError::fail(e.to_string()))?;
                    let message = parsed["error"]["message"].as_str().unwrap_or_default();
                    prop_assert!(message.chars().count() <= MAX_MESSAGE_CHARS + 1, "{} characters", message.chars().count());
                }
            }
        }

        /// The message bounding never panics (char boundaries, unclosed
        /// quotes) and keeps to its limit.
        #[test]
        fn bounded_messages_and_clips_keep_their_limits(s in text(), max in 0usize..200) {
            prop_assert!(bounded_message(&s).chars().count() <= MAX_MESSAGE_CHARS + 1);
            let clipped = clip(&s, max);
            prop_assert!(clipped.chars().count() <= max + 1);
            if s.chars().count() <= max {
                prop_assert_eq!(clipped, s);
            }
        }

        /// Frames we build from client input (a topic, a reply id, a
        /// message) are always valid JSON with the input bounded.
        #[test]
        fn frames_built_from_client_input_are_valid_json(id in text(), topic in text(), message in text()) {
            for frame in [reply_err(&id, "bad", &message), unsubscribed_frame(&topic, "unauthorized", &message)] {
                prop_assert!(serde_json::from_str::<serde_json::Value>(&frame).is_ok(), "{}", frame);
            }
        }
    }
}
