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

/// Every guarded action, with the ids of what it acts on.
#[derive(Clone, Copy, Debug)]
pub enum Action<'a> {
    CreateFacility,
    EditFacility {
        facility_id: &'a str,
    },
    DeleteFacility {
        facility_id: &'a str,
    },
    AddFacilityManager {
        facility_id: &'a str,
    },
    /// Removing a manager link; a manager may remove their own.
    RemoveFacilityManager {
        facility_id: &'a str,
        user_id: &'a str,
    },
    TransferFacility {
        facility_id: &'a str,
    },
    CreateTeam,
    EditTeam {
        team_id: &'a str,
    },
    DeleteTeam {
        team_id: &'a str,
    },
    AddTeamManager {
        team_id: &'a str,
    },
    RemoveTeamManager {
        team_id: &'a str,
        user_id: &'a str,
    },
    TransferTeam {
        team_id: &'a str,
    },
    /// Follow or unfollow a user, facility or team.
    Follow,
    EditProfile {
        user_id: &'a str,
    },
    CreateSeason {
        facility_id: &'a str,
    },
    EditSeason {
        season_id: &'a str,
    },
    /// Create, edit or delete a season's division mappings.
    ManageDivisionMappings {
        season_id: &'a str,
    },
    CreateRoster {
        team_id: &'a str,
    },
    EditRoster {
        roster_id: &'a str,
    },
    /// Add a player or edit a player's jersey, position, commitment or letters.
    ManagePlayers {
        roster_id: &'a str,
    },
    /// Take a player off the roster; players may take themselves off (leave).
    RemovePlayer {
        roster_id: &'a str,
        user_id: &'a str,
    },
    RequestToJoin {
        roster_id: &'a str,
    },
    /// See a roster's availability board (docs/availability.md).
    ReadAvailability {
        roster_id: &'a str,
    },
    /// Set a roster's availability rules, nudge, answer for any player.
    ManageAvailability {
        roster_id: &'a str,
    },
    /// Read and post in a roster's conversation (docs/chat.md).
    TalkOnRoster {
        roster_id: &'a str,
    },
    /// Delete anyone's message in a roster's conversation.
    ModerateRosterChat {
        roster_id: &'a str,
    },
    /// Read an event's RSVP and waitlist history and its series' whole
    /// record (docs/pickup-night.md): its organisers and the managers of
    /// the teams linked to it.
    ReadEventHistory {
        event_id: &'a str,
    },
    /// Give a player's answer for a game: the player, or the captain's side.
    AnswerAvailability {
        roster_id: &'a str,
        user_id: &'a str,
    },
    /// See a roster's join requests, approve and reject them.
    DecideJoinRequests {
        roster_id: &'a str,
    },
    /// Withdraw a pending request: only its requester.
    CancelJoinRequest {
        requester_id: &'a str,
    },
    /// Read one request (with its message): its requester and its deciders.
    ViewJoinRequest {
        roster_id: &'a str,
        requester_id: &'a str,
    },
    /// Put an event on a season's schedule: the league's business.
    ScheduleSeasonEvent {
        season_id: &'a str,
    },
    /// Edit, cancel or delete an event, change its limits, remove
    /// attendees, link teams, see payments: its organisers.
    OrganiseEvent {
        event_id: &'a str,
    },
    /// List an event at a facility under the rink's name (events made by
    /// anyone else there are community events until its staff list them).
    HostEvent {
        facility_id: &'a str,
    },
    /// Put a team's name on an event as HOME or AWAY (with the event's
    /// organiser), or take it off (either side).
    CommitTeam {
        team_id: &'a str,
    },
    /// Edit or delete a post: its author.
    EditPost {
        author_id: &'a str,
    },
    /// Post, edit or take down a team's status (RECRUITING, LOOKING_FOR_SUBS).
    ManageTeamStatus {
        team_id: &'a str,
    },
    /// Edit or take down a person's own status: that person.
    EditOwnStatus {
        user_id: &'a str,
    },
    /// Mark attendees paid: organisers who turned payment collection on
    /// (a precondition checked by [`check_payment_collector`]).
    CollectPayments {
        event_id: &'a str,
    },
    /// Turn someone's payment collection on or off: the staff of a rink
    /// where they organise (docs/sides-and-bill.md › Who may collect).
    GrantPaymentCollection {
        user_id: &'a str,
    },
    /// Schedule a game between two rosters of a season.
    ScheduleGame {
        season_id: &'a str,
        roster_ids: [&'a str; 2],
    },
    /// Reschedule, postpone or cancel a game; assign score keepers.
    ManageGame {
        game_id: &'a str,
    },
    /// Scoring actions.
    ScoreGame {
        game_id: &'a str,
    },
    /// The players who dress for one side: that side's team staff, the
    /// rink's staff and the game's score keepers — not the other side's.
    SetLineup {
        game_id: &'a str,
        roster_id: &'a str,
    },
}

