//! The WebSocket gateway at `GET /api/v1/ws`. The handshake is an ordinary
//! request through the app (its middleware, rate limits and the `Origin`
//! allowlist); when the app answers `101`, [`takeover`] writes that answer
//! and keeps the TCP connection for one [`session`], without the HTTP
//! server's buffers and channels (docs/realtime.md › Memory per connection).

pub mod fragments;
pub mod protocol;
pub mod schema;
pub mod session;
pub mod wire;

use crate::error::AppError;
use crate::state::AppState;
use actix_codec::Framed;
use actix_http::body::{BodySize, MessageBody};
use actix_http::ws::HandshakeError;
use actix_http::{ConnectionType, Method, Request, Response, StatusCode, Version, h1};
use actix_web::body::BoxBody;
use actix_web::dev::{Service, ServiceResponse};
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, ResponseError, get, web};
use futures_util::SinkExt;
use tokio::net::TcpStream;
use utoipa_actix_web::service_config::ServiceConfig;

/// Registered inside `/api/v1` so the OpenAPI document lists it.
pub fn config(cfg: &mut ServiceConfig) {
    cfg.service(upgrade);
}

/// Browsers send `Origin`; a page from another site may not open a socket
/// with our users' cookies or tokens. Non-browser clients send none. Same
/// origin means scheme, host and port (RFC 6454): `https://host` is not the
/// origin of a page served as `http://host`. Our own origin is the `Host`
/// the request was sent to over plain HTTP; a proxy's `Forwarded` /
/// `X-Forwarded-Host` / `X-Forwarded-Proto` count only with
/// `TRUST_FORWARDED_FOR` (otherwise any client could name its own origin).
fn origin_allowed(req: &HttpRequest, allowed: &[String], trust_forwarded: bool) -> bool {
    let Some(origin) = req.headers().get("origin").and_then(|o| o.to_str().ok()) else { return true };
    let Ok(origin) = url::Url::parse(origin).map(|u| u.origin()) else { return false };
    // An opaque origin (`null`, `file:`) never equals another.
    if !origin.is_tuple() {
        return false;
    }
    let same = |candidate: &str| url::Url::parse(candidate).is_ok_and(|u| u.origin() == origin);
    if allowed.iter().any(|a| same(a)) {
        return true;
    }
    if trust_forwarded {
        let info = req.connection_info();
        return same(&format!("{}://{}", info.scheme(), info.host()));
    }
    let host = req.headers().get(header::HOST).and_then(|h| h.to_str().ok()).or_else(|| req.uri().host());
    host.is_some_and(|host| same(&format!("http://{host}")))
}

/// A refused handshake, in the error envelope. A version we do not speak
/// names the one we do (RFC 6455 §4.4).
fn refuse_handshake(err: HandshakeError) -> HttpResponse {
    let mut res = AppError::BadRequest(format!("not a WebSocket handshake: {err}")).error_response();
    if matches!(err, HandshakeError::UnsupportedVersion | HandshakeError::NoVersionHeader) {
        res.headers_mut().insert(header::SEC_WEBSOCKET_VERSION, header::HeaderValue::from_static("13"));
    }
    res
}

/// Upgrade to a WebSocket speaking the JSON frames of CONTRACT.md
/// (auth, subscribe, unsubscribe, command, ping).
#[utoipa::path(
    params(
        ("Upgrade" = String, Header, description = "`websocket` (any case)", pattern = "[Ww][Ee][Bb][Ss][Oo][Cc][Kk][Ee][Tt]"),
        ("Connection" = String, Header, description = "`Upgrade` (any case)", pattern = "[Uu][Pp][Gg][Rr][Aa][Dd][Ee]"),
        ("Sec-WebSocket-Version" = String, Header, description = "`13` (RFC 6455)", pattern = "^13$"),
        ("Sec-WebSocket-Key" = String, Header, description = "16 random bytes in base64 (RFC 6455)", pattern = "^[A-Za-z0-9+/]{21}[AQgw]==$"),
    ),
    responses((status = 101, description = "switching to the WebSocket protocol"),
    (status = 400, body = crate::error::ErrorEnvelope, description = "not a WebSocket handshake (`bad_request`)"),
    (status = 403, body = crate::error::ErrorEnvelope, description = "foreign Origin")), tag = "realtime")]
