//! Tests of the fetcher against hand-written local servers: the SSRF corpus, the caps, redirects,
//! and — on a `TestNetwork` where 127.0.0.2 counts as public — the address rule on every hop.

use std::net::{IpAddr, Ipv4Addr};
use std::time::Duration;

use tokio::time::Instant;

use super::*;

#[path = "test_server.rs"]
mod server;

use server::{Framing, Reply, TestServer};

/// Short enough to keep failing tests quick, long enough for a loaded CI machine to answer locally.
const QUICK: Duration = Duration::from_secs(5);
/// The stall tests' deadline: the fetch must give up on its own, long before the server would.
const STALL_TIMEOUT: Duration = Duration::from_millis(300);
/// Budget for several pages in one test: page 1 must fit in it even on a loaded machine.
const SHARED_DEADLINE: Duration = Duration::from_secs(1);
const SMALL_CAP: usize = 64 * 1024;
const CSV: &str = "date,home,away\n2025-10-04,Otters,Lynx\n";

const LOCALHOST: IpAddr = IpAddr::V4(Ipv4Addr::LOCALHOST);
/// Loopback, but treated as public by the test network.
const PUBLIC: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2));

fn private_allowed() -> Fetcher {
    Fetcher::with_limits(true, QUICK, SMALL_CAP).unwrap()
}

fn test_network() -> Fetcher {
    let network = TestNetwork {
        public: vec![PUBLIC],
        hosts: vec![
            ("public.test", vec![PUBLIC]),
            ("private.test", vec![LOCALHOST]),
            // A rebinding-style answer: one public address beside a private one.
            ("mixed.test", vec![PUBLIC, LOCALHOST]),
        ],
    };
    Fetcher::on_test_network(network, QUICK).unwrap()
}

/// Serves the schedule CSV everywhere, and `/hop/N` as N redirects in a row before it.
async fn schedule_server(ip: IpAddr) -> TestServer {
    TestServer::start(ip, |path| match path.strip_prefix("/hop/").and_then(|n| n.parse::<usize>().ok()) {
        Some(0) | None => Reply::ok("text/csv; charset=utf-8", CSV),
        Some(n) => Reply::redirect("302 Found", format!("/hop/{}", n - 1)),
    })
    .await
}

#[track_caller]
fn assert_refused<T: std::fmt::Debug>(result: Result<T, FetchError>, what: &str) -> UrlRefusal {
    match result {
        Err(FetchError::Refused(refusal)) => refusal,
        other => panic!("{what}: expected a refusal, got {other:?}"),
    }
}

fn ssrf_corpus(port: u16) -> Vec<String> {
    let p = port;
    vec![
        format!("http://127.0.0.1:{p}/"),
        format!("https://127.0.0.1:{p}/"),
        format!("http://localhost:{p}/"),
        format!("http://LocalHost:{p}/"),
        format!("http://localhost.:{p}/"),
        format!("http://api.localhost:{p}/"),
        format!("http://2130706433:{p}/"),
        format!("http://0177.0.0.1:{p}/"),
        format!("http://0x7f.0.0.1:{p}/"),
        format!("http://0x7f000001:{p}/"),
        format!("http://0x7f.1:{p}/"),
        format!("http://127.1:{p}/"),
        format!("http://127.0.0.1.:{p}/"),
        format!("http://[::1]:{p}/"),
        format!("http://[::ffff:127.0.0.1]:{p}/"),
        format!("http://[::ffff:7f00:1]:{p}/"),
        format!("http://[0:0:0:0:0:ffff:127.0.0.1]:{p}/"),
        format!("http://[::127.0.0.1]:{p}/"),
        format!("http://[64:ff9b::7f00:1]:{p}/"),
        format!("http://[2002:7f00:1::]:{p}/"),
        format!("http://0.0.0.0:{p}/"),
        format!("http://0:{p}/"),
        format!("http://[::]:{p}/"),
        "http://[fe80::1]/".to_owned(),
        "http://[fc00::1]/".to_owned(),
        "http://169.254.169.254/latest/meta-data/".to_owned(),
        "http://[::ffff:a9fe:a9fe]/latest/meta-data/".to_owned(),
        "http://10.0.0.1/".to_owned(),
        "http://192.168.1.1/".to_owned(),
        "http://172.16.0.1/".to_owned(),
        "http://100.64.0.1/".to_owned(),
        "http://224.0.0.1/".to_owned(),
        "http://255.255.255.255/".to_owned(),
        "http://192.0.2.1/".to_owned(),
        "file:///etc/passwd".to_owned(),
        "ftp://example.com/".to_owned(),
        format!("gopher://127.0.0.1:{p}/"),
        format!("dict://127.0.0.1:{p}/"),
        "javascript:alert(1)".to_owned(),
        "data:text/plain,hi".to_owned(),
        "http://user:pass@example.com/".to_owned(),
        format!("http://example.com@127.0.0.1:{p}/"),
        format!("http://127.0.0.1:{p}@example.com/"),
    ]
}

