//! Clerk session JWTs: RS256 only, keys from `CLERK_JWKS_URL` (cached by
//! `kid`, refetched on an unknown `kid` at most once a minute) or a PEM key in
//! `CLERK_JWT_KEY`. Checks signature, `exp`, `nbf` (5 s leeway), `iss` (required) when
//! configured, and `azp` against `CLERK_AUTHORIZED_PARTIES`.

use super::Identity;
use crate::config::Config;
use crate::error::AppError;
use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde::Deserialize;
use std::collections::HashMap;
use std::time::{Duration, Instant};
use tokio::sync::{Mutex, RwLock};

/// Clock skew we forgive on `exp` and `nbf`.
const LEEWAY_SECS: u64 = 5;
/// An unknown `kid` triggers a JWKS refetch at most this often, so a flood
/// of forged tokens cannot turn into a flood of requests to Clerk.
const JWKS_REFETCH_INTERVAL: Duration = Duration::from_secs(60);

enum Keys {
    Pem(DecodingKey),
    Jwks {
        url: String,
        client: reqwest::Client,
        cache: RwLock<HashMap<String, DecodingKey>>,
        /// When we last fetched; `None` before the first fetch.
        last_fetch: Mutex<Option<Instant>>,
    },
}

pub struct ClerkVerifier {
    keys: Keys,
    issuer: Option<String>,
    authorized_parties: Vec<String>,
}

#[derive(Deserialize)]
struct ClerkClaims {
    sub: String,
    exp: i64,
    #[serde(default)]
    azp: Option<String>,
}

impl ClerkVerifier {
    pub fn from_config(config: &Config) -> anyhow::Result<Self> {
        let keys = if let Some(pem) = &config.clerk_jwt_key {
            // Clerk's dashboard shows the key with literal "\n"s; accept both.
            let pem = pem.replace("\\n", "\n");
            Keys::Pem(DecodingKey::from_rsa_pem(pem.as_bytes())?)
        } else if let Some(url) = &config.clerk_jwks_url {
            Keys::Jwks {
                url: url.clone(),
                client: reqwest::Client::builder().timeout(Duration::from_secs(5)).build()?,
                cache: RwLock::new(HashMap::new()),
                last_fetch: Mutex::new(None),
            }
        } else {
            anyhow::bail!("Clerk needs CLERK_JWKS_URL or CLERK_JWT_KEY");
        };
        Ok(ClerkVerifier {
            keys,
            issuer: config.clerk_issuer.clone(),
            authorized_parties: config.clerk_authorized_parties.clone(),
        })
    }

    pub async fn verify(&self, token: &str) -> Result<Identity, AppError> {
        let invalid = |why: &str| AppError::unauthorized(format!("invalid session token: {why}"));
        let header = jsonwebtoken::decode_header(token).map_err(|_| invalid("malformed"))?;
        if header.alg != Algorithm::RS256 {
            return Err(invalid("algorithm must be RS256"));
        }
        let key = self.key_for(header.kid.as_deref()).await?.ok_or_else(|| invalid("unknown signing key"))?;
        let mut validation = Validation::new(Algorithm::RS256);
        validation.leeway = LEEWAY_SECS;
        validation.validate_nbf = true;
        validation.set_required_spec_claims(&["exp", "sub"]);
        if let Some(iss) = &self.issuer {
            // jsonwebtoken only compares `iss` when the token has one: a
            // configured issuer must also make the claim required.
            validation.set_issuer(&[iss]);
            validation.set_required_spec_claims(&["exp", "sub", "iss"]);
        }
        let data =
            jsonwebtoken::decode::<ClerkClaims>(token, &key, &validation).map_err(|e| invalid(&e.to_string()))?;
        let claims = data.claims;
        if !self.authorized_parties.is_empty() {
            match &claims.azp {
                Some(azp) if self.authorized_parties.iter().any(|p| p == azp) => {}
                _ => return Err(invalid("unauthorized party")),
            }
        }
        Ok(Identity { clerk_id: claims.sub, expires_at: claims.exp })
    }

