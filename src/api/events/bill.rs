//! The ice bill (docs/sides-and-bill.md › The ice bill): the organiser
//! sets what the ice cost for an event or for a series' weeks, bills the
//! players, and sees who paid; each player sees their own share. Shares
//! are worked out on every read (`crate::ice_bill`), never stored.

use super::payments::require_collector;
use crate::api::form::Form;
use crate::auth::AuthUser;
use crate::db::{self, bills::Owner, events::EventRow};
use crate::domain::HockeyPosition;
use crate::domain::money::Currency;
use crate::error::{AppError, AppResult};
use crate::ice_bill::{self, EventBill};
use crate::permissions::{self, Action, Object};
use crate::state::AppState;
use actix_web::{get, post, put, web};
use rinkside_pickup::bill::GoaliePolicy;
use serde::{Deserialize, Serialize};

/// The most one event's or one series' ice may cost: $10,000,000.00.
pub const MAX_COST_CENTS: i64 = 1_000_000_000;

/// One person's line of a bill.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BillShare {
    pub user_id: String,
    pub display_name: String,
    /// SKATER or GOALIE.
    pub role: String,
    /// 2 a skater; a goalie 0, 1 or 2 by the policy; 0 an organiser who
    /// opted out.
    pub weight: i64,
    /// Owed when unpaid; what was paid when paid.
    pub amount_cents: i64,
    pub is_paid: bool,
    pub paid_cents: Option<i64>,
    /// Paid beyond their part (all of it when they did not play).
    pub credit_cents: i64,
    /// In now (false: dropped out after paying).
    pub present: bool,
}

/// `GET /events/{id}/bill`.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Bill {
    pub event_id: String,
    /// Null until the organiser (or the series) sets a cost.
    pub cost_cents: Option<i64>,
    /// ISO 4217.
    pub currency: String,
    /// FREE, HALF or FULL.
    pub goalie_policy: String,
    pub organiser_pays: bool,
    /// EVENT (its own cost), SERIES (its week of the series' total) or null.
    pub source: Option<String>,
    #[serde(with = "crate::time::rfc3339_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub closed_at: Option<i64>,
    /// The viewer may set the cost, bill the players and mark payments.
    pub can_collect: bool,
    /// The event's creator may collect payments (what the rink's staff
    /// grant them).
    pub organiser_can_collect: bool,
    pub collected_cents: i64,
    pub outstanding_cents: i64,
    pub credit_cents: i64,
    /// Left when everyone in has paid and the cost then went up.
    pub uncovered_cents: i64,
    /// Everyone's line for the organiser (a preview before billing); only
    /// the viewer's own line for anyone else.
    pub shares: Vec<BillShare>,
}

fn role_of(position: &str) -> &'static str {
    if HockeyPosition::parse(position).ok() == Some(HockeyPosition::Goalie) { "GOALIE" } else { "SKATER" }
}

fn shares(bill: &EventBill, only: Option<&str>) -> Vec<BillShare> {
    bill.lines()
        .filter(|(s, _)| only.is_none_or(|me| s.user_id == me))
        .map(|(s, b)| BillShare {
            user_id: s.user_id.clone(),
            display_name: s.display_name.clone(),
            role: role_of(&s.position).to_string(),
            weight: i64::try_from(b.weight).unwrap_or(0),
            amount_cents: b.amount_cents,
            is_paid: s.is_paid == 1,
            paid_cents: if s.is_paid == 1 { Some(b.amount_cents) } else { None },
            credit_cents: b.credit_cents,
            present: s.attending == 1,
        })
        .collect()
}

/// What the viewer may do with an event's bill, from one read of their
/// relations: (organises it, may run its bill — an organiser who may
/// collect payments).
async fn standing(state: &AppState, event_id: &str, me: &AuthUser) -> AppResult<(bool, bool)> {
    let rel = permissions::relations(&state.db, Some(&me.id), Object::Event(event_id)).await?;
    let organises = rel.permits(&Action::OrganiseEvent { event_id });
    let collects = rel.permits(&Action::CollectPayments { event_id })
        && permissions::check_payment_collector(&state.db, &me.id).await.is_ok();
    Ok((organises, collects))
}

