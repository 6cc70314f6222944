//! Rate limits. [`RateLimits`] keeps buckets per client address, per
//! bearer token and, tightest, per address for dev sign-in
//! (`POST /api/v1/dev/token`); [`KeyedBuckets`] also limits chat floods.
//!
//! A refused request answers 429 with the contract's envelope
//! (`rate_limited`) and `Retry-After` in whole seconds. Health checks live
//! outside `/api/v1` and are never limited. Keyed buckets sit in a map that
//! forgets a bucket once it has refilled (then it is indistinguishable from
//! a new one), so memory follows the number of recently active clients, and
//! a hard cap bounds it even under a flood of fresh addresses.
//!
//! The keyed buckets are governor's keyed GCRA limiter (GCRA is a token
//! bucket kept as one timestamp): it gives bursts, the wait that becomes
//! `Retry-After`, and `retain_recent` to forget refilled keys. What we add
//! is the cap (`CappedStore`, a state store around governor's DashMap one),
//! the sweep schedule, and clamping rates so governor's u64 nanoseconds
//! cannot overflow. The WebSocket's per-connection [`TokenBucket`] stays
//! ours: one owner behind `&mut`, no map, and a rate of 0 (never refills)
//! that a governor `Quota` cannot express; its direct limiter would add
//! atomics and a clock for a dozen lines of arithmetic.

use crate::config::HttpLimits;
use crate::error::AppError;
use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::Method;
use actix_web::http::header::{AUTHORIZATION, HeaderValue, RETRY_AFTER, UPGRADE};
use actix_web::middleware::Next;
use actix_web::{ResponseError, web};
use dashmap::DashMap;
use governor::clock::{Clock, MonotonicClock, Reference};
use governor::middleware::NoOpMiddleware;
use governor::nanos::Nanos;
use governor::state::StateStore;
use governor::state::keyed::{DashMapStateStore, ShrinkableKeyedStateStore};
use governor::{Quota, RateLimiter};
use std::hash::{BuildHasher, Hash, RandomState};
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
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
}

/// Past this many live buckets in one map, new keys are let through
/// untracked (and counted in the log) rather than growing memory: a flood
/// from that many distinct addresses is beyond what a per-address limit on
/// one node can answer anyway.
const MAX_KEYS: usize = 100_000;

/// How often a map drops its refilled buckets.
const SWEEP_EVERY: Duration = Duration::from_secs(5);

/// The slowest refill a keyed limit takes: one token a day. governor keeps
/// time in `u64` nanoseconds and multiplies the period by the burst, which
/// would overflow (a panic) for an absurdly small configured rate.
const MAX_PERIOD: Duration = Duration::from_secs(24 * 3600);

/// Buckets by key, forgotten once refilled: governor's keyed GCRA limiter
/// (a token bucket by another name: `rate` per second sustained, `burst` at
/// once) over a map capped at `MAX_KEYS`. `C` is the clock, a fake one in
/// tests.
pub struct KeyedBuckets<K: Hash + Eq + Clone, C: Clock = MonotonicClock> {
    limiter: RateLimiter<K, CappedStore<K>, C, NoOpMiddleware<C::Instant>>,
    /// When the map was last swept; `None` before the first check.
    last_sweep: Mutex<Option<C::Instant>>,
    /// Shared with the store, which governor does not lend out.
    untracked: Arc<AtomicU64>,
}

impl<K: Hash + Eq + Clone> KeyedBuckets<K> {
    /// `None` when `rate` is 0: that limit is off.
    pub fn new(rate_per_sec: f64, burst: u32) -> Option<Self> {
        Self::with_clock(rate_per_sec, burst, MonotonicClock)
    }
}

impl<K: Hash + Eq + Clone, C: Clock> KeyedBuckets<K, C> {
    /// `None` when `rate` is 0 (or not a number): that limit is off.
    pub fn with_clock(rate_per_sec: f64, burst: u32, clock: C) -> Option<Self> {
        let quota = quota(rate_per_sec, burst)?;
        let untracked = Arc::new(AtomicU64::new(0));
        let store = CappedStore { map: DashMap::default(), untracked: Arc::clone(&untracked) };
        Some(KeyedBuckets { limiter: RateLimiter::new(quota, store, clock), last_sweep: Mutex::new(None), untracked })
    }

    /// Takes a token from `key`'s bucket, or says how long until one.
    pub fn check(&self, key: &K) -> Result<(), Duration> {
        self.sweep();
        self.limiter.check_key(key).map_err(|not_until| not_until.wait_time_from(self.limiter.clock().now()))
    }

