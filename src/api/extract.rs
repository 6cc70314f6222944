//! The callers' extractors: a bearer token in the `Authorization` header
//! to an [`AuthUser`] (required) or a [`MaybeUser`] (public reads), through
//! the configured verifier (`crate::auth`).

use crate::auth::{AuthUser, MaybeUser, resolve_user};
use crate::error::AppError;
use crate::state::AppState;
use actix_web::{FromRequest, HttpRequest, dev::Payload, web};
use std::future::Future;
use std::pin::Pin;

fn bearer(req: &HttpRequest) -> Option<String> {
    let header = req.headers().get(actix_web::http::header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = header.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim().to_string())
}

async fn authenticate(req: HttpRequest) -> Result<Option<AuthUser>, AppError> {
    let Some(token) = bearer(&req) else {
        return Ok(None);
    };
    let state = req
        .app_data::<web::Data<AppState>>()
        .ok_or_else(|| AppError::internal(anyhow::anyhow!("app state missing")))?;
    let identity = state.auth.verify(&token).await?;
    resolve_user(&state.db, &identity).await.map(Some)
}

impl FromRequest for AuthUser {
    type Error = AppError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(
            async move { authenticate(req).await?.ok_or_else(|| AppError::unauthorized("a bearer token is required")) },
        )
    }
}

impl FromRequest for MaybeUser {
    type Error = AppError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    /// A token that is present but invalid is still a 401: silently treating
    /// it as anonymous would hide an expired session from the client.
    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move { authenticate(req).await.map(MaybeUser) })
    }
}
