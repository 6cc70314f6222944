//! What facilities and teams share over HTTP, written once over [`OrgApi`]:
//! the search by name, the page read, following and the follower list,
//! managers, ownership transfer, deletion, and the list of what a person
//! follows of each kind. `facilities::config` and `teams::config` mount them
//! with `cfg.service(orgs::routes::<…>())`, each under its own paths
//! (`/facilities/{id}/follow`, `/teams/{id}/follow`, …) and OpenAPI tag; only
//! creating and editing, whose fields differ, stay in those modules.
//!
//! Each route below is a generic handler whose `#[utoipa::path]` is a
//! template: `ORGS` in its path stands for `facilities` or `teams`, "facility
//! or team" in its summary for the one it serves, and [`Routes`] fills in the
//! kind's own response types. The template's method and path are also what
//! the route is registered at, so the documentation cannot drift from the
//! routing.

use super::users::{PublicUser, people_page};
use super::{NameSearchQuery, Page, PageQuery, page_rows, staff};
use crate::auth::{AuthUser, MaybeUser};
use crate::db::follows::{Direction, Target};
use crate::db::orgs::{Listing, Org, OrgColumns};
use crate::db::{self, Cursor, Tx, finish_page};
use crate::error::{AppError, AppResult};
use crate::permissions::{self, Action};
use crate::realtime::topics::Topic;
use crate::state::AppState;
use actix_web::dev::{AppService, HttpServiceFactory};
use actix_web::{HttpResponse, guard, http, web};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::Serialize;
use std::marker::PhantomData;
use utoipa::openapi::path::{HttpMethod, Operation, PathItem, Paths};
use utoipa::openapi::{ContentBuilder, Ref, RefOr, ResponseBuilder, schema::Schema};
use utoipa::{PartialSchema, ToSchema};
use utoipa_actix_web::OpenApiFactory;

/// A kind of org as the API serves it: `facilities::Facilities`,
/// `teams::Teams`.
pub trait OrgApi: 'static {
    const ORG: Org;
    /// What deleting one takes with it, for the documentation of
    /// `DELETE /{kind}/{id}` (the schema's ON DELETE rules decide it).
    const ON_DELETE: &'static str;
    /// What lists show: `Facility`, `Team`.
    type Item: Serialize + ToSchema + 'static;
    /// What its page read and its owner's writes answer: `FacilityPage`,
    /// `TeamPage`.
    type Page: Serialize + ToSchema + 'static;

    /// One, as the viewer sees it in a list; 404 when there is none.
    fn load(state: &AppState, viewer: Option<&str>, id: &str) -> impl Future<Output = AppResult<Self::Item>>;
    /// Its page, as the viewer sees it; 404 when there is none.
    fn load_page(state: &AppState, viewer: Option<&str>, id: &str) -> impl Future<Output = AppResult<Self::Page>>;
}

/// What every facility and team shows, flattened into `Facility` and
/// `Team`: who made and owns it, since when, and its followers.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrgInfo {
    pub id: String,
    pub name: String,
    pub creator_id: String,
    pub owner_id: String,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: i64,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub updated_at: i64,
    pub follower_count: i64,
    /// Whether the viewer follows it (false signed out).
    pub is_following: bool,
}

/// One facility or team as the viewer sees it: what every org shows, and
/// its kind's own columns; 404 when there is none.
pub async fn load_row<K: OrgColumns>(state: &AppState, viewer: Option<&str>, id: &str) -> AppResult<(OrgInfo, K)> {
    let row = db::orgs::get::<_, K>(&state.db.pool, id).await?.ok_or_else(|| AppError::not_found(K::ORG.noun()))?;
    let info = OrgInfo {
        is_following: is_following(state, viewer, K::ORG, id).await?,
        id: row.id,
        name: row.name,
        creator_id: row.creator_id,
        owner_id: row.owner_id,
        created_at: row.created_at,
        updated_at: row.updated_at,
        follower_count: row.follower_count,
    };
    Ok((info, row.own))
}

/// Starts an edit of a facility or team: the editor may edit it, and it is
/// locked in the returned transaction with `updated_at` advanced (see
/// `db::orgs::touch`); 404 when there is none.
pub async fn begin_edit(state: &AppState, me: &AuthUser, org: Org, id: &str) -> AppResult<Tx> {
    let action = match org {
        Org::Facility => Action::EditFacility { facility_id: id },
        Org::Team => Action::EditTeam { team_id: id },
    };
    permissions::check(&state.db, Some(&me.id), action).await?;
    let mut tx = state.db.begin().await?;
    db::orgs::touch(&mut tx, org, id).await?.ok_or_else(|| AppError::not_found(org.noun()))?;
    Ok(tx)
}