async fn view(state: &AppState, event: &EventRow, me: &AuthUser) -> AppResult<Bill> {
    let bill = ice_bill::for_event(&state.db, event).await?;
    let (organises, can_collect) = standing(state, &event.id, me).await?;
    let terms = bill.applied.as_ref().map(|a| a.terms);
    let whole = organises || can_collect;
    Ok(Bill {
        event_id: event.id.clone(),
        cost_cents: terms.map(|t| t.cost_cents),
        currency: bill.currency.clone(),
        goalie_policy: terms.map_or(GoaliePolicy::Free, |t| t.goalie_policy).as_str().to_string(),
        organiser_pays: terms.is_none_or(|t| t.organiser_pays),
        source: bill.applied.as_ref().map(|a| a.source.as_str().to_string()),
        closed_at: bill.closed_at,
        can_collect,
        organiser_can_collect: permissions::check_payment_collector(&state.db, &event.creator_id).await.is_ok(),
        collected_cents: if whole { bill.collected_cents() } else { 0 },
        outstanding_cents: if whole { bill.outstanding_cents() } else { 0 },
        credit_cents: if whole { bill.credit_cents() } else { 0 },
        uncovered_cents: if whole { bill.bill.uncovered_cents } else { 0 },
        shares: shares(&bill, (!whole).then_some(me.id.as_str())),
    })
}

async fn event(state: &AppState, id: &str) -> AppResult<EventRow> {
    db::events::get(&state.db.pool, id).await?.ok_or_else(|| AppError::not_found("event"))
}

/// The event's ice bill: everyone's share for its organisers, the
/// viewer's own for anyone else.
#[utoipa::path(responses((status = 200, body = Bill), (status = 401, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope)),
    tag = "events", security(("bearerAuth" = [])))]
#[get("/events/{id}/bill")]
pub(super) async fn get_bill(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
) -> AppResult<web::Json<Bill>> {
    let event = event(&state, &id).await?;
    Ok(web::Json(view(&state, &event, &me).await?))
}

/// What a goalie pays against a skater.
#[derive(Debug, Clone, Copy, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum GoaliePolicyInput {
    Free,
    Half,
    Full,
}

impl From<GoaliePolicyInput> for GoaliePolicy {
    fn from(p: GoaliePolicyInput) -> Self {
        match p {
            GoaliePolicyInput::Free => GoaliePolicy::Free,
            GoaliePolicyInput::Half => GoaliePolicy::Half,
            GoaliePolicyInput::Full => GoaliePolicy::Full,
        }
    }
}

/// What the organiser sets.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct BillInput {
    /// Whole cents, 0–1,000,000,000. For a series: the total over its weeks.
    #[serde(deserialize_with = "crate::api::whole")]
    #[schema(minimum = 0, maximum = 1_000_000_000)]
    pub cost_cents: i64,
    pub goalie_policy: GoaliePolicyInput,
    /// Whether the organiser pays a share too (default true).
    pub organiser_pays: Option<bool>,
    /// ISO 4217, only for an event without a rink (a rink bills in its own).
    pub currency: Option<String>,
}

/// The input, checked: (cost, policy, organiser pays, currency).
fn parse(input: &BillInput, rink_currency: Option<&str>) -> AppResult<(i64, GoaliePolicy, bool, String)> {
    let mut form = Form::default();
    let cost = form.field(
        "costCents",
        if (0..=MAX_COST_CENTS).contains(&input.cost_cents) {
            Ok(input.cost_cents)
        } else {
            Err(format!("must be whole cents from 0 to {MAX_COST_CENTS}"))
        },
    );
    let currency = form.field(
        "currency",
        match (rink_currency, input.currency.as_deref()) {
            (Some(rink), None) => Ok(rink.to_string()),
            (Some(rink), Some(given)) if Currency::parse(given).is_ok_and(|c| c.as_str() == rink) => {
                Ok(rink.to_string())
            }
            (Some(rink), Some(_)) => Err(format!("an event at a rink bills in the rink's currency ({rink})")),
            (None, None) => Ok("USD".to_string()),
            (None, Some(given)) => Currency::parse(given).map(|c| c.as_str().to_string()),
        },
    );
    form.finish()?;
    Ok((cost?, input.goalie_policy.into(), input.organiser_pays.unwrap_or(true), currency?))
}

/// Set what the event's ice cost (its organiser, who may collect payments).
#[utoipa::path(request_body = BillInput, responses((status = 200, body = Bill), (status = 403, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)),
    tag = "events", security(("bearerAuth" = [])))]
