//! Who may do what: the one place that answers "may user U do action A on
//! object O" for every write of facilities, teams, seasons, division
//! mappings, rosters, players, join requests, follows, profiles, events and
//! games.
//! Handlers call [`check`] (or [`relations`] + [`Relations::permits`] to
//! show what the viewer may do); nothing re-implements a rule inline.
//!
//! A decision has two halves:
//! - the **facts**: how the user relates to the object's facility, team and
//!   roster (owner, manager, captain, member, themself), read in one query
//!   (`db::access`);
//! - the **rule**: which relations grant the action ([`Action::granted_to`]),
//!   a pure table. `docs/permissions.md` is the same table written out, and
//!   `tests/api/permissions.rs` drives every cell of it over HTTP.

use crate::db::{self, Db};
use crate::error::{AppError, AppResult};

mod actions;

use Relation::*;
pub use actions::Action;

/// How a user relates to the object of an action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relation {
    /// Anyone with a valid token.
    SignedIn,
    /// The action is about the user themself (their profile, their own
    /// roster place, their own request, their own manager link).
    Myself,
    FacilityOwner,
    FacilityManager,
    TeamOwner,
    TeamManager,
    RosterCaptain,
    /// Plays on the roster.
    RosterMember,
    /// The person who created the event.
    EventCreator,
    /// Assigned score keeper of the game.
    Scorekeeper,
}

impl Relation {
    fn phrase(self) -> &'static str {
        match self {
            Relation::SignedIn => "signed-in people",
            Relation::Myself => "the person themself",
            Relation::FacilityOwner => "the facility's owner",
            Relation::FacilityManager => "the facility's managers",
            Relation::TeamOwner => "the team's owner",
            Relation::TeamManager => "the team's managers",
            Relation::RosterCaptain => "the roster's captains",
            Relation::RosterMember => "the roster's players",
            Relation::EventCreator => "the event's creator",
            Relation::Scorekeeper => "the game's score keepers",
        }
    }
}

