//! Svix signatures for Clerk webhooks: HMAC-SHA256 over
//! `{svix-id}.{svix-timestamp}.{body}` keyed with the base64 secret after
//! `whsec_`; the `svix-signature` header holds space-separated `v1,<base64>`
//! candidates (several during a secret rotation). Pure: the clock is passed in.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

/// Svix's tolerance for the timestamp, both ways, against replays.
pub const TOLERANCE_SECS: i64 = 5 * 60;

#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum SignatureError {
    #[error("the webhook secret is not a whsec_ base64 key")]
    BadSecret,
    #[error("missing or malformed svix headers")]
    BadHeaders,
    #[error("timestamp outside the tolerance")]
    Stale,
    #[error("no signature matches")]
    Mismatch,
}

pub fn verify(
    secret: &str,
    svix_id: &str,
    svix_timestamp: &str,
    svix_signature: &str,
    body: &[u8],
    now_secs: i64,
) -> Result<(), SignatureError> {
    let key =
        STANDARD.decode(secret.strip_prefix("whsec_").unwrap_or(secret)).map_err(|_| SignatureError::BadSecret)?;
    let timestamp: i64 = svix_timestamp.trim().parse().map_err(|_| SignatureError::BadHeaders)?;
    if svix_id.is_empty() {
        return Err(SignatureError::BadHeaders);
    }
    // `abs_diff`: the timestamp is the sender's, any i64, and a plain
    // subtraction overflows at the edges.
    if now_secs.abs_diff(timestamp) > TOLERANCE_SECS.unsigned_abs() {
        return Err(SignatureError::Stale);
    }
    for candidate in svix_signature.split_whitespace() {
        let Some(encoded) = candidate.strip_prefix("v1,") else {
            continue;
        };
        let Ok(signature) = STANDARD.decode(encoded) else {
            continue;
        };
        let mut mac = Hmac::<Sha256>::new_from_slice(&key).map_err(|_| SignatureError::BadSecret)?;
        mac.update(svix_id.as_bytes());
        mac.update(b".");
        mac.update(svix_timestamp.trim().as_bytes());
        mac.update(b".");
        mac.update(body);
        // verify_slice compares in constant time.
        if mac.verify_slice(&signature).is_ok() {
            return Ok(());
        }
    }
    Err(SignatureError::Mismatch)
}

#[cfg(test)]
mod tests {
    use super::*;

    // The published Svix test vector.
    const SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const ID: &str = "msg_p5jXN8AQM9LWM0D4loKWxJek";
    const TS: &str = "1614265330";
    const BODY: &[u8] = br#"{"test": 2432232314}"#;
    const SIG: &str = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

    #[test]
    fn the_published_test_vector_verifies() {
        assert_eq!(verify(SECRET, ID, TS, SIG, BODY, 1614265330), Ok(()));
    }

    #[test]
    fn any_of_several_signatures_may_match() {
        let many = format!("v1,AAAA v2,zzz {SIG}");
        assert_eq!(verify(SECRET, ID, TS, &many, BODY, 1614265330 + 10), Ok(()));
    }

    #[test]
    fn a_tampered_body_is_rejected() {
        assert_eq!(verify(SECRET, ID, TS, SIG, br#"{"test": 2432232315}"#, 1614265330), Err(SignatureError::Mismatch));
    }

    #[test]
    fn a_stale_or_future_timestamp_is_rejected() {
        assert_eq!(verify(SECRET, ID, TS, SIG, BODY, 1614265330 + 301), Err(SignatureError::Stale));
        assert_eq!(verify(SECRET, ID, TS, SIG, BODY, 1614265330 - 301), Err(SignatureError::Stale));
    }

    /// Found by the fuzz target below: `now - timestamp` overflowed for a
    /// timestamp near `i64::MIN` (a panic in debug builds; in release the
    /// difference wrapped to `i64::MIN`, whose `abs()` is negative, so one
    /// exact timestamp passed the staleness check).
    #[test]
    fn a_timestamp_at_the_edge_of_i64_is_stale_not_an_overflow() {
        let now: i64 = 1614265330;
        for ts in [i64::MIN, i64::MIN + 1, now.wrapping_add(i64::MIN), i64::MAX] {
            assert_eq!(verify(SECRET, ID, &ts.to_string(), SIG, BODY, now), Err(SignatureError::Stale), "{ts}");
        }
    }
}

#[cfg(test)]
mod fuzz {
    use super::*;
    use crate::fuzzing::{self, text};
    use proptest::prelude::*;

    const SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

    /// `svix-timestamp` values: numbers of any size and sign, and not.
    fn timestamp() -> impl Strategy<Value = String> {
        prop_oneof![any::<i64>().prop_map(|t| t.to_string()), "[ +-]?[0-9]{1,20}", text()]
    }

    /// `svix-signature` values: `v1,` and other versions, base64 and not.
    fn signatures() -> impl Strategy<Value = String> {
        let one = prop_oneof![
            "v1,[A-Za-z0-9+/=]{0,60}".prop_map(String::from),
            "v[0-9],[A-Za-z0-9+/=]{0,60}".prop_map(String::from),
            text(),
        ];
        prop::collection::vec(one, 0..4).prop_map(|s| s.join(" "))
    }

    proptest! {
        #![proptest_config(fuzzing::config(1_000))]

        /// Whatever headers and body arrive, verification answers an error
        /// (it cannot match without the secret), never a panic; the clock
        /// is any time too.
        #[test]
        fn any_svix_headers_are_refused_without_a_panic(
            id in text(),
            timestamp in timestamp(),
            signature in signatures(),
            body in fuzzing::bytes(),
            now in prop_oneof![Just(1_614_265_330i64), any::<i64>()],
        ) {
            prop_assert!(verify(SECRET, &id, &timestamp, &signature, &body, now).is_err());
        }
    }
}
