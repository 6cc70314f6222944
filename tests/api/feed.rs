//! The feed and posts: every item type from its source to the right
//! audience and no one else, aggregation (also of two facts at once),
//! paging, what disappears with its resource, and live pushes.

use crate::helpers::*;
use crate::rosters::{add, facility, id, put_manager, roster, season, team};
use futures_util::future::join_all;
use serde_json::{Value, json};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(5);

/// Every item of a person's feed (all pages), newest first.
async fn feed(app: &TestApp, u: &TestUser) -> Vec<Value> {
    let mut items = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let path = match &cursor {
            None => "/api/v1/feed?limit=100".to_string(),
            Some(c) => format!("/api/v1/feed?limit=100&cursor={c}"),
        };
        let (s, page) = app.get(&path, Some(u)).await;
        assert_eq!(s, 200, "{page}");
        items.extend(page["items"].as_array().unwrap().iter().cloned());
        match page["nextCursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => return items,
        }
    }
}

/// The items of one type in a person's feed.
async fn of_type(app: &TestApp, u: &TestUser, kind: &str) -> Vec<Value> {
    feed(app, u).await.into_iter().filter(|i| i["type"] == kind).collect()
}

async fn follow(app: &TestApp, who: &TestUser, what: &str) {
    let (s, b) = app.put(&format!("/api/v1/{what}/follow"), Some(who), None).await;
    assert!(s == 200 || s == 204, "{what}: {s} {b}");
}

async fn post(app: &TestApp, author: &TestUser, text: &str) -> String {
    let (s, b) = app.post("/api/v1/posts", Some(author), json!({"content": text})).await;
    assert_eq!(s, 201, "{b}");
    id(&b)
}

#[actix_web::test]
async fn a_new_person_is_welcomed_and_someone_who_finishes_onboarding_following_nobody_gets_suggestions() {
    let app = spawn_app().await;
    let rink_owner = app.user("rinkowner").await;
    let rink = facility(&app, &rink_owner).await;
    let newbie = app.user("newbie").await;
    let welcome = of_type(&app, &newbie, "WELCOME_MESSAGE").await;
    assert_eq!(welcome.len(), 1, "{welcome:?}");
    assert_eq!(welcome[0]["resource"]["id"], newbie.id.as_str());
    assert_eq!(welcome[0]["actorId"], Value::Null);
    // Signing in again does not welcome twice.
    let again = app.user("newbie").await;
    assert_eq!(of_type(&app, &again, "WELCOME_MESSAGE").await.len(), 1);

    let (s, b) = app.post("/api/v1/me/legal", Some(&newbie), json!({"legalVersion": "2026-11"})).await;
    assert_eq!(s, 200, "{b}");
    let (s, b) =
        app.patch("/api/v1/me", Some(&newbie), json!({"profileTypes": ["PLAYER"], "onboardingComplete": true})).await;
    assert_eq!(s, 200, "{b}");
    let nudge = of_type(&app, &newbie, "FIRST_FOLLOW_ENCOURAGEMENT").await;
    assert_eq!(nudge.len(), 1, "{nudge:?}");
    let rinks = nudge[0]["aggregatedData"]["suggestions"]["facilities"].as_array().unwrap();
    assert!(rinks.iter().any(|f| f["id"] == rink.as_str()), "{nudge:?}");

    // Someone who already follows someone is not nudged.
    let social = app.user("social").await;
    follow(&app, &social, &format!("users/{}", newbie.id)).await;
    app.post("/api/v1/me/legal", Some(&social), json!({"legalVersion": "2026-11"})).await;
    app.patch("/api/v1/me", Some(&social), json!({"profileTypes": ["FAN"], "onboardingComplete": true})).await;
    assert!(of_type(&app, &social, "FIRST_FOLLOW_ENCOURAGEMENT").await.is_empty());
}

