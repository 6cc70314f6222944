//! Short summaries of people, embedded in many documents and pages (roster
//! players, join requests, managers, feed items).

use serde::Serialize;

/// A person as shown in lists of managers, players and requests.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserSummary {
    pub id: String,
    pub username: Option<String>,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub profile_image: Option<String>,
}
