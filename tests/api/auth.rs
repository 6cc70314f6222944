//! Signing in: Clerk session tokens (RS256, from a PEM key or a JWKS URL)
//! are accepted only when every check passes, and dev sign-in is off while
//! Clerk is configured. The tests sign their own tokens with keys generated
//! for the run, the way Clerk would.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed unwrap is a failed test

use crate::helpers::*;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use rsa::pkcs8::{EncodePrivateKey, EncodePublicKey, LineEnding};
use rsa::traits::PublicKeyParts;
use serde_json::{Value, json};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const PARTY: &str = "https://app.example";
const ISSUER: &str = "https://clerk.example";

/// An RSA key pair as Clerk holds it: the private half signs, the public
/// half is what the server is configured with (PEM) or fetches (JWK).
struct ClerkKey {
    private_pem: String,
    public_pem: String,
    /// The JWK modulus and exponent, base64url.
    n: String,
    e: String,
}

/// Two key pairs for the whole run: a 2048-bit key takes many seconds to
/// generate in a debug build, so the tests share them (each test still
/// starts its own app and database). The second is "someone else's" key.
fn keys() -> &'static [ClerkKey; 2] {
    static KEYS: OnceLock<[ClerkKey; 2]> = OnceLock::new();
    KEYS.get_or_init(|| {
        let other = std::thread::spawn(ClerkKey::generate);
        let ours = ClerkKey::generate();
        [ours, other.join().unwrap()]
    })
}

impl ClerkKey {
    fn generate() -> ClerkKey {
        let private = rsa::RsaPrivateKey::new(&mut rand::thread_rng(), 2048).unwrap();
        let public = private.to_public_key();
        ClerkKey {
            private_pem: private.to_pkcs8_pem(LineEnding::LF).unwrap().to_string(),
            public_pem: public.to_public_key_pem(LineEnding::LF).unwrap(),
            n: URL_SAFE_NO_PAD.encode(public.n().to_bytes_be()),
            e: URL_SAFE_NO_PAD.encode(public.e().to_bytes_be()),
        }
    }

    /// An RS256 token over `claims`, with `kid` in the header when given.
    fn sign(&self, kid: Option<&str>, claims: &Value) -> String {
        let mut header = Header::new(Algorithm::RS256);
        header.kid = kid.map(str::to_string);
        jsonwebtoken::encode(&header, claims, &EncodingKey::from_rsa_pem(self.private_pem.as_bytes()).unwrap()).unwrap()
    }

    fn jwks(&self, kid: &str) -> String {
        json!({"keys": [{"kty": "RSA", "kid": kid, "use": "sig", "alg": "RS256", "n": self.n, "e": self.e}]})
            .to_string()
    }
}

fn now() -> i64 {
    chrono::Utc::now().timestamp()
}

/// The claims of a fresh, valid Clerk session token for `sub`.
fn session_claims(sub: &str) -> Value {
    json!({"sub": sub, "iss": ISSUER, "azp": PARTY, "sid": "sess_1", "iat": now(), "nbf": now() - 10, "exp": now() + 60})
}

/// The same claims with some replaced (or removed, with `Value::Null`).
fn with(mut claims: Value, changes: Value) -> Value {
    for (k, v) in changes.as_object().unwrap() {
        if v.is_null() {
            claims.as_object_mut().unwrap().remove(k);
        } else {
            claims[k] = v.clone();
        }
    }
    claims
}

async fn clerk_app(key: &ClerkKey) -> TestApp {
    spawn_app_with(&[("CLERK_JWT_KEY", &key.public_pem), ("CLERK_AUTHORIZED_PARTIES", PARTY), ("CLERK_ISSUER", ISSUER)])
        .await
}

async fn me_with_token(app: &TestApp, token: &str) -> (u16, Value) {
    send(app.http.get(app.url("/api/v1/me")).bearer_auth(token)).await
}

