//! Team chat over HTTP (docs/chat.md): my conversations, one with its
//! latest messages, older pages, and posting, editing and deleting a
//! message, my read mark and mute. A write commits before it answers;
//! its pushes follow (`crate::chat::changed`).

use crate::api::idempotency_header;
use crate::auth::AuthUser;
use crate::chat::{self, Conversation, MAX_BODY_CHARS, Message};
use crate::db::chat as rows;
use crate::domain::text::PlainText;
use crate::error::{AppError, AppResult};
use crate::http::limits::KeyedBuckets;
use actix_web::{HttpRequest, HttpResponse, delete, get, patch, post, put, web};
use serde::{Deserialize, Serialize};
use std::sync::LazyLock;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::state::AppState;

/// A flood is cut at 20 messages per person per 10 seconds: a burst of 20,
/// then 2 a second.
static FLOOD: LazyLock<Option<KeyedBuckets<String>>> = LazyLock::new(|| KeyedBuckets::new(2.0, 20));

pub fn config(cfg: &mut ServiceConfig) {
    cfg.service(list)
        .service(get_one)
        .service(older)
        .service(send)
        .service(edit)
        .service(remove)
        .service(read)
        .service(mute);
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Conversations {
    pub items: Vec<Conversation>,
    /// Unread messages over the conversations not muted.
    pub unread: i64,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConversationPage {
    #[serde(flatten)]
    pub conversation: Conversation,
    /// The latest messages, oldest first.
    pub messages: Vec<Message>,
    /// My read mark.
    pub read_seq: i64,
    /// The `chat:` topic's seq now.
    pub version: i64,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MessagesPage {
    /// Oldest first.
    pub items: Vec<Message>,
    /// Pass as `before` for the page before this one; null at the start.
    pub next_before: Option<i64>,
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct PageQuery {
    /// Messages before this place (absent: the newest).
    #[param(minimum = 1)]
    pub before: Option<i64>,
    /// 1–100 (default 50).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BodyInput {
    /// 1–2,000 characters after trimming; plain text.
    #[schema(schema_with = crate::domain::text::schema::text::<MAX_BODY_CHARS>)]
    pub body: String,
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadInput {
    #[serde(deserialize_with = "crate::domain::whole::whole")]
    #[schema(value_type = i64, minimum = 0)]
    pub seq: i64,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReadMark {
    pub read_seq: i64,
    pub unread: i64,
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MuteInput {
    pub muted: bool,
}

fn body_of(input: &BodyInput) -> AppResult<String> {
    PlainText::<MAX_BODY_CHARS>::parse(&input.body)
        .map(String::from)
        .map_err(|message| AppError::field("body", message))
}

async fn message_of(state: &AppState, conversation_id: &str, id: &str) -> AppResult<rows::MessageRow> {
    rows::message(&state.db.pool, id)
        .await?
        .filter(|m| m.conversation_id == conversation_id)
        .ok_or_else(|| AppError::not_found("message"))
}

/// My conversations: my rosters' and the events I am in, waitlisted for or
/// organise, newest message first.
#[utoipa::path(responses((status = 200, body = Conversations), (status = 401, body = crate::error::ErrorEnvelope)),
    tag = "chat", security(("bearerAuth" = [])))]
#[get("/chats")]
async fn list(state: web::Data<AppState>, me: AuthUser) -> AppResult<web::Json<Conversations>> {
    let items = chat::list(&state.db, &me.id, (state.clock)()).await?;
    let unread = items.iter().filter(|c| !c.muted).map(|c| c.unread).sum();
    Ok(web::Json(Conversations { items, unread }))
}

/// One conversation with its latest messages.
#[utoipa::path(responses((status = 200, body = ConversationPage), (status = 401, body = crate::error::ErrorEnvelope), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope)),
    tag = "chat", security(("bearerAuth" = [])))]
#[get("/chats/{id}")]
async fn get_one(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
) -> AppResult<web::Json<ConversationPage>> {
    let access = chat::access(&state.db, &me.id, &id).await?;
    let version = rows::version(&state.db.pool, &id).await?;
    let row = chat::row_of(&state.db, &access.subject).await?;
    let conversation = chat::conversation(&state.db, &me.id, row, access.moderator).await?;
    let messages = rows::page(&state.db.pool, &id, None, chat::PAGE).await?.into_iter().map(Message::from).collect();
    let read_seq = rows::mark(&state.db.pool, &id, &me.id).await?.read_seq;
    Ok(web::Json(ConversationPage { conversation, messages, read_seq, version }))
}

/// The page of messages before a place; walking `nextBefore` lists every
/// message once.
#[utoipa::path(params(PageQuery), responses((status = 200, body = MessagesPage), (status = 401, body = crate::error::ErrorEnvelope), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)),
    tag = "chat", security(("bearerAuth" = [])))]
#[get("/chats/{id}/messages")]
async fn older(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    query: web::Query<PageQuery>,
) -> AppResult<web::Json<MessagesPage>> {
    let limit = query.limit.unwrap_or(chat::PAGE);
    if !(1..=100).contains(&limit) {
        return Err(AppError::field("limit", "1–100"));
    }
    if query.before.is_some_and(|b| b < 1) {
        return Err(AppError::field("before", "a message's place, 1 or more"));
    }
    chat::access(&state.db, &me.id, &id).await?;
    let items: Vec<Message> =
        rows::page(&state.db.pool, &id, query.before, limit).await?.into_iter().map(Message::from).collect();
    let next_before = items.first().map(|m| m.seq).filter(|seq| *seq > 1);
    Ok(web::Json(MessagesPage { items, next_before }))
}

/// Post a message. With an `Idempotency-Key`, a repeat answers 200 with
/// the message already posted.
#[utoipa::path(request_body = BodyInput, params(("Idempotency-Key" = Option<String>, Header, description = "one per message: a retry posts nothing new")),
    responses((status = 201, body = Message), (status = 200, body = Message, description = "a repeat of a message already posted"), (status = 401, body = crate::error::ErrorEnvelope), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope), (status = 429, body = crate::error::ErrorEnvelope)),
    tag = "chat", security(("bearerAuth" = [])))]
