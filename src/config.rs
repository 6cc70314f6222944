//! Configuration read once from the environment at start (see the README's
//! table and `.env.example`). Parsed and checked here so the rest of the
//! server works with typed values and never reads the environment itself.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// The default wall-clock length of one demo game, puck drop to FINAL
/// (`DEMO_GAME_SECONDS`): eleven minutes, so that a visitor watches one game
/// rather than a new one every two minutes (issue 26).
pub const DEMO_GAME_SECONDS: u64 = 11 * 60;
/// The shortest game `DEMO_GAME_SECONDS` may ask for (tests run short ones).
pub const DEMO_MIN_GAME_SECONDS: u64 = 10;

/// How requests are authenticated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AuthMode {
    /// The server signs its own tokens for any name (`POST /api/v1/dev/token`).
    Dev,
    /// Clerk session JWTs verified with a JWKS URL or a PEM key.
    Clerk,
}

#[derive(Clone, Debug)]
pub struct Config {
    pub bind: String,
    pub database_url: String,
    /// Database pool size; `None` = the backend's default.
    pub db_max_connections: Option<u32>,
    /// Set means cluster mode: the bus goes through Redis pub/sub.
    pub redis_url: Option<String>,
    pub auth_mode: AuthMode,
    pub clerk_jwks_url: Option<String>,
    pub clerk_jwt_key: Option<String>,
    pub clerk_issuer: Option<String>,
    /// Accepted `azp` claims; empty means any.
    pub clerk_authorized_parties: Vec<String>,
    pub clerk_webhook_secret: Option<String>,
    /// Secret for dev-mode tokens. Shared by every node of a dev cluster so a
    /// token from one node is accepted by the others.
    pub dev_auth_secret: String,
    pub allow_dev_auth_on_network: bool,
    /// Browser origins allowed to open a WebSocket besides the server's own.
    pub allowed_origins: Vec<String>,
    /// Folder with the built client (`client/dist`).
    pub client_dist: PathBuf,
    pub log_json: bool,
    /// How long a drained node waits for in-flight requests on SIGTERM.
    pub shutdown_grace: Duration,
    /// On SIGTERM, how long readyz answers 503 before the listener closes.
    pub drain_delay: Duration,
    /// Idle time after which a live aggregate's actor stops.
    pub actor_idle: Duration,
    /// WebSocket limits (see [`WsLimits`]).
    pub ws: WsLimits,
    /// HTTP rate limits on `/api/v1` (see [`HttpLimits`]).
    pub http: HttpLimits,
    /// Replaces the computed `Content-Security-Policy` when set (e.g. a
    /// custom Clerk domain or a CDN); see docs/limits.md.
    pub content_security_policy: Option<String>,
    /// Season sync (docs/sync.md).
    pub sync: SyncSettings,
    /// The wall-clock length of one demo game, puck drop to FINAL (`DEMO=1`,
    /// `DEMO_GAME_SECONDS`; docs/demo.md); `None`: no demo.
    pub demo: Option<Duration>,
    /// How often each node looks for due reminders (one node at a time runs
    /// them, docs/notifications.md); 0 turns reminders off on this node.
    pub reminder_tick: Duration,
    /// `HOLD_FOLLOW_UPS=1`: this node writes event commits' follow-up
    /// records but never carries them out (another node, or this one
    /// restarted without it, does). Only for crash tests: it makes "killed
    /// between the commit and its consequences" deterministic.
    pub hold_follow_ups: bool,
    /// `smtp://host:port`, `smtps://user:pass@host` or
    /// `smtp://…?tls=required`: notifications also go by mail to people
    /// with an address. Unset: no mail (the default).
    pub smtp_url: Option<String>,
    /// The sender of those mails.
    pub smtp_from: String,
    /// The address people open the app at (`PUBLIC_URL`), for links in
    /// mails (invites); unset: `http://{BIND}`.
    pub public_url: String,
}

