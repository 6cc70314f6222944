//! Rinkside server: a realtime community platform for hockey people.
//!
//! A tour, in the order a request meets it:
//! - [`config`] reads the environment once; [`startup`] builds the app.
//! - [`http`] wraps it: rate limits on `/api/v1`, security headers on
//!   every answer.
//! - [`http_input`] turns away control characters in `/api` paths, query
//!   strings and JSON bodies before any route sees them.
//! - [`auth`] turns a bearer token (Clerk or dev) into a user; Clerk
//!   webhooks keep users in sync.
//! - [`api`] holds the REST resources, one module each; [`db`] holds every
//!   query, portable across SQLite and PostgreSQL; [`permissions`] says who
//!   may do what.
//! - [`commands`] are the commands to the live aggregates (RSVP, removal,
//!   scoring), shared by REST and the socket.
//! - [`ws`] is the WebSocket gateway; [`realtime`] the topic hub and the bus
//!   (in-process, or Redis across nodes) and the one pusher of documents;
//!   [`live`] owns each kind of live document: how it is built, who may
//!   subscribe.
//! - The live aggregates (event RSVPs, game scoring) are actors in the
//!   `rinkside-actors` crate; [`store`] implements their storage from `db/`
//!   queries, and carries out what follows an event commit off the actor's
//!   path (feed items, notifications, the sub market).
//! - [`feed`] says who hears about what: every feed item type from the
//!   fact that produces it, written in that fact's transaction (or, for an
//!   event actor's commit, in the transaction that carries out its
//!   follow-up record).
//! - [`market`] is the sub market: statuses, their matches and open spots,
//!   pushed live on each person's `matches` topic.
//! - [`ice_bill`] works out an event's ice bill from its facts (the pure
//!   split and Dark/Light sides are in the `rinkside-pickup` crate).
//! - [`rule_moments`] acts on the moments of events' RSVP rules (regulars'
//!   window closing, the game-day check), one node at a time.
//! - [`chat`] is team chat: a conversation per roster and per event, who is
//!   in it, and the pushes after each message.
//! - [`error`] is the one error type and the contract's envelope.
//!
//! Tests: every parser of outside input has a `mod fuzz` beside it (proptest
//! over arbitrary and hostile input; the shared strategies are in the
//! test-only `fuzzing` module).

pub mod api;
pub mod auth;
pub mod calendar;
pub mod chat;
pub mod commands;
pub mod config;
pub mod db;
pub mod demo;
pub mod domain;
pub mod error;
pub mod feed;
pub mod http;
pub mod http_input;
pub mod ice_bill;
pub mod live;
pub mod market;
pub mod notify;
pub mod outbound;
pub mod permissions;
pub mod realtime;
pub mod roster_rules;
pub mod rule_moments;
pub mod startup;
pub mod state;
pub mod store;
pub mod summaries;
pub mod sync;
pub mod telemetry;
pub mod time;
pub mod ws;

#[cfg(test)]
pub(crate) mod fuzzing;