#[post("/chats/{id}/messages")]
async fn send(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    req: HttpRequest,
    body: web::Json<BodyInput>,
) -> AppResult<HttpResponse> {
    let key = idempotency_header(&req)?;
    let text = body_of(&body)?;
    let access = chat::access(&state.db, &me.id, &id).await?;
    let repeat = |m: rows::MessageRow| -> AppResult<HttpResponse> {
        if m.conversation_id != *id || m.body.as_deref().is_some_and(|b| b != text) {
            return Err(AppError::KeyReused("this Idempotency-Key was used for another message".into()));
        }
        Ok(HttpResponse::Ok().json(Message::from(m)))
    };
    if let Some(k) = key.as_deref() {
        let mut conn = state.db.pool.acquire().await?;
        if let Some(m) = rows::by_key(&mut conn, &me.id, k).await? {
            return repeat(m);
        }
    }
    if let Some(Err(wait)) = FLOOD.as_ref().map(|f| f.check(&me.id)) {
        return Err(AppError::RateLimited(format!(
            "too many messages; wait {} s",
            wait.as_secs() + u64::from(wait.subsec_nanos() > 0)
        )));
    }
    let now = (state.clock)();
    let mut tx = state.db.begin().await?;
    let posted = match rows::post(&mut tx, &id, &me.id, &text, key.as_deref(), now).await {
        Ok(posted) => posted,
        // The same key raced in from another request: that one is the message.
        Err(e) if key.is_some() && crate::db::is_unique_violation(&e) => {
            drop(tx);
            let mut conn = state.db.pool.acquire().await?;
            let m = rows::by_key(&mut conn, &me.id, key.as_deref().unwrap_or_default()).await?;
            return m.map_or_else(|| Err(AppError::internal(e)), repeat);
        }
        Err(e) => return Err(e.into()),
    };
    tx.commit().await?;
    let (message_id, _, version) = posted;
    let message = Message::from(message_of(&state, &id, &message_id).await?);
    chat::changed(&state.db, &state.realtime.pusher, access.subject, version, message.clone());
    Ok(HttpResponse::Created().json(message))
}

/// Edit my message.
#[utoipa::path(request_body = BodyInput, responses((status = 200, body = Message), (status = 401, body = crate::error::ErrorEnvelope), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope), (status = 409, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)),
    tag = "chat", security(("bearerAuth" = [])))]
