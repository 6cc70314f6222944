//! What a fleet reports: errors counted by message ([`ErrorTally`]), the
//! connection phase ([`OpenReport`]) and what went wrong after it
//! ([`AfterReport`]).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::stats::Summary;

/// Distinct error messages kept per tally; the rest are counted as "other".
const MAX_DISTINCT_ERRORS: usize = 20;

/// Counts of error messages, grouped by message.
#[derive(Debug, Default, Clone, Serialize, Deserialize)]
pub struct ErrorTally(BTreeMap<String, u64>);

impl ErrorTally {
    pub fn add(&mut self, message: &str) {
        self.add_n(message, 1);
    }

    /// Adds `n` of one message (merging tallies).
    pub fn add_n(&mut self, message: &str, n: u64) {
        let mut key: String = message.chars().take(300).collect();
        if !self.0.contains_key(&key) && self.0.len() >= MAX_DISTINCT_ERRORS {
            key = "(other errors)".into();
        }
        *self.0.entry(key).or_default() += n;
    }

    /// Message and count, in message order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, u64)> {
        self.0.iter().map(|(k, v)| (k.as_str(), *v))
    }

    pub fn total(&self) -> u64 {
        self.0.values().sum()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Indented lines for the human report.
    pub fn lines(&self) -> String {
        self.0.iter().map(|(k, v)| format!("      {v:>7} × {k}\n")).collect()
    }
}

/// The connection phase's numbers.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OpenReport {
    pub requested: usize,
    pub subscribed: usize,
    pub failed: u64,
    /// TCP connect + WebSocket handshake.
    pub connect: Summary,
    /// Sending auth/subscribe to receiving the snapshot.
    pub subscribe: Summary,
    /// From the first connect to the last snapshot.
    pub ramp_seconds: f64,
    pub connections_per_sec: f64,
    pub errors: ErrorTally,
}

impl OpenReport {
    /// Before any connection was tried.
    pub fn empty(requested: usize) -> Self {
        Self {
            requested,
            subscribed: 0,
            failed: 0,
            connect: Summary::default(),
            subscribe: Summary::default(),
            ramp_seconds: 0.0,
            connections_per_sec: 0.0,
            errors: ErrorTally::default(),
        }
    }

    pub fn human(&self) -> String {
        let mut s = format!(
            "  connections   {} of {} subscribed, {} failed, in {:.2} s ({:.0}/s)\n  \
             connect       {}\n  subscribe     {}\n",
            self.subscribed,
            self.requested,
            self.failed,
            self.ramp_seconds,
            self.connections_per_sec,
            self.connect,
            self.subscribe,
        );
        if !self.errors.is_empty() {
            s.push_str("    connection errors:\n");
            s.push_str(&self.errors.lines());
        }
        s
    }
}

/// Errors seen after subscribing.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AfterReport {
    /// `error` frames received by subscribers.
    pub server_errors: ErrorTally,
    /// Subscribers whose connection ended under them.
    pub disconnects: ErrorTally,
    /// Update frames that did not advance the seq (must be 0).
    pub non_increasing_seq: u64,
}

impl AfterReport {
    pub fn human(&self) -> String {
        let mut s = String::new();
        if !self.server_errors.is_empty() {
            s.push_str(&format!("    error frames ({}):\n", self.server_errors.total()));
            s.push_str(&self.server_errors.lines());
        }
        if !self.disconnects.is_empty() {
            s.push_str(&format!("    disconnects ({}):\n", self.disconnects.total()));
            s.push_str(&self.disconnects.lines());
        }
        if self.non_increasing_seq > 0 {
            s.push_str(&format!("    {} update frames did not increase the seq\n", self.non_increasing_seq));
        }
        s
    }

    pub fn clean(&self) -> bool {
        self.server_errors.is_empty() && self.disconnects.is_empty() && self.non_increasing_seq == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_tallies_group_and_cap_distinct_messages() {
        let mut t = ErrorTally::default();
        t.add("a");
        t.add("a");
        for i in 0..30 {
            t.add(&format!("e{i}"));
        }
        assert_eq!(t.total(), 32);
        assert_eq!(t.0.len(), MAX_DISTINCT_ERRORS + 1);
        assert_eq!(t.0.get("a"), Some(&2));
        assert!(t.lines().contains("2 × a"));
    }
}
