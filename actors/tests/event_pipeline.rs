//! Pipelined batches, step by step: with the store's commits held, the
//! actor reads and decides the next batch while one commits, starts its
//! commit the moment the first returns, and throws its decisions away when
//! the batch ahead did not commit as decided.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::sync::Arc;
use std::sync::atomic::Ordering;

use rinkside_actors::event::{EventCommand, EventReply, Person, RsvpAnswer, RsvpStatus};
use rinkside_actors::{ActorConfig, ActorError, Arbiters, Envelope, EventRegistry, EventStore, Position, Publisher};
use tokio::task::JoinHandle;

use common::{MemStore, Recorder, attend, rsvp_reply};

const EVENT: &str = "ev1";

fn setup(max_skaters: Option<i64>) -> (Arc<MemStore>, EventRegistry) {
    let store = MemStore::new();
    store.add_event(EVENT, max_skaters, None);
    store.hold_commits();
    let events_store: Arc<dyn EventStore> = store.clone();
    let publisher: Arc<dyn Publisher> = Recorder::new();
    let events = EventRegistry::new(
        events_store,
        publisher,
        Arbiters::current().unwrap(),
        ActorConfig { pipeline_from: 1, ..ActorConfig::default() },
    );
    (store, events)
}

/// Sends in the background, so the test can watch the store meanwhile.
fn send(events: &EventRegistry, envelope: Envelope<EventCommand>) -> JoinHandle<Result<EventReply, ActorError>> {
    actix::spawn(events.send(EVENT, envelope))
}

/// The answer of a background send; fails the test instead of hanging.
async fn answered(handle: JoinHandle<Result<EventReply, ActorError>>) -> Result<EventReply, ActorError> {
    tokio::time::timeout(std::time::Duration::from_secs(5), handle).await.expect("no answer in time").unwrap()
}

fn count(calls: &[String], call: &str) -> usize {
    calls.iter().filter(|c| c.starts_with(call)).count()
}

/// Lets the actor run whatever it can without the held commit.
async fn settle() {
    for _ in 0..50 {
        tokio::task::yield_now().await;
    }
}

#[actix::test]
async fn the_next_batch_is_read_and_decided_while_one_commits_and_commits_right_after_it() {
    let (store, events) = setup(None);
    let a = send(&events, attend("a", Position::Center));
    store.wait_for_calls("a's commit", |c| count(c, "commit v") == 1).await;

    let b = send(&events, attend("b", Position::Center));
    // b's batch reads its people while a's commit is still held...
    store.wait_for_calls("b's people read", |c| count(c, "people") == 2).await;
    settle().await;
    // ...but never commits beside it.
    assert_eq!(count(&store.calls(), "commit v"), 1, "two commits of one event in flight: {:?}", store.calls());
    assert!(!a.is_finished() && !b.is_finished(), "nobody is answered before their commit");

    store.release_commits(1);
    let a = rsvp_reply(answered(a).await);
    assert_eq!((a.status, a.version), (RsvpStatus::Attending, 2));
    store.wait_for_calls("b's commit", |c| count(c, "commit v") == 2).await;
    // Between a's commit returning and b's starting: no read, no load, no
    // lookup. b was decided already, on the state a committed.
    let calls = store.calls();
    let a_done = calls.iter().position(|c| c == "committed v2").unwrap();
    assert_eq!(&calls[a_done + 1..], ["commit v2"], "calls: {calls:?}");

    store.release_commits(1);
    let b = rsvp_reply(answered(b).await);
    assert_eq!((b.status, b.version), (RsvpStatus::Attending, 3));
    let versions: Vec<(i64, i64)> =
        store.event_commits.lock().unwrap().iter().map(|c| (c.expected_version, c.new_version)).collect();
    assert_eq!(versions, [(1, 2), (2, 3)]);
    assert_eq!(store.max_commits_in_flight.load(Ordering::SeqCst), 1);
}

