//! Putting players on a roster, editing and taking them off: jersey
//! numbers, captain and alternate letters, `maxMembers` (also under
//! concurrent approvals) and leaving.

use super::*;
use crate::helpers::*;
use serde_json::{Value, json};

#[actix_web::test]
async fn jersey_numbers_are_unique_on_a_roster_and_between_0_and_99() {
    let app = spawn_app().await;
    let rink = app.user("rink").await;
    let coach = app.user("coach").await;
    let (a, b, d) = (app.user("amy").await, app.user("bob").await, app.user("dan").await);
    let c = club(&app, &rink, &coach, json!({})).await;
    assert_eq!(add(&app, &coach, &c.roster, &a, json!({"jerseyNumber": 0})).await.0, 201);
    assert_eq!(add(&app, &coach, &c.roster, &b, json!({"jerseyNumber": 99})).await.0, 201);
    let before = app.counts(ROSTER_TABLES).await;
    let (s, body) = add(&app, &coach, &c.roster, &d, json!({"jerseyNumber": 0})).await;
    assert_error(s, &body, 409, "jersey_taken");
    for n in [100, -1] {
        let (s, body) = add(&app, &coach, &c.roster, &d, json!({"jerseyNumber": n})).await;
        assert_error(s, &body, 422, "validation_failed");
        assert!(body["error"]["details"]["jerseyNumber"].is_string());
    }
    let (s, body) = app
        .patch(&format!("/api/v1/rosters/{}/players/{}", c.roster, b.id), Some(&coach), json!({"jerseyNumber": 0}))
        .await;
    assert_error(s, &body, 409, "jersey_taken");
    let (s, body) = add(&app, &coach, &c.roster, &a, json!({})).await;
    assert_error(s, &body, 409, "already_on_roster");
    assert_eq!(app.counts(ROSTER_TABLES).await, before);

    // Keeping your own number, taking a free one, or none at all is fine.
    let ppath = format!("/api/v1/rosters/{}/players/{}", c.roster, b.id);
    assert_eq!(app.patch(&ppath, Some(&coach), json!({"jerseyNumber": 99})).await.0, 200);
    let (s, p) = app
        .patch(
            &ppath,
            Some(&coach),
            json!({"jerseyNumber": null, "position": "GOALIE", "commitmentLevel": "SUBSTITUTE"}),
        )
        .await;
    assert_eq!(s, 200, "{p}");
    assert_eq!(
        (p["jerseyNumber"].clone(), p["position"].clone(), p["commitmentLevel"].clone()),
        (Value::Null, json!("GOALIE"), json!("SUBSTITUTE"))
    );
    assert_eq!(add(&app, &coach, &c.roster, &d, json!({"jerseyNumber": 99})).await.0, 201);
    // The same number on another roster is fine.
    let other = roster(&app, &coach, &c.team, &c.season, json!({"name": "B"})).await;
    assert_eq!(add(&app, &coach, &other, &d, json!({"jerseyNumber": 99})).await.0, 201);
}

#[actix_web::test]
async fn a_roster_has_one_captain_and_at_most_two_alternates() {
    let app = spawn_app().await;
    let rink = app.user("rink").await;
    let coach = app.user("coach").await;
    let c = club(&app, &rink, &coach, json!({})).await;
    let mut people = Vec::new();
    for n in ["cap1", "cap2", "alt1", "alt2", "alt3", "xavier"] {
        people.push(app.user(n).await);
    }
    let [c1, c2, a1, a2, a3, x] = &people[..] else { unreachable!() };
    assert_eq!(add(&app, &coach, &c.roster, c1, json!({"captain": true})).await.0, 201);
    assert_eq!(add(&app, &coach, &c.roster, a1, json!({"alternateCaptain": true})).await.0, 201);
    assert_eq!(add(&app, &coach, &c.roster, a2, json!({"alternateCaptain": true})).await.0, 201);
    let before = app.counts(ROSTER_TABLES).await;
    let (s, b) = add(&app, &coach, &c.roster, c2, json!({"captain": true})).await;
    assert_error(s, &b, 409, "captain_taken");
    let (s, b) = add(&app, &coach, &c.roster, a3, json!({"alternateCaptain": true})).await;
    assert_error(s, &b, 409, "alternate_captains_full");
    let (s, b) = add(&app, &coach, &c.roster, x, json!({"captain": true, "alternateCaptain": true})).await;
    assert_error(s, &b, 422, "validation_failed");
    assert!(b["error"]["details"]["alternateCaptain"].is_string());
    // Promoting an alternate to captain while they keep the A is refused;
    // dropping the A is not enough while another player has the C.
    let a1path = format!("/api/v1/rosters/{}/players/{}", c.roster, a1.id);
    let (s, b) = app.patch(&a1path, Some(&coach), json!({"captain": true})).await;
    assert_error(s, &b, 422, "validation_failed");
    let (s, b) = app.patch(&a1path, Some(&coach), json!({"captain": true, "alternateCaptain": false})).await;
    assert_error(s, &b, 409, "captain_taken");
    let c1path = format!("/api/v1/rosters/{}/players/{}", c.roster, c1.id);
    let (s, b) = app.patch(&c1path, Some(&coach), json!({"alternateCaptain": true})).await;
    assert_error(s, &b, 422, "validation_failed");
    assert_eq!(app.counts(ROSTER_TABLES).await, before);
    let (_, r) = app.get(&format!("/api/v1/rosters/{}", c.roster), None).await;
    assert_eq!(r["players"].as_array().unwrap().iter().filter(|p| p["captain"] == true).count(), 1);
    assert_eq!(r["players"].as_array().unwrap().iter().filter(|p| p["alternateCaptain"] == true).count(), 2);

    // Hand the C over: take it off, then give it.
    assert_eq!(app.patch(&c1path, Some(&coach), json!({"captain": false})).await.0, 200);
    let (s, p) = app.patch(&a1path, Some(&coach), json!({"captain": true, "alternateCaptain": false})).await;
    assert_eq!(s, 200, "{p}");
    assert_eq!((p["captain"].clone(), p["alternateCaptain"].clone()), (json!(true), json!(false)));
    assert_eq!(add(&app, &coach, &c.roster, a3, json!({"alternateCaptain": true})).await.0, 201);
}

