//! Liveness and readiness, outside `/api/v1` and without auth.

use crate::state::AppState;
use actix_web::{HttpResponse, get, web};
use std::sync::atomic::Ordering;

/// 200 once the database answers and migrations are applied (they run
/// before the server listens).
#[get("/healthz")]
pub async fn healthz(state: web::Data<AppState>) -> HttpResponse {
    if state.db.ping().await {
        HttpResponse::Ok().json(serde_json::json!({"status": "ok"}))
    } else {
        HttpResponse::ServiceUnavailable().json(serde_json::json!({"status": "database unreachable"}))
    }
}

/// 200 while this node accepts traffic; 503 while draining on shutdown.
#[get("/readyz")]
pub async fn readyz(state: web::Data<AppState>) -> HttpResponse {
    if state.draining.load(Ordering::SeqCst) {
        HttpResponse::ServiceUnavailable().json(serde_json::json!({"status": "draining"}))
    } else {
        HttpResponse::Ok().json(serde_json::json!({"status": "ready"}))
    }
}
