//! The event actor end to end against an in-memory store: group commit,
//! no overbooking under concurrency (one node and two), command-id replay,
//! conflict reloads, failures, idle stop.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use futures_util::future::join_all;
use rinkside_actors::event::{EventCommand, RsvpAnswer, RsvpStatus};
use rinkside_actors::hockey::Role;
use rinkside_actors::{ActorConfig, Arbiters, Envelope, EventRegistry, EventStore, Position, Publisher};

use common::{MemStore, Recorder, attend, rsvp, rsvp_reply};

const EVENT: &str = "ev1";

fn registry(store: &Arc<MemStore>, publisher: &Arc<Recorder>, arbiters: Arbiters) -> EventRegistry {
    registry_with(store, publisher, arbiters, ActorConfig::default())
}

fn registry_with(
    store: &Arc<MemStore>,
    publisher: &Arc<Recorder>,
    arbiters: Arbiters,
    config: ActorConfig,
) -> EventRegistry {
    let store: Arc<dyn EventStore> = store.clone();
    let publisher: Arc<dyn Publisher> = publisher.clone();
    EventRegistry::new(store, publisher, arbiters, config)
}

/// 200 people: every tenth a goalie.
fn crowd() -> Vec<(String, Position)> {
    (0..200)
        .map(|i| {
            let position = if i % 10 == 0 { Position::Goalie } else { Position::LeftWing };
            (format!("u{i:03}"), position)
        })
        .collect()
}

#[actix::test]
async fn two_hundred_concurrent_rsvps_fill_exactly_the_eleven_places() {
    let store = MemStore::new();
    store.add_event(EVENT, Some(10), Some(1));
    let bus = Recorder::new();
    // Small batches, so the burst spans several commits and pushes.
    let config = ActorConfig { max_batch: 32, ..ActorConfig::default() };
    let events = registry_with(&store, &bus, Arbiters::spawn(2).unwrap(), config);

    let people = crowd();
    let replies = join_all(people.iter().map(|(u, p)| events.send(EVENT, attend(u, *p)))).await;

    let state = store.event_state(EVENT);
    assert_eq!(state.attending_count(Role::Skater), 10);
    assert_eq!(state.attending_count(Role::Goalie), 1);
    for role in [Role::Skater, Role::Goalie] {
        let seqs: Vec<i64> = state.waitlist(role).map(|r| r.accepted_seq).collect();
        assert!(seqs.windows(2).all(|w| w[0] < w[1]), "{role:?} waitlist out of acceptance order");
        let ranks: Vec<i64> = state.waitlist(role).map(|r| state.waitlist_rank(&r.user_id).unwrap()).collect();
        assert_eq!(ranks, (1..=ranks.len() as i64).collect::<Vec<_>>(), "{role:?} ranks not contiguous");
    }
    assert_eq!(state.waitlist_count(Role::Skater), 170);
    assert_eq!(state.waitlist_count(Role::Goalie), 19);

    // Every reply agrees with the committed state (nobody left, so nothing
    // moved after their batch).
    for ((user, _), reply) in people.iter().zip(replies) {
        let reply = rsvp_reply(reply);
        let row = state.rsvp(user).unwrap();
        assert_eq!(reply.status, row.status, "{user}");
        assert_eq!(reply.waitlist_rank, state.waitlist_rank(user), "{user}");
        assert!(reply.version <= state.version());
    }

    // Group commit: far fewer commits than commands. During the burst the
    // document goes out at most every publish_interval, seqs increasing;
    // the final state always does.
    let commits = store.commits.load(Ordering::SeqCst);
    assert!(commits < people.len(), "{commits} commits for {} commands", people.len());
    assert!(commits >= people.len() / 32, "batches are bounded by max_batch");
    // The actor publishes right after replying; a snapshot request queues
    // behind that, so once it answers every push is recorded.
    let (version, _) = events.snapshot(EVENT).await.unwrap();
    assert_eq!(version, state.version());
    let pushes = bus.on("event:ev1");
    assert!((1..=commits).contains(&pushes.len()), "{} pushes for {commits} commits", pushes.len());
    assert!(pushes.windows(2).all(|w| w[0].0 < w[1].0), "seqs must increase");
    let (last_seq, last_doc) = pushes.last().unwrap();
    assert_eq!(*last_seq, state.version());
    assert_eq!(last_doc["counts"]["skaters"], 10);
    assert_eq!(last_doc["counts"]["waitlistSkaters"], 170);
}

