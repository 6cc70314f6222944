//! The per-event RSVP aggregate's state: who answered what, and the two
//! ordered lines (attending, waitlist) per role that the rules work on.
//!
//! Every person who ever answered has one [`Rsvp`] row; the lines are
//! indexes over those rows, keyed by `(accepted_seq, user_id)`, kept in step
//! by the only two functions that touch a row (`EventState::insert` and
//! `EventState::update`). That keeps "nobody in two places" a property of
//! the code shape rather than of every caller's care.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::ops::Bound;

use serde::{Deserialize, Serialize};

use crate::hockey::{Position, Role, text_enum};
use crate::store::OpenPlaces;

/// Where a person stands for an event. Stored as text in the RSVP row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum RsvpStatus {
    Attending,
    Waitlisted,
    Declined,
    Removed,
}

text_enum!(RsvpStatus, "RsvpStatus", {
    Attending => "ATTENDING",
    Waitlisted => "WAITLISTED",
    Declined => "DECLINED",
    Removed => "REMOVED",
});

/// One person's current answer for one event (a row the server upserts by
/// `(event_id, user_id)`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Rsvp {
    pub user_id: String,
    /// Carried so the attendees document needs no user lookup.
    pub display_name: String,
    pub position: Position,
    pub status: RsvpStatus,
    /// Order in which the server accepted this person's current ATTENDING
    /// request; attending and waitlist lines are ordered by it. Kept on
    /// promotion (the waitlist is FIFO by request, so the promoted person
    /// ranks where they asked), renewed when a person asks again after
    /// declining, or switches role. 0 for someone who only ever declined.
    pub accepted_seq: i64,
    /// Epoch ms of the person's last answer that gave them their place
    /// (joining, re-joining, switching role, declining). Promotion and
    /// removal leave it alone: they are not the person's answer.
    pub responded_at: i64,
}

impl Rsvp {
    /// Which limit this RSVP counts against. Derived, never stored, so it
    /// cannot disagree with `position`.
    pub fn role(&self) -> Role {
        self.position.role()
    }
}

/// What the server loads to rebuild an event's state.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StoredEvent {
    pub event_id: String,
    /// The `events.version` column: the optimistic-concurrency token and the
    /// `seq` of `event:ID` pushes.
    pub version: i64,
    /// `None` = unlimited.
    pub max_skaters: Option<i64>,
    pub max_goalies: Option<i64>,
    pub cancelled: bool,
    /// Every RSVP row of the event, any order.
    pub rsvps: Vec<Rsvp>,
    /// Who goes first, and when the RSVPs lock.
    pub access: Access,
    /// The clock when the rows were read (epoch ms): whether the regulars'
    /// window is still open is decided against it until the first command.
    pub loaded_at: i64,
}

/// Who goes first and when RSVPs lock (docs/pickup-night.md). Times are
/// epoch ms, already worked out from the event's start and its rules.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Access {
    /// The event's regulars: its series' list and its teams' rosters.
    pub regulars: HashSet<String>,
    /// Places are the regulars' until then; `None` = open to all.
    pub regulars_until: Option<i64>,
    /// New requests to join are refused from then on; `None` = no lock.
    pub closes_at: Option<i64>,
}

impl Access {
    /// Whether the regulars' window is open at `now_ms`.
    pub fn in_priority(&self, now_ms: i64) -> bool {
        self.regulars_until.is_some_and(|until| now_ms < until)
    }

    /// Whether new requests are refused at `now_ms`.
    pub fn is_closed(&self, now_ms: i64) -> bool {
        self.closes_at.is_some_and(|at| now_ms >= at)
    }

    pub fn is_regular(&self, user_id: &str) -> bool {
        self.regulars.contains(user_id)
    }
}

/// An index key: acceptance order first, user id to break (impossible) ties
/// so two rows can never overwrite each other in a set.
type LineKey = (i64, String);

/// The two ordered lines of one role.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Lines {
    pub(crate) attending: BTreeSet<LineKey>,
    pub(crate) waitlist: BTreeSet<LineKey>,
    /// The regulars among `waitlist` (same keys): the line a freed place is
    /// taken from while the regulars' window is open.
    pub(crate) regulars_waiting: BTreeSet<LineKey>,
}

/// The aggregate. Built from a [`StoredEvent`]; changed only by
/// [`super::decide()`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventState {
    pub(crate) event_id: String,
    pub(crate) version: i64,
    pub(crate) max_skaters: Option<i64>,
    pub(crate) max_goalies: Option<i64>,
    pub(crate) cancelled: bool,
    /// Next `accepted_seq` to hand out. Derived on load as max + 1, so it
    /// needs no column and survives restarts.
    pub(crate) next_seq: i64,
    pub(crate) rsvps: HashMap<String, Rsvp>,
    pub(crate) skaters: Lines,
    pub(crate) goalies: Lines,
    pub(crate) access: Access,
    /// The regulars' window was open at the last decision (or at load): the
    /// waitlists are in tier order, regulars first.
    pub(crate) priority: bool,
    /// True once a change has been decided since the last [`seal`]: the
    /// version has already been bumped for the open batch, and further
    /// changes share it (one version per committed batch).
    ///
    /// [`seal`]: EventState::seal
    pub(crate) batch_open: bool,
    /// The open places as of the last [`seal`] (or load), so a commit can
    /// say whether its batch changed them.
    ///
    /// [`seal`]: EventState::seal
    pub(crate) sealed_open: OpenPlaces,
}

