//! Logging: `tracing` to stdout, human-readable by default, JSON with
//! `LOG_FORMAT=json`; level from `RUST_LOG` (default `info`).

use tracing_subscriber::EnvFilter;

pub fn init(json: bool) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_target(false);
    // try_init: tests may call this more than once.
    let _ = if json { builder.json().try_init() } else { builder.try_init() };
}
