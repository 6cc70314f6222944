//! The floor as a child process of this same binary ([`FloorProcess`]),
//! so its resident memory is its own and it competes for the CPUs like
//! Rinkside does, and its HTTP endpoints as a scenario's publisher
//! ([`FloorClient`]).

use std::process::Stdio;
use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail};
use reqwest::Url;
use serde::Deserialize;
use tokio::io::{AsyncBufReadExt, BufReader};
use tracing::{info, warn};

use super::MirrorFrame;
use crate::floor::parse_announcement;

/// How long the floor may take to print its address.
const FLOOR_START_TIMEOUT: Duration = Duration::from_secs(10);

/// Per publish or document request to the floor.
const FLOOR_REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// `rinkside-loadtest floor` as a child process on an ephemeral loopback
/// port. Killed when stopped or dropped.
pub struct FloorProcess {
    child: tokio::process::Child,
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    pub pid: u32,
}

impl FloorProcess {
    /// Starts this program's `floor` subcommand and reads its address from
    /// the first line it prints. It inherits the raised descriptor limit
    /// and raises its own to the hard limit.
    pub async fn start() -> Result<Self> {
        let exe = std::env::current_exe().context("finding this program to start the floor")?;
        let mut child = tokio::process::Command::new(&exe)
            .args(["floor", "--bind", "127.0.0.1:0"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .with_context(|| format!("starting {} floor", exe.display()))?;
        let pid = child.id().ok_or_else(|| anyhow!("the floor exited at once"))?;
        let stdout = child.stdout.take().ok_or_else(|| anyhow!("no stdout from the floor"))?;
        let mut lines = BufReader::new(stdout).lines();
        let line = match tokio::time::timeout(FLOOR_START_TIMEOUT, lines.next_line()).await {
            Ok(Ok(Some(line))) => line,
            Ok(Ok(None)) => bail!("the floor exited before printing its address"),
            Ok(Err(e)) => return Err(e).context("reading the floor's output"),
            Err(_) => bail!("the floor printed no address within {FLOOR_START_TIMEOUT:?}"),
        };
        let addr =
            parse_announcement(&line).ok_or_else(|| anyhow!("unexpected first line from the floor: {line:?}"))?;
        // Keep its stdout drained so it can never block on a full pipe.
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        info!(%addr, pid, "floor started");
        Ok(Self { child, url: format!("http://{addr}"), pid })
    }

    pub async fn stop(mut self) {
        if let Err(e) = self.child.kill().await {
            warn!("stopping the floor: {e}");
        }
    }
}

/// The floor's answer to a publish.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PublishAnswer {
    pub seq: u64,
}

/// The floor's HTTP endpoints, as the scenarios' publisher.
#[derive(Debug, Clone)]
pub struct FloorClient {
    http: reqwest::Client,
    base: Url,
}

impl FloorClient {
    pub fn new(base: &str) -> Result<Self> {
        let http = reqwest::Client::builder().timeout(FLOOR_REQUEST_TIMEOUT).build().context("http client")?;
        Ok(Self { http, base: Url::parse(base).with_context(|| format!("bad floor URL {base:?}"))? })
    }

    fn url(&self, path: &str, topic: &str, bytes: Option<usize>) -> Url {
        let mut url = self.base.join(path).unwrap_or_else(|_| self.base.clone());
        {
            let mut q = url.query_pairs_mut();
            q.append_pair("topic", topic);
            if let Some(b) = bytes {
                q.append_pair("bytes", &b.to_string());
            }
        }
        url
    }

    async fn post(&self, url: Url, body: String) -> Result<String> {
        let resp = self.http.post(url.clone()).body(body).send().await.with_context(|| format!("POST {url}"))?;
        let status = resp.status();
        let text = resp.text().await.with_context(|| format!("POST {url}: reading the answer"))?;
        if !status.is_success() {
            bail!("POST {url} answered {status}: {text}");
        }
        Ok(text)
    }

    /// One update to every subscriber of `topic`, carrying `frame`'s data in a
    /// frame of `frame`'s length.
    pub async fn publish(&self, topic: &str, frame: &MirrorFrame) -> Result<PublishAnswer> {
        let text = self.post(self.url("/publish", topic, Some(frame.bytes)), frame.data.clone()).await?;
        serde_json::from_str(&text).with_context(|| format!("unexpected publish answer {text}"))
    }

    /// What the next snapshots of `topic` carry.
    pub async fn set_document(&self, topic: &str, data: &str) -> Result<()> {
        self.post(self.url("/document", topic, None), data.to_owned()).await.map(drop)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floor_urls_carry_the_topic_and_size() {
        let client = FloorClient::new("http://127.0.0.1:9000").unwrap();
        assert_eq!(
            client.url("/publish", "game:a b", Some(600)).as_str(),
            "http://127.0.0.1:9000/publish?topic=game%3Aa+b&bytes=600"
        );
        assert_eq!(client.url("/document", "t", None).as_str(), "http://127.0.0.1:9000/document?topic=t");
    }
}
