//! Dev auth: without Clerk configuration the server signs its own tokens for
//! any `clerkId` (`POST /api/v1/dev/token`). HS256 with `DEV_AUTH_SECRET`, so
//! every node of a dev cluster accepts every other node's tokens. Never
//! enabled together with Clerk.

use super::Identity;
use crate::error::AppError;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};

/// Dev tokens live a day: nobody refreshes them.
const DEV_TOKEN_TTL_SECS: i64 = 24 * 3600;
const DEV_ISSUER: &str = "rinkside-dev";

pub struct DevAuth {
    encoding: EncodingKey,
    decoding: DecodingKey,
}

#[derive(Serialize, Deserialize)]
struct DevClaims {
    sub: String,
    iss: String,
    iat: i64,
    exp: i64,
}

impl DevAuth {
    pub fn new(secret: &str) -> Self {
        DevAuth {
            encoding: EncodingKey::from_secret(secret.as_bytes()),
            decoding: DecodingKey::from_secret(secret.as_bytes()),
        }
    }

    pub fn issue(&self, clerk_id: &str) -> Result<String, AppError> {
        let now = chrono::Utc::now().timestamp();
        let claims =
            DevClaims { sub: clerk_id.into(), iss: DEV_ISSUER.into(), iat: now, exp: now + DEV_TOKEN_TTL_SECS };
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.encoding).map_err(AppError::internal)
    }

    pub fn verify(&self, token: &str) -> Result<Identity, AppError> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.set_issuer(&[DEV_ISSUER]);
        validation.leeway = 5;
        let data = jsonwebtoken::decode::<DevClaims>(token, &self.decoding, &validation)
            .map_err(|e| AppError::unauthorized(format!("invalid token: {e}")))?;
        Ok(Identity { clerk_id: data.claims.sub, expires_at: data.claims.exp })
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a failed unwrap is a failed test
mod tests {
    use super::*;

    #[test]
    fn issued_tokens_verify_and_foreign_ones_do_not() {
        let a = DevAuth::new("one");
        let token = a.issue("dev_alice").unwrap();
        assert_eq!(a.verify(&token).unwrap().clerk_id, "dev_alice");
        assert!(DevAuth::new("two").verify(&token).is_err());
        assert!(a.verify("garbage").is_err());
    }
}

#[cfg(test)]
mod fuzz {
    use super::*;
    use crate::fuzzing::{self, text};
    use proptest::prelude::*;

    /// JWT-shaped strings: three dot-separated base64url-ish parts.
    fn jwt_like() -> impl Strategy<Value = String> {
        prop::collection::vec(prop_oneof!["[A-Za-z0-9_-]{0,80}".prop_map(String::from), text()], 1..5)
            .prop_map(|parts| parts.join("."))
    }

    proptest! {
        #![proptest_config(fuzzing::config(1_000))]

        /// Any bearer token or `auth` frame token is refused with a 401
        /// value unless we signed it.
        #[test]
        fn any_foreign_token_is_refused(token in prop_oneof![jwt_like(), text()]) {
            let auth = DevAuth::new("fuzz");
            match auth.verify(&token) {
                Ok(_) => prop_assert!(false, "a token we never issued verified: {}", token),
                Err(e) => prop_assert_eq!(e.code(), "unauthorized"),
            }
        }
    }
}
