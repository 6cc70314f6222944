//! Dark and Light (docs/sides-and-bill.md › Fair sides): the organiser
//! splits the players in into two fair sides in one tap, re-rolls,
//! re-balances after late changes, and swaps two players by hand. The
//! split itself is `rinkside_pickup::sides` (pure); this module reads the
//! players, stores the sides, tells each player theirs and pushes the
//! event so every open page re-reads.

use crate::auth::AuthUser;
use crate::db::{self, events::EventRow, sides::SidePlayerRow};
use crate::domain::HockeyPosition;
use crate::error::{AppError, AppResult};
use crate::permissions::{self, Action};
use crate::state::AppState;
use actix_web::{get, post, web};
use rinkside_pickup::sides::{self, Player, Problem, Role, Side};
use serde::{Deserialize, Serialize};

/// Someone the sides show.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SidePlayer {
    pub user_id: String,
    pub display_name: String,
    /// Their RSVP's position.
    pub position: Option<HockeyPosition>,
    /// GOALIE, DEFENCE or FORWARD, from the position.
    pub role: String,
    /// On the universal division scale (1–8), when known.
    pub level: Option<i64>,
    /// False for a hole: on a side, no longer in.
    pub present: bool,
}

/// Counts over a side's present players.
#[derive(Debug, Default, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Totals {
    pub goalies: i64,
    pub defence: i64,
    pub forwards: i64,
    /// Unknown levels count as the split counts them (the median).
    pub level_sum: i64,
}

#[derive(Debug, Default, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SideTotals {
    pub dark: Totals,
    pub light: Totals,
}

/// `GET /events/{id}/sides`.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Sides {
    pub event_id: String,
    /// How many times the sides changed (0 before the first split).
    pub version: i64,
    #[serde(with = "crate::time::rfc3339_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub made_at: Option<i64>,
    pub seed: Option<i64>,
    pub dark: Vec<SidePlayer>,
    pub light: Vec<SidePlayer>,
    /// In, on no side yet (a promotion or a walk-in after the split).
    pub unassigned: Vec<SidePlayer>,
    pub totals: SideTotals,
}

fn role_of(position: Option<&str>) -> Role {
    match position.and_then(|p| HockeyPosition::parse(p).ok()) {
        Some(HockeyPosition::Goalie) => Role::Goalie,
        Some(HockeyPosition::LeftDefense | HockeyPosition::RightDefense) => Role::Defence,
        _ => Role::Forward,
    }
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Goalie => "GOALIE",
        Role::Defence => "DEFENCE",
        Role::Forward => "FORWARD",
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Dark => "DARK",
        Side::Light => "LIGHT",
    }
}

fn side_of(row: &SidePlayerRow) -> Option<Side> {
    match row.side.as_deref() {
        Some("DARK") => Some(Side::Dark),
        Some("LIGHT") => Some(Side::Light),
        _ => None,
    }
}

/// A row as the split sees it: its role and its level, when known.
fn player_of(row: &SidePlayerRow) -> Player {
    Player { role: role_of(row.position.as_deref()), level: row.level.and_then(|l| u8::try_from(l).ok()) }
}

async fn document(state: &AppState, event_id: &str) -> AppResult<Sides> {
    let rows = db::sides::players(&state.db.pool, event_id).await?;
    let set = db::sides::side_set(&state.db.pool, event_id).await?;
    // Levels as the split counts them over the players in (unknown: the
    // median), in the rows' order.
    let present: Vec<Player> = rows.iter().filter(|r| r.attending == 1).map(player_of).collect();
    let mut levels = sides::effective_levels(&present).into_iter();
    let mut doc = Sides {
        event_id: event_id.to_string(),
        version: set.as_ref().map_or(0, |s| s.version),
        made_at: set.as_ref().map(|s| s.made_at),
        seed: set.as_ref().map(|s| s.seed),
        dark: Vec::new(),
        light: Vec::new(),
        unassigned: Vec::new(),
        totals: SideTotals::default(),
    };
    for row in &rows {
        let role = role_of(row.position.as_deref());
        let present = row.attending == 1;
        let player = SidePlayer {
            user_id: row.user_id.clone(),
            display_name: row.display_name.clone(),
            position: row.position.as_deref().and_then(|p| HockeyPosition::parse(p).ok()),
            role: role_name(role).to_string(),
            level: row.level,
            present,
        };
        let (list, totals) = match side_of(row) {
            Some(Side::Dark) => (&mut doc.dark, Some(&mut doc.totals.dark)),
            Some(Side::Light) => (&mut doc.light, Some(&mut doc.totals.light)),
            None => (&mut doc.unassigned, None),
        };
        let level = if present { levels.next() } else { None };
        if let (Some(t), Some(level)) = (totals, level) {
            match role {
                Role::Goalie => t.goalies += 1,
                Role::Defence => t.defence += 1,
                Role::Forward => t.forwards += 1,
            }
            t.level_sum += level;
        }
        list.push(player);
    }
    Ok(doc)
}

