//! Rate limits. One token bucket ([`TokenBucket`]) serves both the
//! WebSocket (one per connection, `src/ws/session.rs`) and HTTP, where
//! [`RateLimits`] keeps buckets per client address, per bearer token and,
//! tightest, per address for dev sign-in (`POST /api/v1/dev/token`).
//!
//! A refused request answers 429 with the contract's envelope
//! (`rate_limited`) and `Retry-After` in whole seconds. Health checks live
//! outside `/api/v1` and are never limited. Keyed buckets sit in a map that
//! forgets a bucket once it has refilled (then it is indistinguishable from
//! a new one), so memory follows the number of recently active clients, and
//! a hard cap bounds it even under a flood of fresh addresses.

use crate::config::HttpLimits;
use crate::error::AppError;
use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::Method;
use actix_web::http::header::{AUTHORIZATION, HeaderValue, RETRY_AFTER, UPGRADE};
use actix_web::middleware::Next;
use actix_web::{ResponseError, web};
use std::collections::HashMap;
use std::hash::{BuildHasher, Hash, RandomState};
use std::net::IpAddr;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// A token bucket: `rate` tokens per second sustained, `burst` at once.
#[derive(Clone, Debug)]
pub struct TokenBucket {
    tokens: f64,
    rate: f64,
    burst: f64,
    at: Instant,
}

impl TokenBucket {
    /// Starts full. A `rate` of 0 never refills.
    pub fn new(rate_per_sec: f64, burst: u32) -> Self {
        Self::new_at(rate_per_sec, burst, Instant::now())
    }

    fn new_at(rate_per_sec: f64, burst: u32, now: Instant) -> Self {
        TokenBucket { tokens: f64::from(burst), rate: rate_per_sec.max(0.0), burst: f64::from(burst), at: now }
    }

    /// Takes a token if there is one.
    pub fn take(&mut self) -> bool {
        self.try_take(Instant::now()).is_ok()
    }

    /// Takes a token, or says how long until the next one.
    pub fn try_take(&mut self, now: Instant) -> Result<(), Duration> {
        self.refill(now);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            return Ok(());
        }
        if self.rate <= 0.0 {
            return Err(Duration::MAX);
        }
        Err(Duration::try_from_secs_f64((1.0 - self.tokens) / self.rate).unwrap_or(Duration::MAX))
    }

    fn refill(&mut self, now: Instant) {
        let elapsed = now.saturating_duration_since(self.at).as_secs_f64();
        self.tokens = (self.tokens + elapsed * self.rate).min(self.burst);
        self.at = self.at.max(now);
    }

    /// Full again: forgetting it changes nothing.
    fn is_full_at(&self, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.at).as_secs_f64();
        self.tokens + elapsed * self.rate >= self.burst
    }
}

/// Past this many live buckets in one map, new keys are let through
/// untracked (and counted in the log) rather than growing memory: a flood
/// from that many distinct addresses is beyond what a per-address limit on
/// one node can answer anyway.
const MAX_KEYS: usize = 100_000;

/// How often a map drops its refilled buckets.
const SWEEP_EVERY: Duration = Duration::from_secs(5);

/// Buckets by key, forgotten once refilled.
pub struct KeyedBuckets<K> {
    rate: f64,
    burst: u32,
    state: Mutex<Keyed<K>>,
}

struct Keyed<K> {
    buckets: HashMap<K, TokenBucket>,
    next_sweep: Instant,
    /// Requests let through untracked because the map was full (logged at
    /// the next sweep).
    untracked: u64,
}

impl<K: Hash + Eq> KeyedBuckets<K> {
    /// `None` when `rate` is 0: that limit is off.
    pub fn new(rate_per_sec: f64, burst: u32) -> Option<Self> {
        (rate_per_sec > 0.0).then(|| KeyedBuckets {
            rate: rate_per_sec,
            burst: burst.max(1),
            state: Mutex::new(Keyed { buckets: HashMap::new(), next_sweep: Instant::now(), untracked: 0 }),
        })
    }

