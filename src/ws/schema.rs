//! The WebSocket frames of CONTRACT.md › WebSocket as schemas, for the
//! components of the OpenAPI document (`crate::api::openapi`), so that the
//! client's frame and topic types are generated like its REST types
//! (docs/openapi.md › The WebSocket frames).
//!
//! OpenAPI has no way to describe a WebSocket: the frames are components
//! that the socket's operation (`GET /api/v1/ws`) names in its
//! `x-websocket` extension, `ClientFrame` (what a client sends) and
//! `ServerFrame` (what it receives). A topic's `snapshot` and `update`
//! frames have a schema each (`GameSnapshotFrame`, `GameUpdateFrame`, …,
//! from [`TOPICS`]) whose `data` is the topic's document.
//!
//! The frames are written with `json!` where they are sent
//! (`super::protocol`, `crate::live`, `crate::chat`, `crate::market::push`);
//! the types here only describe them, and the socket tests check real
//! frames against them (`tests/api/openapi.rs`).

#![allow(dead_code)] // The types describe frames other code writes; none is built.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use utoipa::ToSchema;

/// Every topic kind: (kind, the topic's name pattern, the schema of its
/// snapshot's `data`, the schema of its update's `data`).
pub const TOPICS: &[(&str, &str, &str, &str)] = &[
    ("Event", "^event:", "AttendeesDocument", "AttendeesDocument"),
    ("Game", "^game:", "GameDocument", "GameUpdate"),
    ("Season", "^season:", "SeasonDocument", "SeasonDocument"),
    ("Team", "^team:", "TeamLive", "TeamLive"),
    ("Roster", "^roster:", "RosterDocument", "RosterDocument"),
    ("Feed", "^feed$", "Page_FeedItem", "FeedPush"),
    ("Matches", "^matches$", "Items_Match", "MatchesUpdate"),
    ("Spots", "^spots:", "Spots", "Spots"),
    ("Follows", "^follows:", "FollowCounts", "FollowCounts"),
    ("Notifications", "^notifications$", "NotificationsSnapshot", "NotificationsUpdate"),
    ("Series", "^series:", "EventSeries", "EventSeries"),
    ("Availability", "^availability:", "Board", "AvailabilityUpdate"),
    ("Chat", "^chat:", "ChatSnapshot", "ChatUpdate"),
    ("Chats", "^chats$", "ChatsSnapshot", "ChatsUpdate"),
];

/// The schemas described here, with every schema they refer to.
#[derive(utoipa::OpenApi)]
#[openapi(components(schemas(
    ClientFrame,
    SocketCommand,
    ErrorFrame,
    ReplyOkFrame,
    ReplyErrorFrame,
    PongFrame,
    AuthenticatedFrame,
    UnsubscribedFrame,
    FrameError,
    rinkside_actors::game::GameDocument,
    rinkside_actors::game::GameUpdate,
    crate::live::season::SeasonDocument,
    crate::live::spots::Spots,
    crate::live::follows::FollowCounts,
    TeamLive,
    FeedPush,
    FeedRemoval,
    MatchesUpdate,
    NotificationsSnapshot,
    NotificationsUpdate,
    AvailabilityUpdate,
    ChatSnapshot,
    ChatUpdate,
    ChatsSnapshot,
    ChatsEntry,
    ChatsUpdate,
)))]
pub struct Frames;

/// Adds the frames to `doc` (the document as JSON, with [`Frames`]
/// merged in): the topics' frames and `ServerFrame`, one-word patterns
/// made the literals they are (so generated clients get `'reply'`, not
/// `string`), and the socket operation's `x-websocket` naming both ends.
pub fn add_to(doc: &mut Value) {
    use utoipa::OpenApi;
    let own: Vec<String> = Frames::openapi().components.map(|c| c.schemas.into_keys().collect()).unwrap_or_default();
    let schemas = &mut doc["components"]["schemas"];
    for name in &own {
        if let Some(schema) = schemas.get_mut(name) {
            literals(schema);
        }
    }
    for (name, schema) in topic_frames() {
        schemas[name] = schema;
    }
    if let Some(operation) = doc["paths"]["/api/v1/ws"].get_mut("get").and_then(Value::as_object_mut) {
        operation.insert(
            "x-websocket".into(),
            json!({
                "clientFrame": {"$ref": "#/components/schemas/ClientFrame"},
                "serverFrame": {"$ref": "#/components/schemas/ServerFrame"},
            }),
        );
    }
}