    /// Every `SWEEP_EVERY`, drops the buckets that have refilled and logs
    /// what the cap let through untracked since the last sweep.
    fn sweep(&self) {
        let now = self.limiter.clock().now();
        let mut last = self.last_sweep.lock().unwrap_or_else(PoisonError::into_inner);
        if last.is_some_and(|last| now.duration_since(last) < Nanos::from(SWEEP_EVERY)) {
            return;
        }
        *last = Some(now);
        drop(last);
        self.limiter.retain_recent();
        let untracked = self.untracked.swap(0, Ordering::Relaxed);
        if untracked > 0 {
            tracing::warn!(untracked, keys = self.limiter.len(), "rate limit map full");
        }
    }

    /// Buckets held right now.
    pub fn len(&self) -> usize {
        self.limiter.len()
    }

    pub fn is_empty(&self) -> bool {
        self.limiter.is_empty()
    }
}

/// A limit of `rate_per_sec` sustained and `burst` at once, `None` when off.
fn quota(rate_per_sec: f64, burst: u32) -> Option<Quota> {
    if rate_per_sec.is_nan() || rate_per_sec <= 0.0 {
        return None;
    }
    let burst = NonZeroU32::new(burst).unwrap_or(NonZeroU32::MIN);
    // period × burst must fit governor's u64 nanoseconds, with room to add.
    let fits = Duration::from_nanos(u64::MAX / 4 / u64::from(burst.get()));
    let period = Duration::try_from_secs_f64(1.0 / rate_per_sec).unwrap_or(MAX_PERIOD).min(MAX_PERIOD).min(fits);
    Quota::with_period(period.max(Duration::from_nanos(1))).map(|quota| quota.allow_burst(burst))
}

/// governor's DashMap state with a cap: past `MAX_KEYS` keys, a key not in
/// the map is measured against a fresh bucket (so let through) and not
/// stored.
struct CappedStore<K: Hash + Eq + Clone> {
    map: DashMapStateStore<K>,
    /// Requests let through untracked because the map was full (logged at
    /// the next sweep).
    untracked: Arc<AtomicU64>,
}

impl<K: Hash + Eq + Clone> StateStore for CappedStore<K> {
    type Key = K;

    fn measure_and_replace<T, F, E>(&self, key: &K, f: F) -> Result<T, E>
    where
        F: Fn(Option<Nanos>) -> Result<(T, Nanos), E>,
    {
        // The cheap test first: only keys not in the map pay for `len`.
        if !self.map.contains_key(key) && self.map.len() >= MAX_KEYS {
            self.untracked.fetch_add(1, Ordering::Relaxed);
            return f(None).map(|(outcome, _)| outcome);
        }
        self.map.measure_and_replace(key, f)
    }
}

impl<K: Hash + Eq + Clone> ShrinkableKeyedStateStore<K> for CappedStore<K> {
    fn retain_recent(&self, drop_below: Nanos) {
        ShrinkableKeyedStateStore::retain_recent(&self.map, drop_below);
    }

    fn shrink_to_fit(&self) {
        self.map.shrink_to_fit();
    }

    fn len(&self) -> usize {
        self.map.len()
    }

    fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

/// The `/api/v1` limits of one node, shared by its workers.
pub struct RateLimits<C: Clock = MonotonicClock> {
    per_address: Option<KeyedBuckets<IpAddr, C>>,
    /// WebSocket handshakes per address, apart from `per_address`: an
    /// arena's phones reconnecting after a restart are one address.
    handshakes: Option<KeyedBuckets<IpAddr, C>>,
    /// Keyed by a hash of the `Authorization` header: a user's token is a
    /// secret, so nobody else can spend their bucket (a user id read from
    /// an unverified token could be), and verifying every token twice is
    /// not worth it. A client that mints tokens to dodge it still meets the
    /// per-address bucket, which is checked first.
    per_user: Option<KeyedBuckets<u64, C>>,
    dev_token: Option<KeyedBuckets<IpAddr, C>>,
    trust_forwarded_for: bool,
    hasher: RandomState,
}

impl RateLimits {
    pub fn new(limits: &HttpLimits) -> Self {
        Self::with_clock(limits, &MonotonicClock)
    }
}

impl<C: Clock + Clone> RateLimits<C> {
    /// Every bucket reads `clock` (a fake one in tests).
    fn with_clock(limits: &HttpLimits, clock: &C) -> Self {
        RateLimits {
            per_address: KeyedBuckets::with_clock(limits.per_address_rate, limits.per_address_burst, clock.clone()),
            handshakes: KeyedBuckets::with_clock(limits.handshake_rate, limits.handshake_burst, clock.clone()),
            per_user: KeyedBuckets::with_clock(limits.per_user_rate, limits.per_user_burst, clock.clone()),
            dev_token: KeyedBuckets::with_clock(limits.dev_token_rate, limits.dev_token_burst, clock.clone()),
            trust_forwarded_for: limits.trust_forwarded_for,
            hasher: RandomState::new(),
        }
    }

