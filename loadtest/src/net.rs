//! Sockets by the thousand: where to connect, from which source address, with
//! which buffers, and the process limits that make it possible.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail};
use reqwest::Url;
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

/// Read buffer per connection. tungstenite's default (128 KiB, eagerly
/// allocated) would cost over a gigabyte at 10k sockets; our frames are small
/// JSON documents, and larger ones are simply read in several chunks.
const READ_BUFFER_BYTES: usize = 4 * 1024;

/// Cap on queued outgoing bytes. We send a handful of small frames per
/// connection, so anything near this means the server stopped reading.
const MAX_WRITE_BUFFER_BYTES: usize = 256 * 1024;

/// Largest frame we accept; generous for attendee documents of big events.
const MAX_MESSAGE_BYTES: usize = 16 * 1024 * 1024;

/// Loopback gives about 28k ephemeral ports (32768–60999) per source address
/// towards one server port; stay below that per address when spreading.
pub const CONNECTIONS_PER_SOURCE_ADDRESS: usize = 25_000;

/// File descriptors kept in reserve beyond one per socket (HTTP pool, stdio,
/// the runtime's own).
const SPARE_FILE_DESCRIPTORS: u64 = 1_024;

/// The WebSocket settings every load-generator connection uses.
pub fn ws_config() -> WebSocketConfig {
    WebSocketConfig::default()
        .read_buffer_size(READ_BUFFER_BYTES)
        // 0: write each frame straight away. We send few, small frames and
        // want them on the wire when we measure, not batched.
        .write_buffer_size(0)
        .max_write_buffer_size(MAX_WRITE_BUFFER_BYTES)
        .max_message_size(Some(MAX_MESSAGE_BYTES))
        .max_frame_size(Some(MAX_MESSAGE_BYTES))
}

/// One server node: its HTTP base URL and where its WebSocket lives.
#[derive(Debug, Clone)]
pub struct Endpoint {
    /// Base URL as given (`http://127.0.0.1:8080`).
    pub base: Url,
    /// `ws://host:port/api/v1/ws`.
    pub ws_url: String,
    /// Resolved once so thousands of connects do not each hit the resolver.
    pub addr: SocketAddr,
}

impl Endpoint {
    pub async fn resolve(base: &str) -> Result<Self> {
        let base = Url::parse(base).with_context(|| format!("bad URL {base:?}"))?;
        let scheme = match base.scheme() {
            "http" => "ws",
            "https" => bail!("{base}: TLS is not supported by the load generator; point it at the node directly"),
            other => bail!("{base}: unsupported scheme {other:?} (want http)"),
        };
        let host = base.host_str().ok_or_else(|| anyhow!("{base}: no host"))?.to_owned();
        let port = base.port_or_known_default().unwrap_or(80);
        let addr = tokio::net::lookup_host((host.as_str(), port))
            .await
            .with_context(|| format!("resolving {host}"))?
            .next()
            .ok_or_else(|| anyhow!("{host} resolves to nothing"))?;
        let host_part = if host.contains(':') { format!("[{host}]") } else { host };
        Ok(Self { ws_url: format!("{scheme}://{host_part}:{port}/api/v1/ws"), base, addr })
    }

    /// The base URL without a trailing slash, for joining API paths.
    pub fn base_str(&self) -> &str {
        self.base.as_str().trim_end_matches('/')
    }
}

/// Hands out source addresses round-robin so connections spread over them.
#[derive(Debug, Default)]
pub struct SourcePool {
    addrs: Vec<IpAddr>,
    next: AtomicUsize,
}

impl SourcePool {
    /// `explicit` wins; otherwise, for a loopback IPv4 target and more
    /// connections than one address can carry, use 127.0.0.1, 127.0.0.2, …
    /// (the whole 127/8 is local on Linux). Otherwise let the kernel choose.
    pub fn plan(explicit: &[IpAddr], target: SocketAddr, connections: usize) -> Self {
        let addrs = if !explicit.is_empty() {
            explicit.to_vec()
        } else if target.ip().is_loopback() && target.is_ipv4() && connections > CONNECTIONS_PER_SOURCE_ADDRESS {
            let needed = connections.div_ceil(CONNECTIONS_PER_SOURCE_ADDRESS);
            (1..=needed.min(254))
                .filter_map(|i| u8::try_from(i).ok())
                .map(|i| IpAddr::V4(Ipv4Addr::new(127, 0, 0, i)))
                .collect()
        } else {
            Vec::new()
        };
        Self { addrs, next: AtomicUsize::new(0) }
    }

    pub fn next(&self) -> Option<IpAddr> {
        if self.addrs.is_empty() {
            return None;
        }
        let i = self.next.fetch_add(1, Ordering::Relaxed);
        self.addrs.get(i % self.addrs.len()).copied()
    }

    pub fn addresses(&self) -> &[IpAddr] {
        &self.addrs
    }
}

pub type Ws = WebSocketStream<TcpStream>;

/// TCP connect (from `source` if given) plus the WebSocket handshake.
pub async fn connect_ws(endpoint: &Endpoint, source: Option<IpAddr>) -> Result<Ws> {
    let socket = match endpoint.addr {
        SocketAddr::V4(_) => TcpSocket::new_v4(),
        SocketAddr::V6(_) => TcpSocket::new_v6(),
    }
    .context("socket")?;
    if let Some(ip) = source {
        socket.bind(SocketAddr::new(ip, 0)).with_context(|| format!("bind {ip}"))?;
    }
    let stream = socket.connect(endpoint.addr).await.context("tcp connect")?;
    // Frames are tiny and latency is what we measure.
    stream.set_nodelay(true).context("nodelay")?;
    let request = endpoint.ws_url.as_str().into_client_request().context("ws request")?;
    let (ws, _response) = tokio_tungstenite::client_async_with_config(request, stream, Some(ws_config()))
        .await
        .context("ws handshake")?;
    Ok(ws)
}

