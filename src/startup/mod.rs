//! Builds and runs the application: database and migrations, auth, the
//! realtime hub and bus, the actor registries, the HTTP server with every
//! route, the built client, and graceful shutdown on SIGTERM. The
//! composition root: the one module that knows every other.

mod realtime;

use crate::api;
use crate::auth::Authenticator;
use crate::config::Config;
use crate::db::Db;
use crate::error::AppError;
use crate::http::headers::SecurityHeaders;
use crate::http::limits::RateLimits;
use crate::state::AppState;
use crate::time::Clock;
use actix_http::HttpService;
use actix_service::{IntoServiceFactory, ServiceFactory, fn_factory, fn_service, map_config};
use actix_web::dev::{AppConfig, Server, ServerHandle};
use actix_web::middleware::from_fn;
use actix_web::{App, HttpRequest, HttpResponse, ResponseError, web};
use std::convert::Infallible;
use std::net::TcpListener;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tracing_actix_web::TracingLogger;

pub struct Application {
    port: u16,
    server: Server,
    state: web::Data<AppState>,
}

impl Application {
    pub async fn build(config: Config) -> anyhow::Result<Self> {
        Self::build_with_clock(config, Arc::new(|| chrono::Utc::now().timestamp_millis())).await
    }

    pub async fn build_with_clock(config: Config, clock: Clock) -> anyhow::Result<Self> {
        let db = Db::connect(&config.database_url, config.db_max_connections).await?;
        db.migrate().await?;
        let auth = Authenticator::from_config(&config)?;
        if config.auth_mode == crate::config::AuthMode::Dev {
            tracing::warn!(
                "DEV AUTH IS ON: anyone can sign in as anyone via POST /api/v1/dev/token. \
                 Configure Clerk (CLERK_JWKS_URL or CLERK_JWT_KEY) for real use."
            );
        }
        let (realtime, mailer) = realtime::start(&config, &db, &clock).await?;
        if config.sync.allow_private_networks {
            tracing::warn!(
                "SYNC_ALLOW_PRIVATE_NETWORKS IS ON: season sync will fetch from loopback and private addresses. \
                 For tests only: anyone who can save a season's syncUrl can make this server call inside your network."
            );
        }
        let fetcher = crate::outbound::fetch::Fetcher::new(config.sync.allow_private_networks)?;
        let state = web::Data::new(AppState {
            db,
            auth,
            config: config.clone(),
            draining: Arc::new(AtomicBool::new(false)),
            clock,
            realtime,
            mailer,
            fetcher,
        });
        crate::sync::scheduler::spawn(state.clone());
        crate::notify::reminders::spawn(state.clone());
        crate::chat::unread::spawn(state.clone());
        crate::rule_moments::spawn(state.clone());
        let listener = TcpListener::bind(&config.bind)?;
        let port = listener.local_addr()?.port();
        let openapi = web::Data::new(api::openapi::OpenApiDoc(api::openapi::json()?));
        let routes = web::Data::new(RouteTable::from_openapi(&openapi.0));
        let dist = config.client_dist.clone();
        let server_state = state.clone();
        // One set per node, shared by every worker.
        let rate_limits = web::Data::new(RateLimits::new(&config.http));
        let security_headers = web::Data::new(SecurityHeaders::new(&config));
        let make_app = move || {
            App::new()
                .wrap(from_fn(crate::http_input::refuse_control_characters))
                .wrap(from_fn(crate::http::headers::middleware))
                .wrap(TracingLogger::<crate::telemetry::RedactedRootSpan>::new())
                .app_data(server_state.clone())
                .app_data(openapi.clone())
                .app_data(routes.clone())
                .app_data(rate_limits.clone())
                .app_data(security_headers.clone())
                .configure(api::extractor_config)
                .service(api::health::healthz)
                .service(api::health::readyz)
                .service(api::openapi::serve)
                .service(
                    web::scope("/api/v1")
                        .wrap(from_fn(crate::http::limits::middleware))
                        .configure(|cfg| api::config(&mut utoipa_actix_web::service_config::ServiceConfig::new(cfg)))
                        .default_service(web::to(unmatched_api_route)),
                )
                .service(web::scope("/api").default_service(web::to(unmatched_api_route)))
                .configure(|cfg| client_files(cfg, &dist))
        };
        let addr = listener.local_addr()?;
        // actix-web's HttpServer, plus the WebSocket takeover: requests to
        // upgrade a connection go through the app like any other, and a
        // `101` hands the connection to the gateway (crate::ws::takeover).
        let server = actix_server::Server::build()
            .listen("rinkside", listener, move || {
                let upgrade_app = make_app.clone();
                let upgrade = fn_factory(move || {
                    let app = upgrade_app();
                    async move {
                        let app = Rc::new(app.into_factory().new_service(AppConfig::default()).await?);
                        Ok::<_, ()>(fn_service(move |(req, framed)| {
                            let app = app.clone();
                            async move {
                                crate::ws::takeover(&*app, req, framed).await;
                                Ok::<_, Infallible>(())
                            }
                        }))
                    }
                });
                HttpService::build()
                    .client_request_timeout(Duration::from_secs(5))
                    .client_disconnect_timeout(Duration::from_secs(1))
                    .local_addr(addr)
                    .upgrade(upgrade)
                    .h1(map_config(make_app(), |_| AppConfig::default()))
                    .tcp()
            })?
            .disable_signals()
            .shutdown_timeout(config.shutdown_grace.as_secs())
            .run();
        Ok(Application { port, server, state })
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    pub fn handle(&self) -> ServerHandle {
        self.server.handle()
    }

    /// Serves until SIGTERM / SIGINT, then drains: readyz goes 503, in-flight
    /// requests finish (up to the grace period), then the process exits.
    pub async fn run_until_stopped(self) -> anyhow::Result<()> {
        let handle = self.server.handle();
        let state = self.state.clone();
        tokio::spawn(async move {
            wait_for_signal().await;
            tracing::info!("shutdown requested: draining");
            state.draining.store(true, Ordering::SeqCst);
            // Sockets would otherwise hold the drain open until the grace
            // period ends; 1001 tells clients to reconnect elsewhere now.
            state.realtime.hub.close_all(1001, "server shutting down");
            // Keep answering (readyz 503) briefly so a load balancer notices
            // before the listener closes.
            tokio::time::sleep(state.config.drain_delay).await;
            handle.stop(true).await;
        });
        self.server.await?;
        tracing::info!("stopped");
        Ok(())
    }

    pub fn state(&self) -> web::Data<AppState> {
        self.state.clone()
    }
}

async fn wait_for_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match (signal(SignalKind::terminate()), signal(SignalKind::interrupt())) {
            (Ok(mut term), Ok(mut int)) => {
                tokio::select! {
                    _ = term.recv() => {}
                    _ = int.recv() => {}
                }
            }
            _ => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Path templates of the API with their methods, to tell "no such route"
/// (404) from "no such method on this route" (405, with the `Allow` header
/// RFC 9110 requires).
pub struct RouteTable(Vec<(Vec<String>, Vec<String>)>);

/// The keys of an OpenAPI path item that are methods.
const METHODS: [&str; 8] = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

impl RouteTable {
    fn from_openapi(json: &str) -> Self {
        let doc: serde_json::Value = serde_json::from_str(json).unwrap_or_default();
        let paths = doc["paths"].as_object().cloned().unwrap_or_default();
        RouteTable(
            paths
                .into_iter()
                .map(|(path, item)| {
                    let methods = item
                        .as_object()
                        .map(|ops| {
                            ops.keys().filter(|m| METHODS.contains(&m.as_str())).map(|m| m.to_uppercase()).collect()
                        })
                        .unwrap_or_default();
                    (path.split('/').map(str::to_string).collect(), methods)
                })
                .collect(),
        )
    }

    /// The methods of every template the path matches (actix tries each
    /// matching resource in turn), or `None` when none matches.
    fn allowed(&self, path: &str) -> Option<Vec<&str>> {
        let segments: Vec<&str> = path.trim_end_matches('/').split('/').collect();
        let mut methods: Vec<&str> = self
            .0
            .iter()
            .filter(|(template, _)| {
                template.len() == segments.len()
                    && template.iter().zip(&segments).all(|(t, s)| (t.starts_with('{') && !s.is_empty()) || t == s)
            })
            .flat_map(|(_, methods)| methods.iter().map(String::as_str))
            .collect();
        if methods.is_empty() {
            return None;
        }
        methods.sort_unstable();
        methods.dedup();
        Some(methods)
    }
}

async fn unmatched_api_route(req: HttpRequest, routes: web::Data<RouteTable>) -> HttpResponse {
    match routes.allowed(req.path()) {
        Some(methods) => {
            let mut response = AppError::MethodNotAllowed.error_response();
            if let Ok(value) = actix_web::http::header::HeaderValue::from_str(&methods.join(", ")) {
                response.headers_mut().insert(actix_web::http::header::ALLOW, value);
            }
            response
        }
        None => AppError::not_found("route").error_response(),
    }
}

/// The built client at `/`; any other non-API path falls back to index.html
/// so client-side routes survive a reload — except what is plainly a file
/// (under `/assets/`, or a last segment with an extension): a missing chunk
/// of an older build answers 404, so the page's loader fails clearly
/// instead of parsing index.html as JavaScript.
fn client_files(cfg: &mut web::ServiceConfig, dist: &std::path::Path) {
    let index = dist.join("index.html");
    let spa_fallback = web::to(move |req: HttpRequest| {
        let index = index.clone();
        async move {
            if looks_like_a_file(req.path()) {
                return HttpResponse::NotFound().content_type("text/plain").body("no such file");
            }
            match actix_files::NamedFile::open(&index) {
                Ok(file) => file.into_response(&req),
                Err(_) => HttpResponse::NotFound()
                    .content_type("text/plain")
                    .body("The client is not built: run `npm --prefix client run build`."),
            }
        }
    });
    if dist.is_dir() {
        cfg.service(actix_files::Files::new("/", dist).index_file("index.html").default_handler(spa_fallback));
    } else {
        cfg.default_service(spa_fallback);
    }
}

/// Client routes are ids and words (`/games/0193…`, `/display/game/…`);
/// files have extensions or live under `/assets/`.
fn looks_like_a_file(path: &str) -> bool {
    path.starts_with("/assets/") || path.rsplit('/').next().is_some_and(|last| last.contains('.'))
}

#[cfg(test)]
mod tests {
    use super::looks_like_a_file;

    #[test]
    fn assets_and_names_with_extensions_are_files_routes_are_not() {
        assert!(looks_like_a_file("/assets/index-abc123.js"));
        assert!(looks_like_a_file("/assets/chunk"));
        assert!(looks_like_a_file("/favicon.ico"));
        assert!(looks_like_a_file("/robots.txt"));
        assert!(!looks_like_a_file("/"));
        assert!(!looks_like_a_file("/games/0193c2d4-aaaa-7bbb-8ccc-123456789abc"));
        assert!(!looks_like_a_file("/display/game/abc"));
    }
}
