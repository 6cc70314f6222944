//! The HTTP API under `/api/v1`. Each resource module owns its routes,
//! request and response types and handlers (`pub fn config`); this module
//! wires them together with the request limits and the error envelope for
//! malformed input, unknown routes and wrong methods.

pub mod availability;
pub mod calendar;
pub mod chat;
pub mod dev;
pub mod divisions;
pub mod events;
pub mod extract;
pub mod facilities;
pub mod feed;
pub mod form;
pub mod games;
pub mod health;
pub mod invites;
pub mod me;
pub mod notifications;
pub mod openapi;
pub mod orgs;
pub mod posts;
pub mod rosters;
pub mod schedule;
pub mod season_views;
pub mod seasons;
pub mod staff;
pub mod statuses;
pub mod sync;
pub mod teams;
pub mod users;
pub mod webhooks;

pub use crate::domain::whole::{nullable_whole, optional_whole, query_whole, whole};
pub use crate::error::finish;
pub use crate::http_input::MAX_JSON_BYTES;

#[cfg(test)]
mod fuzz;

use crate::db::Cursor;
use crate::domain::text::{self, SearchTerm, schema};
use crate::error::AppError;
use actix_web::{HttpRequest, HttpResponse, error::JsonPayloadError, web};
use serde::{Deserialize, Serialize};
use utoipa_actix_web::service_config::ServiceConfig;

/// Every `/api/v1` route.
pub fn config(cfg: &mut ServiceConfig) {
    cfg.configure(me::config)
        .configure(users::config)
        .configure(facilities::config)
        .configure(teams::config)
        .configure(seasons::config)
        .configure(divisions::config)
        .configure(sync::config)
        .configure(rosters::config)
        .configure(availability::config)
        .configure(chat::config)
        .configure(invites::config)
        .configure(events::config)
        .configure(games::config)
        .configure(season_views::config)
        .configure(feed::config)
        .configure(notifications::config)
        .configure(posts::config)
        .configure(statuses::config)
        .configure(schedule::config)
        .configure(calendar::config)
        .configure(dev::config)
        .configure(webhooks::config)
        .configure(crate::ws::config);
}

/// Body, path and query extractor settings that turn every malformed input
/// into the contract's envelope.
pub fn extractor_config(cfg: &mut web::ServiceConfig) {
    cfg.app_data(web::JsonConfig::default().limit(MAX_JSON_BYTES).error_handler(json_error))
        .app_data(
            web::PathConfig::default()
                .error_handler(|err, _| AppError::BadRequest(format!("bad path parameter: {err}")).into()),
        )
        .app_data(
            web::QueryConfig::default()
                .error_handler(|err, _| AppError::field("query", format!("bad query string: {err}")).into()),
        );
}

fn json_error(err: JsonPayloadError, _req: &HttpRequest) -> actix_web::Error {
    let app = match &err {
        JsonPayloadError::OverflowKnownLength { .. } | JsonPayloadError::Overflow { .. } => {
            AppError::PayloadTooLarge(format!("the body is larger than {MAX_JSON_BYTES} bytes"))
        }
        JsonPayloadError::ContentType => AppError::BadRequest("expected Content-Type: application/json".into()),
        JsonPayloadError::Deserialize(e) if e.is_data() => {
            // Unknown fields, wrong types and missing fields: name the field
            // when serde tells us which one.
            let msg = e.to_string();
            let field = field_in_serde_message(&msg).unwrap_or_else(|| "body".into());
            AppError::field(&field, msg)
        }
        JsonPayloadError::Deserialize(e) => AppError::BadRequest(format!("malformed JSON: {e}")),
        _ => AppError::BadRequest("could not read the body".into()),
    };
    app.into()
}

/// Test-only: the status the JSON extractor answers for a body serde
/// refused (the fuzz targets of the body types check it is a 400 or 422).
#[cfg(test)]
pub(crate) fn json_refusal_status(e: serde_json::Error) -> u16 {
    let req = actix_web::test::TestRequest::default().to_http_request();
    json_error(JsonPayloadError::Deserialize(e), &req).as_response_error().status_code().as_u16()
}

/// serde says "unknown field `x`" or "missing field `x`": pull out the `x`.
fn field_in_serde_message(msg: &str) -> Option<String> {
    let start = msg.find('`')? + 1;
    let end = start + msg[start..].find('`')?;
    let field = &msg[start..end];
    (msg.contains("field") && !field.is_empty()).then(|| field.to_string())
}

