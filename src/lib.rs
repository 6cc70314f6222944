//! Rinkside server: a realtime community platform for hockey people.
//!
//! A tour, in the order a request meets it:
//! - [`config`] reads the environment once; [`startup`] builds the app.
//! - [`http`] wraps it: rate limits on `/api/v1`, security headers on
//!   every answer.
//! - [`auth`] turns a bearer token (Clerk or dev) into a user; Clerk
//!   webhooks keep users in sync.
//! - [`api`] holds the REST resources, one module each; [`db`] holds every
//!   query, portable across SQLite and PostgreSQL.
//! - [`ws`] is the WebSocket gateway; [`realtime`] the topic hub and the bus
//!   (in-process, or Redis across nodes); [`live`] says how each topic is
//!   authorised and snapshotted.
//! - The live aggregates (event RSVPs, game scoring) are actors in the
//!   `rinkside-actors` crate; `src/` implements their storage and publishing.
//! - [`error`] is the one error type and the contract's envelope.

pub mod api;
pub mod auth;
pub mod config;
pub mod db;
pub mod domain;
pub mod error;
pub mod http;
pub mod live;
pub mod permissions;
pub mod realtime;
pub mod startup;
pub mod telemetry;
pub mod time;
pub mod ws;