impl EventState {
    /// Rebuilds the state from stored rows. Duplicate user ids keep the last
    /// row.
    pub fn new(stored: StoredEvent) -> Self {
        let mut state = EventState {
            event_id: stored.event_id,
            version: stored.version,
            max_skaters: stored.max_skaters,
            max_goalies: stored.max_goalies,
            cancelled: stored.cancelled,
            next_seq: 1,
            rsvps: HashMap::new(),
            skaters: Lines::default(),
            goalies: Lines::default(),
            priority: stored.access.in_priority(stored.loaded_at),
            access: stored.access,
            batch_open: false,
            sealed_open: OpenPlaces::default(),
        };
        for rsvp in stored.rsvps {
            state.next_seq = state.next_seq.max(rsvp.accepted_seq + 1);
            if let Some(old) = state.rsvps.remove(&rsvp.user_id) {
                state.unindex(&old);
            }
            state.insert(rsvp);
        }
        state.sealed_open = state.open_places();
        state
    }

    pub fn event_id(&self) -> &str {
        &self.event_id
    }

    /// The version this state is at: the committed version, or committed + 1
    /// while a batch with changes is open.
    pub fn version(&self) -> i64 {
        self.version
    }

    pub fn max_skaters(&self) -> Option<i64> {
        self.max_skaters
    }

    pub fn max_goalies(&self) -> Option<i64> {
        self.max_goalies
    }

    pub fn limit(&self, role: Role) -> Option<i64> {
        match role {
            Role::Skater => self.max_skaters,
            Role::Goalie => self.max_goalies,
        }
    }

    pub fn is_cancelled(&self) -> bool {
        self.cancelled
    }

    pub fn access(&self) -> &Access {
        &self.access
    }

    /// Whether the regulars' window was open at the last decision.
    pub fn in_priority(&self) -> bool {
        self.priority
    }

    /// The next acceptance number (for diagnostics and tests).
    pub fn next_seq(&self) -> i64 {
        self.next_seq
    }

    pub fn rsvp(&self, user_id: &str) -> Option<&Rsvp> {
        self.rsvps.get(user_id)
    }

    /// Every row, in no particular order.
    pub fn rsvps(&self) -> impl Iterator<Item = &Rsvp> {
        self.rsvps.values()
    }

    /// Attending people of a role, in acceptance order.
    pub fn attending(&self, role: Role) -> impl Iterator<Item = &Rsvp> {
        self.line_rows(&self.lines(role).attending)
    }

    /// Waitlisted people of a role, rank 1 first: in the order they will
    /// be promoted (regulars first while their window is open).
    pub fn waitlist(&self, role: Role) -> impl Iterator<Item = &Rsvp> {
        let lines = self.lines(role);
        let tiered = self.priority;
        let regulars = tiered.then_some(&lines.regulars_waiting).into_iter().flat_map(|line| self.line_rows(line));
        let rest =
            self.line_rows(&lines.waitlist).filter(move |r| !(tiered && lines.regulars_waiting.contains(&key_of(r))));
        regulars.chain(rest)
    }

    /// The next person of a role to be promoted, by the rules of the moment.
    pub(crate) fn next_in_line(&self, role: Role) -> Option<&str> {
        let lines = self.lines(role);
        let line = if self.priority { &lines.regulars_waiting } else { &lines.waitlist };
        line.first().map(|(_, user)| user.as_str())
    }

    pub fn attending_count(&self, role: Role) -> i64 {
        count(self.lines(role).attending.len())
    }

    pub fn waitlist_count(&self, role: Role) -> i64 {
        count(self.lines(role).waitlist.len())
    }

    /// 1 = next to be promoted, counted within the person's role; `None`
    /// when the person is not waitlisted.
    pub fn waitlist_rank(&self, user_id: &str) -> Option<i64> {
        let rsvp = self.rsvps.get(user_id)?;
        if rsvp.status != RsvpStatus::Waitlisted {
            return None;
        }
        let key = key_of(rsvp);
        let lines = self.lines(rsvp.role());
        let ahead = if !self.priority {
            ahead(&lines.waitlist, &key)
        } else if lines.regulars_waiting.contains(&key) {
            // Regulars first, each tier in request order.
            ahead(&lines.regulars_waiting, &key)
        } else {
            lines.regulars_waiting.len() + ahead(&lines.waitlist, &key) - ahead(&lines.regulars_waiting, &key)
        };
        Some(count(ahead) + 1)
    }

