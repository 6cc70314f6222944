//! The sub market's decisions, pure: which statuses pair up, when positions
//! overlap and levels are close, when an event has open spots for a
//! person, when an event's call for subs is answered, and what a status may
//! be posted as. No I/O; the database layer prefilters and these decide
//! (docs/statuses.md).

use crate::domain::{EntityType, HockeyPosition, StatusType};
use rinkside_actors::OpenPlaces;

/// How far ahead an event's open places count as open spots.
pub const SPOT_HORIZON_MS: i64 = 7 * 24 * 60 * 60 * 1000;
/// The furthest expiry of LOOKING_FOR_TEAM and RECRUITING.
pub const LONG_MAX_MS: i64 = 90 * 24 * 60 * 60 * 1000;
/// Their expiry when none is given.
pub const LONG_DEFAULT_MS: i64 = 30 * 24 * 60 * 60 * 1000;
/// The furthest expiry of AVAILABLE_TO_SUB and LOOKING_FOR_SUBS: being
/// available is about tonight or this week, not the season.
pub const SHORT_MAX_MS: i64 = 14 * 24 * 60 * 60 * 1000;

/// What one side of a match is: the facts the rules read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Side {
    pub kind: StatusType,
    /// Empty means any position.
    pub positions: Vec<HockeyPosition>,
    /// 1–8 on the universal scale; `None` when unknown.
    pub level: Option<i64>,
    /// When it stops being active (epoch ms, exclusive).
    pub expires_at: i64,
    /// Puck drop of the event a call for subs is tied to.
    pub event_start: Option<i64>,
}

/// Whether a status of type `mine` looks for statuses of type `theirs`.
pub fn pairs(mine: StatusType, theirs: StatusType) -> bool {
    use StatusType::*;
    matches!(
        (mine, theirs),
        (AvailableToSub, LookingForSubs)
            | (LookingForSubs, AvailableToSub)
            | (LookingForTeam, Recruiting)
            | (Recruiting, LookingForTeam)
    )
}

/// The type a status of type `mine` is matched with.
pub fn counterpart(mine: StatusType) -> StatusType {
    use StatusType::*;
    match mine {
        AvailableToSub => LookingForSubs,
        LookingForSubs => AvailableToSub,
        LookingForTeam => Recruiting,
        Recruiting => LookingForTeam,
    }
}

/// Positions overlap; an empty list is any position.
pub fn positions_overlap(a: &[HockeyPosition], b: &[HockeyPosition]) -> bool {
    a.is_empty() || b.is_empty() || a.iter().any(|p| b.contains(p))
}

/// Levels within one step of each other; an unknown level is close to any.
pub fn levels_close(a: Option<i64>, b: Option<i64>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => (a - b).abs() <= 1,
        _ => true,
    }
}

/// Whether a status is active at `at`.
pub fn active_at(side: &Side, at: i64) -> bool {
    at < side.expires_at
}

/// Two active statuses match: their types pair up, positions overlap,
/// levels are close, and the sub is still available at the puck drop of a
/// call tied to an event (otherwise both being active now is enough).
pub fn statuses_match(mine: &Side, theirs: &Side, now: i64) -> bool {
    if !pairs(mine.kind, theirs.kind) || !active_at(mine, now) || !active_at(theirs, now) {
        return false;
    }
    if !positions_overlap(&mine.positions, &theirs.positions) || !levels_close(mine.level, theirs.level) {
        return false;
    }
    let (sub, call) = if mine.kind == StatusType::AvailableToSub { (mine, theirs) } else { (theirs, mine) };
    match call.event_start {
        Some(start) if sub.kind == StatusType::AvailableToSub => start > now && sub.expires_at >= start,
        _ => true,
    }
}

/// The roles a list of positions offers: (skater, goalie); empty is both.
pub fn roles(positions: &[HockeyPosition]) -> (bool, bool) {
    if positions.is_empty() {
        return (true, true);
    }
    let goalie = positions.contains(&HockeyPosition::Goalie);
    (positions.iter().any(|p| *p != HockeyPosition::Goalie), goalie)
}

fn has_room(open: Option<i64>) -> bool {
    open.is_none_or(|n| n > 0)
}

fn is_short(open: Option<i64>) -> bool {
    open.is_some_and(|n| n > 0)
}

/// An event's open spots as a sub sees them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spot {
    pub start: i64,
    pub open: OpenPlaces,
    pub level: Option<i64>,
}