#[put("/events/{id}/bill")]
pub(super) async fn put_bill(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    body: web::Json<BillInput>,
) -> AppResult<web::Json<Bill>> {
    require_collector(&state, &id, &me).await?;
    let event = event(&state, &id).await?;
    let rink = ice_bill::rink_currency(&state.db, &event).await?;
    let (cost_cents, policy, organiser_pays, currency) = parse(&body, rink.as_deref())?;
    let terms = db::bills::Terms { cost_cents, currency: &currency, goalie_policy: policy.as_str(), organiser_pays };
    db::bills::put(&state.db.pool, Owner::Event(&id), &terms, &me.id).await?;
    pushed(&state, &me, &id).await;
    Ok(web::Json(view(&state, &event, &me).await?))
}

/// Bill the players: from now on each one's share is owed (the organiser,
/// who may collect payments). Billing again changes nothing.
#[utoipa::path(responses((status = 200, body = Bill), (status = 403, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope)),
    tag = "events", security(("bearerAuth" = [])))]
#[post("/events/{id}/bill/close")]
pub(super) async fn close_bill(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
) -> AppResult<web::Json<Bill>> {
    require_collector(&state, &id, &me).await?;
    let event = event(&state, &id).await?;
    if ice_bill::for_event(&state.db, &event).await?.applied.is_none() {
        return Err(AppError::conflict_code("no_cost", "set what the ice cost before billing the players"));
    }
    db::bills::close(&state.db.pool, &id, &me.id).await?;
    pushed(&state, &me, &id).await;
    Ok(web::Json(view(&state, &event, &me).await?))
}

/// Every open page of the event re-reads (its version moves).
pub(super) async fn pushed(state: &AppState, me: &AuthUser, event_id: &str) {
    if let Err(e) = crate::commands::event::touch(state, &me.id, event_id).await {
        tracing::warn!(event_id, error = %e.message(), "the bill is saved; pushing it live failed");
    }
}

// ---------------------------------------------------------------- series

/// One week of a series' bill.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BillWeek {
    pub event_id: String,
    #[serde(with = "crate::time::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub start_date: i64,
    /// This week's cost (its own, else its part of the total).
    pub cost_cents: Option<i64>,
    pub collected_cents: i64,
    pub outstanding_cents: i64,
    #[serde(with = "crate::time::rfc3339_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub closed_at: Option<i64>,
}

/// One person's balance over a series.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Balance {
    pub user_id: String,
    pub display_name: String,
    /// Owed on the weeks billed and not paid.
    pub owed_cents: i64,
    pub paid_cents: i64,
    pub credit_cents: i64,
    /// Owed less credit (negative: the organiser owes them).
    pub balance_cents: i64,
}

/// `GET /event-series/{id}/bill`.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SeriesBill {
    pub series_id: String,
    /// Null until the organiser sets a total.
    pub total_cents: Option<i64>,
    pub currency: String,
    pub goalie_policy: String,
    pub organiser_pays: bool,
    pub can_collect: bool,
    pub collected_cents: i64,
    pub outstanding_cents: i64,
    pub credit_cents: i64,
    /// The weeks still on, by date.
    pub weeks: Vec<BillWeek>,
    /// Everyone's balance for the organiser; the viewer's own for anyone else.
    pub people: Vec<Balance>,
}

/// The series' weeks as events, and the first (whose organisers run the
/// series' bill).
async fn series_events(state: &AppState, series_id: &str) -> AppResult<Vec<EventRow>> {
    db::series::get(&state.db.pool, series_id).await?.ok_or_else(|| AppError::not_found("series"))?;
    let mut events = Vec::new();
    for week in db::bills::weeks(&state.db.pool, series_id).await? {
        if let Some(e) = db::events::get(&state.db.pool, &week.id).await? {
            events.push(e);
        }
    }
    Ok(events)
}

