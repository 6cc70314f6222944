//! The season sync's HTTP GET, safe to point at user-supplied URLs.
//!
//! Owns the rules of `docs/sync.md` § "The fetcher": http(s) only, no credentials in the URL, every
//! address the host resolves to judged by `super::address` (IP literals before the request, names
//! by our resolver inside reqwest, so the connection goes to exactly the addresses that were
//! judged), redirects followed by hand and judged hop by hop, one deadline for everything, a body
//! cap counted while streaming, and an allow-list of schedule content types.

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use bytes::{Bytes, BytesMut};
use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use reqwest::header::{self, HeaderMap, HeaderValue};
use reqwest::{StatusCode, redirect};
use tokio::time::Instant;
use url::{Host, Url};

use super::address::{self, UrlRefusal};

/// Largest schedule body we read; the fetch stops at the first byte over.
pub const MAX_BODY_BYTES: usize = 5 * 1024 * 1024;
/// Deadline for a whole sync fetch: resolution, every redirect and page, and every body byte.
pub const TOTAL_TIMEOUT: Duration = Duration::from_secs(10);
/// Redirects followed per GET; schedule hosts need one or two (http → https, a moved path).
pub const MAX_REDIRECTS: usize = 3;

/// What the three schedule adapters can read, most specific first.
const ACCEPT: &str = "application/vnd.api+json, application/json, text/calendar, text/csv;q=0.9, */*;q=0.1";
/// Lets schedule providers tell our traffic apart (and block it) without guessing.
const USER_AGENT: &str = "Rinkside-sync/1";
/// Media types a schedule may come as (parameters ignored). Anything else — an HTML login page, an
/// image — is not a schedule, and is refused before the body is read.
const SCHEDULE_CONTENT_TYPES: &[&str] = &[
    "application/json",
    "application/vnd.api+json",
    "text/calendar",
    "text/csv",
    "application/csv",
    "text/comma-separated-values",
    "text/plain",
    "application/octet-stream",
];
/// Most schedules are a few kB; a body that announces its length gets a buffer of that size, up
/// to this much, so a lying Content-Length cannot make us allocate the whole cap up front.
const INITIAL_BUFFER_BYTES: usize = 64 * 1024;

#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    /// The URL, a redirect target or an address the host resolves to is refused; nothing connected.
    #[error("{0}")]
    Refused(UrlRefusal),
    #[error("the schedule is larger than 5 MB")]
    TooLarge,
    #[error("the schedule server did not answer within 10 seconds")]
    TooSlow,
    #[error("the schedule server answered with `{0}`, which is not a schedule format")]
    ContentType(String),
    #[error("more than 3 redirects")]
    TooManyRedirects,
    /// Anything else, worded for the organiser; the internal cause is logged, not carried.
    #[error("{0}")]
    Failed(String),
}

/// A schedule body that passed every rule.
#[derive(Debug, Clone)]
pub struct Fetched {
    /// Where the body came from, after redirects; relative links in the body resolve against it.
    pub url: Url,
    /// The Content-Type header as sent, parameters included (the adapters may want `charset`);
    /// its media type is one of the schedule types. `None` when the server sent none.
    pub content_type: Option<String>,
    pub body: Bytes,
}

/// The sync's HTTP client. Cheap to clone (reqwest's client is an `Arc` inside); build one at
/// start-up and share it, so connections are pooled across syncs.
#[derive(Debug, Clone)]
pub struct Fetcher {
    /// Has our resolver, no proxy and no automatic redirects; see `Fetcher::build`.
    client: reqwest::Client,
    /// Judges literals and redirect targets here, and resolved addresses inside `client`.
    rules: AddressRules,
    /// Default budget for one `get` or `check`; paging callers share one `deadline()` instead.
    timeout: Duration,
    max_body: usize,
}

impl Fetcher {
    /// A fetcher with the production caps. `allow_private` lifts the address rule (tests only,
    /// `SYNC_ALLOW_PRIVATE_NETWORKS`). Fails only if the TLS backend cannot be set up.
    pub fn new(allow_private: bool) -> Result<Self, FetchError> {
        Self::with_limits(allow_private, TOTAL_TIMEOUT, MAX_BODY_BYTES)
    }

