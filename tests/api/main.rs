//! Integration tests: the real app over HTTP and WebSocket, on SQLite
//! (default) or PostgreSQL (`TEST_DB=postgres`).

// Test code may unwrap: a panic is the failure report.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod helpers;

mod auth;
mod availability;
mod chat;
mod events;
mod feed;
mod follows;
mod game_night;
mod games;
mod history;
mod http_edges;
mod http_fuzz;
mod inputs;
mod invites;
mod notifications;
mod openapi;
mod operations;
mod permissions;
mod pickup_night;
mod realtime;
mod rosters;
mod schedule;
mod series;
mod sides_and_bill;
mod socket_edges;
mod socket_fuzz;
mod socket_protocol;
mod statuses;
mod sync;
mod text_input;
mod users;
mod walkthrough;
mod webhooks;
