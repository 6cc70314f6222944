//! Property tests of the pipelined event actor: random RSVPs, declines,
//! removals and limit changes (some repeated with the same command id)
//! arrive at random moments on a paused clock, so batches pile up behind
//! commits and pipeline; commit failures and commits by "another node"
//! (version conflicts) land in the middle. The store's commit log is then
//! replayed through the pure core, and everything the callers were told
//! is checked against it.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use proptest::prelude::*;
use rinkside_actors::event::{
    EventCommand, EventReply, EventState, Person, RsvpAnswer, RsvpStatus, StoredEvent, decide,
};
use rinkside_actors::{
    ActorConfig, ActorError, Arbiters, Envelope, EventRegistry, EventStore, Position, Publisher, Role,
};

use common::{CommitRecord, MemStore, Recorder};

const EVENT: &str = "ev1";
const USERS: usize = 6;
const ROLES: [Role; 2] = [Role::Skater, Role::Goalie];

#[derive(Debug, Clone)]
enum Op {
    Rsvp { user: usize, attending: bool, position: Option<Position> },
    Remove { user: usize },
    Limits { skaters: Option<i64>, goalies: Option<i64> },
}

/// Something else that happens at a moment of the run.
#[derive(Debug, Clone)]
enum Trouble {
    /// The next commit fails (a lost connection).
    FailNextCommit,
    /// Another node commits this just before the actor's next commit.
    OtherNode(Op),
}

fn position() -> impl Strategy<Value = Option<Position>> {
    prop_oneof![Just(None), Just(Some(Position::Center)), Just(Some(Position::LeftWing)), Just(Some(Position::Goalie)),]
}

fn limit() -> impl Strategy<Value = Option<i64>> {
    prop_oneof![1 => Just(None), 4 => (0i64..=3).prop_map(Some)]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => (0..USERS, prop::bool::weighted(0.7), position())
            .prop_map(|(user, attending, position)| Op::Rsvp { user, attending, position }),
        1 => (0..USERS).prop_map(|user| Op::Remove { user }),
        1 => (limit(), limit()).prop_map(|(skaters, goalies)| Op::Limits { skaters, goalies }),
    ]
}

fn trouble() -> impl Strategy<Value = Trouble> {
    prop_oneof![Just(Trouble::FailNextCommit), op().prop_map(Trouble::OtherNode)]
}

/// Milliseconds after the start; commits take 2 ms, so a burst spans
/// several batches that queue behind each other's commits.
fn moment() -> impl Strategy<Value = u64> {
    0u64..12
}

fn user(i: usize) -> String {
    format!("u{i}")
}

fn person(user_id: &str) -> Person {
    // What `MemStore::people` answers, so a replay decides the same.
    Person { display_name: format!("Name {user_id}"), preferred_position: None }
}

/// The command as the server sends it (`person: None`: the actor reads it).
fn command(op: &Op) -> EventCommand {
    match op {
        Op::Rsvp { user: u, attending, position } => EventCommand::Rsvp {
            user_id: user(*u),
            answer: if *attending { RsvpAnswer::Attending } else { RsvpAnswer::Declined },
            position: *position,
            person: None,
            unlocked: false,
        },
        Op::Remove { user: u } => EventCommand::Remove { user_id: user(*u) },
        Op::Limits { skaters, goalies } => EventCommand::SetLimits { max_skaters: *skaters, max_goalies: *goalies },
    }
}

/// The command as decided: with the person filled in.
fn decided_command(op: &Op) -> EventCommand {
    let mut command = command(op);
    if let EventCommand::Rsvp { user_id, person: p, .. } = &mut command {
        *p = Some(person(user_id));
    }
    command
}

fn subject(op: &Op) -> Option<String> {
    match op {
        Op::Rsvp { user: u, .. } | Op::Remove { user: u } => Some(user(*u)),
        Op::Limits { .. } => None,
    }
}

struct Run {
    /// Per send: its command id, its op, and what its caller was told.
    replies: Vec<(String, Op, Result<EventReply, ActorError>)>,
    commits: Vec<CommitRecord>,
    conflicts: usize,
    max_commits_in_flight: usize,
    final_state: EventState,
}