    /// Like `new`, with other caps (for tests of the caps): total timeout and body cap.
    pub fn with_limits(allow_private: bool, timeout: Duration, max_body: usize) -> Result<Self, FetchError> {
        Self::build(AddressRules::new(allow_private), timeout, max_body)
    }

    fn build(rules: AddressRules, timeout: Duration, max_body: usize) -> Result<Self, FetchError> {
        let mut headers = HeaderMap::new();
        headers.insert(header::ACCEPT, HeaderValue::from_static(ACCEPT));
        let client = reqwest::Client::builder()
            // Names are resolved once, by us, and only judged addresses are handed back, so there is
            // no second lookup for DNS rebinding to answer differently.
            .dns_resolver(CheckedResolver { rules: rules.clone() })
            // A proxy (HTTP_PROXY from the environment) would make the connection, to addresses we
            // never saw.
            .no_proxy()
            // Redirect targets must be judged like the first URL; reqwest's policy cannot refuse a
            // hop with our reason, so we follow them in `follow`.
            .redirect(redirect::Policy::none())
            .referer(false)
            .user_agent(USER_AGENT)
            .default_headers(headers)
            .build()
            .map_err(|err| {
                tracing::error!(error = %error_chain(&err), "could not build the sync HTTP client");
                FetchError::Failed("the schedule fetcher could not be set up".to_owned())
            })?;
        Ok(Self { client, rules, timeout, max_body })
    }

    /// When a fetch started now must be done. DaySmart paging takes one deadline for all pages.
    pub fn deadline(&self) -> Instant {
        Instant::now() + self.timeout
    }

    /// Resolve-and-check only, for a URL being saved: refused if the URL is, or if any address
    /// its host resolves to is. Connects to nothing.
    pub async fn check(&self, url: &str) -> Result<Url, FetchError> {
        let checking = async {
            let url = self.rules.check_url(url)?;
            // Literals were judged by `check_url`; only names need resolving.
            if let Some(Host::Domain(name)) = url.host() {
                let port = url.port_or_known_default().unwrap_or_default();
                self.rules.resolve(name, port).await.map_err(|err| err.into_fetch_error(name))?;
            }
            Ok(url)
        };
        tokio::time::timeout_at(self.deadline(), checking).await.unwrap_or(Err(FetchError::TooSlow))
    }

    /// GET with all the rules, under this fetcher's timeout.
    pub async fn get(&self, url: &str) -> Result<Fetched, FetchError> {
        self.get_before(url, self.deadline()).await
    }

    /// GET with all the rules; resolution, every redirect and the whole body must be done by
    /// `deadline`.
    #[tracing::instrument(name = "sync_fetch", skip_all)]
    pub async fn get_before(&self, url: &str, deadline: Instant) -> Result<Fetched, FetchError> {
        // `timeout_at` polls the fetch before its timer, so with a spent deadline a fast server
        // could still answer; a paging loop that has used up its budget must not start a request.
        let result = if Instant::now() >= deadline {
            Err(FetchError::TooSlow)
        } else {
            tokio::time::timeout_at(deadline, self.follow(url)).await.unwrap_or(Err(FetchError::TooSlow))
        };
        if let Err(err) = &result {
            tracing::info!(%err, "schedule fetch refused or failed");
        }
        result
    }

    async fn follow(&self, url: &str) -> Result<Fetched, FetchError> {
        let mut current = self.rules.check_url(url)?;
        let mut redirects = 0;
        loop {
            tracing::debug!(host = current.host_str(), redirects, "requesting schedule");
            let response =
                self.client.get(current.clone()).send().await.map_err(|err| request_failed(&err, &current))?;
            let status = response.status();
            if is_followed_redirect(status) {
                if redirects == MAX_REDIRECTS {
                    return Err(FetchError::TooManyRedirects);
                }
                redirects += 1;
                let target = redirect_target(response.headers(), &current)?;
                current = self.rules.check_url(target.as_str())?;
                continue;
            }
            if !status.is_success() {
                return Err(FetchError::Failed(format!("the schedule server answered {status}")));
            }
            let content_type = schedule_content_type(response.headers())?;
            let body = read_capped(response, self.max_body).await?;
            return Ok(Fetched { url: current, content_type, body });
        }
    }
}