#[actix_web::test]
async fn a_valid_clerk_token_signs_in_and_creates_the_user_with_its_subject() {
    let key = &keys()[0];
    let app = clerk_app(key).await;
    let token = key.sign(None, &session_claims("user_2xYz"));

    let (status, me) = me_with_token(&app, &token).await;
    assert_eq!(status, 200, "{me}");
    assert_eq!(me["clerkId"], "user_2xYz");
    let id = me["id"].as_str().unwrap().to_string();

    // The second request finds the same person rather than creating another.
    let (status, again) = me_with_token(&app, &token).await;
    assert_eq!(status, 200);
    assert_eq!(again["id"], id.as_str());
    assert_eq!(app.count("users").await, 1);
}

#[actix_web::test]
async fn forged_expired_or_misdirected_clerk_tokens_are_refused() {
    let [key, other_key] = keys();
    let app = clerk_app(key).await;
    let valid = session_claims("user_victim");

    let header_none = URL_SAFE_NO_PAD.encode(json!({"alg": "none", "typ": "JWT"}).to_string());
    let body = URL_SAFE_NO_PAD.encode(valid.to_string());
    let hs256_with_public_key = jsonwebtoken::encode(
        &Header::new(Algorithm::HS256),
        &valid,
        &EncodingKey::from_secret(key.public_pem.as_bytes()),
    )
    .unwrap();

    let cases: Vec<(&str, String)> = vec![
        ("expired", key.sign(None, &with(valid.clone(), json!({"exp": now() - 60, "nbf": now() - 120})))),
        ("not yet valid", key.sign(None, &with(valid.clone(), json!({"nbf": now() + 60})))),
        ("wrong authorized party", key.sign(None, &with(valid.clone(), json!({"azp": "https://evil.example"})))),
        ("no authorized party", key.sign(None, &with(valid.clone(), json!({"azp": null})))),
        ("wrong issuer", key.sign(None, &with(valid.clone(), json!({"iss": "https://evil.example"})))),
        ("no issuer", key.sign(None, &with(valid.clone(), json!({"iss": null})))),
        ("no expiry", key.sign(None, &with(valid.clone(), json!({"exp": null})))),
        ("signed with another key", other_key.sign(None, &valid)),
        ("HS256 keyed with the public PEM", hs256_with_public_key),
        ("alg none", format!("{header_none}.{body}.")),
        ("not a JWT", "not-a-token".to_string()),
        // Signed, but naming nobody: refused the same on both backends.
        ("an empty subject", key.sign(None, &with(valid.clone(), json!({"sub": ""})))),
        ("a NUL in the subject", key.sign(None, &with(valid.clone(), json!({"sub": "user_\u{0}x"})))),
        ("a newline in the subject", key.sign(None, &with(valid.clone(), json!({"sub": "user_\nx"})))),
        ("a subject of 256 characters", key.sign(None, &with(valid.clone(), json!({"sub": "u".repeat(256)})))),
    ];
    for (what, token) in cases {
        let (status, body) = me_with_token(&app, &token).await;
        assert_eq!(status, 401, "{what}: {body}");
        assert_error(status, &body, 401, "unauthorized");
    }
    assert_eq!(app.count("users").await, 0, "no refused token created a user");
}

#[actix_web::test]
async fn with_clerk_configured_dev_sign_in_does_not_exist() {
    let key = &keys()[0];
    let app = clerk_app(key).await;
    let (status, body) = app.post("/api/v1/dev/token", None, json!({"clerkId": "dev_mallory"})).await;
    assert_error(status, &body, 404, "not_found");

    // Nor does a token signed with the default dev secret get anyone in.
    let dev_token = jsonwebtoken::encode(
        &Header::new(Algorithm::HS256),
        &json!({"sub": "dev_mallory", "iss": "rinkside-dev", "iat": now(), "exp": now() + 60}),
        &EncodingKey::from_secret(b"rinkside-dev-auth-secret"),
    )
    .unwrap();
    let (status, body) = me_with_token(&app, &dev_token).await;
    assert_error(status, &body, 401, "unauthorized");
    assert_eq!(app.count("users").await, 0);
}