#[actix::test]
async fn with_no_publish_interval_every_commit_is_pushed_in_order() {
    let store = MemStore::new();
    store.add_event(EVENT, Some(10), Some(1));
    let bus = Recorder::new();
    let config = ActorConfig { max_batch: 32, publish_interval: Duration::ZERO, ..ActorConfig::default() };
    let events = registry_with(&store, &bus, Arbiters::spawn(2).unwrap(), config);
    let people = crowd();
    join_all(people.iter().map(|(u, p)| events.send(EVENT, attend(u, *p)))).await;
    events.snapshot(EVENT).await.unwrap();
    let commits = store.commits.load(Ordering::SeqCst);
    let seqs: Vec<i64> = bus.on("event:ev1").iter().map(|(seq, _)| *seq).collect();
    assert_eq!(seqs, (2..2 + commits as i64).collect::<Vec<_>>());
}

#[actix::test]
async fn a_batch_of_commands_is_committed_in_one_store_commit() {
    let store = MemStore::new();
    store.add_event(EVENT, None, None);
    let events = registry(&store, &Recorder::new(), Arbiters::current().unwrap());
    // Started on this thread, the actor cannot run before all 50 are queued.
    let replies = join_all((0..50).map(|i| events.send(EVENT, attend(&format!("u{i}"), Position::Center)))).await;
    assert!(replies.iter().all(Result::is_ok));
    assert_eq!(store.commits.load(Ordering::SeqCst), 1);
    assert_eq!(store.event(EVENT).version, 2, "one batch, one version");
}

#[actix::test]
async fn two_nodes_on_one_store_never_overbook() {
    let store = MemStore::new();
    store.add_event(EVENT, Some(10), Some(1));
    let bus = Recorder::new();
    let node_a = registry(&store, &bus, Arbiters::spawn(1).unwrap());
    let node_b = registry(&store, &bus, Arbiters::spawn(1).unwrap());

    let people = crowd();
    let replies = join_all(people.iter().enumerate().map(|(i, (u, p))| {
        let node = if i % 2 == 0 { &node_a } else { &node_b };
        node.send(EVENT, attend(u, *p))
    }))
    .await;

    let state = store.event_state(EVENT);
    assert_eq!(state.attending_count(Role::Skater), 10);
    assert_eq!(state.attending_count(Role::Goalie), 1);
    assert_eq!(state.waitlist_count(Role::Skater) + state.waitlist_count(Role::Goalie), 189);
    let attending_replies = replies.into_iter().map(rsvp_reply).filter(|r| r.status == RsvpStatus::Attending).count();
    assert_eq!(attending_replies, 11, "exactly the people attending were told so");
    // Pushes from both nodes carry distinct versions (the store serialised them).
    let mut seqs: Vec<i64> = bus.on("event:ev1").iter().map(|(s, _)| *s).collect();
    let total = seqs.len();
    seqs.sort();
    seqs.dedup();
    assert_eq!(seqs.len(), total);
}