/// 304 and 300 are not moves, and 305/306 are obsolete; those end the fetch as a non-2xx answer.
fn is_followed_redirect(status: StatusCode) -> bool {
    matches!(status.as_u16(), 301 | 302 | 303 | 307 | 308)
}

fn redirect_target(headers: &HeaderMap, current: &Url) -> Result<Url, FetchError> {
    let location = headers
        .get(header::LOCATION)
        .ok_or_else(|| FetchError::Failed("the schedule server redirected without saying where to".to_owned()))?;
    let location = location
        .to_str()
        .map_err(|_| FetchError::Failed("the schedule server redirected to an unreadable address".to_owned()))?;
    // Relative Locations (`/v2/schedule`, `../x`) are relative to the URL that answered.
    current
        .join(location)
        .map_err(|_| FetchError::Failed(format!("the schedule server redirected to `{location}`, which is not a URL")))
}

fn schedule_content_type(headers: &HeaderMap) -> Result<Option<String>, FetchError> {
    let Some(value) = headers.get(header::CONTENT_TYPE) else {
        return Ok(None);
    };
    let sent = String::from_utf8_lossy(value.as_bytes()).trim().to_owned();
    let media_type = sent.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    if media_type.is_empty() {
        Ok(None)
    } else if SCHEDULE_CONTENT_TYPES.contains(&media_type.as_str()) {
        Ok(Some(sent))
    } else {
        Err(FetchError::ContentType(media_type))
    }
}

/// Reads the body chunk by chunk and gives up at the first chunk that goes over `cap`, so a
/// huge or endless body costs at most `cap` plus one chunk of memory.
async fn read_capped(mut response: reqwest::Response, cap: usize) -> Result<Bytes, FetchError> {
    let announced = response.content_length();
    if announced.is_some_and(|length| length > cap as u64) {
        return Err(FetchError::TooLarge);
    }
    let initial = announced.map_or(0, |length| length as usize).min(cap).min(INITIAL_BUFFER_BYTES);
    let mut body = BytesMut::with_capacity(initial);
    while let Some(chunk) = response.chunk().await.map_err(|err| {
        tracing::warn!(error = %error_chain(&err), "schedule body broke off");
        FetchError::Failed("the schedule server broke off its answer".to_owned())
    })? {
        if body.len() + chunk.len() > cap {
            return Err(FetchError::TooLarge);
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body.freeze())
}

/// Turns reqwest's error into ours. A refusal by our resolver travels inside reqwest's error
/// chain (reqwest → hyper → connect error → our `ResolveError`), so it is fished out by type.
fn request_failed(err: &reqwest::Error, url: &Url) -> FetchError {
    let host = url.host_str().unwrap_or_default();
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(current) = cause {
        if let Some(resolve) = current.downcast_ref::<ResolveError>() {
            return resolve.clone().into_fetch_error(host);
        }
        cause = current.source();
    }
    tracing::warn!(host, error = %error_chain(err), "schedule request failed");
    if err.is_connect() {
        FetchError::Failed(format!("could not connect to {host}"))
    } else {
        FetchError::Failed(format!("the request to {host} failed"))
    }
}

fn error_chain(err: &dyn std::error::Error) -> String {
    let mut text = err.to_string();
    let mut cause = err.source();
    while let Some(current) = cause {
        text.push_str(": ");
        text.push_str(&current.to_string());
        cause = current.source();
    }
    text
}

impl From<UrlRefusal> for FetchError {
    fn from(refusal: UrlRefusal) -> Self {
        FetchError::Refused(refusal)
    }
}

/// The address rule as this fetcher applies it.
#[derive(Debug, Clone, Default)]
struct AddressRules {
    allow_private: bool,
    #[cfg(test)]
    test_network: Option<std::sync::Arc<TestNetwork>>,
}

impl AddressRules {
    // The update fills in the test-only fields; outside tests there are none to fill.
    #[allow(clippy::needless_update)]
    fn new(allow_private: bool) -> Self {
        AddressRules { allow_private, ..AddressRules::default() }
    }

    fn refusal(&self, ip: IpAddr) -> Option<&'static str> {
        if self.allow_private {
            return None;
        }
        #[cfg(test)]
        if self.test_network.as_ref().is_some_and(|network| network.public.contains(&ip)) {
            return None;
        }
        address::refusal(ip)
    }

    fn check_url(&self, url: &str) -> Result<Url, UrlRefusal> {
        address::check_url_with(url, &|ip| self.refusal(ip))
    }

    /// The one lookup of `name`; refused if any address is, since we cannot choose which one the
    /// connection will use (and an attacker's name can list a public address beside a private one).
    async fn resolve(&self, name: &str, port: u16) -> Result<Vec<SocketAddr>, ResolveError> {
        let unresolvable = || ResolveError::Unresolvable(name.to_owned());
        #[cfg(test)]
        if let Some(network) = &self.test_network {
            let addresses = network.hosts.iter().find(|(host, _)| host.eq_ignore_ascii_case(name));
            let addresses = addresses.map(|(_, ips)| ips.iter().map(|ip| SocketAddr::new(*ip, port)).collect());
            return self.judge(name, addresses.ok_or_else(unresolvable)?);
        }
        let addresses = tokio::net::lookup_host((name, port)).await.map_err(|_| unresolvable())?.collect();
        self.judge(name, addresses)
    }

    fn judge(&self, name: &str, addresses: Vec<SocketAddr>) -> Result<Vec<SocketAddr>, ResolveError> {
        if addresses.is_empty() {
            return Err(ResolveError::Unresolvable(name.to_owned()));
        }
        for address in &addresses {
            if let Some(reason) = self.refusal(address.ip()) {
                return Err(ResolveError::Refused(UrlRefusal::Address { host: name.to_owned(), reason }));
            }
        }
        Ok(addresses)
    }
}