#[actix_web::test]
async fn a_private_read_without_a_bearer_token_is_refused() {
    let app = spawn_app().await;
    let (status, body) = app.get("/api/v1/me", None).await;
    assert_error(status, &body, 401, "unauthorized");

    let (status, body) =
        send(app.http.get(app.url("/api/v1/me")).header("Authorization", "Basic YWxpY2U6c2VjcmV0")).await;
    assert_error(status, &body, 401, "unauthorized");
    assert_eq!(app.count("users").await, 0);
}

/// A one-route HTTP server answering every request with `body`, counting
/// the requests it gets.
async fn jwks_server(body: String) -> (String, Arc<AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/.well-known/jwks.json", listener.local_addr().unwrap());
    let hits = Arc::new(AtomicUsize::new(0));
    let counter = hits.clone();
    actix_web::rt::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let body = body.clone();
            let counter = counter.clone();
            actix_web::rt::spawn(async move {
                let mut head = Vec::new();
                let mut buf = [0u8; 1024];
                while !head.windows(4).any(|w| w == b"\r\n\r\n") {
                    match socket.read(&mut buf).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => head.extend_from_slice(&buf[..n]),
                    }
                }
                counter.fetch_add(1, Ordering::SeqCst);
                let response = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = socket.write_all(response.as_bytes()).await;
                let _ = socket.shutdown().await;
            });
        }
    });
    (url, hits)
}

#[actix_web::test]
async fn keys_come_from_the_jwks_url_which_unknown_key_ids_cannot_flood() {
    let key = &keys()[0];
    let (jwks_url, hits) = jwks_server(key.jwks("ins_key_1")).await;
    let app = spawn_app_with(&[
        ("AUTH_MODE", "clerk"),
        ("CLERK_JWKS_URL", &jwks_url),
        ("CLERK_AUTHORIZED_PARTIES", PARTY),
        ("CLERK_ISSUER", ISSUER),
    ])
    .await;

    let (status, me) = me_with_token(&app, &key.sign(Some("ins_key_1"), &session_claims("user_jwks"))).await;
    assert_eq!(status, 200, "{me}");
    assert_eq!(me["clerkId"], "user_jwks");
    assert_eq!(hits.load(Ordering::SeqCst), 1);

    // Tokens naming a key the JWKS does not have are refused, and a burst of
    // them does not turn into a burst of requests to Clerk.
    for i in 0..5 {
        let token = key.sign(Some(&format!("ins_forged_{i}")), &session_claims("user_jwks"));
        let (status, body) = me_with_token(&app, &token).await;
        assert_error(status, &body, 401, "unauthorized");
    }
    let (status, body) = me_with_token(&app, &key.sign(None, &session_claims("user_jwks"))).await;
    assert_error(status, &body, 401, "unauthorized");
    assert!(hits.load(Ordering::SeqCst) <= 1, "JWKS fetched {} times within a minute", hits.load(Ordering::SeqCst));

    // The cached key still works.
    let (status, _) = me_with_token(&app, &key.sign(Some("ins_key_1"), &session_claims("user_jwks"))).await;
    assert_eq!(status, 200);
}

#[actix_web::test]
async fn an_unknown_key_id_first_fetches_the_jwks_once_then_no_more() {
    let key = &keys()[0];
    let (jwks_url, hits) = jwks_server(key.jwks("ins_key_1")).await;
    let app = spawn_app_with(&[("AUTH_MODE", "clerk"), ("CLERK_JWKS_URL", &jwks_url)]).await;

    for i in 0..3 {
        let token = key.sign(Some(&format!("ins_unknown_{i}")), &session_claims("user_jwks"));
        let (status, body) = me_with_token(&app, &token).await;
        assert_error(status, &body, 401, "unauthorized");
    }
    assert_eq!(hits.load(Ordering::SeqCst), 1);
    // The one fetch brought the real key along.
    let (status, _) = me_with_token(&app, &key.sign(Some("ins_key_1"), &session_claims("user_jwks"))).await;
    assert_eq!(status, 200);
    assert_eq!(hits.load(Ordering::SeqCst), 1);
}
