//! The WebSocket gateway at `GET /api/v1/ws` (actix-ws): the handshake with
//! its `Origin` allowlist, then one [`session`] per connection.

pub mod protocol;
pub mod session;

use crate::error::AppError;
use crate::startup::AppState;
use actix_web::dev::Extensions;
use actix_web::{HttpRequest, HttpResponse, ResponseError, get, web};
use std::any::Any;
use std::net::Shutdown;
use std::os::fd::AsFd;
use std::sync::Arc;
use utoipa_actix_web::service_config::ServiceConfig;

/// Registered inside `/api/v1` so the OpenAPI document lists it.
pub fn config(cfg: &mut ServiceConfig) {
    cfg.service(upgrade);
}

/// Browsers send `Origin`; a page from another site may not open a socket
/// with our users' cookies or tokens. Non-browser clients send none. Same
/// origin means scheme, host and port (RFC 6454): `https://host` is not the
/// origin of a page served as `http://host`.
fn origin_allowed(req: &HttpRequest, allowed: &[String]) -> bool {
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
    let info = req.connection_info();
    same(&format!("{}://{}", info.scheme(), info.host()))
}

/// A second handle on a connection's TCP socket (a duplicated descriptor),
/// taken when the connection is accepted, so a WebSocket session can tear
/// the connection down when even its close frame cannot be delivered: a
/// client that stopped reading would otherwise hold its socket, and the
/// server's send buffer, for as long as it likes. It costs one descriptor
/// per open connection (docs/realtime.md).
#[derive(Clone)]
pub struct ConnSocket(Arc<std::net::TcpStream>);

impl ConnSocket {
    /// `HttpServer::on_connect` hook: remembers the socket of every plain
    /// TCP connection in its connection data.
    pub fn remember(conn: &dyn Any, data: &mut Extensions) {
        if let Some(tcp) = conn.downcast_ref::<tokio::net::TcpStream>()
            && let Ok(fd) = tcp.as_fd().try_clone_to_owned()
        {
            data.insert(ConnSocket(Arc::new(std::net::TcpStream::from(fd))));
        }
    }

    /// Resets the connection: queued outbound data is discarded (zero
    /// linger, so the last close sends RST instead of waiting to deliver
    /// it) and both directions shut, which wakes the HTTP dispatcher's
    /// pending write and read with errors so it drops the connection.
    pub fn abort(&self) {
        if let Ok(dup) = self.0.try_clone() {
            let _ = tokio::net::TcpSocket::from_std_stream(dup).set_zero_linger();
        }
        let _ = self.0.shutdown(Shutdown::Both);
    }
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
async fn upgrade(
    req: HttpRequest,
    body: web::Payload,
    state: web::Data<AppState>,
) -> Result<HttpResponse, actix_web::Error> {
    if !origin_allowed(&req, &state.config.allowed_origins) {
        return Ok(AppError::forbidden("this origin may not open a socket").error_response());
    }
    let socket = req.conn_data::<ConnSocket>().cloned();
    // Like every other refusal, in the error envelope (actix-ws answers an
    // empty 400 by itself).
    let (response, ws_session, stream) = match actix_ws::handle(&req, body) {
        Ok(upgraded) => upgraded,
        Err(err) => return Ok(AppError::BadRequest(format!("not a WebSocket handshake: {err}")).error_response()),
    };
    session::spawn(state.into_inner(), ws_session, stream, socket);
    Ok(response)
}
