//! HTTP hardening around every route: the rate limits on `/api/v1`
//! ([`limits`], whose token bucket the WebSocket shares) and the security
//! headers on every answer ([`headers`]). docs/limits.md says why each is
//! what it is.

pub mod headers;
pub mod limits;
