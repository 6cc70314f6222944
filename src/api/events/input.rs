//! The body of creating and editing an event, applied over the existing
//! event and validated as a whole.

use super::GroupConfig;
use crate::api::{check_len, check_url, clean, finish, nullable, nullable_whole};
use crate::auth::AuthUser;
use crate::db::{self, Db, events::EventFields};
use crate::domain::EventType;
use crate::error::{AppError, AppResult, FieldErrors};
use crate::permissions::{self, Action};
use serde::Deserialize;

/// Most places an event may have; a rink holds no more.
const MAX_LIMIT: i64 = 500;

/// Body of edit, and of create with `title`, `startDate` and `eventType`
/// required ([`NewEvent`]). On edit every field is optional: absent leaves
/// it, `null` clears it (or, for `title`, `startDate` and `eventType`,
/// leaves it).
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct EventInput {
    #[schema(schema_with = title)]
    pub title: Option<String>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(schema_with = crate::domain::text::schema::optional_text::<4000>)]
    pub description: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(schema_with = crate::domain::text::schema::optional_text::<200>)]
    pub location: Option<Option<String>>,
    #[schema(schema_with = crate::time::schema::nullable_date_time)]
    pub start_date: Option<String>,
    /// Not before `startDate`.
    #[serde(default, deserialize_with = "nullable")]
    #[schema(schema_with = crate::time::schema::nullable_date_time)]
    pub end_date: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(schema_with = crate::domain::text::schema::optional_url)]
    pub image_url: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(schema_with = crate::domain::text::schema::optional_id)]
    pub facility_id: Option<Option<String>>,
    /// A season of the event's facility.
    #[serde(default, deserialize_with = "nullable")]
    #[schema(schema_with = crate::domain::text::schema::optional_id)]
    pub season_id: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(schema_with = crate::domain::text::schema::optional_text::<120>)]
    pub external_home_team_name: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(schema_with = crate::domain::text::schema::optional_text::<120>)]
    pub external_away_team_name: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(schema_with = crate::domain::text::schema::optional_text::<120>)]
    pub external_rink: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable_whole")]
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 999)]
    pub home_score: Option<Option<i64>>,
    #[serde(default, deserialize_with = "nullable_whole")]
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 999)]
    pub away_score: Option<Option<i64>>,
    pub event_type: Option<EventType>,
    /// 0–500; null = unlimited.
    #[serde(default, deserialize_with = "nullable_whole")]
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 500)]
    pub max_skaters: Option<Option<i64>>,
    /// 0–500; null = unlimited.
    #[serde(default, deserialize_with = "nullable_whole")]
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 500)]
    pub max_goalies: Option<Option<i64>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<GroupConfig>)]
    pub group_config: Option<Option<GroupConfig>>,
    /// Only when creating: make the event the first of a weekly series
    /// (docs/series.md).
    pub repeat: Option<super::series::Repeat>,
}

/// `title`: 1–200 characters after trimming (null leaves it on edit).
fn title() -> utoipa::openapi::schema::Object {
    let mut schema = crate::domain::text::schema::text::<MAX_TITLE_CHARS>();
    schema.schema_type = utoipa::openapi::schema::SchemaType::from_iter([
        utoipa::openapi::schema::Type::String,
        utoipa::openapi::schema::Type::Null,
    ]);
    schema
}

/// The longest title, in characters after trimming (as the server counts
/// them: Unicode scalar values, like the client's counter).
pub const MAX_TITLE_CHARS: usize = 200;

/// Why a (trimmed) title is refused, or `None`. A long one is refused
/// saying how long it is, never cut: a title pasted from elsewhere must not
/// lose its end without the organiser seeing it (issue 26).
fn title_problem(title: &str) -> Option<String> {
    if title.is_empty() {
        return Some("is required".into());
    }
    crate::domain::text::too_long(title, MAX_TITLE_CHARS)
}

/// The body of creating an event: [`EventInput`]'s schema with `title`,
/// `startDate` and `eventType` required and not null (`merge` refuses an
/// event without them). Built from `EventInput`'s, so the two cannot drift.
pub struct NewEvent;

/// The fields a new event needs.
const REQUIRED_ON_CREATE: [&str; 3] = ["title", "startDate", "eventType"];

impl utoipa::PartialSchema for NewEvent {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        let edit = EventInput::schema();
        let Ok(mut json) = serde_json::to_value(&edit) else { return edit };
        json["required"] = serde_json::json!(REQUIRED_ON_CREATE);
        json["description"] = "Body of create: `title`, `startDate` and `eventType` are required.".into();
        for field in REQUIRED_ON_CREATE {
            crate::api::openapi::never_null(&mut json["properties"][field]);
        }
        serde_json::from_value(json).unwrap_or(edit)
    }
}

impl utoipa::ToSchema for NewEvent {
    fn schemas(schemas: &mut Vec<(String, utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>)>) {
        <EventInput as utoipa::ToSchema>::schemas(schemas);
    }
}

