//! `chat`: team chat under load (docs/chat.md, issue 30). N conversations
//! (events, each with M people in) with K of each conversation's members
//! watching on a socket — on one node, or split over two (`--url2`) — and
//! messages posted at a steady rate from random members. For each message:
//! the time from sending it to the last open screen of its conversation
//! having it; after the run, that every acknowledged message is stored
//! once and that no screen missed one.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use futures_util::{StreamExt, TryStreamExt, stream};
use serde::Serialize;
use tokio::sync::mpsc;
use tokio::task::JoinSet;
use tracing::info;

use super::{Nodes, Outcome};
use crate::api::{Api, Session, run_tag};
use crate::cli::ChatArgs;
use crate::net::raise_nofile;
use crate::stats::{Recorder, Summary};
use crate::ws::follow;

/// How long every screen may take to open.
const OPEN_TIMEOUT: Duration = Duration::from_secs(120);

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Report {
    urls: Vec<String>,
    conversations: usize,
    members: usize,
    open_screens: usize,
    rate_per_sec: u32,
    seconds: u64,
    sent: usize,
    acknowledged: usize,
    /// Sends the server refused or that failed (none expected).
    send_errors: usize,
    /// `POST …/messages` round trip: the commit is inside it.
    post_latency: Summary,
    /// From sending a message to the last open screen of its conversation
    /// having it.
    to_last_screen: Summary,
    /// Deliveries of acknowledged messages that never reached an open screen.
    deliveries_missed: usize,
    /// Acknowledged messages not stored (or stored twice) after the run.
    messages_lost: usize,
}

struct Conversation {
    id: String,
    members: Vec<Session>,
}

/// One send: which message, where, when, how long its answer took, and the
/// id the server gave it (or why there is none).
struct Sent {
    n: usize,
    conversation: usize,
    at: Instant,
    took: Duration,
    id: Result<Option<String>>,
}

/// An acknowledged message: its number, conversation, when it was sent,
/// and its id.
type Acked = (usize, usize, Instant, String);

/// The number of a load-test message (its body is `lt {n}`) in an update
/// frame.
fn message_number(frame: &serde_json::Value) -> Option<usize> {
    frame["data"]["message"]["body"].as_str().and_then(|b| b.strip_prefix("lt ")?.parse().ok())
}

/// A conversation: an event with `members` people in (its organiser first).
async fn conversation(api: &Api, tag: &str, c: usize, members: usize) -> Result<Conversation> {
    let (org, _) = api.dev_token_retrying(&format!("lt{tag}c{c}m0")).await?;
    let event = api.create_event(&org.token, &format!("Chat load {c}"), None, None).await?;
    let mut people = vec![org];
    for m in 1..members {
        let (p, _) = api.dev_token_retrying(&format!("lt{tag}c{c}m{m}")).await?;
        api.rsvp(&p.token, &event, "ATTENDING", Some("CENTER")).await?;
        people.push(p);
    }
    Ok(Conversation { id: format!("event-{event}"), members: people })
}

