//! How attendees are split into groups on the event page (two jersey
//! colours balanced by position): the configuration and its checks.

use super::*;

/// How attendees are split into groups on the event page, e.g. two jersey
/// colours balanced by position. Validated here; the client assigns people.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct GroupConfig {
    /// 2–4 groups, in display order.
    #[schema(min_items = 2, max_items = 4)]
    pub groups: Vec<Group>,
    /// `POSITION`: spread goalies, then defence, then forwards evenly;
    /// `ORDER`: alternate in order of acceptance.
    pub balance_by: GroupBalance,
}

#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Group {
    #[schema(schema_with = group_name)]
    pub name: String,
    /// `#rrggbb`.
    #[schema(pattern = "^#[0-9A-Fa-f]{6}$")]
    pub color: String,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum GroupBalance {
    Position,
    Order,
}

/// A group's name as [`GroupConfig::check`] takes it: at most 30
/// characters (counted as given), not blank.
fn group_name() -> utoipa::openapi::schema::Object {
    let mut schema = crate::domain::text::schema::not_blank();
    schema.max_length = Some(30);
    schema.description = Some("At most 30 characters, not blank.".into());
    schema
}

impl GroupConfig {
    pub(super) fn check(&self, errors: &mut FieldErrors) {
        let hex = |c: &str| c.len() == 7 && c.starts_with('#') && c[1..].chars().all(|ch| ch.is_ascii_hexdigit());
        if !(2..=4).contains(&self.groups.len()) {
            errors.insert("groupConfig".into(), "2 to 4 groups".into());
        } else if self.groups.iter().any(|g| g.name.trim().is_empty() || g.name.chars().count() > 30 || !hex(&g.color))
        {
            errors
                .insert("groupConfig".into(), "each group needs a name (≤ 30 characters) and a #rrggbb colour".into());
        }
    }
}
