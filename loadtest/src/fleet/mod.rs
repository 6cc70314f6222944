//! A fleet of subscribers ([`Fleet`]): opens N sockets on one topic with
//! bounded concurrency, waits until every one has its snapshot (or failed),
//! then feeds their update frames into a [`Collector`] while the scenario
//! drives changes.
//!
//! - [`books`]: what every fleet does with its sockets' news (this one's
//!   and the arena displays');
//! - [`subscriber`]: one subscriber's socket;
//! - [`reports`]: the error tallies and the connection reports.

pub mod books;
mod reports;
mod subscriber;

use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;
use tokio::sync::{mpsc, watch};
use tokio::task::JoinSet;
use tracing::info;

use self::books::{Books, News, Opening, drain, join_within, open_all, pump_until};
pub use self::reports::{AfterReport, ErrorTally, OpenReport};
use self::subscriber::{SubscriberSpec, run_subscriber};
use crate::deliveries::Collector;
use crate::net::{Endpoint, SourcePool};

/// How long shutting the fleet down may take before we stop waiting for
/// close handshakes.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(15);

/// What a fleet is asked to do.
pub struct FleetOptions {
    /// Subscriber `i` connects to `endpoints[i % len]` (one node, or several
    /// round-robin).
    pub endpoints: Vec<Arc<Endpoint>>,
    pub count: usize,
    pub token: Option<Arc<str>>,
    pub topic: Arc<str>,
    /// Handshakes in flight at once; more overflows the server's accept
    /// backlog and turns into 1 s SYN retransmits that pollute connect times.
    pub concurrency: usize,
    pub sources: Arc<SourcePool>,
    pub ping_every: Option<Duration>,
    pub timeout: Duration,
}

pub struct Fleet {
    events: mpsc::UnboundedReceiver<News>,
    stop: watch::Sender<bool>,
    tasks: JoinSet<()>,
    pub collector: Collector,
    pub open: OpenReport,
    pub after: AfterReport,
}

impl Fleet {
    /// Opens every connection and returns once each has its snapshot or has
    /// failed.
    pub async fn open(opts: FleetOptions) -> Result<Self> {
        let (tx, events) = mpsc::unbounded_channel();
        let (stop, stop_rx) = watch::channel(false);
        let mut fleet = Self {
            events,
            stop,
            tasks: JoinSet::new(),
            collector: Collector::new(opts.count),
            open: OpenReport::empty(opts.count),
            after: AfterReport::default(),
        };
        info!(
            count = opts.count,
            topic = %opts.topic,
            nodes = opts.endpoints.len(),
            "opening subscribers"
        );
        if opts.endpoints.is_empty() {
            anyhow::bail!("no node to connect to");
        }
        let opening = Opening { count: opts.count, concurrency: opts.concurrency, noun: "subscribers" };
        let books = Books { collector: &mut fleet.collector, open: &mut fleet.open, after: &mut fleet.after };
        let tasks = &mut fleet.tasks;
        open_all(&mut fleet.events, books, &opening, move |idx, permit| {
            let spec = SubscriberSpec {
                idx,
                endpoint: opts.endpoints[idx % opts.endpoints.len()].clone(),
                source: opts.sources.next(),
                token: opts.token.clone(),
                topic: opts.topic.clone(),
                ping_every: opts.ping_every,
                timeout: opts.timeout,
            };
            tasks.spawn(run_subscriber(spec, tx.clone(), stop_rx.clone(), permit));
            Ok(())
        })
        .await?;
        Ok(fleet)
    }

    fn books(&mut self) -> (&mut mpsc::UnboundedReceiver<News>, Books<'_>) {
        (&mut self.events, Books { collector: &mut self.collector, open: &mut self.open, after: &mut self.after })
    }

    /// Processes events until `done` holds or `deadline` passes; true if done.
    pub async fn pump_until(&mut self, deadline: tokio::time::Instant, done: impl Fn(&Collector) -> bool) -> bool {
        let (events, books) = self.books();
        pump_until(events, books, deadline, done).await
    }

    /// Processes one event (for scenarios that `select!` on other work).
    pub async fn pump_one(&mut self) {
        let (events, mut books) = self.books();
        if let Some(ev) = events.recv().await {
            books.handle(ev);
        } else {
            // All senders gone: nothing more will come; don't spin.
            std::future::pending::<()>().await;
        }
    }

    /// Closes every connection and books what arrived meanwhile.
    pub async fn shutdown(&mut self) {
        // Book everything that arrived before we asked them to stop.
        let (events, books) = self.books();
        drain(events, books);
        let _ = self.stop.send(true);
        join_within(&mut self.tasks, SHUTDOWN_GRACE).await;
    }
}
