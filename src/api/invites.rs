//! Invites (docs/invites.md): a captain (or an organiser) makes a link or
//! code to share anywhere, or mails it; whoever opens it — signed up a
//! minute ago or not — lands on the roster (or files a join request when
//! the invite says so) or in the event. Invites expire, can be revoked,
//! and are used at most their number of times, once per person.

use crate::api::rosters::players::put_on_roster;
use crate::api::rosters::requests::ask_to_join;
use crate::auth::{AuthUser, MaybeUser};
use crate::commands::event::RsvpInput;
use crate::db::invites::{self as rows, InviteRow, NewInvite};
use crate::db::rosters::players::PlayerFields;
use crate::db::rosters::requests::RequestFields;
use crate::domain::RosterCommitment;
use crate::domain::codes;
use crate::domain::text::Email;
use crate::error::{AppError, AppResult, FieldErrors};
use crate::permissions::{self, Action};
use crate::state::AppState;
use actix_web::{HttpResponse, delete, get, post, web};
use rinkside_actors::event::RsvpAnswer;
use serde::{Deserialize, Serialize};
use utoipa_actix_web::service_config::ServiceConfig;

/// 12 of 31 letters: 31¹² ≈ 7.9 × 10¹⁷ codes. Looking one up is public and
/// limited per address (`HTTP_ADDRESS_RATE_PER_SEC`): a guesser at the
/// limit would need millions of years to find one of a thousand live codes.
pub const CODE_LEN: usize = 12;
const DAY_MS: i64 = 24 * 60 * 60 * 1000;

pub fn config(cfg: &mut ServiceConfig) {
    cfg.service(invite_to_roster)
        .service(roster_invites)
        .service(invite_to_event)
        .service(event_invites)
        .service(revoke)
        .service(preview_invite)
        .service(accept);
}

/// `POST /rosters/{id}/invites`.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct NewInviteInput {
    /// Mailed there when `SMTP_URL` is set; absent: a link to share.
    #[schema(schema_with = crate::domain::text::schema::optional_email)]
    pub email: Option<String>,
    /// 1–30 (default 14).
    #[serde(default, deserialize_with = "crate::api::optional_whole")]
    #[schema(value_type = Option<i64>, minimum = 1, maximum = 30)]
    pub expires_in_days: Option<i64>,
    /// 1–100 (default 1 for a mailed invite, 25 for a link).
    #[serde(default, deserialize_with = "crate::api::optional_whole")]
    #[schema(value_type = Option<i64>, minimum = 1, maximum = 100)]
    pub max_uses: Option<i64>,
    /// Accepting files a join request for the captain to approve, instead
    /// of joining.
    pub require_approval: Option<bool>,
}

/// `POST /events/{id}/invites`: the same terms, without approval (an
/// event's invite answers "attending").
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct NewEventInviteInput {
    #[schema(schema_with = crate::domain::text::schema::optional_email)]
    pub email: Option<String>,
    /// 1–30 (default 14).
    #[serde(default, deserialize_with = "crate::api::optional_whole")]
    #[schema(value_type = Option<i64>, minimum = 1, maximum = 30)]
    pub expires_in_days: Option<i64>,
    /// 1–100 (default 1 for a mailed invite, 25 for a link).
    #[serde(default, deserialize_with = "crate::api::optional_whole")]
    #[schema(value_type = Option<i64>, minimum = 1, maximum = 100)]
    pub max_uses: Option<i64>,
}

impl From<NewEventInviteInput> for NewInviteInput {
    fn from(e: NewEventInviteInput) -> Self {
        NewInviteInput {
            email: e.email,
            expires_in_days: e.expires_in_days,
            max_uses: e.max_uses,
            require_approval: None,
        }
    }
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Invite {
    pub id: String,
    pub code: String,
    /// The app's path that opens it (`/invite/{code}`).
    pub path: String,
    #[schema(pattern = "^(ROSTER|EVENT)$")]
    pub kind: String,
    pub roster_id: Option<String>,
    pub event_id: Option<String>,
    pub email: Option<String>,
    pub require_approval: bool,
    pub max_uses: i64,
    pub uses: i64,
    /// ACTIVE, EXPIRED, REVOKED or USED_UP.
    #[schema(pattern = "^(ACTIVE|EXPIRED|REVOKED|USED_UP)$")]
    pub status: String,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub expires_at: i64,
    #[serde(with = "crate::time::rfc3339_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub revoked_at: Option<i64>,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: i64,
}

/// What anyone holding the code sees before signing in.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InvitePreview {
    pub code: String,
    #[schema(pattern = "^(ROSTER|EVENT)$")]
    pub kind: String,
    /// The roster (with its team) or the event.
    pub title: String,
    pub team_name: Option<String>,
    #[serde(with = "crate::time::rfc3339_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub starts_at: Option<i64>,
    pub invited_by: Option<String>,
    pub require_approval: bool,
    #[schema(pattern = "^(ACTIVE|EXPIRED|REVOKED|USED_UP)$")]
    pub status: String,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub expires_at: i64,
}