#[get("/ws")]
async fn upgrade(req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    if !origin_allowed(&req, &state.config.allowed_origins, state.config.http.trust_forwarded_for) {
        return AppError::forbidden("this origin may not open a socket").error_response();
    }
    // The opening handshake is an HTTP/1.1 request (RFC 6455 §4.1).
    if req.version() < Version::HTTP_11 {
        return AppError::BadRequest("a WebSocket handshake needs HTTP/1.1".into()).error_response();
    }
    // Like every other refusal, in the error envelope.
    match actix_http::ws::handshake(req.head()) {
        Ok(mut accepted) => HttpResponse::from(accepted.finish().map_into_boxed_body()),
        Err(err) => refuse_handshake(err),
    }
}

/// Every request asking to upgrade its connection to a WebSocket
/// (`Connection: upgrade`, `Upgrade: websocket`) comes here with the connection instead of to the HTTP dispatcher. It
/// goes through the app like any request; a `101` (only [`upgrade`] gives
/// one) is written and the connection becomes a WebSocket session; any
/// other answer is written and the connection closed.
pub async fn takeover<S, B>(app: &S, req: Request, mut framed: Framed<TcpStream, h1::Codec>)
where
    S: Service<Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody + 'static,
{
    // Only a GET (or HEAD) can be a handshake, and a request with a body
    // would reach the app without it (the body stays on the connection):
    // refused in words rather than answered wrongly.
    if !matches!(*req.method(), Method::GET | Method::HEAD) {
        let refusal =
            AppError::BadRequest("`Connection: upgrade` is only for the WebSocket handshake (GET /api/v1/ws)".into());
        return answer_and_close(framed, refusal.error_response().into()).await;
    }
    // Boxed: the connection's task stays small once the session is running.
    let (state, response): (_, Response<BoxBody>) = match Box::pin(app.call(req)).await {
        Ok(res) => {
            let state = res.request().app_data::<web::Data<AppState>>().cloned();
            (state, res.into_parts().1.map_into_boxed_body().into())
        }
        Err(err) => (None, Response::from(err)),
    };
    if let (StatusCode::SWITCHING_PROTOCOLS, Some(state)) = (response.status(), state) {
        let (head, _) = response.into_parts();
        if framed.send(h1::Message::Item((head, BodySize::None))).await.is_ok() {
            // The socket and what the client sent behind its handshake; the
            // HTTP codec and its write buffer go now.
            let (io, early) = {
                let parts = framed.into_parts();
                (parts.io, parts.read_buf)
            };
            // A task of its own, sized for the session: the HTTP server's
            // connection task (sized for its dispatcher) ends here.
            actix_web::rt::spawn(session::run(state.into_inner(), io, early));
        }
        return;
    }
    answer_and_close(framed, response).await;
}

/// Writes an answer to a request that asked to upgrade but was not given a
/// WebSocket, and ends the connection.
async fn answer_and_close(mut framed: Framed<TcpStream, h1::Codec>, response: Response<BoxBody>) {
    let (mut head, body) = response.into_parts();
    head.head_mut().set_connection_type(ConnectionType::Close);
    let Ok(bytes) = actix_web::body::to_bytes(body).await else { return };
    let size = BodySize::Sized(bytes.len() as u64);
    let _ = framed.send(h1::Message::Item((head, size))).await;
    if !bytes.is_empty() {
        let _ = framed.send(h1::Message::Chunk(Some(bytes))).await;
    }
    let _ = framed.send(h1::Message::Chunk(None)).await;
}
