//! The actions a user may be allowed, and the rule for each: which
//! relations grant it ([`Action::granted_to`], a pure table kept in step
//! with docs/permissions.md).

use super::{Object, Relation};

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
    pub(super) fn subject(&self) -> Option<&str> {
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
    pub(super) fn object(&self) -> Object<'_> {
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
    pub(super) fn refusal(&self) -> String {
        let who: Vec<&str> = self.granted_to().iter().map(|r| r.phrase()).collect();
        let who = match who.as_slice() {
            [] => "nobody".to_string(),
            [one] => (*one).to_string(),
            [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
        };
        format!("only {who} may do that")
    }
}