/// Raises `RLIMIT_NOFILE` so `sockets` connections fit; returns the soft limit
/// now in force. As root the hard limit is raised too; otherwise the soft
/// limit goes up to the hard one and the caller warns if that is short.
pub fn raise_nofile(sockets: usize) -> Result<u64> {
    use rlimit::Resource;
    let wanted = u64::try_from(sockets).unwrap_or(u64::MAX).saturating_add(SPARE_FILE_DESCRIPTORS);
    let (soft, hard) = Resource::NOFILE.get().context("getrlimit")?;
    if soft >= wanted {
        return Ok(soft);
    }
    if hard < wanted && Resource::NOFILE.set(wanted, wanted).is_ok() {
        return Ok(wanted);
    }
    let new_soft = wanted.min(hard);
    Resource::NOFILE.set(new_soft, hard).context("setrlimit NOFILE")?;
    Ok(new_soft)
}

/// The server's resident set size in bytes, from `/proc/PID/status`.
pub fn rss_bytes(pid: u32) -> Result<u64> {
    let path = format!("/proc/{pid}/status");
    let status = std::fs::read_to_string(&path).with_context(|| format!("reading {path}"))?;
    parse_vm_rss(&status).ok_or_else(|| anyhow!("no VmRSS in {path}"))
}

/// CPU time (user + system) the process has used so far, from
/// `/proc/PID/stat`, in seconds (at the kernel's USER_HZ of 100).
pub fn cpu_seconds(pid: u32) -> Result<f64> {
    let path = format!("/proc/{pid}/stat");
    let stat = std::fs::read_to_string(&path).with_context(|| format!("reading {path}"))?;
    parse_cpu_ticks(&stat).map(|t| t as f64 / CLOCK_TICKS_PER_SEC).ok_or_else(|| anyhow!("bad {path}"))
}

/// USER_HZ: 100 on every Linux the generator runs on.
const CLOCK_TICKS_PER_SEC: f64 = 100.0;

/// utime + stime: fields 14 and 15, counted after the `(comm)` field, which
/// may itself hold spaces.
fn parse_cpu_ticks(stat: &str) -> Option<u64> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // `rest` starts at field 3 (state); utime is field 14.
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(utime + stime)
}

fn parse_vm_rss(status: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let mut parts = line.trim_start_matches("VmRSS:").split_whitespace();
    let value: u64 = parts.next()?.parse().ok()?;
    let unit = match parts.next().unwrap_or("kB") {
        "kB" => 1024,
        "mB" | "MB" => 1024 * 1024,
        _ => 1,
    };
    Some(value * unit)
}

/// A short pause for things to settle (server frees handshake buffers, the
/// allocator returns pages) before reading RSS.
pub const SETTLE: Duration = Duration::from_secs(2);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vm_rss_is_read_in_bytes() {
        let status = "Name:\trinkside\nVmPeak:\t  900 kB\nVmRSS:\t   12345 kB\nThreads:\t4\n";
        assert_eq!(parse_vm_rss(status), Some(12345 * 1024));
        assert_eq!(parse_vm_rss("Name:\tx\n"), None);
    }

    #[test]
    fn cpu_ticks_are_user_plus_system() {
        let stat = "4242 (rink side) S 1 4242 4242 0 -1 4194560 900 0 0 0 150 25 0 0 20 0 9 0 100 1000 200";
        assert_eq!(parse_cpu_ticks(stat), Some(175));
        assert_eq!(parse_cpu_ticks("garbage"), None);
    }

    #[test]
    fn loopback_beyond_one_address_spreads_over_127_0_0_x() {
        let target: SocketAddr = "127.0.0.1:8080".parse().unwrap();
        let pool = SourcePool::plan(&[], target, 60_000);
        assert_eq!(pool.addresses().len(), 3);
        assert_eq!(pool.next(), Some("127.0.0.1".parse().unwrap()));
        assert_eq!(pool.next(), Some("127.0.0.2".parse().unwrap()));
        assert_eq!(pool.next(), Some("127.0.0.3".parse().unwrap()));
        assert_eq!(pool.next(), Some("127.0.0.1".parse().unwrap()));
    }

    #[test]
    fn few_connections_or_remote_targets_let_the_kernel_choose() {
        let local: SocketAddr = "127.0.0.1:8080".parse().unwrap();
        let remote: SocketAddr = "10.0.0.5:8080".parse().unwrap();
        assert_eq!(SourcePool::plan(&[], local, 10_000).next(), None);
        assert_eq!(SourcePool::plan(&[], remote, 60_000).next(), None);
        let explicit: IpAddr = "10.0.0.9".parse().unwrap();
        assert_eq!(SourcePool::plan(&[explicit], remote, 1).next(), Some(explicit));
    }

    #[tokio::test]
    async fn endpoints_map_http_to_the_ws_path() {
        let e = Endpoint::resolve("http://127.0.0.1:9/").await.unwrap();
        assert_eq!(e.ws_url, "ws://127.0.0.1:9/api/v1/ws");
        assert_eq!(e.base_str(), "http://127.0.0.1:9");
        assert!(Endpoint::resolve("https://127.0.0.1:9").await.is_err());
    }
}