#[tokio::test]
async fn every_url_of_the_ssrf_corpus_is_refused_before_any_connection() {
    let listener = schedule_server(LOCALHOST).await;
    let fetcher = Fetcher::with_limits(false, QUICK, SMALL_CAP).unwrap();
    let corpus = ssrf_corpus(listener.addr.port());
    assert!(corpus.len() >= 30);
    for url in &corpus {
        assert_refused(fetcher.get(url).await, url);
        assert_refused(fetcher.check(url).await, url);
    }
    assert_eq!(listener.accepted(), 0, "a refused URL reached the listener");
}

#[tokio::test]
async fn the_corpus_reaches_the_listener_when_private_networks_are_allowed() {
    // Guards the test above: its URLs really point at the listener, so zero means refused.
    let listener = schedule_server(LOCALHOST).await;
    let fetched = private_allowed().get(&format!("http://0x7f.1:{}/", listener.addr.port())).await.unwrap();
    assert_eq!(fetched.body, CSV.as_bytes());
    assert_eq!(listener.accepted(), 1);
}

#[tokio::test]
async fn the_system_resolver_path_refuses_a_name_that_resolves_to_loopback() {
    // `check_url` refuses `localhost` by name; this exercises the lookup that other names take.
    let rules = AddressRules::new(false);
    let refused = rules.resolve("localhost", 80).await.unwrap_err();
    let ResolveError::Refused(UrlRefusal::Address { host, reason }) = refused else { panic!("{refused:?}") };
    assert_eq!((host.as_str(), reason), ("localhost", "loopback"));
    let allowed = AddressRules::new(true);
    assert!(allowed.resolve("localhost", 80).await.unwrap().iter().all(|a| a.ip().is_loopback() && a.port() == 80));
}

#[tokio::test]
async fn a_csv_schedule_is_fetched_with_our_accept_and_user_agent() {
    let server = schedule_server(LOCALHOST).await;
    let fetched = private_allowed().get(&server.url("/season.csv")).await.unwrap();
    assert_eq!(fetched.body, CSV.as_bytes());
    assert_eq!(fetched.content_type.as_deref(), Some("text/csv; charset=utf-8"));
    assert_eq!(fetched.url.as_str(), server.url("/season.csv"));
    let head = server.requests()[0].to_ascii_lowercase();
    assert!(head.starts_with("get /season.csv http/1.1\r\n"), "{head}");
    assert!(head.contains(&format!("\r\naccept: {}\r\n", ACCEPT.to_ascii_lowercase())), "{head}");
    assert!(head.contains("\r\nuser-agent: rinkside-sync/1\r\n"), "{head}");
}

#[tokio::test]
async fn three_redirects_are_followed_to_the_schedule() {
    let server = schedule_server(LOCALHOST).await;
    let fetched = private_allowed().get(&server.url("/hop/3")).await.unwrap();
    assert_eq!(fetched.body, CSV.as_bytes());
    assert_eq!(fetched.url.path(), "/hop/0");
    assert_eq!(server.accepted(), 4);
}

#[tokio::test]
async fn a_fourth_redirect_is_refused() {
    let server = schedule_server(LOCALHOST).await;
    let result = private_allowed().get(&server.url("/hop/4")).await;
    assert!(matches!(result, Err(FetchError::TooManyRedirects)), "{result:?}");
    assert_eq!(server.accepted(), 4, "the fourth redirect's target must not be requested");
}

#[tokio::test]
async fn relative_locations_resolve_against_the_url_that_answered() {
    let server = TestServer::start(LOCALHOST, |path| match path {
        "/a/b/start" => Reply::redirect("301 Moved Permanently", "next?x=1"),
        "/a/b/next?x=1" => Reply::redirect("307 Temporary Redirect", "../c/final"),
        "/a/c/final" => Reply::ok("application/json", "{}"),
        _ => Reply::status("404 Not Found"),
    })
    .await;
    let fetched = private_allowed().get(&server.url("/a/b/start")).await.unwrap();
    assert_eq!(fetched.url.path(), "/a/c/final");
    assert_eq!(fetched.body, "{}".as_bytes());
}