use Relation::*;

impl Action<'_> {
    /// The rule: the relations that grant this action. Keep
    /// docs/permissions.md in step (its table is what the tests check).
    pub fn granted_to(&self) -> &'static [Relation] {
        match self {
            Action::CreateFacility | Action::CreateTeam | Action::Follow | Action::RequestToJoin { .. } => &[SignedIn],
            Action::EditFacility { .. } | Action::CreateSeason { .. } | Action::EditSeason { .. } => {
                &[FacilityOwner, FacilityManager]
            }
            Action::ManageDivisionMappings { .. } => &[FacilityOwner, FacilityManager],
            Action::DeleteFacility { .. } | Action::AddFacilityManager { .. } | Action::TransferFacility { .. } => {
                &[FacilityOwner]
            }
            Action::RemoveFacilityManager { .. } => &[FacilityOwner, Myself],
            // A team belongs to itself: basing it at a facility does not
            // hand it to the facility's staff.
            Action::EditTeam { .. } | Action::CreateRoster { .. } | Action::ManagePlayers { .. } => {
                &[TeamOwner, TeamManager]
            }
            Action::DeleteTeam { .. } | Action::AddTeamManager { .. } | Action::TransferTeam { .. } => &[TeamOwner],
            Action::RemoveTeamManager { .. } => &[TeamOwner, Myself],
            // The season's facility runs the league: it may place a roster
            // in a division, rename it or archive it at season's end.
            Action::EditRoster { .. } => &[TeamOwner, TeamManager, FacilityOwner, FacilityManager],
            Action::RemovePlayer { .. } => &[TeamOwner, TeamManager, Myself],
            Action::DecideJoinRequests { .. }
            | Action::ManageAvailability { .. }
            | Action::ModerateRosterChat { .. } => &[TeamOwner, TeamManager, RosterCaptain],
            Action::ReadAvailability { .. } | Action::TalkOnRoster { .. } => {
                &[TeamOwner, TeamManager, RosterCaptain, RosterMember]
            }
            Action::AnswerAvailability { .. } => &[TeamOwner, TeamManager, RosterCaptain, Myself],
            Action::ViewJoinRequest { .. } => &[TeamOwner, TeamManager, RosterCaptain, Myself],
            Action::EditProfile { .. }
            | Action::CancelJoinRequest { .. }
            | Action::EditPost { .. }
            | Action::EditOwnStatus { .. } => &[Myself],
            Action::ManageTeamStatus { .. } => &[TeamOwner, TeamManager],
            Action::ScheduleSeasonEvent { .. } | Action::HostEvent { .. } | Action::GrantPaymentCollection { .. } => {
                &[FacilityOwner, FacilityManager]
            }
            Action::CommitTeam { .. } => &[TeamOwner, TeamManager],
            Action::OrganiseEvent { .. } | Action::CollectPayments { .. } => {
                &[EventCreator, FacilityOwner, FacilityManager]
            }
            Action::ReadEventHistory { .. } => &[EventCreator, FacilityOwner, FacilityManager, TeamOwner, TeamManager],
            Action::ScheduleGame { .. } | Action::ManageGame { .. } => {
                &[FacilityOwner, FacilityManager, TeamOwner, TeamManager]
            }
            Action::ScoreGame { .. } | Action::SetLineup { .. } => {
                &[Scorekeeper, FacilityOwner, FacilityManager, TeamOwner, TeamManager]
            }
        }
    }

    /// The person the action is about, for [`Relation::Myself`].
    fn subject(&self) -> Option<&str> {
        match *self {
            Action::RemoveFacilityManager { user_id, .. }
            | Action::RemoveTeamManager { user_id, .. }
            | Action::RemovePlayer { user_id, .. }
            | Action::AnswerAvailability { user_id, .. }
            | Action::EditProfile { user_id }
            | Action::EditPost { author_id: user_id }
            | Action::EditOwnStatus { user_id } => Some(user_id),
            Action::CancelJoinRequest { requester_id } | Action::ViewJoinRequest { requester_id, .. } => {
                Some(requester_id)
            }
            _ => None,
        }
    }

    /// What the action acts on, to read the facts about.
    fn object(&self) -> Object<'_> {
        match *self {
            Action::EditFacility { facility_id }
            | Action::DeleteFacility { facility_id }
            | Action::AddFacilityManager { facility_id }
            | Action::RemoveFacilityManager { facility_id, .. }
            | Action::TransferFacility { facility_id }
            | Action::CreateSeason { facility_id }
            | Action::HostEvent { facility_id } => Object::Facility(facility_id),
            Action::EditTeam { team_id }
            | Action::DeleteTeam { team_id }
            | Action::AddTeamManager { team_id }
            | Action::RemoveTeamManager { team_id, .. }
            | Action::TransferTeam { team_id }
            | Action::CreateRoster { team_id }
            | Action::CommitTeam { team_id }
            | Action::ManageTeamStatus { team_id } => Object::Team(team_id),
            Action::EditSeason { season_id }
            | Action::ManageDivisionMappings { season_id }
            | Action::ScheduleSeasonEvent { season_id } => Object::Season(season_id),
            Action::OrganiseEvent { event_id }
            | Action::CollectPayments { event_id }
            | Action::ReadEventHistory { event_id } => Object::Event(event_id),
            Action::GrantPaymentCollection { user_id } => Object::Organiser(user_id),
            Action::ScheduleGame { season_id, roster_ids } => Object::Fixture { season_id, roster_ids },
            Action::ManageGame { game_id } | Action::ScoreGame { game_id } => Object::Game(game_id),
            Action::SetLineup { game_id, roster_id } => Object::GameSide { game_id, roster_id },
            Action::EditRoster { roster_id }
            | Action::ManagePlayers { roster_id }
            | Action::RemovePlayer { roster_id, .. }
            | Action::RequestToJoin { roster_id }
            | Action::DecideJoinRequests { roster_id }
            | Action::ViewJoinRequest { roster_id, .. }
            | Action::ReadAvailability { roster_id }
            | Action::ManageAvailability { roster_id }
            | Action::TalkOnRoster { roster_id }
            | Action::ModerateRosterChat { roster_id }
            | Action::AnswerAvailability { roster_id, .. } => Object::Roster(roster_id),
            Action::CreateFacility
            | Action::CreateTeam
            | Action::Follow
            | Action::EditProfile { .. }
            | Action::EditPost { .. }
            | Action::EditOwnStatus { .. }
            | Action::CancelJoinRequest { .. } => Object::Nothing,
        }
    }

    /// "only the team's owner and the team's managers may do that".
    fn refusal(&self) -> String {
        let who: Vec<&str> = self.granted_to().iter().map(|r| r.phrase()).collect();
        let who = match who.as_slice() {
            [] => "nobody".to_string(),
            [one] => (*one).to_string(),
            [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
        };
        format!("only {who} may do that")
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
