//! Invites (docs/invites.md): a link puts a new person on the roster once;
//! approval, an event, maxMembers, revocation, expiry and the use limit
//! hold; only those who decide requests (or organise) invite; bad terms
//! are refused and change nothing.

use crate::games::league;
use crate::helpers::*;
use serde_json::{Value, json};

async fn invite(app: &TestApp, by: &TestUser, path: &str, body: Value) -> Value {
    let (s, i) = app.post(path, Some(by), body).await;
    assert_eq!(s, 201, "{i}");
    i
}

async fn accept(app: &TestApp, who: &TestUser, code: &str) -> (u16, Value) {
    app.post(&format!("/api/v1/invites/{code}/accept"), Some(who), json!({})).await
}

async fn on_roster(app: &TestApp, roster: &str, who: &TestUser) -> bool {
    let (_, r) = app.get(&format!("/api/v1/rosters/{roster}"), Some(who)).await;
    r["players"].as_array().unwrap().iter().any(|p| p["userId"] == who.id.as_str())
}

#[actix_web::test]
async fn a_link_puts_a_new_person_on_the_roster_once_and_the_rosters_limits_hold() {
    let app = spawn_app().await;
    let l = league(&app, 1).await;
    let roster = l.home.roster.as_str();
    let path = format!("/api/v1/rosters/{roster}/invites");
    let link = invite(&app, &l.home.coach, &path, json!({"maxUses": 3})).await;
    let code = link["code"].as_str().unwrap();
    assert_eq!(
        (link["kind"].as_str(), link["status"].as_str(), link["uses"].as_i64()),
        (Some("ROSTER"), Some("ACTIVE"), Some(0))
    );
    assert_eq!(link["path"], format!("/invite/{code}"));
    assert_eq!(code.len(), 12);

    // Anyone with the code sees what it is for, signed in or not.
    let (s, preview) = app.get(&format!("/api/v1/invites/{code}"), None).await;
    assert_eq!(s, 200, "{preview}");
    assert_eq!(
        (preview["title"].as_str(), preview["teamName"].as_str()),
        (Some("Owls (Winter 2026)"), Some("Owls Hockey Club"))
    );
    assert_eq!(preview["invitedBy"], "coach_owls");
    let (s, _) = app.get(&format!("/api/v1/invites/{}", code.to_lowercase()), None).await;
    assert_eq!(s, 200, "typed in lower case");

    let newbie = app.user("newbie").await;
    let (s, a) = accept(&app, &newbie, code).await;
    assert_eq!((s, a["result"].as_str(), a["rosterId"].as_str()), (200, Some("JOINED"), Some(roster)), "{a}");
    assert!(on_roster(&app, roster, &newbie).await);
    let (_, a) = accept(&app, &newbie, code).await;
    assert_eq!(a["result"], "ALREADY");
    let (_, list) = app.get(&path, Some(&l.home.coach)).await;
    assert_eq!(list[0]["uses"], 1, "one use however often one person opens it: {list}");

    // The roster's limit still holds, and a refused join gives the use back.
    let (s, b) = app.patch(&format!("/api/v1/rosters/{roster}"), Some(&l.home.coach), json!({"maxMembers": 2})).await;
    assert_eq!(s, 200, "{b}");
    let late = app.user("too_late").await;
    let (s, b) = accept(&app, &late, code).await;
    assert_eq!(s, 409, "{b}");
    assert!(!on_roster(&app, roster, &late).await);
    let (_, list) = app.get(&path, Some(&l.home.coach)).await;
    assert_eq!(list[0]["uses"], 1, "{list}");

    // Revoked: nobody more; the preview says so.
    let (s, _) = app.delete(&format!("/api/v1/invites/{code}"), Some(&l.home.coach)).await;
    assert_eq!(s, 204);
    let (s, b) =
        app.patch(&format!("/api/v1/rosters/{roster}"), Some(&l.home.coach), json!({"maxMembers": null})).await;
    assert_eq!(s, 200, "{b}");
    let (s, b) = accept(&app, &late, code).await;
    assert_error(s, &b, 409, "invite_closed");
    assert!(b["error"]["message"].as_str().unwrap().contains("revoked"), "{b}");
    assert_eq!(app.get(&format!("/api/v1/invites/{code}"), None).await.1["status"], "REVOKED");
}

