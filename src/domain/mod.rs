//! The seed's value sets as Rust enums: serialised and deserialised as their
//! UPPER_CASE names (requests parse them with serde, never by hand), stored
//! as the same strings (the schema CHECKs them too), and listed in the
//! OpenAPI document. Text people type lives in [`text`].

pub mod attendance;
pub mod codes;
pub mod dates;
pub mod money;
pub mod rsvp_rules;
pub mod series;
pub mod text;
pub mod whole;

/// Declares a string enum with `as_str`, `parse` and `ALL`.
macro_rules! string_enum {
    // `$text` is a `tt`, not a `literal`: a `literal` fragment reaches the
    // derives wrapped in an invisible group, which serde reads but utoipa's
    // attribute parser skips, so the document listed the variants' Rust
    // names (`LeftWing`) while the server spoke `LEFT_WING`.
    ($(#[$meta:meta])* $name:ident { $($variant:ident => $text:tt),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
                 serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
        pub enum $name {
            $(#[serde(rename = $text)] $variant),+
        }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }

            pub fn parse(s: &str) -> Option<Self> {
                match s { $($text => Some($name::$variant),)+ _ => None }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

string_enum!(ProfileType {
    Player => "PLAYER", Coach => "COACH", Referee => "REFEREE",
    ScoreKeeper => "SCORE_KEEPER", FacilityManager => "FACILITY_MANAGER", Fan => "FAN",
});

/// The seed's HockeyPosition: one enum, the live aggregates' (its wire and
/// stored spelling, `parse` refusing anything else).
pub use rinkside_actors::Position as HockeyPosition;

string_enum!(SkillLevel {
    Beginner => "BEGINNER", Intermediate => "INTERMEDIATE", Advanced => "ADVANCED", Professional => "PROFESSIONAL",
});

string_enum!(EventType {
    Game => "GAME", Practice => "PRACTICE", PublicSkating => "PUBLIC_SKATING",
    WatchParty => "WATCH_PARTY", Other => "OTHER", ExternalGame => "EXTERNAL_GAME",
});

string_enum!(TeamRole { Home => "HOME", Away => "AWAY" });

string_enum!(
    /// How often a series of events repeats (docs/series.md).
    Frequency { Weekly => "WEEKLY" }
);

string_enum!(
    /// What a schedule item is: an event (skates, practices, imported
    /// games…) or a league game between two rosters.
    ScheduleKind { Event => "EVENT", Game => "GAME" }
);

string_enum!(
    /// The person's standing on a schedule item (docs/schedule.md): their
    /// RSVP, or their availability for a league game (in = ATTENDING, out =
    /// DECLINED), or none yet.
    ScheduleState {
        Attending => "ATTENDING", Waitlisted => "WAITLISTED", Declined => "DECLINED",
        NotAnswered => "NOT_ANSWERED",
    }
);

string_enum!(RosterStatus { Draft => "DRAFT", Active => "ACTIVE", Archived => "ARCHIVED" });

string_enum!(RosterCommitment { FullTime => "FULL_TIME", Substitute => "SUBSTITUTE" });

string_enum!(RequestStatus { Pending => "PENDING", Approved => "APPROVED", Rejected => "REJECTED" });

string_enum!(StatusType {
    LookingForTeam => "LOOKING_FOR_TEAM", AvailableToSub => "AVAILABLE_TO_SUB",
    Recruiting => "RECRUITING", LookingForSubs => "LOOKING_FOR_SUBS",
});

string_enum!(EntityType { User => "USER", Team => "TEAM" });

string_enum!(FeedItemType {
    EventCreated => "EVENT_CREATED", EventUpdated => "EVENT_UPDATED", WelcomeMessage => "WELCOME_MESSAGE",
    FirstFollowEncouragement => "FIRST_FOLLOW_ENCOURAGEMENT", UserJoinedTeam => "USER_JOINED_TEAM",
    TeamRosterUpdated => "TEAM_ROSTER_UPDATED", SeasonStarted => "SEASON_STARTED",
    ExternalGameImported => "EXTERNAL_GAME_IMPORTED", PostCreated => "POST_CREATED",
});

string_enum!(
    /// What happened to a person that they are told about (docs/notifications.md).
    NotificationType {
        WaitlistPromoted => "WAITLIST_PROMOTED", RemovedFromEvent => "REMOVED_FROM_EVENT",
        EventCancelled => "EVENT_CANCELLED", EventMoved => "EVENT_MOVED",
        JoinRequestApproved => "JOIN_REQUEST_APPROVED", JoinRequestRejected => "JOIN_REQUEST_REJECTED",
        AddedToRoster => "ADDED_TO_ROSTER", GameStarted => "GAME_STARTED", GameFinal => "GAME_FINAL",
        EventReminder => "EVENT_REMINDER", SubMatch => "SUB_MATCH", SidesSet => "SIDES_SET",
        ShortHanded => "SHORT_HANDED", AvailabilityNudge => "AVAILABILITY_NUDGE",
        AvailabilityReminder => "AVAILABILITY_REMINDER", ChatMessage => "CHAT_MESSAGE",
    }
);

string_enum!(
    /// Rinkside's universal division scale, lowest to highest, so divisions
    /// of different rinks compare (see docs/divisions.md).
    UniversalDivision {
        LearnToPlay => "LEARN_TO_PLAY", Beginner => "BEGINNER", Novice => "NOVICE",
        Recreational => "RECREATIONAL", Intermediate => "INTERMEDIATE", Advanced => "ADVANCED",
        Competitive => "COMPETITIVE", Elite => "ELITE",
    }
);

impl SkillLevel {
    /// Where a self-rated skill level sits on the universal scale, for a
    /// person without a division (docs/statuses.md › Levels).
    pub fn on_scale(self) -> UniversalDivision {
        match self {
            SkillLevel::Beginner => UniversalDivision::Beginner,
            SkillLevel::Intermediate => UniversalDivision::Intermediate,
            SkillLevel::Advanced => UniversalDivision::Advanced,
            SkillLevel::Professional => UniversalDivision::Elite,
        }
    }
}

impl UniversalDivision {
    /// 1 (LEARN_TO_PLAY) to 8 (ELITE): the position on the scale.
    pub fn level(self) -> i64 {
        match self {
            Self::LearnToPlay => 1,
            Self::Beginner => 2,
            Self::Novice => 3,
            Self::Recreational => 4,
            Self::Intermediate => 5,
            Self::Advanced => 6,
            Self::Competitive => 7,
            Self::Elite => 8,
        }
    }

    /// The name people read.
    pub fn label(self) -> &'static str {
        match self {
            Self::LearnToPlay => "Learn to Play",
            Self::Beginner => "Beginner",
            Self::Novice => "Novice",
            Self::Recreational => "Recreational",
            Self::Intermediate => "Intermediate",
            Self::Advanced => "Advanced",
            Self::Competitive => "Competitive",
            Self::Elite => "Elite",
        }
    }

    /// One line of what the level means; docs/divisions.md says the same
    /// (a unit test keeps the two in step).
    pub fn meaning(self) -> &'static str {
        match self {
            Self::LearnToPlay => {
                "New to skating or hockey: learning to stop, turn and handle the puck; no body contact, often on a cross-ice surface."
            }
            Self::Beginner => {
                "Can skate and stop both ways; learning positions and passing; games are slow and the rules are applied gently."
            }
            Self::Novice => {
                "Knows the basic rules and positions; skates with some speed but plays are still mostly individual."
            }
            Self::Recreational => {
                "Relaxed adult league hockey: mixed abilities, positional play, fun first, no slapshots or contact."
            }
            Self::Intermediate => {
                "Solid skating and puck skills; plays as a team with set positions and line changes at a steady pace."
            }
            Self::Advanced => {
                "Fast, structured play: breakouts, forechecks and systems; most players have organised or high-school experience."
            }
            Self::Competitive => {
                "Former junior, college or high-level minor players; fast, physical and tactically demanding."
            }
            Self::Elite => {
                "Top amateur level: former pro, semi-pro or NCAA players; the fastest and most skilled hockey a rink offers."
            }
        }
    }
}

// After the enums: it declares its own with `string_enum!`.
pub mod availability;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_round_trips_through_its_text() {
        for p in ProfileType::ALL {
            assert_eq!(ProfileType::parse(p.as_str()), Some(*p));
        }
        assert_eq!(serde_json::to_string(&HockeyPosition::LeftWing).unwrap(), "\"LEFT_WING\"");
        assert!(HockeyPosition::parse("left_wing").is_err());
    }

    /// The `enum` list of a type's OpenAPI schema.
    fn schema_values<T: utoipa::PartialSchema>() -> Vec<String> {
        let schema = serde_json::to_value(T::schema()).unwrap();
        schema["enum"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect()
    }

    fn texts<T: Copy + std::fmt::Display>(all: &[T]) -> Vec<String> {
        all.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn the_openapi_schema_of_every_value_set_lists_the_values_the_server_speaks() {
        assert_eq!(schema_values::<ProfileType>(), texts(ProfileType::ALL));
        assert_eq!(schema_values::<HockeyPosition>(), texts(HockeyPosition::ALL));
        assert_eq!(schema_values::<SkillLevel>(), texts(SkillLevel::ALL));
        assert_eq!(schema_values::<EventType>(), texts(EventType::ALL));
        assert_eq!(schema_values::<TeamRole>(), texts(TeamRole::ALL));
        assert_eq!(schema_values::<Frequency>(), texts(Frequency::ALL));
        assert_eq!(schema_values::<RosterStatus>(), texts(RosterStatus::ALL));
        assert_eq!(schema_values::<RosterCommitment>(), texts(RosterCommitment::ALL));
        assert_eq!(schema_values::<RequestStatus>(), texts(RequestStatus::ALL));
        assert_eq!(schema_values::<StatusType>(), texts(StatusType::ALL));
        assert_eq!(schema_values::<EntityType>(), texts(EntityType::ALL));
        assert_eq!(schema_values::<FeedItemType>(), texts(FeedItemType::ALL));
        assert_eq!(schema_values::<NotificationType>(), texts(NotificationType::ALL));
        assert_eq!(schema_values::<UniversalDivision>(), texts(UniversalDivision::ALL));
        assert!(schema_values::<HockeyPosition>().contains(&"LEFT_WING".to_string()));
    }

    #[test]
    fn the_division_scale_runs_one_to_eight_in_declaration_order() {
        let levels: Vec<i64> = UniversalDivision::ALL.iter().map(|d| d.level()).collect();
        assert_eq!(levels, (1..=8).collect::<Vec<_>>());
        assert!(UniversalDivision::LearnToPlay < UniversalDivision::Elite);
    }

    #[test]
    fn docs_divisions_md_states_every_level_and_its_meaning() {
        let doc = include_str!("../../docs/divisions.md");
        for d in UniversalDivision::ALL {
            assert!(doc.contains(d.as_str()) && doc.contains(d.meaning()), "docs/divisions.md is missing {d}");
        }
    }
}

#[cfg(test)]
mod fuzz {
    use super::*;
    use crate::fuzzing::{self, text};
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(fuzzing::config(1_000))]

        /// The value sets parse exactly their names, by hand and by serde.
        #[test]
        fn any_text_is_a_value_or_refused(raw in prop_oneof![text(), prop::sample::select(vec![
            "CENTER", "GOALIE", "LEFT_WING", "center", "PLAYER", "ELITE", "DRAFT", "FULL_TIME", "USER", "HOME",
        ]).prop_map(String::from)]) {
            let named = |names: Vec<&'static str>| names.contains(&raw.as_str());
            let position = HockeyPosition::parse(&raw).ok();
            prop_assert_eq!(position.map(HockeyPosition::as_str), named(HockeyPosition::ALL.iter().map(|p| p.as_str()).collect()).then_some(raw.as_str()));
            let by_serde = serde_json::from_value::<HockeyPosition>(serde_json::Value::String(raw.clone())).ok();
            prop_assert_eq!(by_serde, position);
            // Every value set parses exactly its names.
            prop_assert_eq!(ProfileType::parse(&raw).map(ProfileType::as_str), named(ProfileType::ALL.iter().map(|v| v.as_str()).collect()).then_some(raw.as_str()));
            prop_assert_eq!(UniversalDivision::parse(&raw).map(UniversalDivision::as_str), named(UniversalDivision::ALL.iter().map(|v| v.as_str()).collect()).then_some(raw.as_str()));
            prop_assert_eq!(RosterStatus::parse(&raw).map(RosterStatus::as_str), named(RosterStatus::ALL.iter().map(|v| v.as_str()).collect()).then_some(raw.as_str()));
            prop_assert_eq!(RosterCommitment::parse(&raw).map(RosterCommitment::as_str), named(RosterCommitment::ALL.iter().map(|v| v.as_str()).collect()).then_some(raw.as_str()));
            prop_assert_eq!(EntityType::parse(&raw).map(EntityType::as_str), named(EntityType::ALL.iter().map(|v| v.as_str()).collect()).then_some(raw.as_str()));
            prop_assert_eq!(TeamRole::parse(&raw).map(TeamRole::as_str), named(TeamRole::ALL.iter().map(|v| v.as_str()).collect()).then_some(raw.as_str()));
        }
    }
}