#[actix::test]
async fn a_node_with_a_stale_copy_reloads_and_decides_again() {
    let store = MemStore::new();
    store.add_event(EVENT, Some(1), None);
    let bus = Recorder::new();
    let node_a = registry(&store, &bus, Arbiters::current().unwrap());
    let node_b = registry(&store, &bus, Arbiters::current().unwrap());

    // Node A loads the event while it is empty...
    rsvp_reply(node_a.send(EVENT, rsvp("x", RsvpAnswer::Declined, Position::Center)).await);
    // ...node B fills the only place...
    let b = rsvp_reply(node_b.send(EVENT, attend("b", Position::Center)).await);
    assert_eq!(b.status, RsvpStatus::Attending);
    // ...so node A's stale copy must not admit a second skater.
    let a = rsvp_reply(node_a.send(EVENT, attend("a", Position::Center)).await);
    assert_eq!(a.status, RsvpStatus::Waitlisted);
    assert!(store.conflicts.load(Ordering::SeqCst) >= 1);
    assert_eq!(a.version, store.event(EVENT).version);
}

#[actix::test]
async fn replaying_a_command_id_answers_the_first_reply() {
    let store = MemStore::new();
    store.add_event(EVENT, Some(1), None);
    let bus = Recorder::new();
    let events = registry(&store, &bus, Arbiters::current().unwrap());

    rsvp_reply(events.send(EVENT, attend("a", Position::Center)).await);
    let first = rsvp_reply(events.send(EVENT, attend("b", Position::Center).with_command_id("b:1")).await);
    assert_eq!((first.status, first.waitlist_rank), (RsvpStatus::Waitlisted, Some(1)));

    // The world moves on: b is promoted...
    rsvp_reply(events.send(EVENT, rsvp("a", RsvpAnswer::Declined, Position::Center)).await);
    // ...but a retry of b's command answers what b was first told.
    let replay = rsvp_reply(events.send(EVENT, attend("b", Position::Center).with_command_id("b:1")).await);
    assert_eq!(replay, first);

    // Also from a node that never saw it (the store remembers).
    let other = registry(&store, &bus, Arbiters::current().unwrap());
    let replay = rsvp_reply(other.send(EVENT, attend("b", Position::Center).with_command_id("b:1")).await);
    assert_eq!(replay, first);
}

#[actix::test]
async fn a_rejected_command_is_replayed_as_the_same_error() {
    let store = MemStore::new();
    store.add_event(EVENT, None, None);
    let events = registry(&store, &Recorder::new(), Arbiters::current().unwrap());
    let remove = || Envelope::new("org", EventCommand::Remove { user_id: "ghost".into() }).with_command_id("org:9");
    let first = events.send(EVENT, remove()).await.unwrap_err();
    assert_eq!(first.code(), "not_found");
    rsvp_reply(events.send(EVENT, attend("ghost", Position::Center)).await);
    let replay = events.send(EVENT, remove()).await.unwrap_err();
    assert_eq!(replay, first, "the replay does not remove the now-attending person");
    assert_eq!(store.event_state(EVENT).rsvp("ghost").unwrap().status, RsvpStatus::Attending);
}

#[actix::test]
async fn the_same_command_id_twice_in_one_batch_applies_once() {
    let store = MemStore::new();
    store.add_event(EVENT, Some(1), None);
    let events = registry(&store, &Recorder::new(), Arbiters::current().unwrap());
    let (first, second) = futures_util::join!(
        events.send(EVENT, rsvp("a", RsvpAnswer::Attending, Position::Center).with_command_id("a:1")),
        events.send(EVENT, rsvp("a", RsvpAnswer::Declined, Position::Center).with_command_id("a:1")),
    );
    assert_eq!(first.unwrap(), second.unwrap());
    assert_eq!(store.event_state(EVENT).rsvp("a").unwrap().status, RsvpStatus::Attending);
    assert_eq!(store.committed_results.load(Ordering::SeqCst), 1);
}

