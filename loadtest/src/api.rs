//! The slice of the Rinkside REST API the scenarios drive (CONTRACT.md):
//! dev sign-in, events and RSVP, and the facility → season → team → roster →
//! game chain a scoreboard needs. Only the fields we read are typed.

use std::time::Duration;

use anyhow::{Context, Result, bail};
use chrono::{SecondsFormat, Utc};
use futures_util::{StreamExt, TryStreamExt, stream};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// Per-request limit; setup calls on a loaded server can be slow, but a
/// minute means something is wrong.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);

/// How long an idle pooled connection is kept; see [`Api::new`].
const POOL_IDLE_TIMEOUT: Duration = Duration::from_secs(3);

/// Retries of a failed setup call before giving up.
const SETUP_RETRIES: u32 = 5;

/// A REST client for one node.
#[derive(Debug, Clone)]
pub struct Api {
    http: reqwest::Client,
    /// Base URL without trailing slash.
    base: String,
}

/// A signed-in dev user.
#[derive(Debug, Clone)]
pub struct Session {
    pub token: String,
    pub user_id: String,
}

#[derive(Debug, Deserialize)]
struct DevTokenResponse {
    token: String,
    user: IdOnly,
}

#[derive(Debug, Deserialize)]
struct IdOnly {
    id: String,
}

/// `PUT /events/{id}/rsvp` answer (also the `data` of an rsvp command reply).
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct RsvpReply {
    pub status: String,
    pub waitlist_rank: Option<u32>,
    pub version: Option<u64>,
}

/// `GET /events/{id}/attendees`.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Attendees {
    pub version: u64,
    pub attending: Vec<Attending>,
    pub waitlist: Vec<Waiting>,
}

#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Attending {
    pub user_id: String,
    pub position: String,
}

#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Waiting {
    pub user_id: String,
    pub position: String,
    pub rank: u32,
    /// One of the event's regulars (docs/pickup-night.md); absent from
    /// servers before issue 31.
    #[serde(default)]
    pub regular: Option<bool>,
}

/// The game state (`POST /games/{id}/actions` answer).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GameState {
    pub version: u64,
    pub home_score: u32,
    pub away_score: u32,
    pub status: String,
}

/// An RFC 3339 UTC time `days` from now.
pub fn days_from_now(days: i64) -> String {
    (Utc::now() + chrono::Duration::days(days)).to_rfc3339_opts(SecondsFormat::Secs, true)
}

impl Api {
    pub fn new(base: &str) -> Result<Self> {
        let http = reqwest::Client::builder()
            .timeout(REQUEST_TIMEOUT)
            // Scenarios run bursts of concurrent setup calls; keep those
            // connections for the next burst rather than re-handshaking.
            .pool_max_idle_per_host(64)
            // Below the server's keep-alive (actix-web: 5 s), so a request
            // never goes out on a connection the server is just closing
            // ("connection closed before message completed": a goal every
            // 5 s met exactly that).
            .pool_idle_timeout(POOL_IDLE_TIMEOUT)
            .build()
            .context("http client")?;
        Ok(Self { http, base: base.trim_end_matches('/').to_owned() })
    }