/// Whether the event has an open spot at all: starts within the horizon
/// and is short of someone with a limit (an unlimited role is never
/// "short"; a cancelled event has no places).
pub fn is_open_spot(spot: &Spot, now: i64) -> bool {
    spot.start > now
        && spot.start <= now + SPOT_HORIZON_MS
        && (is_short(spot.open.skaters) || is_short(spot.open.goalies))
}

/// A sub's status matches an open spot: the event is an open spot, short
/// in a role the sub plays, close in level, and the sub is still available
/// at puck drop.
pub fn spot_matches(sub: &Side, spot: &Spot, now: i64) -> bool {
    if sub.kind != StatusType::AvailableToSub || !active_at(sub, now) || !is_open_spot(spot, now) {
        return false;
    }
    let (skater, goalie) = roles(&sub.positions);
    let short_for_me = (skater && is_short(spot.open.skaters)) || (goalie && is_short(spot.open.goalies));
    short_for_me && levels_close(sub.level, spot.level) && sub.expires_at >= spot.start
}

/// Whether an event's call for `asked` positions is answered: every role
/// it asks for has a limit and no place left.
pub fn call_answered(asked: &[HockeyPosition], open: OpenPlaces) -> bool {
    let (skater, goalie) = roles(asked);
    let room_left = (skater && has_room(open.skaters)) || (goalie && has_room(open.goalies));
    !room_left
}

pub const SKATERS: [HockeyPosition; 5] = [
    HockeyPosition::Center,
    HockeyPosition::LeftWing,
    HockeyPosition::RightWing,
    HockeyPosition::LeftDefense,
    HockeyPosition::RightDefense,
];

/// The positions an event's call for subs asks for by default: the
/// shortfall. `None` when the event is short of nobody.
pub fn shortfall(open: OpenPlaces) -> Option<Vec<HockeyPosition>> {
    match (is_short(open.skaters), is_short(open.goalies)) {
        (true, true) => Some(Vec::new()),
        (true, false) => Some(SKATERS.to_vec()),
        (false, true) => Some(vec![HockeyPosition::Goalie]),
        (false, false) => None,
    }
}

/// The position a sub takes a spot in: GOALIE when they only offer that,
/// or when the goalies are short and they offer it (unless they prefer a
/// skater position and skaters are short too); else their preferred skater
/// position, the first skater position they offer, or CENTER.
pub fn position_for_spot(
    offered: &[HockeyPosition],
    preferred: Option<HockeyPosition>,
    open: OpenPlaces,
) -> HockeyPosition {
    let (skater, goalie) = roles(offered);
    let skater_first = skater && is_short(open.skaters) && preferred.is_some_and(|p| p != HockeyPosition::Goalie);
    if goalie && (!skater || (is_short(open.goalies) && !skater_first)) {
        return HockeyPosition::Goalie;
    }
    let offers = |p: &HockeyPosition| offered.is_empty() || offered.contains(p);
    preferred
        .filter(|p| *p != HockeyPosition::Goalie && offers(p))
        .or_else(|| SKATERS.iter().copied().find(offers))
        .unwrap_or(HockeyPosition::Center)
}

/// Which types a kind of poster may post.
pub fn may_post(kind: StatusType, entity: EntityType, for_event: bool) -> Result<(), &'static str> {
    use StatusType::*;
    match (entity, kind, for_event) {
        (EntityType::User, LookingForTeam | AvailableToSub, false) => Ok(()),
        (EntityType::User, LookingForSubs, true) => Ok(()),
        (EntityType::Team, Recruiting | LookingForSubs, false) => Ok(()),
        (EntityType::Team, LookingForSubs, true) => Ok(()),
        (_, _, true) => Err("only LOOKING_FOR_SUBS is posted for an event"),
        (EntityType::User, _, false) => {
            Err("a person posts LOOKING_FOR_TEAM or AVAILABLE_TO_SUB; RECRUITING and LOOKING_FOR_SUBS are a team's")
        }
        (EntityType::Team, _, false) => {
            Err("a team posts RECRUITING or LOOKING_FOR_SUBS; LOOKING_FOR_TEAM and AVAILABLE_TO_SUB are a person's")
        }
    }
}

/// Whether a type always expires soon (tonight, this week).
pub fn is_short_lived(kind: StatusType) -> bool {
    matches!(kind, StatusType::AvailableToSub | StatusType::LookingForSubs)
}