#[actix::test]
async fn a_rejected_command_does_not_spoil_its_batch() {
    let store = MemStore::new();
    store.add_event(EVENT, None, None);
    let events = registry(&store, &Recorder::new(), Arbiters::current().unwrap());
    let (ok1, bad, ok2) = futures_util::join!(
        events.send(EVENT, attend("a", Position::Center)),
        events.send(EVENT, Envelope::new("org", EventCommand::SetLimits { max_skaters: Some(-3), max_goalies: None })),
        events.send(EVENT, attend("b", Position::Goalie)),
    );
    assert_eq!(bad.unwrap_err().code(), "validation_failed");
    assert_eq!(rsvp_reply(ok1).status, RsvpStatus::Attending);
    assert_eq!(rsvp_reply(ok2).status, RsvpStatus::Attending);
    assert_eq!(store.commits.load(Ordering::SeqCst), 1);
}

#[actix::test]
async fn names_come_from_the_store_and_an_unknown_person_is_refused_alone() {
    let store = MemStore::new();
    store.add_event(EVENT, None, None);
    store.delete_person("gone");
    let events = registry(&store, &Recorder::new(), Arbiters::current().unwrap());
    let (ok, gone) = futures_util::join!(
        events.send(EVENT, attend("a", Position::Center)),
        events.send(EVENT, attend("gone", Position::LeftWing))
    );
    assert_eq!(rsvp_reply(ok).status, RsvpStatus::Attending);
    assert_eq!(gone.unwrap_err().code(), "not_found");
    let row = store.event(EVENT);
    assert_eq!(row.rsvps["a"].display_name, "Name a");
    assert!(!row.rsvps.contains_key("gone"));
}

#[actix::test]
async fn an_unknown_event_answers_not_found_and_keeps_no_actor() {
    let store = MemStore::new();
    let events = registry(&store, &Recorder::new(), Arbiters::current().unwrap());
    let err = events.send("nope", attend("a", Position::Center)).await.unwrap_err();
    assert_eq!(err.code(), "not_found");
    assert!(!events.is_live("nope"));
}

#[actix::test]
async fn a_snapshot_never_starts_an_actor() {
    let store = MemStore::new();
    store.add_event(EVENT, Some(5), None);
    let events = registry(&store, &Recorder::new(), Arbiters::current().unwrap());
    assert!(events.snapshot(EVENT).await.is_none());
    assert!(!events.is_live(EVENT));
    let reply = rsvp_reply(events.send(EVENT, attend("a", Position::Center)).await);
    let (version, doc) = events.snapshot(EVENT).await.unwrap();
    assert_eq!(version, reply.version);
    assert_eq!(doc.version, reply.version);
    assert_eq!(doc.attending[0].user_id, "a");
}

#[actix::test]
async fn a_failed_commit_tells_nobody_ok_and_the_next_command_reloads() {
    let store = MemStore::new();
    store.add_event(EVENT, Some(1), None);
    let bus = Recorder::new();
    let events = registry(&store, &bus, Arbiters::current().unwrap());
    rsvp_reply(events.send(EVENT, attend("a", Position::Center)).await);
    store.fail_next_commit.store(true, Ordering::SeqCst);
    let err = events.send(EVENT, attend("b", Position::Center)).await.unwrap_err();
    assert_eq!(err.code(), "internal");
    assert!(store.event_state(EVENT).rsvp("b").is_none());
    let retry = rsvp_reply(events.send(EVENT, attend("b", Position::Center)).await);
    assert_eq!(retry.status, RsvpStatus::Waitlisted);
    assert_eq!(bus.on("event:ev1").len(), 2, "nothing was pushed for the failed batch");
}