#[actix_web::test]
async fn a_post_reaches_its_authors_followers_only_and_leaves_their_feeds_when_deleted() {
    let app = spawn_app().await;
    let author = app.user("author").await;
    let fan = app.user("fan").await;
    let stranger = app.user("stranger").await;
    follow(&app, &fan, &format!("users/{}", author.id)).await;
    let p = post(&app, &author, "Ice is fresh tonight — see you at 9:30 https://example.com/rink").await;

    let seen = of_type(&app, &fan, "POST_CREATED").await;
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0]["resource"]["content"], "Ice is fresh tonight — see you at 9:30 https://example.com/rink");
    assert_eq!(seen[0]["actors"][0]["id"], author.id.as_str());
    assert!(of_type(&app, &stranger, "POST_CREATED").await.is_empty());
    // The author's own feed holds it too (issue 26: it used to be missing).
    let own = of_type(&app, &author, "POST_CREATED").await;
    assert_eq!(own.len(), 1, "{own:?}");
    assert_eq!(own[0]["resourceId"], p.as_str());
    assert_eq!(own[0]["actorId"], author.id.as_str());

    // Posts: validation, author-only edits, the profile list.
    let (s, b) = app.post("/api/v1/posts", Some(&author), json!({"content": "   "})).await;
    assert_error(s, &b, 422, "validation_failed");
    let (s, b) = app.post("/api/v1/posts", Some(&author), json!({"content": "x".repeat(5001)})).await;
    assert_error(s, &b, 422, "validation_failed");
    let (s, _) = app.post("/api/v1/posts", Some(&author), json!({"content": "y".repeat(5000)})).await;
    assert_eq!(s, 201);
    let (s, b) = app.patch(&format!("/api/v1/posts/{p}"), Some(&stranger), json!({"content": "hacked"})).await;
    assert_error(s, &b, 403, "forbidden");
    let (s, b) = app.patch(&format!("/api/v1/posts/{p}"), Some(&author), json!({"content": "Ice is fresh."})).await;
    assert_eq!((s, b["content"].as_str()), (200, Some("Ice is fresh.")), "{b}");
    let (_, mine) = app.get(&format!("/api/v1/users/{}/posts?limit=1", author.id), None).await;
    assert_eq!(mine["items"].as_array().unwrap().len(), 1);
    assert!(mine["nextCursor"].is_string());

    let (s, _) = app.delete(&format!("/api/v1/posts/{p}"), Some(&stranger)).await;
    assert_eq!(s, 403);
    let (s, _) = app.delete(&format!("/api/v1/posts/{p}"), Some(&author)).await;
    assert_eq!(s, 204);
    assert_eq!(of_type(&app, &fan, "POST_CREATED").await.len(), 1, "only the second post is left");
    assert_eq!(of_type(&app, &author, "POST_CREATED").await.len(), 1, "and in the author's own feed too");
    let (s, _) = app.get(&format!("/api/v1/posts/{p}"), None).await;
    assert_eq!(s, 404);
}