    async fn send<T: DeserializeOwned>(
        &self,
        method: reqwest::Method,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> Result<T> {
        let url = format!("{}{path}", self.base);
        let mut req = self.http.request(method.clone(), &url);
        if let Some(token) = token {
            req = req.bearer_auth(token);
        }
        if let Some(body) = body {
            req = req.json(body);
        }
        let resp = req.send().await.with_context(|| format!("{method} {url}"))?;
        let status = resp.status();
        let text = resp.text().await.with_context(|| format!("{method} {url}: reading body"))?;
        if !status.is_success() {
            bail!("{method} {url} answered {status}: {}", truncate(&text, 400));
        }
        serde_json::from_str(&text).with_context(|| format!("{method} {url}: unexpected body {}", truncate(&text, 400)))
    }

    async fn post<T: DeserializeOwned>(&self, path: &str, token: &str, body: Value) -> Result<T> {
        self.send(reqwest::Method::POST, path, Some(token), Some(&body)).await
    }

    async fn create(&self, path: &str, token: &str, body: Value) -> Result<String> {
        let created: IdOnly = self.post(path, token, body).await?;
        Ok(created.id)
    }

    /// `POST /api/v1/dev/token`: signs in (and creates) a dev user.
    pub async fn dev_token(&self, username: &str) -> Result<Session> {
        let body = json!({ "clerkId": format!("dev_{username}"), "username": username });
        let r: DevTokenResponse = self.send(reqwest::Method::POST, "/api/v1/dev/token", None, Some(&body)).await?;
        Ok(Session { token: r.token, user_id: r.user.id })
    }

    /// [`Api::dev_token`], retried a few times with backoff: sign-in is setup,
    /// not what is measured, and a burst of them can trip transient server
    /// errors. Returns the session and how many retries it took; the caller
    /// reports the retries so they are not hidden.
    pub async fn dev_token_retrying(&self, username: &str) -> Result<(Session, u32)> {
        let mut retries = 0;
        loop {
            match self.dev_token(username).await {
                Ok(s) => return Ok((s, retries)),
                Err(e) if retries < SETUP_RETRIES => {
                    retries += 1;
                    tracing::warn!("sign-in of {username} failed, retrying: {e:#}");
                    tokio::time::sleep(Duration::from_millis(100 * u64::from(retries))).await;
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// `n` dev users signed in ([`Api::dev_token_retrying`]), `concurrency`
    /// at a time, user `i` named `name(i)` on `apis[i % len]`, in order;
    /// each with the retries it took.
    pub async fn sign_in_all(
        apis: &[Api],
        n: usize,
        concurrency: usize,
        name: impl Fn(usize) -> String,
    ) -> Result<Vec<(Session, u32)>> {
        stream::iter(0..n)
            .map(|i| {
                let api = apis[i % apis.len()].clone();
                let name = name(i);
                async move { api.dev_token_retrying(&name).await }
            })
            .buffered(concurrency)
            .try_collect()
            .await
    }

    /// [`Api::sign_in_all`] on this node, without the retries.
    pub async fn sign_in_many(
        &self,
        n: usize,
        concurrency: usize,
        name: impl Fn(usize) -> String,
    ) -> Result<Vec<Session>> {
        let signed_in = Self::sign_in_all(std::slice::from_ref(self), n, concurrency, name).await?;
        Ok(signed_in.into_iter().map(|(s, _)| s).collect())
    }

    /// `PUT /users/{id}/follow`.
    pub async fn follow_user(&self, token: &str, user_id: &str) -> Result<()> {
        let url = format!("{}/api/v1/users/{user_id}/follow", self.base);
        let resp = self.http.put(&url).bearer_auth(token).send().await.with_context(|| format!("PUT {url}"))?;
        if !resp.status().is_success() {
            bail!("PUT {url} answered {}", resp.status());
        }
        Ok(())
    }

    /// `POST /posts`; the new post's id.
    pub async fn create_post(&self, token: &str, content: &str) -> Result<String> {
        self.create("/api/v1/posts", token, json!({ "content": content })).await
    }

    /// `GET /feed?limit=N`: the first page's items.
    pub async fn feed(&self, token: &str, limit: u32) -> Result<Vec<Value>> {
        let page: Value =
            self.send(reqwest::Method::GET, &format!("/api/v1/feed?limit={limit}"), Some(token), None).await?;
        Ok(page["items"].as_array().cloned().unwrap_or_default())
    }

    pub async fn create_event(
        &self,
        token: &str,
        title: &str,
        max_skaters: Option<u32>,
        max_goalies: Option<u32>,
    ) -> Result<String> {
        let body = json!({
            "title": title,
            "startDate": days_from_now(7),
            "eventType": "OTHER",
            "maxSkaters": max_skaters,
            "maxGoalies": max_goalies,
        });
        self.create("/api/v1/events", token, body).await
    }

    /// Like [`Api::create_event`], as the first week of a weekly series of
    /// two (7 and 14 days ahead, UTC): the event's id and the series' id.
    pub async fn create_weekly_event(
        &self,
        token: &str,
        title: &str,
        max_skaters: Option<u32>,
        max_goalies: Option<u32>,
    ) -> Result<(String, String)> {
        let start = Utc::now() + chrono::Duration::days(7);
        let until = (start + chrono::Duration::days(7)).date_naive();
        let body = json!({
            "title": title,
            "startDate": start.to_rfc3339_opts(SecondsFormat::Secs, true),
            "eventType": "OTHER",
            "maxSkaters": max_skaters,
            "maxGoalies": max_goalies,
            "repeat": { "frequency": "WEEKLY", "until": until.format("%Y-%m-%d").to_string() },
        });
        let event: Value = self.post("/api/v1/events", token, body).await?;
        match (event["id"].as_str(), event["seriesId"].as_str()) {
            (Some(id), Some(series)) => Ok((id.to_owned(), series.to_owned())),
            _ => bail!("POST /api/v1/events with repeat answered no id or seriesId: {event}"),
        }
    }

    pub async fn rsvp(&self, token: &str, event_id: &str, action: &str, position: Option<&str>) -> Result<RsvpReply> {
        let mut body = json!({ "action": action });
        if let Some(p) = position {
            body["position"] = json!(p);
        }
        self.send(reqwest::Method::PUT, &format!("/api/v1/events/{event_id}/rsvp"), Some(token), Some(&body)).await
    }

    pub async fn attendees(&self, token: &str, event_id: &str) -> Result<Attendees> {
        self.send(reqwest::Method::GET, &format!("/api/v1/events/{event_id}/attendees"), Some(token), None).await
    }

    /// `POST /chats/{id}/messages` with an `Idempotency-Key`: the message.
    pub async fn post_message(&self, token: &str, conversation: &str, body: &str, key: &str) -> Result<Value> {
        let url = format!("{}/api/v1/chats/{conversation}/messages", self.base);
        let resp = self
            .http
            .post(&url)
            .bearer_auth(token)
            .header("Idempotency-Key", key)
            .json(&json!({ "body": body }))
            .send()
            .await
            .with_context(|| format!("POST {url}"))?;
        let status = resp.status();
        let text = resp.text().await.with_context(|| format!("POST {url}: reading body"))?;
        if !status.is_success() {
            bail!("POST {url} answered {status}: {}", truncate(&text, 400));
        }
        serde_json::from_str(&text).with_context(|| format!("POST {url}: unexpected body {}", truncate(&text, 400)))
    }

    /// Any POST as JSON, with a token: the answer's body.
    pub async fn post_value(&self, path: &str, token: &str, body: Value) -> Result<Value> {
        self.post(path, token, body).await
    }

    /// Any PATCH as JSON, with a token.
    pub async fn patch_value(&self, path: &str, token: &str, body: Value) -> Result<Value> {
        self.send(reqwest::Method::PATCH, path, Some(token), Some(&body)).await
    }

    /// Any PUT, with a token and an optional JSON body.
    pub async fn put_value(&self, path: &str, token: &str, body: Option<Value>) -> Result<Value> {
        self.send(reqwest::Method::PUT, path, Some(token), body.as_ref()).await
    }

    /// Any GET as JSON, with a token.
    pub async fn get_value(&self, path: &str, token: &str) -> Result<Value> {
        self.send(reqwest::Method::GET, path, Some(token), None).await
    }

    pub async fn create_facility(&self, token: &str, name: &str) -> Result<String> {
        let body = json!({ "name": name, "timezone": "America/Toronto" });
        self.create("/api/v1/facilities", token, body).await
    }

    pub async fn create_season(&self, token: &str, facility_id: &str, name: &str) -> Result<String> {
        let body = json!({
            "name": name,
            "startDate": days_from_now(-30),
            "endDate": days_from_now(150),
            "isActive": true,
        });
        self.create(&format!("/api/v1/facilities/{facility_id}/seasons"), token, body).await
    }

    pub async fn create_team(&self, token: &str, name: &str, facility_id: &str) -> Result<String> {
        let body = json!({ "name": name, "facilityId": facility_id });
        self.create("/api/v1/teams", token, body).await
    }

    pub async fn create_roster(&self, token: &str, team_id: &str, season_id: &str, name: &str) -> Result<String> {
        let body = json!({
            "teamId": team_id,
            "seasonId": season_id,
            "name": name,
            "status": "ACTIVE",
        });
        self.create("/api/v1/rosters", token, body).await
    }

    pub async fn add_player(&self, token: &str, roster_id: &str, user_id: &str, jersey: u32) -> Result<()> {
        let body = json!({ "userId": user_id, "jerseyNumber": jersey });
        let _: Value = self.post(&format!("/api/v1/rosters/{roster_id}/players"), token, body).await?;
        Ok(())
    }

    pub async fn create_game(
        &self,
        token: &str,
        home_roster_id: &str,
        away_roster_id: &str,
        season_id: &str,
    ) -> Result<String> {
        let body = json!({
            "homeRosterId": home_roster_id,
            "awayRosterId": away_roster_id,
            "seasonId": season_id,
            "scheduledAt": days_from_now(0),
        });
        self.create("/api/v1/games", token, body).await
    }

    /// `GET /api/v1/games/{id}` (public: no token).
    pub async fn game_state(&self, game_id: &str) -> Result<GameState> {
        self.send(reqwest::Method::GET, &format!("/api/v1/games/{game_id}"), None, None).await
    }

    pub async fn game_action(&self, token: &str, game_id: &str, action: Value) -> Result<GameState> {
        self.post(&format!("/api/v1/games/{game_id}/actions"), token, action).await
    }
}

fn truncate(s: &str, max: usize) -> &str {
    match s.char_indices().nth(max) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

/// A per-run tag for user names, so runs against the same database do not
/// collide on unique usernames.
pub fn run_tag() -> String {
    let millis =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis()).unwrap_or_default();
    // Base 36 keeps names short and lowercase-alphanumeric.
    let mut n = millis;
    let mut out = Vec::new();
    while n > 0 {
        let d = (n % 36) as u8;
        out.push(if d < 10 { b'0' + d } else { b'a' + d - 10 });
        n /= 36;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attendees_parse_from_the_contract_shape() {
        let doc = r#"{"version":7,
            "attending":[{"userId":"u1","position":"CENTER","respondedAt":"2026-01-01T00:00:00Z","isPaid":false}],
            "waitlist":[{"userId":"u2","position":"GOALIE","rank":1,"addedAt":"2026-01-01T00:00:00Z"}],
            "counts":{"skaters":1,"goalies":0,"maxSkaters":1,"maxGoalies":0,"waitlistSkaters":0,"waitlistGoalies":1}}"#;
        let a: Attendees = serde_json::from_str(doc).unwrap();
        assert_eq!(a.version, 7);
        assert_eq!(a.attending[0].user_id, "u1");
        assert_eq!(a.waitlist[0].rank, 1);
    }

    #[test]
    fn rsvp_replies_parse_with_a_null_rank() {
        let r: RsvpReply = serde_json::from_str(r#"{"status":"ATTENDING","waitlistRank":null,"version":3}"#).unwrap();
        assert_eq!(r.waitlist_rank, None);
        assert_eq!(r.version, Some(3));
    }

    #[test]
    fn run_tags_are_short_lowercase_alphanumerics() {
        let t = run_tag();
        assert!(!t.is_empty() && t.len() <= 10, "{t}");
        assert!(t.chars().all(|c| c.is_ascii_digit() || c.is_ascii_lowercase()));
    }

    #[test]
    fn long_bodies_are_cut_on_a_char_boundary() {
        assert_eq!(truncate("héllo", 2), "hé");
        assert_eq!(truncate("hi", 10), "hi");
    }
}
