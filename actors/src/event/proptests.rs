//! Property tests: random sequences of RSVPs, declines, removals and limit
//! changes among a handful of people, checked against a deliberately
//! simple reference model (plain vectors, no indexes) and against the
//! invariants users feel: no overbooking, FIFO per role, nobody in two
//! places, every promotion recorded, idempotent repeats. The same run with
//! regulars, a regulars' window and a lock as time passes: no regular is
//! ever passed over by someone else while the window is open, FIFO within
//! each tier, nobody joins after the lock unless an organiser.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{HashMap, HashSet};

use proptest::prelude::*;

use super::*;
use crate::hockey::{Position, Role};

const USERS: usize = 8;
const ROLES: [Role; 2] = [Role::Skater, Role::Goalie];

#[derive(Debug, Clone)]
enum Op {
    Rsvp {
        user: usize,
        attending: bool,
        position: Option<Position>,
        /// An organiser answering (the lock does not apply).
        unlocked: bool,
    },
    Remove {
        user: usize,
    },
    Limits {
        skaters: Option<i64>,
        goalies: Option<i64>,
    },
    /// Close the batch (a commit happened).
    Seal,
    /// Time passes, then the actor is asked to fill free places (what the
    /// rule-moments job sends when the regulars' window closes).
    Tick {
        ms: i64,
    },
}

fn position() -> impl Strategy<Value = Option<Position>> {
    // Goalies often enough that their small line fills up.
    prop_oneof![
        Just(None),
        Just(Some(Position::Center)),
        Just(Some(Position::LeftWing)),
        Just(Some(Position::RightDefense)),
        Just(Some(Position::Goalie)),
        Just(Some(Position::Goalie)),
    ]
}

fn limit() -> impl Strategy<Value = Option<i64>> {
    prop_oneof![1 => Just(None), 4 => (0i64..=4).prop_map(Some)]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => (0..USERS, any::<bool>(), position(), prop::bool::weighted(0.1))
            .prop_map(|(user, attending, position, unlocked)| Op::Rsvp { user, attending, position, unlocked }),
        1 => (0..USERS).prop_map(|user| Op::Remove { user }),
        1 => (limit(), limit()).prop_map(|(skaters, goalies)| Op::Limits { skaters, goalies }),
        1 => Just(Op::Seal),
        1 => (1i64..=400).prop_map(|ms| Op::Tick { ms }),
    ]
}

/// When the tiered runs start.
const T0: i64 = 1_000;

/// Regulars (a subset of the users), a regulars' window and a lock, both
/// somewhere in the first seconds of the run (or none).
fn access() -> impl Strategy<Value = Access> {
    (
        prop::collection::hash_set(0..USERS, 0..=USERS),
        prop::option::weighted(0.8, T0..T0 + 6_000),
        prop::option::weighted(0.5, T0..T0 + 12_000),
    )
        .prop_map(|(regulars, until, closes)| Access {
            regulars: regulars.into_iter().map(user).collect(),
            regulars_until: until,
            closes_at: closes,
        })
}

fn user(i: usize) -> String {
    format!("u{i}")
}

fn command(op: &Op) -> Option<EventCommand> {
    Some(match op {
        Op::Rsvp { user: u, attending, position, unlocked } => EventCommand::Rsvp {
            user_id: user(*u),
            answer: if *attending { RsvpAnswer::Attending } else { RsvpAnswer::Declined },
            position: *position,
            person: Some(Person { display_name: user(*u), preferred_position: None }),
            unlocked: *unlocked,
        },
        Op::Tick { .. } => EventCommand::Refill,
        Op::Remove { user: u } => EventCommand::Remove { user_id: user(*u) },
        Op::Limits { skaters, goalies } => EventCommand::SetLimits { max_skaters: *skaters, max_goalies: *goalies },
        Op::Seal => return None,
    })
}

/// The reference model: the rules restated over plain vectors.
#[derive(Debug, Clone, Default)]
struct Model {
    limits: [Option<i64>; 2],
    /// user → (status, position)
    people: HashMap<usize, (RsvpStatus, Position)>,
    /// Per role, in acceptance order: (seq, user).
    attending: [Vec<(i64, usize)>; 2],
    /// Per role, in request order (the line a freed place is taken from
    /// is [`Model::line`]).
    waitlist: [Vec<(i64, usize)>; 2],
    next_seq: i64,
    regulars: HashSet<usize>,
    /// The regulars' window ends then (exclusive).
    until: Option<i64>,
    closes_at: Option<i64>,
    /// The window was open at the last op.
    priority: bool,
    now: i64,
}