#[actix_web::test]
async fn events_reach_the_followers_of_organiser_rink_and_teams_and_changes_reach_the_people_going() {
    let app = spawn_app().await;
    let owner = app.user("rinkowner").await;
    let rink = facility(&app, &owner).await;
    let coach = app.user("coach").await;
    let owls = team(&app, &coach, None).await;
    let rink_fan = app.user("rinkfan").await;
    let owls_fan = app.user("owlsfan").await;
    let owner_fan = app.user("ownerfan").await;
    let skater = app.user("skater").await;
    let nobody = app.user("nobody").await;
    follow(&app, &rink_fan, &format!("facilities/{rink}")).await;
    follow(&app, &owls_fan, &format!("teams/{owls}")).await;
    follow(&app, &owner_fan, &format!("users/{}", owner.id)).await;

    let (s, e) = app
        .post(
            "/api/v1/events",
            Some(&owner),
            json!({"title": "Tuesday pickup", "startDate": "2026-12-01T21:00:00Z", "eventType": "OTHER", "facilityId": rink, "maxSkaters": 10}),
        )
        .await;
    assert_eq!(s, 201, "{e}");
    let event = id(&e);
    for who in [&rink_fan, &owner_fan] {
        let created = of_type(&app, who, "EVENT_CREATED").await;
        assert_eq!(created.len(), 1, "{}", who.username);
        assert_eq!(created[0]["resource"]["title"], "Tuesday pickup");
        assert_eq!(created[0]["resource"]["skaterSpotsLeft"], 10);
    }
    for who in [&owls_fan, &nobody, &owner] {
        assert!(of_type(&app, who, "EVENT_CREATED").await.is_empty(), "{}", who.username);
    }
    // A community event at the rink does not go to the rink's followers.
    let (s, _) = app
        .post(
            "/api/v1/events",
            Some(&nobody),
            json!({"title": "Someone's skate", "startDate": "2026-12-02T21:00:00Z", "eventType": "OTHER", "facilityId": rink}),
        )
        .await;
    assert_eq!(s, 201);
    assert_eq!(of_type(&app, &rink_fan, "EVENT_CREATED").await.len(), 1);

    // The team's followers hear of it when their team goes on it.
    let coachs_game = app
        .post(
            "/api/v1/events",
            Some(&coach),
            json!({"title": "Owls vs Hawks", "startDate": "2026-12-03T21:00:00Z", "eventType": "GAME"}),
        )
        .await
        .1;
    let game = id(&coachs_game);
    let (s, _) =
        app.put(&format!("/api/v1/events/{game}/teams/{owls}"), Some(&coach), Some(json!({"role": "HOME"}))).await;
    assert_eq!(s, 200);
    let owls_news = of_type(&app, &owls_fan, "EVENT_CREATED").await;
    assert_eq!(owls_news.len(), 1);
    assert_eq!(owls_news[0]["resourceId"], game.as_str());

    // Changes people care about reach those going; an edit of the
    // description does not.
    let (s, _) =
        app.put(&format!("/api/v1/events/{event}/rsvp"), Some(&skater), Some(json!({"action": "ATTENDING"}))).await;
    assert_eq!(s, 200);
    app.patch(&format!("/api/v1/events/{event}"), Some(&owner), json!({"description": "Bring both jerseys"})).await;
    assert!(of_type(&app, &skater, "EVENT_UPDATED").await.is_empty());
    let (s, _) =
        app.patch(&format!("/api/v1/events/{event}"), Some(&owner), json!({"startDate": "2026-12-01T21:30:00Z"})).await;
    assert_eq!(s, 200);
    let moved = of_type(&app, &skater, "EVENT_UPDATED").await;
    assert_eq!(moved.len(), 1);
    assert_eq!(moved[0]["aggregatedData"]["changes"], json!(["TIME"]));
    let (s, _) = app.post(&format!("/api/v1/events/{event}/cancel"), Some(&owner), json!({})).await;
    assert_eq!(s, 200);
    app.settled().await;
    let updated = of_type(&app, &skater, "EVENT_UPDATED").await;
    assert_eq!(updated.len(), 1, "one item, grown: {updated:?}");
    assert_eq!(updated[0]["aggregatedData"]["count"], 2);
    assert_eq!(updated[0]["resource"]["cancelled"], true);
    assert!(of_type(&app, &nobody, "EVENT_UPDATED").await.is_empty());

    // A deleted event leaves every feed.
    let (s, _) = app.delete(&format!("/api/v1/events/{event}"), Some(&owner)).await;
    assert_eq!(s, 204);
    assert!(feed(&app, &rink_fan).await.iter().all(|i| i["resourceId"] != event.as_str()));
    assert!(feed(&app, &skater).await.iter().all(|i| i["resourceId"] != event.as_str()));
}