#[patch("/chats/{id}/messages/{message_id}")]
async fn edit(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<(String, String)>,
    body: web::Json<BodyInput>,
) -> AppResult<web::Json<Message>> {
    let (id, message_id) = path.into_inner();
    let text = body_of(&body)?;
    let access = chat::access(&state.db, &me.id, &id).await?;
    let m = message_of(&state, &id, &message_id).await?;
    if m.author_id.as_deref() != Some(me.id.as_str()) {
        return Err(AppError::forbidden("only its author may edit a message"));
    }
    if m.deleted_at.is_some() {
        return Err(AppError::conflict("this message was deleted"));
    }
    let mut tx = state.db.begin().await?;
    let version = rows::edit(&mut tx, &id, &message_id, &text, (state.clock)()).await?;
    tx.commit().await?;
    let message = Message::from(message_of(&state, &id, &message_id).await?);
    chat::changed(&state.db, &state.realtime.pusher, access.subject, version, message.clone());
    Ok(web::Json(message))
}

/// Delete a message: its author, or a moderator (the team's staff and the
/// captain; the event's organisers).
#[utoipa::path(responses((status = 204), (status = 401, body = crate::error::ErrorEnvelope), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope)),
    tag = "chat", security(("bearerAuth" = [])))]
#[delete("/chats/{id}/messages/{message_id}")]
async fn remove(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<(String, String)>,
) -> AppResult<HttpResponse> {
    let (id, message_id) = path.into_inner();
    let access = chat::access(&state.db, &me.id, &id).await?;
    let m = message_of(&state, &id, &message_id).await?;
    if m.author_id.as_deref() != Some(me.id.as_str()) && !access.moderator {
        return Err(AppError::forbidden("only its author and the chat's moderators may delete a message"));
    }
    if m.deleted_at.is_some() {
        return Ok(HttpResponse::NoContent().finish());
    }
    let mut tx = state.db.begin().await?;
    let version = rows::delete(&mut tx, &id, &message_id, &me.id, (state.clock)()).await?;
    tx.commit().await?;
    let message = Message::from(message_of(&state, &id, &message_id).await?);
    chat::changed(&state.db, &state.realtime.pusher, access.subject, version, message);
    Ok(HttpResponse::NoContent().finish())
}

/// Move my read mark forward (never back).
#[utoipa::path(request_body = ReadInput, responses((status = 200, body = ReadMark), (status = 401, body = crate::error::ErrorEnvelope), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)),
    tag = "chat", security(("bearerAuth" = [])))]
#[put("/chats/{id}/read")]
async fn read(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    body: web::Json<ReadInput>,
) -> AppResult<web::Json<ReadMark>> {
    if body.seq < 0 {
        return Err(AppError::field("seq", "a message's place, 0 or more"));
    }
    chat::access(&state.db, &me.id, &id).await?;
    let mut conn = state.db.pool.acquire().await?;
    rows::read_up_to(&mut conn, &id, &me.id, body.seq).await?;
    drop(conn);
    let read_seq = rows::mark(&state.db.pool, &id, &me.id).await?.read_seq;
    let unread = rows::unread(&state.db.pool, &id, &me.id).await?;
    chat::push_counts(&state.db, &state.realtime.pusher, &id, std::slice::from_ref(&me.id)).await?;
    Ok(web::Json(ReadMark { read_seq, unread }))
}

/// Mute or unmute a conversation (no notifications, not in the total).
#[utoipa::path(request_body = MuteInput, responses((status = 200, body = Conversation), (status = 401, body = crate::error::ErrorEnvelope), (status = 403, body = crate::error::ErrorEnvelope), (status = 404, body = crate::error::ErrorEnvelope), (status = 422, body = crate::error::ErrorEnvelope)),
    tag = "chat", security(("bearerAuth" = [])))]
#[put("/chats/{id}/mute")]
async fn mute(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    body: web::Json<MuteInput>,
) -> AppResult<web::Json<Conversation>> {
    let access = chat::access(&state.db, &me.id, &id).await?;
    let mut conn = state.db.pool.acquire().await?;
    rows::set_muted(&mut conn, &id, &me.id, body.muted).await?;
    drop(conn);
    let row = chat::row_of(&state.db, &access.subject).await?;
    Ok(web::Json(chat::conversation(&state.db, &me.id, row, access.moderator).await?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_is_plain_text_of_at_most_two_thousand_characters() {
        let ok = BodyInput { body: "  Ice at 9, bring both jerseys\n".into() };
        assert_eq!(body_of(&ok).unwrap(), "Ice at 9, bring both jerseys");
        for bad in ["", "   ", "bell\u{7}"] {
            assert_eq!(body_of(&BodyInput { body: bad.into() }).unwrap_err().code(), "validation_failed", "{bad:?}");
        }
        let long = "x".repeat(MAX_BODY_CHARS + 1);
        assert!(body_of(&BodyInput { body: long }).is_err());
    }
}
