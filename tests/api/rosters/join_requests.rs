//! Join requests: asked once, decided once, joining in one transaction
//! with its feed facts; rejected, withdrawn and asked again.

use super::*;
use crate::helpers::*;
use serde_json::json;

#[actix_web::test]
async fn a_join_request_is_asked_once_decided_once_and_joins_in_one_transaction() {
    let app = spawn_app().await;
    let rink = app.user("rink").await;
    let coach = app.user("coach").await;
    let cap = app.user("cap").await;
    let joe = app.user("joe").await;
    let joes_fan = app.user("joesfan").await;
    let team_fan = app.user("teamfan").await;
    let both = app.user("both").await;
    let c = club(&app, &rink, &coach, json!({})).await;
    add(&app, &coach, &c.roster, &cap, json!({"captain": true})).await;
    for u in [&joes_fan, &both] {
        assert_eq!(app.put(&format!("/api/v1/users/{}/follow", joe.id), Some(u), None).await.0, 204);
    }
    for u in [&team_fan, &both] {
        assert_eq!(app.put(&format!("/api/v1/teams/{}/follow", c.team), Some(u), None).await.0, 204);
    }
    let feed_before = app.count("feed_items").await;

    let jr = format!("/api/v1/rosters/{}/join-requests", c.roster);
    let (s, q) = app
        .post(
            &jr,
            Some(&joe),
            json!({"message": "I play D", "preferredPosition": "LEFT_DEFENSE", "commitmentLevel": "SUBSTITUTE"}),
        )
        .await;
    assert_eq!(s, 201, "{q}");
    assert_eq!(q["status"], "PENDING");
    assert_eq!(q["userId"], joe.id.as_str());
    assert_eq!(q["user"]["username"], "joe");
    assert_eq!(q["rosterName"], "Owls A");
    assert_eq!(q["teamName"], "Ice Owls");
    let qid = id(&q);

    let before = app.counts(ROSTER_TABLES).await;
    let (s, b) = app.post(&jr, Some(&joe), json!({})).await;
    assert_error(s, &b, 409, "request_pending");
    let (s, b) = app.post(&jr, Some(&cap), json!({})).await;
    assert_error(s, &b, 409, "already_on_roster");
    let (s, b) = app.post(&jr, Some(&joe), json!({"message": "x".repeat(1001)})).await;
    assert_error(s, &b, 422, "validation_failed");
    let (s, b) = app.post(&jr, Some(&joe), json!({"userId": cap.id})).await;
    assert_error(s, &b, 422, "validation_failed");
    assert_eq!(app.counts(ROSTER_TABLES).await, before);

    // Deciders see it with its message; the public document does not.
    let (s, list) = app.get(&format!("{jr}?status=PENDING"), Some(&cap)).await;
    assert_eq!(s, 200);
    assert_eq!(list["items"][0]["message"], "I play D");
    let (_, list) = app.get(&format!("{jr}?status=APPROVED"), Some(&coach)).await;
    assert_eq!(list["items"], json!([]));
    let (s, _) = app.get(&jr, Some(&joe)).await;
    assert_eq!(s, 403);
    let (_, mine) = app.get("/api/v1/me/join-requests", Some(&joe)).await;
    assert_eq!(mine["items"][0]["id"], qid.as_str());
    let (_, r) = app.get(&format!("/api/v1/rosters/{}", c.roster), Some(&joe)).await;
    assert_eq!(
        r["requests"][0],
        json!({"id": qid, "userId": joe.id, "status": "PENDING", "updatedAt": r["requests"][0]["updatedAt"]})
    );
    assert_eq!(r["viewer"]["pendingRequestId"], qid.as_str());
    assert!(!r.to_string().contains("I play D"));

    // A captain approves: Joe is on the roster with what he asked for.
    let (s, q) = app.post(&format!("/api/v1/join-requests/{qid}/approve"), Some(&cap), json!({})).await;
    assert_eq!(s, 200, "{q}");
    assert_eq!(q["status"], "APPROVED");
    assert_eq!(q["decidedById"], cap.id.as_str());
    let (_, r) = app.get(&format!("/api/v1/rosters/{}", c.roster), None).await;
    let joe_player = r["players"].as_array().unwrap().iter().find(|p| p["userId"] == joe.id.as_str()).unwrap().clone();
    assert_eq!(joe_player["position"], "LEFT_DEFENSE");
    assert_eq!(joe_player["commitmentLevel"], "SUBSTITUTE");

    // Feed: one card per join (issue 26) — joined → Joe's followers and the
    // team's, once each; no TEAM_ROSTER_UPDATED beside it for the team's.
    let joined = ("USER_JOINED_TEAM".to_string(), Some("ROSTER".to_string()), Some(c.roster.clone()));
    assert_eq!(feed_of(&app, &joes_fan).await, vec![joined.clone()]);
    assert_eq!(feed_of(&app, &team_fan).await, vec![joined.clone()]);
    assert_eq!(feed_of(&app, &both).await, vec![joined]);
    assert_eq!(app.count("feed_items").await, feed_before + 3);

    // Deciding twice, or deciding a decided request, changes nothing.
    let before = app.counts(ROSTER_TABLES).await;
    for verb in ["approve", "reject"] {
        let (s, b) = app.post(&format!("/api/v1/join-requests/{qid}/{verb}"), Some(&coach), json!({})).await;
        assert_error(s, &b, 409, "not_pending");
    }
    let (s, b) = app.delete(&format!("/api/v1/join-requests/{qid}"), Some(&joe)).await;
    assert_error(s, &b, 409, "not_pending");
    assert_eq!(app.counts(ROSTER_TABLES).await, before);
}

#[actix_web::test]
async fn a_request_may_be_rejected_withdrawn_and_asked_again() {
    let app = spawn_app().await;
    let rink = app.user("rink").await;
    let coach = app.user("coach").await;
    let amy = app.user("amy").await;
    let c = club(&app, &rink, &coach, json!({})).await;
    let q1 = request(&app, &amy, &c.roster).await;
    let (s, q) = app.post(&format!("/api/v1/join-requests/{q1}/reject"), Some(&coach), json!({})).await;
    assert_eq!(s, 200);
    assert_eq!(q["status"], "REJECTED");
    let q2 = request(&app, &amy, &c.roster).await;
    let (s, b) = app.delete(&format!("/api/v1/join-requests/{q2}"), Some(&coach)).await;
    assert_error(s, &b, 403, "forbidden");
    assert_eq!(app.delete(&format!("/api/v1/join-requests/{q2}"), Some(&amy)).await.0, 204);
    let (s, _) = app.get(&format!("/api/v1/join-requests/{q2}"), Some(&amy)).await;
    assert_eq!(s, 404);
    request(&app, &amy, &c.roster).await;
    // Adding her directly approves her pending request.
    assert_eq!(add(&app, &coach, &c.roster, &amy, json!({})).await.0, 201);
    let (_, mine) = app.get("/api/v1/me/join-requests?status=PENDING", Some(&amy)).await;
    assert_eq!(mine["items"], json!([]));
    let (_, mine) = app.get("/api/v1/me/join-requests", Some(&amy)).await;
    let statuses: Vec<&str> = mine["items"].as_array().unwrap().iter().map(|q| q["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["APPROVED", "REJECTED"]);
}