/// The event's sides: Dark, Light, holes and newcomers.
#[utoipa::path(responses((status = 200, body = Sides), (status = 401, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope)),
    tag = "events", security(("bearerAuth" = [])))]
#[get("/events/{id}/sides")]
pub(super) async fn get_sides(
    state: web::Data<AppState>,
    _me: AuthUser,
    id: web::Path<String>,
) -> AppResult<web::Json<Sides>> {
    event(&state, &id).await?;
    Ok(web::Json(document(&state, &id).await?))
}

/// What the organiser asks for.
#[derive(Debug, Clone, Copy, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum SidesAction {
    /// A fresh split of everyone in.
    Make,
    /// Another split as good as any, different from this one when one exists.
    Reroll,
    /// As balanced as a fresh split, moving as few players as possible.
    Rebalance,
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SidesInput {
    pub action: SidesAction,
}

async fn event(state: &AppState, id: &str) -> AppResult<EventRow> {
    db::events::get(&state.db.pool, id).await?.ok_or_else(|| AppError::not_found("event"))
}

fn fresh_seed() -> i64 {
    // The low 63 bits of a random UUID: any seed is as good as another.
    (uuid::Uuid::new_v4().as_u64_pair().0 >> 1) as i64
}

/// Split (or re-roll, or re-balance) the players in (the organiser).
#[utoipa::path(request_body = SidesInput, responses((status = 200, body = Sides), (status = 403, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope)),
    tag = "events", security(("bearerAuth" = [])))]
#[post("/events/{id}/sides")]
pub(super) async fn change_sides(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    body: web::Json<SidesInput>,
) -> AppResult<web::Json<Sides>> {
    permissions::check(&state.db, Some(&me.id), Action::OrganiseEvent { event_id: &id }).await?;
    let event = event(&state, &id).await?;
    if event.cancelled_at.is_some() {
        return Err(AppError::conflict_code("event_cancelled", "the event is cancelled"));
    }
    let rows: Vec<SidePlayerRow> =
        db::sides::players(&state.db.pool, &id).await?.into_iter().filter(|r| r.attending == 1).collect();
    if rows.len() < 2 {
        return Err(AppError::conflict_code("not_enough_players", "at least two players must be in to make teams"));
    }
    let problem = problem(&state, &event, &rows).await?;
    let current: Vec<Option<Side>> = rows.iter().map(side_of).collect();
    let seed = fresh_seed();
    let split = match body.action {
        SidesAction::Make => sides::make(&problem, seed as u64, None),
        SidesAction::Reroll => {
            let whole: Option<Vec<Side>> = current.iter().copied().collect();
            sides::make(&problem, seed as u64, whole.as_deref())
        }
        SidesAction::Rebalance if current.iter().any(Option::is_some) => {
            sides::rebalance(&problem, &current, seed as u64)
        }
        SidesAction::Rebalance => sides::make(&problem, seed as u64, None),
    };
    let placed: Vec<(String, &'static str)> =
        rows.iter().zip(&split.sides).map(|(r, s)| (r.user_id.clone(), side_name(*s))).collect();
    let moved: Vec<(String, &'static str)> = rows
        .iter()
        .zip(&split.sides)
        .filter(|(r, s)| side_of(r) != Some(**s))
        .map(|(r, s)| (r.user_id.clone(), side_name(*s)))
        .collect();
    let mut tx = state.db.begin().await?;
    db::sides::replace(&mut tx, &id, &placed, seed).await?;
    let batch = crate::notify::sides_set(&mut tx, &id, &moved, &me.id).await?;
    tx.commit().await?;
    published(&state, &me, &id, batch).await;
    Ok(web::Json(document(&state, &id).await?))
}

/// The split's input: each player's role and level, and who played on the
/// same side in the series' last four weeks.
async fn problem(state: &AppState, event: &EventRow, rows: &[SidePlayerRow]) -> AppResult<Problem> {
    let players = rows.iter().map(player_of).collect();
    let mut together = Vec::new();
    if let Some(series_id) = &event.series_id {
        let index = |id: &str| rows.iter().position(|r| r.user_id == id);
        for (a, b, weeks) in db::sides::recent_teammates(&state.db.pool, series_id, event.start_date).await? {
            if let (Some(i), Some(j)) = (index(&a), index(&b)) {
                together.push((i.min(j), i.max(j), u32::try_from(weeks).unwrap_or(u32::MAX)));
            }
        }
    }
    Ok(Problem { players, together })
}

/// Two players exchange sides, or one moves across.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SwapInput {
    /// One id (move that player to the other side; a newcomer goes to the
    /// smaller side) or two on different sides (they exchange).
    pub user_ids: Vec<String>,
    /// With one id: the side to put that player on (a newcomer where the
    /// organiser points); absent, across or the smaller side.
    pub side: Option<SideChoice>,
}

/// A side, as the organiser names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum SideChoice {
    Dark,
    Light,
}