    /// Marks the current version as committed: the next change opens a new
    /// batch and bumps the version again. The actor calls this after a
    /// successful store commit; tests call it to separate batches.
    pub fn seal(&mut self) {
        self.batch_open = false;
        self.sealed_open = self.open_places();
    }

    /// Places left per role now (`None` = unlimited; none once cancelled;
    /// never below zero when a limit was lowered under the count).
    pub fn open_places(&self) -> OpenPlaces {
        let left = |role: Role| {
            if self.cancelled {
                return Some(0);
            }
            self.limit(role).map(|limit| (limit - self.attending_count(role)).max(0))
        };
        OpenPlaces { skaters: left(Role::Skater), goalies: left(Role::Goalie) }
    }

    /// The open places if they changed since the last seal.
    pub fn open_places_changed(&self) -> Option<OpenPlaces> {
        let now = self.open_places();
        (now != self.sealed_open).then_some(now)
    }

    /// Whether a role can admit one more person now. A lowered limit below
    /// the current count admits nobody until enough people leave.
    pub(crate) fn has_room(&self, role: Role) -> bool {
        self.limit(role).is_none_or(|limit| self.attending_count(role) < limit)
    }

    /// Bumps the version once per batch, on the batch's first change.
    pub(crate) fn touch(&mut self) {
        if !self.batch_open {
            self.batch_open = true;
            self.version += 1;
        }
    }

    pub(crate) fn take_seq(&mut self) -> i64 {
        let seq = self.next_seq;
        self.next_seq += 1;
        seq
    }

    /// Adds a new row (the user must not have one) and indexes it.
    pub(crate) fn insert(&mut self, rsvp: Rsvp) {
        self.index(&rsvp);
        self.rsvps.insert(rsvp.user_id.clone(), rsvp);
    }

    /// Changes an existing row through `change`, re-indexing it, and returns
    /// a copy of the result (what the server must upsert).
    pub(crate) fn update(&mut self, user_id: &str, change: impl FnOnce(&mut Rsvp)) -> Option<Rsvp> {
        let mut rsvp = self.rsvps.remove(user_id)?;
        self.unindex(&rsvp);
        change(&mut rsvp);
        let copy = rsvp.clone();
        self.insert(rsvp);
        Some(copy)
    }

    pub(crate) fn lines(&self, role: Role) -> &Lines {
        match role {
            Role::Skater => &self.skaters,
            Role::Goalie => &self.goalies,
        }
    }

    fn lines_mut(&mut self, role: Role) -> &mut Lines {
        match role {
            Role::Skater => &mut self.skaters,
            Role::Goalie => &mut self.goalies,
        }
    }

    fn index(&mut self, rsvp: &Rsvp) {
        let key = key_of(rsvp);
        let regular = self.access.is_regular(&rsvp.user_id);
        let lines = self.lines_mut(rsvp.role());
        match rsvp.status {
            RsvpStatus::Attending => {
                lines.attending.insert(key);
            }
            RsvpStatus::Waitlisted => {
                if regular {
                    lines.regulars_waiting.insert(key.clone());
                }
                lines.waitlist.insert(key);
            }
            RsvpStatus::Declined | RsvpStatus::Removed => {}
        }
    }

    fn unindex(&mut self, rsvp: &Rsvp) {
        let key = key_of(rsvp);
        let lines = self.lines_mut(rsvp.role());
        lines.attending.remove(&key);
        lines.waitlist.remove(&key);
        lines.regulars_waiting.remove(&key);
    }

    /// New regulars and times; the regulars' index is rebuilt.
    pub(crate) fn set_access(&mut self, access: Access) {
        self.access = access;
        for role in [Role::Skater, Role::Goalie] {
            let waiting: Vec<LineKey> = self.lines(role).waitlist.iter().cloned().collect();
            let regulars: BTreeSet<LineKey> =
                waiting.into_iter().filter(|(_, user)| self.access.is_regular(user)).collect();
            self.lines_mut(role).regulars_waiting = regulars;
        }
    }

    fn line_rows<'a>(&'a self, line: &'a BTreeSet<LineKey>) -> impl Iterator<Item = &'a Rsvp> + 'a {
        line.iter().filter_map(|(_, user)| self.rsvps.get(user))
    }
}

/// How many keys of `line` come before `key` (in it or not), counted from
/// the nearer end: during a burst the people being answered have just
/// joined the tail of a long line, and counting everyone ahead of each of
/// them would be quadratic over the burst.
fn ahead(line: &BTreeSet<LineKey>, key: &LineKey) -> usize {
    let half = line.len() / 2;
    let after = line.range((Bound::Excluded(key), Bound::Unbounded)).take(half + 1).count();
    if after <= half { line.len() - after - usize::from(line.contains(key)) } else { line.range(..key).count() }
}

fn key_of(rsvp: &Rsvp) -> LineKey {
    (rsvp.accepted_seq, rsvp.user_id.clone())
}

/// Collection sizes as the i64 the wire and the database use.
fn count(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}