#[actix_web::test]
async fn joins_aggregate_into_one_item_even_at_the_same_moment_and_seasons_and_departures_are_told() {
    let app = spawn_app().await;
    let owner = app.user("rinkowner").await;
    let rink = facility(&app, &owner).await;
    let coach = app.user("coach").await;
    let owls = team(&app, &coach, Some(&rink)).await;
    let fan = app.user("fan").await;
    let rink_fan = app.user("rinkfan").await;
    follow(&app, &fan, &format!("teams/{owls}")).await;
    follow(&app, &rink_fan, &format!("facilities/{rink}")).await;
    let winter = season(&app, &owner, &rink).await;
    let (s, _) = app.patch(&format!("/api/v1/seasons/{winter}"), Some(&owner), json!({"isActive": true})).await;
    assert_eq!(s, 200);
    let started = of_type(&app, &rink_fan, "SEASON_STARTED").await;
    assert_eq!(started.len(), 1);
    assert_eq!(started[0]["resource"]["facilityId"], rink.as_str());

    let owls_a = roster(&app, &coach, &owls, &winter, json!({})).await;
    let mut players = Vec::new();
    for i in 0..6 {
        players.push(app.user(&format!("player{i}")).await);
    }
    // Two at the same moment, then four more.
    let at_once = join_all(players[..2].iter().map(|p| add(&app, &coach, &owls_a, p, json!({})))).await;
    assert!(at_once.iter().all(|(s, _)| *s == 201), "{at_once:?}");
    for p in &players[2..] {
        let (s, b) = add(&app, &coach, &owls_a, p, json!({})).await;
        assert_eq!(s, 201, "{b}");
    }
    let joined = of_type(&app, &fan, "USER_JOINED_TEAM").await;
    assert_eq!(joined.len(), 1, "{joined:?}");
    assert_eq!(joined[0]["aggregatedData"]["count"], 6);
    // One card per join: no TEAM_ROSTER_UPDATED beside it (issue 26).
    assert!(of_type(&app, &fan, "TEAM_ROSTER_UPDATED").await.is_empty(), "a join is one card");
    let actors = joined[0]["aggregatedData"]["actorIds"].as_array().unwrap();
    assert_eq!(actors.len(), 6);
    assert_eq!(actors[0], players[5].id.as_str(), "newest first");
    assert_eq!(joined[0]["resource"]["teamName"], "Ice Owls");
    // A follower of one of the players hears it too.
    let friend = app.user("friend").await;
    follow(&app, &friend, &format!("users/{}", players[0].id)).await;
    let other = app.user("other").await;
    let (s, _) = add(&app, &coach, &owls_a, &other, json!({})).await;
    assert_eq!(s, 201);
    assert!(of_type(&app, &friend, "USER_JOINED_TEAM").await.is_empty(), "friend's player did not join now");

    // Leaving is a roster update for the team's followers.
    let (s, _) = app.delete(&format!("/api/v1/rosters/{owls_a}/players/{}", players[1].id), Some(&players[1])).await;
    assert_eq!(s, 204);
    let updated = of_type(&app, &fan, "TEAM_ROSTER_UPDATED").await;
    assert_eq!(updated.len(), 1);
    assert_eq!(updated[0]["actorId"], players[1].id.as_str());
    assert_eq!(updated[0]["aggregatedData"]["count"], 1, "the departure alone, no joins folded in");
}

#[actix_web::test]
async fn paging_covers_every_item_once_and_a_forged_cursor_is_refused() {
    let app = spawn_app().await;
    let reader = app.user("reader").await;
    let mut authors = Vec::new();
    for i in 0..5 {
        let a = app.user(&format!("author{i}")).await;
        follow(&app, &reader, &format!("users/{}", a.id)).await;
        authors.push(a);
    }
    for round in 0..3 {
        for a in &authors {
            post(&app, a, &format!("{} says hello #{round}", a.username)).await;
        }
    }
    // 15 posts and the welcome.
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let path = match &cursor {
            None => "/api/v1/feed?limit=4".to_string(),
            Some(c) => format!("/api/v1/feed?limit=4&cursor={c}"),
        };
        let (_, page) = app.get(&path, Some(&reader)).await;
        for item in page["items"].as_array().unwrap() {
            seen.push((item["updatedAt"].as_str().unwrap().to_string(), item["id"].as_str().unwrap().to_string()));
        }
        match page["nextCursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => break,
        }
    }
    assert_eq!(seen.len(), 16);
    let mut ids: Vec<&String> = seen.iter().map(|(_, id)| id).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 16, "no item twice");
    assert!(seen.windows(2).all(|w| w[0] >= w[1]), "newest first");
    for forged in ["nonsense", "12_", "_abc", "99999999999999999999_x"] {
        let (s, b) = app.get(&format!("/api/v1/feed?cursor={forged}"), Some(&reader)).await;
        assert_error(s, &b, 422, "validation_failed");
    }
    let (s, _) = app.get("/api/v1/feed", None).await;
    assert_eq!(s, 401);
}

