//! The seed's value sets as Rust enums: serialised as their UPPER_CASE
//! names, stored as the same strings (the schema CHECKs them too), and listed
//! in the OpenAPI document.

/// Declares a string enum with `as_str`, `parse` and `ALL`.
macro_rules! string_enum {
    ($(#[$meta:meta])* $name:ident { $($variant:ident => $text:literal),+ $(,)? }) => {
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

string_enum!(HockeyPosition {
    Center => "CENTER", LeftWing => "LEFT_WING", RightWing => "RIGHT_WING",
    LeftDefense => "LEFT_DEFENSE", RightDefense => "RIGHT_DEFENSE", Goalie => "GOALIE",
});

string_enum!(SkillLevel {
    Beginner => "BEGINNER", Intermediate => "INTERMEDIATE", Advanced => "ADVANCED", Professional => "PROFESSIONAL",
});

string_enum!(EventType {
    Game => "GAME", Practice => "PRACTICE", PublicSkating => "PUBLIC_SKATING",
    WatchParty => "WATCH_PARTY", Other => "OTHER", ExternalGame => "EXTERNAL_GAME",
});

string_enum!(TeamRole { Home => "HOME", Away => "AWAY" });

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
    /// Rinkside's universal division scale, lowest to highest, so divisions
    /// of different rinks compare (see README › Universal division scale).
    UniversalDivision {
        LearnToPlay => "LEARN_TO_PLAY", Beginner => "BEGINNER", Novice => "NOVICE",
        Recreational => "RECREATIONAL", Intermediate => "INTERMEDIATE", Advanced => "ADVANCED",
        Competitive => "COMPETITIVE", Elite => "ELITE",
    }
);


#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_round_trips_through_its_text() {
        for p in ProfileType::ALL {
            assert_eq!(ProfileType::parse(p.as_str()), Some(*p));
        }
        assert_eq!(serde_json::to_string(&HockeyPosition::LeftWing).unwrap(), "\"LEFT_WING\"");
        assert_eq!(HockeyPosition::parse("left_wing"), None);
    }
}