/// Why our resolver handed reqwest no addresses.
#[derive(Debug, Clone, thiserror::Error)]
enum ResolveError {
    #[error("{0}")]
    Refused(UrlRefusal),
    #[error("could not resolve `{0}`")]
    Unresolvable(String),
}

impl ResolveError {
    fn into_fetch_error(self, host: &str) -> FetchError {
        match self {
            ResolveError::Refused(refusal) => FetchError::Refused(refusal),
            ResolveError::Unresolvable(_) => FetchError::Failed(format!("could not find the host {host}")),
        }
    }
}

/// reqwest's resolver: judges every address a name resolves to and hands back only those, with
/// port 0 so reqwest fills in the URL's port.
#[derive(Debug, Clone)]
struct CheckedResolver {
    rules: AddressRules,
}

impl Resolve for CheckedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let rules = self.rules.clone();
        Box::pin(async move {
            let addresses = rules.resolve(name.as_str(), 0).await?;
            Ok(Box::new(addresses.into_iter()) as Addrs)
        })
    }
}

/// Stands in for the internet in unit tests. The sandbox has no public addresses to serve from,
/// so a test names a few loopback addresses the rules treat as public (e.g. 127.0.0.2, while
/// 127.0.0.1 stays refused) and a few host names with fixed addresses (no system resolver, so the
/// tests are hermetic). Everything else — the address rule for all other addresses, the resolver
/// hand-off inside reqwest, the checks on each redirect — runs exactly as in production.
#[cfg(test)]
#[derive(Debug, Default)]
struct TestNetwork {
    public: Vec<IpAddr>,
    hosts: Vec<(&'static str, Vec<IpAddr>)>,
}

#[cfg(test)]
impl Fetcher {
    fn on_test_network(network: TestNetwork, timeout: Duration) -> Result<Self, FetchError> {
        let rules = AddressRules { allow_private: false, test_network: Some(std::sync::Arc::new(network)) };
        Self::build(rules, timeout, MAX_BODY_BYTES)
    }
}

#[cfg(test)]
#[path = "fetch_tests.rs"]
mod tests;