    /// Takes a token from `key`'s bucket, or says how long until one.
    pub fn check(&self, key: K, now: Instant) -> Result<(), Duration> {
        let mut s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if now >= s.next_sweep {
            s.buckets.retain(|_, b| !b.is_full_at(now));
            s.next_sweep = now + SWEEP_EVERY;
            if s.untracked > 0 {
                tracing::warn!(untracked = s.untracked, keys = s.buckets.len(), "rate limit map full");
                s.untracked = 0;
            }
        }
        if let Some(bucket) = s.buckets.get_mut(&key) {
            return bucket.try_take(now);
        }
        if s.buckets.len() >= MAX_KEYS {
            s.untracked += 1;
            return Ok(());
        }
        let mut bucket = TokenBucket::new_at(self.rate, self.burst, now);
        let taken = bucket.try_take(now);
        s.buckets.insert(key, bucket);
        taken
    }

    /// Buckets held right now.
    pub fn len(&self) -> usize {
        self.state.lock().unwrap_or_else(PoisonError::into_inner).buckets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The `/api/v1` limits of one node, shared by its workers.
pub struct RateLimits {
    per_address: Option<KeyedBuckets<IpAddr>>,
    /// WebSocket handshakes per address, apart from `per_address`: an
    /// arena's phones reconnecting after a restart are one address.
    handshakes: Option<KeyedBuckets<IpAddr>>,
    /// Keyed by a hash of the `Authorization` header: a user's token is a
    /// secret, so nobody else can spend their bucket (a user id read from
    /// an unverified token could be), and verifying every token twice is
    /// not worth it. A client that mints tokens to dodge it still meets the
    /// per-address bucket, which is checked first.
    per_user: Option<KeyedBuckets<u64>>,
    dev_token: Option<KeyedBuckets<IpAddr>>,
    trust_forwarded_for: bool,
    hasher: RandomState,
}

impl RateLimits {
    pub fn new(limits: &HttpLimits) -> Self {
        RateLimits {
            per_address: KeyedBuckets::new(limits.per_address_rate, limits.per_address_burst),
            handshakes: KeyedBuckets::new(limits.handshake_rate, limits.handshake_burst),
            per_user: KeyedBuckets::new(limits.per_user_rate, limits.per_user_burst),
            dev_token: KeyedBuckets::new(limits.dev_token_rate, limits.dev_token_burst),
            trust_forwarded_for: limits.trust_forwarded_for,
            hasher: RandomState::new(),
        }
    }

    /// Admits the request or says how long to wait.
    fn admit(&self, req: &ServiceRequest, now: Instant) -> Result<(), Duration> {
        let addr = self.client_addr(req);
        let per_address = if is_handshake(req) { &self.handshakes } else { &self.per_address };
        if let (Some(buckets), Some(addr)) = (per_address, addr) {
            buckets.check(addr, now)?;
        }
        if let (Some(buckets), Some(auth)) = (&self.per_user, req.headers().get(AUTHORIZATION)) {
            buckets.check(self.hasher.hash_one(auth.as_bytes()), now)?;
        }
        if let (Some(buckets), Some(addr)) = (&self.dev_token, addr)
            && req.method() == Method::POST
            && req.path().trim_end_matches('/') == "/api/v1/dev/token"
        {
            buckets.check(addr, now)?;
        }
        Ok(())
    }

    /// The client's address as a bucket key: the TCP peer, or behind a
    /// trusted proxy the last `X-Forwarded-For` entry (the one our proxy
    /// appended; earlier ones are whatever the client claimed).
    fn client_addr(&self, req: &ServiceRequest) -> Option<IpAddr> {
        let forwarded = self
            .trust_forwarded_for
            .then(|| req.headers().get("x-forwarded-for")?.to_str().ok()?.rsplit(',').next()?.trim().parse().ok())
            .flatten();
        forwarded.or_else(|| req.peer_addr().map(|a| a.ip())).map(address_key)
    }
}

/// A WebSocket handshake: `GET /api/v1/ws` asking to upgrade.
fn is_handshake(req: &ServiceRequest) -> bool {
    req.method() == Method::GET
        && req.path().trim_end_matches('/') == "/api/v1/ws"
        && req.headers().get(UPGRADE).and_then(|u| u.to_str().ok()).is_some_and(|u| u.eq_ignore_ascii_case("websocket"))
}

/// IPv4 (and IPv4-mapped IPv6) per address; IPv6 per /64, the block one
/// subscriber usually holds, so rotating addresses inside it gains nothing.
fn address_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6((u128::from(v6) & !u128::from(u64::MAX)).into()),
        },
    }
}

