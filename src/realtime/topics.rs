//! Topic names, who may subscribe to them, and how each kind produces its
//! current state (`snapshot`). Each capability registers a [`TopicSource`]
//! for its kind; the gateway and the bus resync only go through here.

use crate::error::AppError;
use futures_util::future::BoxFuture;
use std::collections::HashMap;
use std::sync::Arc;

/// The kinds of topic of CONTRACT.md.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Event,
    Game,
    Season,
    Team,
    Roster,
    Feed,
    /// A person's own sub-market matches (docs/statuses.md).
    Matches,
    /// A rink's open spots tonight (the lobby display).
    Spots,
    /// Follower counts of a user, facility or team.
    Follows,
    /// A person's own notifications (docs/notifications.md).
    Notifications,
    /// The weeks of a weekly series (docs/series.md).
    Series,
    /// A roster's availability board (docs/availability.md).
    Availability,
    /// One conversation's messages (docs/chat.md).
    Chat,
    /// A person's own unread counts of their conversations.
    Chats,
}

impl Kind {
    pub const ALL: [Kind; 14] = [
        Kind::Event,
        Kind::Game,
        Kind::Season,
        Kind::Team,
        Kind::Roster,
        Kind::Feed,
        Kind::Matches,
        Kind::Spots,
        Kind::Follows,
        Kind::Notifications,
        Kind::Series,
        Kind::Availability,
        Kind::Chat,
        Kind::Chats,
    ];

    pub fn prefix(self) -> &'static str {
        match self {
            Kind::Event => "event",
            Kind::Game => "game",
            Kind::Season => "season",
            Kind::Team => "team",
            Kind::Roster => "roster",
            Kind::Feed => "feed",
            Kind::Matches => "matches",
            Kind::Spots => "spots",
            Kind::Follows => "follows",
            Kind::Notifications => "notifications",
            Kind::Series => "series",
            Kind::Availability => "availability",
            Kind::Chat => "chat",
            Kind::Chats => "chats",
        }
    }

    /// A person's own topic, named without an id by its owner (`feed`,
    /// `matches`, `notifications`) and `kind:<userId>` on the bus.
    pub fn is_own(self) -> bool {
        matches!(self, Kind::Feed | Kind::Matches | Kind::Notifications | Kind::Chats)
    }
}

/// A parsed topic. `feed` is the viewer's own feed: on the bus it is
/// `feed:<userId>`, so publications reach only the owner's connections.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Topic {
    pub kind: Kind,
    pub id: String,
}

/// Longest id we accept in a topic name.
const MAX_ID_LEN: usize = 64;

impl Topic {
    pub fn event(id: impl Into<String>) -> Topic {
        Topic { kind: Kind::Event, id: id.into() }
    }

    pub fn game(id: impl Into<String>) -> Topic {
        Topic { kind: Kind::Game, id: id.into() }
    }

    pub fn season(id: impl Into<String>) -> Topic {
        Topic { kind: Kind::Season, id: id.into() }
    }

    pub fn team(id: impl Into<String>) -> Topic {
        Topic { kind: Kind::Team, id: id.into() }
    }

    pub fn roster(id: impl Into<String>) -> Topic {
        Topic { kind: Kind::Roster, id: id.into() }
    }

    /// A person's own feed (`feed` to its owner, `feed:<userId>` on the bus).
    pub fn feed(user_id: impl Into<String>) -> Topic {
        Topic { kind: Kind::Feed, id: user_id.into() }
    }

    /// A person's own matches (`matches` to its owner).
    pub fn matches(user_id: impl Into<String>) -> Topic {
        Topic { kind: Kind::Matches, id: user_id.into() }
    }

    /// A person's own notifications (`notifications` to its owner).
    pub fn notifications(user_id: impl Into<String>) -> Topic {
        Topic { kind: Kind::Notifications, id: user_id.into() }
    }

    /// A rink's open spots tonight.
    pub fn spots(facility_id: impl Into<String>) -> Topic {
        Topic { kind: Kind::Spots, id: facility_id.into() }
    }

    /// Follower counts of a user, facility or team.
    pub fn follows(id: impl Into<String>) -> Topic {
        Topic { kind: Kind::Follows, id: id.into() }
    }

    /// The weeks of a weekly series.
    pub fn series(id: impl Into<String>) -> Topic {
        Topic { kind: Kind::Series, id: id.into() }
    }

    /// A roster's availability board.
    pub fn availability(roster_id: impl Into<String>) -> Topic {
        Topic { kind: Kind::Availability, id: roster_id.into() }
    }

    /// One conversation's messages.
    pub fn chat(conversation_id: impl Into<String>) -> Topic {
        Topic { kind: Kind::Chat, id: conversation_id.into() }
    }

    /// A person's own unread counts (`chats` to its owner).
    pub fn chats(user_id: impl Into<String>) -> Topic {
        Topic { kind: Kind::Chats, id: user_id.into() }
    }

