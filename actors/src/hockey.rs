//! Hockey vocabulary shared by events and games: positions and the role a
//! position counts against.
//!
//! Enums here are the seed's UPPER_CASE values on the wire and in the
//! database; `as_str` / `parse` are the only conversions, so a typo in a
//! stored value is an error rather than a silent default.

use serde::{Deserialize, Serialize};

/// A stored or received text that is not one of an enum's values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {kind} value `{value}`")]
pub struct UnknownValue {
    /// Which enum was being parsed, for the error message.
    pub kind: &'static str,
    pub value: String,
}

/// Implements `as_str`, `parse`, `FromStr` and `Display` for a fieldless
/// enum from one table, so the wire names are written exactly once.
macro_rules! text_enum {
    ($ty:ident, $kind:literal, { $($variant:ident => $text:literal),+ $(,)? }) => {
        impl $ty {
            /// Every value, in declaration order.
            pub const ALL: &'static [$ty] = &[$($ty::$variant),+];

            /// The wire / database spelling.
            pub fn as_str(self) -> &'static str {
                match self { $($ty::$variant => $text),+ }
            }

            /// Parses the wire / database spelling (exact, case-sensitive).
            pub fn parse(text: &str) -> Result<Self, $crate::hockey::UnknownValue> {
                match text {
                    $($text => Ok($ty::$variant),)+
                    other => Err($crate::hockey::UnknownValue { kind: $kind, value: other.to_owned() }),
                }
            }
        }

        impl ::std::str::FromStr for $ty {
            type Err = $crate::hockey::UnknownValue;
            fn from_str(text: &str) -> Result<Self, Self::Err> {
                Self::parse(text)
            }
        }

        impl ::std::fmt::Display for $ty {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}
pub(crate) use text_enum;

/// The seed's HockeyPosition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = HockeyPosition))]
pub enum Position {
    Center,
    LeftWing,
    RightWing,
    LeftDefense,
    RightDefense,
    Goalie,
}

text_enum!(Position, "HockeyPosition", {
    Center => "CENTER",
    LeftWing => "LEFT_WING",
    RightWing => "RIGHT_WING",
    LeftDefense => "LEFT_DEFENSE",
    RightDefense => "RIGHT_DEFENSE",
    Goalie => "GOALIE",
});

impl Position {
    /// Which limit this position counts against (DESIGN.md: GOALIE counts
    /// against `maxGoalies`, every other position against `maxSkaters`).
    pub fn role(self) -> Role {
        match self {
            Position::Goalie => Role::Goalie,
            _ => Role::Skater,
        }
    }
}

/// The two kinds of place an event hands out, each with its own limit and
/// its own waitlist.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Role {
    Skater,
    Goalie,
}

text_enum!(Role, "Role", {
    Skater => "SKATER",
    Goalie => "GOALIE",
});

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_position_round_trips_through_its_text() {
        for p in Position::ALL {
            assert_eq!(Position::parse(p.as_str()), Ok(*p));
            assert_eq!(serde_json::to_value(p).ok(), Some(serde_json::json!(p.as_str())));
        }
    }

    #[test]
    fn only_the_goalie_position_counts_as_a_goalie() {
        assert_eq!(Position::Goalie.role(), Role::Goalie);
        for p in Position::ALL.iter().filter(|p| **p != Position::Goalie) {
            assert_eq!(p.role(), Role::Skater);
        }
    }

    #[test]
    fn unknown_position_text_is_an_error_not_a_default() {
        assert!(Position::parse("center").is_err());
        assert!(Position::parse("WINGER").is_err());
    }
}