fn run(
    limits: (Option<i64>, Option<i64>),
    sends: &[(u64, Op)],
    repeats: &[(u64, usize)],
    troubles: &[(u64, Trouble)],
) -> Run {
    actix::System::new().block_on(async {
        // Virtual time: sleeps jump ahead when everything waits.
        tokio::time::pause();
        let store = MemStore::new();
        store.add_event(EVENT, limits.0, limits.1);
        let events_store: Arc<dyn EventStore> = store.clone();
        let publisher: Arc<dyn Publisher> = Recorder::new();
        // Small batches, so a burst needs several and they pipeline.
        let config = ActorConfig { max_batch: 4, pipeline_from: 1, ..ActorConfig::default() };
        let events = EventRegistry::new(events_store, publisher, Arbiters::current().unwrap(), config);

        let mut calls = Vec::new();
        let repeated = repeats.iter().map(|(at, i)| (*at, i % sends.len()));
        for (at, i) in sends.iter().enumerate().map(|(i, (at, _))| (*at, i)).chain(repeated) {
            let op = sends[i].1.clone();
            let key = format!("c{i}");
            let actor = if matches!(op, Op::Rsvp { .. }) { subject(&op).unwrap() } else { "org".into() };
            let envelope = Envelope::new(actor, command(&op)).with_command_id(&key).with_fingerprint(format!("{op:?}"));
            let send = events.send(EVENT, envelope);
            let handle = actix::spawn(async move {
                tokio::time::sleep(Duration::from_millis(at)).await;
                send.await
            });
            calls.push((key, op, handle));
        }
        for (at, trouble) in troubles.iter().cloned() {
            let store = store.clone();
            actix::spawn(async move {
                tokio::time::sleep(Duration::from_millis(at)).await;
                match trouble {
                    Trouble::FailNextCommit => store.fail_next_commit.store(true, Ordering::SeqCst),
                    Trouble::OtherNode(op) => store.other_node_before_next_commit(EVENT, decided_command(&op)),
                }
            });
        }

        let mut replies = Vec::new();
        for (key, op, handle) in calls {
            let reply = tokio::time::timeout(Duration::from_secs(60), handle)
                .await
                .expect("a command was never answered")
                .unwrap();
            replies.push((key, op, reply));
        }
        Run {
            replies,
            commits: store.event_commits.lock().unwrap().clone(),
            conflicts: store.conflicts.load(Ordering::SeqCst),
            max_commits_in_flight: store.max_commits_in_flight.load(Ordering::SeqCst),
            final_state: store.event_state(EVENT),
        }
    })
}

/// What a user would see of a state: per person, status, position and
/// place in line; the limits; the version.
type View = (Vec<(String, RsvpStatus, Position, i64)>, Option<i64>, Option<i64>, i64);

fn view(state: &EventState) -> View {
    let mut rows: Vec<_> = state.rsvps().map(|r| (r.user_id.clone(), r.status, r.position, r.accepted_seq)).collect();
    rows.sort_by(|a, b| a.0.cmp(&b.0));
    (rows, state.max_skaters(), state.max_goalies(), state.version())
}

/// No overbooking: one decision never takes a role over its limit (a
/// lowered limit evicts nobody, so a count already over it may stay).
fn check_admissions(before: &EventState, after: &EventState) -> Result<(), TestCaseError> {
    for role in ROLES {
        if let Some(limit) = after.limit(role) {
            let count = after.attending_count(role);
            prop_assert!(
                count <= limit.max(before.attending_count(role)),
                "{role:?} overbooked: {count} attending, limit {limit}"
            );
        }
    }
    Ok(())
}

/// What replaying the commit log found.
struct Replay {
    /// The state after the last commit.
    state: EventState,
    /// Per committed command id: whether it was decided ok, and the state
    /// its commit left.
    committed_in: HashMap<String, (bool, EventState)>,
    /// Commits in which another node's commands moved the version.
    moved_by_other_node: usize,
}

fn check(limits: (Option<i64>, Option<i64>), sends: &[(u64, Op)], run: &Run) -> Result<(), TestCaseError> {
    prop_assert_eq!(run.max_commits_in_flight.min(1), run.max_commits_in_flight, "two commits of one event at once");
    let replay = replay(limits, sends, &run.commits)?;
    prop_assert_eq!(view(&run.final_state), view(&replay.state));
    // One conflict per commit another node slipped in; a command decided
    // twice (a repeat across the pipeline) would add one on its key.
    prop_assert!(
        run.conflicts <= replay.moved_by_other_node,
        "{} conflicts for {} commits by another node",
        run.conflicts,
        replay.moved_by_other_node
    );
    check_replies(&run.replies, &replay.committed_in)
}

