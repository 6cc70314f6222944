//! The OpenAPI 3 document at `/api/openapi.json`, collected from the route
//! and schema annotations of every `/api/v1` handler when the server starts.

use actix_web::{HttpResponse, get, web};

/// The document, built once at start and shared.
pub struct OpenApiDoc(pub String);

#[get("/api/openapi.json")]
pub async fn serve(doc: web::Data<OpenApiDoc>) -> HttpResponse {
    HttpResponse::Ok().content_type("application/json").body(doc.0.clone())
}