    async fn key_for(&self, kid: Option<&str>) -> Result<Option<DecodingKey>, AppError> {
        match &self.keys {
            Keys::Pem(key) => Ok(Some(key.clone())),
            Keys::Jwks { url, client, cache, last_fetch } => {
                let Some(kid) = kid else { return Ok(None) };
                if let Some(key) = cache.read().await.get(kid) {
                    return Ok(Some(key.clone()));
                }
                let mut last = last_fetch.lock().await;
                // Someone else may have refreshed while we waited for the lock.
                if let Some(key) = cache.read().await.get(kid) {
                    return Ok(Some(key.clone()));
                }
                if last.is_some_and(|at| at.elapsed() < JWKS_REFETCH_INTERVAL) {
                    return Ok(None);
                }
                *last = Some(Instant::now());
                let fresh = fetch_jwks(client, url).await.map_err(|e| {
                    tracing::warn!(error = %e, "JWKS fetch failed");
                    AppError::Unavailable("cannot verify the session right now".into())
                })?;
                let mut cache = cache.write().await;
                *cache = fresh;
                Ok(cache.get(kid).cloned())
            }
        }
    }
}

async fn fetch_jwks(client: &reqwest::Client, url: &str) -> anyhow::Result<HashMap<String, DecodingKey>> {
    let set: JwkSet = client.get(url).send().await?.error_for_status()?.json().await?;
    let mut keys = HashMap::new();
    for jwk in &set.keys {
        if let (Some(kid), Ok(key)) = (jwk.common.key_id.clone(), DecodingKey::from_jwk(jwk)) {
            keys.insert(kid, key);
        }
    }
    Ok(keys)
}

#[cfg(test)]
mod fuzz {
    use super::*;
    use crate::fuzzing::{self, json_with_keys, text};
    use base64::Engine;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use proptest::prelude::*;
    use serde_json::Value;

    /// Some RSA public key (its private half was thrown away): no token
    /// the fuzzer makes can be signed for it.
    const PEM: &str = "-----BEGIN PUBLIC KEY-----\n\
        MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA6TMY5J8T2kPaL3wWb9wS\n\
        4nT1RWKT7aoIP4rcwiU8rb9Ova1xIOACAXbBfieskB3ay+BiqzZxfy8AmUqY2wHM\n\
        OPTGrYBUzwuAALGDExrZH+FmY340rcxoUFg2tRjwQl8KHIZ+IC2ZUjDfZpyJMIaZ\n\
        50V16cO07oORuSXXSIZEP2sDPRkXa6ZZYREaomE4dxEWxEEW5kYCh+L0Jut4QVjV\n\
        Xt+6dlKrmhVroGHZi1YW2fkG6f1myTW3Zg+Ld1BzaMbqa9L0EAAiDcCqIw6j6Qa+\n\
        3hPq7fHOOQa+D0qA+YuYGHQ+DyAWLMfzSsZlqWrWvmBnH340l2Qo83tM91fSDqQ7\n\
        LQIDAQAB\n\
        -----END PUBLIC KEY-----\n";

    const CLAIMS: &[&str] = &["alg", "kid", "typ", "sub", "exp", "nbf", "iat", "iss", "azp", "RS256", "HS256", "none"];

    /// A JWT whose header and claims are hostile JSON, signature any bytes:
    /// it gets past the header check to the signature and claims.
    fn token() -> impl Strategy<Value = String> {
        let part = |v: Value| URL_SAFE_NO_PAD.encode(v.to_string());
        let header = (json_with_keys(CLAIMS), any::<bool>()).prop_map(|(mut h, rs256)| {
            if rs256 && h.is_object() {
                h["alg"] = Value::from("RS256");
            }
            h
        });
        (header, json_with_keys(CLAIMS), fuzzing::bytes())
            .prop_map(move |(h, c, sig)| format!("{}.{}.{}", part(h), part(c), URL_SAFE_NO_PAD.encode(sig)))
    }

    proptest! {
        #![proptest_config(fuzzing::config(500))]

        /// Any bearer token is refused with a 401 value.
        #[test]
        fn any_token_is_refused_without_a_panic(token in prop_oneof![token(), text()]) {
            let map: HashMap<&str, &str> = [("CLERK_JWT_KEY", PEM), ("CLERK_ISSUER", "https://clerk.rink.example")].into();
            let config = Config::from_lookup(|k| map.get(k).map(|v| v.to_string())).map_err(|e| TestCaseError::fail(e.0))?;
            let verifier = ClerkVerifier::from_config(&config).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let rt = tokio::runtime::Builder::new_current_thread().build().map_err(|e| TestCaseError::fail(e.to_string()))?;
            match rt.block_on(verifier.verify(&token)) {
                Ok(identity) => prop_assert!(false, "a forged token verified as {}", identity.clerk_id),
                Err(e) => prop_assert_eq!(e.code(), "unauthorized"),
            }
        }
    }
}