#[actix::test]
async fn a_repeat_of_a_command_still_committing_is_answered_with_its_reply_and_not_decided_again() {
    let (store, events) = setup(Some(1));
    let first = send(&events, attend("a", Position::Center).with_command_id("a:1"));
    store.wait_for_calls("the first commit", |c| count(c, "commit v") == 1).await;
    // The retry arrives while the original commits; with it, someone else.
    let retry = send(&events, attend("a", Position::Center).with_command_id("a:1"));
    let b = send(&events, attend("b", Position::Center).with_command_id("b:1"));
    store.wait_for_calls("the second batch's read", |c| count(c, "people") == 2).await;
    settle().await;

    store.release_commits(2);
    let first = rsvp_reply(answered(first).await);
    let retry = rsvp_reply(answered(retry).await);
    let b = rsvp_reply(answered(b).await);
    assert_eq!(retry, first);
    assert_eq!(first.status, RsvpStatus::Attending);
    assert_eq!(b.status, RsvpStatus::Waitlisted);
    // No store conflict on a:1's key: the retry was never decided.
    assert_eq!(store.conflicts.load(Ordering::SeqCst), 0);
    let commits = store.event_commits.lock().unwrap().clone();
    let keys: Vec<Vec<String>> = commits.iter().map(|c| c.results.iter().map(|r| r.0.clone()).collect()).collect();
    assert_eq!(keys, [vec!["a:1".to_string()], vec!["b:1".to_string()]]);
}

#[actix::test]
async fn when_the_batch_ahead_fails_the_next_is_decided_again_after_a_reload() {
    let (store, events) = setup(Some(1));
    store.fail_next_commit.store(true, Ordering::SeqCst);
    let a = send(&events, attend("a", Position::Center).with_command_id("a:1"));
    store.wait_for_calls("a's commit", |c| count(c, "commit v") == 1).await;
    let b = send(&events, attend("b", Position::Center).with_command_id("b:1"));
    let retry = send(&events, attend("a", Position::Center).with_command_id("a:1"));
    store.wait_for_calls("b's read", |c| count(c, "people") == 2).await;
    settle().await;

    store.release_commits(1);
    assert_eq!(answered(a).await.unwrap_err().code(), "internal");
    // b was decided on a's decided state (a attending, b waitlisted); that
    // never committed, so b is decided again after a reload, and so is the
    // retry of a's command, which now really runs.
    store.wait_for_calls("the second commit", |c| count(c, "commit v") == 2).await;
    let calls = store.calls();
    let failed = calls.iter().position(|c| c == "failed").unwrap();
    assert!(calls[failed..].iter().any(|c| c == "load"), "calls: {calls:?}");
    assert!(calls[failed..].iter().any(|c| c == "find_results"), "stored replies looked up again: {calls:?}");
    assert_eq!(calls.last().unwrap(), "commit v1", "built on the stored version, not on the failed batch");

    store.release_commits(1);
    let b = rsvp_reply(answered(b).await);
    let retry = rsvp_reply(answered(retry).await);
    assert_eq!((b.status, b.version), (RsvpStatus::Attending, 2));
    assert_eq!((retry.status, retry.version), (RsvpStatus::Waitlisted, 2));
    let state = store.event_state(EVENT);
    assert_eq!(state.rsvp("b").unwrap().status, RsvpStatus::Attending);
    assert_eq!(state.rsvp("a").unwrap().status, RsvpStatus::Waitlisted);
}

#[actix::test]
async fn when_the_batch_ahead_is_retried_after_a_conflict_the_next_is_decided_on_what_it_committed() {
    let (store, events) = setup(Some(2));
    // Another node takes one of the two places just before a's commit.
    store.other_node_before_next_commit(
        EVENT,
        EventCommand::Rsvp {
            user_id: "x".into(),
            answer: RsvpAnswer::Attending,
            position: Some(Position::Center),
            person: Some(Person { display_name: "X".into(), preferred_position: None }),
            unlocked: false,
        },
    );
    let a = send(&events, attend("a", Position::Center));
    store.wait_for_calls("a's commit", |c| count(c, "commit v") == 1).await;
    // b is decided on a's decided state, where a and b both fit.
    let b = send(&events, attend("b", Position::Center));
    store.wait_for_calls("b's read", |c| count(c, "people") == 2).await;
    settle().await;

    store.release_commits(3);
    let a = rsvp_reply(answered(a).await);
    let b = rsvp_reply(answered(b).await);
    assert_eq!(a.status, RsvpStatus::Attending);
    assert_eq!(b.status, RsvpStatus::Waitlisted, "b must not take a place x already holds");
    assert_eq!(store.conflicts.load(Ordering::SeqCst), 1);
    let state = store.event_state(EVENT);
    assert_eq!(state.attending_count(rinkside_actors::Role::Skater), 2);
    assert_eq!(state.rsvp("b").unwrap().status, RsvpStatus::Waitlisted);
    let versions: Vec<(i64, i64)> =
        store.event_commits.lock().unwrap().iter().map(|c| (c.expected_version, c.new_version)).collect();
    assert_eq!(versions, [(1, 2), (2, 3), (3, 4)], "another node's commit, then a's, then b's");
}
