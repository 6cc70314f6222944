//! What the server calls out to: web addresses (season sync's fetcher,
//! which refuses private networks) and mail (SMTP).

pub mod address;
pub mod fetch;
pub mod mail;