/// Whether the viewer follows this facility or team (false signed out).
pub async fn is_following(state: &AppState, viewer: Option<&str>, org: Org, id: &str) -> AppResult<bool> {
    Ok(match viewer {
        Some(v) => db::follows::is_following(&state.db.pool, Target::Org(org), v, id).await?,
        None => false,
    })
}

// ---------------------------------------------------------------- pages by name

/// The alphabetical keyset cursor `(lower(name), id)`: the name key in
/// unpadded base64url, a dot, the id. Opaque to clients, and printable, so it
/// travels in a query string without control characters or escaping.
fn name_cursor(key: &db::orgs::NameKey) -> String {
    format!("{}.{}", URL_SAFE_NO_PAD.encode(&key.name_key), key.id)
}

fn parse_name_cursor(raw: Option<&str>) -> AppResult<Option<(String, String)>> {
    let Some(raw) = raw else { return Ok(None) };
    raw.split_once('.')
        .and_then(|(name, id)| {
            let name = String::from_utf8(URL_SAFE_NO_PAD.decode(name).ok()?).ok()?;
            // What we encode is a name, so never a control character.
            (!name.chars().any(char::is_control)).then(|| (name, id.to_string()))
        })
        .map(Some)
        .ok_or_else(|| AppError::field("cursor", "not a cursor we gave out"))
}

/// One page of facilities or teams in name order, as the viewer sees them.
pub async fn by_name<R: OrgApi>(
    state: &AppState,
    viewer: Option<&str>,
    listing: Listing<'_>,
    cursor: Option<&str>,
    limit: i64,
) -> AppResult<Page<R::Item>> {
    let after = parse_name_cursor(cursor)?;
    let after = after.as_ref().map(|(n, i)| (n.as_str(), i.as_str()));
    let rows = db::orgs::by_name(&state.db.pool, listing, after, limit).await?;
    let (rows, next_cursor) = finish_page(rows, limit, name_cursor);
    let mut items = Vec::with_capacity(rows.len());
    for row in rows {
        items.push(R::load(state, viewer, &row.id).await?);
    }
    Ok(Page { items, next_cursor })
}

/// Facilities or teams by name.
#[utoipa::path(get, path = "/ORGS", params(NameSearchQuery), responses((status = 200)), security((), ("bearerAuth" = [])))]
async fn list<R: OrgApi>(
    state: web::Data<AppState>,
    me: MaybeUser,
    query: web::Query<NameSearchQuery>,
) -> AppResult<web::Json<Page<R::Item>>> {
    let limit = page_rows(query.limit)?;
    let term = query.term()?;
    let listing = Listing::Named(R::ORG, term.as_str());
    Ok(web::Json(by_name::<R>(&state, me.id(), listing, query.cursor.as_deref(), limit).await?))
}

// ---------------------------------------------------------------- page, deletion

/// A facility or team's page: it, its managers, what it runs and the
/// viewer's role (public).
#[utoipa::path(get, path = "/ORGS/{id}", responses((status = 200), (status = 404, body = crate::error::ErrorEnvelope)), security((), ("bearerAuth" = [])))]
async fn get_one<R: OrgApi>(
    state: web::Data<AppState>,
    me: MaybeUser,
    id: web::Path<String>,
) -> AppResult<web::Json<R::Page>> {
    Ok(web::Json(R::load_page(&state, me.id(), &id).await?))
}

/// Delete a facility or team (owner only).
#[utoipa::path(delete, path = "/ORGS/{id}", responses((status = 204), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope)), security(("bearerAuth" = [])))]
async fn remove<R: OrgApi>(state: web::Data<AppState>, me: AuthUser, id: web::Path<String>) -> AppResult<HttpResponse> {
    let action = match R::ORG {
        Org::Facility => Action::DeleteFacility { facility_id: &id },
        Org::Team => Action::DeleteTeam { team_id: &id },
    };
    permissions::check(&state.db, Some(&me.id), action).await?;
    // Games keep both sides' records: a team that has played or is on a
    // schedule stays (its rosters can be archived instead).
    if matches!(R::ORG, Org::Team) && db::teams::has_games(&state.db.pool, &id).await? {
        return Err(AppError::conflict_code(
            "team_has_games",
            "this team has games on a season's schedule; archive its rosters instead of deleting it",
        ));
    }
    if !db::orgs::delete(&state.db.pool, R::ORG, &id).await? {
        return Err(AppError::not_found(R::ORG.noun()));
    }
    Ok(HttpResponse::NoContent().finish())
}

