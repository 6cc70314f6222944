//! `feed`: one author with N followers posts, one post at a time. For each
//! post: the request's own latency (the fan-out to every follower is in its
//! transaction), the time until the last subscribed follower's socket has
//! the item, and — after the run — that every follower's feed holds every
//! post exactly once.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use futures_util::{SinkExt, StreamExt, TryStreamExt, stream};
use serde::Serialize;
use serde_json::{Value, json};
use tokio::sync::mpsc;
use tokio::task::JoinSet;
use tokio_tungstenite::tungstenite::Message;
use tracing::info;

use super::Outcome;
use crate::api::{Api, Session, run_tag};
use crate::cli::FeedArgs;
use crate::net::{Endpoint, connect_ws};
use crate::stats::{Recorder, Summary};

const SETUP_CONCURRENCY: usize = 32;

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Report {
    url: String,
    followers: usize,
    subscribed: usize,
    posts: usize,
    /// `POST /posts` round trip: the fan-out to every follower is inside it.
    post_latency: Summary,
    /// From sending the post to the last subscribed follower's socket
    /// having its item.
    push_to_last: Summary,
    /// Pushes that did not arrive within --timeout.
    pushes_missed: usize,
    /// Followers whose feed (first page) lacked a post after the run.
    feeds_missing_posts: usize,
    /// Feed rows the server wrote per second of post latency (followers / p50).
    fan_out_rows_per_sec: f64,
}

/// A subscriber: signs in on the socket, subscribes to `feed`, then reports
/// every POST_CREATED item's resource id as it arrives.
async fn subscriber(
    ep: Arc<Endpoint>,
    token: String,
    ready: mpsc::UnboundedSender<()>,
    got: mpsc::UnboundedSender<(String, Instant)>,
) -> Result<()> {
    let mut ws = connect_ws(&ep, None).await?;
    ws.send(Message::text(json!({"type": "auth", "token": token}).to_string())).await?;
    ws.send(Message::text(json!({"type": "subscribe", "topic": "feed"}).to_string())).await?;
    let mut subscribed = false;
    while let Some(msg) = ws.next().await {
        let Message::Text(text) = msg? else { continue };
        let frame: Value = serde_json::from_str(&text).unwrap_or_default();
        match frame["type"].as_str() {
            Some("snapshot") if !subscribed => {
                subscribed = true;
                let _ = ready.send(());
            }
            Some("update") if frame["data"]["type"] == "POST_CREATED" => {
                if let Some(id) = frame["data"]["resourceId"].as_str() {
                    let _ = got.send((id.to_string(), Instant::now()));
                }
            }
            Some("error") => anyhow::bail!("server error frame: {text}"),
            _ => {}
        }
    }
    Ok(())
}

pub async fn run(args: FeedArgs) -> Result<Outcome> {
    let ep = Arc::new(Endpoint::resolve(&args.url).await?);
    let api = Api::new(ep.base_str())?;
    let tag = run_tag();
    let author = api.dev_token(&format!("lt{tag}author")).await?;

    info!(followers = args.followers, "signing followers in and following the author");
    let followers: Vec<Session> = stream::iter(0..args.followers)
        .map(|i| {
            let (api, author) = (api.clone(), author.user_id.clone());
            let name = format!("lt{tag}f{i}");
            async move {
                let (session, _) = api.dev_token_retrying(&name).await?;
                api.follow_user(&session.token, &author).await?;
                anyhow::Ok(session)
            }
        })
        .buffer_unordered(SETUP_CONCURRENCY)
        .try_collect()
        .await?;

    let subscribed = args.subscribed.min(args.followers);
    info!(subscribed, "opening feeds on sockets");
    let (ready_tx, mut ready_rx) = mpsc::unbounded_channel();
    let (got_tx, mut got_rx) = mpsc::unbounded_channel();
    let mut tasks = JoinSet::new();
    for f in followers.iter().take(subscribed) {
        tasks.spawn(subscriber(ep.clone(), f.token.clone(), ready_tx.clone(), got_tx.clone()));
    }
    for _ in 0..subscribed {
        tokio::time::timeout(Duration::from_secs(60), ready_rx.recv()).await.context("feeds did not open in 60 s")?;
    }

    let mut post_latency = Recorder::new();
    let mut push_to_last = Recorder::new();
    let mut missed = 0usize;
    let mut post_ids = Vec::new();
    for n in 0..args.posts {
        let sent = Instant::now();
        let id = api.create_post(&author.token, &format!("Load test post #{n}: who's in for Tuesday?")).await?;
        post_latency.record(sent.elapsed());
        let mut reached = 0usize;
        let deadline = tokio::time::Instant::from_std(sent) + Duration::from_secs(args.timeout.max(1));
        let mut last = sent;
        while reached < subscribed {
            match tokio::time::timeout_at(deadline, got_rx.recv()).await {
                Ok(Some((post, at))) if post == id => {
                    reached += 1;
                    last = last.max(at);
                }
                Ok(Some(_)) => {}
                _ => break,
            }
        }
        missed += subscribed - reached;
        if reached == subscribed {
            push_to_last.record(last - sent);
        }
        info!(post = n, reached, of = subscribed, "post delivered");
        post_ids.push(id);
    }
    tasks.abort_all();

    info!("checking every follower's feed");
    let wanted: HashSet<String> = post_ids.iter().cloned().collect();
    let limit = (args.posts + 5).min(100) as u32;
    let missing: Vec<bool> = stream::iter(followers.iter())
        .map(|f| {
            let (api, wanted) = (api.clone(), wanted.clone());
            async move {
                let items = api.feed(&f.token, limit).await?;
                let seen: Vec<String> = items
                    .iter()
                    .filter(|i| i["type"] == "POST_CREATED")
                    .filter_map(|i| i["resourceId"].as_str().map(str::to_string))
                    .collect();
                let unique: HashSet<&String> = seen.iter().collect();
                anyhow::Ok(unique.len() != seen.len() || !wanted.iter().all(|w| unique.contains(w)))
            }
        })
        .buffer_unordered(SETUP_CONCURRENCY)
        .try_collect()
        .await?;
    let feeds_missing_posts = missing.iter().filter(|m| **m).count();

    let post_summary = post_latency.summary();
    let p50_secs = post_summary.p50_ms / 1000.0;
    let report = Report {
        url: args.url.clone(),
        followers: args.followers,
        subscribed,
        posts: args.posts,
        fan_out_rows_per_sec: if p50_secs > 0.0 { args.followers as f64 / p50_secs } else { 0.0 },
        post_latency: post_summary,
        push_to_last: push_to_last.summary(),
        pushes_missed: missed,
        feeds_missing_posts,
    };
    let passed = report.pushes_missed == 0 && report.feeds_missing_posts == 0;
    let human = format!(
        "feed — {} followers ({} with the feed open) of one author, {} posts via {}\n  post latency  {}\n  push to last  {}\n  fan-out       {:.0} feed rows/s at the p50 post\n  completeness  {} pushes missed; {} followers' feeds missing a post\n",
        report.followers,
        report.subscribed,
        report.posts,
        report.url,
        report.post_latency,
        report.push_to_last,
        report.fan_out_rows_per_sec,
        report.pushes_missed,
        report.feeds_missing_posts,
    );
    Ok(Outcome { scenario: "feed", passed, report: serde_json::to_value(&report)?, human })
}