/// Replays the commit log through the pure core: it must reproduce every
/// stored state, so each committed command ran exactly once, in commit
/// order, on the state the commit before left, and nothing else ran.
fn replay(
    limits: (Option<i64>, Option<i64>),
    sends: &[(u64, Op)],
    commits: &[CommitRecord],
) -> Result<Replay, TestCaseError> {
    let ops: HashMap<String, &Op> = sends.iter().enumerate().map(|(i, (_, op))| (format!("c{i}"), op)).collect();
    let mut state = EventState::new(StoredEvent {
        event_id: EVENT.into(),
        version: 1,
        max_skaters: limits.0,
        max_goalies: limits.1,
        cancelled: false,
        rsvps: Vec::new(),
        ..Default::default()
    });
    let mut committed_in: HashMap<String, (bool, EventState)> = HashMap::new();
    let mut moved_by_other_node = 0;
    for (n, commit) in commits.iter().enumerate() {
        // Versions: a chain without gaps or repeats.
        prop_assert_eq!(commit.expected_version, state.version(), "commit {} did not build on the last one", n);
        prop_assert!(
            [commit.expected_version, commit.expected_version + 1].contains(&commit.new_version),
            "commit {n} jumped from v{} to v{}",
            commit.expected_version,
            commit.new_version
        );
        for command in &commit.other_node {
            let before = state.clone();
            prop_assert!(decide(&mut state, command, 0).is_ok());
            check_admissions(&before, &state)?;
        }
        if !commit.other_node.is_empty() && commit.new_version != commit.expected_version {
            moved_by_other_node += 1;
        }
        let mut keys = Vec::new();
        for (key, ok) in &commit.results {
            let op = ops[key.as_str()];
            let before = state.clone();
            prop_assert_eq!(decide(&mut state, &decided_command(op), 0).is_ok(), *ok, "{} ({:?})", key, op);
            check_admissions(&before, &state)?;
            keys.push((key.clone(), *ok));
        }
        prop_assert_eq!(state.version(), commit.new_version);
        state.seal();
        prop_assert_eq!(view(&commit.after), view(&state), "commit {} stored something else", n);
        check_waitlists(&commit.after)?;
        for (key, ok) in keys {
            // The store refuses a key twice; a second one would show here.
            prop_assert!(committed_in.insert(key.clone(), (ok, state.clone())).is_none(), "{} committed twice", key);
        }
    }
    Ok(Replay { state, committed_in, moved_by_other_node })
}

/// A stored state is the replay's, whose every step admitted nobody over a
/// limit; and it has a waitlist only while the role is full, in acceptance
/// order.
fn check_waitlists(stored: &EventState) -> Result<(), TestCaseError> {
    for role in ROLES {
        let count = stored.attending_count(role);
        if let Some(limit) = stored.limit(role) {
            if stored.waitlist_count(role) > 0 {
                prop_assert!(count >= limit, "{role:?} has room and a waitlist");
            }
        } else {
            prop_assert_eq!(stored.waitlist_count(role), 0);
        }
        let seqs: Vec<i64> = stored.waitlist(role).map(|r| r.accepted_seq).collect();
        prop_assert!(seqs.windows(2).all(|w| w[0] < w[1]), "{:?} waitlist not FIFO", role);
    }
    Ok(())
}

/// What callers were told agrees with what committed, and every command id
/// answered "ok" somewhere is in the store.
fn check_replies(
    replies: &[(String, Op, Result<EventReply, ActorError>)],
    committed_in: &HashMap<String, (bool, EventState)>,
) -> Result<(), TestCaseError> {
    for (key, op, reply) in replies {
        match (reply, committed_in.get(key)) {
            // Its batch failed (or was abandoned): fine, as long as it
            // was not half-applied, which the replay above rules out.
            (Err(e), _) if !e.is_decided() => {}
            (Ok(reply), Some((true, after))) => {
                let expected = match subject(op) {
                    Some(user) => EventReply::Rsvp(after.reply_for(&user).unwrap()),
                    None => EventReply::Event { version: after.version() },
                };
                prop_assert_eq!(reply, &expected, "{} ({:?}) told something else than it committed", key, op);
            }
            (Err(_), Some((false, _))) => {}
            (reply, committed) => {
                return Err(TestCaseError::fail(format!(
                    "{key} ({op:?}) was told {reply:?} but committed as {:?}",
                    committed.map(|c| c.0)
                )));
            }
        }
    }
    let told_ok: HashSet<&str> = replies.iter().filter(|r| r.2.is_ok()).map(|r| r.0.as_str()).collect();
    for key in told_ok {
        prop_assert!(committed_in.get(key).is_some_and(|c| c.0), "{} acknowledged but lost", key);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn pipelined_batches_agree_with_the_replayed_commit_log(
        limits in (limit(), limit()),
        sends in prop::collection::vec((moment(), op()), 1..28),
        repeats in prop::collection::vec((moment(), any::<usize>()), 0..6),
        troubles in prop::collection::vec((moment(), trouble()), 0..5),
    ) {
        let run = run(limits, &sends, &repeats, &troubles);
        check(limits, &sends, &run)?;
    }
}
