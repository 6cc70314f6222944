//! Listing events: by facility, season, type, time window, creator or
//! the viewer's own RSVPs, keyset-paged by start time.

use super::*;

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct EventQuery {
    #[param(schema_with = crate::domain::text::schema::query_text)]
    pub facility_id: Option<String>,
    #[param(schema_with = crate::domain::text::schema::query_text)]
    pub season_id: Option<String>,
    pub event_type: Option<EventType>,
    /// Events starting at or after.
    #[param(schema_with = crate::time::schema::date_time)]
    pub from: Option<String>,
    /// Events starting before.
    #[param(schema_with = crate::time::schema::date_time)]
    pub to: Option<String>,
    /// `me`: events I created.
    #[param(schema_with = only_me)]
    pub created_by: Option<String>,
    /// `me`: events I'm attending or waitlisted for.
    #[param(schema_with = only_me)]
    pub attending: Option<String>,
    pub include_cancelled: Option<bool>,
    /// With `facilityId`: also community events at the facility (made by
    /// people who are not its staff and not listed by it).
    pub include_community: Option<bool>,
    /// Default 20; taken as 1 below 1 and as 100 above 100.
    #[serde(default, deserialize_with = "crate::api::query_whole")]
    pub limit: Option<i64>,
    /// `nextCursor` of the previous page.
    #[param(schema_with = crate::domain::text::schema::time_cursor)]
    pub cursor: Option<String>,
}

/// `createdBy` and `attending` take only `me`.
pub(super) fn only_me() -> utoipa::openapi::schema::Object {
    utoipa::openapi::schema::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .enum_values(Some(["me"]))
        .build()
}

/// Events by start time (soonest first), with filters.
#[utoipa::path(params(EventQuery), responses((status = 200, body = Page<Event>)), tag = "events", security(("bearerAuth" = [])))]
#[get("/events")]
pub(super) async fn list(
    state: web::Data<AppState>,
    me: AuthUser,
    query: web::Query<EventQuery>,
) -> AppResult<web::Json<Page<Event>>> {
    let q = query.into_inner();
    let time = |field: &str, v: Option<String>| -> AppResult<Option<i64>> {
        v.map(|s| crate::time::parse_rfc3339_checked(&s).map_err(|m| AppError::field(field, m))).transpose()
    };
    let me_only = |field: &str, v: Option<String>| -> AppResult<Option<String>> {
        match v.as_deref() {
            None => Ok(None),
            Some("me") => Ok(Some(me.id.clone())),
            Some(_) => Err(AppError::field(field, "only `me` is supported")),
        }
    };
    let filter = EventFilter {
        facility_id: q.facility_id,
        season_id: q.season_id,
        event_type: q.event_type.map(|t| t.as_str().to_string()),
        from: time("from", q.from)?,
        to: time("to", q.to)?,
        created_by: me_only("createdBy", q.created_by)?,
        attending: me_only("attending", q.attending)?,
        include_cancelled: q.include_cancelled.unwrap_or(false),
        include_community: q.include_community.unwrap_or(false),
    };
    let after = match q.cursor.as_deref() {
        None => None,
        Some(raw) => {
            let c = db::Cursor::parse(raw).ok_or_else(|| AppError::field("cursor", "not a cursor we gave out"))?;
            Some((c.at, c.id))
        }
    };
    let limit = db::page_limit(q.limit);
    let rows = db::events::list(&state.db.pool, &filter, after, limit).await?;
    let (rows, next_cursor) =
        db::finish_page(rows, limit, |r| db::Cursor { at: r.start_date, id: r.id.clone() }.encode());
    let mut items = Vec::with_capacity(rows.len());
    for row in rows {
        let teams = event_teams(&state, &row.id).await?;
        items.push(event_from(row, teams, None));
    }
    Ok(web::Json(Page { items, next_cursor }))
}