/// The next update carrying an item of this type (skipping others the
/// same socket may be pushed meanwhile).
async fn next_item(ws: &mut Ws, kind: &str) -> Option<Value> {
    loop {
        let update = ws.next_of("update", WAIT).await?;
        if update["data"]["type"] == kind {
            return Some(update);
        }
    }
}

#[actix_web::test]
async fn the_feed_topic_snapshots_the_first_page_and_pushes_new_and_grown_items() {
    let app = spawn_app().await;
    let author = app.user("author").await;
    let reader = app.user("reader").await;
    let coach = app.user("coach").await;
    follow(&app, &reader, &format!("users/{}", author.id)).await;
    let mut ws = app.ws().await;
    ws.auth(&reader).await;
    let snap = ws.subscribe("feed").await;
    assert_eq!(snap["topic"], "feed");
    assert_eq!(snap["data"]["items"][0]["type"], "WELCOME_MESSAGE");

    post(&app, &author, "Live!").await;
    let update = ws.next_of("update", WAIT).await.expect("the post arrives live");
    assert_eq!(update["topic"], "feed");
    assert_eq!(update["data"]["type"], "POST_CREATED");
    assert_eq!(update["data"]["resource"]["content"], "Live!");
    assert!(update["seq"].as_i64().unwrap() > snap["seq"].as_i64().unwrap());

    // A join grows an item: pushed again with the new count.
    let owls = team(&app, &coach, None).await;
    let rink = facility(&app, &coach).await;
    let winter = season(&app, &coach, &rink).await;
    let roster_id = roster(&app, &coach, &owls, &winter, json!({})).await;
    follow(&app, &reader, &format!("teams/{owls}")).await;
    let first = app.user("first").await;
    let second = app.user("second").await;
    add(&app, &coach, &roster_id, &first, json!({})).await;
    let one = next_item(&mut ws, "USER_JOINED_TEAM").await.expect("first join");
    assert_eq!(one["data"]["aggregatedData"]["count"], 1);
    add(&app, &coach, &roster_id, &second, json!({})).await;
    let two = next_item(&mut ws, "USER_JOINED_TEAM").await.expect("second join");
    assert_eq!(two["data"]["id"], one["data"]["id"], "the same item, grown");
    assert_eq!(two["data"]["aggregatedData"]["count"], 2);

    // Nobody else's feed: another person's socket hears nothing of it; the
    // writer's own open feed gets it live.
    let mut other = app.ws().await;
    other.auth(&author).await;
    other.subscribe("feed").await;
    post(&app, &reader, "to my followers, of whom the author is not one").await;
    let own = next_item(&mut ws, "POST_CREATED").await.expect("my own post reaches my own open feed");
    assert_eq!(own["data"]["actorId"], reader.id.as_str());
    assert_eq!(own["data"]["resource"]["content"], "to my followers, of whom the author is not one");
    assert!(other.next_of("update", Duration::from_millis(500)).await.is_none());
}

#[actix_web::test]
async fn a_rink_manager_is_not_told_about_the_event_they_made() {
    let app = spawn_app().await;
    let owner = app.user("rinkowner").await;
    let manager = app.user("manager").await;
    let rink = facility(&app, &owner).await;
    put_manager(&app, &owner, "facilities", &rink, &manager).await;
    follow(&app, &manager, &format!("facilities/{rink}")).await;
    let (s, _) = app
        .post(
            "/api/v1/events",
            Some(&manager),
            json!({"title": "Stick and puck", "startDate": "2026-12-05T10:00:00Z", "eventType": "OTHER", "facilityId": rink}),
        )
        .await;
    assert_eq!(s, 201);
    assert!(of_type(&app, &manager, "EVENT_CREATED").await.is_empty());
}

/// The next update on a feed socket, or None when nothing comes.
async fn next_update(ws: &mut Ws, within: Duration) -> Option<Value> {
    ws.next_of("update", within).await
}

