//! `feed`: one author with N followers posts, one post at a time. For each
//! post: the request's own latency (the fan-out to every follower is in its
//! transaction), the time until the last subscribed follower's socket has
//! the item, and — after the run — that every follower's feed holds every
//! post exactly once.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use futures_util::{StreamExt, TryStreamExt, stream};
use serde::Serialize;
use serde_json::Value;
use tokio::sync::mpsc;
use tracing::info;

use super::Outcome;
use crate::api::{Api, Session, run_tag};
use crate::cli::FeedArgs;
use crate::net::Endpoint;
use crate::stats::{Recorder, Summary};
use crate::ws::follow;

const SETUP_CONCURRENCY: usize = 32;

/// How long every subscribed follower's feed may take to open.
const OPEN_TIMEOUT: Duration = Duration::from_secs(60);

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

/// The post a `feed` update announces: a POST_CREATED item's resource id.
fn post_created(frame: &Value) -> Option<String> {
    let data = &frame["data"];
    if data["type"] != "POST_CREATED" {
        return None;
    }
    data["resourceId"].as_str().map(str::to_string)
}

pub async fn run(args: FeedArgs) -> Result<Outcome> {
    let ep = Arc::new(Endpoint::resolve(&args.url).await?);
    let api = Api::new(ep.base_str())?;
    let tag = run_tag();
    let author = api.dev_token(&format!("lt{tag}author")).await?;
    let followers = sign_in_followers(&args, &api, &author, &tag).await?;

    let subscribed = args.subscribed.min(args.followers);
    info!(subscribed, "opening feeds on sockets");
    let (ready_tx, mut ready_rx) = mpsc::unbounded_channel();
    let (got_tx, mut got_rx) = mpsc::unbounded_channel();
    let mut tasks = tokio::task::JoinSet::new();
    for f in followers.iter().take(subscribed) {
        let (ep, token, ready, got) = (ep.clone(), f.token.clone(), ready_tx.clone(), got_tx.clone());
        tasks.spawn(async move { follow(&ep, &token, "feed", ready, got, post_created).await });
    }
    for _ in 0..subscribed {
        tokio::time::timeout(OPEN_TIMEOUT, ready_rx.recv()).await.context("feeds did not open in 60 s")?;
    }
    let posts = post(&args, &api, &author, &mut got_rx, subscribed).await?;
    tasks.abort_all();
    let feeds_missing_posts = feeds_missing(&args, &api, &followers, &posts.ids).await?;

    let post_summary = posts.latency.summary();
    let p50_secs = post_summary.p50_ms / 1000.0;
    let report = Report {
        url: args.url.clone(),
        followers: args.followers,
        subscribed,
        posts: args.posts,
        fan_out_rows_per_sec: if p50_secs > 0.0 { args.followers as f64 / p50_secs } else { 0.0 },
        post_latency: post_summary,
        push_to_last: posts.push_to_last.summary(),
        pushes_missed: posts.missed,
        feeds_missing_posts,
    };
    let passed = report.pushes_missed == 0 && report.feeds_missing_posts == 0;
    Ok(Outcome { scenario: "feed", passed, human: report.human(), report: serde_json::to_value(&report)? })
}

/// `--followers` users signed in, each following the author.
async fn sign_in_followers(args: &FeedArgs, api: &Api, author: &Session, tag: &str) -> Result<Vec<Session>> {
    info!(followers = args.followers, "signing followers in and following the author");
    stream::iter(0..args.followers)
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
        .await
}

/// The posts, and how their pushes went.
struct Posts {
    ids: Vec<String>,
    /// `POST /posts` round trips.
    latency: Recorder,
    push_to_last: Recorder,
    missed: usize,
}

/// `--posts` posts, one after another, each followed to every one of the
/// `subscribed` followers' sockets (or `--timeout`).
async fn post(
    args: &FeedArgs,
    api: &Api,
    author: &Session,
    got: &mut mpsc::UnboundedReceiver<(String, Instant)>,
    subscribed: usize,
) -> Result<Posts> {
    let mut posts = Posts { ids: Vec::new(), latency: Recorder::new(), push_to_last: Recorder::new(), missed: 0 };
    for n in 0..args.posts {
        let sent = Instant::now();
        let id = api.create_post(&author.token, &format!("Load test post #{n}: who's in for Tuesday?")).await?;
        posts.latency.record(sent.elapsed());
        let mut reached = 0usize;
        let deadline = tokio::time::Instant::from_std(sent) + Duration::from_secs(args.timeout.max(1));
        let mut last = sent;
        while reached < subscribed {
            match tokio::time::timeout_at(deadline, got.recv()).await {
                Ok(Some((post, at))) if post == id => {
                    reached += 1;
                    last = last.max(at);
                }
                Ok(Some(_)) => {}
                _ => break,
            }
        }
        posts.missed += subscribed - reached;
        if reached == subscribed {
            posts.push_to_last.record(last - sent);
        }
        info!(post = n, reached, of = subscribed, "post delivered");
        posts.ids.push(id);
    }
    Ok(posts)
}

/// Followers whose feed's first page lacks a post, or lists one twice.
async fn feeds_missing(args: &FeedArgs, api: &Api, followers: &[Session], post_ids: &[String]) -> Result<usize> {
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
    Ok(missing.iter().filter(|m| **m).count())
}

impl Report {
    fn human(&self) -> String {
        let report = self;
        format!(
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
        )
    }
}
