//! The demo's client of the API: signed-in sessions (dev tokens) and
//! JSON requests that fail loudly.

use super::*;

/// A signed-in dev user.
pub(super) struct Session {
    token: String,
    pub(super) user_id: String,
}

/// The public API at the server's own address.
pub(super) struct Api {
    http: reqwest::Client,
    base: String,
}

impl Api {
    pub(super) fn new(base: &str) -> Result<Self> {
        let http = reqwest::Client::builder().timeout(Duration::from_secs(30)).build().context("http client")?;
        Ok(Api { http, base: base.trim_end_matches('/').to_owned() })
    }

    pub(super) async fn send(&self, req: reqwest::RequestBuilder, what: &str) -> Result<Value> {
        let resp = req.send().await.with_context(|| what.to_owned())?;
        let status = resp.status();
        let body: Value = resp.json().await.unwrap_or(Value::Null);
        if !status.is_success() {
            bail!("{what} answered {status}: {}", body["error"]["message"]);
        }
        Ok(body)
    }

    /// Signs in (creating on first use) a dev user with this handle, with a
    /// name and finished onboarding, so whoever signs in as them lands on
    /// the product, not on the welcome steps.
    pub(super) async fn sign_in(&self, username: &str) -> Result<Session> {
        let (first, last) = demo_name(username);
        let body =
            json!({"clerkId": format!("dev_{username}"), "username": username, "firstName": first, "lastName": last});
        let req = self.http.post(format!("{}/api/v1/dev/token", self.base)).json(&body);
        let r = self.send(req, "dev sign-in").await?;
        let (Some(token), Some(user_id)) = (r["token"].as_str(), r["user"]["id"].as_str()) else {
            bail!("dev sign-in answered without a token (is AUTH_MODE=dev?)")
        };
        let me = Session { token: token.to_owned(), user_id: user_id.to_owned() };
        if r["user"]["onboardingComplete"] != json!(true) {
            let kind = if username == RINK_OWNER { "FACILITY_MANAGER" } else { "PLAYER" };
            self.post(&me, "/api/v1/me/legal", json!({"legalVersion": crate::api::me::LEGAL_VERSION})).await?;
            let req = self.http.patch(format!("{}/api/v1/me", self.base)).bearer_auth(&me.token);
            self.send(req.json(&json!({"profileTypes": [kind], "onboardingComplete": true})), "PATCH /api/v1/me")
                .await?;
        }
        Ok(me)
    }

    pub(super) async fn get(&self, path: &str) -> Result<Value> {
        self.send(self.http.get(format!("{}{path}", self.base)), &format!("GET {path}")).await
    }

    pub(super) async fn post(&self, who: &Session, path: &str, body: Value) -> Result<Value> {
        let req = self.http.post(format!("{}{path}", self.base)).bearer_auth(&who.token).json(&body);
        self.send(req, &format!("POST {path}")).await
    }

    pub(super) async fn put(&self, who: &Session, path: &str, body: Value) -> Result<Value> {
        let req = self.http.put(format!("{}{path}", self.base)).bearer_auth(&who.token).json(&body);
        self.send(req, &format!("PUT {path}")).await
    }

    /// A POST that creates something: its id.
    pub(super) async fn create(&self, who: &Session, path: &str, body: Value) -> Result<String> {
        let created = self.post(who, path, body).await?;
        created["id"].as_str().map(str::to_owned).with_context(|| format!("POST {path} answered without an id"))
    }
}
