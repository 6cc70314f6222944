//! What every fleet of sockets does with its sockets' news — the
//! subscribers of [`super::Fleet`] and the arena displays of
//! [`crate::display::DisplayFleet`] alike: open them with a bounded number
//! of handshakes in flight while booking who settled ([`open_all`]), book
//! their updates and losses into a [`Collector`] and the reports
//! ([`Books`]) while the scenario drives changes ([`pump_until`]), and
//! wait for them to close ([`join_within`]).

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Result;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc};
use tokio::task::{JoinError, JoinSet};
use tracing::{info, warn};

use super::{AfterReport, OpenReport};
use crate::deliveries::Collector;
use crate::stats::{Recorder, rate};

/// A socket's news, as the books keep it.
#[derive(Debug)]
pub enum News {
    /// Subscribed (a display: and synced): the handshake's time, from
    /// sending the subscription to being ready, and the snapshot's seq.
    Subscribed { idx: usize, connect: Duration, ready: Duration, seq: u64 },
    /// Never got that far.
    Failed { error: String },
    /// An update frame, stamped when read.
    Update { idx: usize, seq: u64, at: Instant },
    /// An `error` frame after subscribing (the connection stays open).
    ServerError { error: String },
    /// Lost after subscribing (not at our request).
    Gone { idx: usize, reason: String },
    /// Nothing the books keep.
    Other,
}

/// A socket task's event, as news for the books: `opening` while the fleet
/// is still opening, when only the first subscription and a failure to
/// get there settle a socket.
pub trait IntoNews {
    fn news(self, opening: bool) -> News;
}

/// A subscriber's own news: the first subscription and a failure to get
/// there only settle it while the fleet opens.
impl IntoNews for News {
    fn news(self, opening: bool) -> News {
        match self {
            News::Subscribed { .. } | News::Failed { .. } if !opening => News::Other,
            news => news,
        }
    }
}

/// Where a fleet books its sockets' news.
pub struct Books<'a> {
    pub collector: &'a mut Collector,
    pub open: &'a mut OpenReport,
    pub after: &'a mut AfterReport,
}

impl Books<'_> {
    /// Books news of the opening; 1 if it settled a socket (subscribed or
    /// failed), `connect` and `ready` taking the times of the subscribed.
    fn settle(&mut self, news: News, connect: &mut Recorder, ready: &mut Recorder) -> usize {
        match news {
            News::Subscribed { idx, connect: c, ready: r, seq } => {
                connect.record(c);
                ready.record(r);
                self.open.subscribed += 1;
                self.collector.subscribed(idx, seq);
                1
            }
            News::Failed { error } => {
                self.open.failed += 1;
                self.open.errors.add(&error);
                1
            }
            other => {
                self.keep(other);
                0
            }
        }
    }

    /// Books what the sockets report while they watch.
    fn keep(&mut self, news: News) {
        match news {
            News::Update { idx, seq, at } => self.collector.update(idx, seq, at),
            News::ServerError { error } => self.after.server_errors.add(&error),
            News::Gone { idx, reason } => {
                self.after.disconnects.add(&reason);
                self.collector.gone(idx);
            }
            // Only news of the opening; `settle` books them.
            News::Subscribed { .. } | News::Failed { .. } | News::Other => {}
        }
    }

    /// Books a socket's event after the opening.
    pub fn handle(&mut self, event: impl IntoNews) {
        self.keep(event.news(false));
    }
}

/// How a fleet opens its sockets.
pub struct Opening {
    pub count: usize,
    /// Handshakes in flight at once.
    pub concurrency: usize,
    /// What the sockets are, for the progress log: "subscribers", "displays".
    pub noun: &'static str,
}

/// Spawns `opening.count` socket tasks (`spawn(idx, permit)`; the permit
/// bounds the handshakes in flight), booking what settles meanwhile, and
/// returns once every socket has subscribed or failed; the times and rate
/// of the opening are in `books.open`. `spawn` must own the events' last
/// sender outside the tasks (it is dropped once they are spawned).
pub async fn open_all<E: IntoNews>(
    events: &mut mpsc::UnboundedReceiver<E>,
    mut books: Books<'_>,
    opening: &Opening,
    mut spawn: impl FnMut(usize, OwnedSemaphorePermit) -> Result<()>,
) -> Result<()> {
    let semaphore = Arc::new(Semaphore::new(opening.concurrency.max(1)));
    let (mut connect, mut ready) = (Recorder::new(), Recorder::new());
    let started = Instant::now();
    let mut settled = 0usize;
    let step = (opening.count / 10).max(1);
    let noun = opening.noun;
    for idx in 0..opening.count {
        // Waiting for a permit is where the backpressure lives; meanwhile
        // account for what has settled so progress shows.
        let permit = loop {
            tokio::select! {
                permit = semaphore.clone().acquire_owned() => break permit?,
                Some(ev) = events.recv() => {
                    settled += books.settle(ev.news(true), &mut connect, &mut ready);
                    if settled.is_multiple_of(step) {
                        info!(settled, of = opening.count, "{noun} settled");
                    }
                }
            }
        };
        spawn(idx, permit)?;
    }
    // The tasks hold the only senders now: should they all end, so does
    // the wait.
    drop(spawn);
    while settled < opening.count {
        let Some(ev) = events.recv().await else { break };
        let n = books.settle(ev.news(true), &mut connect, &mut ready);
        settled += n;
        if n > 0 && settled.is_multiple_of(step) {
            info!(settled, of = opening.count, "{noun} settled");
        }
    }
    let ramp = started.elapsed();
    books.open.connect = connect.summary();
    books.open.subscribe = ready.summary();
    books.open.ramp_seconds = ramp.as_secs_f64();
    books.open.connections_per_sec = rate(books.open.subscribed as u64, ramp);
    if books.open.failed > 0 {
        warn!(failed = books.open.failed, "some {noun} failed");
    }
    Ok(())
}

/// Books news until `done` holds or `deadline` passes; true if done.
pub async fn pump_until<E: IntoNews>(
    events: &mut mpsc::UnboundedReceiver<E>,
    mut books: Books<'_>,
    deadline: tokio::time::Instant,
    done: impl Fn(&Collector) -> bool,
) -> bool {
    loop {
        if done(books.collector) {
            return true;
        }
        match tokio::time::timeout_at(deadline, events.recv()).await {
            Ok(Some(ev)) => books.handle(ev),
            Ok(None) => return done(books.collector),
            Err(_) => return false,
        }
    }
}

/// Books what has arrived (before the sockets are asked to stop), and the
/// frames that did not advance their seq.
pub fn drain<E: IntoNews>(events: &mut mpsc::UnboundedReceiver<E>, mut books: Books<'_>) {
    while let Ok(ev) = events.try_recv() {
        books.handle(ev);
    }
    books.after.non_increasing_seq = books.collector.non_increasing;
}

/// Waits for every task to end — aborting those still running after
/// `grace` — and hands back how each ended.
pub async fn join_within<T: 'static>(tasks: &mut JoinSet<T>, grace: Duration) -> Vec<Result<T, JoinError>> {
    let mut ended = Vec::new();
    let grace = tokio::time::sleep(grace);
    tokio::pin!(grace);
    loop {
        tokio::select! {
            joined = tasks.join_next() => match joined {
                Some(j) => ended.push(j),
                None => break,
            },
            _ = &mut grace => {
                warn!(left = tasks.len(), "closing took too long; aborting the rest");
                tasks.abort_all();
                break;
            }
        }
    }
    ended
}