/// `{"pattern": "^reply$"}` → `{"enum": ["reply"]}`, and on a boolean
/// `^true$` → `{"enum": [true]}`, everywhere in `schema`.
fn literals(schema: &mut Value) {
    match schema {
        Value::Object(object) => {
            let word = object
                .get("pattern")
                .and_then(Value::as_str)
                .and_then(|p| p.strip_prefix('^')?.strip_suffix('$'))
                .filter(|w| w.chars().all(|c| c.is_ascii_alphanumeric()))
                .map(str::to_string);
            if let Some(word) = word {
                let value = match (object.get("type").and_then(Value::as_str), word.as_str()) {
                    (Some("boolean"), "true") => json!(true),
                    (Some("boolean"), "false") => json!(false),
                    _ => json!(word),
                };
                object.remove("pattern");
                object.insert("enum".into(), json!([value]));
            }
            object.values_mut().for_each(literals);
        }
        Value::Array(items) => items.iter_mut().for_each(literals),
        _ => {}
    }
}

/// The frames of every topic and `ServerFrame`, `ClientFrame`'s partner,
/// as JSON schemas by name.
pub fn topic_frames() -> Vec<(String, Value)> {
    let mut out = Vec::new();
    let mut server = Vec::new();
    for (kind, pattern, snapshot, update) in TOPICS {
        for (frame, data, what) in [("snapshot", snapshot, "after every subscribe"), ("update", update, "on a change")]
        {
            let name = format!("{kind}{}Frame", if frame == "snapshot" { "Snapshot" } else { "Update" });
            out.push((
                name.clone(),
                json!({
                    "type": "object",
                    "description": format!("`{frame}` of a `{}` topic, {what}.", pattern.trim_start_matches('^').trim_end_matches('$')),
                    "properties": {
                        "type": {"type": "string", "enum": [frame]},
                        "topic": {"type": "string", "pattern": pattern},
                        "seq": {"type": "integer", "format": "int64", "description": "Strictly increases per topic."},
                        "data": {"$ref": format!("#/components/schemas/{data}")},
                    },
                    "required": ["type", "topic", "seq", "data"],
                }),
            ));
            server.push(json!({"$ref": format!("#/components/schemas/{name}")}));
        }
    }
    for control in
        ["ReplyOkFrame", "ReplyErrorFrame", "ErrorFrame", "PongFrame", "AuthenticatedFrame", "UnsubscribedFrame"]
    {
        server.push(json!({"$ref": format!("#/components/schemas/{control}")}));
    }
    out.push((
        "ServerFrame".into(),
        // `anyOf`, though exactly one matches: the frames differ by `type`
        // and a topic's by its pattern, which linters cannot compare.
        json!({"description": "A frame the server sends (CONTRACT.md › WebSocket).", "anyOf": server}),
    ));
    out
}

/// A frame a client sends.
#[derive(Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum ClientFrame {
    /// Optional, first; without it the connection is anonymous (public
    /// topics only). Again with a fresh token before one expires.
    Auth {
        token: String,
    },
    /// `since`: the last `seq` held; the snapshot then continues from it.
    Subscribe {
        topic: String,
        since: Option<i64>,
    },
    Unsubscribe {
        topic: String,
    },
    /// `id` is the client's; replaying it answers the first reply.
    Command {
        id: String,
        command: SocketCommand,
    },
    /// `id`, when given, comes back in the pong.
    Ping {
        id: Option<String>,
    },
}

/// The `command` of a command frame.
#[derive(Deserialize, ToSchema)]
#[serde(untagged)]
pub enum SocketCommand {
    Rsvp(RsvpCommand),
    RemoveAttendee(RemoveAttendeeCommand),
    GameAction(GameActionCommand),
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RsvpCommand {
    /// `rsvp`.
    #[schema(pattern = "^rsvp$")]
    kind: String,
    event_id: String,
    #[schema(value_type = rinkside_actors::event::RsvpAnswer)]
    action: String,
    position: Option<crate::domain::HockeyPosition>,
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RemoveAttendeeCommand {
    /// `removeAttendee`.
    #[schema(pattern = "^removeAttendee$")]
    kind: String,
    event_id: String,
    user_id: String,
}

/// `{"kind":"gameAction","gameId", …the body of POST /games/{id}/actions…}`:
/// the other fields are a `GameActionInput`'s. (Not an `allOf` with it: its
/// variants refuse fields they do not list, `kind` and `gameId` among them.)
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GameActionCommand {
    /// `gameAction`.
    #[schema(pattern = "^gameAction$")]
    kind: String,
    game_id: String,
}

/// `code` and `message`, as in the HTTP error envelope.
#[derive(Serialize, ToSchema)]
pub struct FrameError {
    code: String,
    message: String,
}

/// A bad frame; the connection stays open (or closes with 1008 when the
/// client misbehaves repeatedly, 1009 for a frame over the size limit).
#[derive(Serialize, ToSchema)]
pub struct ErrorFrame {
    #[schema(pattern = "^error$")]
    r#type: String,
    error: FrameError,
}

/// A command applied: `data` is the body the matching REST call answers.
#[derive(Serialize, ToSchema)]
pub struct ReplyOkFrame {
    #[schema(pattern = "^reply$")]
    r#type: String,
    id: String,
    #[schema(pattern = "^true$")]
    ok: bool,
    data: Value,
}

/// A command refused: nothing was applied.
#[derive(Serialize, ToSchema)]
pub struct ReplyErrorFrame {
    #[schema(pattern = "^reply$")]
    r#type: String,
    id: String,
    #[schema(pattern = "^false$")]
    ok: bool,
    error: FrameError,
}

/// The answer to a ping: the server's clock (epoch ms) and the ping's `id`.
#[derive(Serialize, ToSchema)]
pub struct PongFrame {
    #[schema(pattern = "^pong$")]
    r#type: String,
    now: i64,
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<String>,
}

/// Acknowledges `auth`.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuthenticatedFrame {
    #[schema(pattern = "^authenticated$")]
    r#type: String,
    user_id: String,
}

/// A subscription the server ended (the token expired, access was lost).
#[derive(Serialize, ToSchema)]
pub struct UnsubscribedFrame {
    #[schema(pattern = "^unsubscribed$")]
    r#type: String,
    topic: String,
    error: FrameError,
}

/// The `data` of a `team:` topic.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TeamLive {
    id: String,
    name: String,
    logo_url: Option<String>,
    description: Option<String>,
    facility_id: Option<String>,
    owner_id: String,
    follower_count: i64,
    #[schema(format = DateTime)]
    updated_at: String,
}

