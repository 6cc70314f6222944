//! How far apart the displays' clocks are ([`skews`]): all displays over
//! the cycles before the reconnect, each node's among themselves, and —
//! after a sample reconnected — the reconnected ones against everyone.

use serde::Serialize;

use crate::cli::ClockArgs;
use crate::display::{DisplayFleet, DisplayRecord, ReconnectReport};
use crate::skew::{DisplayLog, Skew, instants, skew};

/// The target of issue 28: displays agree on the clock within this.
const SKEW_TARGET_MS: f64 = 100.0;

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SkewReport {
    /// All displays, over the cycles before the reconnect.
    pub across_nodes: Skew,
    /// Each node's displays among themselves.
    pub per_node: Vec<NodeSkew>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeSkew {
    pub url: String,
    pub skew: Skew,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReconnectSkew {
    pub reconnect: ReconnectReport,
    /// The reconnected displays over the cycles after, against the median
    /// of all.
    pub reconnected: Skew,
    /// All displays over the same cycles, for comparison.
    pub everyone: Skew,
}

/// The skews of a run: over the cycles `before` the reconnect (epoch ms
/// from, to), and over those after it when a sample reconnected.
pub fn skews(
    args: &ClockArgs,
    fleet: &DisplayFleet,
    records: &[DisplayRecord],
    before: (f64, f64),
    after: Option<(ReconnectReport, (f64, f64))>,
) -> (SkewReport, Option<ReconnectSkew>) {
    let every = args.sample_ms.max(1) as f64;
    let logs: Vec<&DisplayLog> = records.iter().map(|r| &r.log).collect();
    let before = instants(before.0, before.1, every);
    let everyone: Vec<usize> = (0..logs.len()).collect();
    let per_node = args
        .urls
        .iter()
        .enumerate()
        .map(|(n, url)| {
            let mine: Vec<&DisplayLog> =
                records.iter().filter(|r| fleet.node_of.get(r.idx) == Some(&n)).map(|r| &r.log).collect();
            let all: Vec<usize> = (0..mine.len()).collect();
            NodeSkew { url: url.clone(), skew: skew(&mine, &all, &before) }
        })
        .collect();
    let report = SkewReport { across_nodes: skew(&logs, &everyone, &before), per_node };
    let reconnect = after.map(|(reconnect, (from, to))| {
        let after = instants(from, to, every);
        let focus: Vec<usize> = records
            .iter()
            .enumerate()
            .filter(|(_, r)| fleet.sample.binary_search(&r.idx).is_ok())
            .map(|(i, _)| i)
            .collect();
        ReconnectSkew { reconnect, reconnected: skew(&logs, &focus, &after), everyone: skew(&logs, &everyone, &after) }
    });
    (report, reconnect)
}

/// Whether a skew is within the target, for the text report.
pub fn target(skew: &Skew) -> &'static str {
    match skew.instants {
        0 => "",
        _ if skew.spread_max_ms <= SKEW_TARGET_MS => "  (within 100 ms)",
        _ => "  ! past the 100 ms target",
    }
}