/// Season sync settings (docs/sync.md › Schedule).
#[derive(Debug, Clone)]
pub struct SyncSettings {
    /// Lifts the fetcher's address rule: tests serve schedules from
    /// 127.0.0.1. Never in production; the server warns at start.
    pub allow_private_networks: bool,
    /// How often a season with `syncEnabled` syncs (jittered by a tenth).
    pub interval: Duration,
    /// How often each node looks for due seasons; 0 turns the scheduler off.
    pub tick: Duration,
}

/// Token buckets on `/api/v1` (docs/limits.md). A rate of 0 turns that
/// bucket off. The defaults sit far above a person, or an arena full of
/// phones behind one address, and above the test suites (one test user
/// makes up to ~750 requests in a couple of seconds); they turn away a
/// sustained flood. The load generator needs them raised or off.
#[derive(Clone, Debug)]
pub struct HttpLimits {
    /// Requests per second per client address (IPv6: per /64)...
    pub per_address_rate: f64,
    /// ...and the burst above it.
    pub per_address_burst: u32,
    /// WebSocket handshakes per second per client address (IPv6: per /64),
    /// instead of the per-address request bucket: after a node restarts,
    /// every phone of an arena behind one address reconnects at once...
    pub handshake_rate: f64,
    /// ...so the burst holds a full arena; a sustained flood of handshakes
    /// is still refused past it.
    pub handshake_burst: u32,
    /// Requests per second per bearer token (a signed-in user's session)...
    pub per_user_rate: f64,
    /// ...and the burst above it.
    pub per_user_burst: u32,
    /// `POST /api/v1/dev/token` per client address, per second (configured
    /// per minute): creates users, so the tightest of all.
    pub dev_token_rate: f64,
    pub dev_token_burst: u32,
    /// Key the per-address buckets by the last `X-Forwarded-For` entry (the
    /// address our reverse proxy saw) instead of the TCP peer. Only behind
    /// a proxy that sets it: otherwise clients could pick their own key.
    pub trust_forwarded_for: bool,
}

/// Per-connection WebSocket limits. Defaults suit phones and arena displays;
/// every one can be overridden (`WS_*` variables) for tests and load tests.
#[derive(Clone, Debug)]
pub struct WsLimits {
    /// Largest client frame; larger closes with 1009.
    pub max_frame_bytes: usize,
    /// Subscriptions one connection may hold.
    pub max_subscriptions: usize,
    /// Sustained client messages per second (token bucket refill)...
    pub rate_per_sec: u32,
    /// ...and the burst allowed above it.
    pub rate_burst: u32,
    /// Messages refused for rate in a row before closing with 1008.
    pub abuse_strikes: u32,
    /// Outbound frames queued (after coalescing) before closing as too slow.
    pub max_queue: usize,
    /// A single send blocked this long means the client stopped reading.
    pub send_timeout: Duration,
    /// Server ping interval.
    pub heartbeat: Duration,
    /// Silence from the client this long closes the connection.
    pub idle_timeout: Duration,
}

/// A configuration problem, reported at start before anything listens.
#[derive(Debug, thiserror::Error)]
#[error("configuration: {0}")]
pub struct ConfigError(pub String);

impl Config {
    /// Reads the process environment.
    pub fn from_env() -> Result<Self, ConfigError> {
        Self::from_lookup(|k| std::env::var(k).ok())
    }