#[tokio::test]
async fn a_redirect_to_another_scheme_or_to_credentials_is_refused() {
    let server = TestServer::start(LOCALHOST, |path| match path {
        "/ftp" => Reply::redirect("302 Found", "ftp://example.com/schedule.csv"),
        "/file" => Reply::redirect("302 Found", "file:///etc/passwd"),
        _ => Reply::redirect("302 Found", "http://admin:admin@example.com/"),
    })
    .await;
    let fetcher = private_allowed();
    assert_eq!(assert_refused(fetcher.get(&server.url("/ftp")).await, "ftp"), UrlRefusal::Scheme("ftp".into()));
    assert_eq!(assert_refused(fetcher.get(&server.url("/file")).await, "file"), UrlRefusal::Scheme("file".into()));
    assert_eq!(assert_refused(fetcher.get(&server.url("/creds")).await, "creds"), UrlRefusal::Credentials);
}

#[tokio::test]
async fn a_public_name_is_connected_through_our_resolver() {
    // No system resolver knows `public.test`: reaching the server proves reqwest asked ours.
    let server = schedule_server(PUBLIC).await;
    let url = format!("http://public.test:{}/season.csv", server.addr.port());
    let fetched = test_network().get(&url).await.unwrap();
    assert_eq!(fetched.body, CSV.as_bytes());
    assert_eq!(fetched.url.host_str(), Some("public.test"));
}

#[tokio::test]
async fn a_redirect_from_a_public_server_into_private_space_is_refused() {
    let private = schedule_server(LOCALHOST).await;
    let private_port = private.addr.port();
    let public = TestServer::start(PUBLIC, move |path| match path {
        "/to-literal" => Reply::redirect("302 Found", format!("http://127.0.0.1:{private_port}/")),
        "/to-mapped" => Reply::redirect("302 Found", format!("http://[::ffff:127.0.0.1]:{private_port}/")),
        "/to-decimal" => Reply::redirect("302 Found", format!("http://2130706433:{private_port}/")),
        "/to-localhost" => Reply::redirect("308 Permanent Redirect", format!("http://localhost:{private_port}/")),
        _ => Reply::redirect("303 See Other", format!("http://private.test:{private_port}/")),
    })
    .await;
    let fetcher = test_network();
    for path in ["/to-literal", "/to-mapped", "/to-decimal", "/to-localhost", "/to-name"] {
        let refusal = assert_refused(fetcher.get(&public.url(path)).await, path);
        assert!(matches!(refusal, UrlRefusal::Address { reason, .. } if reason.ends_with("loopback")), "{path}");
    }
    assert_eq!(public.accepted(), 5);
    assert_eq!(private.accepted(), 0, "a private server was reached through a redirect");
}

#[tokio::test]
async fn a_name_with_any_private_address_is_refused_even_beside_a_public_one() {
    let server = schedule_server(PUBLIC).await;
    let fetcher = test_network();
    let url = format!("http://mixed.test:{}/", server.addr.port());
    let refusal = assert_refused(fetcher.get(&url).await, "mixed.test");
    assert_eq!(refusal, UrlRefusal::Address { host: "mixed.test".into(), reason: "loopback" });
    assert_refused(fetcher.check(&url).await, "check mixed.test");
    assert_eq!(server.accepted(), 0);
}

#[tokio::test]
async fn an_unknown_name_fails_without_a_refusal() {
    let result = test_network().get("http://nowhere.test/").await;
    assert!(matches!(&result, Err(FetchError::Failed(m)) if m == "could not find the host nowhere.test"), "{result:?}");
    let result = test_network().check("http://nowhere.test/").await;
    assert!(matches!(&result, Err(FetchError::Failed(_))), "{result:?}");
}

#[tokio::test]
async fn a_body_over_the_cap_is_too_large_however_it_is_framed() {
    let over = vec![b'x'; SMALL_CAP + 1];
    let server = TestServer::start(LOCALHOST, move |path| match path {
        "/length" => Reply::framed("text/csv", over.clone(), Framing::ContentLength),
        "/chunked" => Reply::framed("text/csv", over.clone(), Framing::Chunked),
        _ => Reply::framed("text/csv", over.clone(), Framing::Close),
    })
    .await;
    for path in ["/length", "/chunked", "/close"] {
        let result = private_allowed().get(&server.url(path)).await;
        assert!(matches!(result, Err(FetchError::TooLarge)), "{path}: {result:?}");
    }
}

