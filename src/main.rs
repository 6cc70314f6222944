//! `rinkside` (or `rinkside serve`) serves; `rinkside migrate` applies the
//! migrations and exits.

use rinkside::config::Config;
use rinkside::db::Db;
use rinkside::startup::Application;

const USAGE: &str = "usage: rinkside [serve | migrate]";

#[actix_web::main]
async fn main() -> std::process::ExitCode {
    match run().await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!(error = ?e, "rinkside stopped with an error");
            eprintln!("rinkside: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

async fn run() -> anyhow::Result<()> {
    let command = std::env::args().nth(1);
    let config = Config::from_env()?;
    rinkside::telemetry::init(config.log_json);
    match command.as_deref() {
        None | Some("serve") => {
            raise_open_file_limit();
            let app = Application::build(config.clone()).await?;
            tracing::info!(bind = %config.bind, port = app.port(), database = backend(&config), cluster = config.redis_url.is_some(), "rinkside listening");
            let local = format!("http://127.0.0.1:{}", app.port());
            if let Some(game_length) = config.demo {
                rinkside::demo::spawn(local.clone(), app.state().db.clone(), game_length);
            }
            println!("Rinkside is ready: open {local} (Ctrl-C stops it)");
            app.run_until_stopped().await
        }
        Some("migrate") => {
            let db = Db::connect(&config.database_url, config.db_max_connections).await?;
            db.migrate().await?;
            tracing::info!(database = backend(&config), "migrations applied");
            Ok(())
        }
        Some(other) => anyhow::bail!("unknown command {other:?}; {USAGE}"),
    }
}

/// Every open socket is a descriptor: take as many as the hard limit
/// allows, and say how many that is.
fn raise_open_file_limit() {
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(limit) => tracing::info!(open_files = limit, "open-file limit raised to the hard limit"),
        Err(e) => tracing::warn!(error = %e, "could not raise the open-file limit"),
    }
}

fn backend(config: &Config) -> &'static str {
    if config.is_sqlite() { "sqlite" } else { "postgres" }
}