/// `POST /invites/{code}/accept`.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Accepted {
    #[schema(pattern = "^(ROSTER|EVENT)$")]
    pub kind: String,
    pub roster_id: Option<String>,
    pub event_id: Option<String>,
    /// JOINED (on the roster), REQUESTED (a join request is waiting),
    /// ALREADY (on the roster or answered before), ATTENDING or WAITLISTED.
    #[schema(pattern = "^(JOINED|REQUESTED|ALREADY|ATTENDING|WAITLISTED)$")]
    pub result: String,
}

fn status(row: &InviteRow, now: i64) -> &'static str {
    if row.revoked_at.is_some() {
        "REVOKED"
    } else if row.expires_at <= now {
        "EXPIRED"
    } else if row.uses >= row.max_uses {
        "USED_UP"
    } else {
        "ACTIVE"
    }
}

fn view(row: InviteRow, now: i64) -> Invite {
    Invite {
        status: status(&row, now).into(),
        path: format!("/invite/{}", row.code),
        kind: if row.roster_id.is_some() { "ROSTER" } else { "EVENT" }.into(),
        id: row.id,
        code: row.code,
        roster_id: row.roster_id,
        event_id: row.event_id,
        email: row.email,
        require_approval: row.require_approval > 0,
        max_uses: row.max_uses,
        uses: row.uses,
        expires_at: row.expires_at,
        revoked_at: row.revoked_at,
        created_at: row.created_at,
    }
}

/// The checked terms of a new invite.
fn terms(input: &NewInviteInput) -> AppResult<(Option<String>, i64, i64, bool)> {
    let mut errors = FieldErrors::new();
    let email = match input.email.as_deref().map(str::trim).filter(|e| !e.is_empty()) {
        None => None,
        Some(raw) => match Email::parse(raw) {
            Ok(e) => Some(e.as_str().to_string()),
            Err(message) => {
                errors.insert("email".into(), message);
                None
            }
        },
    };
    let days = input.expires_in_days.unwrap_or(14);
    if !(1..=30).contains(&days) {
        errors.insert("expiresInDays".into(), "must be 1–30".into());
    }
    let max_uses = input.max_uses.unwrap_or(if email.is_some() { 1 } else { 25 });
    if !(1..=100).contains(&max_uses) {
        errors.insert("maxUses".into(), "must be 1–100".into());
    }
    let approval = input.require_approval.unwrap_or(false);
    crate::api::finish(errors)?;
    Ok((email, days, max_uses, approval))
}

/// Makes the invite and, with an address and `SMTP_URL`, mails it.
async fn make(
    state: &AppState,
    me: &AuthUser,
    roster_id: Option<&str>,
    event_id: Option<&str>,
    input: NewInviteInput,
) -> AppResult<HttpResponse> {
    let (email, days, max_uses, require_approval) = terms(&input)?;
    let now = (state.clock)();
    let code = codes::random(CODE_LEN);
    let new = NewInvite {
        code: &code,
        roster_id,
        event_id,
        email: email.as_deref(),
        require_approval,
        max_uses,
        created_by_id: &me.id,
        now,
        expires_at: now + days * DAY_MS,
    };
    let id = rows::insert(&state.db.pool, &new).await?;
    let row = rows::get(&state.db.pool, &id).await?.ok_or_else(|| AppError::not_found("invite"))?;
    if let (Some(to), Some(mailer)) = (email.as_deref(), state.mailer.clone()) {
        let what = preview_of(state, &row, now).await?;
        let link = format!("{}/invite/{code}", state.config.public_url);
        let by = what.invited_by.clone().unwrap_or_else(|| "Someone".into());
        let subject = format!("{by} invited you to {}", what.title);
        let body = format!("{by} invited you to {} on Rinkside.\n\nOpen this link to join: {link}\n", what.title);
        let to = to.parse().map_err(|_| AppError::field("email", "not an address we can mail"))?;
        tokio::spawn(async move {
            if let Err(e) = mailer.send(to, &subject, body).await {
                tracing::warn!(error = %e, "invite mail not sent");
            }
        });
    }
    Ok(HttpResponse::Created().json(view(row, now)))
}

