//! rosters API (filled by its capability).

use utoipa_actix_web::service_config::ServiceConfig;

pub fn config(_cfg: &mut ServiceConfig) {}