impl From<SideChoice> for Side {
    fn from(side: SideChoice) -> Self {
        match side {
            SideChoice::Dark => Side::Dark,
            SideChoice::Light => Side::Light,
        }
    }
}

/// Swap two players, or move one across (the organiser).
#[utoipa::path(request_body = SwapInput, responses((status = 200, body = Sides), (status = 403, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)),
    tag = "events", security(("bearerAuth" = [])))]
#[post("/events/{id}/sides/swap")]
pub(super) async fn swap_sides(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    body: web::Json<SwapInput>,
) -> AppResult<web::Json<Sides>> {
    permissions::check(&state.db, Some(&me.id), Action::OrganiseEvent { event_id: &id }).await?;
    event(&state, &id).await?;
    if db::sides::side_set(&state.db.pool, &id).await?.is_none() {
        return Err(AppError::conflict_code("no_sides", "make the teams first"));
    }
    let rows = db::sides::players(&state.db.pool, &id).await?;
    let find = |user_id: &str| rows.iter().find(|r| r.user_id == user_id);
    let moved: Vec<(String, &'static str)> = match body.user_ids.as_slice() {
        [_, _] if body.side.is_some() => {
            return Err(AppError::field("side", "a side goes with one player; two players swap sides"));
        }
        [a] => {
            let row = find(a).ok_or_else(|| AppError::field("userIds", "that person is not in and on no side"))?;
            let to = match (body.side, side_of(row)) {
                (Some(asked), Some(now)) if Side::from(asked) == now => {
                    return Ok(web::Json(document(&state, &id).await?));
                }
                (Some(asked), _) => Side::from(asked),
                (None, Some(side)) => side.other(),
                (None, None) => {
                    let count = |side: &str| {
                        rows.iter().filter(|r| r.attending == 1 && r.side.as_deref() == Some(side)).count()
                    };
                    if count("LIGHT") < count("DARK") { Side::Light } else { Side::Dark }
                }
            };
            vec![(a.clone(), side_name(to))]
        }
        [a, b] if a != b => {
            let (ra, rb) = (find(a), find(b));
            match (ra.and_then(side_of), rb.and_then(side_of)) {
                (Some(sa), Some(sb)) if sa != sb => vec![(a.clone(), side_name(sb)), (b.clone(), side_name(sa))],
                (Some(_), Some(_)) => return Err(AppError::field("userIds", "the two players are on the same side")),
                _ => return Err(AppError::field("userIds", "both players must be on a side to swap")),
            }
        }
        _ => return Err(AppError::field("userIds", "give one player to move across, or two to swap")),
    };
    let mut tx = state.db.begin().await?;
    db::sides::set(&mut tx, &id, &moved).await?;
    let batch = crate::notify::sides_set(&mut tx, &id, &moved, &me.id).await?;
    tx.commit().await?;
    published(&state, &me, &id, batch).await;
    Ok(web::Json(document(&state, &id).await?))
}

/// Pushes the new notifications and the event's new version (pages re-read).
async fn published(state: &AppState, me: &AuthUser, event_id: &str, batch: Option<String>) {
    state.realtime.push_notification_batches([batch]);
    if let Err(e) = crate::commands::event::touch(state, &me.id, event_id).await {
        tracing::warn!(event_id, error = %e.message(), "the sides are saved; pushing them live failed");
    }
}