/// Unknown `/api` routes.
pub async fn not_found() -> HttpResponse {
    use actix_web::ResponseError;
    AppError::not_found("route").error_response()
}

/// `?limit=&cursor=` of a list in time order.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
pub struct PageQuery {
    /// 1–100, default 20.
    #[serde(default, deserialize_with = "query_whole")]
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
    /// `nextCursor` of the previous page.
    #[param(schema_with = schema::time_cursor)]
    pub cursor: Option<String>,
}

/// `?limit=&cursor=` of a list in time order that clamps `limit` into
/// 1–100 rather than refusing it (the lists not yet moved to
/// [`page_rows`]; see `db::page_limit`).
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
pub struct ClampedPageQuery {
    /// Default 20; taken as 1 below 1 and as 100 above 100.
    #[serde(default, deserialize_with = "query_whole")]
    pub limit: Option<i64>,
    /// `nextCursor` of the previous page.
    #[param(schema_with = schema::time_cursor)]
    pub cursor: Option<String>,
}

/// `?seasonId=&limit=&cursor=` of a team's list across seasons (its
/// rosters, its games), clamping `limit` as [`ClampedPageQuery`] does.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SeasonPageQuery {
    /// Only this season's.
    #[param(schema_with = schema::query_text)]
    pub season_id: Option<String>,
    /// Default 20; taken as 1 below 1 and as 100 above 100.
    #[serde(default, deserialize_with = "query_whole")]
    pub limit: Option<i64>,
    /// `nextCursor` of the previous page.
    #[param(schema_with = schema::time_cursor)]
    pub cursor: Option<String>,
}

impl SeasonPageQuery {
    /// The season asked for, and the page.
    pub fn split(self) -> (Option<String>, PageQuery) {
        (self.season_id, PageQuery { limit: self.limit, cursor: self.cursor })
    }
}

impl From<ClampedPageQuery> for PageQuery {
    fn from(q: ClampedPageQuery) -> Self {
        PageQuery { limit: q.limit, cursor: q.cursor }
    }
}

/// `?limit=&cursor=` of a list in name order (`orgs::by_name`).
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
pub struct NamePageQuery {
    /// 1–100, default 20.
    #[serde(default, deserialize_with = "query_whole")]
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
    /// `nextCursor` of the previous page.
    #[param(schema_with = schema::name_cursor)]
    pub cursor: Option<String>,
}

impl NamePageQuery {
    /// The page size (see [`page_rows`]).
    pub fn rows(&self) -> Result<i64, AppError> {
        page_rows(self.limit)
    }
}

/// The page size a list was asked for: 1–100, 20 when not given; anything
/// else is a 422 naming `limit`.
pub fn page_rows(limit: Option<i64>) -> Result<i64, AppError> {
    crate::db::checked_page_limit(limit).map_err(|message| AppError::field("limit", message))
}

impl PageQuery {
    /// The page size (see [`page_rows`]).
    pub fn rows(&self) -> Result<i64, AppError> {
        page_rows(self.limit)
    }

    pub fn cursor(&self) -> Result<Option<Cursor>, AppError> {
        match &self.cursor {
            None => Ok(None),
            Some(raw) => {
                Cursor::parse(raw).map(Some).ok_or_else(|| AppError::field("cursor", "not a cursor we gave out"))
            }
        }
    }
}

/// `?q=&position=&skillLevel=&limit=&cursor=` of a search of people.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SearchQuery {
    /// Part of the name or username (`sam_goalie`, `Sam Gol`); `@sam` matches
    /// usernames only; empty lists all.
    #[param(schema_with = schema::search)]
    pub q: Option<String>,
    /// Only people who play this position.
    pub position: Option<crate::domain::HockeyPosition>,
    /// Only people with a position at this skill level (with `position`:
    /// that position at that level).
    pub skill_level: Option<crate::domain::SkillLevel>,
    /// 1–100, default 20.
    #[serde(default, deserialize_with = "query_whole")]
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
    /// `nextCursor` of the previous page.
    #[param(schema_with = schema::time_cursor)]
    pub cursor: Option<String>,
}