/// Something whose facility / team / roster the facts are read for.
#[derive(Clone, Copy, Debug)]
pub enum Object<'a> {
    Nothing,
    Facility(&'a str),
    Team(&'a str),
    Season(&'a str),
    Roster(&'a str),
    Event(&'a str),
    Game(&'a str),
    /// One side of a game: its team relations are those of that side's
    /// roster only.
    GameSide {
        game_id: &'a str,
        roster_id: &'a str,
    },
    /// A person as an organiser: the rinks where they organise.
    Organiser(&'a str),
    /// Two rosters of a season that would play each other.
    Fixture {
        season_id: &'a str,
        roster_ids: [&'a str; 2],
    },
}

/// What the viewer is to one object. Built by [`relations`].
#[derive(Clone, Debug, Default)]
pub struct Relations {
    viewer: Option<String>,
    held: Vec<Relation>,
}

impl Relations {
    /// Whether these relations grant the action (no database access).
    pub fn permits(&self, action: &Action<'_>) -> bool {
        let Some(viewer) = self.viewer.as_deref() else { return false };
        action.granted_to().iter().any(|r| match r {
            Myself => action.subject() == Some(viewer),
            other => self.held.contains(other),
        })
    }

    pub fn has(&self, relation: Relation) -> bool {
        self.held.contains(&relation)
    }

    /// Whether the viewer plays on the roster the relations were read for.
    pub fn is_member(&self) -> bool {
        self.has(RosterMember)
    }
}

/// Reads how the viewer relates to an object. A missing object is 404.
pub async fn relations(db: &Db, viewer: Option<&str>, object: Object<'_>) -> AppResult<Relations> {
    // Events and games read their facts in one query each (a scoring action
    // asks on every tap).
    match object {
        Object::Event(id) => {
            let row = db::access::event_relations(&db.pool, id, viewer.unwrap_or("")).await?;
            return Ok(from_row(viewer, row.ok_or_else(|| AppError::not_found("event"))?));
        }
        Object::Game(id) => {
            let row = db::access::game_relations(&db.pool, id, viewer.unwrap_or("")).await?;
            return Ok(from_row(viewer, row.ok_or_else(|| AppError::not_found("game"))?));
        }
        Object::GameSide { game_id, roster_id } => {
            let row = db::access::game_side_relations(&db.pool, game_id, roster_id, viewer.unwrap_or("")).await?;
            return Ok(from_row(viewer, row.ok_or_else(|| AppError::not_found("game"))?));
        }
        Object::Organiser(id) => {
            let row = db::access::organiser_relations(&db.pool, id, viewer.unwrap_or("")).await?;
            return Ok(from_row(viewer, row.ok_or_else(|| AppError::not_found("user"))?));
        }
        Object::Fixture { season_id, roster_ids } => {
            let row = db::access::fixture_relations(&db.pool, season_id, roster_ids, viewer.unwrap_or("")).await?;
            return Ok(from_row(viewer, row));
        }
        _ => {}
    }
    let (facility, team, roster) = match object {
        Object::Event(_)
        | Object::Game(_)
        | Object::GameSide { .. }
        | Object::Fixture { .. }
        | Object::Organiser(_) => (None, None, None),
        Object::Nothing => (None, None, None),
        Object::Facility(id) => {
            if !db::facilities::exists(&db.pool, id).await? {
                return Err(AppError::not_found("facility"));
            }
            (Some(id.to_string()), None, None)
        }
        Object::Team(id) => {
            if !db::teams::exists(&db.pool, id).await? {
                return Err(AppError::not_found("team"));
            }
            (None, Some(id.to_string()), None)
        }
        Object::Season(id) => {
            let facility =
                db::access::season_facility(&db.pool, id).await?.ok_or_else(|| AppError::not_found("season"))?;
            (Some(facility), None, None)
        }
        Object::Roster(id) => {
            let scope = db::access::roster_scope(&db.pool, id).await?.ok_or_else(|| AppError::not_found("roster"))?;
            (Some(scope.facility_id), Some(scope.team_id), Some(id.to_string()))
        }
    };
    let Some(viewer) = viewer else { return Ok(Relations::default()) };
    if matches!(object, Object::Nothing) {
        return Ok(Relations { viewer: Some(viewer.to_string()), held: vec![SignedIn] });
    }
    let row = db::access::relations(&db.pool, viewer, facility.as_deref(), team.as_deref(), roster.as_deref()).await?;
    Ok(from_row(Some(viewer), row))
}

fn from_row(viewer: Option<&str>, row: db::access::RelationRow) -> Relations {
    let Some(viewer) = viewer else { return Relations::default() };
    let mut held = vec![SignedIn];
    for (count, relation) in [
        (row.facility_owner, FacilityOwner),
        (row.facility_manager, FacilityManager),
        (row.team_owner, TeamOwner),
        (row.team_manager, TeamManager),
        (row.roster_captain, RosterCaptain),
        (row.roster_member, RosterMember),
        (row.event_creator, EventCreator),
        (row.scorekeeper, Scorekeeper),
    ] {
        if count > 0 {
            held.push(relation);
        }
    }
    Relations { viewer: Some(viewer.to_string()), held }
}

/// The precondition of [`Action::CollectPayments`] besides the rule: the
/// organiser may collect payments (granted by a rink's staff,
/// [`Action::GrantPaymentCollection`]).
pub async fn check_payment_collector(db: &Db, user_id: &str) -> AppResult<()> {
    let collects = db::users::get(&db.pool, user_id).await?.is_some_and(|u| u.can_collect_event_payments != 0);
    if collects {
        Ok(())
    } else {
        Err(AppError::forbidden("payment collection is off: the staff of a rink where you organise can turn it on"))
    }
}

/// Allows the action or answers 401 (signed out), 404 (no such object) or
/// 403 (signed in, not allowed).
pub async fn check(db: &Db, viewer: Option<&str>, action: Action<'_>) -> AppResult<()> {
    if viewer.is_none() {
        return Err(AppError::unauthorized("sign in to do that"));
    }
    if allows(db, viewer, &action).await? { Ok(()) } else { Err(AppError::forbidden(action.refusal())) }
}

/// Whether the viewer may: for what a page shows, or a path that only
/// widens for those who may (404 when there is no such object).
pub async fn allows(db: &Db, viewer: Option<&str>, action: &Action<'_>) -> AppResult<bool> {
    Ok(relations(db, viewer, action.object()).await?.permits(action))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rel(viewer: &str, held: &[Relation]) -> Relations {
        Relations { viewer: Some(viewer.into()), held: held.to_vec() }
    }

    #[test]
    fn owners_and_managers_split_as_the_table_says() {
        let manager = rel("m", &[SignedIn, FacilityManager]);
        assert!(manager.permits(&Action::EditFacility { facility_id: "f" }));
        assert!(!manager.permits(&Action::DeleteFacility { facility_id: "f" }));
        assert!(!manager.permits(&Action::TransferFacility { facility_id: "f" }));
        assert!(!manager.permits(&Action::RemoveFacilityManager { facility_id: "f", user_id: "other" }));
        assert!(manager.permits(&Action::RemoveFacilityManager { facility_id: "f", user_id: "m" }));
    }

    #[test]
    fn captains_decide_requests_but_do_not_manage_players() {
        let captain = rel("c", &[SignedIn, RosterCaptain]);
        assert!(captain.permits(&Action::DecideJoinRequests { roster_id: "r" }));
        assert!(!captain.permits(&Action::ManagePlayers { roster_id: "r" }));
        assert!(captain.permits(&Action::RemovePlayer { roster_id: "r", user_id: "c" }));
        assert!(!captain.permits(&Action::RemovePlayer { roster_id: "r", user_id: "x" }));
    }

    #[test]
    fn nobody_signed_out_may_do_anything() {
        let anonymous = Relations::default();
        assert!(!anonymous.permits(&Action::Follow));
        assert!(!anonymous.permits(&Action::CreateTeam));
    }

    #[test]
    fn score_keepers_score_but_do_not_manage_the_game() {
        let keeper = rel("k", &[SignedIn, Scorekeeper]);
        assert!(keeper.permits(&Action::ScoreGame { game_id: "g" }));
        assert!(!keeper.permits(&Action::ManageGame { game_id: "g" }));
        let team_manager = rel("t", &[SignedIn, TeamManager]);
        assert!(team_manager.permits(&Action::ScoreGame { game_id: "g" }));
        assert!(team_manager.permits(&Action::ManageGame { game_id: "g" }));
    }

    #[test]
    fn an_event_is_organised_by_its_creator_and_its_rink_not_by_teams() {
        let creator = rel("c", &[SignedIn, EventCreator]);
        assert!(creator.permits(&Action::OrganiseEvent { event_id: "e" }));
        let rink = rel("m", &[SignedIn, FacilityManager]);
        assert!(rink.permits(&Action::OrganiseEvent { event_id: "e" }));
        assert!(rink.permits(&Action::ScheduleSeasonEvent { season_id: "s" }));
        let team_owner = rel("o", &[SignedIn, TeamOwner]);
        assert!(!team_owner.permits(&Action::OrganiseEvent { event_id: "e" }));
    }

    #[test]
    fn refusals_name_who_may() {
        assert_eq!(
            Action::DecideJoinRequests { roster_id: "r" }.refusal(),
            "only the team's owner, the team's managers and the roster's captains may do that"
        );
    }
}