/// Applies the input over `base` (an existing event, or defaults) and
/// validates the result as a whole.
pub(super) async fn merge(
    db: &Db,
    me: &AuthUser,
    input: EventInput,
    base: EventFields,
    limits: (Option<i64>, Option<i64>),
    now: i64,
) -> AppResult<(EventFields, (Option<i64>, Option<i64>))> {
    let mut errors = FieldErrors::new();
    let text = |v: Option<Option<String>>, old: Option<String>| match v {
        None => old,
        Some(v) => clean(v),
    };
    let mut f = base;
    if let Some(t) = input.title {
        f.title = t.trim().to_string();
    }
    if let Some(message) = title_problem(&f.title) {
        errors.insert("title".into(), message);
    }
    f.description = text(input.description, f.description);
    f.location = text(input.location, f.location);
    f.image_url = text(input.image_url, f.image_url);
    f.facility_id = text(input.facility_id, f.facility_id);
    f.season_id = text(input.season_id, f.season_id);
    f.external_home_team_name = text(input.external_home_team_name, f.external_home_team_name);
    f.external_away_team_name = text(input.external_away_team_name, f.external_away_team_name);
    f.external_rink = text(input.external_rink, f.external_rink);
    apply_dates(&mut f, input.start_date, input.end_date, now, &mut errors);
    if let Some(score) = input.home_score {
        f.home_score = score;
    }
    if let Some(score) = input.away_score {
        f.away_score = score;
    }
    for (field, score) in [("homeScore", f.home_score), ("awayScore", f.away_score)] {
        if score.is_some_and(|s| !(0..=999).contains(&s)) {
            errors.insert(field.into(), "must be 0–999".into());
        }
    }
    if let Some(t) = input.event_type {
        f.event_type = t.as_str().to_string();
    }
    if f.event_type.is_empty() {
        errors.insert("eventType".into(), "is required".into());
    }
    let max_skaters = input.max_skaters.unwrap_or(limits.0);
    let max_goalies = input.max_goalies.unwrap_or(limits.1);
    for (field, limit) in [("maxSkaters", max_skaters), ("maxGoalies", max_goalies)] {
        if limit.is_some_and(|l| !(0..=MAX_LIMIT).contains(&l)) {
            errors.insert(field.into(), format!("must be 0–{MAX_LIMIT}, or null for unlimited"));
        }
    }
    match input.group_config {
        None => {}
        Some(None) => f.group_config = None,
        Some(Some(g)) => {
            g.check(&mut errors);
            f.group_config = serde_json::to_string(&g).ok();
        }
    }
    check_texts(&f, &mut errors);
    if let Some(facility_id) = &f.facility_id
        && !db::facilities::exists(&db.pool, facility_id).await?
    {
        errors.insert("facilityId".into(), "no such facility".into());
    }
    finish(errors)?;
    place_in_season(db, me, &mut f).await?;
    Ok((f, (max_skaters, max_goalies)))
}

/// The start (required, within reach of `now`) and the end (not before
/// the start), each refused beside its field.
fn apply_dates(
    f: &mut EventFields,
    start: Option<String>,
    end: Option<Option<String>>,
    now: i64,
    errors: &mut FieldErrors,
) {
    if let Some(s) = start {
        match crate::time::parse_rfc3339_checked(&s) {
            Ok(ms) => match crate::domain::dates::event_start_in_reach(ms, now) {
                Ok(()) => f.start_date = ms,
                Err(message) => {
                    errors.insert("startDate".into(), message);
                }
            },
            Err(message) => {
                errors.insert("startDate".into(), message.into());
            }
        }
    }
    if f.start_date == 0 && !errors.contains_key("startDate") {
        errors.insert("startDate".into(), "is required".into());
    }
    match end {
        None => {}
        Some(None) => f.end_date = None,
        Some(Some(s)) => match crate::time::parse_rfc3339_checked(&s) {
            Ok(ms) => f.end_date = Some(ms),
            Err(message) => {
                errors.insert("endDate".into(), message.into());
            }
        },
    }
    if f.end_date.is_some_and(|end| end < f.start_date) {
        errors.insert("endDate".into(), "must not be before the start".into());
    }
}

/// Every text field within its length, the image a web address.
fn check_texts(f: &EventFields, errors: &mut FieldErrors) {
    check_len(errors, "description", f.description.as_deref(), 4000);
    check_len(errors, "location", f.location.as_deref(), 200);
    check_url(errors, "imageUrl", f.image_url.as_deref());
    for (field, v) in [
        ("externalHomeTeamName", &f.external_home_team_name),
        ("externalAwayTeamName", &f.external_away_team_name),
        ("externalRink", &f.external_rink),
    ] {
        check_len(errors, field, v.as_deref(), 120);
    }
}

/// An event in a season is at the season's facility, and scheduling it
/// there is the facility's business.
async fn place_in_season(db: &Db, me: &AuthUser, f: &mut EventFields) -> AppResult<()> {
    if let Some(season_id) = &f.season_id {
        let season_facility = db::access::season_facility(&db.pool, season_id)
            .await?
            .ok_or_else(|| AppError::field("seasonId", "no such season"))?;
        if f.facility_id.as_deref().is_some_and(|fac| fac != season_facility) {
            return Err(AppError::field("seasonId", "the season belongs to another facility"));
        }
        // A season's schedule is the facility's business.
        permissions::check(db, Some(&me.id), Action::ScheduleSeasonEvent { season_id }).await?;
        f.facility_id = Some(season_facility);
    }
    Ok(())
}