#[actix_web::test]
async fn max_members_holds_for_adds_and_approvals_and_cannot_drop_below_the_roster() {
    let app = spawn_app().await;
    let rink = app.user("rink").await;
    let coach = app.user("coach").await;
    let fan = app.user("fan").await;
    let (a, b, d) = (app.user("amy").await, app.user("bob").await, app.user("dan").await);
    let c = club(&app, &rink, &coach, json!({"maxMembers": 2})).await;
    let (s, body) = app
        .post(
            "/api/v1/rosters",
            Some(&coach),
            json!({"teamId": c.team, "seasonId": c.season, "name": "X", "maxMembers": 0}),
        )
        .await;
    assert_error(s, &body, 422, "validation_failed");
    app.put(&format!("/api/v1/teams/{}/follow", c.team), Some(&fan), None).await;
    assert_eq!(add(&app, &coach, &c.roster, &a, json!({})).await.0, 201);
    let q = request(&app, &d, &c.roster).await;
    assert_eq!(add(&app, &coach, &c.roster, &b, json!({})).await.0, 201);

    let before = app.counts(ROSTER_TABLES).await;
    let (s, body) = add(&app, &coach, &c.roster, &d, json!({})).await;
    assert_error(s, &body, 409, "roster_full");
    let (s, body) = app.post(&format!("/api/v1/join-requests/{q}/approve"), Some(&coach), json!({})).await;
    assert_error(s, &body, 409, "roster_full");
    let (s, body) = app.patch(&format!("/api/v1/rosters/{}", c.roster), Some(&coach), json!({"maxMembers": 1})).await;
    assert_error(s, &body, 409, "max_members_below_roster");
    assert_eq!(app.counts(ROSTER_TABLES).await, before, "nothing changed, not even the feed");
    let (_, req) = app.get(&format!("/api/v1/join-requests/{q}"), Some(&d)).await;
    assert_eq!(req["status"], "PENDING");

    // Room again: the same approval goes through.
    let (s, _) = app.patch(&format!("/api/v1/rosters/{}", c.roster), Some(&coach), json!({"maxMembers": 3})).await;
    assert_eq!(s, 200);
    let (s, req) = app.post(&format!("/api/v1/join-requests/{q}/approve"), Some(&coach), json!({})).await;
    assert_eq!(s, 200, "{req}");
    let (s, _) = app.patch(&format!("/api/v1/rosters/{}", c.roster), Some(&coach), json!({"maxMembers": null})).await;
    assert_eq!(s, 200);
}

#[actix_web::test]
async fn concurrent_approvals_never_overfill_a_roster() {
    let app = spawn_app().await;
    let rink = app.user("rink").await;
    let coach = app.user("coach").await;
    let c = club(&app, &rink, &coach, json!({"maxMembers": 3})).await;
    let mut requests = Vec::new();
    for i in 0..8 {
        let u = app.user(&format!("hopeful{i}")).await;
        requests.push(request(&app, &u, &c.roster).await);
    }
    let paths: Vec<String> = requests.iter().map(|q| format!("/api/v1/join-requests/{q}/approve")).collect();
    let answers = futures_util::future::join_all(paths.iter().map(|p| app.post(p, Some(&coach), json!({})))).await;
    let ok = answers.iter().filter(|(s, _)| *s == 200).count();
    assert_eq!(ok, 3, "{answers:?}");
    for (s, b) in answers.iter().filter(|(s, _)| *s != 200) {
        assert_error(*s, b, 409, "roster_full");
    }
    assert_eq!(app.count("roster_players").await, 3);
}

#[actix_web::test]
async fn a_player_may_leave_and_managers_may_remove_players() {
    let app = spawn_app().await;
    let rink = app.user("rink").await;
    let coach = app.user("coach").await;
    let (a, b) = (app.user("amy").await, app.user("bob").await);
    let c = club(&app, &rink, &coach, json!({})).await;
    add(&app, &coach, &c.roster, &a, json!({})).await;
    add(&app, &coach, &c.roster, &b, json!({})).await;
    let (s, body) = app.delete(&format!("/api/v1/rosters/{}/players/{}", c.roster, b.id), Some(&a)).await;
    assert_error(s, &body, 403, "forbidden");
    assert_eq!(app.delete(&format!("/api/v1/rosters/{}/players/{}", c.roster, a.id), Some(&a)).await.0, 204);
    assert_eq!(app.delete(&format!("/api/v1/rosters/{}/players/{}", c.roster, b.id), Some(&coach)).await.0, 204);
    let (s, body) = app.delete(&format!("/api/v1/rosters/{}/players/{}", c.roster, b.id), Some(&coach)).await;
    assert_error(s, &body, 404, "not_found");
    let (_, r) = app.get(&format!("/api/v1/rosters/{}", c.roster), None).await;
    assert_eq!(players(&r), Vec::<String>::new());
}