/// The latest expiry a status posted at `now` may have.
pub fn latest_expiry(kind: StatusType, now: i64, event_start: Option<i64>) -> i64 {
    match event_start {
        Some(start) => start,
        None if is_short_lived(kind) => now + SHORT_MAX_MS,
        None => now + LONG_MAX_MS,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use HockeyPosition::*;
    use StatusType::*;

    const NOW: i64 = 1_000_000_000;
    const HOUR: i64 = 3_600_000;

    fn side(kind: StatusType, positions: &[HockeyPosition], level: Option<i64>) -> Side {
        Side { kind, positions: positions.to_vec(), level, expires_at: NOW + 5 * HOUR, event_start: None }
    }

    #[test]
    fn a_goalie_sub_matches_a_team_short_of_a_goalie_at_its_level() {
        let sub = side(AvailableToSub, &[Goalie], Some(5));
        let call = side(LookingForSubs, &[Goalie], Some(4));
        assert!(statuses_match(&sub, &call, NOW));
        assert!(statuses_match(&call, &sub, NOW));
        assert!(!statuses_match(&sub, &side(LookingForSubs, &[Center], Some(5)), NOW));
        assert!(!statuses_match(&sub, &side(LookingForSubs, &[Goalie], Some(7)), NOW));
        assert!(!statuses_match(&sub, &side(Recruiting, &[Goalie], Some(5)), NOW));
    }

    #[test]
    fn a_call_for_a_game_needs_the_sub_still_available_at_puck_drop() {
        let sub = side(AvailableToSub, &[], None);
        let mut call = side(LookingForSubs, &[Goalie], None);
        call.event_start = Some(NOW + 6 * HOUR);
        assert!(!statuses_match(&sub, &call, NOW), "the sub's status ends an hour before the game");
        call.event_start = Some(NOW + 4 * HOUR);
        assert!(statuses_match(&sub, &call, NOW));
    }

    #[test]
    fn open_spots_are_the_next_seven_days_short_roles() {
        let goalie = side(AvailableToSub, &[Goalie], Some(4));
        let spot = Spot { start: NOW + 2 * HOUR, open: OpenPlaces { skaters: Some(0), goalies: Some(1) }, level: None };
        assert!(spot_matches(&goalie, &spot, NOW));
        assert!(!spot_matches(&side(AvailableToSub, &[Center], Some(4)), &spot, NOW));
        let unlimited = Spot { open: OpenPlaces { skaters: None, goalies: None }, ..spot.clone() };
        assert!(!spot_matches(&goalie, &unlimited, NOW), "an unlimited event is never short");
        let later = Spot { start: NOW + SPOT_HORIZON_MS + 1, ..spot.clone() };
        assert!(!spot_matches(&goalie, &later, NOW));
        let started = Spot { start: NOW, ..spot };
        assert!(!spot_matches(&goalie, &started, NOW));
    }

    #[test]
    fn a_call_is_answered_when_every_role_it_asks_for_is_full() {
        let goalies_full = OpenPlaces { skaters: Some(3), goalies: Some(0) };
        assert!(call_answered(&[Goalie], goalies_full));
        assert!(!call_answered(&[Goalie, Center], goalies_full));
        assert!(!call_answered(&[], goalies_full));
        assert!(call_answered(&[], OpenPlaces { skaters: Some(0), goalies: Some(0) }));
        assert!(!call_answered(&[Goalie], OpenPlaces { skaters: Some(0), goalies: None }));
    }

    #[test]
    fn the_default_call_asks_for_the_shortfall() {
        assert_eq!(shortfall(OpenPlaces { skaters: Some(0), goalies: Some(1) }), Some(vec![Goalie]));
        assert_eq!(shortfall(OpenPlaces { skaters: Some(2), goalies: Some(1) }), Some(vec![]));
        assert_eq!(shortfall(OpenPlaces { skaters: Some(2), goalies: None }), Some(SKATERS.to_vec()));
        assert_eq!(shortfall(OpenPlaces { skaters: None, goalies: Some(0) }), None);
    }

    #[test]
    fn a_sub_takes_the_goalie_place_when_goalies_are_short_and_they_offer_it() {
        let open = OpenPlaces { skaters: Some(1), goalies: Some(1) };
        assert_eq!(position_for_spot(&[Goalie], None, open), Goalie);
        assert_eq!(position_for_spot(&[], None, open), Goalie);
        assert_eq!(position_for_spot(&[Goalie, LeftWing], Some(LeftWing), open), LeftWing);
        assert_eq!(position_for_spot(&[], Some(RightDefense), OpenPlaces { goalies: Some(0), ..open }), RightDefense);
        assert_eq!(position_for_spot(&[LeftWing], None, open), LeftWing);
    }

    #[test]
    fn people_post_for_themselves_and_teams_for_teams() {
        assert!(may_post(AvailableToSub, EntityType::User, false).is_ok());
        assert!(may_post(Recruiting, EntityType::User, false).is_err());
        assert!(may_post(LookingForTeam, EntityType::Team, false).is_err());
        assert!(may_post(LookingForSubs, EntityType::User, true).is_ok());
        assert!(may_post(AvailableToSub, EntityType::User, true).is_err());
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use proptest::prelude::*;

    const NOW: i64 = 1_000_000_000;

    fn position() -> impl Strategy<Value = HockeyPosition> {
        prop::sample::select(HockeyPosition::ALL)
    }

    fn kind() -> impl Strategy<Value = StatusType> {
        prop::sample::select(StatusType::ALL)
    }

    fn side() -> impl Strategy<Value = Side> {
        (
            kind(),
            prop::collection::vec(position(), 0..4),
            prop::option::of(1i64..=8),
            -10_000i64..10_000_000,
            prop::option::of(-10_000i64..20_000_000),
        )
            .prop_map(|(kind, positions, level, expires, start)| Side {
                kind,
                positions,
                level,
                expires_at: NOW + expires,
                event_start: start.map(|s| NOW + s),
            })
    }

    fn open() -> impl Strategy<Value = OpenPlaces> {
        (prop::option::of(0i64..4), prop::option::of(0i64..3))
            .prop_map(|(skaters, goalies)| OpenPlaces { skaters, goalies })
    }

    proptest! {
        /// Matching does not depend on whose screen it is.
        #[test]
        fn matching_is_symmetric(a in side(), b in side()) {
            prop_assert_eq!(statuses_match(&a, &b, NOW), statuses_match(&b, &a, NOW));
        }

        /// Every match has overlapping positions, close levels, both sides
        /// active, and types that pair up.
        #[test]
        fn a_match_always_satisfies_every_rule(a in side(), b in side()) {
            if statuses_match(&a, &b, NOW) {
                prop_assert!(pairs(a.kind, b.kind));
                prop_assert!(positions_overlap(&a.positions, &b.positions));
                prop_assert!(levels_close(a.level, b.level));
                prop_assert!(active_at(&a, NOW) && active_at(&b, NOW));
            }
        }

        /// Levels two or more steps apart never match; an empty position
        /// list overlaps every list.
        #[test]
        fn far_levels_never_match_and_any_overlaps_all(a in side(), b in side(), list in prop::collection::vec(position(), 0..6)) {
            if let (Some(x), Some(y)) = (a.level, b.level) && (x - y).abs() >= 2 {
                prop_assert!(!statuses_match(&a, &b, NOW));
            }
            prop_assert!(positions_overlap(&[], &list));
            prop_assert!(positions_overlap(&list, &[]));
        }

        /// A spot a sub matches is short in a role they play, within the
        /// horizon, and still theirs at puck drop.
        #[test]
        fn a_matched_spot_is_short_for_the_sub(sub in side(), start in -10_000i64..(SPOT_HORIZON_MS + 10_000), open in open(), level in prop::option::of(1i64..=8)) {
            let spot = Spot { start: NOW + start, open, level };
            if spot_matches(&sub, &spot, NOW) {
                let (skater, goalie) = roles(&sub.positions);
                prop_assert!((skater && open.skaters.is_some_and(|n| n > 0)) || (goalie && open.goalies.is_some_and(|n| n > 0)));
                prop_assert!(spot.start > NOW && spot.start <= NOW + SPOT_HORIZON_MS);
                prop_assert!(sub.expires_at >= spot.start);
                prop_assert!(levels_close(sub.level, level));
            }
        }

        /// The default call for an event is answered exactly when the event
        /// has no place left in the roles it was short of.
        #[test]
        fn the_shortfall_call_is_open_while_short(before in open(), after in open()) {
            if let Some(asked) = shortfall(before) {
                let (skater, goalie) = roles(&asked);
                let still_short = (skater && after.skaters != Some(0)) || (goalie && after.goalies != Some(0));
                prop_assert_eq!(call_answered(&asked, after), !still_short);
            }
        }

        /// The position chosen for a spot is one the sub offers.
        #[test]
        fn a_spot_is_taken_in_an_offered_position(offered in prop::collection::vec(position(), 0..4), preferred in prop::option::of(position()), open in open()) {
            let p = position_for_spot(&offered, preferred, open);
            prop_assert!(offered.is_empty() || offered.contains(&p));
        }
    }
}