// ---------------------------------------------------------------- follows

/// Follow a facility or team (idempotent).
#[utoipa::path(put, path = "/ORGS/{id}/follow", responses((status = 204), (status = 404, body = crate::error::ErrorEnvelope)), security(("bearerAuth" = [])))]
async fn follow<R: OrgApi>(state: web::Data<AppState>, me: AuthUser, id: web::Path<String>) -> AppResult<HttpResponse> {
    permissions::check(&state.db, Some(&me.id), Action::Follow).await?;
    if !db::orgs::exists(&state.db.pool, R::ORG, &id).await? {
        return Err(AppError::not_found(R::ORG.noun()));
    }
    db::follows::follow(&state.db.pool, Target::Org(R::ORG), &me.id, &id).await?;
    state.realtime.pusher.push_soon(vec![Topic::follows(id.as_str())]);
    Ok(HttpResponse::NoContent().finish())
}

/// Stop following a facility or team (idempotent).
#[utoipa::path(delete, path = "/ORGS/{id}/follow", responses((status = 204)), security(("bearerAuth" = [])))]
async fn unfollow<R: OrgApi>(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
) -> AppResult<HttpResponse> {
    permissions::check(&state.db, Some(&me.id), Action::Follow).await?;
    db::follows::unfollow(&state.db.pool, Target::Org(R::ORG), &me.id, &id).await?;
    state.realtime.pusher.push_soon(vec![Topic::follows(id.as_str())]);
    Ok(HttpResponse::NoContent().finish())
}

/// People following a facility or team, newest first.
#[utoipa::path(get, path = "/ORGS/{id}/followers", params(PageQuery), responses((status = 200, body = Page<PublicUser>), (status = 404, body = crate::error::ErrorEnvelope)), security((), ("bearerAuth" = [])))]
async fn followers<R: OrgApi>(
    state: web::Data<AppState>,
    me: MaybeUser,
    id: web::Path<String>,
    page: web::Query<PageQuery>,
) -> AppResult<web::Json<Page<PublicUser>>> {
    let target = Target::Org(R::ORG);
    Ok(web::Json(people_page(&state, me.id(), target, Direction::Followers, &id, &page).await?))
}

/// Facilities or teams this user follows.
#[utoipa::path(get, path = "/users/{id}/following/ORGS", params(PageQuery), responses((status = 200), (status = 404, body = crate::error::ErrorEnvelope)), security((), ("bearerAuth" = [])))]
async fn following<R: OrgApi>(
    state: web::Data<AppState>,
    me: MaybeUser,
    id: web::Path<String>,
    page: web::Query<PageQuery>,
) -> AppResult<web::Json<Page<R::Item>>> {
    if !db::users::exists(&state.db.pool, &id).await? {
        return Err(AppError::not_found("user"));
    }
    let limit = page.rows()?;
    let rows = db::follows::followed_ids(&state.db.pool, R::ORG, &id, page.cursor()?.as_ref(), limit).await?;
    let (rows, next_cursor) = finish_page(rows, limit, |r| Cursor { at: r.1, id: r.2.clone() }.encode());
    let mut items = Vec::with_capacity(rows.len());
    for (org_id, _, _) in rows {
        items.push(R::load(&state, me.id(), &org_id).await?);
    }
    Ok(web::Json(Page { items, next_cursor }))
}

// ---------------------------------------------------------------- staff