#[actix::test]
async fn an_actor_that_panics_is_replaced_by_one_that_reloads_from_the_store() {
    let store = MemStore::new();
    store.add_event(EVENT, Some(1), None);
    let events = registry(&store, &Recorder::new(), Arbiters::spawn(1).unwrap());
    rsvp_reply(events.send(EVENT, attend("a", Position::Center)).await);
    // Forget the loaded state (a failed commit) so the next batch loads,
    // and make that load panic.
    store.fail_next_commit.store(true, Ordering::SeqCst);
    assert!(events.send(EVENT, attend("b", Position::Center)).await.is_err());
    store.panic_next_load.store(true, Ordering::SeqCst);
    let err = events.send(EVENT, attend("b", Position::Center)).await.unwrap_err();
    assert_eq!(err.code(), "internal");
    assert!(!events.is_live(EVENT), "the dead actor is not reported live");
    let b = rsvp_reply(events.send(EVENT, attend("b", Position::Center)).await);
    assert_eq!(b.status, RsvpStatus::Waitlisted, "the fresh actor saw a's stored place");
}

#[actix::test]
async fn an_idle_actor_stops_and_the_next_command_starts_a_fresh_one() {
    tokio::time::pause();
    let store = MemStore::new();
    store.add_event(EVENT, None, None);
    let events = registry(&store, &Recorder::new(), Arbiters::current().unwrap());
    rsvp_reply(events.send(EVENT, attend("a", Position::Center)).await);
    assert!(events.is_live(EVENT));

    tokio::time::sleep(Duration::from_secs(4 * 60)).await;
    assert!(events.is_live(EVENT), "not idle long enough yet");
    tokio::time::sleep(Duration::from_secs(2 * 60)).await;
    assert!(!events.is_live(EVENT));
    assert_eq!(events.live_count(), 0);

    let b = rsvp_reply(events.send(EVENT, attend("b", Position::Center)).await);
    assert_eq!(b.version, 3, "the new actor loaded the stored version");
    assert!(events.is_live(EVENT));
}

#[actix::test]
async fn the_doors_are_send_so_servers_can_spawn_them() {
    fn assert_send<T: Send + 'static>(_: &T) {}
    let store = MemStore::new();
    store.add_event(EVENT, None, None);
    let events = registry(&store, &Recorder::new(), Arbiters::current().unwrap());
    let send = events.send(EVENT, attend("a", Position::Center));
    assert_send(&send);
    let snapshot = events.snapshot(EVENT);
    assert_send(&snapshot);
    assert!(send.await.is_ok());
}

#[actix::test]
async fn a_command_id_reused_for_a_different_command_is_refused_and_changes_nothing() {
    let store = MemStore::new();
    store.add_event(EVENT, Some(1), None);
    let bus = Recorder::new();
    let events = registry(&store, &bus, Arbiters::current().unwrap());
    let attend_b = || attend("b", Position::Center).with_command_id("b:1").with_fingerprint("attend");
    let decline_b =
        || rsvp("b", RsvpAnswer::Declined, Position::Center).with_command_id("b:1").with_fingerprint("decline");

    let first = rsvp_reply(events.send(EVENT, attend_b()).await);
    assert_eq!(first.status, RsvpStatus::Attending);
    let reused = events.send(EVENT, decline_b()).await.unwrap_err();
    assert_eq!(reused.code(), "idempotency_key_reused");
    assert_eq!(store.event_state(EVENT).rsvp("b").unwrap().status, RsvpStatus::Attending);
    // The same command with the same id still replays its first reply.
    assert_eq!(rsvp_reply(events.send(EVENT, attend_b()).await), first);
    // A node that never saw it reads the fingerprint from the store.
    let other = registry(&store, &bus, Arbiters::current().unwrap());
    assert_eq!(other.send(EVENT, decline_b()).await.unwrap_err().code(), "idempotency_key_reused");

    // Both in one batch: the first is decided, the second refused.
    let (x, y) = futures_util::join!(
        events.send(EVENT, attend("c", Position::Center).with_command_id("c:1").with_fingerprint("attend")),
        events.send(
            EVENT,
            rsvp("c", RsvpAnswer::Declined, Position::Center).with_command_id("c:1").with_fingerprint("decline")
        ),
    );
    assert!(x.is_ok());
    assert_eq!(y.unwrap_err().code(), "idempotency_key_reused");
}