#[actix_web::test]
async fn an_invite_runs_out_expires_or_asks_the_captain_and_only_the_captains_side_makes_one() {
    let (app, offset) = spawn_app_with_offset_clock().await;
    let l = league(&app, 1).await;
    let roster = l.home.roster.as_str();
    let path = format!("/api/v1/rosters/{roster}/invites");

    let once = invite(&app, &l.home.coach, &path, json!({"maxUses": 1})).await;
    let (a, b) = (app.user("first_one").await, app.user("second_one").await);
    assert_eq!(accept(&app, &a, once["code"].as_str().unwrap()).await.1["result"], "JOINED");
    let (s, r) = accept(&app, &b, once["code"].as_str().unwrap()).await;
    assert_error(s, &r, 409, "invite_closed");

    let ask = invite(&app, &l.home.coach, &path, json!({"requireApproval": true})).await;
    let (s, r) = accept(&app, &b, ask["code"].as_str().unwrap()).await;
    assert_eq!((s, r["result"].as_str()), (200, Some("REQUESTED")), "{r}");
    assert!(!on_roster(&app, roster, &b).await, "waits for the captain");
    let (_, requests) = app.get(&format!("/api/v1/rosters/{roster}/join-requests"), Some(&l.home.coach)).await;
    assert_eq!(requests["items"][0]["userId"], b.id.as_str(), "{requests}");

    let soon = invite(&app, &l.home.coach, &path, json!({"expiresInDays": 1})).await;
    offset.fetch_add(2 * 24 * 60 * 60 * 1000, std::sync::atomic::Ordering::SeqCst);
    let c = app.user("third_one").await;
    let (s, r) = accept(&app, &c, soon["code"].as_str().unwrap()).await;
    assert_error(s, &r, 409, "invite_closed");
    assert!(r["error"]["message"].as_str().unwrap().contains("expired"), "{r}");

    // Only those who decide requests invite, list and revoke.
    let (s, r) = app.post(&path, Some(&l.home.players[0]), json!({})).await;
    assert_error(s, &r, 403, "forbidden");
    let (s, r) = app.get(&path, Some(&l.away.coach)).await;
    assert_error(s, &r, 403, "forbidden");
    let (s, r) = app.delete(&format!("/api/v1/invites/{}", soon["code"].as_str().unwrap()), Some(&a)).await;
    assert_error(s, &r, 403, "forbidden");

    // Bad terms name each field and make nothing.
    let before = app.count("invites").await;
    let (s, r) = app
        .post(&path, Some(&l.home.coach), json!({"expiresInDays": 0, "maxUses": 101, "email": "not-an-address"}))
        .await;
    assert_error(s, &r, 422, "validation_failed");
    for field in ["expiresInDays", "maxUses", "email"] {
        assert!(r["error"]["details"][field].is_string(), "{field}: {r}");
    }
    assert_eq!(app.count("invites").await, before);
    let (s, r) = app.get("/api/v1/invites/NOSUCHCODE12", None).await;
    assert_error(s, &r, 404, "not_found");
}

#[actix_web::test]
async fn an_event_invite_answers_attending_and_cannot_ask_for_approval() {
    let app = spawn_app().await;
    let org = app.user("organiser").await;
    let start = chrono::Utc::now() + chrono::Duration::days(3);
    let (s, e) = app
        .post(
            "/api/v1/events",
            Some(&org),
            json!({"title": "Friday shinny", "startDate": start.to_rfc3339(), "eventType": "OTHER", "maxSkaters": 1}),
        )
        .await;
    assert_eq!(s, 201, "{e}");
    let event = e["id"].as_str().unwrap();
    let path = format!("/api/v1/events/{event}/invites");
    let (s, r) = app.post(&path, Some(&org), json!({"requireApproval": true})).await;
    assert_error(s, &r, 422, "validation_failed");
    assert_eq!(app.count("invites").await, 0);
    let link = invite(&app, &org, &path, json!({"email": "friend@example.com"})).await;
    assert_eq!(
        (link["maxUses"].as_i64(), link["email"].as_str()),
        (Some(1), Some("friend@example.com")),
        "a mailed invite is for one"
    );
    let link = invite(&app, &org, &path, json!({})).await;
    let code = link["code"].as_str().unwrap();
    let (_, preview) = app.get(&format!("/api/v1/invites/{code}"), None).await;
    assert_eq!((preview["kind"].as_str(), preview["title"].as_str()), (Some("EVENT"), Some("Friday shinny")));
    let (first, second) = (app.user("friend_one").await, app.user("friend_two").await);
    let (_, a) = accept(&app, &first, code).await;
    assert_eq!((a["result"].as_str(), a["eventId"].as_str()), (Some("ATTENDING"), Some(event)), "{a}");
    let (_, a) = accept(&app, &second, code).await;
    assert_eq!(a["result"], "WAITLISTED", "the event's limit holds: {a}");
    let stranger = app.user("stranger").await;
    let (s, r) = app.post(&path, Some(&stranger), json!({})).await;
    assert_error(s, &r, 403, "forbidden");
}