/// Make someone a manager (owner only; idempotent).
#[utoipa::path(put, path = "/ORGS/{id}/managers/{user_id}", responses((status = 204), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope)), security(("bearerAuth" = [])))]
async fn put_manager<R: OrgApi>(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<(String, String)>,
) -> AppResult<HttpResponse> {
    let (id, user_id) = path.into_inner();
    staff::add_manager(&state, &me, R::ORG, &id, &user_id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Remove a manager (owner; or a manager stepping down; idempotent).
#[utoipa::path(delete, path = "/ORGS/{id}/managers/{user_id}", responses((status = 204), (status = 403, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)), security(("bearerAuth" = [])))]
async fn delete_manager<R: OrgApi>(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<(String, String)>,
) -> AppResult<HttpResponse> {
    let (id, user_id) = path.into_inner();
    staff::remove_manager(&state, &me, R::ORG, &id, &user_id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Hand the facility or team to someone else (owner only); the old owner stays on
/// as a manager. Answers the page.
#[utoipa::path(post, path = "/ORGS/{id}/transfer-ownership", request_body = staff::TransferOwnership, responses((status = 200), (status = 403, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)), security(("bearerAuth" = [])))]
async fn transfer_ownership<R: OrgApi>(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    body: web::Json<staff::TransferOwnership>,
) -> AppResult<web::Json<R::Page>> {
    staff::transfer(&state, &me, R::ORG, &id, body.into_inner()).await?;
    Ok(web::Json(R::load_page(&state, Some(&me.id), &id).await?))
}

// ---------------------------------------------------------------- mounting

/// The shared routes of `R`, for `cfg.service(…)` in its module's `config`.
pub fn routes<R: OrgApi>() -> Routes<R> {
    Routes(PhantomData)
}

/// Registers the routes above for one kind of org and documents them (see
/// the module doc).
pub struct Routes<R>(PhantomData<R>);

/// One shared route for one kind: where it is served and how it is documented.
struct Mounted {
    path: String,
    method: HttpMethod,
    operation: Operation,
    route: actix_web::Route,
}

impl<R: OrgApi> Routes<R> {
    /// Every shared route; the single list both registration and the
    /// OpenAPI document read.
    fn all() -> Vec<Mounted> {
        let item_page = format!("Page_{}", R::Item::name());
        let page = R::Page::name().to_string();
        vec![
            mount::<R, __path_list>(web::to(list::<R>)).answering("200", &item_page),
            mount::<R, __path_get_one>(web::to(get_one::<R>)).answering("200", &page),
            mount::<R, __path_remove>(web::to(remove::<R>)).summary_adds(R::ON_DELETE),
            mount::<R, __path_follow>(web::to(follow::<R>)),
            mount::<R, __path_unfollow>(web::to(unfollow::<R>)),
            mount::<R, __path_followers>(web::to(followers::<R>)),
            mount::<R, __path_following>(web::to(following::<R>))
                .answering("200", &item_page)
                .operation_id(format!("following_{}", R::ORG.table()))
                .tag("users"),
            mount::<R, __path_put_manager>(web::to(put_manager::<R>)),
            mount::<R, __path_delete_manager>(web::to(delete_manager::<R>)),
            mount::<R, __path_transfer_ownership>(web::to(transfer_ownership::<R>)).answering("200", &page),
        ]
    }
}

/// The route of template `T` for org `R`: its path with `ORGS` filled in, its
/// operation tagged with the kind and its summary and description speaking
/// of that kind.
fn mount<R: OrgApi, T: utoipa::Path>(route: actix_web::Route) -> Mounted {
    let org = R::ORG;
    let (one, many) = match org {
        Org::Facility => ("facility", "Facilities"),
        Org::Team => ("team", "Teams"),
    };
    let speak = |text: String| text.replace("facility or team", one).replace("Facilities or teams", many);
    let mut operation = T::operation();
    operation.tags = Some(vec![org.table().to_string()]);
    operation.summary = operation.summary.map(speak);
    operation.description = operation.description.map(speak);
    Mounted {
        path: T::path().replace("ORGS", org.table()),
        method: T::methods().into_iter().next().unwrap_or(HttpMethod::Get),
        operation,
        route,
    }
}

impl Mounted {
    /// Documents the `status` answer's JSON body as the component `schema`.
    fn answering(mut self, status: &str, schema: &str) -> Self {
        let content = ContentBuilder::new().schema(Some(Ref::from_schema_name(schema))).build();
        let response = ResponseBuilder::new().content("application/json", content).build();
        self.operation.responses.responses.insert(status.to_string(), RefOr::T(response));
        self
    }

    fn operation_id(mut self, id: String) -> Self {
        self.operation.operation_id = Some(id);
        self
    }

    fn tag(mut self, tag: &str) -> Self {
        self.operation.tags = Some(vec![tag.to_string()]);
        self
    }

    /// Adds what only this kind's documentation says.
    fn summary_adds(mut self, text: &str) -> Self {
        self.operation.summary = self.operation.summary.map(|s| format!("{s} {text}"));
        self
    }

    fn method(&self) -> http::Method {
        match self.method {
            HttpMethod::Get => http::Method::GET,
            HttpMethod::Post => http::Method::POST,
            HttpMethod::Put => http::Method::PUT,
            HttpMethod::Delete => http::Method::DELETE,
            HttpMethod::Options => http::Method::OPTIONS,
            HttpMethod::Head => http::Method::HEAD,
            HttpMethod::Patch => http::Method::PATCH,
            HttpMethod::Trace => http::Method::TRACE,
        }
    }
}

impl<R: OrgApi> HttpServiceFactory for Routes<R> {
    fn register(self, config: &mut AppService) {
        for mounted in Self::all() {
            // A resource per method, guarded like the route macros do, so the
            // kind's own `#[patch]`/`#[post]` routes on the same paths stay
            // reachable and other methods fall through to the 405 answer.
            let method = mounted.method();
            web::resource(mounted.path).guard(guard::Method(method)).route(mounted.route).register(config);
        }
    }
}

impl<R: OrgApi> OpenApiFactory for Routes<R> {
    fn paths(&self) -> Paths {
        Self::all()
            .into_iter()
            .fold(Paths::builder(), |paths, m| paths.path(m.path, PathItem::new(m.method, m.operation)))
            .build()
    }

    fn schemas(&self, schemas: &mut Vec<(String, RefOr<Schema>)>) {
        // Named components the routes above refer to; one already collected
        // from another route (utoipa inlines generic items there) is kept.
        let mut add = |name: String, schema: RefOr<Schema>| {
            if !schemas.iter().any(|(n, _)| *n == name) {
                schemas.push((name, schema));
            }
        };
        add(format!("Page_{}", R::Item::name()), <Page<R::Item> as PartialSchema>::schema());
        add(R::Item::name().to_string(), R::Item::schema());
        add(R::Page::name().to_string(), R::Page::schema());
        add(staff::TransferOwnership::name().to_string(), staff::TransferOwnership::schema());
        add(format!("Page_{}", PublicUser::name()), <Page<PublicUser> as PartialSchema>::schema());
        add(PublicUser::name().to_string(), PublicUser::schema());
        add(crate::error::ErrorEnvelope::name().to_string(), crate::error::ErrorEnvelope::schema());
        R::Item::schemas(schemas);
        R::Page::schemas(schemas);
        PublicUser::schemas(schemas);
        crate::error::ErrorEnvelope::schemas(schemas);
    }
}

#[cfg(test)]
mod fuzz {
    use super::*;
    use crate::fuzzing::{self, text};
    use proptest::prelude::*;

    /// Name-cursor-shaped strings: base64url-ish, a dot, an id.
    fn name_cursor_like() -> impl Strategy<Value = String> {
        (prop_oneof!["[A-Za-z0-9_=+/-]{0,40}", text()], text()).prop_map(|(name, id)| format!("{name}.{id}"))
    }

    proptest! {
        #![proptest_config(fuzzing::config(2_000))]

        /// A `?cursor=` of the alphabetical lists parses or is the 422
        /// naming `cursor`; what it parses to never holds a control
        /// character (the name key goes into a query).
        #[test]
        fn any_name_cursor_parses_or_is_refused(raw in prop_oneof![name_cursor_like(), text()]) {
            match parse_name_cursor(Some(&raw)) {
                Ok(Some((name, _))) => prop_assert!(!name.chars().any(char::is_control)),
                Ok(None) => prop_assert!(false, "a cursor given is never no cursor"),
                Err(e) => prop_assert_eq!(e.code(), "validation_failed"),
            }
        }

        /// Every name cursor we give out parses back to its key and id.
        #[test]
        fn name_cursors_round_trip(name in text(), id in text()) {
            // What we encode is a name key, so never a control character.
            let name_key: String = name.chars().filter(|c| !c.is_control()).collect();
            let key = db::orgs::NameKey { id: id.clone(), name_key: name_key.clone() };
            prop_assert_eq!(parse_name_cursor(Some(&name_cursor(&key))).ok(), Some(Some((name_key, id))));
        }
    }
}