fn ix(role: Role) -> usize {
    match role {
        Role::Skater => 0,
        Role::Goalie => 1,
    }
}

impl Model {
    fn room(&self, role: Role) -> bool {
        self.limits[ix(role)].is_none_or(|l| (self.attending[ix(role)].len() as i64) < l)
    }

    fn leave_lines(&mut self, u: usize) -> Option<(i64, RsvpStatus, Role)> {
        for role in ROLES {
            if let Some(i) = self.attending[ix(role)].iter().position(|(_, x)| *x == u) {
                let (seq, _) = self.attending[ix(role)].remove(i);
                return Some((seq, RsvpStatus::Attending, role));
            }
            if let Some(i) = self.waitlist[ix(role)].iter().position(|(_, x)| *x == u) {
                let (seq, _) = self.waitlist[ix(role)].remove(i);
                return Some((seq, RsvpStatus::Waitlisted, role));
            }
        }
        None
    }

    /// The waitlist in promotion order: regulars first while the window is
    /// open, each tier in request order.
    fn line(&self, role: Role) -> Vec<(i64, usize)> {
        let mut line = self.waitlist[ix(role)].clone();
        if self.priority {
            line.sort_by_key(|(seq, u)| (!self.regulars.contains(u), *seq));
        }
        line
    }

    /// Who may be promoted now: anyone outside the window, else regulars.
    fn eligible(&self, u: usize) -> bool {
        !self.priority || self.regulars.contains(&u)
    }

    fn promote(&mut self, role: Role) {
        while self.room(role) {
            let Some(&(seq, u)) = self.line(role).first().filter(|(_, u)| self.eligible(*u)) else { break };
            self.waitlist[ix(role)].retain(|(_, x)| *x != u);
            self.attending[ix(role)].push((seq, u));
            self.attending[ix(role)].sort();
            self.people.insert(u, (RsvpStatus::Attending, self.people[&u].1));
        }
    }

    /// The clock moves to `now`: when the window has closed, free places
    /// are filled in request order.
    fn follow_clock(&mut self, now: i64) {
        self.now = now;
        let priority = self.until.is_some_and(|until| now < until);
        if priority != self.priority {
            self.priority = priority;
            self.promote(Role::Skater);
            self.promote(Role::Goalie);
        }
    }

    fn request(&mut self, u: usize, position: Position) {
        let role = position.role();
        self.next_seq += 1;
        let seq = self.next_seq;
        let first_in_line = if !self.priority {
            self.waitlist[ix(role)].is_empty()
        } else if self.regulars.contains(&u) {
            !self.waitlist[ix(role)].iter().any(|(_, x)| self.regulars.contains(x))
        } else {
            self.limits[ix(role)].is_none()
        };
        let status = if self.room(role) && first_in_line {
            self.attending[ix(role)].push((seq, u));
            RsvpStatus::Attending
        } else {
            self.waitlist[ix(role)].push((seq, u));
            RsvpStatus::Waitlisted
        };
        self.people.insert(u, (status, position));
    }

