//! The subscribers of a chaos run as a group ([`Audience`]): spread over
//! the nodes and the topics (every event's, signed in as the users, and the
//! game's, signed out), watched until they converge to the final state,
//! and their part of the report ([`Subscribers`]).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use serde::Serialize;
use serde_json::Value;
use tokio::sync::watch;
use tokio::task::JoinSet;
use tracing::info;

use super::setup::Setup;
use super::subscriber::{Held, SubSpec, TopicKind, subscriber};
use crate::chaos_check::{Change, delivery_lags};
use crate::cli::ChaosArgs;
use crate::fleet::ErrorTally;
use crate::net::Endpoint;
use crate::stats::{Recorder, Summary};

/// How long every subscriber may take to get its first snapshot.
const SUBSCRIBE_TIMEOUT: Duration = Duration::from_secs(30);

/// One subscriber as the scenario watches it.
pub struct Sub {
    /// Its topic: an index into [`Audience::topics`].
    pub topic: usize,
    pub kind: TopicKind,
    pub held: Arc<Mutex<Held>>,
}

impl Sub {
    fn held(&self) -> MutexGuard<'_, Held> {
        self.held.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Every subscriber of the run.
pub struct Audience {
    pub subs: Vec<Sub>,
    /// `(name, kind)` of every topic: the events', then the game's.
    pub topics: Vec<(String, TopicKind)>,
    tasks: JoinSet<()>,
    stop: watch::Sender<bool>,
}

impl Audience {
    /// `--event-subscribers` on every event and `--game-subscribers` on the
    /// game, spread over the nodes; returns once each has its snapshot.
    pub async fn subscribe(args: &ChaosArgs, setup: &Setup, endpoints: Arc<Vec<Arc<Endpoint>>>) -> Result<Self> {
        let (stop, stop_rx) = watch::channel(false);
        let mut topics: Vec<(String, TopicKind)> =
            setup.events.iter().map(|e| (format!("event:{e}"), TopicKind::Event)).collect();
        topics.push((format!("game:{}", setup.game_id), TopicKind::Game));
        let game_topic = topics.len() - 1;
        let mut plan = Vec::new();
        for e in 0..setup.events.len() {
            plan.extend(std::iter::repeat_n(e, args.event_subscribers));
        }
        plan.extend(std::iter::repeat_n(game_topic, args.game_subscribers));
        let mut audience = Self { subs: Vec::new(), topics, tasks: JoinSet::new(), stop };
        for (i, topic) in plan.into_iter().enumerate() {
            let (name, kind) = audience.topics[topic].clone();
            let token = (kind == TopicKind::Event).then(|| setup.users[i % setup.users.len()].token.clone());
            let held = Arc::new(Mutex::new(Held::default()));
            let spec = SubSpec { topic: name, token, endpoints: endpoints.clone(), home: i % endpoints.len() };
            audience.tasks.spawn(subscriber(spec, held.clone(), stop_rx.clone()));
            audience.subs.push(Sub { topic, kind, held });
        }
        let deadline = Instant::now() + SUBSCRIBE_TIMEOUT;
        while audience.subs.iter().any(|s| s.held().seq.is_none()) {
            if Instant::now() > deadline {
                bail!("not every subscriber got its snapshot within 30 s");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        info!(subscribers = audience.subs.len(), "subscribed");
        Ok(audience)
    }

    /// The game's topic (the last).
    pub fn game_topic(&self) -> usize {
        self.topics.len() - 1
    }

    /// Waits until every subscriber holds its topic's final seq and
    /// document (`truth`), or `settle` passes; then stops them all. When
    /// each one converged.
    pub async fn converge(&mut self, truth: &[(u64, Value)], settle: Duration) -> Vec<Option<Instant>> {
        let settle_until = Instant::now() + settle;
        let mut converged_at: Vec<Option<Instant>> = vec![None; self.subs.len()];
        loop {
            for (i, sub) in self.subs.iter().enumerate() {
                if converged_at[i].is_none() {
                    let h = sub.held();
                    if h.seq == Some(truth[sub.topic].0) && h.doc(sub.kind).as_ref() == Some(&truth[sub.topic].1) {
                        converged_at[i] = Some(Instant::now());
                    }
                }
            }
            if converged_at.iter().all(Option::is_some) || Instant::now() > settle_until {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let _ = self.stop.send(true);
        while self.tasks.join_next().await.is_some() {}
        converged_at
    }

    /// Every topic's final version, by name.
    pub fn final_versions(&self, truth: &[(u64, Value)]) -> BTreeMap<String, u64> {
        truth.iter().zip(&self.topics).map(|((version, _), (name, _))| (name.clone(), *version)).collect()
    }

    /// The subscribers' part of the report: who converged and how fast,
    /// their drops and resyncs, and the lag of every acknowledged change
    /// (`changes`) to each subscriber of its topic.
    pub fn report(
        &self,
        converged_at: &[Option<Instant>],
        truth: &[(u64, Value)],
        changes: &[Change],
        windows: &[(Instant, Instant)],
    ) -> Subscribers {
        let mut s = Subscribers {
            total: self.subs.len(),
            converged: converged_at.iter().filter(|c| c.is_some()).count(),
            ..Subscribers::default()
        };
        let mut timelines = Vec::new();
        let (mut converge, mut resync) = (Recorder::new(), Recorder::new());
        for (i, sub) in self.subs.iter().enumerate() {
            let h = sub.held();
            let (topic, final_seq) = (sub.topic, truth[sub.topic].0);
            timelines.push((topic, h.timeline.clone()));
            let last_ack = changes.iter().filter(|c| c.topic == topic).map(|c| c.acked_at).max();
            let reached = h.timeline.iter().find(|(_, seq)| *seq >= final_seq).map(|(t, _)| *t);
            match converged_at[i] {
                Some(_) => {
                    if let (Some(reached), Some(last_ack)) = (reached, last_ack) {
                        converge.record(reached.saturating_duration_since(last_ack));
                    }
                }
                None => s.not_converged.push(format!(
                    "subscriber {i} of {} holds seq {:?}{}, the final is {final_seq}",
                    self.topics[topic].0,
                    h.seq,
                    if h.seq == Some(final_seq) { " with a different document" } else { "" },
                )),
            }
            for d in &h.resync {
                resync.record(*d);
            }
            s.connection_drops += u64::from(h.drops);
            s.stale_snapshots += u64::from(h.stale_snapshots);
            s.stale_updates += u64::from(h.stale_updates);
            for (k, n) in h.errors.iter() {
                s.errors.add_n(k, n);
            }
        }
        let lags = delivery_lags(changes, &timelines, windows);
        s.final_state_after_last_ack = converge.summary();
        s.resync_after_drop = resync.summary();
        (s.lag_calm, s.lag_disrupted, s.lag_missed) = (lags.calm.summary(), lags.disrupted.summary(), lags.missed);
        s
    }
}

/// The subscribers' part of the report.
#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Subscribers {
    pub total: usize,
    pub converged: usize,
    pub not_converged: Vec<String>,
    /// From the last acknowledged change of its topic to the moment each
    /// subscriber held the final state.
    pub final_state_after_last_ack: Summary,
    pub connection_drops: u64,
    /// From losing a connection to the snapshot on the next one.
    pub resync_after_drop: Summary,
    /// Every (acknowledged change, subscriber of its topic): from the HTTP
    /// answer to the subscriber holding that version or newer.
    pub lag_calm: Summary,
    /// The same for changes acknowledged during a disruption (a node down
    /// until `--window` after it is back; `--window` after a Redis drop):
    /// the reconvergence time.
    pub lag_disrupted: Summary,
    /// Pairs never caught up with (0 when every subscriber converged).
    pub lag_missed: u64,
    pub stale_snapshots: u64,
    pub stale_updates: u64,
    pub errors: ErrorTally,
}