/// A `feed` update: an item, new or re-aggregated, or one taken away.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
pub enum FeedPush {
    Item(crate::live::feed::FeedItem),
    Removal(FeedRemoval),
}

/// A feed item taken away (its post was deleted).
#[derive(Serialize, ToSchema)]
pub struct FeedRemoval {
    id: String,
    #[schema(pattern = "^true$")]
    removed: bool,
}

/// A `matches` update: one match new or changed, or one gone (by the
/// status or the event it was about).
// Schema-only types: never built, so a large variant costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
pub enum MatchesUpdate {
    Upsert {
        /// `upsert`.
        #[schema(pattern = "^upsert$")]
        op: String,
        #[serde(rename = "match")]
        r#match: crate::market::view::Match,
    },
    DropStatus {
        /// `drop`.
        #[schema(pattern = "^drop$")]
        op: String,
        #[serde(rename = "statusId")]
        status_id: String,
    },
    DropEvent {
        /// `drop`.
        #[schema(pattern = "^drop$")]
        op: String,
        #[serde(rename = "eventId")]
        event_id: String,
    },
}

/// The `notifications` snapshot: the first page and the unread count.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NotificationsSnapshot {
    items: Vec<crate::live::notifications::Notification>,
    next_cursor: Option<String>,
    unread: i64,
}

/// A `notifications` update, with the unread count after it.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
pub enum NotificationsUpdate {
    New {
        /// `new`.
        #[schema(pattern = "^new$")]
        op: String,
        notification: crate::live::notifications::Notification,
        unread: i64,
    },
    Read {
        /// `read`: these were marked read.
        #[schema(pattern = "^read$")]
        op: String,
        ids: Vec<String>,
        unread: i64,
    },
    ReadAll {
        /// `readAll`.
        #[schema(pattern = "^readAll$")]
        op: String,
        unread: i64,
    },
}

/// An `availability:` update: one game that changed, or (the rules
/// changed) the whole board but its roster id.
// Schema-only types: never built, so a large variant costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
pub enum AvailabilityUpdate {
    Game {
        game: crate::live::availability::GameAvailability,
    },
    Board {
        rules: crate::domain::availability::AvailabilityRules,
        games: Vec<crate::live::availability::GameAvailability>,
    },
}

/// The `chat:` snapshot: the latest messages, oldest first; its seq is
/// the conversation's `version`.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChatSnapshot {
    conversation_id: String,
    version: i64,
    messages: Vec<crate::chat::Message>,
}

/// A `chat:` update: a message posted, edited or deleted, as it now is.
#[derive(Serialize, ToSchema)]
pub struct ChatUpdate {
    message: crate::chat::Message,
}

/// The `chats` snapshot: my unread total (muted conversations left out)
/// and each conversation's count.
#[derive(Serialize, ToSchema)]
pub struct ChatsSnapshot {
    unread: i64,
    conversations: Vec<ChatsEntry>,
}

#[derive(Serialize, ToSchema)]
pub struct ChatsEntry {
    id: String,
    unread: i64,
    muted: bool,
}

/// A `chats` update: one conversation's count after a change; the highest
/// `version` wins when two arrive out of order.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChatsUpdate {
    conversation_id: String,
    version: i64,
    unread: i64,
    last_message: Option<crate::chat::Message>,
}