    /// Applies an op; `false` when the real core must reject it.
    fn apply(&mut self, op: &Op) -> bool {
        match op {
            Op::Seal | Op::Tick { .. } => {}
            Op::Rsvp { user: u, attending: true, position, unlocked } => {
                let current = self.people.get(u).copied();
                let position = position.or(current.map(|c| c.1)).unwrap_or(Position::Center);
                let placed_in_role = current.is_some_and(|(status, old)| {
                    matches!(status, RsvpStatus::Attending | RsvpStatus::Waitlisted) && old.role() == position.role()
                });
                if self.limits[ix(position.role())] == Some(0) && !placed_in_role {
                    return false;
                }
                let locked = self.closes_at.is_some_and(|at| self.now >= at);
                if locked && !unlocked && !placed_in_role {
                    return false;
                }
                match current {
                    Some((RsvpStatus::Attending | RsvpStatus::Waitlisted, old)) => {
                        if old == position {
                        } else if old.role() == position.role() {
                            self.people.get_mut(u).unwrap().1 = position;
                        } else {
                            let (_, was, old_role) = self.leave_lines(*u).unwrap();
                            self.request(*u, position);
                            if was == RsvpStatus::Attending {
                                self.promote(old_role);
                            }
                        }
                    }
                    _ => self.request(*u, position),
                }
            }
            Op::Rsvp { user: u, attending: false, position, .. } => {
                let pos = self.people.get(u).map(|c| c.1).or(*position).unwrap_or(Position::Center);
                if self.people.get(u).map(|c| c.0) != Some(RsvpStatus::Declined) {
                    let left = self.leave_lines(*u);
                    self.people.insert(*u, (RsvpStatus::Declined, pos));
                    if let Some((_, RsvpStatus::Attending, role)) = left {
                        self.promote(role);
                    }
                }
            }
            Op::Remove { user: u } => {
                let Some(&(_, pos)) = self.people.get(u) else {
                    return false;
                };
                if let Some((_, was, role)) = self.leave_lines(*u) {
                    self.people.insert(*u, (RsvpStatus::Removed, pos));
                    if was == RsvpStatus::Attending {
                        self.promote(role);
                    }
                }
            }
            Op::Limits { skaters, goalies } => {
                self.limits = [*skaters, *goalies];
                self.promote(Role::Skater);
                self.promote(Role::Goalie);
            }
        }
        true
    }
}

fn line_users<'a>(rows: impl Iterator<Item = &'a Rsvp>) -> Vec<String> {
    rows.map(|r| r.user_id.clone()).collect()
}

fn model_users(line: &[(i64, usize)]) -> Vec<String> {
    line.iter().map(|(_, u)| user(*u)).collect()
}

fn check_invariants(state: &EventState, before: &EventState) {
    let mut places: HashMap<&str, usize> = HashMap::new();
    for role in ROLES {
        let attending: Vec<&Rsvp> = state.attending(role).collect();
        let waitlist: Vec<&Rsvp> = state.waitlist(role).collect();
        // Never over a limit, unless it was lowered below the count; then
        // nobody is admitted until below it.
        if let Some(limit) = state.limit(role) {
            let count = attending.len() as i64;
            assert!(count <= limit.max(before.attending_count(role)), "{role:?}: {count} attending over limit {limit}");
        }
        // FIFO: attending in acceptance order; the waitlist too, within
        // each tier (regulars first while their window is open).
        let tier = |r: &Rsvp| state.in_priority() && !state.access().is_regular(&r.user_id);
        assert!(attending.windows(2).all(|w| w[0].accepted_seq < w[1].accepted_seq));
        assert!(waitlist.windows(2).all(|w| (tier(w[0]), w[0].accepted_seq) < (tier(w[1]), w[1].accepted_seq)));
        // A waitlist only exists while its role is full, or while the
        // window keeps the free places for regulars and only others wait.
        if state.has_room(role) {
            assert!(waitlist.iter().all(|r| tier(r)), "{role:?} has room but someone promotable waits");
        }
        for r in attending.iter().chain(&waitlist) {
            assert_eq!(r.role(), role);
            *places.entry(r.user_id.as_str()).or_default() += 1;
        }
        for r in &attending {
            assert_eq!(r.status, RsvpStatus::Attending);
        }
        for (rank, r) in (1..).zip(&waitlist) {
            assert_eq!(r.status, RsvpStatus::Waitlisted);
            assert_eq!(state.waitlist_rank(&r.user_id), Some(rank));
        }
    }
    // Nobody in two places, and everyone placed is in exactly one line.
    for r in state.rsvps() {
        let placed = matches!(r.status, RsvpStatus::Attending | RsvpStatus::Waitlisted);
        assert_eq!(places.get(r.user_id.as_str()).copied().unwrap_or(0), usize::from(placed));
    }
}