#[tokio::test]
async fn a_body_of_exactly_the_cap_is_read_whole() {
    let exact = vec![b'x'; SMALL_CAP];
    let server =
        TestServer::start(LOCALHOST, move |_| Reply::framed("text/csv", exact.clone(), Framing::Chunked)).await;
    assert_eq!(private_allowed().get(&server.url("/")).await.unwrap().body.len(), SMALL_CAP);
}

#[tokio::test]
async fn an_endless_body_is_cut_off_at_the_cap() {
    let server = TestServer::start(LOCALHOST, |_| Reply::EndlessChunks).await;
    let result = private_allowed().get(&server.url("/")).await;
    assert!(matches!(result, Err(FetchError::TooLarge)), "{result:?}");
}

#[tokio::test]
async fn an_announced_length_over_the_cap_is_refused_before_reading_the_body() {
    // The body never comes: only refusing on the header can answer before the deadline.
    let server = TestServer::start(LOCALHOST, |_| Reply::StallMidBody { content_length: SMALL_CAP + 1 }).await;
    let fetcher = Fetcher::with_limits(true, Duration::from_secs(30), SMALL_CAP).unwrap();
    let result = fetcher.get(&server.url("/")).await;
    assert!(matches!(result, Err(FetchError::TooLarge)), "{result:?}");
}

#[tokio::test]
async fn a_server_that_never_answers_is_too_slow() {
    let server = TestServer::start(LOCALHOST, |_| Reply::Stall).await;
    let fetcher = Fetcher::with_limits(true, STALL_TIMEOUT, SMALL_CAP).unwrap();
    let started = Instant::now();
    let result = fetcher.get(&server.url("/")).await;
    assert!(matches!(result, Err(FetchError::TooSlow)), "{result:?}");
    assert!(started.elapsed() < QUICK, "gave up after {:?}", started.elapsed());
}

#[tokio::test]
async fn a_body_that_stalls_halfway_is_too_slow() {
    let server = TestServer::start(LOCALHOST, |_| Reply::StallMidBody { content_length: 1000 }).await;
    let fetcher = Fetcher::with_limits(true, STALL_TIMEOUT, SMALL_CAP).unwrap();
    let result = fetcher.get(&server.url("/")).await;
    assert!(matches!(result, Err(FetchError::TooSlow)), "{result:?}");
}

#[tokio::test]
async fn pages_fetched_under_one_deadline_share_it() {
    let server = TestServer::start(LOCALHOST, |path| match path {
        "/page/1" => Reply::ok("application/vnd.api+json", "{\"data\":[]}"),
        _ => Reply::Stall,
    })
    .await;
    // The fetcher's own timeout is far longer than the shared deadline: only honouring the
    // deadline passed in can end page 2 in time.
    let fetcher = Fetcher::with_limits(true, Duration::from_secs(60), SMALL_CAP).unwrap();
    let deadline = Instant::now() + SHARED_DEADLINE;
    let page_one = fetcher.get_before(&server.url("/page/1"), deadline).await;
    assert!(page_one.is_ok(), "{page_one:?}");
    let page_two = fetcher.get_before(&server.url("/page/2"), deadline).await;
    assert!(matches!(page_two, Err(FetchError::TooSlow)), "{page_two:?}");
    assert!(Instant::now() < deadline + QUICK);
    let past = Instant::now();
    assert!(matches!(fetcher.get_before(&server.url("/page/1"), past).await, Err(FetchError::TooSlow)));
}

#[tokio::test]
async fn a_non_schedule_content_type_is_refused() {
    let server = TestServer::start(LOCALHOST, |path| match path {
        "/html" => Reply::ok("text/html; charset=utf-8", "<html>Sign in</html>"),
        _ => Reply::ok("image/png", vec![0x89, b'P', b'N', b'G']),
    })
    .await;
    let result = private_allowed().get(&server.url("/html")).await;
    assert!(matches!(&result, Err(FetchError::ContentType(t)) if t == "text/html"), "{result:?}");
    let result = private_allowed().get(&server.url("/png")).await;
    assert!(matches!(&result, Err(FetchError::ContentType(t)) if t == "image/png"), "{result:?}");
    assert_eq!(
        FetchError::ContentType("text/html".into()).to_string(),
        "the schedule server answered with `text/html`, which is not a schedule format"
    );
}