    /// Parses a client's topic; `feed`, `matches` and `notifications` need
    /// the signed-in viewer.
    pub fn parse(raw: &str, viewer: Option<&str>) -> Result<Topic, AppError> {
        let bad = || {
            AppError::field(
                "topic",
                "unknown topic; use event:ID, game:ID, season:ID, team:ID, roster:ID, spots:ID, follows:ID, series:ID, availability:ID, chat:ID, feed, matches, notifications or chats",
            )
        };
        if let Some(kind) = Kind::ALL.into_iter().filter(|k| k.is_own()).find(|k| k.prefix() == raw) {
            let id = viewer.ok_or_else(|| AppError::unauthorized(format!("sign in to follow your {raw}")))?;
            return Ok(Topic { kind, id: id.to_string() });
        }
        let (prefix, id) = raw.split_once(':').ok_or_else(bad)?;
        let kind = match prefix {
            "event" => Kind::Event,
            "game" => Kind::Game,
            "season" => Kind::Season,
            "team" => Kind::Team,
            "roster" => Kind::Roster,
            "spots" => Kind::Spots,
            "follows" => Kind::Follows,
            "series" => Kind::Series,
            "availability" => Kind::Availability,
            "chat" => Kind::Chat,
            _ => return Err(bad()),
        };
        let id_ok =
            !id.is_empty() && id.len() <= MAX_ID_LEN && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
        if !id_ok {
            return Err(bad());
        }
        Ok(Topic { kind, id: id.to_string() })
    }

    /// The name on the bus and in the hub.
    pub fn bus_name(&self) -> String {
        self.to_string()
    }

    /// The name the client used (what frames carry back to it).
    pub fn client_name(&self) -> String {
        if self.kind.is_own() { self.kind.prefix().into() } else { self.bus_name() }
    }

    /// Parses a bus name back (for resync after a reconnect).
    pub fn from_bus_name(name: &str) -> Option<Topic> {
        let (prefix, id) = name.split_once(':')?;
        let kind = Kind::ALL.into_iter().find(|k| k.prefix() == prefix)?;
        Some(Topic { kind, id: id.to_string() })
    }
}

impl std::fmt::Display for Topic {
    /// The bus name: `kind:id`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.kind.prefix(), self.id)
    }
}

/// How one kind of topic is authorised and snapshotted.
pub trait TopicSource: Send + Sync {
    /// May `viewer` (None = signed out) subscribe to the thing with this id?
    /// Not-found and forbidden both answer errors the client sees.
    fn authorize<'a>(&'a self, viewer: Option<&'a str>, id: &'a str) -> BoxFuture<'a, Result<(), AppError>>;

    /// The current state and its seq (from the live actor, else the database).
    fn snapshot<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<(i64, serde_json::Value), AppError>>;

    /// Whether a subscription must end when the viewer's token expires.
    fn is_private(&self) -> bool {
        false
    }
}

/// Kind → source.
#[derive(Default, Clone)]
pub struct TopicSources(HashMap<Kind, Arc<dyn TopicSource>>);

impl TopicSources {
    pub fn register(&mut self, kind: Kind, source: Arc<dyn TopicSource>) {
        self.0.insert(kind, source);
    }

    pub fn get(&self, kind: Kind) -> Result<&Arc<dyn TopicSource>, AppError> {
        self.0.get(&kind).ok_or_else(|| AppError::field("topic", "this kind of topic is not available"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topics_parse_and_map_feed_to_its_owner() {
        let t = Topic::parse("game:0190-abc", None).unwrap();
        assert_eq!(t.bus_name(), "game:0190-abc");
        let f = Topic::parse("feed", Some("u1")).unwrap();
        assert_eq!((f.bus_name().as_str(), f.client_name().as_str()), ("feed:u1", "feed"));
        assert!(Topic::parse("feed", None).is_err());
        assert!(Topic::parse("nope:1", None).is_err());
        assert!(Topic::parse("game:", None).is_err());
        assert!(Topic::parse("game:a b", None).is_err());
        assert_eq!(Topic::from_bus_name("feed:u1"), Some(f));
    }
}

#[cfg(test)]
mod fuzz {
    use super::*;
    use crate::fuzzing::{self, text};
    use proptest::prelude::*;

    /// Topic-shaped strings: a known or near-miss prefix, a separator, an id.
    fn topic_like() -> impl Strategy<Value = String> {
        let prefix = prop::sample::select(
            &[
                "event",
                "game",
                "season",
                "team",
                "roster",
                "feed",
                "matches",
                "spots",
                "follows",
                "series",
                "availability",
                "chat",
                "chats",
                "notifications",
                "Game",
                "",
                "event:x",
            ][..],
        );
        let id = prop_oneof!["[A-Za-z0-9-]{0,70}", text()];
        (prefix, prop::sample::select(&[":", "", "::", " :"][..]), id).prop_map(|(p, sep, id)| format!("{p}{sep}{id}"))
    }

    proptest! {
        #![proptest_config(fuzzing::config(2_000))]

        /// Any name a client subscribes to parses or is refused with an
        /// error value; a parsed topic's names parse back to it, and its id
        /// is short and plain (it goes into bus channel names and frames).
        #[test]
        fn any_topic_name_parses_back_or_is_refused(raw in prop_oneof![topic_like(), text()], signed_in in any::<bool>()) {
            let viewer = signed_in.then_some("u1");
            match Topic::parse(&raw, viewer) {
                Ok(topic) => {
                    prop_assert_eq!(Topic::from_bus_name(&topic.bus_name()), Some(topic.clone()));
                    prop_assert_eq!(Topic::parse(&topic.client_name(), viewer).ok(), Some(topic.clone()));
                    if !topic.kind.is_own() {
                        prop_assert!(topic.id.len() <= MAX_ID_LEN);
                        prop_assert!(topic.id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'));
                    }
                }
                Err(e) => prop_assert!(matches!(e.code(), "validation_failed" | "unauthorized"), "{}", e.code()),
            }
            let _ = Topic::from_bus_name(&raw);
        }
    }
}