/// Every waitlisted → attending move of someone other than the subject is
/// a PROMOTED history row, and every PROMOTED row is such a move.
fn check_promotions_recorded(before: &EventState, after: &EventState, op: &Op, effects: &Effects) {
    let subject = match op {
        Op::Rsvp { user: u, .. } | Op::Remove { user: u } => Some(user(*u)),
        _ => None,
    };
    let mut moved: Vec<String> = after
        .rsvps()
        .filter(|r| r.status == RsvpStatus::Attending)
        .filter(|r| before.rsvp(&r.user_id).is_some_and(|b| b.status == RsvpStatus::Waitlisted))
        .filter(|r| Some(&r.user_id) != subject.as_ref())
        .map(|r| r.user_id.clone())
        .collect();
    let mut recorded: Vec<String> = effects
        .waitlist_history
        .iter()
        .filter(|h| h.action == WaitlistAction::Promoted)
        .map(|h| h.user_id.clone())
        .collect();
    moved.sort();
    recorded.sort();
    // No regular is passed over: while the window is open only regulars
    // are promoted.
    if after.in_priority() {
        assert!(recorded.iter().all(|u| after.access().is_regular(u)), "a non-regular promoted during priority");
    }
    assert_eq!(moved, recorded);
}

/// Runs `ops` from `initial` limits under `access` against the model, the
/// clock starting at [`T0`].
fn run(initial: (Option<i64>, Option<i64>), access: Access, ops: &[Op]) -> Result<(), TestCaseError> {
    let mut state = EventState::new(StoredEvent {
        event_id: "ev".into(),
        version: 1,
        max_skaters: initial.0,
        max_goalies: initial.1,
        cancelled: false,
        rsvps: Vec::new(),
        access: access.clone(),
        loaded_at: T0,
    });
    let regulars = (0..USERS).filter(|u| access.is_regular(&user(*u))).collect();
    let mut model = Model {
        limits: [initial.0, initial.1],
        regulars,
        until: access.regulars_until,
        closes_at: access.closes_at,
        priority: access.in_priority(T0),
        now: T0,
        ..Model::default()
    };
    let mut now = T0;
    for op in ops {
        if let Op::Tick { ms } = op {
            now += ms;
        }
        let Some(cmd) = command(op) else {
            state.seal();
            continue;
        };
        let before = state.clone();
        let model_before = model.clone();
        model.follow_clock(now);
        let accepted = model.apply(op);
        match decide(&mut state, &cmd, now) {
            Err(rejection) => {
                prop_assert!(!accepted, "rejected {op:?}: {rejection}");
                prop_assert_eq!(&state, &before, "a rejection changed the state");
                // A refused command decides nothing, the clock's consequences
                // included: they wait for the next command.
                model = Model { now, ..model_before };
            }
            Ok(outcome) => {
                prop_assert!(accepted, "accepted {:?} the model rejects", op);
                check_invariants(&state, &before);
                check_promotions_recorded(&before, &state, op, &outcome.effects);
                // Nothing to persist exactly when nothing changed: the window
                // closing re-orders the waitlists (a new version) unless
                // they are empty.
                let waiting = ROLES.iter().any(|role| state.waitlist_count(*role) > 0);
                let reordered = state.priority != before.priority && waiting;
                let before_on_the_clock = EventState { priority: state.priority, ..before.clone() };
                prop_assert_eq!(outcome.effects.is_empty(), state == before_on_the_clock && !reordered);

                // Idempotent: the same command again changes nothing.
                if matches!(op, Op::Rsvp { .. }) {
                    let settled = state.clone();
                    let again = decide(&mut state, &cmd, now).unwrap();
                    prop_assert!(again.effects.is_empty(), "repeat of {:?} changed something", op);
                    prop_assert_eq!(&again.reply, &outcome.reply);
                    prop_assert_eq!(&state, &settled);
                }
            }
        }
        for role in ROLES {
            prop_assert_eq!(line_users(state.attending(role)), model_users(&model.attending[ix(role)]));
            prop_assert_eq!(line_users(state.waitlist(role)), model_users(&model.line(role)));
        }
        for (u, (status, position)) in &model.people {
            let row = state.rsvp(&user(*u)).unwrap();
            prop_assert_eq!((row.status, row.position), (*status, *position), "user {}", u);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn rsvp_core_agrees_with_the_reference_model(
        initial in (limit(), limit()),
        ops in prop::collection::vec(op(), 1..80),
    ) {
        run(initial, Access::default(), &ops)?;
    }

    #[test]
    fn regulars_first_and_the_lock_agree_with_the_reference_model(
        initial in (limit(), limit()),
        access in access(),
        ops in prop::collection::vec(op(), 1..100),
    ) {
        run(initial, access, &ops)?;
    }
}
