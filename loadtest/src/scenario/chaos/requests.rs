//! One idempotent request, as CONTRACT.md's clients send it: with an
//! `Idempotency-Key`, retried with the same key on the next node until it
//! is answered, refused for good, or the run gives up ([`Sent::send`]);
//! and what a stream of them came to ([`Sent`]).

use std::time::{Duration, Instant};

use serde_json::Value;

use super::plan::backoff;
use crate::fleet::ErrorTally;

/// One HTTP attempt's limit; the request is retried (same key) after it.
const ATTEMPT_TIMEOUT: Duration = Duration::from_secs(10);
/// Backoff between attempts, doubling from the first to the cap.
const RETRY_FIRST: Duration = Duration::from_millis(50);
const RETRY_CAP: Duration = Duration::from_secs(1);

/// How a request ended.
pub enum Ended {
    /// 2xx with its body.
    Answered(Value),
    /// A 4xx other than 408 and 429: the server refused it for good.
    Refused(String),
    /// Still unanswered at the deadline.
    GaveUp,
}

/// What one idempotent request needs.
pub struct Request<'a> {
    pub http: &'a reqwest::Client,
    pub urls: &'a [String],
    /// Node tried first; each retry moves to the next.
    pub first_node: usize,
    pub method: reqwest::Method,
    pub path: String,
    pub token: &'a str,
    pub key: String,
    pub body: Value,
}

/// What a stream of idempotent requests came to, whatever they asked.
#[derive(Default)]
pub struct Sent {
    /// Refused for good (a 4xx but 408 and 429), with why.
    pub refused: Vec<String>,
    /// HTTP attempts.
    pub attempts: u64,
    /// Requests answered only after a retry.
    pub retried: u64,
    /// Failed attempts, by cause.
    pub errors: ErrorTally,
    /// `(first attempt, until the answer)` of every answered request.
    pub timings: Vec<(Instant, Duration)>,
}

impl Sent {
    /// Sends `request` until answered, refused or `deadline`
    /// ([`send_idempotent`]), booking its attempts, and for an answer its
    /// time and whether it needed a retry.
    pub async fn send(&mut self, request: Request<'_>, deadline: Instant) -> Ended {
        let started = Instant::now();
        let before = self.attempts;
        let ended = send_idempotent(request, deadline, &mut self.attempts, &mut self.errors).await;
        if matches!(ended, Ended::Answered(_)) {
            self.timings.push((started, started.elapsed()));
            if self.attempts - before > 1 {
                self.retried += 1;
            }
        }
        ended
    }

    /// Takes another stream's in.
    pub fn merge(&mut self, other: Sent) {
        self.refused.extend(other.refused);
        self.attempts += other.attempts;
        self.retried += other.retried;
        for (k, n) in other.errors.iter() {
            self.errors.add_n(k, n);
        }
        self.timings.extend(other.timings);
    }
}

/// Sends until answered (2xx), refused (a 4xx but 408 and 429) or
/// `deadline`: transport errors, 5xx, 408 (the server's request timeout)
/// and 429 are retried with the same key on the next node. Counts attempts and tallies the failures.
async fn send_idempotent(r: Request<'_>, deadline: Instant, attempts: &mut u64, errors: &mut ErrorTally) -> Ended {
    let mut attempt = 0u32;
    loop {
        let node = (r.first_node + attempt as usize) % r.urls.len();
        *attempts += 1;
        let sent = r
            .http
            .request(r.method.clone(), format!("{}{}", r.urls[node], r.path))
            .bearer_auth(r.token)
            .header("Idempotency-Key", &r.key)
            .timeout(ATTEMPT_TIMEOUT)
            .json(&r.body)
            .send()
            .await;
        match sent {
            Ok(res) if res.status().is_success() => match res.json::<Value>().await {
                Ok(body) => return Ended::Answered(body),
                Err(e) => errors.add(&format!("reading an answer: {}", short(&e))),
            },
            Ok(res) if res.status().is_client_error() && !matches!(res.status().as_u16(), 408 | 429) => {
                let status = res.status();
                let body = res.text().await.unwrap_or_default();
                if status.as_u16() == 409 && says_try_again(&body) {
                    errors.add("HTTP 409 \"changing too fast; try again\"");
                } else {
                    return Ended::Refused(format!("{status}: {}", body.chars().take(200).collect::<String>()));
                }
            }
            Ok(res) => errors.add(&format!("HTTP {}", res.status())),
            Err(e) => errors.add(&short(&e)),
        }
        if Instant::now() >= deadline {
            return Ended::GaveUp;
        }
        tokio::time::sleep(backoff(attempt, RETRY_FIRST, RETRY_CAP)).await;
        attempt += 1;
    }
}

/// Whether a 409 is the actor's "changing too fast; try again": its
/// optimistic commit lost to other nodes' commits of the same event too
/// many times in a row. Nothing was applied, so the client tries again with
/// the same key. (The code is the generic `conflict`, so only the message
/// tells it from a refusal for good.)
pub fn says_try_again(body: &str) -> bool {
    serde_json::from_str::<Value>(body)
        .ok()
        .and_then(|v| v["error"]["message"].as_str().map(|m| m.ends_with("try again")))
        .unwrap_or(false)
}

/// A reqwest error without its URL (which differs per node and port).
fn short(e: &reqwest::Error) -> String {
    let kind = if e.is_timeout() {
        "timed out"
    } else if e.is_connect() {
        "connect failed"
    } else if e.is_request() {
        "request failed (connection lost)"
    } else if e.is_body() || e.is_decode() {
        "body failed"
    } else {
        "error"
    };
    kind.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_try_again_conflict_is_retried() {
        let busy = r#"{"error":{"code":"conflict","message":"event e1 is changing too fast; try again"}}"#;
        assert!(says_try_again(busy));
        assert!(!says_try_again(r#"{"error":{"code":"conflict","message":"the game is over"}}"#));
        assert!(!says_try_again("not json"));
    }
}
