//! The WebSocket gateway at `GET /api/v1/ws` (actix-ws): the handshake with
//! its `Origin` allowlist, then one [`session`] per connection.

pub mod protocol;
pub mod session;

use crate::error::AppError;
use crate::startup::AppState;
use actix_web::{HttpRequest, HttpResponse, ResponseError, get, web};
use utoipa_actix_web::service_config::ServiceConfig;

/// Registered inside `/api/v1` so the OpenAPI document lists it.
pub fn config(cfg: &mut ServiceConfig) {
    cfg.service(upgrade);
}

/// Browsers send `Origin`; a page from another site may not open a socket
/// with our users' cookies or tokens. Non-browser clients send none.
fn origin_allowed(req: &HttpRequest, allowed: &[String]) -> bool {
    let Some(origin) = req.headers().get("origin").and_then(|o| o.to_str().ok()) else { return true };
    if allowed.iter().any(|a| a == origin) {
        return true;
    }
    let host = req.connection_info().host().to_string();
    url::Url::parse(origin)
        .ok()
        .map(|u| match (u.host_str(), u.port()) {
            (Some(h), Some(p)) => format!("{h}:{p}"),
            (Some(h), None) => h.to_string(),
            _ => String::new(),
        })
        .is_some_and(|origin_host| origin_host == host)
}

/// Upgrade to a WebSocket speaking the JSON frames of CONTRACT.md
/// (auth, subscribe, unsubscribe, command, ping).
#[utoipa::path(responses((status = 101, description = "switching to the WebSocket protocol"), (status = 403, body = crate::error::ErrorEnvelope, description = "foreign Origin")), tag = "realtime")]
#[get("/ws")]
async fn upgrade(
    req: HttpRequest,
    body: web::Payload,
    state: web::Data<AppState>,
) -> Result<HttpResponse, actix_web::Error> {
    if !origin_allowed(&req, &state.config.allowed_origins) {
        return Ok(AppError::forbidden("this origin may not open a socket").error_response());
    }
    let (response, ws_session, stream) = actix_ws::handle(&req, body)?;
    session::spawn(state.into_inner(), ws_session, stream);
    Ok(response)
}
