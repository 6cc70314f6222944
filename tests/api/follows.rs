//! Following people, facilities and teams: idempotent writes, the counts a
//! profile shows, and follow lists paged newest first.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed unwrap is a failed test

use crate::helpers::*;
use serde_json::{Value, json};
use std::collections::HashSet;

/// Walks a list through `nextCursor` until it runs out, returning every
/// page's items.
async fn all_pages(app: &TestApp, path: &str, limit: usize, viewer: Option<&TestUser>) -> Vec<Vec<Value>> {
    let mut pages = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let url = match &cursor {
            None => format!("{path}?limit={limit}"),
            Some(c) => format!("{path}?limit={limit}&cursor={}", urlencode(c)),
        };
        let (status, page) = app.get(&url, viewer).await;
        assert_eq!(status, 200, "{url}: {page}");
        let items = page["items"].as_array().unwrap().clone();
        assert!(items.len() <= limit, "a page of {} with limit {limit}", items.len());
        pages.push(items);
        match page["nextCursor"].as_str() {
            Some(next) => cursor = Some(next.to_string()),
            None => return pages,
        }
        assert!(pages.len() <= 100, "paging does not end");
    }
}

fn urlencode(s: &str) -> String {
    url::form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

fn ids(items: &[Value]) -> Vec<String> {
    items.iter().map(|i| i["id"].as_str().unwrap().to_string()).collect()
}

async fn facility(app: &TestApp, owner: &TestUser, name: &str) -> String {
    let (s, f) =
        app.post("/api/v1/facilities", Some(owner), json!({"name": name, "timezone": "America/Toronto"})).await;
    assert_eq!(s, 201, "{f}");
    f["id"].as_str().unwrap().to_string()
}

async fn team(app: &TestApp, owner: &TestUser, name: &str) -> String {
    let (s, t) = app.post("/api/v1/teams", Some(owner), json!({"name": name})).await;
    assert_eq!(s, 201, "{t}");
    t["id"].as_str().unwrap().to_string()
}

#[actix_web::test]
async fn following_a_person_twice_keeps_one_follow_and_unfollowing_twice_is_harmless() {
    let app = spawn_app().await;
    let alice = app.user("alice").await;
    let bob = app.user("bob").await;
    let follow = format!("/api/v1/users/{}/follow", bob.id);

    for _ in 0..2 {
        let (status, body) = app.put(&follow, Some(&alice), None).await;
        assert_eq!(status, 204, "{body}");
    }
    assert_eq!(app.count("follows").await, 1);

    let (_, seen_by_alice) = app.get(&format!("/api/v1/users/{}", bob.id), Some(&alice)).await;
    assert_eq!(seen_by_alice["followerCount"], 1);
    assert_eq!(seen_by_alice["followingCount"], 0);
    assert_eq!(seen_by_alice["isFollowing"], true);
    let (_, seen_signed_out) = app.get(&format!("/api/v1/users/{}", bob.id), None).await;
    assert_eq!(seen_signed_out["isFollowing"], false);
    let (_, alice_seen_by_bob) = app.get(&format!("/api/v1/users/{}", alice.id), Some(&bob)).await;
    assert_eq!(alice_seen_by_bob["followingCount"], 1);
    assert_eq!(alice_seen_by_bob["followerCount"], 0);
    assert_eq!(alice_seen_by_bob["isFollowing"], false, "bob does not follow alice back");
    let (_, me) = app.get("/api/v1/me", Some(&alice)).await;
    assert_eq!(me["followingCount"], 1);

    for _ in 0..2 {
        let (status, body) = app.delete(&follow, Some(&alice)).await;
        assert_eq!(status, 204, "{body}");
    }
    assert_eq!(app.count("follows").await, 0);
    let (_, after) = app.get(&format!("/api/v1/users/{}", bob.id), Some(&alice)).await;
    assert_eq!(after["followerCount"], 0);
    assert_eq!(after["isFollowing"], false);
}

#[actix_web::test]
async fn nobody_can_follow_themselves() {
    let app = spawn_app().await;
    let alice = app.user("alice").await;
    let (status, body) = app.put(&format!("/api/v1/users/{}/follow", alice.id), Some(&alice), None).await;
    assert_error(status, &body, 422, "validation_failed");
    assert_eq!(app.count("follows").await, 0);
    let (_, me) = app.get("/api/v1/me", Some(&alice)).await;
    assert_eq!(me["followerCount"], 0);
}

#[actix_web::test]
async fn following_needs_a_token_and_someone_to_follow() {
    let app = spawn_app().await;
    let alice = app.user("alice").await;
    let bob = app.user("bob").await;
    let (status, body) = app.put(&format!("/api/v1/users/{}/follow", bob.id), None, None).await;
    assert_error(status, &body, 401, "unauthorized");
    for path in ["/api/v1/users/nobody/follow", "/api/v1/facilities/nowhere/follow", "/api/v1/teams/noteam/follow"] {
        let (status, body) = app.put(path, Some(&alice), None).await;
        assert_error(status, &body, 404, "not_found");
    }
    let total: i64 = app.counts(&["follows", "facility_follows", "team_follows"]).await.iter().map(|(_, n)| n).sum();
    assert_eq!(total, 0);
}

#[actix_web::test]
async fn a_facility_is_followed_once_and_shows_up_in_both_lists() {
    let app = spawn_app().await;
    let owner = app.user("owner").await;
    let alice = app.user("alice").await;
    let rink = facility(&app, &owner, "Maple Arena").await;
    let follow = format!("/api/v1/facilities/{rink}/follow");

    for _ in 0..2 {
        let (status, body) = app.put(&follow, Some(&alice), None).await;
        assert_eq!(status, 204, "{body}");
    }
    assert_eq!(app.count("facility_follows").await, 1);
    let (_, seen) = app.get(&format!("/api/v1/facilities/{rink}"), Some(&alice)).await;
    assert_eq!(seen["followerCount"], 1);
    assert_eq!(seen["isFollowing"], true);
    let (_, seen_by_owner) = app.get(&format!("/api/v1/facilities/{rink}"), Some(&owner)).await;
    assert_eq!(seen_by_owner["isFollowing"], false);

    let (_, followers) = app.get(&format!("/api/v1/facilities/{rink}/followers"), None).await;
    assert_eq!(ids(followers["items"].as_array().unwrap()), vec![alice.id.clone()]);
    let (_, following) = app.get(&format!("/api/v1/users/{}/following/facilities", alice.id), Some(&alice)).await;
    let items = following["items"].as_array().unwrap();
    assert_eq!(ids(items), vec![rink.clone()]);
    assert_eq!(items[0]["name"], "Maple Arena");
    assert_eq!(items[0]["isFollowing"], true);

    for _ in 0..2 {
        let (status, _) = app.delete(&follow, Some(&alice)).await;
        assert_eq!(status, 204);
    }
    assert_eq!(app.count("facility_follows").await, 0);
    let (_, following) = app.get(&format!("/api/v1/users/{}/following/facilities", alice.id), None).await;
    assert_eq!(following["items"], json!([]));
    let (_, seen) = app.get(&format!("/api/v1/facilities/{rink}"), Some(&alice)).await;
    assert_eq!(seen["followerCount"], 0);
}

#[actix_web::test]
async fn a_team_is_followed_once_and_shows_up_in_both_lists() {
    let app = spawn_app().await;
    let owner = app.user("owner").await;
    let alice = app.user("alice").await;
    let geese = team(&app, &owner, "Geese").await;
    let follow = format!("/api/v1/teams/{geese}/follow");

    for _ in 0..2 {
        let (status, body) = app.put(&follow, Some(&alice), None).await;
        assert_eq!(status, 204, "{body}");
    }
    assert_eq!(app.count("team_follows").await, 1);
    let (_, seen) = app.get(&format!("/api/v1/teams/{geese}"), Some(&alice)).await;
    assert_eq!(seen["followerCount"], 1);
    assert_eq!(seen["isFollowing"], true);

    let (_, followers) = app.get(&format!("/api/v1/teams/{geese}/followers"), None).await;
    assert_eq!(ids(followers["items"].as_array().unwrap()), vec![alice.id.clone()]);
    let (_, following) = app.get(&format!("/api/v1/users/{}/following/teams", alice.id), None).await;
    let items = following["items"].as_array().unwrap();
    assert_eq!(ids(items), vec![geese.clone()]);
    assert_eq!(items[0]["name"], "Geese");

    for _ in 0..2 {
        let (status, _) = app.delete(&follow, Some(&alice)).await;
        assert_eq!(status, 204);
    }
    assert_eq!(app.count("team_follows").await, 0);
    let (_, following) = app.get(&format!("/api/v1/users/{}/following/teams", alice.id), None).await;
    assert_eq!(following["items"], json!([]));
}

#[actix_web::test]
async fn followers_are_listed_newest_first_a_page_at_a_time_without_gaps_or_repeats() {
    let app = spawn_app().await;
    let star = app.user("star").await;
    let mut fans = Vec::new();
    for i in 0..25 {
        let fan = app.user(&format!("fan{i:02}")).await;
        let (status, _) = app.put(&format!("/api/v1/users/{}/follow", star.id), Some(&fan), None).await;
        assert_eq!(status, 204);
        fans.push(fan);
    }

    let pages = all_pages(&app, &format!("/api/v1/users/{}/followers", star.id), 10, Some(&fans[0])).await;
    assert_eq!(pages.iter().map(Vec::len).collect::<Vec<_>>(), vec![10, 10, 5]);
    let listed: Vec<Value> = pages.into_iter().flatten().collect();
    let listed_ids = ids(&listed);
    let unique: HashSet<&String> = listed_ids.iter().collect();
    assert_eq!(unique.len(), 25, "no one twice");
    let newest_first: Vec<String> = fans.iter().rev().map(|f| f.id.clone()).collect();
    assert_eq!(listed_ids, newest_first);
    let times: Vec<&str> = listed.iter().map(|u| u["followedAt"].as_str().unwrap()).collect();
    assert!(times.windows(2).all(|w| w[0] >= w[1]), "followedAt goes back in time: {times:?}");
    // The viewer's own follow state is on every row.
    assert!(listed.iter().all(|u| u["isFollowing"] == false));

    let (_, star_now) = app.get(&format!("/api/v1/users/{}", star.id), None).await;
    assert_eq!(star_now["followerCount"], 25);
}

#[actix_web::test]
async fn the_people_someone_follows_are_paged_newest_first() {
    let app = spawn_app().await;
    let alice = app.user("alice").await;
    let mut followed = Vec::new();
    for i in 0..12 {
        let other = app.user(&format!("player{i:02}")).await;
        let (status, _) = app.put(&format!("/api/v1/users/{}/follow", other.id), Some(&alice), None).await;
        assert_eq!(status, 204);
        followed.push(other.id);
    }
    let pages = all_pages(&app, &format!("/api/v1/users/{}/following", alice.id), 5, Some(&alice)).await;
    assert_eq!(pages.iter().map(Vec::len).collect::<Vec<_>>(), vec![5, 5, 2]);
    let listed: Vec<Value> = pages.into_iter().flatten().collect();
    followed.reverse();
    assert_eq!(ids(&listed), followed);
    assert!(listed.iter().all(|u| u["isFollowing"] == true), "alice follows everyone listed");
    let (_, me) = app.get("/api/v1/me", Some(&alice)).await;
    assert_eq!(me["followingCount"], 12);
}

#[actix_web::test]
async fn followed_facilities_and_teams_are_paged_newest_first() {
    let app = spawn_app().await;
    let owner = app.user("owner").await;
    let alice = app.user("alice").await;
    let mut rinks = Vec::new();
    let mut teams = Vec::new();
    for i in 0..5 {
        let rink = facility(&app, &owner, &format!("Rink {i}")).await;
        let t = team(&app, &owner, &format!("Team {i}")).await;
        app.put(&format!("/api/v1/facilities/{rink}/follow"), Some(&alice), None).await;
        app.put(&format!("/api/v1/teams/{t}/follow"), Some(&alice), None).await;
        rinks.push(rink);
        teams.push(t);
    }
    rinks.reverse();
    teams.reverse();
    let rink_pages = all_pages(&app, &format!("/api/v1/users/{}/following/facilities", alice.id), 2, None).await;
    assert_eq!(rink_pages.iter().map(Vec::len).collect::<Vec<_>>(), vec![2, 2, 1]);
    assert_eq!(ids(&rink_pages.concat()), rinks);
    let team_pages = all_pages(&app, &format!("/api/v1/users/{}/following/teams", alice.id), 2, None).await;
    assert_eq!(ids(&team_pages.concat()), teams);
}

#[actix_web::test]
async fn the_follow_lists_of_someone_who_does_not_exist_are_not_found() {
    let app = spawn_app().await;
    for path in [
        "/api/v1/users/nobody/followers",
        "/api/v1/users/nobody/following",
        "/api/v1/users/nobody/following/facilities",
        "/api/v1/users/nobody/following/teams",
        "/api/v1/facilities/nowhere/followers",
        "/api/v1/teams/noteam/followers",
    ] {
        let (status, body) = app.get(path, None).await;
        assert_error(status, &body, 404, "not_found");
    }
}