    /// Admits the request or says how long to wait.
    fn admit(&self, req: &ServiceRequest) -> Result<(), Duration> {
        let addr = self.client_addr(req);
        let per_address = if is_handshake(req) { &self.handshakes } else { &self.per_address };
        if let (Some(buckets), Some(addr)) = (per_address, addr) {
            buckets.check(&addr)?;
        }
        if let (Some(buckets), Some(auth)) = (&self.per_user, req.headers().get(AUTHORIZATION)) {
            buckets.check(&self.hasher.hash_one(auth.as_bytes()))?;
        }
        if let (Some(buckets), Some(addr)) = (&self.dev_token, addr)
            && req.method() == Method::POST
            && req.path().trim_end_matches('/') == "/api/v1/dev/token"
        {
            buckets.check(&addr)?;
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
    let refused = req.app_data::<web::Data<RateLimits>>().and_then(|l| l.admit(&req).err());
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
    use governor::clock::FakeRelativeClock;

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
        let limits = RateLimits::with_clock(&config.http, &FakeRelativeClock::default());
        let peer: std::net::SocketAddr = "10.1.2.3:4000".parse().unwrap();
        let handshake = || {
            actix_web::test::TestRequest::get()
                .uri("/api/v1/ws")
                .insert_header((UPGRADE, "websocket"))
                .peer_addr(peer)
                .to_srv_request()
        };
        let request = || actix_web::test::TestRequest::get().uri("/api/v1/events").peer_addr(peer).to_srv_request();
        assert_eq!((0..7).filter(|_| limits.admit(&handshake()).is_ok()).count(), 5);
        assert_eq!((0..4).filter(|_| limits.admit(&request()).is_ok()).count(), 2);
        // A plain GET of the socket's path without an upgrade is a request.
        let plain = actix_web::test::TestRequest::get().uri("/api/v1/ws").peer_addr(peer).to_srv_request();
        assert!(limits.admit(&plain).is_err());
    }

    #[test]
    fn keys_have_their_own_buckets_and_a_zero_rate_is_off() {
        let k = KeyedBuckets::with_clock(1.0, 2, FakeRelativeClock::default()).unwrap();
        assert!(k.check(&"a").is_ok() && k.check(&"a").is_ok());
        assert_eq!(k.check(&"a"), Err(Duration::from_secs(1)));
        assert!(k.check(&"b").is_ok());
        k.limiter.clock().advance(Duration::from_millis(1000));
        assert!(k.check(&"a").is_ok() && k.check(&"a").is_err(), "one token a second after the burst");
        assert!(KeyedBuckets::<&str>::new(0.0, 10).is_none());
    }

    #[test]
    fn refilled_buckets_are_forgotten() {
        let k = KeyedBuckets::with_clock(100.0, 10, FakeRelativeClock::default()).unwrap();
        for i in 0..1000 {
            k.check(&i).unwrap();
        }
        assert_eq!(k.len(), 1000);
        // After the sweep interval every bucket has long refilled.
        k.limiter.clock().advance(SWEEP_EVERY);
        k.check(&5000).unwrap();
        assert_eq!(k.len(), 1);
    }

    #[test]
    fn the_map_never_grows_past_its_cap() {
        let k = KeyedBuckets::with_clock(0.001, 1, FakeRelativeClock::default()).unwrap();
        for i in 0..(MAX_KEYS + 50) {
            assert!(k.check(&i).is_ok());
        }
        assert_eq!(k.len(), MAX_KEYS);
        assert_eq!(k.untracked.load(Ordering::Relaxed), 50);
        assert!(k.check(&0).is_err(), "a key in the map is still limited");
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

    /// governor multiplies the period by the burst in u64 nanoseconds: a
    /// tiny rate with a huge burst must not overflow it.
    #[test]
    fn absurd_rates_neither_panic_nor_turn_a_limit_off() {
        for (rate, burst) in [(1e-300, u32::MAX), (1e-12, 1), (f64::MIN_POSITIVE, 0), (1e12, u32::MAX)] {
            let k = KeyedBuckets::with_clock(rate, burst, FakeRelativeClock::default()).unwrap();
            assert!(k.check(&1).is_ok(), "{rate} {burst}");
        }
        let k = KeyedBuckets::with_clock(1e-12, 1, FakeRelativeClock::default()).unwrap();
        assert!(k.check(&1).is_ok());
        assert_eq!(k.check(&1), Err(MAX_PERIOD));
        assert!(KeyedBuckets::<u8>::new(f64::NAN, 1).is_none());
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
