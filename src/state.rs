//! What every handler, job and socket session shares: the database, the
//! token verifier, the configuration, the clock, the realtime core, mail
//! and the season sync's fetcher. One per process, built by `startup`.

use crate::auth::Authenticator;
use crate::config::Config;
use crate::db::Db;
use crate::outbound::mail::Mailer;
use crate::realtime::Realtime;
use crate::time::Clock;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Everything handlers share. One per process, behind `web::Data`.
pub struct AppState {
    pub db: Db,
    pub auth: Authenticator,
    pub config: Config,
    /// Set on SIGTERM: `/readyz` answers 503 while in-flight work finishes.
    pub draining: Arc<AtomicBool>,
    pub clock: Clock,
    /// Topic hub, bus and live aggregates.
    pub realtime: Realtime,
    /// Mail, when `SMTP_URL` is set (notifications, invites).
    pub mailer: Option<Arc<Mailer>>,
    /// Season sync's fetcher (docs/sync.md › The fetcher).
    pub fetcher: crate::outbound::fetch::Fetcher,
}
