//! `connect`: how fast a node takes N subscribed sockets, and (with
//! `--server-pid`) what they cost it in memory.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;
use serde::Serialize;
use tracing::info;

use super::{Memory, Outcome, fleet_options, prepare_sockets, rss_after, rss_before};
use crate::api::{Api, run_tag};
use crate::cli::ConnectArgs;
use crate::fleet::{AfterReport, Fleet, OpenReport};
use crate::net::Endpoint;

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Report {
    url: String,
    topic: String,
    authenticated: bool,
    open: OpenReport,
    hold_seconds: u64,
    after: AfterReport,
    memory: Option<Memory>,
}

pub async fn run(args: ConnectArgs) -> Result<Outcome> {
    let endpoint = Arc::new(Endpoint::resolve(&args.url).await?);
    let sources = prepare_sockets(&args.net, &endpoint, args.connections)?;

    let (topic, token) = match (&args.topic, args.anonymous) {
        (Some(topic), true) => (topic.clone(), None),
        (topic, _) => {
            let api = Api::new(endpoint.base_str())?;
            let me = api.dev_token(&format!("lt{}conn", run_tag())).await?;
            let topic = match topic {
                Some(t) => t.clone(),
                None => {
                    let id = api.create_event(&me.token, "Load test: connect", Some(20), Some(2)).await?;
                    format!("event:{id}")
                }
            };
            (topic, Some(me.token))
        }
    };

    let before = rss_before(args.server_pid);
    let mut fleet =
        Fleet::open(fleet_options(&args.net, endpoint.clone(), sources, args.connections, token.as_deref(), &topic))
            .await?;
    let memory = rss_after(before, fleet.open.subscribed).await;
    if args.hold > 0 {
        info!(seconds = args.hold, "holding connections idle");
        let until = tokio::time::Instant::now() + Duration::from_secs(args.hold);
        fleet.pump_until(until, |_| false).await;
    }
    fleet.shutdown().await;

    let report = Report {
        url: args.url,
        topic,
        authenticated: token.is_some(),
        open: fleet.open.clone(),
        hold_seconds: args.hold,
        after: fleet.after.clone(),
        memory,
    };
    let passed = report.open.failed == 0 && report.after.clean();
    let mut human = format!(
        "connect — {} sockets to {} on {}{}\n",
        report.open.requested,
        report.url,
        report.topic,
        if report.authenticated { " (signed in)" } else { " (anonymous)" },
    );
    human.push_str(&report.open.human());
    if let Some(m) = &report.memory {
        human.push_str(&m.human());
    }
    if report.hold_seconds > 0 {
        human.push_str(&format!(
            "  held idle     {} s, {} still connected\n",
            report.hold_seconds,
            fleet.collector.alive()
        ));
    }
    human.push_str(&report.after.human());
    Ok(Outcome { scenario: "connect", passed, report: serde_json::to_value(&report)?, human })
}
