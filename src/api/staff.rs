//! Owners and managers of facilities and teams: the manager links and the
//! ownership transfer, behind the routes `api::orgs` shares between them
//! (which differ only in the table and the permission asked).

use crate::auth::AuthUser;
use crate::db::{self, orgs::Org};
use crate::error::{AppError, AppResult};
use crate::permissions::{self, Action, Object, Relation, Relations};
use crate::state::AppState;
use crate::summaries::UserSummary;
use serde::{Deserialize, Serialize};

/// What every facility and team page shows about who runs it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Staffing {
    /// Managers besides the owner, earliest first.
    pub managers: Vec<UserSummary>,
    /// OWNER, MANAGER, or null (signed out or neither).
    pub viewer_role: Option<StaffRole>,
}

/// Who runs a facility or team, and what the viewer is to it.
pub async fn staffing(state: &AppState, viewer: Option<&str>, org: Org, id: &str) -> AppResult<Staffing> {
    let object = match org {
        Org::Facility => Object::Facility(id),
        Org::Team => Object::Team(id),
    };
    let rel = permissions::relations(&state.db, viewer, object).await?;
    Ok(Staffing { managers: managers(state, org, id).await?, viewer_role: role(&rel, org) })
}

/// What the viewer is to a facility or team, for pages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum StaffRole {
    Owner,
    Manager,
}

/// `POST …/transfer-ownership`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TransferOwnership {
    /// The new owner.
    #[schema(schema_with = crate::domain::text::schema::id)]
    pub user_id: String,
}

/// The managers, as public summaries.
pub async fn managers(state: &AppState, org: Org, id: &str) -> AppResult<Vec<UserSummary>> {
    Ok(db::staff::managers(&state.db.pool, org, id).await?.into_iter().map(|m| UserSummary::from(m.user)).collect())
}

/// `PUT …/managers/{userId}`: idempotent; the owner already runs it.
pub async fn add_manager(state: &AppState, me: &AuthUser, org: Org, id: &str, user_id: &str) -> AppResult<()> {
    let action = match org {
        Org::Facility => Action::AddFacilityManager { facility_id: id },
        Org::Team => Action::AddTeamManager { team_id: id },
    };
    permissions::check(&state.db, Some(&me.id), action).await?;
    if !db::users::exists(&state.db.pool, user_id).await? {
        return Err(AppError::not_found("user"));
    }
    let owner = db::staff::owner_of(&state.db.pool, org, id).await?.ok_or_else(|| AppError::not_found(org.noun()))?;
    if owner == user_id {
        return Err(AppError::field("userId", format!("the owner already runs the {}", org.noun())));
    }
    db::staff::add_manager(&state.db.pool, org, id, user_id).await?;
    Ok(())
}

/// `DELETE …/managers/{userId}`: idempotent; the owner is not a manager
/// link and cannot be removed (ownership is transferred instead).
pub async fn remove_manager(state: &AppState, me: &AuthUser, org: Org, id: &str, user_id: &str) -> AppResult<()> {
    let action = match org {
        Org::Facility => Action::RemoveFacilityManager { facility_id: id, user_id },
        Org::Team => Action::RemoveTeamManager { team_id: id, user_id },
    };
    permissions::check(&state.db, Some(&me.id), action).await?;
    let owner = db::staff::owner_of(&state.db.pool, org, id).await?.ok_or_else(|| AppError::not_found(org.noun()))?;
    if owner == user_id {
        return Err(AppError::field("userId", "the owner cannot be removed; transfer ownership first"));
    }
    db::staff::remove_manager(&state.db.pool, org, id, user_id).await?;
    Ok(())
}

/// `POST …/transfer-ownership`: the owner hands over; they stay a manager.
pub async fn transfer(state: &AppState, me: &AuthUser, org: Org, id: &str, body: TransferOwnership) -> AppResult<()> {
    let action = match org {
        Org::Facility => Action::TransferFacility { facility_id: id },
        Org::Team => Action::TransferTeam { team_id: id },
    };
    permissions::check(&state.db, Some(&me.id), action).await?;
    let new_owner = body.user_id.trim();
    if new_owner == me.id {
        return Err(AppError::field("userId", format!("you already own the {}", org.noun())));
    }
    if !db::users::exists(&state.db.pool, new_owner).await? {
        return Err(AppError::field("userId", "no such user"));
    }
    let mut tx = state.db.begin().await?;
    if !db::staff::transfer(&mut tx, org, id, &me.id, new_owner).await? {
        return Err(AppError::conflict("the ownership changed meanwhile"));
    }
    tx.commit().await?;
    Ok(())
}

/// The viewer's role at a facility or team, from their relations to it.
pub fn role(rel: &Relations, org: Org) -> Option<StaffRole> {
    let (owner, manager) = match org {
        Org::Facility => (Relation::FacilityOwner, Relation::FacilityManager),
        Org::Team => (Relation::TeamOwner, Relation::TeamManager),
    };
    if rel.has(owner) {
        Some(StaffRole::Owner)
    } else if rel.has(manager) {
        Some(StaffRole::Manager)
    } else {
        None
    }
}