pub async fn run(args: ChatArgs) -> Result<Outcome> {
    let nodes = Nodes::resolve(&args.url, args.url2.as_ref()).await?;
    let tag = run_tag();
    info!(conversations = args.conversations, members = args.members, "seeding conversations");
    let convs: Vec<Conversation> = stream::iter(0..args.conversations)
        .map(|c| {
            let (api, tag) = (nodes.apis[0].clone(), tag.clone());
            async move { conversation(&api, &tag, c, args.members).await }
        })
        .buffer_unordered(args.setup_concurrency)
        .try_collect()
        .await?;
    let convs = Arc::new(convs);

    let open = args.open.min(args.members);
    raise_nofile(open * convs.len() + 2 * args.setup_concurrency + usize::try_from(args.rate).unwrap_or(0) * 4 + 2_048)
        .context("raising the open-file limit")?;
    let (mut screens, mut got_rx) = open_screens(&nodes, &convs, open).await?;
    let total = (u64::from(args.rate) * args.seconds) as usize;
    let (acked, post_latency, send_errors) = send(&args, &nodes, &convs, &tag, total).await?;
    let (to_last, missed) = deliveries(&mut got_rx, &acked, open, Duration::from_secs(args.timeout)).await;
    screens.abort_all();
    info!("checking every conversation holds each acknowledged message once");
    let lost = lost(&args, &nodes.apis[0], &convs, &acked).await?;

    let report = Report {
        urls: nodes.endpoints.iter().map(|e| e.base_str().to_string()).collect(),
        conversations: convs.len(),
        members: args.members,
        open_screens: open * convs.len(),
        rate_per_sec: args.rate,
        seconds: args.seconds,
        sent: total,
        acknowledged: acked.len(),
        send_errors,
        post_latency: post_latency.summary(),
        to_last_screen: to_last.summary(),
        deliveries_missed: missed,
        messages_lost: lost,
    };
    let passed = report.send_errors == 0 && report.deliveries_missed == 0 && report.messages_lost == 0;
    Ok(Outcome { scenario: "chat", passed, human: report.human(), report: serde_json::to_value(&report)? })
}

/// `open` screens per conversation, its first members', over the nodes in
/// turn; returns once every one has its snapshot, with the channel they
/// report messages on.
async fn open_screens(
    nodes: &Nodes,
    convs: &[Conversation],
    open: usize,
) -> Result<(JoinSet<Result<()>>, mpsc::UnboundedReceiver<(usize, Instant)>)> {
    info!(screens = open * convs.len(), nodes = nodes.endpoints.len(), "opening screens");
    let (ready_tx, mut ready_rx) = mpsc::unbounded_channel();
    let (got_tx, got_rx) = mpsc::unbounded_channel();
    let mut screens = JoinSet::new();
    for conv in convs {
        for (i, m) in conv.members.iter().take(open).enumerate() {
            let ep = nodes.endpoints[i % nodes.endpoints.len()].clone();
            let topic = format!("chat:{}", conv.id);
            let (token, ready, got) = (m.token.clone(), ready_tx.clone(), got_tx.clone());
            screens.spawn(async move { follow(&ep, &token, &topic, ready, got, message_number).await });
        }
    }
    for _ in 0..open * convs.len() {
        tokio::time::timeout(OPEN_TIMEOUT, ready_rx.recv()).await.context("screens did not open in 120 s")?;
    }
    Ok((screens, got_rx))
}

/// Sends `total` messages at `--rate`, from the members in turn, over the
/// nodes in turn; the acknowledged, their round trips, and the sends that
/// failed.
async fn send(
    args: &ChatArgs,
    nodes: &Nodes,
    convs: &Arc<Vec<Conversation>>,
    tag: &str,
    total: usize,
) -> Result<(Vec<Acked>, Recorder, usize)> {
    info!(messages = total, rate = args.rate, "sending");
    let mut senders = JoinSet::new();
    let mut every = tokio::time::interval(Duration::from_secs_f64(1.0 / f64::from(args.rate.max(1))));
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Burst);
    for n in 0..total {
        every.tick().await;
        let c = n % convs.len();
        let author = (n / convs.len()) % convs[c].members.len();
        let (api, convs, tag) = (nodes.apis[n % nodes.apis.len()].clone(), convs.clone(), tag.to_owned());
        senders.spawn(async move {
            let at = Instant::now();
            let conv = &convs[c];
            let token = &conv.members[author].token;
            let reply = api.post_message(token, &conv.id, &format!("lt {n}"), &format!("{tag}-{n}")).await;
            Sent { n, conversation: c, at, took: at.elapsed(), id: reply.map(|m| m["id"].as_str().map(str::to_string)) }
        });
    }
    let mut post_latency = Recorder::new();
    let mut send_errors = 0usize;
    let mut acked: Vec<Acked> = Vec::new();
    while let Some(done) = senders.join_next().await {
        let sent = done.context("a sender task failed")?;
        match sent.id {
            Ok(Some(id)) => {
                post_latency.record(sent.took);
                acked.push((sent.n, sent.conversation, sent.at, id));
            }
            Ok(None) => send_errors += 1,
            Err(e) => {
                tracing::warn!("message {} not sent: {e:#}", sent.n);
                send_errors += 1;
            }
        }
    }
    Ok((acked, post_latency, send_errors))
}