    /// Reads configuration through `get`, so tests can pass their own values.
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let env = Env(&get);
        let (non_empty, list, flag) = (|k: &str| env.text(k), |k: &str| env.list(k), |k: &str| env.flag(k));
        let (secs, num) = (|k: &str, d: u64| env.secs(k, d), |k: &str, d: u64| env.num(k, d));
        let allow_dev_auth_on_network = flag("ALLOW_DEV_AUTH_ON_NETWORK");
        let clerk_jwks_url = non_empty("CLERK_JWKS_URL");
        let clerk_jwt_key = non_empty("CLERK_JWT_KEY");
        let auth_mode =
            auth_mode(non_empty("AUTH_MODE").as_deref(), clerk_jwks_url.is_some() || clerk_jwt_key.is_some())?;
        let bind = non_empty("BIND").unwrap_or_else(|| "127.0.0.1:8080".into());
        let config = Config {
            public_url: non_empty("PUBLIC_URL")
                .unwrap_or_else(|| format!("http://{bind}"))
                .trim_end_matches('/')
                .to_string(),
            bind,
            database_url: non_empty("DATABASE_URL").unwrap_or_else(|| "sqlite://data/rinkside.db".into()),
            db_max_connections: match non_empty("DATABASE_MAX_CONNECTIONS") {
                None => None,
                Some(v) => {
                    Some(v.parse().map_err(|_| ConfigError("DATABASE_MAX_CONNECTIONS must be a number".into()))?)
                }
            },
            redis_url: non_empty("REDIS_URL"),
            auth_mode,
            clerk_jwks_url,
            clerk_jwt_key,
            clerk_issuer: non_empty("CLERK_ISSUER"),
            clerk_authorized_parties: list("CLERK_AUTHORIZED_PARTIES"),
            clerk_webhook_secret: non_empty("CLERK_WEBHOOK_SECRET"),
            dev_auth_secret: non_empty("DEV_AUTH_SECRET").unwrap_or_else(|| "rinkside-dev-auth-secret".into()),
            allow_dev_auth_on_network,
            allowed_origins: list("ALLOWED_ORIGINS"),
            client_dist: non_empty("CLIENT_DIST").map(PathBuf::from).unwrap_or_else(|| "client/dist".into()),
            log_json: non_empty("LOG_FORMAT").as_deref() == Some("json"),
            shutdown_grace: secs("SHUTDOWN_GRACE_SECS", 10)?,
            drain_delay: Duration::from_millis(num("SHUTDOWN_DRAIN_DELAY_MS", 1000)?),
            actor_idle: secs("ACTOR_IDLE_SECS", 300)?,
            ws: ws_limits(&env)?,
            http: http_limits(&env, allow_dev_auth_on_network)?,
            sync: SyncSettings {
                allow_private_networks: flag("SYNC_ALLOW_PRIVATE_NETWORKS"),
                interval: Duration::from_secs(60 * num("SYNC_INTERVAL_MINUTES", 60)?.max(1)),
                tick: secs("SYNC_TICK_SECONDS", 30)?,
            },
            demo: flag("DEMO")
                .then(|| secs("DEMO_GAME_SECONDS", DEMO_GAME_SECONDS))
                .transpose()?
                .map(|d| d.max(Duration::from_secs(DEMO_MIN_GAME_SECONDS))),
            reminder_tick: secs("REMINDER_TICK_SECONDS", 30)?,
            hold_follow_ups: flag("HOLD_FOLLOW_UPS"),
            smtp_url: non_empty("SMTP_URL"),
            smtp_from: non_empty("SMTP_FROM").unwrap_or_else(|| "Rinkside <notifications@rinkside.invalid>".into()),
            content_security_policy: match non_empty("CONTENT_SECURITY_POLICY") {
                Some(p) if !p.bytes().all(|b| (0x20..0x7f).contains(&b)) => {
                    return Err(ConfigError("CONTENT_SECURITY_POLICY must be one line of printable ASCII".into()));
                }
                p => p,
            },
        };
        config.check_dev_auth_bind()?;
        if config.demo.is_some() && config.auth_mode != AuthMode::Dev {
            return Err(ConfigError("DEMO=1 needs AUTH_MODE=dev: the demo signs its players in as dev users".into()));
        }
        Ok(config)
    }

    /// Dev auth lets anyone sign in as anyone: refuse to expose it beyond
    /// loopback unless explicitly told to.
    fn check_dev_auth_bind(&self) -> Result<(), ConfigError> {
        if self.auth_mode != AuthMode::Dev || self.allow_dev_auth_on_network {
            return Ok(());
        }
        let loopback = match self.bind.parse::<SocketAddr>() {
            Ok(addr) => addr.ip().is_loopback(),
            Err(_) => self.bind.starts_with("localhost:"),
        };
        if loopback {
            Ok(())
        } else {
            Err(ConfigError(format!(
                "dev auth refuses to listen on non-loopback BIND {}; set ALLOW_DEV_AUTH_ON_NETWORK=true to insist",
                self.bind
            )))
        }
    }

    pub fn is_sqlite(&self) -> bool {
        self.database_url.starts_with("sqlite:")
    }
}

