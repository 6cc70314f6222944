//! Integration tests: the real app over HTTP and WebSocket, on SQLite
//! (default) or PostgreSQL (`TEST_DB=postgres`).

mod helpers;

mod auth;
mod events;
mod follows;
mod games;
mod inputs;
mod operations;
mod permissions;
mod realtime;
mod rosters;
mod users;
mod webhooks;