#[test]
fn schedule_content_types_match_case_insensitively_ignoring_parameters() {
    let judge = |value: &str| {
        let mut headers = HeaderMap::new();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_str(value).unwrap());
        schedule_content_type(&headers)
    };
    for allowed in [
        "application/json",
        "Application/JSON; charset=UTF-8",
        "application/vnd.api+json",
        "text/calendar; method=PUBLISH",
        "TEXT/CSV",
        "application/csv",
        "text/comma-separated-values",
        "text/plain;charset=us-ascii",
        "application/octet-stream",
    ] {
        assert_eq!(judge(allowed).unwrap().as_deref(), Some(allowed), "{allowed}");
    }
    assert_eq!(judge("").unwrap(), None);
    assert_eq!(schedule_content_type(&HeaderMap::new()).unwrap(), None);
    for refused in ["text/html", "application/xhtml+xml", "image/png", "application/jsonx", "text/csv2"] {
        assert!(matches!(judge(refused), Err(FetchError::ContentType(_))), "{refused}");
    }
}

#[tokio::test]
async fn a_schedule_without_a_content_type_is_accepted() {
    let server = TestServer::start(LOCALHOST, |_| Reply::Full {
        status: "200 OK",
        headers: vec![],
        body: CSV.into(),
        framing: Framing::ContentLength,
    })
    .await;
    let fetched = private_allowed().get(&server.url("/")).await.unwrap();
    assert_eq!((fetched.content_type, fetched.body.as_ref()), (None, CSV.as_bytes()));
}

#[tokio::test]
async fn an_error_status_fails_with_the_status() {
    let server = TestServer::start(LOCALHOST, |path| match path {
        "/missing" => Reply::status("404 Not Found"),
        "/not-modified" => Reply::status("304 Not Modified"),
        _ => Reply::status("500 Internal Server Error"),
    })
    .await;
    for (path, message) in [
        ("/missing", "the schedule server answered 404 Not Found"),
        ("/not-modified", "the schedule server answered 304 Not Modified"),
        ("/broken", "the schedule server answered 500 Internal Server Error"),
    ] {
        let result = private_allowed().get(&server.url(path)).await;
        assert!(matches!(&result, Err(FetchError::Failed(m)) if m == message), "{path}: {result:?}");
    }
}

#[tokio::test]
async fn a_redirect_without_a_location_fails() {
    let server = TestServer::start(LOCALHOST, |_| Reply::status("302 Found")).await;
    let result = private_allowed().get(&server.url("/")).await;
    assert!(matches!(result, Err(FetchError::Failed(_))), "{result:?}");
}

#[tokio::test]
async fn a_closed_port_fails_to_connect() {
    let port = {
        let listener = std::net::TcpListener::bind((LOCALHOST, 0)).unwrap();
        listener.local_addr().unwrap().port()
    };
    let result = private_allowed().get(&format!("http://127.0.0.1:{port}/")).await;
    assert!(matches!(&result, Err(FetchError::Failed(m)) if m == "could not connect to 127.0.0.1"), "{result:?}");
}

#[tokio::test]
async fn check_refuses_localhost_and_accepts_loopback_when_private_networks_are_allowed() {
    let strict = Fetcher::new(false).unwrap();
    let refusal = assert_refused(strict.check("http://localhost/").await, "localhost");
    assert_eq!(refusal.to_string(), "`localhost` is a loopback address");
    assert_refused(strict.check("http://127.0.0.1:8080/schedule.csv").await, "127.0.0.1");

    let lenient = Fetcher::new(true).unwrap();
    let url = lenient.check("http://127.0.0.1:8080/schedule.csv").await.unwrap();
    assert_eq!(url.as_str(), "http://127.0.0.1:8080/schedule.csv");
    assert!(lenient.check("http://localhost:8080/").await.is_ok());
    assert_eq!(assert_refused(lenient.check("ftp://127.0.0.1/").await, "ftp"), UrlRefusal::Scheme("ftp".into()));
}

#[tokio::test]
async fn check_connects_to_nothing() {
    let server = schedule_server(PUBLIC).await;
    let url = test_network().check(&format!("http://public.test:{}/x", server.addr.port())).await.unwrap();
    assert_eq!(url.host_str(), Some("public.test"));
    assert_eq!(server.accepted(), 0);
}