impl SearchQuery {
    /// What to search for; a 422 naming `q` when it cannot be.
    pub fn term(&self) -> Result<SearchTerm, AppError> {
        search_term(self.q.as_deref())
    }
}

/// A people search term read as a person types it: a leading `@` means
/// "this username" (the `@` is not part of any username), so `@sam_goalie`
/// matches usernames containing `sam_goalie`. Returns the term and whether
/// it was a username.
pub fn people_term(term: &str) -> (&str, bool) {
    match term.strip_prefix('@') {
        Some(rest) => (rest.trim(), true),
        None => (term, false),
    }
}

/// `?q=&limit=&cursor=` of a search of facilities or teams by name.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
pub struct NameSearchQuery {
    /// Part of the name; empty lists all.
    #[param(schema_with = schema::search)]
    pub q: Option<String>,
    /// 1–100, default 20.
    #[serde(default, deserialize_with = "query_whole")]
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
    /// `nextCursor` of the previous page.
    #[param(schema_with = schema::name_cursor)]
    pub cursor: Option<String>,
}

impl NameSearchQuery {
    /// What to search for; a 422 naming `q` when it cannot be.
    pub fn term(&self) -> Result<SearchTerm, AppError> {
        search_term(self.q.as_deref())
    }
}

fn search_term(q: Option<&str>) -> Result<SearchTerm, AppError> {
    SearchTerm::parse(q.unwrap_or("")).map_err(|message| AppError::field("q", message))
}

/// One page of a list.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Page<T> {
    pub items: Vec<T>,
    pub next_cursor: Option<String>,
}

/// Trims a text field; empty means absent.
pub fn clean(s: Option<String>) -> Option<String> {
    s.map(|v| v.trim().to_string()).filter(|v| !v.is_empty())
}

/// Checks an optional free-text field: at most `max` characters, no control
/// characters but tabs and line breaks (`domain::text::PlainText`'s rules).
/// For callers not yet parsing into the text types.
pub fn check_len(errors: &mut crate::error::FieldErrors, field: &str, value: Option<&str>, max: usize) {
    if let Some(Err(message)) = value.map(|v| text::text(v, max)) {
        errors.insert(field.to_string(), message);
    }
}

/// An optional URL must be absolute http(s) (`domain::text::HttpUrl`).
pub fn check_url(errors: &mut crate::error::FieldErrors, field: &str, value: Option<&str>) {
    if let Some(Err(message)) = value.map(text::HttpUrl::parse) {
        errors.insert(field.to_string(), message);
    }
}

/// A required name: trimmed, 1 to `max` characters, one line, no control or
/// invisible formatting characters (`domain::text::Name`'s rules). Returns
/// the trimmed name (whatever it is when refused: the 422 follows).
pub fn check_name(errors: &mut crate::error::FieldErrors, field: &str, value: &str, max: usize) -> String {
    if let Err(message) = text::name(value, max) {
        errors.insert(field.to_string(), message);
    }
    value.trim().to_string()
}

/// For PATCH bodies: tells "field absent" (`None`) from "field: null"
/// (`Some(None)`). Use with `#[serde(default, deserialize_with = "nullable")]`.
pub fn nullable<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(d).map(Some)
}

/// A parsed PATCH text field (see [`patch_text`]) applied over the current
/// value: absent keeps it, null or blank clears it.
pub fn merged<T: Into<String>>(patch: Option<Option<T>>, current: Option<String>) -> Option<String> {
    match patch {
        None => current,
        Some(given) => given.map(Into::into),
    }
}

/// For `#[serde(deserialize_with = …)]` on fields serde parses (domain
/// enums): a refused value's message names the field ("field `x`: unknown
/// variant …"), which serde_json does not do by itself, so the 422's
/// `details` can say which field it was (see `json_error`).
pub fn named_field<'de, D: serde::Deserializer<'de>, T: serde::de::DeserializeOwned>(
    field: &str,
    d: D,
) -> Result<T, D::Error> {
    use serde::de::Error;
    let value = serde_json::Value::deserialize(d)?;
    T::deserialize(value).map_err(|e| D::Error::custom(format!("field `{field}`: {e}")))
}