#[actix_web::test]
async fn an_edited_post_reaches_open_feeds_in_place_and_a_deleted_one_leaves_them() {
    let app = spawn_app().await;
    let author = app.user("author").await;
    let fan = app.user("fan").await;
    let stranger = app.user("stranger").await;
    follow(&app, &fan, &format!("users/{}", author.id)).await;
    let p = post(&app, &author, "Ice at 9").await;
    let newer = post(&app, &author, "Bring a white jersey").await;
    let before = of_type(&app, &fan, "POST_CREATED").await;
    let item = before.iter().find(|i| i["resourceId"] == p.as_str()).expect("the first post's item").clone();

    let mut fans = app.ws().await;
    fans.auth(&fan).await;
    let snap = fans.subscribe("feed").await;
    assert_eq!(snap["data"]["items"][0]["resourceId"], newer.as_str(), "the newer post is on top");
    let mut strangers = app.ws().await;
    strangers.auth(&stranger).await;
    strangers.subscribe("feed").await;
    let mut authors = app.ws().await;
    authors.auth(&author).await;
    authors.subscribe("feed").await;

    // An edit of the older item passes the snapshot's floor, with its place kept.
    let (s, b) = app.patch(&format!("/api/v1/posts/{p}"), Some(&author), json!({"content": "Ice at 9:30"})).await;
    assert_eq!(s, 200, "{b}");
    let edited = next_update(&mut fans, WAIT).await.expect("the edit arrives live");
    assert_eq!(edited["topic"], "feed");
    assert_eq!(edited["data"]["id"], item["id"]);
    assert_eq!(edited["data"]["resource"]["content"], "Ice at 9:30");
    assert_eq!(edited["data"]["updatedAt"], item["updatedAt"], "an edit does not move the item");
    assert!(edited["seq"].as_i64().unwrap() > snap["seq"].as_i64().unwrap());
    let listed = of_type(&app, &fan, "POST_CREATED").await;
    assert_eq!(listed[1]["id"], item["id"], "still below the newer post");
    // The author's own feed holds the post too (issue 26): it hears of the
    // edit, in place, on the author's own item.
    let own_edit = next_update(&mut authors, WAIT).await.expect("the author's own feed hears of the edit");
    assert_eq!(own_edit["data"]["resource"]["content"], "Ice at 9:30");
    assert_eq!(own_edit["data"]["resourceId"], p.as_str());
    assert_ne!(own_edit["data"]["id"], item["id"], "the author's own item, not the fan's");

    // Delete: exactly that item leaves the open feed.
    let (s, _) = app.delete(&format!("/api/v1/posts/{p}"), Some(&author)).await;
    assert_eq!(s, 204);
    let removed = next_update(&mut fans, WAIT).await.expect("the removal arrives live");
    assert_eq!(removed["topic"], "feed");
    assert_eq!(removed["data"], json!({"id": item["id"], "removed": true}));
    assert!(next_update(&mut fans, Duration::from_millis(300)).await.is_none(), "one frame per item");

    // The author's feed loses it too; nobody else's feed heard of either.
    let own_removal = next_update(&mut authors, WAIT).await.expect("the author's own feed hears of the removal");
    assert_eq!(own_removal["data"], json!({"id": own_edit["data"]["id"], "removed": true}));
    assert!(next_update(&mut strangers, Duration::from_millis(300)).await.is_none());
    assert!(next_update(&mut authors, Duration::from_millis(300)).await.is_none(), "one frame per item");
}

#[actix_web::test]
async fn a_refused_edit_pushes_nothing() {
    let app = spawn_app().await;
    let author = app.user("author").await;
    let fan = app.user("fan").await;
    follow(&app, &fan, &format!("users/{}", author.id)).await;
    let p = post(&app, &author, "Ice at 9").await;
    let mut fans = app.ws().await;
    fans.auth(&fan).await;
    fans.subscribe("feed").await;

    let (s, b) = app.patch(&format!("/api/v1/posts/{p}"), Some(&fan), json!({"content": "hijacked"})).await;
    assert_error(s, &b, 403, "forbidden");
    let (s, b) = app.patch(&format!("/api/v1/posts/{p}"), Some(&author), json!({"content": "   "})).await;
    assert_error(s, &b, 422, "validation_failed");
    let (s, _) = app.delete(&format!("/api/v1/posts/{p}"), Some(&fan)).await;
    assert_eq!(s, 403);
    assert!(next_update(&mut fans, Duration::from_millis(500)).await.is_none());
    assert_eq!(of_type(&app, &fan, "POST_CREATED").await[0]["resource"]["content"], "Ice at 9");
}
