//! A league's schedule server on loopback: serves the fixtures (or a test's
//! own text) and counts requests.

use actix_web::{App, HttpRequest, HttpResponse, HttpServer, dev::ServerHandle, web};
use std::collections::HashMap;
use std::net::TcpListener;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

pub const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/fixtures/schedules/");

pub fn fixture(name: &str) -> String {
    std::fs::read_to_string(format!("{FIXTURES}{name}")).unwrap_or_else(|e| panic!("fixture {name}: {e}"))
}

/// Our own fixtures: real-world shapes met since the shared season was written.
pub const OUR_FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/schedules/");

pub fn our_fixture(name: &str) -> String {
    std::fs::read_to_string(format!("{OUR_FIXTURES}{name}")).unwrap_or_else(|e| panic!("fixture {name}: {e}"))
}

type Files = Arc<Mutex<HashMap<String, (String, Vec<u8>)>>>;

pub struct Source {
    base: String,
    files: Files,
    hits: Arc<AtomicUsize>,
    handle: ServerHandle,
}

impl Source {
    pub async fn start() -> Source {
        let files: Files = Arc::default();
        let hits = Arc::new(AtomicUsize::new(0));
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let (f, h) = (files.clone(), hits.clone());
        let server = HttpServer::new(move || {
            App::new().app_data(web::Data::new((f.clone(), h.clone()))).default_service(web::to(serve))
        })
        .workers(1)
        .disable_signals()
        .listen(listener)
        .unwrap()
        .run();
        let handle = server.handle();
        tokio::spawn(server);
        Source { base: format!("http://127.0.0.1:{port}"), files, hits, handle }
    }

    /// Serves `body` at `path`; a DaySmart page N is `path` with `?page=N`.
    pub fn put(&self, path: &str, content_type: &str, body: impl Into<Vec<u8>>) {
        self.files.lock().unwrap().insert(path.to_string(), (content_type.to_string(), body.into()));
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub fn hits(&self) -> usize {
        self.hits.load(Ordering::SeqCst)
    }

    /// The three shapes of the fixture season.
    pub fn put_fixtures(&self) {
        self.put("/league.csv", "text/csv", fixture("league.csv"));
        self.put("/league.ics", "text/calendar; charset=utf-8", fixture("league.ics"));
        self.put("/dash/events", "application/vnd.api+json", fixture("daysmart-events-page-1.json"));
        self.put("/dash/events?page=2", "application/vnd.api+json", fixture("daysmart-events-page-2.json"));
    }
}

impl Drop for Source {
    fn drop(&mut self) {
        let handle = self.handle.clone();
        tokio::spawn(async move { handle.stop(false).await });
    }
}

async fn serve(req: HttpRequest, data: web::Data<(Files, Arc<AtomicUsize>)>) -> HttpResponse {
    data.1.fetch_add(1, Ordering::SeqCst);
    let query = req.query_string().replace("%5B", "[").replace("%5D", "]").replace("%5b", "[").replace("%5d", "]");
    let page = query.split('&').find_map(|p| p.strip_prefix("page[number]=")).filter(|n| *n != "1");
    let key = match page {
        Some(n) => format!("{}?page={n}", req.path()),
        None => req.path().to_string(),
    };
    match data.0.lock().unwrap().get(&key) {
        Some((content_type, body)) => HttpResponse::Ok().content_type(content_type.as_str()).body(body.clone()),
        None => HttpResponse::NotFound().finish(),
    }
}