/// Parses an optional text field of a PATCH body (see [`nullable`]):
/// absent stays absent (`None`), null or blank clears it (`Some(None)`),
/// anything else must parse.
pub fn patch_text<T>(
    field: Option<Option<String>>,
    parse: impl FnOnce(&str) -> Result<T, String>,
) -> Result<Option<Option<T>>, String> {
    field.map(|v| text::optional(v.as_deref(), parse)).transpose()
}

/// The `Idempotency-Key` header of a command (see `crate::commands`).
pub fn idempotency_header(req: &HttpRequest) -> Result<Option<String>, AppError> {
    match req.headers().get("idempotency-key") {
        None => Ok(None),
        Some(v) => {
            let key = v.to_str().map_err(|_| AppError::field("Idempotency-Key", "must be visible ASCII"))?.trim();
            if key.is_empty() || key.len() > 128 {
                return Err(AppError::field("Idempotency-Key", "1–128 characters"));
            }
            Ok(Some(key.to_string()))
        }
    }
}

/// The `Idempotency-Key` header as [`idempotency_header`] takes it:
/// visible ASCII, 1–128 characters after trimming.
pub fn idempotency_key_schema() -> utoipa::openapi::schema::Object {
    utoipa::openapi::schema::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .pattern(Some(r"^[\t ]*[!-~](?:[\t -~]{0,126}[!-~])?[\t ]*$"))
        .description(Some("A retry-safe command id: visible ASCII, 1–128 characters."))
        .build()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize)]
    struct Numbers {
        #[serde(deserialize_with = "whole")]
        n: i64,
        #[serde(default, deserialize_with = "optional_whole")]
        opt: Option<i64>,
        #[serde(default, deserialize_with = "nullable_whole")]
        patch: Option<Option<i64>>,
    }

    #[test]
    fn integers_may_be_written_with_a_zero_fraction_as_json_schema_allows() {
        let read = |body: &str| serde_json::from_str::<Numbers>(body).map(|n| (n.n, n.opt, n.patch));
        assert_eq!(read(r#"{"n": 200}"#).unwrap(), (200, None, None));
        assert_eq!(read(r#"{"n": 200.0, "opt": -3.0, "patch": 2e2}"#).unwrap(), (200, Some(-3), Some(Some(200))));
        assert_eq!(read(r#"{"n": 1, "opt": null, "patch": null}"#).unwrap(), (1, None, Some(None)));
        assert_eq!(read(r#"{"n": -9223372036854775808}"#).unwrap().0, i64::MIN);
        assert_eq!(read(r#"{"n": 2147483648.0}"#).unwrap().0, 2_147_483_648);
        for refused in [
            r#"{"n": 1.5}"#,
            r#"{"n": 9223372036854775808}"#,
            r#"{"n": -9223372036854775809}"#,
            r#"{"n": 9007199254740993.0}"#,
            r#"{"n": 1e19}"#,
            r#"{"n": "1"}"#,
            r#"{"n": 1, "opt": "2"}"#,
        ] {
            assert!(read(refused).is_err(), "{refused}");
        }
    }

    #[test]
    fn query_strings_carry_whole_numbers_as_text() {
        #[derive(Debug, Deserialize)]
        struct Query {
            #[serde(default, deserialize_with = "query_whole")]
            limit: Option<i64>,
        }
        let read = |q: &str| web::Query::<Query>::from_query(q).map(|q| q.limit);
        assert_eq!(read("limit=20").unwrap(), Some(20));
        assert_eq!(read("limit=20.0").unwrap(), Some(20));
        assert_eq!(read("").unwrap(), None);
        assert_eq!(read("limit=-9223372036854775808").unwrap(), Some(i64::MIN));
        assert_eq!(read("limit=-9223372036854775808.00").unwrap(), Some(i64::MIN));
        for refused in [
            "limit=2.5",
            "limit=inf",
            "limit=NaN",
            "limit=x",
            "limit=",
            "limit=+1.0",
            "limit=1e19",
            "limit=-9223372036854775809",
        ] {
            assert!(read(refused).is_err(), "{refused}");
        }
    }

    #[test]
    fn field_names_come_out_of_serde_messages() {
        assert_eq!(field_in_serde_message("unknown field `nope`, expected one of `a`").as_deref(), Some("nope"));
        assert_eq!(field_in_serde_message("missing field `name` at line 1").as_deref(), Some("name"));
        assert_eq!(field_in_serde_message("invalid type: string"), None);
    }
}