/// The socket's limits (docs/limits.md).
fn ws_limits(env: &Env<'_>) -> Result<WsLimits, ConfigError> {
    let (secs, num) = (|k: &str, d: u64| env.secs(k, d), |k: &str, d: u64| env.num(k, d));
    Ok(WsLimits {
        max_frame_bytes: num("WS_MAX_FRAME_BYTES", 64 * 1024)? as usize,
        max_subscriptions: num("WS_MAX_SUBSCRIPTIONS", 200)? as usize,
        rate_per_sec: num("WS_RATE_PER_SEC", 100)? as u32,
        rate_burst: num("WS_RATE_BURST", 300)? as u32,
        abuse_strikes: num("WS_ABUSE_STRIKES", 50)? as u32,
        max_queue: num("WS_MAX_QUEUE", 512)? as usize,
        send_timeout: Duration::from_millis(num("WS_SEND_TIMEOUT_MS", 10_000)?),
        heartbeat: secs("WS_HEARTBEAT_SECS", 15)?,
        idle_timeout: secs("WS_IDLE_TIMEOUT_SECS", 45)?,
    })
}

/// The HTTP rate limits (docs/limits.md).
fn http_limits(env: &Env<'_>, allow_dev_auth_on_network: bool) -> Result<HttpLimits, ConfigError> {
    let num = |k: &str, d: u64| env.num(k, d);
    Ok(HttpLimits {
        per_address_rate: num("HTTP_ADDRESS_RATE_PER_SEC", 200)? as f64,
        per_address_burst: num("HTTP_ADDRESS_RATE_BURST", 2000)? as u32,
        handshake_rate: num("WS_HANDSHAKE_RATE_PER_SEC", 500)? as f64,
        handshake_burst: num("WS_HANDSHAKE_BURST", 6000)? as u32,
        per_user_rate: num("HTTP_USER_RATE_PER_SEC", 50)? as f64,
        per_user_burst: num("HTTP_USER_RATE_BURST", 1000)? as u32,
        // Dev auth reachable from the network (it refuses otherwise)
        // is limited by default; on loopback only local processes —
        // the test suites, the e2e run, the load generator signing in
        // thousands of users — can reach it.
        dev_token_rate: num("DEV_TOKEN_RATE_PER_MIN", if allow_dev_auth_on_network { 10 } else { 0 })? as f64 / 60.0,
        dev_token_burst: num("DEV_TOKEN_RATE_BURST", 10)? as u32,
        trust_forwarded_for: env.flag("TRUST_FORWARDED_FOR"),
    })
}

/// `AUTH_MODE`, or Clerk when its keys are set, else dev; Clerk needs keys.
fn auth_mode(asked: Option<&str>, clerk_keys: bool) -> Result<AuthMode, ConfigError> {
    let mode = match asked {
        Some("dev") => AuthMode::Dev,
        Some("clerk") => AuthMode::Clerk,
        Some(other) => return Err(ConfigError(format!("AUTH_MODE must be dev or clerk, not {other}"))),
        None if clerk_keys => AuthMode::Clerk,
        None => AuthMode::Dev,
    };
    if mode == AuthMode::Clerk && !clerk_keys {
        return Err(ConfigError("AUTH_MODE=clerk needs CLERK_JWKS_URL or CLERK_JWT_KEY".into()));
    }
    Ok(mode)
}