async fn preview_of(state: &AppState, row: &InviteRow, now: i64) -> AppResult<InvitePreview> {
    let (kind, title, team_name, starts_at) = match (&row.roster_id, &row.event_id) {
        (Some(r), _) => {
            let facts = crate::db::notifications::roster_facts(&state.db.pool, r)
                .await?
                .ok_or_else(|| AppError::not_found("invite"))?;
            ("ROSTER", format!("{} ({})", facts.roster_name, facts.season_name), Some(facts.team_name), None)
        }
        (_, Some(e)) => {
            let event =
                crate::db::events::get(&state.db.pool, e).await?.ok_or_else(|| AppError::not_found("invite"))?;
            ("EVENT", event.title, None, Some(event.start_date))
        }
        (None, None) => return Err(AppError::not_found("invite")),
    };
    let invited_by = match &row.created_by_id {
        Some(id) => crate::db::users::display_name(&state.db.pool, id).await?,
        None => None,
    };
    Ok(InvitePreview {
        code: row.code.clone(),
        kind: kind.into(),
        title,
        team_name,
        starts_at,
        invited_by,
        require_approval: row.require_approval > 0,
        status: status(row, now).into(),
        expires_at: row.expires_at,
    })
}

/// Invite people to a roster (its team's owner, managers, captain).
#[utoipa::path(request_body = NewInviteInput, responses((status = 201, body = Invite), (status = 401, body = crate::error::ErrorEnvelope), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)),
    tag = "invites", security(("bearerAuth" = [])))]
#[post("/rosters/{id}/invites")]
async fn invite_to_roster(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    body: web::Json<NewInviteInput>,
) -> AppResult<HttpResponse> {
    permissions::check(&state.db, Some(&me.id), Action::DecideJoinRequests { roster_id: &id }).await?;
    make(&state, &me, Some(&id), None, body.into_inner()).await
}

/// The roster's invites, newest first (whoever may invite there).
#[utoipa::path(responses((status = 200, body = Vec<Invite>), (status = 401, body = crate::error::ErrorEnvelope), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope)),
    tag = "invites", security(("bearerAuth" = [])))]
#[get("/rosters/{id}/invites")]
async fn roster_invites(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
) -> AppResult<web::Json<Vec<Invite>>> {
    permissions::check(&state.db, Some(&me.id), Action::DecideJoinRequests { roster_id: &id }).await?;
    let now = (state.clock)();
    Ok(web::Json(rows::of(&state.db.pool, Some(&id), None).await?.into_iter().map(|r| view(r, now)).collect()))
}

/// Invite people to an event (its organisers).
#[utoipa::path(request_body = NewEventInviteInput, responses((status = 201, body = Invite), (status = 401, body = crate::error::ErrorEnvelope), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)),
    tag = "invites", security(("bearerAuth" = [])))]
#[post("/events/{id}/invites")]
async fn invite_to_event(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    body: web::Json<NewEventInviteInput>,
) -> AppResult<HttpResponse> {
    permissions::check(&state.db, Some(&me.id), Action::OrganiseEvent { event_id: &id }).await?;
    make(&state, &me, None, Some(&id), body.into_inner().into()).await
}

/// The event's invites, newest first (its organisers).
#[utoipa::path(responses((status = 200, body = Vec<Invite>), (status = 401, body = crate::error::ErrorEnvelope), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope)),
    tag = "invites", security(("bearerAuth" = [])))]
#[get("/events/{id}/invites")]
async fn event_invites(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
) -> AppResult<web::Json<Vec<Invite>>> {
    permissions::check(&state.db, Some(&me.id), Action::OrganiseEvent { event_id: &id }).await?;
    let now = (state.clock)();
    Ok(web::Json(rows::of(&state.db.pool, None, Some(&id)).await?.into_iter().map(|r| view(r, now)).collect()))
}

/// Whoever may invite there may revoke (by its code); a revoked link
/// answers nobody.
#[utoipa::path(responses((status = 204), (status = 401, body = crate::error::ErrorEnvelope), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope)),
    tag = "invites", security(("bearerAuth" = [])))]
