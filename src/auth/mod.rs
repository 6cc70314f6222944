//! Who is calling. Tokens are Clerk session JWTs (`clerk`) or, without Clerk
//! configuration, tokens this server signs itself (`dev`). Either way the
//! token's `sub` is the user's `clerkId`; a user seen for the first time is
//! created. Handlers ask for an [`AuthUser`] (token required) or a
//! [`MaybeUser`] (public reads); their extractors are `crate::api::extract`.

pub mod clerk;
pub mod dev;
pub mod webhook;

use crate::config::{AuthMode, Config};
use crate::db::{self, Db};
use crate::error::AppError;

/// The claims we rely on, whoever signed the token.
#[derive(Clone, Debug)]
pub struct Identity {
    pub clerk_id: String,
    /// Expiry (epoch seconds): a socket's private subscriptions end then.
    pub expires_at: i64,
}

/// Longest `sub` (a user's `clerkId`) we accept: Clerk's are about 32
/// characters.
pub const MAX_SUBJECT_CHARS: usize = 255;

/// Whether a token's `sub` (or a webhook's user id) can name a user: not
/// empty, at most [`MAX_SUBJECT_CHARS`], no control characters (a NUL is
/// refused by PostgreSQL and kept by SQLite: refused here, the same on both).
pub fn valid_subject(sub: &str) -> bool {
    !sub.is_empty() && sub.chars().count() <= MAX_SUBJECT_CHARS && !sub.chars().any(char::is_control)
}

/// Verifies bearer tokens according to the configured mode.
pub enum Authenticator {
    Dev(dev::DevAuth),
    Clerk(clerk::ClerkVerifier),
}

impl Authenticator {
    pub fn from_config(config: &Config) -> anyhow::Result<Self> {
        Ok(match config.auth_mode {
            AuthMode::Dev => Authenticator::Dev(dev::DevAuth::new(&config.dev_auth_secret)),
            AuthMode::Clerk => Authenticator::Clerk(clerk::ClerkVerifier::from_config(config)?),
        })
    }

    /// A signed, unexpired token whose `sub` can name a user.
    pub async fn verify(&self, token: &str) -> Result<Identity, AppError> {
        let identity = match self {
            Authenticator::Dev(dev) => dev.verify(token),
            Authenticator::Clerk(clerk) => clerk.verify(token).await,
        }?;
        if !valid_subject(&identity.clerk_id) {
            return Err(AppError::unauthorized(
                "invalid session token: its subject must be 1-255 characters with no control characters",
            ));
        }
        Ok(identity)
    }

    pub fn dev(&self) -> Option<&dev::DevAuth> {
        match self {
            Authenticator::Dev(dev) => Some(dev),
            Authenticator::Clerk(_) => None,
        }
    }
}

/// The signed-in caller: our user id plus their Clerk id.
#[derive(Clone, Debug)]
pub struct AuthUser {
    pub id: String,
    pub clerk_id: String,
}

/// The caller if a valid token came, else nobody (public reads).
#[derive(Clone, Debug)]
pub struct MaybeUser(pub Option<AuthUser>);

impl MaybeUser {
    pub fn id(&self) -> Option<&str> {
        self.0.as_ref().map(|u| u.id.as_str())
    }
}

/// The user with this Clerk id, created on first sight with the
/// WELCOME_MESSAGE in their feed, or `None` when that account was deleted.
pub async fn ensure_user(conn: &mut sqlx::AnyConnection, clerk_id: &str) -> Result<Option<String>, sqlx::Error> {
    let Some(user) = db::clerk_users::ensure_by_clerk_id(&mut *conn, clerk_id).await? else { return Ok(None) };
    if user.created {
        crate::feed::welcome(&mut *conn, &user.id).await?;
    }
    Ok(Some(user.id))
}

/// Resolves a verified identity to our user, creating the user on first sight.
pub async fn resolve_user(db: &Db, identity: &Identity) -> Result<AuthUser, AppError> {
    let mut conn = db.pool.acquire().await?;
    let id = ensure_user(&mut conn, &identity.clerk_id)
        .await?
        .ok_or_else(|| AppError::unauthorized("this account was deleted"))?;
    Ok(AuthUser { id, clerk_id: identity.clerk_id.clone() })
}