/// Whole seconds for `Retry-After`, at least 1.
fn retry_after_secs(wait: Duration) -> u64 {
    let secs = wait.as_secs().saturating_add(u64::from(wait.subsec_nanos() > 0));
    secs.clamp(1, 24 * 3600)
}

/// Middleware on the `/api/v1` scope.
pub async fn middleware(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, actix_web::Error> {
    let refused = req.app_data::<web::Data<RateLimits>>().and_then(|l| l.admit(&req, Instant::now()).err());
    if let Some(wait) = refused {
        let secs = retry_after_secs(wait);
        tracing::debug!(path = req.path(), retry_after = secs, "rate limited");
        let mut res = AppError::RateLimited(format!("too many requests; retry in {secs} s")).error_response();
        res.headers_mut().insert(RETRY_AFTER, HeaderValue::from(secs));
        return Ok(req.into_response(res).map_into_right_body());
    }
    next.call(req).await.map(ServiceResponse::map_into_left_body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_allows_its_burst_then_its_rate() {
        let t0 = Instant::now();
        let mut b = TokenBucket::new_at(10.0, 3, t0);
        assert!((0..3).all(|_| b.try_take(t0).is_ok()));
        let wait = b.try_take(t0).unwrap_err();
        assert!(wait > Duration::from_millis(90) && wait <= Duration::from_millis(100), "{wait:?}");
        assert!(b.try_take(t0 + Duration::from_millis(100)).is_ok());
        assert!(b.try_take(t0 + Duration::from_millis(100)).is_err());
    }

    #[test]
    fn a_bucket_without_rate_never_refills() {
        let t0 = Instant::now();
        let mut b = TokenBucket::new_at(0.0, 1, t0);
        assert!(b.try_take(t0).is_ok());
        assert_eq!(b.try_take(t0 + Duration::from_secs(3600)), Err(Duration::MAX));
    }

    /// An arena's phones behind one address reconnect after a restart: their
    /// handshakes draw on a bucket of their own, not the one ordinary
    /// requests from that address spend, and a flood past it is refused.
    #[test]
    fn handshakes_have_a_bucket_of_their_own_per_address() {
        let settings = [
            ("HTTP_ADDRESS_RATE_BURST", "2"),
            ("HTTP_ADDRESS_RATE_PER_SEC", "1"),
            ("WS_HANDSHAKE_BURST", "5"),
            ("WS_HANDSHAKE_RATE_PER_SEC", "1"),
        ];
        let config = crate::config::Config::from_lookup(|k| {
            settings.iter().find(|(name, _)| *name == k).map(|(_, v)| (*v).to_string())
        })
        .unwrap();
        let limits = RateLimits::new(&config.http);
        let peer: std::net::SocketAddr = "10.1.2.3:4000".parse().unwrap();
        let handshake = || {
            actix_web::test::TestRequest::get()
                .uri("/api/v1/ws")
                .insert_header((UPGRADE, "websocket"))
                .peer_addr(peer)
                .to_srv_request()
        };
        let request = || actix_web::test::TestRequest::get().uri("/api/v1/events").peer_addr(peer).to_srv_request();
        let t0 = Instant::now();
        assert_eq!((0..7).filter(|_| limits.admit(&handshake(), t0).is_ok()).count(), 5);
        assert_eq!((0..4).filter(|_| limits.admit(&request(), t0).is_ok()).count(), 2);
        // A plain GET of the socket's path without an upgrade is a request.
        let plain = actix_web::test::TestRequest::get().uri("/api/v1/ws").peer_addr(peer).to_srv_request();
        assert!(limits.admit(&plain, t0).is_err());
    }

    #[test]
    fn keys_have_their_own_buckets_and_a_zero_rate_is_off() {
        let t0 = Instant::now();
        let k = KeyedBuckets::new(1.0, 2).unwrap();
        assert!(k.check("a", t0).is_ok() && k.check("a", t0).is_ok());
        assert!(k.check("a", t0).is_err());
        assert!(k.check("b", t0).is_ok());
        assert!(KeyedBuckets::<&str>::new(0.0, 10).is_none());
    }

    #[test]
    fn refilled_buckets_are_forgotten() {
        let t0 = Instant::now();
        let k = KeyedBuckets::new(100.0, 10).unwrap();
        for i in 0..1000 {
            k.check(i, t0).unwrap();
        }
        assert_eq!(k.len(), 1000);
        // After the sweep interval every bucket has long refilled.
        k.check(5000, t0 + SWEEP_EVERY).unwrap();
        assert_eq!(k.len(), 1);
    }

    #[test]
    fn the_map_never_grows_past_its_cap() {
        let t0 = Instant::now();
        let k = KeyedBuckets::new(0.001, 1).unwrap();
        for i in 0..(MAX_KEYS + 50) {
            assert!(k.check(i, t0).is_ok());
        }
        assert_eq!(k.len(), MAX_KEYS);
    }

    #[test]
    fn ipv6_clients_share_a_bucket_per_64_and_mapped_ipv4_is_ipv4() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::9".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(address_key(a), address_key(b));
        assert_ne!(address_key(a), address_key(c));
        assert_eq!(address_key("::ffff:10.0.0.1".parse().unwrap()), "10.0.0.1".parse::<IpAddr>().unwrap());
    }

    #[test]
    fn retry_after_rounds_up_to_whole_seconds() {
        assert_eq!(retry_after_secs(Duration::from_millis(1)), 1);
        assert_eq!(retry_after_secs(Duration::from_millis(1001)), 2);
        assert_eq!(retry_after_secs(Duration::from_secs(6)), 6);
        assert_eq!(retry_after_secs(Duration::MAX), 24 * 3600);
    }
}

#[cfg(test)]
mod fuzz {
    use super::*;
    use crate::fuzzing::{self, text};
    use proptest::prelude::*;

    /// `X-Forwarded-For`-shaped values: addresses, junk, commas.
    fn forwarded_for() -> impl Strategy<Value = Vec<u8>> {
        let entry = prop_oneof![
            any::<std::net::Ipv4Addr>().prop_map(|a| a.to_string()),
            any::<std::net::Ipv6Addr>().prop_map(|a| a.to_string()),
            text(),
        ];
        prop_oneof![
            3 => prop::collection::vec(entry, 0..4).prop_map(|e| e.join(",").into_bytes()),
            1 => fuzzing::bytes(),
        ]
    }

    proptest! {
        #![proptest_config(fuzzing::config(1_000))]

        /// Behind a trusted proxy the bucket key comes from a header: any
        /// value is an address or falls back to the peer, never a panic.
        #[test]
        fn any_forwarded_for_header_gives_a_key_or_the_peer(raw in forwarded_for()) {
            let config = crate::config::Config::from_lookup(|k| (k == "TRUST_FORWARDED_FOR").then(|| "true".to_string()))
                .map_err(|e| TestCaseError::fail(e.0))?;
            let limits = RateLimits::new(&config.http);
            let Ok(value) = HeaderValue::from_bytes(&raw) else { return Ok(()) };
            let peer: std::net::SocketAddr = "10.1.2.3:4000".parse().map_err(|e| TestCaseError::fail(format!("{e}")))?;
            let req = actix_web::test::TestRequest::default()
                .insert_header(("x-forwarded-for", value))
                .peer_addr(peer)
                .to_srv_request();
            prop_assert!(limits.client_addr(&req).is_some());
        }

        /// Every address maps to a key; an IPv6 key is its /64.
        #[test]
        fn any_address_has_a_key(ip in any::<IpAddr>()) {
            if let IpAddr::V6(v6) = address_key(ip) {
                prop_assert_eq!(u128::from(v6) & u128::from(u64::MAX), 0);
            }
        }
    }
}