/// Per message, how many screens had it and when the last did (waiting up
/// to `timeout`): from sending to the last of `open` screens, and the
/// deliveries missed.
async fn deliveries(
    got: &mut mpsc::UnboundedReceiver<(usize, Instant)>,
    acked: &[Acked],
    open: usize,
    timeout: Duration,
) -> (Recorder, usize) {
    let mut reached: HashMap<usize, (usize, Instant)> = HashMap::new();
    let deadline = tokio::time::Instant::now() + timeout;
    let wanted = acked.len() * open;
    let mut delivered = 0usize;
    while delivered < wanted {
        match tokio::time::timeout_at(deadline, got.recv()).await {
            Ok(Some((n, at))) => {
                let e = reached.entry(n).or_insert((0, at));
                e.0 += 1;
                e.1 = e.1.max(at);
                delivered += 1;
            }
            _ => break,
        }
    }
    let mut to_last = Recorder::new();
    let mut missed = 0usize;
    for (n, _, at, _) in acked {
        match reached.get(n) {
            Some((count, last)) => {
                missed += open.saturating_sub(*count);
                if *count >= open {
                    to_last.record(*last - *at);
                }
            }
            None => missed += open,
        }
    }
    (to_last, missed)
}

/// Acknowledged messages not stored exactly once in their conversation.
async fn lost(args: &ChatArgs, api: &Api, convs: &Arc<Vec<Conversation>>, acked: &[Acked]) -> Result<usize> {
    let mut by_conv: HashMap<usize, Vec<String>> = HashMap::new();
    for (_, c, _, id) in acked {
        by_conv.entry(*c).or_default().push(id.clone());
    }
    let lost: Vec<usize> = stream::iter(by_conv)
        .map(|(c, ids)| {
            let (api, convs) = (api.clone(), convs.clone());
            async move {
                let stored = stored(&api, &convs[c]).await?;
                anyhow::Ok(ids.iter().filter(|id| stored.get(*id) != Some(&1)).count())
            }
        })
        .buffer_unordered(args.setup_concurrency)
        .try_collect()
        .await?;
    Ok(lost.iter().sum())
}

/// How many times each message id is stored in a conversation, read page
/// by page.
async fn stored(api: &Api, conv: &Conversation) -> Result<HashMap<String, usize>> {
    let mut stored: HashMap<String, usize> = HashMap::new();
    let mut before: Option<i64> = None;
    loop {
        let q = before.map(|b| format!("&before={b}")).unwrap_or_default();
        let page =
            api.get_value(&format!("/api/v1/chats/{}/messages?limit=100{q}", conv.id), &conv.members[0].token).await?;
        for m in page["items"].as_array().cloned().unwrap_or_default() {
            *stored.entry(m["id"].as_str().unwrap_or_default().to_string()).or_default() += 1;
        }
        match page["nextBefore"].as_i64() {
            Some(b) => before = Some(b),
            None => break,
        }
    }
    Ok(stored)
}

impl Report {
    fn human(&self) -> String {
        let report = self;
        format!(
            "chat — {} conversations of {} ({} screens open, on {} node(s)), {} messages at {}/s\n  post latency    {}\n  to last screen  {}\n  completeness    {} of {} acknowledged; {} send errors; {} deliveries missed; {} messages lost\n",
            report.conversations,
            report.members,
            report.open_screens,
            report.urls.len(),
            report.sent,
            report.rate_per_sec,
            report.post_latency,
            report.to_last_screen,
            report.acknowledged,
            report.sent,
            report.send_errors,
            report.deliveries_missed,
            report.messages_lost,
        )
    }
}
