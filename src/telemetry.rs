//! Logging: `tracing` to stdout, human-readable by default, JSON with
//! `LOG_FORMAT=json`; level from `RUST_LOG` (default `info`). Every
//! request's span names its path with secrets redacted.

use actix_web::HttpMessage;
use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use std::borrow::Cow;
use tracing::Span;
use tracing_actix_web::{DefaultRootSpanBuilder, RequestId, RootSpanBuilder};
use tracing_subscriber::EnvFilter;

pub fn init(json: bool) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_target(false);
    // try_init: tests may call this more than once.
    let _ = if json { builder.json().try_init() } else { builder.try_init() };
}

/// The root span of every request: tracing-actix-web's fields, with the
/// request's path and query (`http.target`) cleared of secrets first. A
/// calendar feed's URL is its only key, so a log line that quoted it would
/// hand out the feed.
pub struct RedactedRootSpan;

impl RootSpanBuilder for RedactedRootSpan {
    fn on_request_start(request: &ServiceRequest) -> Span {
        let target = request.uri().path_and_query().map_or("", |p| p.as_str());
        let route = request.match_pattern().unwrap_or_else(|| "default".into());
        let user_agent = request.headers().get("User-Agent").and_then(|h| h.to_str().ok()).unwrap_or("");
        let info = request.connection_info().clone();
        tracing::info_span!(
            "HTTP request",
            http.method = %request.method(),
            http.route = %route,
            http.flavor = ?request.version(),
            http.scheme = %info.scheme(),
            http.host = %info.host(),
            http.client_ip = %info.realip_remote_addr().unwrap_or(""),
            http.user_agent = %user_agent,
            http.target = %redacted_target(target),
            http.status_code = tracing::field::Empty,
            otel.name = %format!("{} {route}", request.method()),
            otel.kind = "server",
            otel.status_code = tracing::field::Empty,
            request_id = %request.extensions().get::<RequestId>().map(ToString::to_string).unwrap_or_default(),
            exception.message = tracing::field::Empty,
            exception.details = tracing::field::Empty,
        )
    }

    fn on_request_end<B: MessageBody>(span: Span, outcome: &Result<ServiceResponse<B>, actix_web::Error>) {
        DefaultRootSpanBuilder::on_request_end(span, outcome);
    }
}

/// Query parameters whose values are secrets.
const SECRET_PARAMS: &[&str] = &["token", "access_token"];

/// `target` with every secret replaced by `REDACTED`: the token of a
/// calendar feed's path (`/api/v1/calendar/TOKEN.ics`) and the values of
/// `token`-like query parameters.
pub fn redacted_target(target: &str) -> Cow<'_, str> {
    let (path, query) = target.split_once('?').map_or((target, None), |(p, q)| (p, Some(q)));
    let calendar = path.find("/calendar/").map(|at| at + "/calendar/".len());
    let secret_query = query.is_some_and(|q| q.split('&').any(is_secret_param));
    if calendar.is_none() && !secret_query {
        return Cow::Borrowed(target);
    }
    let mut out = match calendar {
        Some(start) => {
            let file = &path[start..];
            let ext = file.rfind('.').map_or("", |dot| &file[dot..]);
            format!("{}REDACTED{ext}", &path[..start])
        }
        None => path.to_string(),
    };
    if let Some(query) = query {
        out.push('?');
        let pairs: Vec<String> = query
            .split('&')
            .map(|pair| match pair.split_once('=') {
                Some((name, _)) if is_secret_param(pair) => format!("{name}=REDACTED"),
                _ => pair.to_string(),
            })
            .collect();
        out.push_str(&pairs.join("&"));
    }
    Cow::Owned(out)
}

fn is_secret_param(pair: &str) -> bool {
    let name = pair.split_once('=').map_or(pair, |(n, _)| n);
    SECRET_PARAMS.iter().any(|s| name.eq_ignore_ascii_case(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calendar_tokens_and_token_parameters_are_redacted() {
        assert_eq!(redacted_target("/api/v1/calendar/s3cr3t.ics"), "/api/v1/calendar/REDACTED.ics");
        assert_eq!(redacted_target("/api/v1/calendar/s3cr3t"), "/api/v1/calendar/REDACTED");
        assert_eq!(redacted_target("/api/v1/calendar/abc.ics?x=1"), "/api/v1/calendar/REDACTED.ics?x=1");
        assert_eq!(redacted_target("/api/v1/ws?token=abc&x=1"), "/api/v1/ws?token=REDACTED&x=1");
        assert_eq!(redacted_target("/api/v1/ws?Access_Token=abc"), "/api/v1/ws?Access_Token=REDACTED");
        assert_eq!(redacted_target("/api/v1/events?limit=5"), "/api/v1/events?limit=5");
        assert!(matches!(redacted_target("/api/v1/events/1"), Cow::Borrowed(_)));
        assert_eq!(redacted_target(""), "");
    }
}