/// The environment, read the same way for every setting: blank is unset.
struct Env<'a>(&'a dyn Fn(&str) -> Option<String>);

impl Env<'_> {
    fn text(&self, k: &str) -> Option<String> {
        (self.0)(k).map(|v| v.trim().to_string()).filter(|v| !v.is_empty())
    }

    /// A comma-separated list, blanks dropped.
    fn list(&self, k: &str) -> Vec<String> {
        self.text(k)
            .map(|v| v.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect())
            .unwrap_or_default()
    }

    fn flag(&self, k: &str) -> bool {
        matches!(self.text(k).as_deref(), Some("1" | "true" | "yes"))
    }

    fn secs(&self, k: &str, default: u64) -> Result<Duration, ConfigError> {
        match self.text(k) {
            None => Ok(Duration::from_secs(default)),
            Some(v) => v
                .parse::<u64>()
                .map(Duration::from_secs)
                .map_err(|_| ConfigError(format!("{k} must be a number of seconds"))),
        }
    }

    fn num(&self, k: &str, default: u64) -> Result<u64, ConfigError> {
        match self.text(k) {
            None => Ok(default),
            Some(v) => v.parse().map_err(|_| ConfigError(format!("{k} must be a number"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(pairs: &[(&str, &str)]) -> Result<Config, ConfigError> {
        let map: std::collections::HashMap<String, String> =
            pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        Config::from_lookup(|k| map.get(k).cloned())
    }

    #[test]
    fn defaults_are_sqlite_dev_auth_on_loopback() {
        let c = with(&[]).unwrap();
        assert_eq!(c.auth_mode, AuthMode::Dev);
        assert!(c.is_sqlite());
        assert_eq!(c.bind, "127.0.0.1:8080");
    }

    #[test]
    fn dev_auth_refuses_a_public_bind_unless_allowed() {
        assert!(with(&[("BIND", "0.0.0.0:8080")]).is_err());
        assert!(with(&[("BIND", "0.0.0.0:8080"), ("ALLOW_DEV_AUTH_ON_NETWORK", "true")]).is_ok());
    }

    #[test]
    fn http_limits_default_on_and_dev_sign_in_is_limited_when_exposed() {
        let c = with(&[]).unwrap();
        assert_eq!((c.http.per_address_rate, c.http.per_address_burst), (200.0, 2000));
        assert_eq!((c.http.per_user_rate, c.http.per_user_burst), (50.0, 1000));
        // On loopback only local processes can sign in: off unless asked.
        assert_eq!(c.http.dev_token_rate, 0.0);
        let exposed = with(&[("BIND", "0.0.0.0:8080"), ("ALLOW_DEV_AUTH_ON_NETWORK", "true")]).unwrap();
        assert_eq!((exposed.http.dev_token_rate * 60.0, exposed.http.dev_token_burst), (10.0, 10));
        let off = with(&[("HTTP_ADDRESS_RATE_PER_SEC", "0"), ("DEV_TOKEN_RATE_PER_MIN", "5")]).unwrap();
        assert_eq!(off.http.per_address_rate, 0.0);
        assert_eq!(off.http.dev_token_rate * 60.0, 5.0);
        assert!(with(&[("HTTP_USER_RATE_BURST", "many")]).is_err());
    }

    #[test]
    fn clerk_configuration_switches_auth_mode() {
        let c = with(&[("CLERK_JWT_KEY", "pem"), ("BIND", "0.0.0.0:80")]).unwrap();
        assert_eq!(c.auth_mode, AuthMode::Clerk);
        assert!(with(&[("AUTH_MODE", "clerk")]).is_err());
    }
}