async fn series_view(state: &AppState, series_id: &str, me: &AuthUser) -> AppResult<SeriesBill> {
    let events = series_events(state, series_id).await?;
    let total = db::bills::get(&state.db.pool, Owner::Series(series_id)).await?;
    let (can_collect, whole) = match events.first() {
        Some(first) => {
            let (organises, collects) = standing(state, &first.id, me).await?;
            (collects, organises)
        }
        None => (false, false),
    };
    let mut weeks = Vec::new();
    let mut people: Vec<Balance> = Vec::new();
    let mut currency = total.as_ref().map(|t| t.currency.clone());
    for event in &events {
        let bill = ice_bill::for_event(&state.db, event).await?;
        currency.get_or_insert_with(|| bill.currency.clone());
        weeks.push(BillWeek {
            event_id: event.id.clone(),
            start_date: event.start_date,
            cost_cents: bill.applied.as_ref().map(|a| a.terms.cost_cents),
            collected_cents: bill.collected_cents(),
            outstanding_cents: bill.outstanding_cents(),
            closed_at: bill.closed_at,
        });
        for (stake, share) in bill.lines() {
            if !whole && stake.user_id != me.id {
                continue;
            }
            let line = match people.iter_mut().find(|p| p.user_id == stake.user_id) {
                Some(line) => line,
                None => {
                    people.push(Balance {
                        user_id: stake.user_id.clone(),
                        display_name: stake.display_name.clone(),
                        owed_cents: 0,
                        paid_cents: 0,
                        credit_cents: 0,
                        balance_cents: 0,
                    });
                    let last = people.len() - 1;
                    &mut people[last]
                }
            };
            if stake.is_paid == 1 {
                line.paid_cents += share.amount_cents;
            } else if stake.attending == 1 && bill.closed_at.is_some() {
                line.owed_cents += share.amount_cents;
            }
            line.credit_cents += share.credit_cents;
            line.balance_cents = line.owed_cents - line.credit_cents;
        }
    }
    people.sort_by(|a, b| b.balance_cents.cmp(&a.balance_cents).then(a.display_name.cmp(&b.display_name)));
    let sum = |f: fn(&BillWeek) -> i64| weeks.iter().map(f).sum::<i64>();
    Ok(SeriesBill {
        series_id: series_id.to_string(),
        total_cents: total.as_ref().map(|t| t.cost_cents),
        currency: currency.unwrap_or_else(|| "USD".to_string()),
        goalie_policy: total.as_ref().map_or("FREE", |t| t.goalie_policy.as_str()).to_string(),
        organiser_pays: total.as_ref().is_none_or(|t| t.organiser_pays != 0),
        can_collect,
        collected_cents: if whole { sum(|w| w.collected_cents) } else { 0 },
        outstanding_cents: if whole { sum(|w| w.outstanding_cents) } else { 0 },
        credit_cents: people.iter().map(|p| p.credit_cents).sum(),
        weeks,
        people,
    })
}

/// A series' ice: the total over its weeks, each week's cost and takings,
/// and each person's balance (the viewer's own unless they organise it).
#[utoipa::path(responses((status = 200, body = SeriesBill), (status = 401, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope)),
    tag = "events", security(("bearerAuth" = [])))]
#[get("/event-series/{id}/bill")]
pub(super) async fn get_series_bill(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
) -> AppResult<web::Json<SeriesBill>> {
    Ok(web::Json(series_view(&state, &id, &me).await?))
}

/// Set the total the series' ice costs over its weeks (the organiser of
/// its weeks, who may collect payments).
#[utoipa::path(request_body = BillInput, responses((status = 200, body = SeriesBill), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)),
    tag = "events", security(("bearerAuth" = [])))]
#[put("/event-series/{id}/bill")]
pub(super) async fn put_series_bill(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    body: web::Json<BillInput>,
) -> AppResult<web::Json<SeriesBill>> {
    let events = series_events(&state, &id).await?;
    let first =
        events.first().ok_or_else(|| AppError::conflict_code("no_weeks", "every week of this series is cancelled"))?;
    require_collector(&state, &first.id, &me).await?;
    let rink = ice_bill::rink_currency(&state.db, first).await?;
    let (cost_cents, policy, organiser_pays, currency) = parse(&body, rink.as_deref())?;
    let terms = db::bills::Terms { cost_cents, currency: &currency, goalie_policy: policy.as_str(), organiser_pays };
    db::bills::put(&state.db.pool, Owner::Series(&id), &terms, &me.id).await?;
    for event in &events {
        pushed(&state, &me, &event.id).await;
    }
    Ok(web::Json(series_view(&state, &id, &me).await?))
}