#[delete("/invites/{code}")]
async fn revoke(state: web::Data<AppState>, me: AuthUser, code: web::Path<String>) -> AppResult<HttpResponse> {
    let row =
        rows::by_code(&state.db.pool, &codes::normalise(&code)).await?.ok_or_else(|| AppError::not_found("invite"))?;
    match (&row.roster_id, &row.event_id) {
        (Some(roster_id), _) => {
            permissions::check(&state.db, Some(&me.id), Action::DecideJoinRequests { roster_id }).await?;
        }
        (_, Some(event_id)) => permissions::check(&state.db, Some(&me.id), Action::OrganiseEvent { event_id }).await?,
        (None, None) => return Err(AppError::not_found("invite")),
    }
    rows::revoke(&state.db.pool, &row.id, (state.clock)()).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// What an invite is for (no sign-in needed: the sign-up page shows it).
#[utoipa::path(responses((status = 200, body = InvitePreview), (status = 404, body = crate::error::ErrorEnvelope)),
    tag = "invites", security((), ("bearerAuth" = [])))]
#[get("/invites/{code}")]
async fn preview_invite(
    state: web::Data<AppState>,
    _me: MaybeUser,
    code: web::Path<String>,
) -> AppResult<web::Json<InvitePreview>> {
    let row =
        rows::by_code(&state.db.pool, &codes::normalise(&code)).await?.ok_or_else(|| AppError::not_found("invite"))?;
    Ok(web::Json(preview_of(&state, &row, (state.clock)()).await?))
}

/// Use an invite: join the roster (or ask to), or answer the event
/// "attending". Limits and the roster's room still hold; a failed join
/// gives the use back.
#[utoipa::path(responses((status = 200, body = Accepted), (status = 401, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope)),
    tag = "invites", security(("bearerAuth" = [])))]
#[post("/invites/{code}/accept")]
async fn accept(state: web::Data<AppState>, me: AuthUser, code: web::Path<String>) -> AppResult<web::Json<Accepted>> {
    let row =
        rows::by_code(&state.db.pool, &codes::normalise(&code)).await?.ok_or_else(|| AppError::not_found("invite"))?;
    let now = (state.clock)();
    let accepted = |result: &str| Accepted {
        kind: if row.roster_id.is_some() { "ROSTER" } else { "EVENT" }.into(),
        roster_id: row.roster_id.clone(),
        event_id: row.event_id.clone(),
        result: result.into(),
    };
    let mut tx = state.db.begin().await?;
    if rows::used_by(&mut tx, &row.id, &me.id).await? {
        return Ok(web::Json(accepted("ALREADY")));
    }
    if !rows::take_use(&mut tx, &row.id, &me.id, now).await? {
        let why = match status(&row, now) {
            "REVOKED" => "this invite was revoked",
            "EXPIRED" => "this invite has expired",
            _ => "this invite has been used as many times as it allows",
        };
        return Err(AppError::conflict_code("invite_closed", why));
    }
    tx.commit().await?;
    let joined = join(&state, &me, &row).await;
    if joined.is_err() {
        rows::give_back(&state.db.pool, &row.id, &me.id).await?;
    }
    Ok(web::Json(accepted(joined?)))
}

/// What using the invite does, by what it is for.
async fn join(state: &AppState, me: &AuthUser, row: &InviteRow) -> AppResult<&'static str> {
    match (&row.roster_id, &row.event_id) {
        (Some(roster_id), _) if row.require_approval > 0 => {
            let fields = RequestFields {
                message: Some("Joined through an invite.".into()),
                preferred_position: None,
                commitment_level: RosterCommitment::FullTime.as_str().into(),
            };
            match ask_to_join(state, &me.id, roster_id, &fields).await {
                Ok(_) => Ok("REQUESTED"),
                Err(AppError::Conflict { code: "already_on_roster" | "request_pending", .. }) => Ok("ALREADY"),
                Err(e) => Err(e),
            }
        }
        (Some(roster_id), _) => {
            let fields = PlayerFields {
                jersey_number: None,
                position: None,
                commitment_level: RosterCommitment::FullTime.as_str().into(),
                captain: false,
                alternate_captain: false,
            };
            match put_on_roster(state, &me.id, roster_id, &me.id, &fields).await {
                Ok(_) => Ok("JOINED"),
                Err(AppError::Conflict { code: "already_on_roster", .. }) => Ok("ALREADY"),
                Err(e) => Err(e),
            }
        }
        (_, Some(event_id)) => {
            let input = RsvpInput { action: RsvpAnswer::Attending, position: None };
            let reply = crate::commands::event::rsvp(state, me, event_id, input, None).await?;
            Ok(if reply["status"] == "WAITLISTED" { "WAITLISTED" } else { "ATTENDING" })
        }
        (None, None) => Err(AppError::not_found("invite")),
    }
}
